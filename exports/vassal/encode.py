"""VASSAL 3.6's text encodings: SequenceEncoder, the traits sandtable uses, and piece commands.

A piece is a chain of traits, outermost first, ending in a BasicPiece. VASSAL writes the chain's
type as ``outer<TAB>inner-chain`` and its state likewise, each level escaping the delimiter of the
level below; traits encode their own fields with ``;`` (or ``,``). The engine re-encodes what it
reads field by field, so every field is written here as the engine writes it (booleans as
``true``/``false``, key strokes as ``keyCode,modifiers``) -- the VASSAL tests compare the two.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

ESC = "\x1b"  # VASSAL's command separator in a saved game


def seq(items: Iterable, delim: str) -> str:
    """``VASSAL.tools.SequenceEncoder``: join, escaping the delimiter with a backslash and quoting a
    token that starts with a backslash or is itself quoted."""
    out = []
    for item in items:
        s = _text(item)
        body = s.replace(delim, "\\" + delim)
        if s and (s[0] == "\\" or (s[0] == "'" and s[-1] == "'")):
            body = "'" + body + "'"
        out.append(body)
    return delim.join(out)


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)  # Java's Double.toString for the values used here (1.0, 0.25)
    return str(value)


def key(code: str | int, ctrl: bool = True) -> str:
    """A key stroke as NamedHotKeyConfigurer writes it: key code, then AWT modifiers (Ctrl = 130,
    the old and new mask bits together)."""
    code = ord(code) if isinstance(code, str) else code
    return f"{code},{130 if ctrl else 0}"


def string_array(items: Sequence[str]) -> str:
    return seq(items, ",") if items else ""


@dataclass(frozen=True)
class Trait:
    type: str
    state: str = ""


def chain(parts: Sequence[str]) -> str:
    """Types (or states) of a trait chain, outermost first, as Decorator.getType() nests them."""
    s = parts[-1]
    for p in reversed(parts[:-1]):
        s = seq([p, s], "\t")
    return s


def piece_type(traits: Sequence[Trait]) -> str:
    return chain([t.type for t in traits])


def piece_state(traits: Sequence[Trait]) -> str:
    return chain([t.state for t in traits])


def add_piece(piece_id: str | None, traits: Sequence[Trait]) -> str:
    """BasicCommandEncoder's AddPiece: ``+/id/type/state``."""
    return "+/" + seq(["null" if piece_id is None else piece_id, piece_type(traits), piece_state(traits)], "/")


def add_stack(stack_id: str, map_id: str, x: int, y: int, piece_ids: Sequence[str]) -> str:
    state = seq([map_id, x, y, *piece_ids, "@@0"], ";")
    return "+/" + seq([stack_id, "stack", state], "/")


# --- traits ---------------------------------------------------------------------------------

def basic_piece(name: str, image: str = "", map_id: str | None = None, x: int = 0, y: int = 0,
                gpid: str = "") -> Trait:
    return Trait("piece;;;" + seq([image, name], ";"),
                 seq(["null" if map_id is None else map_id, x, y, gpid, 0], ";"))


def marker(props: dict[str, str]) -> Trait:
    """Constant properties (Side, Formation...) that players and filters can read."""
    return Trait("mark;" + seq(props.keys(), ","), seq(props.values(), ","))


def layers(images: Sequence[str], names: Sequence[str], menu: str, key_char: str, description: str,
           level: int = 1) -> Trait:
    """An always-active Layer (Embellishment) cycling through its images: a counter's two faces."""
    fields = ["", 130, "", menu, 130, key_char, "", 130, "", "", "", "1", False, 0, 0,
              string_array(images), string_array(names), True, description, "", "", False, "", 1, 1, True,
              "", key(key_char), "", description, 1.0]
    return Trait("emb2;" + seq(fields, ";"), str(level))


def rotator(steps: int, description: str, index: int = 0) -> Trait:
    """Fixed rotations (FreeRotator): facing in 360/steps degree steps, Ctrl-] clockwise."""
    fields = [steps, key("]"), key("["), "Rotate clockwise", "Rotate counter-clockwise", "", "", description, "",
              "", "", "", True]
    return Trait("rotate;" + seq(fields, ";"), str(index))


def hideable(command: str, key_char: str, hidden_by: str | None = None) -> Trait:
    """Invisible to the other side (Hideable, side access): ``hidden_by`` is the side that hid it."""
    fields = [key(key_char), command, "", "side:", 0.25, "", False]
    return Trait("hide;" + seq(fields, ";"), "null" if hidden_by is None else hidden_by)


def restricted(sides: Sequence[str]) -> Trait:
    """Only these sides' players may move it or use its menu (Restricted Access)."""
    return Trait("restrict;" + seq([string_array(sides), False, True, ""], ";"), "")


def use_prototype(name: str) -> Trait:
    return Trait("prototype;" + name, "")


def obscurable(back_image: str, access: str, obscured_by: str | None = None) -> Trait:
    """A card's face down (Obscurable, shown as its back to all but ``access``): what a face-down deck
    draws; ``access`` is "side:" (the side that turned it) or "player:"."""
    fields = [key("F"), back_image, "Face down", "B", "Card", access, "Peek", "", True]
    return Trait("obs;" + seq(fields, ";"), seq(["null" if obscured_by is None else obscured_by, ""], ";"))


@dataclass(frozen=True)
class DeckSpec:
    """A deck's behaviour, as VASSAL's DrawPile and Deck hold it."""

    name: str
    width: int
    height: int
    face_down: str = "Always"  # "Always", "Never" or "Via right-click Menu"
    shuffle: str = "Via right-click Menu"
    allow_multiple: bool = True
    allow_select: bool = True
    reversible: bool = False
    colour: str = "0,0,0"


def deck_type(d: DeckSpec) -> str:
    """Deck.getType(): the deck of a saved game."""
    fields = [True, d.colour, d.width, d.height, d.face_down, d.shuffle, d.allow_multiple, d.allow_select,
              d.reversible, "", "", "", d.name, "", "", "", False, False, "", "", 10, "", False, "", False, "",
              "$BasicName$", "", False, "", "Shuffle", "Reverse", "", "Draw multiple cards", "Draw specific cards",
              "Face up", "Face down"]
    return "deck;" + seq(fields, ";")


def add_deck(deck_id: str, d: DeckSpec, map_id: str, x: int, y: int, face_down: bool, piece_ids: Sequence[str]) -> str:
    state = seq([map_id, x, y, face_down, seq(piece_ids, ",")], ";") if piece_ids else seq([map_id, x, y, face_down], ";")
    return "+/" + seq([deck_id, deck_type(d), state], "/")
