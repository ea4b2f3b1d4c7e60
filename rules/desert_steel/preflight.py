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
from typing import Iterator, Mapping

from .model import CombatCard, DesertSteel, Scenario

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
    from .setup_checks import expected_units
    units = expected_units(model, scenario, side, number)
    advanced = scenario.rules != "basic"
    return Counter({t: n for t, n in units.items()
                    if t in model.unit_types and in_play(model.unit_types[t].unit_class, advanced)})


def _groups(scenario: Scenario, side: str) -> Iterator[tuple[str, Mapping]]:
    raw = scenario.sides[side].raw
    for i, g in enumerate(raw.get("formations", ())):
        yield f"/sides/{side}/formations/{i}", g
    for i, g in enumerate(raw.get("reinforcements", ())):
        yield f"/sides/{side}/reinforcements/{i}", g


def _basic_units(model: DesertSteel, scenario: Scenario) -> Iterator[Problem]:
    """A combat card with no fighting unit in play under the basic rules would field an empty
    formation, or only transports with nothing to carry (transport is an advanced rule, §13.3):
    the engine sets its infantry, guns and FOs aside (§2.11). The designer meant the advanced
    rules or another card. A card that also has fighting vehicles plays them (V's 337 and its FO)."""
    from .setup_checks import expected_units
    for side in ("allied", "axis"):
        for gptr, group in _groups(scenario, side):
            for j, number in enumerate(group.get("cards", ())):
                card = model.cards.get(number)
                if not isinstance(card, CombatCard):
                    continue
                units = expected_units(model, scenario, side, number)
                if not units or any(model.unit_types[t].unit_class == "vehicle"
                                    for t in units_in_play(model, scenario, side, number)):
                    continue
                aside = sorted(t for t in units if t in model.unit_types
                               and not in_play(model.unit_types[t].unit_class, False))
                if not aside:
                    continue
                names = [_CLASS_NAMES.get(c, c) for c in sorted({model.unit_types[t].unit_class for t in aside})]
                yield Problem("scenario-unplayable",
                              f"basic rules have no {_either(names)} (§2.11): card {number} {card.designation} "
                              f"carries {_and(aside)} — switch the scenario to advanced rules or remove the card",
                              f"{gptr}/cards/{j}", "2.11")


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _special_rules(scenario: Scenario) -> Iterator[Problem]:
    """The engine's own checks of the special rules it plays, asked the same way it asks them."""
    from .engine.context import EngineError
    from .engine import scenario_rules
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


def scenario_problems(model: DesertSteel, scenario: Scenario) -> list[Problem]:
    """Everything about a scenario the engine would refuse, in the scenario's order."""
    out: list[Problem] = []
    if scenario.rules == "basic":
        out += _basic_units(model, scenario)
    out += _special_rules(scenario)
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
