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
from sandtable.rules.findings import finding

from . import jsonptr
from .jsonptr import MISSING

Key = tuple[str, str]  # (object kind, object id)
AUTOSAVE_FORMAT = 2  # 2: one file per editor, with the disk base of each document


@dataclass
class ModResult:
    folder: Path
    pack_id: str
    created: bool
    targets: list[Key] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)  # targets where the chosen mod already changed a value
    findings: list = field(default_factory=list)  # why nothing was written (a broken existing mod pack)

    @property
    def ok(self) -> bool:
        return not self.findings


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
        # What each document of an owned folder was on disk when read (or last saved), so a save
        # notices another editor's (or a text editor's) change instead of silently undoing it.
        self.disk: dict[str, DiskStamp | None] = {}
        if src is not None and src.kind == "folder":
            for rel in self.documents:
                self.disk[rel] = disk_stamp(self.path / rel)
        # Where each object of the opened pack stands: (kind, id) -> (rel, pointer in the document),
        # read from the documents themselves, so an object the catalog left out for a schema
        # error is still listed and editable, and new, renamed and deleted objects follow.
        self.rel_of_display = {d.path: rel for rel, d in self.documents.items()}
        self.home: dict[Key, tuple[str, str]] = self._scan_home(self.docs)
        self.saved_home: dict[Key, tuple[str, str]] = dict(self.home)
        self.foreign: dict[Key, Any] = {}  # edited values of objects from packs below
        self.saved_foreign: dict[Key, Any] = {}
        self.removed: frozenset[Key] = frozenset()  # objects of packs below that this pack deletes
        self.saved_removed: frozenset[Key] = frozenset()
        self._lower: Catalog | None = None

    def _scan_home(self, docs: dict[str, Any]) -> dict[Key, tuple[str, str]]:
        """Each object the opened pack's documents define (first of an id wins, as in the
        catalog; an id a lower pack defines stays the lower pack's)."""
        rs = self.catalog.ruleset
        out: dict[Key, tuple[str, str]] = {}
        if rs is None or self.pack is None:
            return out
        for rel in sorted(docs):
            v = docs[rel]
            dk = rs.document_kind(v.get("kind")) if isinstance(v, dict) and isinstance(v.get("kind"), str) else None
            if dk is None:
                continue
            if dk.items is None:
                found = [(v.get(dk.id_key), "")]
            else:
                items = v.get(dk.items)
                found = [(it.get(dk.id_key), f"/{dk.items}/{i}") for i, it in enumerate(items)
                         if isinstance(it, dict)] if isinstance(items, list) else []
            for oid, ptr in found:
                if isinstance(oid, bool) or not isinstance(oid, (str, int)):
                    continue
                key = (dk.object_kind, str(oid))
                entry = self.catalog.get(*key)
                if key in out or (entry is not None and entry.pack != self.pack.id):
                    continue
                out[key] = (rel, ptr)
        return out

    def reindex(self) -> None:
        """After documents changed shape (objects added, removed, renamed)."""
        self.home = self._scan_home(self.docs)

    # --- reading ----------------------------------------------------------------------

    @property
    def pack_id(self) -> str:
        return self.pack.id if self.pack else ""

    @property
    def ruleset(self) -> str:
        return self.pack.manifest["ruleset"] if self.pack else ""

    def keys(self, kind: str) -> list[str]:
        """Ids of a kind as they stand now: the catalog's order, then objects made here."""
        out = [oid for oid in self.catalog.objects.get(kind, {}) if self.exists(kind, oid)]
        seen = set(out)
        out += [oid for (k, oid) in self.home if k == kind and oid not in seen]
        return out

    def kinds(self) -> list[str]:
        return list(dict.fromkeys([*self.catalog.objects, *(k for k, _ in self.home)]))

    def exists(self, kind: str, oid: str) -> bool:
        key = (kind, str(oid))
        if key in self.home:
            return True
        entry = self.catalog.get(kind, oid)
        return entry is not None and key not in self.removed and not (self.pack and entry.pack == self.pack.id)

    def value(self, kind: str, oid: str) -> Any:
        key = (kind, str(oid))
        if key in self.home:
            rel, ptr = self.home[key]
            return jsonptr.get(self.docs[rel], ptr, None)
        if not self.exists(kind, oid):
            return None
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
        if key in self.saved_home:
            rel, ptr = self.saved_home[key]
            return jsonptr.get(self.saved_docs.get(rel), ptr, None)
        entry = self.catalog.get(kind, oid)
        if key in self.saved_removed or (entry is not None and self.pack and entry.pack == self.pack.id):
            return None
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
        """Objects changed, added or deleted since the last save."""
        keys = [(kind, oid) for kind, table in self.catalog.objects.items() for oid in table]
        keys += [k for k in [*self.home, *self.saved_home] if k not in set(keys)]
        out = []
        for kind, oid in dict.fromkeys(keys):
            if self.value(kind, oid) != self.saved_value(kind, oid):
                out.append((kind, oid))
        return out

    def changed_docs(self) -> list[str]:
        """Documents to write; a deleted document (an object that was a whole file) is None."""
        return [rel for rel, v in self.docs.items() if v is not self.saved_docs.get(rel) and v != self.saved_docs.get(rel)]

    # --- objects made, renamed and deleted (the editor's lifecycle; undo restores state()) --

    def document_kind(self, kind: str):
        rs = self.catalog.ruleset
        return rs.object_kinds().get(kind) if rs is not None else None

    def add_object(self, kind: str, value: dict, near: Key | None = None) -> tuple[str, str]:
        """Put a new object into the opened pack: into the collection document of ``near``
        (a template) or the first of its kind, else a new document beside the others of
        its kind. Returns (document, pointer)."""
        dk = self.document_kind(kind)
        oid = str(value[dk.id_key])
        if self.exists(kind, oid):
            raise ValueError(f"{kind} {oid} already exists")
        if dk.items:
            rel = self.home[near][0] if near in self.home else next(
                (r for r in sorted(self.docs) if isinstance(self.docs[r], dict) and self.docs[r].get("kind") == dk.kind),
                None)
            if rel is None:
                rel = _free_rel(self.docs, f"{dk.kind}.json")
                self.docs[rel] = {"kind": dk.kind, dk.items: []}
            items = list(self.docs[rel].get(dk.items) or [])
            items.append(value)
            self.docs[rel] = {**self.docs[rel], dk.items: items}
        else:
            folder = ""
            template_rel = self.home[near][0] if near in self.home else next(
                (r for r, _ in (self.home[k] for k in self.home if k[0] == kind)), None)
            if template_rel and "/" in template_rel:
                folder = template_rel.rsplit("/", 1)[0] + "/"
            elif template_rel is None:  # the first of its kind: its own folder, as a mod pack's save writes it
                folder = (dk.kind if dk.kind.endswith("s") else f"{dk.kind}s") + "/"
            rel = _free_rel(self.docs, f"{folder}{_file_stem(oid)}.json")
            self.docs[rel] = value
        self.reindex()
        return self.home[(kind, oid)]

    def remove_object(self, kind: str, oid: str) -> None:
        """Delete an object: from its document (a whole-file object leaves its file to be
        deleted on save), or, for an object of a pack below, as this pack's removal."""
        key = (kind, str(oid))
        if key in self.home:
            rel, ptr = self.home[key]
            if ptr == "":
                if rel in self.saved_docs:
                    self.docs[rel] = None
                else:
                    del self.docs[rel]
            else:
                self.docs[rel] = jsonptr.set_in(self.docs[rel], ptr, MISSING)
            self.reindex()
        elif self.exists(kind, oid):
            self.foreign.pop(key, None)
            self.removed = self.removed | {key}

    def replace_object(self, kind: str, oid: str, value: dict) -> None:
        """Put a whole new value (possibly under a new id) where an object of this pack stands."""
        key = (kind, str(oid))
        if key not in self.home:
            raise KeyError(f"{kind} {oid} is not defined by {self.pack_id}")
        rel, ptr = self.home[key]
        self.docs[rel] = jsonptr.set_in(self.docs[rel], ptr, value) if ptr else value
        self.reindex()

    def locate(self, kind: str, oid: str) -> tuple[str, str] | None:
        """(document display path, pointer of the object in it), for home objects."""
        key = (kind, str(oid))
        if key not in self.home:
            return None
        rel, ptr = self.home[key]
        doc = self.documents.get(rel)
        return (doc.path if doc is not None else self.pack.source.display(rel)), ptr

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

    def state(self) -> tuple:
        return dict(self.docs), dict(self.foreign), self.removed

    def restore(self, state: tuple) -> None:
        docs, foreign = state[0], state[1]
        self.docs = dict(docs)
        self.foreign = dict(foreign)
        self.removed = state[2] if len(state) > 2 else self.removed
        self.reindex()

    # --- saving -----------------------------------------------------------------------

    def save(self, overwrite: bool = False) -> list[str]:
        """Write the opened pack (atomically, changed documents only). Foreign edits become
        this pack's overrides. Returns the relative paths written.

        Raises ``ExternalChange`` (and writes nothing) when a document to be written was
        changed on disk since it was read, unless ``overwrite``; see ``merge_external``. An
        ``OSError`` (disk full, permissions) can leave some documents written and others not:
        each document is only marked saved once it is on disk, so a retry writes the rest."""
        if not self.owned:
            raise PermissionError(f"{self.path} is not yours to change: save the edits as a mod pack")
        if self.foreign or self.removed != self.saved_removed:
            self._save_foreign_as_overrides()
        if not overwrite:
            clash = self.external_conflicts()
            if clash:
                raise ExternalChange(clash)
        written = []
        for rel in self.changed_docs():
            if self.docs[rel] is None:  # an object that was a whole document was deleted
                try:
                    (self.path / rel).unlink()
                except FileNotFoundError:
                    pass
                del self.docs[rel]
                self.saved_docs.pop(rel, None)
                self.disk.pop(rel, None)
                written.append(rel)
                continue
            atomic.write_json(self.path / rel, self.docs[rel])
            self.saved_docs[rel] = self.docs[rel]
            self.disk[rel] = disk_stamp(self.path / rel)
            written.append(rel)
        self.saved_foreign = dict(self.foreign)
        self.saved_removed = self.removed
        self.saved_home = self._scan_home(self.saved_docs)
        return written

    # --- changes made on disk by someone else -------------------------------------------

    def external_changes(self) -> list[str]:
        """Documents of the opened pack that changed (or vanished) on disk since they were
        read or saved here: a quick stat first, the content hash when the stat differs."""
        out = []
        for rel, stamp in self.disk.items():
            now = _stat(self.path / rel)
            if stamp is None or now is None:
                if (stamp is None) != (now is None):
                    out.append(rel)
                continue
            if now != (stamp.mtime_ns, stamp.size) and _sha(self.path / rel) != stamp.sha:
                out.append(rel)
        return out

    def external_conflicts(self) -> list[str]:
        """External changes to documents this editor would write."""
        mine = set(self.changed_docs())
        return [rel for rel in self.external_changes() if rel in mine]

    def merge_external(self, rels: list[str]) -> dict[str, Any] | None:
        """A three-way merge of each document: the edits made here (saved -> current) applied
        to the version now on disk, when the two sides changed disjoint values (``diff``
        only descends into lists of equal length, so disjoint pointers stay valid on both
        sides). Returns {rel: merged value}, or None when any document cannot be merged
        simply (a value changed on both sides, a list resized, a file unreadable or gone)."""
        import jsonpatch
        out = {}
        for rel in rels:
            try:
                theirs = json.loads((self.path / rel).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return None
            base, mine = self.saved_docs.get(rel), self.docs.get(rel)
            ours_ops, theirs_ops = diff(base, mine), diff(base, theirs)
            ours_paths = [op["path"] for op in ours_ops]
            theirs_paths = [op["path"] for op in theirs_ops]
            if any(jsonptr.is_prefix(a, b) or jsonptr.is_prefix(b, a) for a in ours_paths for b in theirs_paths):
                return None
            try:
                out[rel] = jsonpatch.apply_patch(theirs, ours_ops) if ours_ops else theirs
            except Exception:  # noqa: BLE001 - any patch failure means "not a simple merge"
                return None
        return out

    def adopt_merge(self, merged: dict[str, Any]) -> None:
        """Take merged documents as the current state; the disk version becomes the saved
        base (so the next save writes the merge without asking again)."""
        for rel, value in merged.items():
            theirs = json.loads((self.path / rel).read_text(encoding="utf-8"))
            self.saved_docs[rel] = theirs
            self.docs[rel] = value
            self.disk[rel] = disk_stamp(self.path / rel)
        self.reindex()
        self.saved_home = self._scan_home(self.saved_docs)

    def lower_value(self, kind: str, oid: str) -> Any:
        """The object as the packs below the opened one define it (None: the opened pack adds it)."""
        if self._lower is None:
            below = [Path(str(p.source.label)) for p in self.catalog.packs if p is not self.pack]
            self._lower = load_catalog(below, search=self.search) if below else Catalog()
        entry = self._lower.get(kind, oid)
        return entry.value if entry else None

    def _target_id(self, kind: str, oid: str, value: Any):
        """An override's target id as the object writes its own (a card's number is an integer),
        read through the ruleset's id key for the kind."""
        dk = self.catalog.ruleset.object_kinds().get(kind) if self.catalog.ruleset is not None else None
        typed = value.get(dk.id_key if dk is not None else "id") if isinstance(value, dict) else None
        return typed if typed is not None and not isinstance(typed, (dict, list)) and str(typed) == oid else oid

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
            mine = [it for it in items if it["target"]["kind"] == kind and str(it["target"]["id"]) == oid]
            if mine and _apply_items(lower, mine) == value:
                continue  # this pack's own overrides still make it (a rename rewrote ids inside): kept as written
            items = [it for it in items if not (it["target"]["kind"] == kind and str(it["target"]["id"]) == oid)]
            if value != lower:
                items.append(override_item(kind, self._target_id(kind, oid, value), lower, value,
                                           "edited in sandtable edit"))
        for kind, oid in sorted(self.removed):
            items = [it for it in items if not (it["target"]["kind"] == kind and str(it["target"]["id"]) == oid)]
            items.append({"target": {"kind": kind, "id": self._target_id(kind, oid, self.lower_value(kind, oid))},
                          "reason": "deleted in sandtable edit",
                          "remove": True})
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
        ov_path = folder / "overrides.json"
        # An existing mod is read and schema-checked first: a broken manifest or overrides file
        # is reported as findings (file, line, pointer) and nothing is written.
        problems: list = []
        if not created:
            manifest = _checked_document(manifest_path, "pack.schema.json", problems)
            if manifest is not None and manifest.get("id") == self.pack_id:
                problems.append(finding("pack-duplicate", f"{folder} is {self.pack_id} itself: a mod pack cannot be "
                                        "the pack it changes", file=str(manifest_path), pointer="/id"))
        existing = _checked_document(ov_path, "overrides.schema.json", problems) if ov_path.exists() else \
            {"kind": "overrides", "description": f"Values this mod changes in {self.pack_id}.", "overrides": []}
        if problems:
            return ModResult(folder, str(manifest.get("id", folder.name)) if isinstance(manifest, dict) else folder.name,
                             created, findings=problems)
        if not created:
            deps = manifest.setdefault("depends_on", [])
            if not any(d.get("id") == self.pack_id for d in deps):
                deps.append({"id": self.pack_id})
        items = list(existing.get("overrides", []))
        result = ModResult(folder, manifest["id"], created)
        added: dict[str, list[tuple[str, Any]]] = {}  # object kind -> new objects (documents of the mod)
        for kind, oid in self.changed_objects():
            base = self.saved_value(kind, oid)
            new = self.value(kind, oid)
            if base is None:  # made here: the mod adds it
                added.setdefault(kind, []).append((oid, _claim_authored(new, None, f"{self.pack_id}-mod", manifest["id"])))
                result.targets.append((kind, oid))
                continue
            if new is None:  # deleted here: the mod removes it
                items = [it for it in items if not (it["target"]["kind"] == kind and str(it["target"]["id"]) == oid)]
                items.append({"target": {"kind": kind, "id": self._target_id(kind, oid, base)}, "reason": reason,
                              "remove": True})
                result.targets.append((kind, oid))
                continue
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
            new = _claim_authored(new, base, f"{self.pack_id}-mod", manifest["id"])
            items.append(override_item(kind, self._target_id(kind, oid, new), base, new, reason))
            result.targets.append((kind, oid))
        existing["overrides"] = items
        self._write_added(folder, added)
        atomic.write_json(ov_path, existing)
        atomic.write_json(manifest_path, manifest)
        return result

    def _write_added(self, folder: Path, added: dict[str, list[tuple[str, Any]]]) -> None:
        """New objects as the mod pack's own documents: one collection document per kind
        (``added-unit-types.json``, merged by id with what an earlier save wrote) and one
        file per whole-document object (``scenarios/<id>.json``)."""
        for kind, objs in added.items():
            dk = self.document_kind(kind)
            if dk is None:
                continue
            if dk.items:
                path = folder / f"added-{dk.kind}.json"
                doc = {"kind": dk.kind, dk.items: []}
                if path.exists():
                    try:
                        old = json.loads(path.read_text(encoding="utf-8"))
                        if isinstance(old, dict) and isinstance(old.get(dk.items), list):
                            doc = old
                    except (OSError, ValueError):
                        pass
                mine = {oid for oid, _ in objs}
                keep = [it for it in doc[dk.items] if not (isinstance(it, dict) and str(it.get(dk.id_key)) in mine)]
                doc[dk.items] = keep + [v for _, v in objs]
                atomic.write_json(path, doc)
            else:
                for oid, value in objs:
                    plural = dk.kind if dk.kind.endswith("s") else f"{dk.kind}s"  # scenarios/, setups/, maps/
                    atomic.write_json(folder / plural / f"{_file_stem(oid)}.json", value)

    # --- autosave and recovery --------------------------------------------------------

    def fingerprint(self) -> str:
        """Identifies the saved state the autosave was taken against."""
        h = hashlib.sha256()
        for rel in sorted(self.saved_docs):
            h.update(rel.encode())
            h.update(self.documents[rel].text.encode() if rel in self.documents else b"")
        return h.hexdigest()[:16]

    def autosave_payload(self) -> dict:
        changed = self.changed_docs()
        return {"format": AUTOSAVE_FORMAT, "pack": str(self.path.resolve()), "pack_id": self.pack_id,
                "saved_at": time.time(), "pid": os.getpid(),
                "docs": {rel: self.docs[rel] for rel in changed},
                # what each document was on disk when these edits began, and the edits as a patch
                # of it: recovery re-applies the patch when the file changed since (and merges)
                "base": {rel: (self.disk[rel].sha if self.disk.get(rel) else None) for rel in changed},
                "patches": {rel: diff(self.saved_docs.get(rel), self.docs[rel]) for rel in changed},
                "removed": sorted([k, i] for k, i in self.removed),
                "foreign": [{"kind": k, "id": i, "value": v} for (k, i), v in self.foreign.items()
                            if v != self.saved_foreign.get((k, i), self.catalog.get(k, i).value if self.catalog.get(k, i) else None)]}

    def recoverable(self, payload: dict) -> tuple[dict, list[str]]:
        """What of an autosave can still be offered, against the pack as it is on disk now.

        A document unchanged on disk since the autosave's edits began gets its autosaved value.
        One changed on disk *after* the autosave was written is skipped: the newer file wins
        (another editor or a later session saved it). One changed before the autosave (the
        autosave is the newer) gets the autosaved edits re-applied to the file's current
        content when they apply cleanly, else it is skipped. Returns (payload reduced to what
        is offered, notes on what was skipped and why). A document skipped because its file
        changed is kept in the payload's ``conflicts`` (rel -> the autosaved value): the edits
        are offered beside the file, never dropped without a word."""
        from sandtable.rules.catalog import apply_patch
        docs, notes, conflicts = {}, [], {}
        saved_at = float(payload.get("saved_at", 0) or 0)
        base = payload.get("base") or {}
        patches = payload.get("patches") or {}
        for rel, value in (payload.get("docs") or {}).items():
            if rel not in self.docs and rel in base and base[rel] is None and not (self.path / rel).exists():
                docs[rel] = value  # a document made in the editor (a new object) and never saved
                continue
            if rel not in self.docs:
                notes.append(f"{rel}: no longer in the pack")
                continue
            stamp = self.disk.get(rel)
            if rel not in base or stamp is None or base[rel] == stamp.sha:
                if stamp is not None and rel not in base and stamp.mtime_ns / 1e9 > saved_at:
                    notes.append(f"{rel}: the file on disk is newer than the autosave")
                    conflicts[rel] = value
                    continue
                docs[rel] = value
                continue
            if stamp.mtime_ns / 1e9 > saved_at:
                notes.append(f"{rel}: the file on disk is newer than the autosave")
                conflicts[rel] = value
                continue
            try:
                docs[rel] = apply_patch(self.saved_docs[rel], patches[rel])  # bounded (limits.PATCH_*)
            except Exception:  # noqa: BLE001 - any failure: the edits no longer apply
                notes.append(f"{rel}: changed on disk since, and the autosaved edits no longer apply")
                conflicts[rel] = value
        foreign = [it for it in payload.get("foreign") or []
                   if isinstance(it, dict) and self.exists(str(it.get("kind")), str(it.get("id")))]
        return {**payload, "docs": docs, "foreign": foreign, "conflicts": conflicts}, notes

    def side_by_side(self, rel: str, edited: Any, limit: int = 12) -> list[str]:
        """Each field where the unsaved edits of a document differ from its file on disk now:
        "path: on disk X | unsaved Y" (what a recovery shows before anything is chosen)."""
        from sandtable.rules.references import _short
        current = self.saved_docs.get(rel)
        lines = []
        for op in diff(current, edited)[:limit]:
            where = op["path"] or "/"
            disk = jsonptr.get(current, op["path"], MISSING) if op["op"] != "add" else MISSING
            mine = op.get("value", MISSING) if op["op"] != "remove" else MISSING
            lines.append(f"{rel} {where}: on disk {'(none)' if disk is MISSING else _short(disk)} | unsaved "
                         f"{'(removed)' if mine is MISSING else _short(mine)}")
        return lines

    def save_recovered_copy(self, conflicts: dict[str, Any]) -> Path:
        """The unsaved edits of conflicting documents written beside the pack (never inside it, where
        they would be read as part of it): ``<pack>.recovered-<time>/<rel>``."""
        from sandtable.rules.atomic import dumps_json, write_text
        folder = self.path.parent / f"{self.path.name}.recovered-{time.strftime('%Y%m%d-%H%M%S')}"
        for rel, value in conflicts.items():
            target = folder / rel
            if not _inside(target, folder):
                continue  # a crafted autosave naming ../ must not write elsewhere
            write_text(target, dumps_json(value))
        return folder

    def recovered_state(self, payload: dict) -> tuple:
        docs, foreign, removed = self.state()
        for rel, value in payload.get("docs", {}).items():
            if rel in docs or value is not None:
                docs[rel] = value
        for item in payload.get("foreign", []):
            if self.exists(item["kind"], str(item["id"])):
                foreign[(item["kind"], str(item["id"]))] = item["value"]
        removed = removed | {(str(k), str(i)) for k, i in payload.get("removed", []) if self.exists(str(k), str(i))}
        return docs, foreign, removed


class ExternalChange(Exception):
    """Documents to be saved were changed on disk by someone else since they were read."""

    def __init__(self, rels: list[str]):
        super().__init__(", ".join(rels) + " changed on disk since it was opened")
        self.rels = rels


@dataclass(frozen=True)
class DiskStamp:
    mtime_ns: int
    size: int
    sha: str


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _sha(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def disk_stamp(path: Path) -> DiskStamp | None:
    st = _stat(path)
    sha = _sha(path) if st else None
    return DiskStamp(st[0], st[1], sha) if st and sha else None


# --- autosave files: one per editor process ------------------------------------------------

def _pack_digest(pack_path: Path) -> str:
    return hashlib.sha256(str(Path(pack_path).resolve()).encode()).hexdigest()[:16]


def autosave_file(folder: Path, pack_path: Path) -> Path:
    """The autosave name of format 1 (one file per pack, shared between editors); still read."""
    return Path(folder) / f"{_pack_digest(pack_path)}.autosave.json"


def _try_lock(fh) -> bool:
    try:
        if os.name == "nt":
            import msvcrt
            msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


class AutosaveSlot:
    """This editor's own autosave file for one pack, and a lock file held as long as the
    editor lives. Two editors on the same pack never share (or delete) each other's
    autosave; an autosave whose lock is free belongs to an editor that died, and is offered
    for recovery. The operating system releases the lock of a killed process (flock), so no
    process-id guessing is involved."""

    def __init__(self, folder: Path, pack_path: Path):
        self.folder = Path(folder)
        self.pack_path = Path(pack_path)
        self.digest = _pack_digest(pack_path)
        token = f"{os.getpid()}-{os.urandom(3).hex()}"
        self.path = self.folder / f"{self.digest}.{token}.autosave.json"
        self.lock_path = self.folder / f"{self.digest}.{token}.lock"
        self._lock = None

    def _hold(self) -> None:
        if self._lock is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            fh = open(self.lock_path, "a+b")
            _try_lock(fh)
            self._lock = fh

    def write(self, ws: Workspace) -> Path:
        self._hold()
        atomic.write_json(self.path, ws.autosave_payload())
        return self.path

    def clear(self) -> None:
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass

    def release(self) -> None:
        """A clean close: no autosave, no lock left behind."""
        self.clear()
        if self._lock is not None:
            self._lock.close()
            self._lock = None
            try:
                self.lock_path.unlink()
            except FileNotFoundError:
                pass

    def abandon(self) -> None:
        """Let go of the lock and leave the autosave, as a killed process does (for tests)."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def orphans(self) -> list[tuple[Path, dict]]:
        """Autosaves of this pack left by editors that are no longer running, newest first."""
        out = []
        for path in self.folder.glob(f"{self.digest}.*autosave.json"):
            if path == self.path:
                continue
            token = path.name[len(self.digest) + 1:-len("autosave.json")].rstrip(".")
            if token and _lock_held(self.folder / f"{self.digest}.{token}.lock"):
                continue  # another editor is running on this pack: its autosave is its own
            payload = _read_payload(path, self.pack_path)
            if payload is not None:
                out.append((path, payload))
        out.sort(key=lambda t: -float(t[1].get("saved_at", 0) or 0))
        return out


def _lock_held(lock_path: Path) -> bool:
    if not lock_path.exists():
        return False
    try:
        with open(lock_path, "a+b") as fh:
            return not _try_lock(fh)  # closing the file releases a lock we got
    except OSError:
        return False


def _read_payload(path: Path, pack_path: Path) -> dict | None:
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(payload, dict) or payload.get("format") not in (1, AUTOSAVE_FORMAT) \
            or payload.get("pack") != str(Path(pack_path).resolve()):
        return None
    if not payload.get("docs") and not payload.get("foreign"):
        return None
    return payload


def discard_orphan(path: Path) -> None:
    """Remove a dead editor's autosave (recovered or declined) and its lock file."""
    for p in (path, path.with_name(path.name[:-len("autosave.json")] + "lock")):
        try:
            p.unlink()
        except (FileNotFoundError, IsADirectoryError):
            pass


def write_autosave(folder: Path, ws: Workspace) -> Path:
    target = autosave_file(folder, ws.path)
    atomic.write_json(target, ws.autosave_payload())
    return target


def read_autosave(folder: Path, pack_path: Path) -> dict | None:
    return _read_payload(autosave_file(folder, pack_path), pack_path)


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


def override_item(kind: str, target_id, old: Any, new: Any, reason: str = "") -> dict:
    item: dict = {"target": {"kind": kind, "id": target_id}}
    if reason:
        item["reason"] = reason
    item["patch"] = guarded_patch(old, new)
    return item


def _apply_items(value: Any, items: list[dict]) -> Any:
    import copy

    from sandtable.rules.catalog import PatchError, apply_patch
    cur = value
    for it in items:
        if it.get("remove"):
            return None
        if "replace" in it:
            cur = copy.deepcopy(it["replace"])
            continue
        try:  # the catalog's bounded apply (limits.PATCH_OPS, PATCH_VALUES): a mod's patch comes from a stranger
            cur = apply_patch(cur, it["patch"])
        except PatchError:
            return None
    return cur


def _claim_authored(new: Any, base: Any, placeholder: str, pack_id: str) -> Any:
    """Authored provenance made before the mod pack had an id names the placeholder
    ``<base>-mod``; on save it names the mod pack the values are saved in."""
    table = new.get("provenance") if isinstance(new, dict) else None
    if not isinstance(table, dict) or placeholder == pack_id:
        return new
    old = base.get("provenance") if isinstance(base, dict) else None
    fixed = {k: ({**v, "pack": pack_id} if isinstance(v, dict) and v.get("source") == "authored"
                 and v.get("pack") == placeholder and (not isinstance(old, dict) or old.get(k) != v) else v)
             for k, v in table.items()}
    return {**new, "provenance": fixed} if fixed != table else new


def _checked_document(path: Path, schema: str, problems: list) -> Any:
    """A JSON document of an existing mod pack, parsed and checked against its schema;
    None (with findings added to ``problems``) when unreadable, malformed or invalid."""
    from sandtable.rules.jsondoc import parse
    from sandtable.rules.schemas import default_schemas
    try:
        data = path.read_bytes()
    except OSError as exc:
        problems.append(finding("file-unreadable", f"cannot read it: {exc.strerror or exc}", file=str(path)))
        return None
    doc, found = parse(str(path), data)
    if doc is None:
        problems.extend(found)
        return None
    found = [f for f in found if f.severity >= 2] + default_schemas().validate(doc, schema)
    if found:
        problems.extend(found)
        return None
    return doc.value


def _file_stem(oid: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "-" for c in str(oid)) or "object"


def _free_rel(docs: dict, rel: str) -> str:
    """A document path not yet used (``x.json``, ``x-2.json``...)."""
    if rel not in docs:
        return rel
    stem = rel[:-5] if rel.endswith(".json") else rel
    i = 2
    while f"{stem}-{i}.json" in docs:
        i += 1
    return f"{stem}-{i}.json"


def _inside(path: Path, folder: Path) -> bool:
    try:
        Path(path).resolve().relative_to(Path(folder).resolve())
        return True
    except ValueError:
        return False
