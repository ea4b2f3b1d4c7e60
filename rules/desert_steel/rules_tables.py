"""Rule conditions the engine applies in code, as public data the play aids print (§8.2, §9.5,
§11, §14.11).

The numbers live in the pack's rule tables (read through ``engine.tables.Tables``); the
conditions below are the ones the engine's code decides (which hexsides are the front arc,
who may move-and-fire, which separated units may not move, who may close-assault). They are
written once here, side-effect free, so that the printed aids say exactly what the engine
does; tests/test_exports_rules_aids.py plays each statement against the engine on a
constructed position.
"""
from __future__ import annotations

from typing import Optional

# §8.2: the front arc is the hexside the counter's top edge faces and its two neighbours;
# the other three hexsides are the flank arc. Offsets are in hexsides, clockwise.
FRONT_ARC_OFFSETS = (0, 1, 5)
HEXSIDES = 6


def in_front_arc(facing: int, hexside: int) -> bool:
    """Whether ``hexside`` (0 up the page, clockwise) is in the front arc of a unit facing ``facing``."""
    return (hexside - facing) % HEXSIDES in FRONT_ARC_OFFSETS


# §9.51: move-and-fire is for vehicles only, strictly a limited move and then a limited fire;
# not after a flash kill (§9.37).
MOVE_AND_FIRE_VEHICLES_ONLY = True
MOVE_AND_FIRE_ORDER = ("move", "fire")

# §11.5: the separation row of each unit (fire and morale modifier id), and the rows whose units
# may not move either (advanced rules). A Seasoned non-vehicle has no row (NOTES.md).
SEPARATION_ROWS = ("separated_veteran", "separated_vehicle", "separated_green_non_vehicle")
SEPARATED_MAY_NOT_MOVE = ("separated_green_non_vehicle",)
# §11.2-§11.4: doctrine applies to companies and squadrons; these formations are exempt
DOCTRINE_EXEMPT_FORMATIONS = ("hq", "battery")


def separation_row(experience: str, is_vehicle: bool) -> Optional[str]:
    """The §11.5 row of a separated unit of this experience and class (None: no effect)."""
    if experience == "veteran":
        return "separated_veteran"
    if is_vehicle:
        return "separated_vehicle"
    return "separated_green_non_vehicle" if experience == "green" else None


# §14.11: who may close-assault, and the three ways in (any one suffices).
CLOSE_ASSAULT_CLASS = "infantry"
CLOSE_ASSAULT_WAYS = ("target_in_cover", "from_entrenchment", "through_flank_arc")


# --- the modifiers of spotting and fire (§9.14, §9.3, §12.14, §13, §14.13, §15, §17.3, §18.7) -----
# One row per modifier: the rule table id its value is read under (``spotting_modifiers`` for the
# kind "spot", else ``fire_modifiers``) unless the row computes it, the section, the kinds of roll
# it enters and when. The engine (engine/modifiers.py) builds every spotting and fire roll's
# modifiers from this table alone; ``test``, ``key`` and ``value`` read the facts of one shot
# (engine/modifiers.Shot: what the firer, the target and the battlefield show at that moment).
# Kinds: "spot" (a spotting roll), "direct" (direct and opportunity fire, close-assault fire, the
# anti-infantry spill), "indirect" (indirect fire and its fire-zone attacks), "raid" (air strikes and
# bombardments, §16), "zone" (a unit entering an enemy fire zone, §13.26).
SPOT, DIRECT, INDIRECT, RAID, ZONE = "spot", "direct", "indirect", "raid", "zone"


class Variant:
    """One rule-table id of a row whose id depends on the roll (the Spotted marker's letter, the firer's
    separation row): the id, and its label and condition in both languages."""
    __slots__ = ("key", "label", "label_fr", "when", "when_fr")

    def __init__(self, key: str, label: str, label_fr: str, when: str, when_fr: str):
        self.key, self.label, self.label_fr, self.when, self.when_fr = key, label, label_fr, when, when_fr


