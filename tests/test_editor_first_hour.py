"""What a new user hits in the editor's first hour (#13 part 4): open recent, opening what is
not a pack, JSON trees that keep their state, "Add field", save as mod pack (where, and
what it keeps), provenance of new content, error texts, and the window on a 1366x768 screen."""
from __future__ import annotations

import json

from PySide6.QtCore import QSettings

from editorkit import close, copy_pack, isolate, window
from sandtable.editor.forms.jsontree import JsonTree

TIGER = ("unit-type", "de-pz-vi-e")


def test_open_recent_with_one_entry_and_paths_that_are_not_packs(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    settings.setValue("recent", [str(pack)])  # one entry: QSettings reads it back as a string
    settings.sync()
    w = window(qtbot, pack)
    assert [a.text() for a in w.recent_menu.actions()] == [str(pack)]
    assert w.recent_packs() == [str(pack)]
    w.doc.set(*TIGER, "/movement", 5)
    not_a_pack = tmp_path / "empty"
    not_a_pack.mkdir()
    (not_a_pack / "deep").mkdir()
    for target in (not_a_pack, tmp_path / "missing", tmp_path / "settings.ini"):
        assert not w.open_pack(target)
        assert w.asked[-1][0] == "Not a pack" and str(target) in w.asked[-1][1]
        assert w.ws.path == pack and w.doc.get(*TIGER, "/movement") == 5 and w.isWindowModified()
    close(w)


def test_open_slash_says_so_without_scanning(qtbot, tmp_path, monkeypatch):
    from pathlib import Path
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    w = window(qtbot, pack)
    scanned = []
    monkeypatch.setattr(Path, "rglob", lambda self, *a: scanned.append(self) or iter(()))
    assert not w.open_pack(Path("/"))
    assert not scanned and w.ws.path == pack and "not a pack" in w.asked[-1][1]
    close(w)
    from sandtable.cli import main as cli
    assert cli(["edit", "/"]) == 2 and not scanned  # the command line says so too, without a scan


def _tree(w, kind, oid):
    form = w.open_object(kind, oid)
    w.tabs.setCurrentWidget(form)
    form.ensure_built("")  # every tab made (a scenario's are made when first shown)
    trees = [t for t in form.findChildren(JsonTree) if t.tree.topLevelItemCount()]
    return form, max(trees, key=lambda t: (t.expand_depth, t.tree.topLevelItem(0).childCount()))


def test_json_tree_keeps_expansion_and_selection_after_an_edit(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    w = window(qtbot, pack)
    form, tree = _tree(w, "scenario", "gazala")
    root = tree.tree.topLevelItem(0)
    first = root.child(0)
    assert first.isExpanded() or first.childCount() == 0
    # the user collapses a node expanded by default, expands a deep one, selects a leaf
    collapsed = next(root.child(i) for i in range(root.childCount())
                     if root.child(i).isExpanded() and root.child(i).childCount())
    collapsed.setExpanded(False)
    deep = next(root.child(i) for i in range(root.childCount())
                if root.child(i) is not collapsed and root.child(i).childCount())
    deep.setExpanded(True)
    leaf = next(deep.child(i) for i in range(deep.childCount()) if not deep.child(i).childCount())
    tree.tree.setCurrentItem(leaf)
    keep = {"collapsed": collapsed.data(0, 257), "deep": deep.data(0, 257), "leaf": leaf.data(0, 257)}
    w.doc.set("scenario", "gazala", "/name/en", "Gazala, edited")  # any edit reloads the tree
    assert tree._item_at(keep["collapsed"]).isExpanded() is False
    assert tree._item_at(keep["deep"]).isExpanded()
    assert tree.tree.currentItem().data(0, 257) == keep["leaf"]
    close(w)


def test_add_field_uses_the_schema_default_never_null(qtbot, tmp_path, monkeypatch):
    from sandtable.editor.jsonptr import MISSING
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    w = window(qtbot, pack)
    form = w.open_object("formation-card", "161")
    tree = form.bind("", JsonTree(form, expand_depth=2))  # the tree every kind's JSON view uses
    variant = next(iter(w.doc.value("formation-card", "161")["variants"]))
    ptr = f"/variants/{variant}"
    for key in ("morale", "experience", "units"):
        w.doc.set("formation-card", "161", f"{ptr}/{key}", MISSING)  # as if never filled in
        assert key in tree.field_choices(ptr)
        tree.add_field(ptr, key)
        value = w.doc.get("formation-card", "161", f"{ptr}/{key}", "absent")
        assert value is not None and value != "absent"
        assert type(value) is {"morale": int, "experience": str, "units": list}[key]
    tree.add_field(ptr, "brand_new_field")  # a field the schema does not know: still not null
    assert w.doc.get("formation-card", "161", f"{ptr}/brand_new_field") == ""
    close(w)


def test_save_as_mod_pack_suggests_documents_and_keeps_tabs_and_undo(qtbot, tmp_path, monkeypatch):
    from sandtable.editor.app import ModPackDialog, inside_installation
    from sandtable.rules.catalog import bundled_pack
    isolate(monkeypatch, tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DOCUMENTS_DIR", str(tmp_path / "home" / "Documents"))
    w = window(qtbot, bundled_pack())
    dlg = ModPackDialog(w.ws, w)
    suggested = dlg.folder.text()
    assert not inside_installation(suggested) and str(tmp_path / "home") in suggested
    dlg.deleteLater()
    assert not w.save_as_mod(bundled_pack().parent / "oops-mod")  # inside the installation: refused
    assert not (bundled_pack().parent / "oops-mod").exists() and w.asked[-1][0] == "Mod pack not saved"
    w.open_object(*TIGER)
    w.open_object("formation-card", "161")
    w.doc.set(*TIGER, "/movement", 5)
    w.doc.set(*TIGER, "/range", 12)
    mod = tmp_path / "mods" / "my-mod"
    result = w.save_as_mod(mod, "my-mod", "Mine")
    assert result.ok and w.ws.path == mod and w.ws.owned
    assert w.tabs.count() == 2 and not w.isWindowModified()
    w.undo_action.trigger()  # the history survives the switch: undo the range edit, in the mod
    assert w.doc.get(*TIGER, "/range") != 12 and w.isWindowModified()
    assert w.save()
    overrides = json.loads((mod / "overrides.json").read_text())["overrides"]
    tiger = next(o for o in overrides if o["target"]["id"] == "de-pz-vi-e")
    assert not any(op.get("path") == "/range" and op["op"] != "test" for op in tiger["patch"])
    close(w)


def test_new_values_are_authored_by_the_mod_pack_and_reported(qtbot, tmp_path, monkeypatch, capsys):
    from sandtable.cli import main as cli
    from sandtable.rules.catalog import bundled_pack
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, bundled_pack())
    form = w.open_object(*TIGER)
    spin = next(x for p, x in form.bindings if p == "/range")
    spin.setValue(spin.value() + 1)  # typed in the form
    assert w.doc.get(*TIGER, "/provenance/~1range") == {"source": "authored", "pack": "desert-steel-mod"}
    mod = tmp_path / "mods" / "longer-guns"
    assert w.save_as_mod(mod, "longer-guns", "Longer guns").ok
    assert w.doc.get(*TIGER, "/provenance/~1range") == {"source": "authored", "pack": "longer-guns"}
    close(w)
    capsys.readouterr()
    assert cli(["provenance", str(mod), "--list", "--source", "authored", "--json"]) in (0, 1)
    out = capsys.readouterr().out
    assert "/range" in out and "authored" in out
    assert cli(["validate", str(mod)]) == 0, capsys.readouterr().out


def test_error_texts_are_for_users(qtbot, tmp_path, monkeypatch):
    from sandtable.editor.forms.fields import JsonField
    from sandtable.editor.forms.grid import Col, JsonGrid
    from editorkit import settle
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    w = window(qtbot, pack)
    form = w.open_object("formation-card", "161")
    grid = form.bind("/variants", JsonGrid(form, [Col("Morale", "/morale", "int"), Col("C3", "/c3", "number")],
                                           keyed=True, can_add=False))
    before = w.doc.get("formation-card", "161", "/variants")
    for col, typed, said in ((0, "abc", "“abc” is not a whole number"), (1, "1,5x", "“1,5x” is not a number")):
        grid.table.item(0, col).setText(typed)
        message = w.statusBar().currentMessage()
        assert said in message and "invalid literal" not in message and "could not convert" not in message
    grid.table.item(0, 0).setText("4")  # what parses is taken
    assert w.doc.get("formation-card", "161", f"/variants/{grid.rows[0]}/morale") == 4
    assert w.doc.get("formation-card", "161", "/variants") != before
    field = form.bind("/variants", JsonField(True))
    field.edit.setPlainText('{"1942": {"morale": 3,}}')
    field._apply()
    assert field.status.text() == "not valid JSON (line 1, column 23): a field name needs \"double quotes\""
    # a finding about an unsaved edit names the object and field, not a line of the file on disk
    w.doc.set(*TIGER, "/movement", -3)
    settle(qtbot, w)
    rows = [r for r in w.findings.model.rows if r.kind == TIGER[0] and r.id == TIGER[1]]
    assert rows and all(r.unsaved for r in rows)
    assert rows[0].where().startswith("unsaved edit: unit-type de-pz-vi-e")
    assert "german.json" not in rows[0].line_text()
    close(w)


def test_the_window_fits_a_1366x768_screen_with_every_kind_of_form_open(qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import QSize
    from sandtable.editor.app import SMALL_SCREEN, first_size
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    assert first_size(QSize(1366, 728)).width() <= 1366 and first_size(QSize(1366, 728)).height() <= 728 - 30 + 1
    w = window(qtbot, pack)
    avail = w.screen().availableGeometry()  # first launch (no saved layout): within the screen
    assert w.width() <= avail.width() and w.height() <= avail.height()
    w.resize(*SMALL_SCREEN)
    opened = []
    for kind in w.ws.kinds():
        for oid in w.ws.keys(kind)[:2]:
            opened.append(w.open_object(kind, oid))
            qtbot.wait(1)
            hint = w.minimumSizeHint()
            assert hint.width() <= SMALL_SCREEN[0] and hint.height() <= SMALL_SCREEN[1], (kind, oid, hint)
            assert w.width() <= 1366 and w.height() <= 768, (kind, oid, w.size())
    assert {f.kind for f in opened if f is not None} >= {"unit-type", "formation-card", "scenario", "map",
                                                         "map-configuration", "setup", "raid-card"}
    close(w)
