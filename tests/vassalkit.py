"""The real VASSAL engine as a test oracle: find it, compile the checker, run Xvfb, check a module.

The engine jar comes from ``tests/vassal/fetch_engine.sh`` (CI runs it; so can a developer). Its
dependencies are Debian's Java libraries. The checker (tests/vassal/Check.java) and the stand-in for
the NetBeans wizard library are compiled once a session; each module is checked in a JVM of its own
against one Xvfb server for the session, stopped by its PID.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent / "vassal"
DEBIAN_JARS = ("slf4j-api", "slf4j-simple", "commons-lang3", "commons-io", "miglayout-core", "miglayout-swing",
               "maven3-artifact", "batik-all", "xmlgraphics-commons", "xml-apis-ext", "httpcore5",
               "TimingFramework", "commons-codec", "jsoup")


class OracleMissing(RuntimeError):
    """The engine or a part it needs is not installed; the message says how to get it."""


def java_present() -> bool:
    return shutil.which("java") is not None and shutil.which("javac") is not None


def engine_jar() -> Path:
    cache = Path(os.environ.get("SANDTABLE_VASSAL_CACHE", Path.home() / ".cache" / "sandtable-vassal"))
    jar = cache / "Vengine.jar"
    if not jar.is_file():
        done = subprocess.run(["bash", str(HERE / "fetch_engine.sh")], capture_output=True, text=True, timeout=600)
        if done.returncode != 0 or not jar.is_file():
            raise OracleMissing(f"no VASSAL engine at {jar}; run bash tests/vassal/fetch_engine.sh "
                                f"({done.stderr.strip()[-300:]})")
    return jar


def classpath(jar: Path) -> list[str]:
    missing = [j for j in DEBIAN_JARS if not (Path("/usr/share/java") / f"{j}.jar").exists()]
    if missing:
        raise OracleMissing(f"Debian Java libraries missing ({', '.join(missing)}): run bash tests/vassal/fetch_engine.sh "
                            "as root")
    return [str(jar)] + [f"/usr/share/java/{j}.jar" for j in DEBIAN_JARS]


def compile_checker(out: Path, cp: list[str]) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    stubs = sorted(str(p) for p in (HERE / "stub").rglob("*.java"))
    subprocess.run(["javac", "-nowarn", "-d", str(out), *stubs], check=True, capture_output=True, text=True)
    subprocess.run(["javac", "-nowarn", "-d", str(out), "-cp", os.pathsep.join([str(out), *cp]),
                    str(HERE / "Check.java")], check=True, capture_output=True, text=True)
    return out


class Xvfb:
    """One X server for the session, on the display it picks (-displayfd), stopped by its PID."""

    def __init__(self):
        if shutil.which("Xvfb") is None:
            raise OracleMissing("Xvfb (Debian's xvfb) is needed: run bash tests/vassal/fetch_engine.sh as root")
        r, w = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                                     pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        with os.fdopen(r) as f:
            number = f.readline().strip()
        if not number:
            self.stop()
            raise OracleMissing("Xvfb did not start")
        self.display = f":{number}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


@dataclass
class Result:
    returncode: int
    output: str
    seconds: float

    @property
    def problems(self) -> list[str]:
        """FAIL lines of the checker and every WARN or ERROR line of the engine's log."""
        return [line for line in self.output.splitlines()
                if line.startswith("FAIL") or " WARN " in line or " ERROR " in line or "Exception" in line]


@dataclass
class Oracle:
    classes: Path
    cp: list[str]
    xvfb: Xvfb
    home: Path

    def check(self, vmod: Path, expected: Path, show: str | None = None, shot: Path | None = None) -> Result:
        args = [str(vmod), str(expected)] + ([show, str(shot)] if show and shot else [])
        env = dict(os.environ, DISPLAY=self.xvfb.display)
        started = time.perf_counter()
        done = subprocess.run(["java", f"-Duser.home={self.home}", "-Djava.awt.headless=false",
                               "-Dorg.slf4j.simpleLogger.showDateTime=false",
                               "-cp", os.pathsep.join([str(self.classes), *self.cp]), "Check", *args],
                              capture_output=True, text=True, env=env, timeout=300)
        return Result(done.returncode, done.stdout + done.stderr, time.perf_counter() - started)


def write_expected(mod, path: Path) -> None:
    """Where the writer put each piece of each setup, whether it is hidden from the other side and
    the deck it is dealt to, for the checker to ask the engine."""
    with path.open("w", encoding="utf-8") as f:
        for s in mod.setups:
            for p in s.pieces:
                hidden = any(t.type.startswith("hide;") and t.state != "null" for t in p.traits)
                f.write(f"{s.file}\t{p.piece_id}\t{p.map_name}\t{p.location}\t{'hidden' if hidden else 'shown'}\t"
                        f"{p.deck or '-'}\n")
