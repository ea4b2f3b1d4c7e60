"""The rule statements of the play aids that the engine decides in code: facing arcs (§8.2),
opportunity fire (§9.4), flash kills (§9.35-§9.37), move-and-fire (§9.5), elimination and
rout (§10.12, §10.32), separation (§11) and close-assault eligibility (§14.11).

Every number comes from the pack's rule tables read through the engine's own ``Tables``;
every condition from ``rules/desert_steel/rules_tables.py`` or the engine's helpers
(``doctrine_radius``), so a mod pack prints its own values and the aid cannot drift from
the engine. Each line carries its § and both languages; tests play the statements against
the engine on constructed positions (tests/test_exports_rules_aids.py).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from sandtable.rules.desert_steel import rules_tables as rt
from sandtable.rules.desert_steel.engine.tables import RulesError, Tables
from sandtable.rules.desert_steel.model import CombatCard, DesertSteel
from sandtable.rules.desert_steel.setup_rules import doctrine_radius


@dataclass(frozen=True)
class Line:
    section: str  # "9.41" (the § printed beside the line)
    en: str
    fr: str

    def text(self, lang: str) -> str:
        return self.fr if lang == "fr" else self.en


@dataclass(frozen=True)
class Topic:
    key: str
    title_en: str
    title_fr: str
    lines: tuple[Line, ...]

    def title(self, lang: str) -> str:
        return self.title_fr if lang == "fr" else self.title_en


def signed(v) -> str:
    """A signed modifier, with a true minus sign ("\u2014" when the pack lacks it: the engine would stop there)."""
    if v is None:
        return "\u2014"
    s = f"{v:g}"
    return ("+" + s) if v > 0 else s.replace("-", "\u2212")


class _Values:
    """The tables' numbers as the engine reads them (None where a mod pack leaves one out)."""

    def __init__(self, model: DesertSteel):
        self.t = Tables(model.rule_tables or {})

    def mod(self, kind: str, key: str) -> float | None:
        """A spotting or fire modifier through its row of the modifier table (the row must enter that
        kind of roll: a spotting value for "spot", a direct fire's for "fire"), a morale one by its id."""
        if kind == "morale":
            return _read(self.t.morale, key)
        roll = rt.SPOT if kind == "spot" else rt.DIRECT
        found = rt.row_of(key)
        # a statement of the aids names a modifier the table has, for a roll it enters: a typo fails the tests
        assert found is not None and roll in found[0].kinds and key in found[0].ids(), (kind, key)
        return table_value(self.t, roll, key)

    def setting(self, key: str, default):
        return (self.t.raw.get("settings") or {}).get(key, default)


def modifier_value(model: DesertSteel, roll: str, key: str) -> float | None:
    """A spotting ("spot") or fire ("fire") modifier's value through its row of the modifier table."""
    return _Values(model).mod(roll, key)


def _read(get, key: str):
    try:
        return get(key)
    except RulesError:
        return None


def table_value(tables: Tables, kind: str, key: str) -> float | None:
    """The value a roll of this kind reads for a rule-table id, as the engine reads it (rules_tables.value_table);
    None when the pack lacks it."""
    get = tables.spot if rt.value_table(kind) == "spotting_modifiers" else tables.fire
    return _read(get, key)


# --- the modifier charts: one line per row of rules_tables.MODIFIERS (per variant of a keyed row) ------------
CHARTS = {"spot": (rt.SPOT,), "fire": (rt.DIRECT, rt.INDIRECT, rt.RAID, rt.ZONE)}


@dataclass(frozen=True)
class ModifierLine:
    row: rt.Modifier
    variant: rt.Variant | None
    kinds: tuple[str, ...]  # the chart's kinds of roll the row enters, in the chart's order
    value: float | None  # None: computed (see the row's pointer) or missing from the pack
    index: int | None  # the value's place in its rule table (for its provenance), None if computed or missing
    cumulative: bool

    @property
    def key(self) -> str | None:
        """The rule-table id the value is read under (None: computed)."""
        if self.row.computed:
            return None
        return self.variant.key if self.variant is not None else self.row.name

    def text(self, lang: str) -> str:
        """The condition, from the table, with a capital."""
        if self.variant is not None:
            s = self.variant.when_fr if lang == "fr" else self.variant.when
        else:
            s = self.row.text(lang)
        return s[:1].upper() + s[1:]

    def pointer(self, lang: str) -> str:
        return (self.row.pointer_fr if lang == "fr" and self.row.pointer_fr else self.row.pointer) if \
            self.row.computed else ""


