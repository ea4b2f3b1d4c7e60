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


# --- what people read: the print aids' charts, the play account, the diagnostics -------------------------------

def _engine_values(raw, kind):
    """Every rule-table id a roll of this kind reads, with the value the engine's modifiers() gives it: a stand-in
    roll where every row's test holds, once per id of a keyed row (the Spotted letter, the separation row)."""
    from types import SimpleNamespace

    from sandtable.rules.desert_steel.engine import modifiers as engine
    from sandtable.rules.desert_steel.engine.tables import Tables
    out = {}
    for spotted, separated in zip("ABC", SEPARATION_ROWS):
        state = SimpleNamespace(entrenchments=[1], bunkers=[1], minefields=[1], wire={"h"}, smoke={"h"})
        game = SimpleNamespace(state=state, ctx=SimpleNamespace(tables=Tables(raw), special=[1], advanced=False))
        target = SimpleNamespace(moved=True, spotted=spotted)
        shot = SimpleNamespace(game=game, kind=kind, mode="ai", distance=None, cover=True, move_fire=True,
                               close_assault=True, spill=True, fire_zone=True, target=target, target_is_vehicle=True,
                               target_experience="veteran", firer_experience="green", target_entrenched=True,
                               target_in_bunker=True, target_in_minefield=True, target_in_wire=True, flank_fire=True,
                               through_own_flank=True, smoke=True, separation_row=separated, scenario_modifier=0)
        out.update(engine.modifiers(shot))
    return out


def _thaw(x):
    from collections.abc import Mapping
    if isinstance(x, Mapping):
        return {k: _thaw(v) for k, v in x.items()}
    return [_thaw(v) for v in x] if isinstance(x, (list, tuple)) else x


def _model_with(model, change):
    from types import SimpleNamespace
    raw = _thaw(model.rule_tables)
    change(raw)
    return SimpleNamespace(rule_tables=raw)


def _check_charts(model):
    from sandtable.exports.desert_steel.rule_aids import CHARTS, modifier_lines
    for chart, kinds in CHARTS.items():
        lines = modifier_lines(model, chart)
        for kind in kinds:  # one line per row of the kind (per id of a keyed row), in the table's order
            mine = [(ln.row, ln.key) for ln in lines if kind in ln.kinds]
            want = [(m, i) for m in rows(kind) for i in (m.ids() or (None,))]
            assert mine == want, (chart, kind)
            engine = _engine_values(model.rule_tables, kind)
            for ln in lines:
                if kind in ln.kinds and ln.key is not None:
                    assert ln.value == engine[ln.key], (kind, ln.key)
        for ln in lines:  # the words are the table's, in both languages
            variant = ln.variant
            assert ln.text("en").lower() == (variant.when if variant else ln.row.when).lower()
            assert ln.text("fr").lower() == (variant.when_fr if variant else ln.row.when_fr).lower()
            assert ln.row.computed == (ln.key is None) and (not ln.row.computed or ln.pointer("en"))


def test_every_row_has_its_words_in_both_languages():
    for m in MODIFIERS:
        assert m.label and m.label_fr and m.when_fr, m
        for v in m.variants:
            assert v.label and v.label_fr and v.when and v.when_fr, v
        if m.computed:
            assert m.pointer and m.pointer_fr, m
    assert tuple(v.key for v in rules_tables.modifier("separated").variants) == SEPARATION_ROWS


def test_the_aids_charts_are_the_tables_rows_with_the_engines_values(model):
    _check_charts(model)


def test_a_mod_packs_values_reach_the_aids_charts(model):
    """A mod pack that changes a spotting and a fire value: the charts print the new values, as the engine reads them."""
    from sandtable.exports.desert_steel.rule_aids import modifier_lines

    def change(raw):
        for m in raw["spotting_modifiers"]:
            if m["id"] == "target_spotted_b":
                m["value"] = 5
        for m in raw["fire_modifiers"]:
            if m["id"] == "firer_green":
                m["value"] = -3
    mod = _model_with(model, change)
    _check_charts(mod)
    assert {ln.key: ln.value for ln in modifier_lines(mod, "spot")}["target_spotted_b"] == 5
    assert {ln.key: ln.value for ln in modifier_lines(mod, "fire")}["firer_green"] == -3


def test_the_aids_pdf_prints_each_rows_condition(model):
    import io

    from pypdf import PdfReader

    from sandtable.exports.desert_steel.aids import aids_pdf
    for lang in ("en", "fr"):
        text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(aids_pdf(model, lang=lang)[0])).pages)
        for m in MODIFIERS:
            words = " ".join(((m.when_fr if lang == "fr" else m.when)).split()[:3])
            if not m.variants:
                assert words[1:] in text, (lang, m.name, words)


def test_the_play_account_names_modifiers_by_the_tables_label_and_section():
    from sandtable.rules.desert_steel.narration import _modifier
    assert _modifier("moving_target", -2) == f"moving target -2 (\u00a7{rules_tables.modifier('moving_target').section})"
    assert _modifier("target_spotted_c", 1).startswith("target Spotted C +1 (\u00a79.18")
    assert _modifier("separated_vehicle", -2).startswith("separated Seasoned or Green vehicle -2 (\u00a711.5")


