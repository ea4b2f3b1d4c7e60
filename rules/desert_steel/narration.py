"""Desert Steel's narration of a finished game: the turn-by-turn account `sandtable play` prints."""
from __future__ import annotations

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

    def mods(d: dict) -> str:
        """A spotting or fire roll's modifiers, each by its label and \u00a7 in the one modifier table."""
        return ", ".join(_modifier(k, v) for k, v in d.items()) if d else "none"

    def morale(d: dict) -> str:
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

    for e in game.events:
        k = e["e"]
        if k == "move":
            uid = e["unit"]
            if moving and moving[0] != uid:
                flush()
            if not moving:
                moving[:] = [uid, pos.get(uid), e["hex"], 0]
            moving[2], moving[3] = e["hex"], moving[3] + 1
            place(uid, e["hex"])
            continue
        if k in ("action", "spot-cancelled"):
            if k == "action" and e["action"][0] in ("op", "end", "stop"):
                kind = "direct"
            continue
        flush()
        if k == "turn":
            out.append(f"== Turn {e['t']} (visibility {e['visibility']}) ==")
            carried.clear()
        elif k == "activate":
            card = game.ctx.model.cards[e["card"]]
            out.append(f"  {e['side']} activates {card.designation} ({e['card']})")
        elif k == "enter":
            place(e["unit"], e["hex"])
            out.append(f"    {name(e['unit'])} enters at {e['hex']}")
        elif k == "load":
            carried[e["unit"]] = e["carrier"]
            out.append(f"    {at(e['unit'])} boards {name(e['carrier'])}")
        elif k == "morale-phase":
            carried.clear()
        elif k == "opportunity-fire":
            kind = "opportunity"
        elif k == "same-hex-fire":
            kind = "same-hex"
        elif k == "overrun-fire":
            kind = "overrun reaction"
        elif k == "close-assault":
            kind = "close assault"
            out.append(f"    close assault on {e['hex']} by {', '.join(name(u) for u in e['units'])}")
        elif k == "overrun":
            out.append(f"    {name(e['unit'])} overruns {pos.get(e['unit']) or '?'} -> {e['hex']}")
            place(e["unit"], e["hex"])
            kind = "overrun"
        elif k == "spot":
            spot = e
        elif k == "face":  # §8.22: a turn without an operation
            out.append(f"    {at(e['unit'])} turns to face hexside {e['facing']}")
        elif k == "move-becomes-move-fire":  # §7
            out.append(f"    {name(e['unit'])}'s move becomes a move-and-fire ({e['spent']:g} of {e['mp']} MP spent)")
        elif k == "fire":
            firer = e.get("unit")
            what = ("minefield" if str(firer).startswith("minefield:") else "air strike" if e.get("air_strike")
                    else "bombardment" if e.get("bombardment") else "fire zone" if e.get("zone")
                    else "spill" if e.get("spill") else "indirect" if e.get("indirect") else kind)
            seen = ""
            if spot is not None and spot.get("target") == e["target"] and spot.get("success"):
                seen = (f"; spotted at {spot['distance']} hexes: 1d6 {spot['roll']} mods "
                        f"({mods(spot.get('modifiers') or {})}) vs {spot['number']}") if spot.get("roll") else \
                    "; same hex, no spotting roll"
            source = at(firer) if firer in units else name(firer)
            out.append(f"    [{what}] {source} fires at {at(e['target'])}{seen}; 3d6 {sum(e['dice'])} "
                       f"differential {e['differential']:+d} mods ({mods(e['modifiers'])}) = {e['total']} "
                       f"-> {e['result']}")
            spot = None
        elif k == "flash-kill":
            out.append(f"    flash kill! {name(e['unit'])} may act again")
        elif k == "unit-check":
            out.append(f"    {name(e['unit'])} morale ({e['why']}): {sum(e['dice'])} mods "
                       f"({morale(e.get('modifiers') or {})}) vs {e.get('morale', '?')} -> {e['result']}")
        elif k == "formation-check":
            card = game.ctx.model.cards[e["card"]]
            out.append(f"  morale of {card.designation} ({e['why']}): {sum(e['dice'])}+{e['modifier']} vs "
                       f"{e['morale']} -> {'holds' if e['passed'] else 'fails'}")
        elif k == "shaken":
            out.append(f"  {game.ctx.model.cards[e['card']].designation} is shaken")
        elif k == "destroyed":
            out.append(f"    {at(e['unit'])} destroyed ({e['how']})")
            pos[e["unit"]] = None
        elif k == "minefield-attack":
            out.append(f"    {name(e['unit'])} sets off a minefield at {e['hex']}")
        elif k in ("wire-removed", "minefield-cleared"):
            what = "wire" if k == "wire-removed" else "a minefield"
            out.append(f"    {name(e['unit'])} clears {what} at {e['hex']}")
        elif k == "air-strike" or k == "bombardment":
            out.append(f"  {k.replace('-', ' ')} by the {e.get('side', '?')}")
        elif k == "bombardment-no-target":
            out.append("  the bombardment finds no target")
        elif k == "exit":
            out.append(f"    {name(e['unit'])} leaves the map from {e.get('hex') or pos.get(e['unit']) or '?'} "
                       f"by the {e['edge']} edge of map {e['map']}")
            pos[e["unit"]] = None
    flush()
    return out


def _modifier(key: str, value: float) -> str:
    """"moving target -2 (\u00a79.15, 9.23)": the label and \u00a7 of the table's row (rules_tables.describe)."""
    label, section = describe(key)
    return f"{label} {value:+g}" + (f" (\u00a7{section})" if section else "")