def modifier_lines(model: DesertSteel, chart: str) -> list[ModifierLine]:
    """The lines of the spotting ("spot") or fire ("fire") modifier chart: every row of the modifier table
    that enters one of the chart's kinds of roll, in the table's order, a keyed row once per id it reads;
    values read from the pack's rule tables the way the engine reads them."""
    kinds = CHARTS[chart]
    tables = Tables(model.rule_tables or {})
    table = rt.value_table(kinds[0])
    entries = list((model.rule_tables or {}).get(table) or ())
    where = {m.get("id"): i for i, m in enumerate(entries)}
    out = []
    for row in rt.MODIFIERS:
        enters = tuple(k for k in kinds if k in row.kinds)
        if not enters:
            continue
        for variant in row.variants or (None,):
            key = None if row.computed else (variant.key if variant is not None else row.name)
            i = where.get(key)
            value = None if key is None else table_value(tables, kinds[0], key)
            cumulative = i is None or entries[i].get("cumulative", True) is not False
            out.append(ModifierLine(row, variant, enters, value, i, cumulative))
    return out


def adjacent_anti_infantry(model: DesertSteel) -> int:
    """\u00a712.14: the range modifier of anti-infantry fire at an adjacent hex in the advanced rules, as the engine's
    range modifier works it out (engine/modifiers.Shot.range_modifier)."""
    from types import SimpleNamespace

    from sandtable.rules.desert_steel.engine.modifiers import Shot
    ctx = SimpleNamespace(tables=Tables(model.rule_tables or {}), advanced=True)
    shot = SimpleNamespace(game=SimpleNamespace(ctx=ctx), kind=rt.DIRECT, distance=1, mode="ai")
    return Shot.range_modifier.fget(shot)


def clause(v: _Values, name: str, lang: str, *rolls: str, short: bool = False) -> str:
    """A modifier's condition (``short``: its label) from its row, then its value for each roll asked ("spot",
    "fire"): "the firer is Green: \u22121 to the fire roll"."""
    row = rt.modifier(name)
    parts = []
    for roll in rolls:
        value = v.mod(roll, name)
        if lang == "fr":
            parts.append(f"{signed(value)} au " + ("rep\u00e9rage" if roll == "spot" else "tir"))
        else:
            parts.append(f"{signed(value)} to the {'spotting' if roll == 'spot' else 'fire'} roll")
    what = row.title(lang) if short else row.text(lang)
    return f"{what} : " + " ; ".join(parts) if lang == "fr" else f"{what}: " + "; ".join(parts)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def move_and_fire_mp(model: DesertSteel, allowance: int) -> int:
    """§9.52: the limited move's MP for a unit of this allowance (the engine's _move_fire_mp)."""
    frac = _Values(model).setting("move_and_fire_mp_fraction", 0.5)
    return math.floor(allowance * frac)


def doctrine_radii(model: DesertSteel) -> list[tuple[str, int]]:
    """(group, radius) for each doctrine group with a company or squadron in the pack (§11.2-§11.4),
    through the engine's own doctrine_radius."""
    settings = (model.rule_tables or {}).get("settings", {})
    out: dict[str, int] = {}
    for card in model.cards.values():
        if not isinstance(card, CombatCard):
            continue
        r = doctrine_radius(settings, card)
        if r is None:
            continue
        group = "allied" if card.side == "allied" else card.nationality
        out.setdefault(group, r)
    order = {"german": 0, "italian": 1, "allied": 2}
    return sorted(out.items(), key=lambda kv: order.get(kv[0], 9))


_GROUP = {"german": ("German", "allemandes"), "italian": ("Italian", "italiennes"), "allied": ("Allied", "alliées")}