def test_no_reader_carries_its_own_modifier_list():
    """The aids, the play account and the diagnostics read the table: none of them writes a spotting or fire
    modifier's id (nor a French label keyed by one) but through rules_tables."""
    root = Path(rules_tables.__file__).parents[2]
    files = [root / "exports" / "desert_steel" / n for n in ("aids.py", "lang_aids.py", "rule_aids.py", "reminders.py",
                                                            "markers.py")]
    files += [root / "rules" / "desert_steel" / n for n in ("narration.py", "engine/diagnostics.py")]
    ids = {i for m in MODIFIERS for i in m.ids()} | {m.name for m in MODIFIERS}
    # through the table: rule_aids asks a row by its name (modifier_value, clause, v.mod, the separated variants)
    allowed = re.compile(r"""((mod|modifier_value|clause|modifier|table_value)\(|modifier=).*["'](\w+)["']""")
    from sandtable.exports.desert_steel.markers import KINDS
    from sandtable.rules.desert_steel.engine.diagnostics import FIELDS
    offenders = []
    for path in files:
        # the diagnostics count move-and-fire operations (\u00a79.5), a field named as the operation
        # and the markers are named as the rulebook's markers (SMOKE, SEPARATED), not as modifiers
        own = set(FIELDS) if path.name == "diagnostics.py" else set(KINDS) if path.name == "markers.py" else set()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for found in re.finditer(r"""["'](\w+)["']""", line):
                if found.group(1) in ids - own and not allowed.search(line):
                    offenders.append(f"{path.name}:{n}: {line.strip()}")
    assert offenders == []


def test_the_diagnostics_count_each_rows_rolls_and_name_it_by_the_table(model, catalog):
    """A game of IX (advanced: indirect fire, raids): per side, each row counts the side's spotting and fire rolls
    whose logged modifiers hold one of its ids; the batch names them by the table's label and §."""
    from sandtable.rules.desert_steel.engine.diagnostics import Recorder, aggregate, game_diagnostics
    from sandtable.rules.desert_steel.engine.runner import play, sample_setup
    scenario = model.scenario("IX")
    rec = Recorder()
    game = play(model, scenario, sample_setup(catalog, scenario), 3, recorder=rec)
    d = game_diagnostics(game, rec)
    units = game.state.units
    for side in ("allied", "axis"):
        rolls = [e for e in game.events if e["e"] in ("spot", "fire") and e.get("target") in units
                 and units[e["target"]].side != side]
        for m in MODIFIERS:
            n = sum(1 for e in rolls if set(e.get("modifiers") or ()) & (set(m.ids()) | {m.name}))
            assert d[side]["modifiers"].get(m.name, 0) == n, (side, m.name)
        assert list(d[side]["modifiers"]) == [m.name for m in MODIFIERS if m.name in d[side]["modifiers"]]
    assert any(d[s]["modifiers"] for s in ("allied", "axis"))
    batch = aggregate([d, d])
    for side in ("allied", "axis"):
        for row in batch[side]["modifiers"]:
            m = rules_tables.modifier(row["modifier"])
            assert (row["label"], row["section"]) == (m.label, m.section)
            assert row["a_game"] == d[side]["modifiers"][m.name]


def test_a_marker_that_prints_a_modifier_reads_it_through_the_table(model):
    """The bunker marker's \u22126 (\u00a715.24) is the pack's value of the table's row: a mod pack prints its own."""
    from sandtable.exports.desert_steel.markers import KINDS, face
    bunker = KINDS["bunker"]
    assert rules_tables.modifier(bunker.modifier)
    assert face(bunker, model) == ("BUNKER", "\u22126")

    def change(raw):
        for m in raw["fire_modifiers"]:
            if m["id"] == "target_in_bunker":
                m["value"] = -4
    assert face(bunker, _model_with(model, change)) == ("BUNKER", "\u22124")


def test_no_engine_module_names_a_modifiers_id():
    """Beyond reading values: no engine module but the table's own reader (modifiers.py) spells a modifier's
    rule-table id (a §11.5 row, a Spotted letter's row, a condition): it asks rules_tables. Single words (smoke,
    range, separated, scenario) name other things too; the roll's circumstances (Shot.NEEDS) and the diagnostics'
    fields are names of their own; the anti-infantry bonus read as a factor (§13.1) is the documented exception."""
    from sandtable.rules.desert_steel.engine.diagnostics import FIELDS
    from sandtable.rules.desert_steel.engine.modifiers import Shot
    ids = {i for m in MODIFIERS for i in m.ids()} | {m.name for m in MODIFIERS}
    ids = {i for i in ids if "_" in i} - set(Shot.NEEDS) - set(Shot.__slots__) - set(FIELDS)
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name == "modifiers.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for found in re.finditer(r"""["'](\w+)["']""", line):
                if found.group(1) in ids and not re.search(r"""\.fire\(["']anti_infantry_vs_lightly_armored""", line):
                    offenders.append(f"{path.relative_to(ENGINE)}:{n}: {line.strip()}")
    assert offenders == []


def test_no_engine_module_quotes_a_modifiers_value():
    """Not in prose either: an engine docstring or comment that says "at −2" or "+6 same hex" is a second
    place a modifier is written, and goes stale when a mod pack changes the table. The engine's text names
    a modifier by what it is (the same-hex modifier, the spill's); the table (and the aids) give the value.
    Event outcomes (outcomes.py) describe fields, not values, and modifiers.py is the table's reader."""
    signed = re.compile(r"(?<![\w\[(=,])[+−]\d")
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name == "modifiers.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if signed.search(line):
                offenders.append(f"{path.relative_to(ENGINE)}:{n}: {line.strip()}")
    assert offenders == []
