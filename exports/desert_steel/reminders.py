"""Rule reminders printed on command cards, read off the engine's own rules so they cannot drift.

What a command card may do (§6.52 Allied and Italian, §6.53 German) is decided in one place:
the engine's ``command_cards.choices``, which its command decision lists. Rather than
restating it here, ``command_powers`` asks that function what it allows for stand-in
formations: three ready subordinates and the card's HQ (how many may be activated together,
and does the HQ come on top of them or count among them), then one shaken subordinate (may
the card rally it, may it activate it). The printed sentence is built from those answers, so a change in the
engine changes the cards, and a test (tests/test_exports_kit2.py) checks the sentences
against the rulebook's.
"""
from __future__ import annotations

from dataclasses import dataclass

from sandtable.rules.desert_steel.model import CommandCard, DesertSteel

_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


@dataclass(frozen=True)
class CommandPowers:
    most: int  # subordinate formations one play of the card may activate (besides the HQ when hq_extra)
    hq_extra: bool  # the HQ formation is activated on top of them (§6.52), not as one of them (§6.53)
    rally: bool  # the card may rally shaken subordinates instead (§6.52)
    shaken_activate: bool  # a shaken subordinate may be activated (never, §6.52 and §6.53)
    section: str


def _probe(model: DesertSteel, card: CommandCard, shaken: set[int]) -> list[tuple]:
    from sandtable.rules.desert_steel.engine import command_cards
    hq = card.hq.number if card.hq is not None else None
    subs = [-1, -2, -3] + ([hq] if hq is not None else [])  # stand-ins: what matters is how many
    return list(command_cards.choices(card, subs, lambda n: n in shaken, lambda _n: True))


def command_powers(model: DesertSteel, card: CommandCard) -> CommandPowers | None:
    """What the engine lets this card do; None if the engine's rule cannot be read this way any more
    (the card then names its section and states no rule it cannot vouch for; the tests fail first)."""
    try:
        return _powers(model, card)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def _powers(model: DesertSteel, card: CommandCard) -> CommandPowers:
    hq = card.hq.number if card.hq is not None else None
    ready = _probe(model, card, set())
    combos = [set(a[1]) for a in ready if a[0] == "activate"]
    most = max((len(c - {hq}) for c in combos), default=0)
    hq_extra = hq is not None and any(hq in c and len(c - {hq}) == most and most > 0 for c in combos)
    shaken = _probe(model, card, {-1})
    rally = any(a[0] == "rally" for a in shaken)
    shaken_activate = any(a[0] == "activate" and -1 in a[1] for a in shaken)
    section = "6.53" if card.nationality == "german" else "6.52"
    return CommandPowers(most, hq_extra, rally, shaken_activate, section)


def command_reminder(model: DesertSteel, card: CommandCard, lang: str = "en") -> str:
    """One sentence: what playing this card lets its owner do."""
    return reminder_text(command_powers(model, card), card, lang)


_FR_WORDS = {1: "une", 2: "deux", 3: "trois", 4: "quatre"}


def reminder_text(p: CommandPowers | None, card: CommandCard, lang: str = "en") -> str:
    if p is None:
        section = "6.53" if card.nationality == "german" else "6.52"
        return (f"Voir \u00a7{section} pour ce que permet la carte." if lang == "fr" else
                f"See \u00a7{section} for what the card allows.")
    if lang == "fr":
        n = _FR_WORDS.get(p.most, str(p.most))
        what = "formation" + ("s" if p.most != 1 else "") + " subordonn\u00e9e" + ("s" if p.most != 1 else "")
        condition = "" if p.shaken_activate else (" non \u00e9branl\u00e9e" + ("s" if p.most != 1 else ""))
        act = (f"activer jusqu'\u00e0 {n} {what}{condition}" if p.most > 1 else f"activer {n} {what}{condition}")
        if card.hq is not None:
            act += (f" plus le QG, {card.hq.designation}" if p.hq_extra else
                    f" (le QG, {card.hq.designation}, compte pour une)")
        if p.rally:
            return (f"Au choix : {act} ; ou rallier toutes les subordonn\u00e9es \u00e9branl\u00e9es (un test de "
                    f"moral de formation chacune ; une carte ralli\u00e9e revient dans la main) (\u00a7{p.section}).")
        return f"{act[0].upper()}{act[1:]} ; pas de ralliement (\u00a7{p.section})."
    n = _WORDS.get(p.most, str(p.most))
    what = "subordinate formation" + ("s" if p.most != 1 else "")
    condition = "" if p.shaken_activate else " non-shaken"
    if p.most > 1:
        act = f"Activate up to {n}{condition} {what}"
    else:
        act = f"Activate {n}{condition} {what}"
    if card.hq is not None:
        act += (f" plus the HQ, {card.hq.designation}" if p.hq_extra else
                f" (the HQ, {card.hq.designation}, counts as one)")
    if p.rally:
        return (f"Choose one: {act[0].lower()}{act[1:]}; or rally all shaken subordinates (one formation "
                f"morale check each; a rallied card returns to the hand) (\u00a7{p.section}).")
    return f"{act}; no rally (\u00a7{p.section})."