def facing(model: DesertSteel) -> Topic:
    v = _Values(model)
    morale = v.mod("morale", "flank_or_same_hex")
    n = len(rt.FRONT_ARC_OFFSETS)
    return Topic("facing", "Facing: front and flank arcs (\u00a78.2)", "Orientation : arcs de front et de flanc (\u00a78.2)", (
        Line("8.2", f"Front arc: the hexside the counter's top edge faces and its two neighbours ({n} hexsides); "
                    f"the other {rt.HEXSIDES - n} are the flank arc.",
             f"Arc de front : le c\u00f4t\u00e9 d'hex vers lequel pointe le haut du pion et ses deux voisins ({n} c\u00f4t\u00e9s) ; "
             f"les {rt.HEXSIDES - n} autres forment l'arc de flanc."),
        Line("8.21", _cap(clause(v, "through_own_flank", "en", "spot", "fire")) + ".",
             _cap(clause(v, "through_own_flank", "fr", "spot", "fire")) + "."),
        Line("8.21", _cap(clause(v, "flank_fire", "en", "fire")) + " (\u00a715.24).",
             _cap(clause(v, "flank_fire", "fr", "fire")) + " (\u00a715.24)."),
        Line("10.11", f"A Hit or Hit +X through the target's flank arc (or from its own hex): {signed(morale)} to its "
                      "morale check.",
             f"Touch\u00e9 ou Touch\u00e9 + X par l'arc de flanc de la cible (ou depuis son hex) : {signed(morale)} \u00e0 son "
             "test de moral."),
        Line("8.22", "Changing facing is free when the formation is activated (no operation, no flip), and after a "
                     "successful spotting roll for opportunity fire; indirect fire ignores facing.",
             "Changer d'orientation est gratuit quand la formation est activ\u00e9e (sans op\u00e9ration ni retournement), "
             "et apr\u00e8s un rep\u00e9rage r\u00e9ussi pour un tir d'opportunit\u00e9 ; le tir indirect ignore l'orientation."),
    ))


def opportunity_fire(model: DesertSteel) -> Topic:
    v = _Values(model)
    same = v.t.range_modifier(0)  # the same hex's range modifier (\u00a712.14)
    return Topic("opportunity", "Opportunity fire (\u00a79.4)", "Tir d'opportunit\u00e9 (\u00a79.4)", (
        Line("9.4", "When an enemy unit moving (move or move-and-fire) enters a hex, stop it there: each of your "
                    "face-up units, not suppressed and not of a shaken formation, may fire at it, activated or not.",
             "Quand une unit\u00e9 ennemie en mouvement (mouvement ou tir en mouvement) entre dans un hex, arr\u00eatez-la "
             "l\u00e0 : chacune de vos unit\u00e9s c\u00f4t\u00e9 pile, non supprim\u00e9e et d'une formation non \u00e9branl\u00e9e, peut "
             "lui tirer dessus, activ\u00e9e ou non."),
        Line("13.26", "On entering a hex: minefield attack first, then fire-zone attacks, then opportunity fire.",
             "\u00c0 l'entr\u00e9e dans un hex : d'abord l'attaque par champ de mines, puis les zones de tir, puis le tir "
             "d'opportunit\u00e9."),
        Line("9.41", f"Spot, then fire, as normal fire; {clause(v, 'moving_target', 'en', 'spot', 'fire', short=True)}. The mover "
                     "sets its facing for these fires.",
             f"Rep\u00e9rer puis tirer comme un tir normal ; {clause(v, 'moving_target', 'fr', 'spot', 'fire', short=True)}. L'unit\u00e9 "
             "qui bouge fixe son orientation pour ces tirs."),
        Line("9.42", "One opportunity fire per unit per turn; the firer is flipped (not after a flash kill). A miss "
                     "or a failed spotting: the mover goes on with its remaining MP.",
             "Un tir d'opportunit\u00e9 par unit\u00e9 et par tour ; le tireur est retourn\u00e9 (sauf destruction \u00e9clair). "
             "Rat\u00e9 ou rep\u00e9rage manqu\u00e9 : l'unit\u00e9 continue avec ses PM restants."),
        Line("12.14", f"Infantry fires at an enemy entering its hex: face up {signed(same)}, flipped with the adjacent "
                      "modifier only; not an operation.",
             f"L'infanterie tire sur un ennemi qui entre dans son hex : c\u00f4t\u00e9 pile {signed(same)}, retourn\u00e9e avec le "
             "seul modificateur d'hex adjacent ; ce n'est pas une op\u00e9ration."),
        Line("13.21", "Indirect fire is never opportunity fire.",
             "Le tir indirect n'est jamais un tir d'opportunit\u00e9."),
    ))


