"""Game state: units, formations, cards in hand and on the stack, the turn and phase."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..model import UnitType

ON_MAP, OFF_MAP, DESTROYED, EXITED, REMOVED = "on-map", "off-map", "destroyed", "exited", "removed"


@dataclass(slots=True)
class Unit:
    id: str  # e.g. "419.2": card number and index
    card: int
    type: UnitType
    side: str
    hex: str | None
    facing: int = 0
    status: str = ON_MAP
    flipped: bool = False
    suppressed: bool = False
    separated: bool = False
    experience_bonus: int = 0  # steel morale (§10.31): at most one level per game
    moved: bool = False  # Moved marker (§9.15)
    fired: bool = False  # Fired marker (§9.17)
    spotted: str | None = None  # Spotted A/B/C marker (§9.18)
    flash_kill: bool = False  # a flash kill's extra operation pending (§9.36)
    flash_kills: int = 0  # this turn
    opportunity_fired: bool = False  # this turn (§9.42)
    fate: dict | None = None  # how it left: {"turn", "by", "edge", "map", "counts_as_loss"}
    hidden: bool = False  # a forward observer deployed hidden, written on paper (§12.21)
    if_spotted: bool = False  # made its indirect-fire spotting this turn (§12.23, §13.23)
    smoked: bool = False  # a CS tank fired its smoke this turn (§17.2)
    carried_by: str | None = None  # loaded in this transport until Morale step 1 (§13.3)
    start_hex: str | None = None  # where it stood when the Operations Phase began (§13.3 step 1)
    pinned: bool = False  # assaulted into an enemy hex: cannot leave while the enemy stays (§14.11)

    def copy(self) -> "Unit":
        u = Unit(self.id, self.card, self.type, self.side, self.hex, self.facing, self.status, self.flipped,
                 self.suppressed, self.separated, self.experience_bonus, self.moved, self.fired, self.spotted,
                 self.flash_kill, self.flash_kills, self.opportunity_fired, self.fate, self.hidden, self.if_spotted, self.smoked,
                 self.carried_by, self.start_hex, self.pinned)
        return u

    @property
    def on_map(self) -> bool:
        return self.status == ON_MAP

    @property
    def ready(self) -> bool:
        """Face up and not suppressed: may operate or fire (§7.1, §10.13)."""
        return self.status == ON_MAP and not self.flipped and not self.suppressed


@dataclass(slots=True)
class Formation:
    card: int
    side: str
    kind: str  # "combat" | "command" | "transport" (a side's scenario transports, §13.31: no card)
    shaken: bool = False
    losses: float = 0  # units that count as losses for morale (§10.11, §18.5)
    lost_this_turn: int = 0
    arrival: int = 1  # turn the card joins the hand
    entry_zone: frozenset = frozenset()  # hexes its units may enter through (empty: set up on the map)
    must_replay: bool = False  # rallied by a command card: back in hand, must be played (§6.52)

    def copy(self) -> "Formation":
        return Formation(self.card, self.side, self.kind, self.shaken, self.losses, self.lost_this_turn,
                         self.arrival, self.entry_zone, self.must_replay)


@dataclass
class State:
    turn: int = 1
    phase: str = "operations"
    units: dict[str, Unit] = field(default_factory=dict)
    formations: dict[int, Formation] = field(default_factory=dict)
    hands: dict[str, list[int]] = field(default_factory=lambda: {"allied": [], "axis": []})
    stack: list[int] = field(default_factory=list)
    played: set[int] = field(default_factory=set)  # cards set aside this turn
    visibility: int = 10
    interrupt_windows: set[int] = field(default_factory=set)  # cards that had their window (§6.56)
    failed_interrupts: dict = field(default_factory=dict)  # top card -> cards that failed against it (§6.55)
    # Fire zones (§13.26), the paper record: {"hex", "side", "firer", "firer_hex", "anti_vehicle",
    # "anti_infantry", "experience", "turn"}; removed at Morale step 5 or with their firer.
    fire_zones: list = field(default_factory=list)
    # Entrenchment markers (§13.4): {"hex", "occupant": unit id or None, "done": bool, "turn": started}
    entrenchments: list = field(default_factory=list)
    smoke: list = field(default_factory=list)  # hexes holding a smoke marker (§17), one entry per marker
    smoke_points: dict = field(default_factory=dict)  # side -> smoke fires left (§17.1)
    # Raids (§16): the deck (top first), cards drawn since the last Morale Phase, the raid record
    # (§18.9: {"side", "kind", "turn", "nationality", "done"}) and the (card, side) air-strike windows
    raid_deck: list = field(default_factory=list)
    raid_used: list = field(default_factory=list)
    raids: list = field(default_factory=list)
    air_windows: set = field(default_factory=set)

    def copy(self) -> "State":
        s = State(self.turn, self.phase, {k: u.copy() for k, u in self.units.items()},
                  {k: f.copy() for k, f in self.formations.items()},
                  {k: list(v) for k, v in self.hands.items()}, list(self.stack), set(self.played), self.visibility,
                  set(self.interrupt_windows), {k: set(v) for k, v in self.failed_interrupts.items()},
                  [dict(z) for z in self.fire_zones], [dict(e) for e in self.entrenchments],
                  list(self.smoke), dict(self.smoke_points))
        s.raid_deck, s.raid_used = list(self.raid_deck), list(self.raid_used)
        s.raids, s.air_windows = [dict(r) for r in self.raids], set(self.air_windows)
        return s

    def side_units(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def at(self, hex_: str) -> list[Unit]:
        return [u for u in self.units.values() if u.hex == hex_ and u.on_map]
