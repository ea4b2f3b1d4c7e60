"""Every question the game can ask a player, one frozen dataclass each, by rule family (see
base.py). ``BY_KIND``: the class of each ``kind`` (the name in logs and ``game.mode``)."""
from .base import Action, Decision
from .sequence import Activation, Command, Interrupt, Lowest
from .movement import Move
from .fire import Opportunity, SmokeHex, Target
from .indirect import Spotter
from .transport import Load
from .close_combat import AssaultFire, AssaultHex, AssaultJoin, AssaultReact, OverrunReact, OverrunTarget
from .fortifications import Engineer
from .raids import AirStrike, AirTarget, Bombard, PlanBombardment, PlanRaid

BY_KIND = {cls.kind: cls for cls in (
    Lowest, Interrupt, Command, Activation, Move, Opportunity, Target, SmokeHex, Spotter, Load,
    AssaultHex, AssaultJoin, AssaultReact, AssaultFire, OverrunReact, OverrunTarget, Engineer,
    PlanRaid, PlanBombardment, AirStrike, AirTarget, Bombard)}

__all__ = ["Action", "Decision", "BY_KIND", "Activation", "Command", "Interrupt", "Lowest", "Move",
           "Opportunity", "SmokeHex", "Target", "Spotter", "Load", "AssaultFire", "AssaultHex", "AssaultJoin",
           "AssaultReact", "OverrunReact", "OverrunTarget", "Engineer", "AirStrike", "AirTarget", "Bombard",
           "PlanBombardment", "PlanRaid"]