def flash_kill(model: DesertSteel) -> Topic:
    v = _Values(model)
    fk = (model.rule_tables or {}).get("flash_kill") or {}
    per_turn = v.setting("flash_kills_per_unit_per_turn", 1)
    names = [("green", "Green", "Bleu"), ("seasoned", "Seasoned", "Aguerri"), ("veteran", "Veteran", "V\u00e9t\u00e9ran")]
    en = ", ".join(f"{fk[k]} ({n})" for k, n, _ in names if k in fk)
    fr = ", ".join(f"{fk[k]} ({n})" for k, _, n in names if k in fk)
    return Topic("flash", "Flash kill (\u00a79.35\u2013\u00a79.37)", "Destruction \u00e9clair (\u00a79.35\u2013\u00a79.37)", (
        Line("9.35", f"A Destroyed vehicle is a flash kill when the firer's unmodified 3d6 is at least: {en}.",
             f"Un v\u00e9hicule D\u00e9truit est une destruction \u00e9clair si les 3d6 non modifi\u00e9s du tireur font au "
             f"moins : {fr}."),
        Line("9.36", "The firer is not flipped: Flash kill marker; it may perform one more operation now or later "
                     "this turn, while active or as opportunity fire; then it is flipped.",
             "Le tireur n'est pas retourn\u00e9 : marqueur Destruction \u00e9clair ; il peut faire une op\u00e9ration de plus, "
             "tout de suite ou plus tard dans le tour, activ\u00e9 ou en tir d'opportunit\u00e9 ; puis il est retourn\u00e9."),
        Line("9.37", f"At most {per_turn} a unit a turn; never from move-and-fire, anti-infantry fire, indirect fire or "
                     "raids; the second operation cannot be a move-and-fire. Unused, it lapses at the Morale Phase.",
             f"Au plus {per_turn} par unit\u00e9 et par tour ; jamais par tir en mouvement, tir anti-infanterie, tir "
             "indirect ni raid ; la seconde op\u00e9ration ne peut \u00eatre un tir en mouvement. Non utilis\u00e9e, elle se "
             "perd \u00e0 la Phase de moral."),
    ))


def move_and_fire(model: DesertSteel) -> Topic:
    v = _Values(model)
    frac = v.setting("move_and_fire_mp_fraction", 0.5)
    rounding = v.setting("move_and_fire_mp_rounding", "down")
    spot = v.mod("spot", "move_and_fire")
    fire = v.mod("fire", "move_and_fire")
    who_en = "Vehicles only" if rt.MOVE_AND_FIRE_VEHICLES_ONLY else "Any unit that can fire"
    who_fr = "V\u00e9hicules seulement" if rt.MOVE_AND_FIRE_VEHICLES_ONLY else "Toute unit\u00e9 qui peut tirer"
    rnd_fr = {"down": "inf\u00e9rieur", "up": "sup\u00e9rieur"}.get(rounding, rounding)
    return Topic("move_fire", "Move-and-fire (\u00a79.5)", "Tir en mouvement (\u00a79.5)", (
        Line("9.51", f"{who_en} (never a non-vehicle); strictly in this order: first a limited move, then a limited "
                     "fire.",
             f"{who_fr} (jamais un non-v\u00e9hicule) ; strictement dans cet ordre : d'abord un mouvement limit\u00e9, "
             "puis un tir limit\u00e9."),
        Line("9.52", f"Limited move: {frac:g} of the printed MP, rounded {rounding}; opportunity fire may stop it.",
             f"Mouvement limit\u00e9 : {str(frac).replace('.', ',')} des PM imprim\u00e9s, arrondi \u00e0 l'entier "
             f"{rnd_fr} ; le tir d'opportunit\u00e9 peut l'arr\u00eater."),
        Line("9.53", f"Limited fire: {signed(spot)} to the spotting roll, {signed(fire)} to the fire roll, no flash kill; "
                     "the unit is then flipped.",
             f"Tir limit\u00e9 : {signed(spot)} au lancer de rep\u00e9rage, {signed(fire)} au lancer de tir, pas de destruction "
             "\u00e9clair ; l'unit\u00e9 est ensuite retourn\u00e9e."),
    ))


