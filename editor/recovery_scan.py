"""Unsaved work left in other packs: at start, the editor says which packs a dead editor
left autosaved edits in, so a crash while editing a mod is not forgotten because the next
`sandtable edit` opened the bundled pack. Read-only: the pack's own editor offers and applies
the recovery (``PackDocument.pending_recovery``) once that pack is opened."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .workspace import _lock_held


@dataclass(frozen=True)
class Unsaved:
    pack: Path
    pack_id: str
    saved_at: float
    documents: int


def other_packs(folder: Path, current: Path | None) -> list[Unsaved]:
    """Packs other than ``current`` with an autosave no running editor holds, newest first;
    one entry per pack, only packs still on disk."""
    here = str(Path(current).resolve()) if current else None
    found: dict[str, Unsaved] = {}
    for path in Path(folder).glob("*.autosave.json"):
        try:
            payload = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(payload, dict) or not (payload.get("docs") or payload.get("foreign")):
            continue
        pack = payload.get("pack")
        if not isinstance(pack, str) or pack == here or not Path(pack).exists():
            continue
        lock = path.with_name(path.name[:-len("autosave.json")] + "lock")
        if path.name.count(".") > 2 and _lock_held(lock):
            continue  # an editor running on that pack: its autosave is its own
        n = len(payload.get("docs") or {}) + len(payload.get("foreign") or [])
        entry = Unsaved(Path(pack), str(payload.get("pack_id") or Path(pack).name),
                        float(payload.get("saved_at") or 0), n)
        if pack not in found or entry.saved_at > found[pack].saved_at:
            found[pack] = entry
    return sorted(found.values(), key=lambda u: -u.saved_at)
