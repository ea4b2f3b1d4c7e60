"""Painting a Desert Steel map (no Qt): new maps of a chosen size, printed colour,
building and symbols per hex, roads and tracks as chains. Each operation returns new
values (the editor records the old ones for undo).

Hexside features: the Desert Steel rules have none. Terrain is per hex (colour band ->
level under the relief, §3.4; building, §3.2), roads are chains through hex centres
(§3.5, §8.3), and the wadis and escarpments printed on the maps are hex symbols with no
rule effect (NOTES.md, maps). A hexside wall or ridge would be data that no rule reads,
so the map schema does not get one; a ruleset that needs them adds them with its rules.
"""
from __future__ import annotations

import copy
from typing import Iterable, Mapping

from ..board import Board

DEFAULT_COLOURS = ["sand", "tan", "ochre", "brown"]  # the reference maps' bands, lowest first


def new_map(map_id: str, columns: int, rows: int, name: str | None = None, first_column: int = 1,
            first_row: int = 1, colours: list[str] | None = None, provenance_note: str = "") -> dict:
    """An all-clear map (every hex the default colour) of ``columns`` x ``rows`` hexes, its
    outer rows half hexes like the reference maps' top and bottom edges."""
    if not (1 <= columns <= 99 and 1 <= rows <= 99):
        raise ValueError("a map has 1 to 99 columns and rows (hex ids are CCRR)")
    last_c, last_r = first_column + columns - 1, first_row + rows - 1
    if last_c > 99 or last_r > 99:
        raise ValueError("hex ids are CCRR: the last column and row must be 99 or less")
    colours = list(colours or DEFAULT_COLOURS)
    return {
        "kind": "map", "id": map_id, "name": name or f"Map {map_id}",
        "grid": {"orientation": "flat-top", "columns": {"first": first_column, "last": last_c},
                 "rows": {"first": first_row, "last": last_r}, "shifted_columns": "odd",
                 "half_hexes": {"top": True, "bottom": True, "left": False, "right": False}},
        "colours": colours, "default_colour": colours[0], "hexes": {}, "roads": [],
        "provenance": {"": {"source": "reconstructed",
                            "note": provenance_note or "a new map painted in the sandtable editor"}},
    }


def paint(m: Mapping, hex_ids: Iterable[str], colour: str | None = None, building: bool | None = None,
          symbol: str | None = None, clear_symbols: bool = False, minor_colour: str | None = None,
          label: str | None = None) -> dict:
    """New ``hexes`` table with the given hexes changed; a hex equal to an open hex of the
    default colour is left out (the schema lists only hexes that differ). ``minor_colour`` and
    ``label``: None keeps them, "" removes them."""
    hexes = copy.deepcopy(dict(m.get("hexes") or {}))
    default = m.get("default_colour")
    for h in hex_ids:
        rec = dict(hexes.get(h) or {})
        if colour is not None:
            rec["colour"] = colour
        if building is not None:
            rec["building"] = building
        if clear_symbols:
            rec.pop("symbols", None)
        if minor_colour is not None:
            rec["minor_colour"] = minor_colour  # a two-colour hex takes its main colour's level (§3.4)
        if label is not None:
            rec["label"] = label
        if symbol:
            rec["symbols"] = sorted(set(rec.get("symbols", [])) | {symbol})
        if rec.get("colour") == default:
            rec.pop("colour")
        if not rec.get("building"):
            rec.pop("building", None)
        if not rec.get("symbols"):
            rec.pop("symbols", None)
        if not rec.get("minor_colour") or rec.get("minor_colour") == rec.get("colour", default):
            rec.pop("minor_colour", None)
        if not rec.get("label"):
            rec.pop("label", None)
        if rec:
            hexes[h] = rec
        else:
            hexes.pop(h, None)
    return hexes


def colour_of(m: Mapping, hex_id: str) -> str:
    return ((m.get("hexes") or {}).get(hex_id) or {}).get("colour", m.get("default_colour", ""))


def add_road(m: Mapping, kind: str, chain: list[str]) -> list:
    """New ``roads`` list with a road or track through adjacent hexes (consecutive repeats
    dropped)."""
    clean = [h for i, h in enumerate(chain) if i == 0 or h != chain[i - 1]]
    roads = copy.deepcopy(list(m.get("roads") or []))
    if len(clean) >= 2:
        roads.append({"type": kind, "hexes": clean})
    return roads


def erase_roads(m: Mapping, hex_ids: Iterable[str]) -> list:
    """New ``roads`` list without the given hexes: a chain through one is cut in two."""
    gone = set(hex_ids)
    out = []
    for road in m.get("roads") or []:
        piece: list[str] = []
        pieces = []
        for h in road["hexes"]:
            if h in gone:
                pieces.append(piece)
                piece = []
            else:
                piece.append(h)
        pieces.append(piece)
        kept = [p for p in pieces if len(p) >= 2]
        for i, p in enumerate(kept):
            r = {k: v for k, v in road.items() if k not in ("hexes", "id", "leaves_map")}
            r["hexes"] = p
            if "id" in road:
                r["id"] = road["id"] if len(kept) == 1 else f"{road['id']}-{i + 1}"
            if len(kept) == 1 and p[0] == road["hexes"][0] and p[-1] == road["hexes"][-1] and "leaves_map" in road:
                r["leaves_map"] = road["leaves_map"]
            out.append(r)
    return out


def chain_ok(board: Board, map_id: str, chain: list[str]) -> bool:
    """Every step of a road chain goes to an adjacent hex."""
    keys = [f"{map_id}{h}" for h in chain]
    return all(k in board.cells for k in keys) and all(
        board.distance(a, b) == 1 for a, b in zip(keys, keys[1:]))