def elimination(model: DesertSteel) -> Topic:
    v = _Values(model)
    rout = v.setting("morale_rout_roll", 12)
    steel = v.setting("morale_steel_roll", 2)
    per_loss = v.mod("morale", "per_loss")
    return Topic("elimination", "Elimination and rout (\u00a79.3, \u00a710.12, \u00a710.3)",
                 "\u00c9limination et d\u00e9bandade (\u00a79.3, \u00a710.12, \u00a710.3)", (
        Line("9.34", "Destroyed: the unit is removed and kept aside as a loss of its formation.",
             "D\u00e9truit : l'unit\u00e9 est retir\u00e9e et mise de c\u00f4t\u00e9, perte de sa formation."),
        Line("10.12", "A suppressed unit that fails another morale check in the Operations Phase is eliminated.",
             "Une unit\u00e9 supprim\u00e9e qui rate un autre test de moral pendant la Phase des op\u00e9rations est "
             "\u00e9limin\u00e9e."),
        Line("10.32", f"Rout: an unmodified {rout} on a unit morale check eliminates the unit, whatever the modifiers "
                      "(never on a formation check).",
             f"D\u00e9bandade : un {rout} non modifi\u00e9 \u00e0 un test de moral d'unit\u00e9 \u00e9limine l'unit\u00e9, quels que "
             "soient les modificateurs (jamais \u00e0 un test de formation)."),
        Line("10.31", f"Steel morale: an unmodified {steel} gains the unit one experience level, once a game.",
             f"Moral d'acier : un {steel} non modifi\u00e9 fait gagner \u00e0 l'unit\u00e9 un niveau d'exp\u00e9rience, une fois "
             "par partie."),
        Line("10.11", f"Every eliminated unit (destroyed, routed, over-stacked, a passenger of a destroyed carrier) "
                      f"adds {signed(per_loss)} \u00d7 the card's loss modifier to its formation's morale checks; its "
                      "formation checks in the Morale Phase.",
             f"Chaque unit\u00e9 \u00e9limin\u00e9e (d\u00e9truite, en d\u00e9bandade, en surempilement, transport\u00e9e par un "
             f"transporteur d\u00e9truit) ajoute {signed(per_loss)} \u00d7 le modificateur de la carte aux tests de moral de sa "
             "formation ; celle-ci fait un test en Phase de moral."),
    ))


