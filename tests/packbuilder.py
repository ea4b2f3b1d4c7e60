"""Builds small packs in a temporary folder for tests of the catalog and layering."""
from __future__ import annotations

import json
from pathlib import Path

PROV = {"": {"source": "reconstructed", "note": "test"}}


def unit(uid: str, nationality: str = "german", **extra) -> dict:
    value = {"id": uid, "name": uid, "nationality": nationality, "class": "vehicle", "movement": 4,
             "range": 6, "anti_vehicle": 5, "defense": 4, "anti_infantry": 3, "provenance": PROV}
    value.update(extra)
    return value


def combat_card(number: int, unit_id: str, nationality: str = "german", year: int = 1941) -> dict:
    return {"number": number, "type": "combat", "designation": f"C/{number}", "nationality": nationality,
            "formation": "company", "years": {"from": year, "to": year},
            "variants": {str(year): {"units": [{"type": unit_id, "count": 3}], "experience": "seasoned",
                                     "c3": "C", "morale": 9, "loss_modifier": 1}},
            "provenance": PROV}


def write_pack(root: Path, pack_id: str, documents: dict[str, dict], depends_on=None,
               version: str = "1.0.0") -> Path:
    folder = root / pack_id
    folder.mkdir(parents=True, exist_ok=True)
    manifest = {"kind": "pack", "id": pack_id, "name": pack_id, "version": version, "ruleset": "desert-steel"}
    if depends_on:
        manifest["depends_on"] = depends_on
    (folder / "pack.json").write_text(json.dumps(manifest, indent=2))
    for name, doc in documents.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(doc, indent=2))
    return folder


def base_pack(root: Path) -> Path:
    return write_pack(root, "base", {
        "units.json": {"kind": "unit-types", "units": [unit("de-a"), unit("de-b")]},
        "cards.json": {"kind": "formation-cards", "cards": [combat_card(160, "de-a")]},
    })
