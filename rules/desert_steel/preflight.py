"""The preflight: what the engine would refuse to play, said once (architecture principle 12).

The engine calls ``scenario_problems`` before a game (``engine.context.make_context``) and
refuses with its first sentence; ``validate``/the editor's live checks (``checks.py``),
``check-setup`` (``setup_checks.check_setup``) and the automatic setup report the same
problems as findings. A rule of play added to the engine belongs here, not in each caller,
so that no check can pass a scenario the engine then refuses.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterator, Mapping

from .model import CombatCard, DesertSteel, Scenario
from .setup_rules import expected_units

# §2.11: "dans les règles de base, seuls les véhicules sont utilisés"; transports are vehicles.
BASIC_CLASSES = ("vehicle", "transport")
_CLASS_NAMES = {"infantry": "infantry", "artillery": "artillery", "forward-observer": "forward observers"}


@dataclass(frozen=True)
class Problem:
    """One refusal: a finding code, a plain sentence (with its §), where in the scenario."""
    code: str
    message: str
    pointer: str
    section: str


def in_play(unit_class: str, advanced: bool) -> bool:
    """Whether a unit of this class takes part in a game under the scenario's rules (§2.11)."""
    return advanced or unit_class in BASIC_CLASSES


def units_in_play(model: DesertSteel, scenario: Scenario, side: str, number: int) -> Counter:
    """The units of a card that set up or enter in this scenario: the card's year variant less
    the undermanned removals, and under the basic rules its vehicles only (§2.11)."""
    units = expected_units(model, scenario, side, number)
    advanced = scenario.rules != "basic"
    return Counter({t: n for t, n in units.items()
                    if t in model.unit_types and in_play(model.unit_types[t].unit_class, advanced)})


def _groups(raw: Mapping, side: str) -> Iterator[tuple[str, Mapping]]:
    data = (raw.get("sides") or {}).get(side) or {}
    for i, g in enumerate(data.get("formations", ())):
        yield f"/sides/{side}/formations/{i}", g
    for i, g in enumerate(data.get("reinforcements", ())):
        yield f"/sides/{side}/reinforcements/{i}", g


@dataclass(frozen=True)
class Lookup:
    """What the preflight reads of a pack, from the engine's typed model or from the raw
    documents of a catalog being checked (which need not build the model: 0.1 s an edit)."""
    units: Callable[[str, int], Counter]  # (side, card number) -> its units in the scenario
    designation: Callable[[int], str | None]  # None: not a combat card
    unit_class: Callable[[str], str | None]


def model_lookup(model: DesertSteel, scenario: Scenario) -> Lookup:

    def designation(n):
        card = model.cards.get(n)
        return card.designation if isinstance(card, CombatCard) else None

    def unit_class(t):
        u = model.unit_types.get(t)
        return u.unit_class if u is not None else None
    return Lookup(lambda side, n: expected_units(model, scenario, side, n), designation, unit_class)


def catalog_lookup(catalog, raw: Mapping) -> Lookup:
    """The same reading of the raw documents (a card's year variant less undermanned removals)."""
    def card(n):
        e = catalog.get("formation-card", n)
        return e.value if e is not None and e.value.get("type") == "combat" else None

    def units(side, n):
        c = card(n)
        year = (raw.get("year_override") or {}).get(side, raw.get("year"))
        variant = ((c or {}).get("variants") or {}).get(str(year))
        if variant is None:
            return Counter()
        out = Counter()
        for u in variant.get("units", ()):
            out[u["type"]] += u["count"]
        for under in ((raw.get("sides") or {}).get(side) or {}).get("undermanned", ()):
            if under.get("card") == n:
                for r in under.get("remove", ()):
                    out[r["type"]] -= r["count"]
        return +out

    def unit_class(t):
        e = catalog.get("unit-type", t)
        return e.value.get("class") if e is not None else None
    return Lookup(units, lambda n: (card(n) or {}).get("designation") if card(n) else None, unit_class)