def separation(model: DesertSteel) -> Topic:
    radii = doctrine_radii(model)
    en = ", ".join(f"{_GROUP.get(g, (g, g))[0]} {r}" for g, r in radii)
    fr = ", ".join(f"{_GROUP.get(g, (g, g))[1]} {r}" for g, r in radii)
    v = _Values(model)
    rows = []
    for variant in rt.modifier("separated").variants:  # the rows of \u00a711.5, labelled by the modifier table
        key = variant.key
        m, f = v.mod("morale", key), v.mod("fire", key)
        no_move = key in rt.SEPARATED_MAY_NOT_MOVE
        rows.append(Line("11.5", f"{_cap(variant.label)}: {signed(m)} to morale rolls, {signed(f)} to fire rolls"
                         + ("; it may not move (advanced rules)." if no_move else "."),
                         f"{_cap(variant.label_fr)} : {signed(m)} aux lancers de moral, {signed(f)} aux lancers de "
                         "tir" + (" ; tout d\u00e9placement lui est interdit (r\u00e8gles avanc\u00e9es)." if no_move else ".")))
    exempt = rt.DOCTRINE_EXEMPT_FORMATIONS
    return Topic("separation", "Separation (\u00a711)", "S\u00e9paration (\u00a711)", (
        Line("11.1", "Morale Phase step 6: the owner chooses a central hex for each company or squadron on the map "
                     f"({' and '.join({'hq': 'HQs', 'battery': 'batteries'}.get(x, x) for x in exempt)} exempt).",
             "Phase de moral, \u00e9tape 6 : le propri\u00e9taire choisit un hex central pour chaque compagnie ou escadron "
             "sur la carte (QG et batteries exempt\u00e9s)."),
        Line("11.11", f"A unit more hexes from that central hex than its doctrine radius ({en}) is separated: "
                      "Separated marker. A unit back within it loses the marker.",
             f"Une unit\u00e9 plus \u00e9loign\u00e9e de cet hex central que son rayon de doctrine (unit\u00e9s {fr}) est "
             "s\u00e9par\u00e9e : marqueur S\u00e9par\u00e9. Une unit\u00e9 revenue dans le rayon perd le marqueur."),
        *rows,
        Line("11.5", "A separated Seasoned non-vehicle has no penalty (the rulebook gives none).",
             "Un non-v\u00e9hicule Aguerri s\u00e9par\u00e9 n'a pas de p\u00e9nalit\u00e9 (la r\u00e8gle n'en donne pas)."),
    ))


def close_assault(model: DesertSteel) -> Topic:
    v = _Values(model)
    ca = v.mod("fire", "close_assault")
    same = v.t.range_modifier(0)  # the same hex's range modifier (\u00a712.14)
    hit = v.mod("morale", "close_assault_hit")
    return Topic("assault", "Close assault: who may (\u00a714.1)", "Assaut rapproch\u00e9 : qui peut (\u00a714.1)", (
        Line("14.11", "Infantry of the activated formation (not FOs, not artillery), face up, in or next to a hex "
                      "of enemy vehicles that holds no enemy infantry.",
             "L'infanterie de la formation activ\u00e9e (ni OA ni artillerie), c\u00f4t\u00e9 pile, dans un hex de v\u00e9hicules "
             "ennemis sans infanterie ennemie, ou adjacente \u00e0 lui."),
        Line("14.11", "And one of: the vehicles are in cover (building hex or higher); the infantry starts in an "
                      "entrenchment; or it enters through a vehicle's flank arc.",
             "Et l'une de ces conditions : les v\u00e9hicules sont \u00e0 couvert (hex de b\u00e2timent ou plus haut) ; "
             "l'infanterie part d'un retranchement ; ou elle entre par l'arc de flanc d'un v\u00e9hicule."),
        Line("14.1", "Each assaulting unit takes a morale check; those that pass enter (up to the stacking limit) and "
                     "must fire at the vehicles; a separated Green unit assaults only in its own hex.",
             "Chaque unit\u00e9 qui assaille fait un test de moral ; celles qui le r\u00e9ussissent entrent (dans la limite "
             "d'empilement) et doivent tirer sur les v\u00e9hicules ; une unit\u00e9 Bleue s\u00e9par\u00e9e n'assaille que dans son "
             "hex."),
        Line("14.13", f"Fire: {signed(same)} same hex and {signed(ca)} close assault, no cover; a Hit gives the vehicle "
                      f"{signed(hit)} to its morale check.",
             f"Tir : {signed(same)} m\u00eame hex et {signed(ca)} assaut rapproch\u00e9, pas de couvert ; un Touch\u00e9 donne "
             f"{signed(hit)} au test de moral du v\u00e9hicule."),
    ))


