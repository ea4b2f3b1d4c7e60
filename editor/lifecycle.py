"""The object lifecycle in the editor: new (blank or like a template), duplicate, rename
(with every reference across the pack), delete (refused, or cascading on confirmation),
and a new setup (empty or the automatic legal one).

What refers to what, and what a rename or delete changes, is decided without Qt by
``rules/references.py``; this module turns each operation into one undoable step on the
document's ``QUndoStack``. A step records the workspace's state before and after (values
are immutable, so a state is a few dicts of references) and restores it on undo/redo, then
tells every view the pack's structure changed. Saving is the workspace's: new and deleted
objects are written into the pack, or into a mod pack as added documents and removals.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from PySide6.QtGui import QUndoCommand

from sandtable.rules import references as R
from sandtable.rules.schemas import default_schemas

from . import jsonptr
from .jsonptr import MISSING


class LifecycleError(ValueError):
    """An operation that cannot be done (the message says why, for the user)."""


class StructureStep(QUndoCommand):
    """One lifecycle operation: the workspace state before and after."""

    def __init__(self, doc, before, after, text: str, touched: list[tuple[str, str]]):
        super().__init__(text)
        self.doc, self.before, self.after, self.touched = doc, before, after, touched
        self._first = True

    def redo(self) -> None:
        if self._first:  # the operation already left the workspace in ``after``
            self._first = False
        else:
            self.doc.ws.restore(self.after)
        self._announce()

    def undo(self) -> None:
        self.doc.ws.restore(self.before)
        self._announce()

    def _announce(self) -> None:
        self.doc.structure.emit(self.touched)
        self.doc.reset.emit()


@dataclass
class RenamePreview:
    kind: str
    old: str
    new: str
    edits: list[R.Edit]
    overrides: list[tuple[str, str]]  # (document, pointer) of override targets renamed too
    # (document, pointer, old, new): references inside this pack's override values (patches)
    override_values: list[tuple[str, str, object, object]] = field(default_factory=list)
    # (object or document, pointer, excerpt): texts naming the old id, listed, not changed
    mentions: list[tuple[str, str, str]] = field(default_factory=list)
    # (document, index): this pack's overrides of the renamed object when it comes from a pack
    # below: their changes are in the renamed copy this pack now holds, so they go
    dropped: list[tuple[str, int]] = field(default_factory=list)

    @property
    def updated(self) -> int:
        return len(self.edits) + len(self.overrides) + len(self.override_values) + len(self.dropped)

    def lines(self) -> list[str]:
        out = [f"{self.kind} {self.old} → {self.new}"]
        out += [e.describe() for e in self.edits]
        out += [f"overrides {rel} {ptr}: {self.old} → {self.new}" for rel, ptr in self.overrides]
        out += [f"overrides {rel} {ptr}: {R._short(a)} → {R._short(b)}" for rel, ptr, a, b in self.override_values]
        out += [f"overrides {rel} /overrides/{i}: dropped (its changes to {self.kind} {self.old} are kept in {self.new})"
                for rel, i in self.dropped]
        out += [f"text, not changed: {where} {ptr}: “{excerpt}”" for where, ptr, excerpt in self.mentions]
        return out


def default_provenance(doc) -> dict:
    """Provenance of new content: ``authored`` where the schema knows it (with the pack that
    holds it), else marked as reconstructed until someone checks it."""
    authored = getattr(doc, "authored", None)
    if isinstance(authored, dict):
        return dict(authored)
    common = default_schemas().schemas.get("common.schema.json", {})
    sources = (((common.get("$defs") or {}).get("provenance") or {}).get("properties") or {}).get("source", {})
    if "authored" in (sources.get("enum") or []):
        return {"source": "authored", "note": f"authored in sandtable edit ({doc.ws.pack_id})"}
    return {"source": "reconstructed", "note": "authored in sandtable edit: to be checked"}


class Lifecycle:
    """Operations on one document (``editor.document.PackDocument``)."""

    def __init__(self, doc):
        self.doc = doc
        self._checker = None
        self._dependents: tuple[float, list] | None = None

    # --- what must stay valid ---------------------------------------------------------------

    DEPENDENTS_SECONDS = 2.0  # the rename dialog asks on every keystroke: the disk is read again after this

    def dependents(self) -> list[tuple[str, str, dict]]:
        """(pack id, where, documents) of the packs beside the opened one or on its search path
        that depend on it: a rename or delete here must not break them without a word."""
        import time
        now = time.monotonic()
        if self._dependents is not None and now - self._dependents[0] < self.DEPENDENTS_SECONDS:
            return self._dependents[1]
        found = _dependent_packs(self.ws)
        self._dependents = (now, found)
        return found

    def _dependent_problem(self, kind: str, oid: str, verb: str) -> str | None:
        sch, ruleset = self.scheme, self.ws.catalog.ruleset
        for pack_id, where, docs in self.dependents():
            uses = R.dependent_uses(sch, ruleset, docs, kind, str(oid))
            if uses:
                more = f" (and {len(uses) - 2} more)" if len(uses) > 2 else ""
                return (f"{kind} {oid} cannot be {verb}: the mod pack {pack_id} ({where}) depends on this pack and "
                        f"uses it: {'; '.join(uses[:2])}{more}. Change that mod first, so that it stays valid")
        return None

    def errors(self) -> list:
        """The errors ``validate`` would report for the pack as edited (the editor's own checker)."""
        from .checking import Checker
        if self._checker is None or self._checker.ws is not self.ws:
            self._checker = Checker(self.ws)
        result = self._checker.run(self._checker.snapshot())
        return [loc.finding for loc in result.findings if loc.finding.severity == 2]

    def _keeping_valid(self, what: str, change):
        """``change`` refused (LifecycleError, the workspace restored by _step) when it would
        leave the pack with more errors than it had: a patch, a zone or a reference it left
        pointing at nothing. The reason is the first new errors, in words."""
        before = self.errors()

        def checked():
            change()
            after = self.errors()
            if len(after) > len(before):
                known = {(f.code, f.message) for f in before}
                new = [f for f in after if (f.code, f.message) not in known] or after
                raise LifecycleError(f"{what} would leave the pack invalid, so nothing was changed: " + "; ".join(
                    f"{f.location.file.rsplit('/', 1)[-1]}{' ' + f.location.pointer if f.location.pointer else ''}: "
                    f"{f.message[:160]}" for f in new[:3]) + (f" (and {len(new) - 3} more)" if len(new) > 3 else ""))
        return checked

    @property
    def ws(self):
        return self.doc.ws

    @property
    def scheme(self) -> R.Scheme:
        sch = R.scheme(self.ws.ruleset)
        if sch is None:
            raise LifecycleError(f"the {self.ws.ruleset} ruleset does not declare its references: "
                                 "objects can be edited but not created, renamed or deleted here")
        return sch

    def objects(self) -> dict[str, dict[str, object]]:
        ws = self.ws
        return {k: {i: ws.value(k, i) for i in ws.keys(k)} for k in ws.kinds()}

    # --- naming ---------------------------------------------------------------------------

    def check_id(self, kind: str, oid: str) -> str | None:
        why = R.check_new_id(self.scheme, self.objects(), kind, oid)
        pattern = R.id_pattern(default_schemas(), self.ws.catalog.ruleset, kind) if why is None else None
        if pattern and not re.match(pattern, str(oid).strip()):
            return f"a {kind} id must match {pattern} (its schema's rule)"
        return why

    def suggest_id(self, kind: str, base: str = "") -> str:
        """A free id near ``base``; for kinds whose ids follow a pattern (map letters), the
        first free one of a few simple candidates that fits."""
        found = R.suggest_id(self.scheme, self.objects(), kind, base or ("9001" if kind in self.scheme.int_ids else
                                                                           f"new-{kind}"))
        if self.check_id(kind, found) is None:
            return found
        for cand in [*(chr(c) for c in range(ord("A"), ord("Z") + 1)), *(f"{c}2" for c in "ABCDEFGH")]:
            if self.check_id(kind, cand) is None:
                return cand
        return found

    def _normal(self, kind: str, oid: str) -> str:
        oid = str(oid).strip()
        return str(int(oid)) if kind in self.scheme.int_ids and oid.isdigit() else oid

    # --- steps ----------------------------------------------------------------------------

    def _step(self, text: str, touched, change) -> None:
        """Run ``change`` on the workspace and record it as one undoable step."""
        before = self.ws.state()
        try:
            change()
        except Exception:
            self.ws.restore(before)
            raise
        after = self.ws.state()
        self.doc.undo_stack.push(StructureStep(self.doc, before, after, text, list(touched)))

    # --- new, duplicate ----------------------------------------------------------------------

    def new_object(self, kind: str, oid: str, like: str | None = None) -> str:
        """A new object: blank from the schema's required fields, or a copy of ``like``."""
        oid = self._normal(kind, oid)
        why = self.check_id(kind, oid)
        if why:
            raise LifecycleError(why)
        if like is not None:
            template = self.ws.value(kind, like)
            if template is None:
                raise LifecycleError(f"{kind} {like} does not exist")
            value = R.duplicate(self.scheme, kind, template, oid)
            value = _with_provenance(value, default_provenance(self.doc), self.ws.pack_id)
            near = (kind, str(like))
            text = f"New {kind} {oid} like {like}"
        else:
            value = R.blank_object(default_schemas(), self.ws.catalog.ruleset, kind, oid, default_provenance(self.doc))
            near = None
            text = f"New {kind} {oid}"
        self._step(text, [(kind, oid)], lambda: self.ws.add_object(kind, value, near=near))
        return oid

    def duplicate(self, kind: str, oid: str, new_id: str | None = None) -> str:
        return self.new_object(kind, new_id or self.suggest_id(kind, oid), like=oid)

    def new_setup(self, scenario_id: str, oid: str, automatic: bool, seed: int = 0) -> str:
        """A setup of a scenario: empty, or the automatic legal one (``sandtable setup``)."""
        oid = self._normal("setup", oid)
        why = self.check_id("setup", oid)
        if why:
            raise LifecycleError(why)
        if self.ws.value("scenario", scenario_id) is None:
            raise LifecycleError(f"scenario {scenario_id} does not exist")
        value = {"kind": "setup", "id": oid, "scenario": scenario_id,
                 "description": f"Placed in the sandtable editor for {scenario_id}.", "sides": {}}
        if automatic:
            value = {**self._auto_setup(scenario_id, seed), "id": oid}
        self._step(f"New setup {oid} of {scenario_id}" + (" (automatic)" if automatic else ""), [("setup", oid)],
                   lambda: self.ws.add_object("setup", value))
        return oid

    def _auto_setup(self, scenario_id: str, seed: int) -> dict:
        board = self.ws.catalog.ruleset.board if self.ws.catalog.ruleset is not None else None
        if board is None or board.auto_setup is None:  # what the ruleset declares, not its name
            raise LifecycleError(f"the {self.ws.ruleset or 'pack'} ruleset makes no automatic setups")
        from .checking import Checker
        checker = Checker(self.ws)
        catalog = checker.run(checker.snapshot()).catalog  # the pack as edited, not as opened
        model = catalog.model if catalog is not None else None
        scenario = model.scenario(scenario_id) if model is not None else None
        if scenario is None:
            raise LifecycleError(f"scenario {scenario_id} cannot be set up automatically until its errors are fixed")
        try:
            return board.auto_setup(model, scenario, seed)
        except (RuntimeError, LookupError, ValueError) as exc:  # the contribution's "cannot place them"
            raise LifecycleError(f"no automatic setup for {scenario_id}: {exc}") from None

    # --- rename -------------------------------------------------------------------------------

    def rename_preview(self, kind: str, old: str, new: str) -> RenamePreview:
        new = self._normal(kind, new)
        why = self.check_id(kind, new)
        if why:
            raise LifecycleError(why)
        if not self.ws.exists(kind, old):
            raise LifecycleError(f"{kind} {old} does not exist")
        why = self._dependent_problem(kind, old, "renamed")
        if why:
            raise LifecycleError(why)
        edits = R.rename_edits(self.scheme, self.objects(), kind, str(old), new)
        overrides, values, dropped = [], [], []
        home = self.ws.is_home(kind, old)
        for rel, v in self.ws.docs.items():
            if isinstance(v, dict) and v.get("kind") == "overrides":
                targets = R.override_references(v, kind, old)
                if home:
                    overrides += [(rel, p) for p in targets]
                else:  # retargeted, they would apply a second time to the copy (override-stale)
                    dropped += [(rel, int(p.split("/")[2])) for p in targets]
                values += [(rel, p, a, b) for p, a, b in R.override_value_edits(self.scheme, v, kind, str(old), new)]
        # texts are only listed: a number or a word in prose may not mean this object
        mentions = R.prose_mentions(self.scheme, self.objects(), kind, str(old))
        return RenamePreview(kind, str(old), new, edits, overrides, values, mentions, dropped)

    def rename(self, kind: str, old: str, new: str, preview: RenamePreview | None = None) -> str:
        preview = preview or self.rename_preview(kind, old, new)
        new = preview.new
        sch, ws = self.scheme, self.ws

        def change():
            value = ws.value(kind, old)
            moved = R.renamed(sch, kind, value, new)
            if ws.is_home(kind, old):
                ws.replace_object(kind, old, moved)
            else:  # an object of a pack below: the opened pack deletes it and adds it renamed
                ws.remove_object(kind, old)
                ws.add_object(kind, moved)
            for e in preview.edits:
                target_id = new if (e.kind, e.id) == (kind, str(old)) else e.id
                ws.set(e.kind, target_id, e.pointer, e.new)
            for rel, ptr in preview.overrides:
                ws.docs[rel] = jsonptr.set_in(ws.docs[rel], ptr, R.typed_id(sch, kind, new))
            # the pack's own patches keep their form (and reason) with the new id inside; the
            # objects they patch are renamed above too, and saving keeps these patches when
            # they still make those objects (Workspace._save_foreign_as_overrides)
            for rel, ptr, _, value in preview.override_values:
                ws.docs[rel] = jsonptr.set_in(ws.docs[rel], ptr, value)
            for rel, i in sorted(preview.dropped, reverse=True):  # later items first: indices stay valid
                ws.docs[rel] = jsonptr.set_in(ws.docs[rel], f"/overrides/{i}", MISSING)
        touched = [(kind, str(old)), (kind, new)] + [(e.kind, e.id) for e in preview.edits]
        self._step(f"Rename {kind} {old} to {new} ({len(preview.edits)} reference(s))", touched,
                   self._keeping_valid(f"renaming {kind} {old} to {new}", change))
        return new

    # --- delete -------------------------------------------------------------------------------

    def delete_plan(self, kind: str, oid: str) -> R.DeletePlan:
        if not self.ws.exists(kind, oid):
            raise LifecycleError(f"{kind} {oid} does not exist")
        why = self._dependent_problem(kind, oid, "deleted")
        if why:
            raise LifecycleError(why)
        return R.delete_plan(self.scheme, self.objects(), kind, str(oid))

    def delete(self, kind: str, oid: str, cascade: bool = False) -> R.DeletePlan:
        """Delete an object. Refused while something refers to it, unless ``cascade``: then
        the references are removed too (list entries, wholly dependent objects such as the
        setups of a deleted scenario); a reference that cannot go refuses even a cascade."""
        plan = self.delete_plan(kind, oid)
        if plan.references and not cascade:
            raise LifecycleError(f"{kind} {oid} is used by {len(plan.references)} reference(s): " +
                                 "; ".join(f"{r.kind} {r.id} {r.pointer}" for r in plan.references[:6]))
        if plan.blockers:
            raise LifecycleError(f"{kind} {oid} cannot be deleted: " + "; ".join(
                f"{r.kind} {r.id} {r.pointer} needs it" for r in plan.blockers[:6]))
        ws = self.ws

        def change():
            for e in plan.edits:
                ws.set(e.kind, e.id, e.pointer, MISSING if e.new is R.MISSING else e.new)
            for k, i in plan.deletes:
                ws.remove_object(k, i)
            ws.remove_object(kind, oid)
        touched = [(kind, str(oid))] + list(plan.deletes) + [(e.kind, e.id) for e in plan.edits]
        extra = f" and {len(plan.deletes)} dependent object(s)" if plan.deletes else ""
        self._step(f"Delete {kind} {oid}{extra}", touched, self._keeping_valid(f"deleting {kind} {oid}", change))
        return plan


def _with_provenance(value: dict, entry: dict, pack_id: str) -> dict:
    """A copy made here keeps its template's provenance per field, but the object as a whole
    is new content."""
    if "provenance" not in value:
        return value
    table = dict(value.get("provenance") or {})
    table[""] = dict(entry)
    return {**value, "provenance": table}


MAX_NEIGHBOURS = 200  # packs looked at beside the opened one (a folder of thousands is not a pack shelf)


def _dependent_packs(ws) -> list[tuple[str, str, dict]]:
    """Packs in the opened pack's folder and on its search path whose manifest depends on it,
    with their documents (read within the limits, through the packs' own reader)."""
    from pathlib import Path

    from sandtable.rules.jsondoc import parse
    from sandtable.rules.packsource import open_source
    me = ws.pack_id
    if not me:
        return []
    homes = [ws.path.parent, *[Path(p) for p in ws.search]]
    seen, out = set(), []
    for home in homes:
        try:
            candidates = sorted(home.iterdir())[:MAX_NEIGHBOURS] if home.is_dir() else []
        except OSError:
            continue
        for path in candidates:
            try:
                real = path.resolve()
            except OSError:
                continue
            if real in seen or real == ws.path.resolve() or path.is_symlink():
                continue
            seen.add(real)
            if not (path.is_dir() or path.suffix.lower() == ".zip"):
                continue
            try:
                src = open_source(path)
            except Exception:  # noqa: BLE001 - a neighbour that is not a pack is not our concern
                continue
            try:
                if "pack.json" not in src.members:
                    continue
                data, problem = src.read("pack.json")
                manifest = parse(src.display("pack.json"), data)[0] if data is not None else None
                value = manifest.value if manifest is not None else None
                deps = value.get("depends_on") if isinstance(value, dict) else None
                if not isinstance(deps, list) or not any(isinstance(d, dict) and d.get("id") == me for d in deps):
                    continue
                docs = {}
                for rel in src.data_files():
                    if rel == "pack.json":
                        continue
                    data, problem = src.read(rel)
                    doc = parse(src.display(rel), data)[0] if data is not None else None
                    if doc is not None:
                        docs[rel] = doc.value
                out.append((str(value.get("id", path.name)), str(path), docs))
            finally:
                src.close()
    return out