class Modifier:
    __slots__ = ("name", "section", "kinds", "when", "test", "key", "value", "needs", "label", "label_fr", "when_fr",
                 "variants", "pointer", "pointer_fr")

    def __init__(self, name: str, section: str, kinds: tuple, when: str, test, key=None, value=None,
                 needs: str | None = None, *, label: str = "", label_fr: str = "", when_fr: str = "",
                 variants: tuple = (), pointer: str = "", pointer_fr: str = ""):
        self.name, self.section, self.kinds, self.when = name, section, frozenset(kinds), when
        self.test = test  # shot -> bool
        self.key = key  # shot -> the rule table id (None: the name)
        self.value = value  # shot -> the value (None: the rule table's value of the id)
        # a circumstance of the roll or a thing on the map without which the test cannot hold
        # (Shot.NEEDS): the engine skips the row at once when it is absent
        self.needs = needs
        # what people read: the short label (the play account), the condition in French, the ids a keyed
        # row reads (its variants), and where a computed value is found (its pointer)
        self.label, self.label_fr, self.when_fr = label or name.replace("_", " "), label_fr, when_fr
        self.variants, self.pointer, self.pointer_fr = variants, pointer, pointer_fr

    def __repr__(self) -> str:
        return f"Modifier({self.name!r}, \u00a7{self.section}, {sorted(self.kinds)})"

    @property
    def computed(self) -> bool:
        """The value is worked out for the roll (a schedule, the scenario), not one rule-table id's."""
        return self.value is not None

    def ids(self) -> tuple[str, ...]:
        """The rule-table ids the row's value is read under (none when it is computed)."""
        if self.computed:
            return ()
        return tuple(v.key for v in self.variants) if self.variants else (self.name,)

    def text(self, lang: str) -> str:
        """The condition, in the language asked (English when the row has no French)."""
        return self.when_fr if lang == "fr" and self.when_fr else self.when

    def title(self, lang: str) -> str:
        return self.label_fr if lang == "fr" and self.label_fr else self.label


def value_table(kind: str) -> str:
    """The rule table a kind of roll reads its modifiers from (the engine's Tables.spot or Tables.fire)."""
    return "spotting_modifiers" if kind == SPOT else "fire_modifiers"


# §11.5's rows, as a separated firer's fire modifier reads them (and its morale modifier, §11.5)
SEPARATION_VARIANTS = (
    Variant("separated_veteran", "separated Veteran", "V\u00e9t\u00e9ran s\u00e9par\u00e9",
            "the firer is a separated Veteran unit", "le tireur est un V\u00e9t\u00e9ran s\u00e9par\u00e9"),
    Variant("separated_vehicle", "separated Seasoned or Green vehicle", "v\u00e9hicule Aguerri ou Bleu s\u00e9par\u00e9",
            "the firer is a separated Seasoned or Green vehicle",
            "le tireur est un v\u00e9hicule Aguerri ou Bleu s\u00e9par\u00e9"),
    Variant("separated_green_non_vehicle", "separated Green non-vehicle", "non-v\u00e9hicule Bleu s\u00e9par\u00e9",
            "the firer is a separated Green non-vehicle", "le tireur est un non-v\u00e9hicule Bleu s\u00e9par\u00e9"),
)
SPOTTED_VARIANTS = tuple(
    Variant(f"target_spotted_{x.lower()}", f"target Spotted {x}", f"cible Rep\u00e9r\u00e9e {x}",
            f"the target has a Spotted {x} marker", f"la cible a un marqueur \u00ab rep\u00e9r\u00e9 \u00bb {x}")
    for x in "ABC")

