"""The one modifier table (rules_tables.MODIFIERS): every spotting and fire roll's modifiers come
from its rows, each row names a value the pack's rule tables hold, and the engine's modules write
no modifier of their own."""
import re
from pathlib import Path

from sandtable.rules.desert_steel import rules_tables
from sandtable.rules.desert_steel.engine.modifiers import rows
from sandtable.rules.desert_steel.rules_tables import MODIFIERS, SEPARATION_ROWS

ENGINE = Path(rules_tables.__file__).parent / "engine"
KINDS = ("spot", "direct", "indirect", "raid", "zone")
# the range row reads the range schedules; these fire_modifiers ids are range-schedule notes the
# print aids show (same_hex, adjacent_*) or a factor bonus rather than a die-roll modifier (§13.28)
NOT_ROWS = {"same_hex", "adjacent_anti_vehicle", "adjacent_anti_infantry", "self_spotting"}


def _ids(model, table):
    return {m["id"] for m in model.tables.raw[table]} if hasattr(model, "tables") else None


def test_rows_are_unique_and_cite_a_section():
    names = [m.name for m in MODIFIERS]
    assert len(names) == len(set(names))
    for m in MODIFIERS:
        assert m.kinds and m.kinds <= set(KINDS), m
        assert re.fullmatch(r"\d+\.\d+(, \d+\.\d+)*", m.section), m
        assert m.when and callable(m.test), m


def test_every_row_reads_a_value_the_pack_holds(catalog):
    from sandtable.rules.desert_steel.engine.game import make_context
    tables = make_context(catalog.model, catalog.model.scenario("I")).tables.raw
    spot = {m["id"] for m in tables["spotting_modifiers"]}
    fire = {m["id"] for m in tables["fire_modifiers"]}
    variants = {"target_spotted": {f"target_spotted_{x}" for x in "abc"}, "separated": set(SEPARATION_ROWS)}
    for m in MODIFIERS:
        if m.value is not None:
            continue  # computed: the range schedules, the scenario's modifier
        ids = variants.get(m.name, {m.name})
        if "spot" in m.kinds:
            assert ids <= spot, m
        if m.kinds - {"spot"}:
            assert ids <= fire, m
    covered = {i for m in MODIFIERS for i in variants.get(m.name, {m.name})}
    assert spot <= covered
    assert fire - NOT_ROWS <= covered


def test_each_kind_takes_its_rows_in_the_table_order():
    for kind in KINDS:
        assert list(rows(kind)) == [m for m in MODIFIERS if kind in m.kinds]
    assert "range" not in {m.name for m in rows("spot")} | {m.name for m in rows("raid")}


def test_no_engine_module_writes_a_modifier(catalog):
    """The table is the only place: no engine module reads a spotting or fire modifier by its id
    or sets one in a roll's modifiers (bots may weigh the numbers; morale has its own rows).
    Read elsewhere, as factors rather than modifiers: self_spotting (§13.28) and the anti-infantry
    bonus that picks a fire zone's or a raid's kind of fire (§13.1)."""
    from sandtable.rules.desert_steel.engine.game import make_context
    tables = make_context(catalog.model, catalog.model.scenario("I")).tables.raw
    ids = {m["id"] for k in ("spotting_modifiers", "fire_modifiers") for m in tables[k]} | {"range", "scenario"}
    morale = {m["id"] for m in tables["morale_modifiers"]} | {"scenario", "losses"}
    written = re.compile(r"""\b(t|tables)\.(spot|fire)\(["'](?!self_spotting|anti_infantry_vs_lightly_armored)"""
                         r"""|mods\[["'](\w+)["']\]\s*=""")
    offenders = []
    for path in sorted(ENGINE.glob("*.py")):
        if path.name.startswith(("bots", "plan_", "search")):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            found = written.search(line)
            if found and (found.group(3) is None or (found.group(3) in ids and "morale" not in line
                                                      and found.group(3) not in morale)):
                offenders.append(f"{path.name}:{n}: {line.strip()}")
    assert offenders == []


def test_a_shot_takes_the_rows_whose_test_holds(catalog):
    """A direct fire at a moving Veteran through its flank, the firer Green: those rows and the range."""
    from sandtable.rules.desert_steel.engine.game import Game, make_context
    from sandtable.rules.desert_steel.engine.runner import sample_setup
    model = catalog.model
    scenario = model.scenario("I")
    game = Game(model, scenario, sample_setup(catalog, scenario), 1, context=make_context(model, scenario))
    units = list(game.state.units.values())
    firer = next(u for u in units if u.side == "allied")
    target = next(u for u in units if u.side == "axis")
    hexes = sorted(game.ctx.field.board.usable)
    firer.hex, target.hex, firer.status, target.status = hexes[0], hexes[3], "on-map", "on-map"
    game.experience = lambda u: "green" if u is firer else "veteran"
    target.moved = True
    mods = game.fire_modifiers(firer, target, False, False)
    t = game.ctx.tables
    assert mods["moving_target"] == t.fire("moving_target") and mods["target_veteran"] == t.fire("target_veteran")
    assert mods["firer_green"] == t.fire("firer_green") and "range" in mods
    assert "spotter_green" not in mods and "target_in_cover" not in mods
    spot = game.spot_modifiers(firer, target, False, False)
    assert spot["spotter_green"] == t.spot("spotter_green") and "firer_green" not in spot and "range" not in spot
