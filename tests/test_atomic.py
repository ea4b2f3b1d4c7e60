import json
import os

import pytest

from sandtable.rules import atomic


def test_write_json_replaces_whole_file(tmp_path):
    target = tmp_path / "a.json"
    atomic.write_json(target, {"é": 1})
    assert json.loads(target.read_text(encoding="utf-8")) == {"é": 1}
    atomic.write_json(target, {"b": 2})
    assert json.loads(target.read_text(encoding="utf-8")) == {"b": 2}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]  # no temporary left behind


def test_failed_write_leaves_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "a.json"
    atomic.write_json(target, {"old": True})

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic.write_json(target, {"new": True})
    assert json.loads(target.read_text()) == {"old": True}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


def test_keeps_permissions_of_existing_file(tmp_path):
    target = tmp_path / "a.json"
    target.write_text("{}")
    os.chmod(target, 0o640)
    atomic.write_text(target, "[]")
    assert (target.stat().st_mode & 0o777) == 0o640
