"""The editable state of a pack (no Qt): what the editor changes, saves and recovers.

A ``Workspace`` opens one pack (with the packs it depends on, read-only) through the
catalog. Objects the opened pack defines itself are edited inside its documents
("home" objects); objects that come from a pack below it are edited as whole values
("foreign" objects) and saved as explicit overrides. Every value is treated as
immutable: edits copy the path to the changed field and share the rest (``jsonptr``).

Saving goes through ``rules.atomic``. A pack the user does not own (the bundled pack, a
zip, a read-only folder) is never written: its changes go to a mod pack as overrides,
each guarded by ``test`` operations on the base values it replaces.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sandtable.rules import atomic
from sandtable.rules.catalog import MANIFEST, Catalog, LoadedPack, bundled_packs_dir, load_catalog

from . import jsonptr
from .jsonptr import MISSING

Key = tuple[str, str]  # (object kind, object id)
AUTOSAVE_FORMAT = 1


@dataclass
class ModResult:
    folder: Path
    pack_id: str
    created: bool
    targets: list[Key] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)  # targets where the chosen mod already changed a value


class Workspace:
    def __init__(self, path: str | Path, search: list[Path] | None = None, owned: bool | None = None,
                 catalog: Catalog | None = None):
        self.path = Path(path)
        self.search = list(search or [])
        self.catalog = catalog if catalog is not None else load_catalog([self.path], search=self.search)
        self.pack: LoadedPack | None = next(
            (p for p in self.catalog.packs if str(p.source.label) == str(self.path)), None)
        if self.pack is None and self.catalog.packs:
            self.pack = self.catalog.packs[-1]
        src = self.pack.source if self.pack else None
        if owned is None:
            owned = bool(src and src.kind == "folder" and os.access(self.path, os.W_OK)
                          and not _inside(self.path, bundled_packs_dir()))
        self.owned = owned
        # The opened pack's documents: relative path -> current value (and the document read).
        self.documents = {}
        self.docs: dict[str, Any] = {}
        if self.pack is not None:
            by_display = {src.display(rel): rel for rel in src.data_files()}
            for doc in self.pack.documents:
                rel = by_display.get(doc.path)
                if rel is not None:
                    self.documents[rel] = doc
                    self.docs[rel] = doc.value
        self.saved_docs: dict[str, Any] = dict(self.docs)
        # Where each object of the opened pack stands: (kind, id) -> (rel, pointer in the document).
        self.home: dict[Key, tuple[str, str]] = {}
        self.rel_of_display = {d.path: rel for rel, d in self.documents.items()}
        for kind, table in self.catalog.objects.items():
            for oid, entry in table.items():
                first = entry.history[0] if entry.history else None
                if first and first.action == "add" and self.pack and first.pack == self.pack.id:
                    rel = self.rel_of_display.get(first.doc.path)
                    if rel is not None:
                        self.home[(kind, oid)] = (rel, first.pointer)
        self.foreign: dict[Key, Any] = {}  # edited values of objects from packs below
        self.saved_foreign: dict[Key, Any] = {}
        self._lower: Catalog | None = None

    # --- reading ----------------------------------------------------------------------

    @property
    def pack_id(self) -> str:
        return self.pack.id if self.pack else ""

    @property
    def ruleset(self) -> str:
        return self.pack.manifest["ruleset"] if self.pack else ""

    def keys(self, kind: str) -> list[str]:
        return list(self.catalog.objects.get(kind, {}))

    def kinds(self) -> list[str]:
        return list(self.catalog.objects)

    def exists(self, kind: str, oid: str) -> bool:
        return oid in self.catalog.objects.get(kind, {})

    def value(self, kind: str, oid: str) -> Any:
        key = (kind, str(oid))
        if key in self.home:
            rel, ptr = self.home[key]
            return jsonptr.get(self.docs[rel], ptr, None)
        if key in self.foreign:
            return self.foreign[key]
        entry = self.catalog.get(kind, oid)
        return entry.value if entry else None

    def get(self, kind: str, oid: str, pointer: str, default: Any = None) -> Any:
        v = jsonptr.get(self.value(kind, oid), pointer, MISSING)
        return default if v is MISSING else v

    def saved_value(self, kind: str, oid: str) -> Any:
        """The object as it stands on disk (at open, or at the last save)."""
        key = (kind, str(oid))
        if key in self.home:
            rel, ptr = self.home[key]
            return jsonptr.get(self.saved_docs[rel], ptr, None)
        if key in self.saved_foreign:
            return self.saved_foreign[key]
        entry = self.catalog.get(kind, oid)
        return entry.value if entry else None

    def defining_pack(self, kind: str, oid: str) -> str:
        entry = self.catalog.get(kind, oid)
        return entry.pack if entry else ""

    def overridden_by(self, kind: str, oid: str) -> list[str]:
        entry = self.catalog.get(kind, oid)
        if entry is None:
            return []
        return [f"{c.pack} ({c.action})" for c in entry.history[1:]]

    def is_home(self, kind: str, oid: str) -> bool:
        return (kind, str(oid)) in self.home

    def changed_objects(self) -> list[Key]:
        out = []
        for kind, table in self.catalog.objects.items():
            for oid in table:
                if self.value(kind, oid) != self.saved_value(kind, oid):
                    out.append((kind, oid))
        return out

    def changed_docs(self) -> list[str]:
        return [rel for rel, v in self.docs.items() if v is not self.saved_docs.get(rel) and v != self.saved_docs.get(rel)]

    def locate(self, kind: str, oid: str) -> tuple[str, str] | None:
        """(document display path, pointer of the object in it), for home objects."""
        key = (kind, str(oid))
        if key not in self.home:
            return None
        rel, ptr = self.home[key]
        return self.documents[rel].path, ptr

    # --- editing ----------------------------------------------------------------------

    def set(self, kind: str, oid: str, pointer: str, new: Any) -> Any:
        """Put ``new`` at ``pointer`` of an object (MISSING removes); returns the old value."""
        key = (kind, str(oid))
        old = jsonptr.get(self.value(kind, oid), pointer, MISSING)
        if key in self.home:
            rel, ptr = self.home[key]
            self.docs[rel] = jsonptr.set_in(self.docs[rel], ptr + pointer, new)
        else:
            base = self.value(kind, oid)
            self.foreign[key] = jsonptr.set_in(base, pointer, new)
        return old

    def state(self) -> tuple[dict, dict]:
        return dict(self.docs), dict(self.foreign)

    def restore(self, state: tuple[dict, dict]) -> None:
        docs, foreign = state
        self.docs = dict(docs)
        self.foreign = dict(foreign)

    # --- saving -----------------------------------------------------------------------

    def save(self) -> list[str]:
        """Write the opened pack (atomically, changed documents only). Foreign edits become
        this pack's overrides. Returns the relative paths written."""
        if not self.owned:
            raise PermissionError(f"{self.path} is not yours to change: save the edits as a mod pack")
        if self.foreign:
            self._save_foreign_as_overrides()
        written = []
        for rel in self.changed_docs():
            atomic.write_json(self.path / rel, self.docs[rel])
            written.append(rel)
        self.saved_docs = dict(self.docs)
        self.saved_foreign = dict(self.foreign)
        return written

    def lower_value(self, kind: str, oid: str) -> Any:
        """The object as the packs below the opened one define it (None: the opened pack adds it)."""
        if self._lower is None:
            below = [Path(str(p.source.label)) for p in self.catalog.packs if p is not self.pack]
            self._lower = load_catalog(below, search=self.search) if below else Catalog()
        entry = self._lower.get(kind, oid)
        return entry.value if entry else None

    def _save_foreign_as_overrides(self) -> None:
        rel = next((r for r, v in self.docs.items() if isinstance(v, dict) and v.get("kind") == "overrides"), None)
        doc = self.docs[rel] if rel else {"kind": "overrides", "description": "Values this pack changes in the packs it depends on.",
                                          "overrides": []}
        rel = rel or "overrides.json"
        items = list(doc.get("overrides", []))
        for (kind, oid), value in self.foreign.items():
            lower = self.lower_value(kind, oid)
            if lower is None:
                continue
            items = [it for it in items if not (it["target"]["kind"] == kind and str(it["target"]["id"]) == oid)]
            if value != lower:
                items.append(override_item(kind, oid, lower, value, "edited in sandtable edit"))
        self.docs[rel] = {**doc, "overrides": items}

    def save_as_mod(self, folder: str | Path, pack_id: str | None = None, name: str | None = None,
                    reason: str = "edited in sandtable edit") -> ModResult:
        """Write every change (against the pack as it stands on disk) as overrides in a mod pack.

        ``folder`` is a new mod pack (created with a pack.json that depends on the opened
        pack) or an existing one (its overrides of the same objects are merged)."""
        folder = Path(folder)
        manifest_path = folder / MANIFEST
        created = not manifest_path.exists()
        if created:
            pack_id = pack_id or folder.name
            major = int(self.pack.version.split(".")[0]) if self.pack else 1
            manifest = {"kind": "pack", "id": pack_id, "name": name or pack_id, "version": "0.1.0",
                        "ruleset": self.ruleset,
                        "depends_on": [{"id": self.pack_id, "version": f">={self.pack.version},<{major + 1}"}],
                        "description": f"Changes to {self.pack_id} made in sandtable edit."}
        else:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
            if manifest.get("id") == self.pack_id:
                raise ValueError("a mod pack cannot be the pack it changes")
            deps = manifest.setdefault("depends_on", [])
            if not any(d.get("id") == self.pack_id for d in deps):
                deps.append({"id": self.pack_id})
        ov_path = folder / "overrides.json"
        existing = json.loads(ov_path.read_text(encoding="utf-8")) if ov_path.exists() else \
            {"kind": "overrides", "description": f"Values this mod changes in {self.pack_id}.", "overrides": []}
        items = list(existing.get("overrides", []))
        result = ModResult(folder, manifest["id"], created)
        for kind, oid in self.changed_objects():
            base = self.saved_value(kind, oid)
            new = self.value(kind, oid)
            mine = [it for it in items if it["target"]["kind"] == kind and str(it["target"]["id"]) == oid]
            if mine:
                theirs = _apply_items(base, mine)
                if theirs is None:
                    result.conflicts.append(f"{kind} {oid}: the mod's earlier override no longer applies; replaced")
                else:
                    merged = _apply_items(theirs, [{"patch": diff(base, new)}])
                    if merged is None:
                        result.conflicts.append(f"{kind} {oid}: the mod already changed the same values; yours win")
                    else:
                        new = merged
                items = [it for it in items if it not in mine]
            items.append(override_item(kind, oid, base, new, reason))
            result.targets.append((kind, oid))
        existing["overrides"] = items
        atomic.write_json(ov_path, existing)
        atomic.write_json(manifest_path, manifest)
        return result

    # --- autosave and recovery --------------------------------------------------------

    def fingerprint(self) -> str:
        """Identifies the saved state the autosave was taken against."""
        h = hashlib.sha256()
        for rel in sorted(self.saved_docs):
            h.update(rel.encode())
            h.update(self.documents[rel].text.encode() if rel in self.documents else b"")
        return h.hexdigest()[:16]

    def autosave_payload(self) -> dict:
        return {"format": AUTOSAVE_FORMAT, "pack": str(self.path.resolve()), "pack_id": self.pack_id,
                "saved_at": time.time(), "pid": os.getpid(),
                "docs": {rel: self.docs[rel] for rel in self.changed_docs()},
                "foreign": [{"kind": k, "id": i, "value": v} for (k, i), v in self.foreign.items()
                            if v != self.saved_foreign.get((k, i), self.catalog.get(k, i).value if self.catalog.get(k, i) else None)]}

    def recovered_state(self, payload: dict) -> tuple[dict, dict]:
        docs, foreign = self.state()
        for rel, value in payload.get("docs", {}).items():
            if rel in docs:
                docs[rel] = value
        for item in payload.get("foreign", []):
            if self.exists(item["kind"], str(item["id"])):
                foreign[(item["kind"], str(item["id"]))] = item["value"]
        return docs, foreign


