"""Setup checks (§18.4 and the rules it calls on): every rule a setup can break, as a finding.

``check_setup`` takes the typed model and one setup (raw JSON with its document, for
line numbers) and returns findings, each with the rule's section.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from ..board import BoardError
from ..findings import Finding, Severity
from .battlefield import Battlefield
from .model import CombatCard, DesertSteel, Scenario
from .preflight import scenario_problems, units_in_play
from .setup_rules import best_centre, doctrine_radius, expected_units  # noqa: F401 - also this module's API
from .zones import ZoneError

CAPACITY_KEYS = {"truck": "truck", "motorcycle": "motorcycle", "light": "light"}
TRANSPORT_TYPES = {"truck": "truck", "motorcycle": "motorcycle", "light": "halftrack"}


@dataclass
class SetupContext:
    model: DesertSteel
    scenario: Scenario
    field: Battlefield
    setup: Mapping
    report: Callable[..., Finding]  # (code, message, pointer, section=...) -> Finding

    @property
    def settings(self) -> Mapping:
        return self.field.settings


def check_setup(model: DesertSteel, setup: Mapping, report: Callable[..., Finding],
                field: Battlefield | None = None) -> list[Finding]:
    """``field``: the scenario's battlefield when the caller already has it (the editor's
    placement tab checks after every drop and keeps one; its zones stay cached)."""
    scenario = model.scenario(setup["scenario"])
    if scenario is None:
        return [report("unknown-reference", f"scenario {setup['scenario']!r} does not exist", "/scenario")]
    if field is None or field.scenario is not scenario:
        try:
            field = Battlefield.for_scenario(model, scenario)
        except BoardError as exc:
            return [report("board-invalid", str(exc), "/scenario", section="18.3")]
    ctx = SetupContext(model, scenario, field, setup, report)
    # what the engine would refuse about the scenario itself, named here too (one preflight)
    out: list[Finding] = [report(p.code, p.message, "/scenario", section=p.section)
                          for p in scenario_problems(model, scenario)]
    for side in ("allied", "axis"):
        data = setup.get("sides", {}).get(side, {})
        for check in (_placements, _units, _stacking, _separation, _hidden, _fortifications, _fortification_sites,
                      _bunker_occupants, _obstacles,
                      _transports, _special_rules):
            out += check(ctx, side, data)
    if not any(f.severity == Severity.ERROR for f in out):
        refused = setup_refusal(model, scenario, setup, field)  # the engine itself, last (one truth)
        if refused:
            out.append(report("setup-unplayable", f"the engine would not start a game from this setup: {refused}",
                              "/sides"))
    return out


# --- helpers -----------------------------------------------------------------------------

def _zone(ctx: SetupContext, expression, where: str) -> frozenset[str] | None:
    try:
        return ctx.field.zone(expression)
    except ZoneError as exc:
        raise _ZoneFailure(f"{where}: {exc}") from exc


class _ZoneFailure(Exception):
    pass


def _setup_groups(scenario: Scenario, side: str) -> dict[int, Mapping]:
    """Card number -> the formation group that sets it up on the map."""
    out = {}
    for group in scenario.sides[side].groups:
        if "setup" in group:
            for n in group["cards"]:
                out[n] = group
    return out


def _placements_of(data: Mapping) -> list[tuple[int, Mapping]]:
    return list(enumerate(data.get("placements", ())))


def _hex(ctx: SetupContext, ref: str, pointer: str, what: str) -> tuple[str | None, list[Finding]]:
    key = ctx.field.board.resolve(ref)
    if key is None:
        return None, [ctx.report("setup-hex", f"{what} in {ref}: no such hex on this board", pointer, section="18.4")]
    if key not in ctx.field.board.usable:
        return None, [ctx.report("setup-hex", f"{what} in {ref}: a half hex at a map edge is never usable",
                                 pointer, section="18.4")]
    return key, []


def _unit_label(ctx: SetupContext, p: Mapping) -> str:
    card = ctx.model.cards.get(p["card"])
    unit = ctx.model.unit_types.get(p["type"])
    return f"{card.designation if card else p['card']} {unit.name if unit else p['type']}"


# --- checks ------------------------------------------------------------------------------

def _placements(ctx: SetupContext, side: str, data: Mapping) -> list[Finding]:
    out = []
    groups = _setup_groups(ctx.scenario, side)
    zones: dict[int, frozenset[str] | None] = {}
    for i, p in _placements_of(data):
        ptr = f"/sides/{side}/placements/{i}"
        key, problems = _hex(ctx, p["hex"], f"{ptr}/hex", _unit_label(ctx, p))
        out += problems
        if p["card"] not in groups:
            out.append(ctx.report("setup-formation",
                                  f"card {p['card']} does not set up on the map at the start of "
                                  f"{ctx.scenario.id} (it enters later or belongs to another side)",
                                  f"{ptr}/card", section="18.4"))
            continue
        if key is None:
            continue
        if p["card"] not in zones:
            try:
                zones[p["card"]] = _zone(ctx, groups[p["card"]]["setup"], f"setup zone of card {p['card']}")
            except _ZoneFailure as exc:
                zones[p["card"]] = None
                out.append(ctx.report("zone-invalid", str(exc), f"{ptr}/card"))
        zone = zones[p["card"]]
        if zone is not None and key not in zone and not _in_observer_zone(ctx, side, p):
            out.append(ctx.report("setup-zone", f"{_unit_label(ctx, p)} in {p['hex']} is outside its setup zone",
                                  f"{ptr}/hex", section="18.4"))
    return out


def _observers(ctx: SetupContext, side: str) -> Mapping:
    """§12.21: "tous les OA de vos forces initiales peuvent être déployés de manière cachée" unless the
    scenario says otherwise (VI's Italians); where, the scenario's text (VIII, IX, XI), else with their
    formation (NOTES.md)."""
    return ctx.scenario.sides[side].raw.get("hidden_observers", {"allowed": True})


def _in_observer_zone(ctx: SetupContext, side: str, p: Mapping) -> bool:
    """A hidden FO of a scenario that says where hidden FOs set up is checked there (in _hidden), not
    in its formation's zone: IX "en n'importe quel endroit de la carte", XI's Axis "en tout point des
    deux cartes"."""
    allowed = _observers(ctx, side)
    unit = ctx.model.unit_types.get(p["type"])
    return bool(p.get("hidden") and unit is not None and unit.unit_class == "forward-observer"
                and allowed.get("allowed", True) and "zone" in allowed)


def _units(ctx: SetupContext, side: str, data: Mapping) -> list[Finding]:
    out = []
    placed: dict[int, Counter] = defaultdict(Counter)
    for _, p in _placements_of(data):
        placed[p["card"]][p["type"]] += 1
    year = ctx.scenario.sides[side].year
    for number in _setup_groups(ctx.scenario, side):
        expected = expected_units(ctx.model, ctx.scenario, side, number)
        got = placed.get(number, Counter())
        if expected == got or not isinstance(ctx.model.cards.get(number), CombatCard):
            continue
        # Units the basic rules set aside (§2.11) may be placed or not: the engine ignores them.
        required = units_in_play(ctx.model, ctx.scenario, side, number)
        missing = required - got
        extra = got - expected
        if not missing and not extra:
            continue
        parts = []
        if missing:
            parts.append("missing " + ", ".join(f"{n} {t}" for t, n in sorted(missing.items())))
        if extra:
            parts.append("not on the card " + ", ".join(f"{n} {t}" for t, n in sorted(extra.items())))
        card = ctx.model.cards[number]
        out.append(ctx.report("setup-units", f"card {number} ({card.designation}) in {year}: " + "; ".join(parts),
                              f"/sides/{side}/placements", section="18.1"))
    return out


def _stacking(ctx: SetupContext, side: str, data: Mapping) -> list[Finding]:
    limit = ctx.field.tables.get("stacking", {}).get("default", {"units": 6, "vehicles": 3})
    # Scenario transports are units on the map like any other, and vehicles ("les camions et autres
    # moyens de transport", §2.11): they count in the limits, as in the engine's morale step 4.
    per_hex: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for i, p in _placements_of(data):
        per_hex[ctx.field.board.resolve(p["hex"]) or p["hex"]].append(("placements", i))
    for i, t in enumerate(data.get("transports", ())):
        per_hex[ctx.field.board.resolve(t["hex"]) or t["hex"]].append(("transports", i))
    out = []
    for ref, entries in sorted(per_hex.items()):
        units = [ctx.model.unit_types.get(data[kind][i]["type"]) for kind, i in entries]
        vehicles = sum(1 for u in units if u is not None and u.is_vehicle)
        if len(entries) > limit["units"] or vehicles > limit["vehicles"]:
            carried = sum(1 for kind, _ in entries if kind == "transports")
            with_transports = f", {carried} of them scenario transports" if carried else ""
            kind, first = entries[-1] if carried else entries[0]
            out.append(ctx.report(
                "setup-stacking", f"{len(entries)} units ({vehicles} vehicles{with_transports}) of one side in "
                f"{ref}; the limit is {limit['units']} units, {limit['vehicles']} of them vehicles",
                f"/sides/{side}/{kind}/{first}/hex", section="8.5"))
    return out


def _separation(ctx: SetupContext, side: str, data: Mapping) -> list[Finding]:
    out = []
    by_card: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for i, p in _placements_of(data):
        unit = ctx.model.unit_types.get(p["type"])
        key = ctx.field.board.resolve(p["hex"])
        if unit is None or key is None or unit.unit_class == "forward-observer" or p.get("hidden"):
            continue  # FOs are exempt (§12.2)
        by_card[p["card"]].append((i, key))
    for number, items in sorted(by_card.items()):
        card = ctx.model.cards.get(number)
        if not isinstance(card, CombatCard) or len(items) < 2:
            continue
        radius = doctrine_radius(ctx.settings, card)
        if radius is None:
            continue
        centre, outside = best_centre(ctx.field, [k for _, k in items], radius)
        if outside:
            names = ", ".join(f"{_unit_label(ctx, data['placements'][items[j][0]])} in {items[j][1]}" for j in outside)
            out.append(ctx.report(
                "setup-separated",
                f"{card.designation} ({number}) would start separated: no hex has all its units within "
                f"{radius}; best centre {centre} leaves out {names}",
                f"/sides/{side}/placements/{items[outside[0]][0]}/hex", section="11"))
    return out


def _hidden(ctx: SetupContext, side: str, data: Mapping) -> list[Finding]:
    out = []
    allowed = _observers(ctx, side)
    zone = None
    for i, p in _placements_of(data):
        if not p.get("hidden"):
            continue
        ptr = f"/sides/{side}/placements/{i}/hidden"
        unit = ctx.model.unit_types.get(p["type"])
        if unit is not None and unit.unit_class != "forward-observer" and not _hidden_by_rule(ctx, side, p):
            out.append(ctx.report("setup-hidden", f"{_unit_label(ctx, p)} is not a forward observer: only FOs "
                                                  "set up hidden", ptr, section="12.21"))
            continue
        if _hidden_by_rule(ctx, side, p):
            continue
        if not allowed.get("allowed", True):
            out.append(ctx.report("setup-hidden", f"{ctx.scenario.id} does not allow {side} hidden forward "
                                                  "observers", ptr, section="12.21"))
            continue
        if "zone" in allowed:
            if zone is None:
                try:
                    zone = _zone(ctx, allowed["zone"], "hidden observer zone")
                except _ZoneFailure as exc:
                    out.append(ctx.report("zone-invalid", str(exc), ptr))
                    zone = frozenset(ctx.field.board.usable)
            key = ctx.field.board.resolve(p["hex"])
            if key is not None and key not in zone:
                out.append(ctx.report("setup-hidden", f"hidden FO in {p['hex']} is outside the zone where the "
                                                      "scenario allows them", f"/sides/{side}/placements/{i}/hex",
                                      section="12.21"))
    return out


def _hidden_by_rule(ctx: SetupContext, side: str, p: Mapping) -> bool:
    """A scenario special rule lets a whole formation deploy hidden (Alam el Halfa's B/102)."""
    return any(r["type"] == "hidden-deployment" and p["card"] in r.get("cards", ())
               and r.get("side", side) in (side, "both") for r in ctx.scenario.raw.get("special_rules", ()))


_FORT_KEYS = {"wire": "wire", "entrenchment": "entrenchments", "bunker": "bunkers"}


def _fortifications(ctx: SetupContext, side: str, data: Mapping) -> list[Finding]:
    out = []
    allowance = ctx.scenario.sides[side].raw.get("fortifications", {})
    placed = [("minefields", ref, f"/sides/{side}/minefields/{i}") for i, ref in enumerate(data.get("minefields", ()))]
    placed += [(_FORT_KEYS[f["type"]], f["hex"], f"/sides/{side}/fortifications/{i}/hex")
               for i, f in enumerate(data.get("fortifications", ()))]
    # a unit set up entrenched occupies one of the scenario's entrenchments (§18.4, §13.41)
    placed += [("entrenchments", p["hex"], f"/sides/{side}/placements/{i}/entrenched")
               for i, p in _placements_of(data) if p.get("entrenched")]
    counts = Counter(kind for kind, _, _ in placed)
    for kind, n in sorted(counts.items()):
        allowed = allowance.get(kind, {}).get("count", 0)
        if n > allowed:
            first = next(ptr for k, _, ptr in placed if k == kind)
            out.append(ctx.report("setup-fortification", f"{n} {kind} placed; {ctx.scenario.id} allows {side} "
                                                         f"{allowed}", first, section="18.4"))
    zones: dict[str, frozenset | None] = {}
    per_hex: dict[tuple[str, str], int] = Counter()
    mines = set()
    for kind, ref, ptr in placed:
        key, problems = _hex(ctx, ref, ptr, kind.rstrip("s"))
        out += problems
        if key is None:
            continue
        per_hex[(kind, key)] += 1
        if kind == "minefields":
            mines.add(key)
        spec = allowance.get(kind, {})
        if "zone" in spec:
            if kind not in zones:
                try:
                    zones[kind] = _zone(ctx, spec["zone"], f"{kind} zone")
                except _ZoneFailure as exc:
                    zones[kind] = None
                    out.append(ctx.report("zone-invalid", str(exc), ptr))
            if zones[kind] is not None and key not in zones[kind]:
                out.append(ctx.report("setup-fortification", f"{kind.rstrip('s')} in {ref} is outside the zone "
                                                             "the scenario allows", ptr, section="18.4"))
    for (kind, key), n in sorted(per_hex.items()):
        if kind == "wire" and n > 1:
            out.append(ctx.report("setup-fortification", f"{n} wire in {key}: at most one per hex",
                                  f"/sides/{side}/fortifications", section="15.31"))
        if kind == "entrenchments" and n > ctx.settings.get("entrenchments_per_hex", 6):
            out.append(ctx.report("setup-fortification", f"{n} entrenchments in {key}: at most "
                                  f"{ctx.settings.get('entrenchments_per_hex', 6)} per hex",
                                  f"/sides/{side}/fortifications", section="13.41"))
        if kind == "minefields" and n > 1:
            out.append(ctx.report("setup-fortification", f"minefield recorded twice in {key}",
                                  f"/sides/{side}/minefields", section="15.11"))
    for kind, ref, ptr in placed:
        key = ctx.field.board.resolve(ref)
        if kind == "entrenchments" and key in mines:
            out.append(ctx.report("setup-fortification", f"entrenchment in {ref}, a minefield hex", ptr,
                                  section="13.41"))
        if kind == "bunkers" and key in mines:
            out.append(ctx.report("setup-fortification", f"bunker in {ref}, a minefield hex", ptr, section="15.11"))
    return out


def _fortification_sites(ctx: SetupContext, side: str, data: Mapping) -> list[Finding]:
    """§15.21: no bunker in a building hex; §15.31: no wire in a building hex nor in a hex
    holding a friendly unit; §13.41: only non-vehicles set up entrenched."""
    out = []
    friendly = {ctx.field.board.resolve(u["hex"]) for u in list(data.get("placements", ())) +
                list(data.get("transports", ()))}
    for i, f in enumerate(data.get("fortifications", ())):
        key = ctx.field.board.resolve(f["hex"])
        ptr = f"/sides/{side}/fortifications/{i}/hex"
        if key is None or f["type"] not in ("wire", "bunker"):
            continue
        section = "15.31" if f["type"] == "wire" else "15.21"
        terrain = ctx.field.terrain.hexes.get(key)
        if terrain is not None and terrain.building:
            out.append(ctx.report("setup-fortification", f"{f['type']} in {f['hex']}, a building hex", ptr,
                                  section=section))
        if f["type"] == "wire" and key in friendly:
            out.append(ctx.report("setup-fortification", f"wire in {f['hex']}, a hex holding a friendly unit", ptr,
                                  section=section))
    for i, p in _placements_of(data):
        unit = ctx.model.unit_types.get(p["type"])
        if p.get("entrenched") and unit is not None and unit.is_vehicle:
            out.append(ctx.report("setup-fortification", f"{_unit_label(ctx, p)} is a vehicle: only non-vehicles "
                                  "are entrenched", f"/sides/{side}/placements/{i}/entrenched", section="13.41"))
    return out


def _bunker_occupants(ctx: SetupContext, side: str, data: Mapping) -> list[Finding]:
    """§15.22: only infantry and forward observers enter bunkers, one unit in each."""
    out = []
    bunkers = Counter(ctx.field.board.resolve(f["hex"]) for f in data.get("fortifications", ())
                      if f["type"] == "bunker")
    inside: Counter = Counter()
    for i, p in _placements_of(data):
        if not p.get("in_bunker"):
            continue
        ptr = f"/sides/{side}/placements/{i}/in_bunker"
        unit = ctx.model.unit_types.get(p["type"])
        if unit is not None and unit.unit_class not in ("infantry", "forward-observer"):
            out.append(ctx.report("setup-fortification", f"{_unit_label(ctx, p)} cannot enter a bunker: only "
                                  "infantry and forward observers do", ptr, section="15.22"))
        key = ctx.field.board.resolve(p["hex"])
        inside[key] += 1
        if inside[key] > bunkers[key]:
            out.append(ctx.report("setup-fortification", f"{_unit_label(ctx, p)} is set up in a bunker in "
                                  f"{p['hex']}, but {side} has {bunkers[key]} bunker(s) there and one unit "
                                  "fits in each", ptr, section="15.22"))
    return out


def _obstacles(ctx: SetupContext, side: str, data: Mapping) -> list[Finding]:
    """§18.4: no unit sets up in a wire or minefield hex (either side's)."""
    blocked = {}
    for s in ("allied", "axis"):
        sd = ctx.setup.get("sides", {}).get(s, {})
        for ref in sd.get("minefields", ()):
            blocked[ctx.field.board.resolve(ref)] = "a minefield"
        for f in sd.get("fortifications", ()):
            if f["type"] == "wire":
                blocked[ctx.field.board.resolve(f["hex"])] = "wire"
    out = []
    for i, p in _placements_of(data):
        key = ctx.field.board.resolve(p["hex"])
        if key in blocked:
            out.append(ctx.report("setup-obstacle", f"{_unit_label(ctx, p)} sets up in {p['hex']}, which holds "
                                                    f"{blocked[key]}", f"/sides/{side}/placements/{i}/hex",
                                  section="18.4"))
    return out


def _transports(ctx: SetupContext, side: str, data: Mapping) -> list[Finding]:
    out = []
    allowed = Counter()
    for t in ctx.scenario.sides[side].raw.get("transports", ()):
        if t.get("turn", 1) <= 1:
            allowed[t["type"]] += t["count"]
    placed = data.get("transports", ())
    kinds = []
    for i, t in enumerate(placed):
        unit = ctx.model.unit_types.get(t["type"])
        cap = unit.transport_capacity if unit else None
        kind = TRANSPORT_TYPES.get(cap) if cap else None
        ptr = f"/sides/{side}/transports/{i}"
        if unit is None or kind is None or unit.formation_transport:
            out.append(ctx.report("setup-transport", f"{t['type']} is not a scenario transport", f"{ptr}/type",
                                  section="18.6"))
            kinds.append(None)
            continue
        kinds.append(kind)
        _, problems = _hex(ctx, t["hex"], f"{ptr}/hex", unit.name)
        out += problems
    for kind, n in sorted(Counter(k for k in kinds if k).items()):
        if n > allowed[kind]:
            out.append(ctx.report("setup-transport", f"{n} {kind} transports placed; {ctx.scenario.id} gives "
                                                     f"{side} {allowed[kind]} at the start",
                                  f"/sides/{side}/transports", section="18.6"))
    loads: dict[int, list[int]] = defaultdict(list)
    for i, p in _placements_of(data):
        if "loaded_in" in p:
            loads[p["loaded_in"]].append(i)
    for index, passengers in sorted(loads.items()):
        out += _load(ctx, side, data, index, passengers)
    return out


def _load(ctx, side, data, index: int, passengers: list[int]) -> list[Finding]:
    ptr = f"/sides/{side}/placements/{passengers[0]}/loaded_in"
    placed = data.get("transports", ())
    if index >= len(placed):
        return [ctx.report("setup-transport", f"transport {index} does not exist", ptr, section="13.34")]
    carrier = ctx.model.unit_types.get(placed[index]["type"])
    if carrier is None or carrier.transport_capacity is None:
        return []
    cls = CAPACITY_KEYS[carrier.transport_capacity]
    s = ctx.settings
    capacity = s.get(f"transport_{cls}_capacity", {"truck": 4, "motorcycle": 3, "light": 2}[cls])
    max_infantry = s.get(f"transport_{cls}_max_infantry", {"truck": 3, "motorcycle": 3, "light": 1}[cls])
    can_tow = s.get(f"transport_{cls}_can_tow", cls != "motorcycle")
    units = [ctx.model.unit_types.get(data["placements"][i]["type"]) for i in passengers]
    infantry = sum(1 for u in units if u is not None and u.unit_class == "infantry")
    towed = sum(1 for u in units if u is not None and u.towed)
    out = []
    if len(units) > capacity or infantry > max_infantry:
        out.append(ctx.report("setup-transport", f"{carrier.name} carries {len(units)} units ({infantry} infantry); "
                                                 f"its capacity is {capacity} (at most {max_infantry} infantry)",
                              ptr, section="13.34"))
    if towed and not can_tow:
        out.append(ctx.report("setup-transport", f"{carrier.name} cannot tow artillery", ptr, section="13.33"))
    for i in passengers:
        if data["placements"][i]["hex"] != placed[index]["hex"]:
            out.append(ctx.report("setup-transport", "a passenger must stand in its transport's hex",
                                  f"/sides/{side}/placements/{i}/hex", section="13.3"))
    return out


def _special_rules(ctx: SetupContext, side: str, data: Mapping) -> list[Finding]:
    out = []
    for rule in ctx.scenario.raw.get("special_rules", ()):
        if rule.get("side", "both") not in (side, "both"):
            continue
        if rule["type"] == "no-stacking":
            out += _no_stacking(ctx, side, data, rule)
        elif rule["type"] == "prohibited-hexes" and "zone" in rule:
            try:
                zone = _zone(ctx, rule["zone"], f"special rule {rule['id']}")
            except _ZoneFailure as exc:
                out.append(ctx.report("zone-invalid", str(exc), f"/sides/{side}"))
                continue
            for i, p in _placements_of(data):
                if ctx.field.board.resolve(p["hex"]) in zone:
                    out.append(ctx.report("setup-special-rule", f"{_unit_label(ctx, p)} in {p['hex']}: "
                                          f"{rule['text']['en']}", f"/sides/{side}/placements/{i}/hex",
                                          section=f"scenario {ctx.scenario.number}"))
    return out


def _matches(model: DesertSteel, p: Mapping, rule: Mapping) -> bool:
    if "cards" in rule and p["card"] not in rule["cards"]:
        return False
    unit = model.unit_types.get(p["type"])
    f = rule.get("units", {})
    if unit is None:
        return False
    if "nationality" in f and unit.nationality not in f["nationality"]:
        return False
    if "class" in f and unit.unit_class not in f["class"]:
        return False
    return True


def _no_stacking(ctx, side, data, rule) -> list[Finding]:
    per_hex: dict[str, list[int]] = defaultdict(list)
    for i, p in _placements_of(data):
        if _matches(ctx.model, p, rule):
            per_hex[p["hex"]].append(i)
    return [ctx.report("setup-special-rule", f"{len(ix)} units stacked in {ref}: {rule['text']['en']}",
                       f"/sides/{side}/placements/{ix[1]}/hex", section=f"scenario {ctx.scenario.number}")
            for ref, ix in sorted(per_hex.items()) if len(ix) > 1]


def unit_hexes(data: Mapping) -> Iterable[str]:
    return (p["hex"] for p in data.get("placements", ()))


def setup_refusal(model: DesertSteel, scenario: Scenario, setup: Mapping, field=None) -> str | None:
    """The engine's own answer to a setup: a game is made from it (a few ms, no move played) and
    its refusal, if any, is returned as the engine says it. check-setup calls it once its own
    rules find nothing, so that whatever else the engine checks at set-up (raids planned, units
    loaded at set-up, bunkers…) cannot pass check-setup and fail in ``simulate``. None for a
    scenario the engine does not play or has refused already (said elsewhere)."""
    import copy

    from .engine.context import EngineError, make_context, missing_rules  # the engine sits below check-setup
    from .engine.game import Game
    if missing_rules(model, scenario) or scenario_problems(model, scenario):
        return None
    try:
        Game(model, scenario, copy.deepcopy(dict(setup)), 0, context=make_context(model, scenario, field=field))
    except EngineError as exc:
        return str(exc)
    except Exception:  # noqa: BLE001 - a malformed setup or pack: the schema, the checks and the
        return None     # setup rules name what is wrong; check-setup never stops on user data
    return None