def overrun(model: DesertSteel) -> Topic:
    v = _Values(model)
    frac = v.setting("overrun_extra_cost_fraction", 0.5)
    rounding = v.setting("overrun_extra_cost_rounding", "up")
    rnd_fr = {"down": "inf\u00e9rieur", "up": "sup\u00e9rieur"}.get(rounding, rounding)
    zone = table_value(v.t, rt.ZONE, "fire_zone")
    flank = signed(v.mod("morale", "flank_or_same_hex"))
    frac_fr = f"{frac:g}".replace(".", ",")
    return Topic("overrun", "Overrun (\u00a714.2)", "Enfoncement (\u00a714.2)", (
        Line("14.21", "Vehicles only (no truck, motorcycle or transporting vehicle), into a clear hex (no building, "
                      "not higher) of enemy non-vehicles with no enemy vehicle but trucks or motorcycles.",
             "V\u00e9hicules seulement (ni camion, ni motocyclette, ni v\u00e9hicule qui transporte), dans un hex d\u00e9gag\u00e9 "
             "(ni b\u00e2timent, ni plus haut) de non-v\u00e9hicules ennemis sans v\u00e9hicule ennemi autre que camions ou "
             "motocyclettes."),
        Line("14.2", f"Cost: the hex's cost plus {frac:g} of the printed MP, rounded {rounding}; it cannot pay: no "
                     "overrun.",
             f"Co\u00fbt : celui de l'hex plus {frac_fr} des PM imprim\u00e9s, arrondi \u00e0 l'entier {rnd_fr} ; s'il ne "
             "peut payer : pas d'enfoncement."),
        Line("14.2", f"Each non-suppressed non-vehicle there checks morale (no same-hex or flank {flank}): failed, "
                     "suppressed; passed, it may fire at the vehicle at once.",
             f"Chaque non-v\u00e9hicule non supprim\u00e9 de l'hex fait un test de moral (sans le {flank} m\u00eame hex ou "
             "flanc) : rat\u00e9, supprim\u00e9 ; r\u00e9ussi, il peut tirer aussit\u00f4t sur le v\u00e9hicule."),
        Line("14.22", f"Not suppressed, the vehicle fires its AI factor at one unit there, the others at {signed(zone)} "
                      "(fire zone); then it may leave the hex with its remaining MP.",
             f"Non supprim\u00e9, le v\u00e9hicule tire avec son facteur AI sur une unit\u00e9 de l'hex, les autres \u00e0 "
             f"{signed(zone)} (zone de tir) ; puis il peut quitter l'hex avec ses PM restants."),
    ))


def fire_zones(model: DesertSteel) -> Topic:
    v = _Values(model)
    zone = table_value(v.t, rt.ZONE, "fire_zone")
    return Topic("fire_zones", "Fire zones (\u00a713.25\u2013\u00a713.26)", "Zones de tir (\u00a713.25\u2013\u00a713.26)", (
        Line("13.26", "After an indirect fire or a bombardment at its target: Fire zone marker on the hex; write "
                      "the side, turn, hex, firing unit (its hex) and its AI and AV factors on the fire-zone "
                      "record.",
             "Apr\u00e8s un tir indirect ou un pilonnage sur sa cible : marqueur Zone de tir sur l'hex ; notez le camp, "
             "le tour, l'hex, l'unit\u00e9 qui tire (son hex) et ses facteurs AI et AV sur la fiche des zones de tir."),
        Line("13.26", f"Every other enemy unit in the hex is attacked at once, {signed(zone)} fire zone; any enemy unit "
                      "entering it later this turn is attacked with the written factors, before opportunity fire.",
             f"Toute autre unit\u00e9 ennemie de l'hex est attaqu\u00e9e aussit\u00f4t, {signed(zone)} de zone de tir ; toute "
             "unit\u00e9 ennemie qui y entre plus tard dans le tour est attaqu\u00e9e avec les facteurs not\u00e9s, avant le "
             "tir d'opportunit\u00e9."),
        Line("13.26", "Several zones in a hex attack one by one. A zone goes when its firer is suppressed or "
                      "eliminated (never a raid's); all go at Morale Phase step 5.",
             "Plusieurs zones dans un hex attaquent chacune \u00e0 son tour. Une zone dispara\u00eet si son tireur est "
             "supprim\u00e9 ou \u00e9limin\u00e9 (jamais celle d'un raid) ; toutes \u00e0 l'\u00e9tape 5 de la Phase de moral."),
    ))


def topics(model: DesertSteel) -> list[Topic]:
    return [facing(model), opportunity_fire(model), flash_kill(model), move_and_fire(model), elimination(model),
            separation(model), close_assault(model), overrun(model), fire_zones(model)]
