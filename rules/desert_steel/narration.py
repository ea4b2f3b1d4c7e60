"""Desert Steel's narration of a finished game: the turn-by-turn account `sandtable play` prints."""
from __future__ import annotations

from .engine import outcomes as oc
from .rules_tables import describe


def account(game, start: dict | None = None) -> list[str]:
    """A checkable turn-by-turn account of a game from its events: every unit named with its id
    (two units never share a name), moves from hex to hex, each attack with its kind (direct,
    opportunity, same-hex, overrun, close assault, spill, fire zone, indirect, air strike,
    bombardment, minefield), the spotting roll and its modifiers, and the fire modifiers.
    ``start``: unit id -> hex when the game began (diagnostics.Recorder.start_hex), so the first
    moves say where from; without it, a unit's hex is known from its first move on."""
    units = game.state.units
    pos: dict = dict(start or {})
    carried: dict = {}  # passenger -> carrier, until the Morale Phase (§13.3)

    def name(uid) -> str:
        u = units.get(uid)
        if u is None:  # a minefield, a raid or a bombardment's fire zone ("minefield:allied", "raid:S7")
            kind, _, what = str(uid).partition(":")
            return {"minefield": f"an {what} minefield", "raid": f"raid card {what}"}.get(kind, str(uid))
        card = game.ctx.model.cards.get(u.card)
        return f"{uid} {card.designation if card else 'scenario transport'} {u.type.name}"

    def at(uid) -> str:
        return f"{name(uid)} ({pos.get(uid) or '?'})"

    def mods(d) -> str:
        """A spotting or fire roll's modifiers, each by its label and \u00a7 in the one modifier table."""
        return ", ".join(_modifier(k, v) for k, v in d.items()) if d else "none"

    def morale(d) -> str:
        return ", ".join(f"{k.replace('_', ' ')} {v:+g}" for k, v in d.items()) if d else "none"

    out: list[str] = []
    moving: list = []  # [unit, from, to, hexes] of the move being told
    kind = "direct"  # what the next attack is, set by the event announcing it
    spot = None

    def flush():
        if moving:
            uid, frm, to, n = moving
            out.append(f"    {name(uid)} moves {frm or '?'} -> {to} ({n} hex{'es' if n > 1 else ''})")
            moving.clear()

    def place(uid, hex_):
        pos[uid] = hex_
        for p, c in carried.items():
            if c == uid:
                pos[p] = hex_

    for e in oc.read(game.events):
        match e:
            case oc.Move(unit=uid, hex=hex_):
                if moving and moving[0] != uid:
                    flush()
                if not moving:
                    moving[:] = [uid, pos.get(uid), hex_, 0]
                moving[2], moving[3] = hex_, moving[3] + 1
                place(uid, hex_)
                continue
            case oc.ActionPlayed(action=action):
                if action[0] in ("op", "end", "stop"):
                    kind = "direct"
                continue
        flush()
        match e:
            case oc.Turn():
                out.append(f"== Turn {e.t} (visibility {e.visibility}) ==")
                carried.clear()
            case oc.Activate():
                card = game.ctx.model.cards[e.card]
                out.append(f"  {e.side} activates {card.designation} ({e.card})")
            case oc.Enter():
                place(e.unit, e.hex)
                out.append(f"    {name(e.unit)} enters at {e.hex}")
            case oc.Load():
                carried[e.unit] = e.carrier
                out.append(f"    {at(e.unit)} boards {name(e.carrier)}")
            case oc.MoralePhase():
                carried.clear()
            case oc.OpportunityFire():
                kind = "opportunity"
            case oc.SameHexFire():
                kind = "same-hex"
            case oc.OverrunFire():
                kind = "overrun reaction"
            case oc.CloseAssault():
                kind = "close assault"
                out.append(f"    close assault on {e.hex} by {', '.join(name(u) for u in e.units)}")
            case oc.Overrun():
                out.append(f"    {name(e.unit)} overruns {pos.get(e.unit) or '?'} -> {e.hex}")
                place(e.unit, e.hex)
                kind = "overrun"
            case oc.Spot():
                spot = e
            case oc.Face():  # §8.22: a turn without an operation
                out.append(f"    {at(e.unit)} turns to face hexside {e.facing}")
            case oc.MoveBecomesMoveFire():  # §7
                out.append(f"    {name(e.unit)}'s move becomes a move-and-fire ({e.spent:g} of {e.mp} MP spent)")
            case oc.Fire():
                seen = ""
                if spot is not None and spot.target == e.target and spot.success:
                    seen = (f"; spotted at {spot.distance} hexes: 1d6 {spot.roll} mods "
                            f"({mods(spot.modifiers)}) vs {spot.number}") if spot.roll else "; same hex, no spotting roll"
                source = at(e.unit) if e.unit in units else name(e.unit)
                out.append(f"    [{e.attack() or kind}] {source} fires at {at(e.target)}{seen}; 3d6 {sum(e.dice)} "
                           f"differential {e.differential:+d} mods ({mods(e.modifiers)}) = {e.total} -> {e.result}")
                spot = None
            case oc.FlashKill():
                out.append(f"    flash kill! {name(e.unit)} may act again")
            case oc.UnitCheck():
                out.append(f"    {name(e.unit)} morale ({e.why}): {sum(e.dice)} mods ({morale(e.modifiers)}) "
                           f"vs {e.morale} -> {e.result}")
            case oc.FormationCheck():
                out.append(f"  morale of {game.ctx.model.cards[e.card].designation} ({e.why}): {sum(e.dice)}+"
                           f"{e.modifier} vs {e.morale} -> {'holds' if e.passed else 'fails'}")
            case oc.Shaken():
                out.append(f"  {game.ctx.model.cards[e.card].designation} is shaken")
            case oc.Destroyed():
                out.append(f"    {at(e.unit)} destroyed ({e.how})")
                pos[e.unit] = None
            case oc.MinefieldAttack():
                out.append(f"    {name(e.unit)} sets off a minefield at {e.hex}")
            case oc.WireRemoved() | oc.MinefieldCleared():
                out.append(f"    {name(e.unit)} clears {'wire' if e.kind == 'wire-removed' else 'a minefield'} at {e.hex}")
            case oc.AirStrike() | oc.Bombardment():
                out.append(f"  {e.kind.replace('-', ' ')} by the {e.side}")
            case oc.BombardmentNoTarget():
                out.append("  the bombardment finds no target")
            case oc.Exit():
                out.append(f"    {name(e.unit)} leaves the map from {e.hex} by the {e.edge} edge of map {e.map}")
                pos[e.unit] = None
    flush()
    return out


def _modifier(key: str, value: float) -> str:
    """"moving target -2 (\u00a79.15, 9.23)": the label and \u00a7 of the table's row (rules_tables.describe)."""
    label, section = describe(key)
    return f"{label} {value:+g}" + (f" (\u00a7{section})" if section else "")