def _basic_units(raw: Mapping, look: Lookup) -> Iterator[Problem]:
    """A combat card with no fighting unit in play under the basic rules would field an empty
    formation, or only transports with nothing to carry (transport is an advanced rule, §13.3):
    the engine sets its infantry, guns and FOs aside (§2.11). The designer meant the advanced
    rules or another card. A card that also has fighting vehicles plays them (V's 337 and its FO)."""
    for side in ("allied", "axis"):
        for gptr, group in _groups(raw, side):
            for j, number in enumerate(group.get("cards", ())):
                designation = look.designation(number)
                if designation is None:
                    continue
                units = look.units(side, number)
                classes = {t: look.unit_class(t) for t in units}
                if not units or None in classes.values() or "vehicle" in classes.values():
                    continue
                aside = sorted(t for t, c in classes.items() if not in_play(c, False))
                if not aside:
                    continue
                names = [_CLASS_NAMES.get(c, c) for c in sorted({classes[t] for t in aside})]
                yield Problem("scenario-unplayable",
                              f"basic rules have no {_either(names)} (§2.11): card {number} {designation} "
                              f"carries {_and(aside)} — switch the scenario to advanced rules or remove the card",
                              f"{gptr}/cards/{j}", "2.11")


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _start_shaken(scenario: Scenario, is_combat: Callable[[int], bool]) -> Iterator[Problem]:
    """What ``engine.scenario_rules.start_shaken`` refuses when a game starts, said beforehand
    in its words (tests/test_preflight.py checks that the two agree): a card that is not a combat
    formation of the rule's side, or one that enters the map instead of setting up."""
    formations: dict[int, tuple[str, bool, int]] = {}  # card -> (side, sets up on the map, arrival turn)
    for side in ("allied", "axis"):
        for _, g in _groups(scenario.raw, side):
            enter = g.get("enter") if "turn" not in g else {"turn": g["turn"]}
            for n in g.get("cards", ()):
                formations[n] = (side, "setup" in g and "turn" not in g, (enter or {}).get("turn", 1))
    for i, r in enumerate(scenario.raw.get("special_rules", ())):
        if r.get("type") != "start-shaken":
            continue
        side = r.get("side", "both")
        cards = r.get("cards") or [n for n, (s, _, arrival) in formations.items()
                                   if is_combat(n) and arrival == 1 and side in (s, "both")]
        for card in cards:
            f = formations.get(card)
            if f is None or not is_combat(card) or side not in (f[0], "both"):
                yield Problem("scenario-unplayable", f"start-shaken rule {r['id']}: {card} is not a combat formation "
                              f"of the {r.get('side')} side in this scenario (§10.23: command formations never are)",
                              f"/special_rules/{i}", "18.7")
            elif not f[1]:
                yield Problem("scenario-unplayable", f"start-shaken rule {r['id']}: formation {card} enters the map; "
                              "a formation arriving shaken is not implemented", f"/special_rules/{i}", "18.7")


def _special_rules(scenario: Scenario) -> Iterator[Problem]:
    """The engine's own checks of the special rules it plays, asked the same way it asks them."""
    from .engine import scenario_rules
    from .engine.errors import EngineError
    try:
        scenario_rules.check_visibility(scenario)
    except EngineError as exc:
        yield Problem("scenario-unplayable", _plain(exc, scenario), "/conditions/visibility_changes", "18.7")
    for side in ("allied", "axis"):
        try:
            scenario_rules.hidden_by_rule(scenario, side, 0)
        except EngineError as exc:
            yield Problem("scenario-unplayable", _plain(exc, scenario), "/special_rules", "18.7")
            break


def _plain(exc: Exception, scenario: Scenario) -> str:
    text = str(exc)
    prefix = f"{scenario.id}: "
    return text[len(prefix):] if text.startswith(prefix) else text


# The special rules whose data the engine checks as it plays them (scenario_rules.py).
CHECKED_RULES = ("visibility-change", "hidden-deployment", "start-shaken")


def scenario_problems(model: DesertSteel, scenario: Scenario) -> list[Problem]:
    """Everything about a scenario the engine would refuse, in the scenario's order."""
    out: list[Problem] = []
    if scenario.rules == "basic":
        out += _basic_units(scenario.raw, model_lookup(model, scenario))
    out += _special_rules(scenario)
    out += _start_shaken(scenario, lambda n: isinstance(model.cards.get(n), CombatCard))
    return out


def catalog_problems(catalog, entry) -> list[Problem]:
    """The same for a scenario of a catalog being checked, read from its documents; the typed
    model is built only for a scenario with special rules the engine checks (XII, XIII)."""
    raw = entry.value
    out: list[Problem] = []
    if raw.get("rules") == "basic":
        out += _basic_units(raw, catalog_lookup(catalog, raw))
    if any(r.get("type") in CHECKED_RULES for r in raw.get("special_rules", ())):
        model = catalog.model
        scenario = model.scenarios.get(entry.id) if model is not None else None
        if scenario is not None:
            out += _special_rules(scenario)
            out += _start_shaken(scenario, lambda n: isinstance(model.cards.get(n), CombatCard))
    return out


def refusal(model: DesertSteel, scenario: Scenario) -> str | None:
    """The engine's reason not to play a scenario (its first problem), or None."""
    problems = scenario_problems(model, scenario)
    if not problems:
        return None
    more = f" (and {len(problems) - 1} more: run 'sandtable validate')" if len(problems) > 1 else ""
    return f"scenario {scenario.number or scenario.id} cannot be played: {problems[0].message}{more}"


def describe_placements(model: DesertSteel, placements: list[Mapping], limit: int = 3) -> str:
    """Placements as a player reads them ("2 de-infantry of card 101 A/1 at A0202"), never a repr."""
    counts: Counter = Counter((p.get("card"), p.get("type"), p.get("hex")) for p in placements)
    parts = []
    for (number, type_id, hex_), n in list(counts.items())[:limit]:
        card = model.cards.get(number)
        name = f"card {number} {card.designation}" if card is not None else f"card {number}"
        parts.append(f"{n} {type_id} of {name}" + (f" at {hex_}" if hex_ else ""))
    if len(counts) > limit:
        parts.append(f"{len(counts) - limit} more")
    return ", ".join(parts)