MODIFIERS = (
    Modifier("range", "9.23, 12.14, 13.2, 13.26", (DIRECT, INDIRECT, ZONE),
             "the distance (always; a fire zone: if its firer's hex is recorded)",
             lambda s: s.distance is not None, value=lambda s: s.range_modifier,
             label="range", label_fr="port\u00e9e",
             when_fr="la distance (toujours ; zone de tir : si l'hex du tireur est not\u00e9)",
             pointer="range modifiers", pointer_fr="modificateurs de port\u00e9e"),
    Modifier("fire_zone", "13.26, 16.33", (INDIRECT, RAID, ZONE),
             "a fire zone's attack (the other units of the hex, a unit entering the zone)", lambda s: s.fire_zone,
             needs="fire_zone",
             label="fire zone", label_fr="zone de tir",
             when_fr="attaque de zone de tir (autres unit\u00e9s de l'hex, unit\u00e9 qui entre dans la zone)"),
    Modifier("anti_infantry_vs_lightly_armored", "13.1, 16.23", (DIRECT, INDIRECT, RAID, ZONE),
             "anti-infantry fire at a (lightly armoured) vehicle", lambda s: s.mode == "ai" and s.target_is_vehicle,
             label="anti-infantry fire at a vehicle", label_fr="tir anti-infanterie contre un v\u00e9hicule",
             when_fr="un tir anti-infanterie contre un v\u00e9hicule (faiblement blind\u00e9)"),
    Modifier("moving_target", "9.15, 9.23", (SPOT, DIRECT, INDIRECT, RAID),
             "the target has a Moved marker (opportunity fire)", lambda s: s.target.moved,
             label="moving target", label_fr="cible en mouvement",
             when_fr="la cible porte un marqueur \u00ab boug\u00e9 \u00bb (tir d'opportunit\u00e9)"),
    Modifier("target_veteran", "9.15, 9.23", (SPOT, DIRECT, INDIRECT, RAID, ZONE),
             "the target is Veteran", lambda s: s.target_experience == "veteran",
             label="target Veteran", label_fr="cible V\u00e9t\u00e9ran", when_fr="la cible est V\u00e9t\u00e9ran"),
    Modifier("spotter_green", "9.15", (SPOT,), "the spotter is Green", lambda s: s.firer_experience == "green",
             label="spotter Green", label_fr="unit\u00e9 qui rep\u00e8re Bleue",
             when_fr="l'unit\u00e9 qui rep\u00e8re est Bleue"),
    Modifier("firer_green", "9.23", (DIRECT, INDIRECT, ZONE), "the firer is Green",
             lambda s: s.firer_experience == "green",
             label="firer Green", label_fr="tireur Bleu", when_fr="le tireur est Bleu"),
    Modifier("target_in_cover", "9.16, 9.23, 14.13", (DIRECT,),
             "the target is in a building hex or higher than the firer (never in a close assault)", lambda s: s.cover,
             needs="cover", label="target in cover", label_fr="cible \u00e0 couvert",
             when_fr="la cible est dans un hex de b\u00e2timent ou plus haute que le tireur (pas en assaut "
                     "rapproch\u00e9)"),
    Modifier("target_entrenched", "13.43", (SPOT, DIRECT, INDIRECT, RAID, ZONE),
             "the target occupies a finished entrenchment", lambda s: s.target_entrenched, needs="entrenchments",
             label="target entrenched", label_fr="cible retranch\u00e9e",
             when_fr="la cible est retranch\u00e9e"),
    Modifier("target_in_bunker", "15.24", (DIRECT, INDIRECT, RAID, ZONE),
             "the target occupies a bunker", lambda s: s.target_in_bunker, needs="bunkers",
             label="target in a bunker", label_fr="cible dans un bunker", when_fr="la cible occupe un bunker"),
    Modifier("target_in_minefield_hex", "15.12", (DIRECT, INDIRECT, RAID, ZONE),
             "the target stands in a revealed minefield's hex", lambda s: s.target_in_minefield,
             needs="minefields", label="target in a minefield hex", label_fr="cible dans un champ de mines",
             when_fr="la cible est dans l'hex d'un champ de mines r\u00e9v\u00e9l\u00e9"),
    Modifier("target_in_wire_hex", "15.41", (DIRECT, INDIRECT, RAID, ZONE),
             "the target stands in a wire hex", lambda s: s.target_in_wire, needs="wire",
             label="target in a wire hex", label_fr="cible dans les barbel\u00e9s",
             when_fr="la cible est dans un hex de barbel\u00e9s"),
    Modifier("move_and_fire", "9.53", (SPOT, DIRECT), "the unit spotting or firing makes a move-and-fire operation",
             lambda s: s.move_fire, needs="move_fire", label="move-and-fire", label_fr="tir en mouvement",
             when_fr="l'unit\u00e9 fait un tir en mouvement"),
    Modifier("flank_fire", "8.21, 9.23, 15.24", (DIRECT,),
             "the fire comes through the target's flank arc (not at a bunker's occupant)", lambda s: s.flank_fire,
             label="flank fire", label_fr="tir de flanc",
             when_fr="le tir entre par l'arc de flanc de la cible (pas dans un bunker)"),
    Modifier("through_own_flank", "8.21, 9.15, 9.23", (SPOT, DIRECT),
             "the unit spots or fires through its own flank hexsides", lambda s: s.through_own_flank,
             label="through its own flank", label_fr="par ses c\u00f4t\u00e9s de flanc",
             when_fr="l'unit\u00e9 rep\u00e8re ou tire par ses c\u00f4t\u00e9s de flanc"),
    Modifier("target_spotted", "9.18", (SPOT,), "the target has a Spotted A/B/C marker (the row of its letter)",
             lambda s: bool(s.target.spotted), key=lambda s: f"target_spotted_{s.target.spotted.lower()}",
             label="target Spotted", label_fr="cible rep\u00e9r\u00e9e",
             when_fr="la cible porte un marqueur \u00ab rep\u00e9r\u00e9 \u00bb A, B ou C (la ligne de sa lettre)",
             variants=SPOTTED_VARIANTS),
    Modifier("smoke", "17.3", (SPOT,), "the spotter's or the target's hex holds smoke (once, even if both)",
             lambda s: s.smoke, needs="smoke", label="smoke", label_fr="fumig\u00e8nes",
             when_fr="des fumig\u00e8nes dans l'hex de l'unit\u00e9 qui rep\u00e8re ou de la cible (une fois)"),
    Modifier("separated", "11.5", (DIRECT, INDIRECT), "the firer is separated (its row of \u00a711.5)",
             lambda s: s.separation_row is not None, key=lambda s: s.separation_row,
             label="separated", label_fr="s\u00e9par\u00e9",
             when_fr="le tireur est s\u00e9par\u00e9 (sa ligne du \u00a711.5)", variants=SEPARATION_VARIANTS),
    Modifier("scenario", "18.7", (SPOT, DIRECT, INDIRECT),
             "the scenario's modifier for the firer's side",
             lambda s: bool(s.scenario_modifier), value=lambda s: s.scenario_modifier,
             needs="scenario", label="scenario", label_fr="sc\u00e9nario",
             when_fr="le modificateur du sc\u00e9nario pour le camp du tireur",
             pointer="scenario sheet", pointer_fr="fiche du sc\u00e9nario"),
    Modifier("close_assault", "14.13", (DIRECT,), "the infantry fires at the vehicle it assaults",
             lambda s: s.close_assault, needs="close_assault", label="close assault",
             label_fr="assaut rapproch\u00e9", when_fr="l'infanterie tire sur le v\u00e9hicule qu'elle assaille"),
    Modifier("anti_infantry_stack", "13.11, 13.12", (DIRECT,),
             "anti-infantry fire at the other non-vehicles and lightly armoured vehicles of the target's hex",
             lambda s: s.spill,
             needs="spill", label="anti-infantry spill", label_fr="autres unit\u00e9s de l'hex",
             when_fr="tir anti-infanterie : les autres non-v\u00e9hicules et v\u00e9hicules faiblement blind\u00e9s de "
                     "l'hex de la cible"),
)

_BY_NAME = {m.name: m for m in MODIFIERS}
_BY_ID = {v.key: (m, v) for m in MODIFIERS for v in m.variants}


def modifier(name: str) -> Modifier:
    """The table's row of this name (KeyError: no such row)."""
    return _BY_NAME[name]


def row_of(key: str) -> tuple[Modifier, Variant | None] | None:
    """The row (and its variant) a roll's logged modifier id comes from; None if no row writes it."""
    if key in _BY_NAME:
        return _BY_NAME[key], None
    return _BY_ID.get(key)


def describe(key: str, lang: str = "en") -> tuple[str, str]:
    """(label, \u00a7) of a roll's logged modifier id, from its row; an id no row writes is shown as it is."""
    found = row_of(key)
    if found is None:
        return key.replace("_", " "), ""
    row, variant = found
    if variant is not None:
        return (variant.label_fr if lang == "fr" else variant.label), row.section
    return row.title(lang), row.section