def autosave_file(folder: Path, pack_path: Path) -> Path:
    digest = hashlib.sha256(str(Path(pack_path).resolve()).encode()).hexdigest()[:16]
    return Path(folder) / f"{digest}.autosave.json"


def write_autosave(folder: Path, ws: Workspace) -> Path:
    target = autosave_file(folder, ws.path)
    atomic.write_json(target, ws.autosave_payload())
    return target


def read_autosave(folder: Path, pack_path: Path) -> dict | None:
    target = autosave_file(folder, pack_path)
    try:
        payload = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if payload.get("format") != AUTOSAVE_FORMAT or payload.get("pack") != str(Path(pack_path).resolve()):
        return None
    if not payload.get("docs") and not payload.get("foreign"):
        return None
    return payload


def clear_autosave(folder: Path, pack_path: Path) -> None:
    try:
        autosave_file(folder, pack_path).unlink()
    except FileNotFoundError:
        pass


# --- overrides ---------------------------------------------------------------------------

def diff(old: Any, new: Any, pointer: str = "") -> list[dict]:
    """A JSON Patch from old to new: objects field by field, lists of equal length item by
    item, anything else replaced whole (so no operation shifts another's index)."""
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        ops = []
        for k in old:
            p = jsonptr.child(pointer, k)
            if k not in new:
                ops.append({"op": "remove", "path": p})
            else:
                ops += diff(old[k], new[k], p)
        for k in new:
            if k not in old:
                ops.append({"op": "add", "path": jsonptr.child(pointer, k), "value": new[k]})
        return ops
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        ops = []
        for i, (a, b) in enumerate(zip(old, new)):
            ops += diff(a, b, f"{pointer}/{i}")
        return ops
    return [{"op": "replace", "path": pointer, "value": new}]


