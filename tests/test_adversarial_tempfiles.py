"""Issue #29, small items: temporaries left by a kill are cleaned up by the next write of the same
target (SIGKILL runs no handler), and a SIGTERM while a sweep draws its charts leaves whole files
(charts are rendered in memory and saved atomically)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from bounded import assert_clean, run_cli
from sandtable.rules import atomic

WRITER = """
import os, sys, tempfile, time
from pathlib import Path
from sandtable.rules import atomic
target = Path(sys.argv[1])
fd, tmp = tempfile.mkstemp(prefix=atomic._temp_prefix(target.name), suffix=".tmp", dir=target.parent)
os.write(fd, b"half a file")
print(tmp, flush=True)
time.sleep(600)
"""


def test_a_temporary_left_by_a_killed_writer_is_removed_by_the_next_write(tmp_path):
    target = tmp_path / "out.json"
    child = subprocess.Popen([sys.executable, "-c", WRITER, str(target)], stdout=subprocess.PIPE, text=True)
    try:
        left = child.stdout.readline().strip()
        assert os.path.exists(left)
        atomic.write_text(target, "{}")  # its writer still runs: its temporary is left alone
        assert os.path.exists(left)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    assert os.path.exists(left)  # a kill leaves it
    atomic.write_text(target, "{}")
    assert not os.path.exists(left) and target.read_text() == "{}"


def test_old_style_and_staging_leftovers(tmp_path):
    old = tmp_path / ".kit.abcd1234.tmp"
    old.write_text("x")
    stale = time.time() - 2 * atomic.STALE_SECONDS
    os.utime(old, (stale, stale))
    fresh = tmp_path / ".kit.efgh5678.tmp"
    fresh.write_text("y")
    staging = tmp_path / ".kit.p4194999.zz.staging"
    staging.mkdir()
    (staging / "page.pdf").write_text("z")
    removed = atomic.clean_stale(tmp_path, "kit")
    assert sorted(removed) == sorted([old.name, staging.name]) and fresh.exists()
    assert not (tmp_path / "other").exists()


def _drawing_charts(pid: int) -> bool:
    """Whether the sweep has started writing its charts (a temporary of one exists)."""
    return any(p.name.startswith((".winrate", ".heatmap", ".difference", ".points")) for p in FOLDER.glob(".*"))


FOLDER = None


def test_sigterm_while_charts_are_drawn_leaves_no_truncated_file(tmp_path):
    global FOLDER
    FOLDER = tmp_path / "s"
    result = run_cli("sweep", "III", "--vary", "scenario:gazala/conditions/turns=10,11,12", "--games", "1",
                     "--bots", "random,random", "--no-progress", "-o", FOLDER, timeout=120,
                     send_signal=(lambda pid: (FOLDER / "summary.csv").exists(), signal.SIGTERM), signal_delay=0.3)
    assert_clean(result, codes=(0, 1, 143))
    for svg in FOLDER.glob("*.svg"):
        assert svg.read_text().rstrip().endswith("</svg>"), svg
    assert not [p for p in FOLDER.iterdir() if p.name.endswith((".tmp", ".staging"))]
