"""Broken variants of the Holland '44 and miniatures sample packs: one per finding code.

Each case copies a sample pack, breaks one thing in it (a counter, the map, a setup...) and
returns what ``validate`` finds — the catalog checks, and the setup rules run on the pack's
setups once it is otherwise sound. ``RUNTIME_CASES`` (code -> producer) is what
``test_finding_codes`` merges into its table of run-time cases, so every code of these
rulesets is proven reachable; ``CASES`` adds the file and pointer each finding must name.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Callable

from conftest import DATA

from sandtable.rules.findings import Finding
from sandtable.rules.validation import validate_paths

H44 = DATA / "holland44"
MINI = DATA / "miniatures"


def _edit(pack: Path, rel: str, change: Callable[[dict], None]) -> None:
    path = pack / rel
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _by_id(items: list, key: str, value) -> dict:
    return next(i for i in items if i[key] == value)


def _unit(doc: dict, side: str, counter: str) -> dict:
    return _by_id(doc["sides"][side]["units"], "counter", counter)


# code -> (pack, file changed, change, pointer the finding names)
CASES: dict[str, tuple[Path, str, Callable[[dict], None], str]] = {
    "h44-counter": (H44, "counters.json",
                    lambda d: _by_id(d["counters"], "id", "gb-gds-arty").update(free_stacking=False),
                    "/counters/2/free_stacking"),
    "h44-schedule": (H44, "reinforcements.json", lambda d: _by_id(d["entries"], "id", "a8-sry").update(turn=7),
                     "/entries/12/counters/0"),
    "h44-map": (H44, "maps/holland-excerpt.json", lambda d: d["ferries"][0].update(hexside=["6117", "6118"]),
                "/ferries/0/hexside"),
    "h44-bridge": (H44, "maps/holland-excerpt.json", lambda d: _by_id(d["bridges"], "id", "arnhem").update(state="wired"),
                   "/bridges/5/state"),
    "h44-victory-city": (H44, "victory.json", lambda d: _by_id(d["allied"]["places"], "name", "Nijmegen").update(vp=3),
                         "/allied/places/3/vp"),
    "h44-placement": (H44, "setups/s1-turn3.json", lambda d: _unit(d, "allied", "gb-29-armd").pop("entry_area") and
                      _unit(d, "allied", "gb-29-armd").update(hex="4914"), "/sides/allied/units/19/hex"),
    "h44-steps": (H44, "setups/s1-turn3.json", lambda d: _unit(d, "allied", "gb-1-para").update(steps=1),
                  "/sides/allied/units/1/steps"),
    "h44-stacking": (H44, "setups/s1-turn3.json",
                     lambda d: d["sides"]["german"]["units"].append({"counter": "de-unknown-1", "hex": "5822",
                                                                     "face_down": True}),
                     "/sides/german/units/11/hex"),
    "h44-overstack": (H44, "setups/s1-turn3.json",
                      lambda d: [_unit(d, "allied", c).update(hex="5118") for c in ("gb-3-irish-gds", "gb-2-irish-gds")],
                      "/sides/allied/units/15/hex"),
    "h44-step-limit": (H44, "setups/s1-turn3.json",
                       lambda d: [_unit(d, "allied", c).update(hex="5118")
                                  for c in ("gb-3-irish-gds", "gb-2-irish-gds", "gb-4-ksli")],
                       "/sides/allied/units/17/hex"),
    "h44-reinforcement": (H44, "setups/s1-turn3.json", lambda d: _unit(d, "allied", "gb-29-armd").update(entry_area="N"),
                          "/sides/allied/units/19/entry_area"),
    "h44-entry-area": (H44, "setups/s1-turn3.json",
                       lambda d: d["sides"]["allied"]["units"].append({"counter": "gb-1-para-r", "entry_area": "G"}),
                       "/sides/allied/units/20/entry_area"),
    "h44-supply": (H44, "setups/s1-turn3.json", lambda d: _unit(d, "allied", "gb-2-para").pop("markers"),
                   "/sides/allied/units/0/hex"),
    "h44-victory-points": (H44, "setups/s1-turn3.json", lambda d: d["victory_points"].update(allied=5),
                           "/victory_points"),
    "mini-organisation": (MINI, "units.json", lambda d: _by_id(d["units"], "id", "gb-sec-1").update(commander="gb-bn-hq"),
                          "/units/7/commander"),
    "mini-placement": (MINI, "setups/village-1.json", lambda d: d["placements"].pop(), "/placements"),
    "mini-command-radius": (MINI, "setups/village-1.json", lambda d: _by_id(d["placements"], "unit", "gb-sec-3")
                            .update(hex="1118"), "/placements/9/hex"),
    "mini-deployment": (MINI, "setups/village-1.json", lambda d: _by_id(d["placements"], "unit", "gb-bn-hq")
                        .update(hex="1512"), "/placements/5/hex"),
    "mini-separation": (MINI, "weapons.json", lambda d: _by_id(d["weapons"], "id", "pak-38").update(power=7),
                        "/placements/4/hex"),
}


def broken(code: str, tmp: Path) -> Path:
    """A copy of the sample pack with the one change that produces code."""
    source, rel, change, _ = CASES[code]
    pack = tmp / source.name
    shutil.copytree(source, pack)
    _edit(pack, rel, change)
    return pack


def produce(code: str, tmp: Path) -> list[Finding]:
    return validate_paths([broken(code, tmp)]).findings


RUNTIME_CASES: dict[str, Callable[[Path], list[Finding]]] = {
    f"ruleset-{code}": (lambda tmp, code=code: produce(code, tmp)) for code in CASES}