def guarded_patch(old: Any, new: Any) -> list[dict]:
    """diff(old, new) preceded by a ``test`` of every base value it replaces or removes, so
    the override fails loudly (override-stale) on another version of the base."""
    ops = diff(old, new)
    tests = [{"op": "test", "path": op["path"], "value": jsonptr.get(old, op["path"])}
             for op in ops if op["op"] in ("replace", "remove")]
    return tests + ops


def override_item(kind: str, oid: str, old: Any, new: Any, reason: str = "") -> dict:
    item: dict = {"target": {"kind": kind, "id": _target_id(kind, oid, new)}}
    if reason:
        item["reason"] = reason
    item["patch"] = guarded_patch(old, new)
    return item


def _target_id(kind: str, oid: str, value: Any):
    return int(oid) if kind == "formation-card" and oid.isdigit() else oid


def _apply_items(value: Any, items: list[dict]) -> Any:
    import copy

    import jsonpatch
    import jsonpointer
    cur = value
    for it in items:
        if it.get("remove"):
            return None
        if "replace" in it:
            cur = copy.deepcopy(it["replace"])
            continue
        try:
            cur = jsonpatch.apply_patch(cur, it["patch"])
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException, TypeError, KeyError, IndexError):
            return None
    return cur


def _inside(path: Path, folder: Path) -> bool:
    try:
        Path(path).resolve().relative_to(Path(folder).resolve())
        return True
    except ValueError:
        return False
