"""The miniatures fragment on small tables drawn here: scale (M§A), command radii (M§B.4),
deployment zones and the distance between the sides (M§C.1)."""
from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from conftest import DATA

from sandtable.rules.miniatures.model import Miniatures
from sandtable.rules.miniatures.scale import hexes
from sandtable.rules.miniatures.setup_checks import check_setup, deployment_zone

PACK = DATA / "miniatures"
RULES = json.loads((PACK / "rules.json").read_text(encoding="utf-8"))
WEAPONS = json.loads((PACK / "weapons.json").read_text(encoding="utf-8"))["weapons"]


class _Catalog:
    def __init__(self, docs):
        self.docs = docs

    def entries(self, kind):
        return [SimpleNamespace(id=v["id"], value=v) for v in self.docs.get(kind, ())]


def unit(uid, side="blue", category="section", commander=None, weapons=("rifle",), **kw):
    u = {"id": uid, "name": uid, "side": side, "category": category, "training": 0, "weapons": list(weapons)}
    if category == "hq":
        u.update(echelon=kw.pop("echelon", "company"), competence=kw.pop("competence", 3), radio=kw.pop("radio", True))
    if commander:
        u["commander"] = commander
    u.update(kw)
    return u


FORCE = [
    unit("bn", category="hq", echelon="battalion"), unit("coy", category="hq", commander="bn"),
    unit("coy-nr", category="hq", commander="bn", radio=False), unit("bn-nr", category="hq", echelon="battalion", radio=False),
    unit("coy2", category="hq", commander="bn-nr"), unit("s1", commander="coy"), unit("s2", commander="coy-nr"),
    unit("rgt", category="hq", echelon="regiment"), unit("bn3", category="hq", echelon="battalion", commander="rgt"),
    unit("red1", side="red", weapons=("mg",)), unit("red-gun", side="red", category="battery", weapons=("pak-38",)),
]


def game(placements, deployment=None, shelters=(), columns=(1, 12), rows=(1, 12)):
    """A model, scenario and setup on a 12 x 12 table; deployment by side, default: anywhere."""
    table = {"id": "T", "name": "t", "north": "up", "provenance": {"": {"source": "reconstructed"}},
             "grid": {"orientation": "flat-top", "columns": {"first": columns[0], "last": columns[1]},
                      "rows": {"first": rows[0], "last": rows[1]}, "shifted_columns": "odd"},
             "shelters": [{"id": sid, "name": {"en": sid}, "hexes": list(hs)} for sid, hs in shelters]}
    units = {u["id"]: u for u in FORCE}
    sides: dict = {}
    for uid, _ in placements:
        side = units[uid]["side"]
        sides.setdefault(side, {"units": [], "deployment": (deployment or {}).get(side, {"edge": "north"})})
        sides[side]["units"].append(uid)
    scenario = {"id": "s", "table": "T", "sides": sides}
    model = Miniatures(_Catalog({"rules": [RULES], "weapon": WEAPONS, "unit": FORCE, "table": [table],
                                 "scenario": [scenario]}))
    setup = {"id": "x", "scenario": "s", "placements": [{"unit": u, "hex": h} for u, h in placements]}
    return model, setup


def findings(placements, **kw) -> list[tuple]:
    model, setup = game(placements, **kw)
    out: list = []
    check_setup(model, setup, lambda code, message, pointer="", **k: out.append((code, pointer, k.get("section"),
                                                                                  message)))
    return out


def only(found, code):
    return [f for f in found if f[0] == code]


ANYWHERE = {"blue": {"edge": "north"}, "red": {"edge": "north"}}


@pytest.fixture(autouse=True)
def _deep_edges(monkeypatch):
    """Unless a test says otherwise, deployment zones cover the whole small table."""
    monkeypatch.setitem(RULES["deployment"], "edge_depth_cm", 100)


# --- scale (M§A) ---------------------------------------------------------------------------------

@pytest.mark.parametrize("cm, h", [(0, 0), (4.9, 0), (5, 1), (10, 2), (19.9, 3), (20, 4), (24, 4), (25, 5), (30, 6)])
def test_five_cm_a_hex_rounded_down(cm, h):
    assert hexes(cm) == h


def test_rule_distances_in_hexes():
    model, _ = game([("s1", "0101")])
    u = {x.id: x for x in model.units.values()}
    assert model.command_radius(u["coy"]) == 4 and model.command_radius(u["bn"]) == 6  # 20 cm, 30 cm
    assert model.command_radius(u["coy-nr"]) == 2 and model.command_radius(u["bn-nr"]) == 4  # less 10 cm
    assert model.command_radius(u["rgt"]) is None  # higher echelons: radios, no limit
    assert model.competence(u["coy-nr"]) == 2 and model.competence(u["coy"]) == 3
    assert model.successor_competence(u["coy"]) == 2
    assert model.power(u["red-gun"]) == 5 and model.separation([u["red1"], u["s1"]]) == 4  # MG 2 x 10 cm = 4H


# --- command radii (M§B.4) -------------------------------------------------------------------------

def test_unit_within_four_hexes_of_its_company_hq():
    assert findings([("bn", "0101"), ("coy", "0106"), ("s1", "0110")]) == []
    (f,) = findings([("bn", "0101"), ("coy", "0106"), ("s1", "0111")])
    assert (f[0], f[1], f[2]) == ("mini-command-radius", "/placements/2/hex", "M§B.4") and "5H" in f[3]


def test_company_hq_within_six_hexes_of_its_battalion_hq():
    assert findings([("bn", "0101"), ("coy", "0107")]) == []
    (f,) = findings([("bn", "0101"), ("coy", "0108")])
    assert f[0] == "mini-command-radius" and "battalion HQ bn" in f[3] and "radius 6H = 30 cm" in f[3]


def test_without_radio_the_radius_is_two_hexes_shorter():
    assert findings([("bn", "0101"), ("coy-nr", "0103"), ("s2", "0105")]) == []
    (f,) = findings([("bn", "0101"), ("coy-nr", "0103"), ("s2", "0106")])
    assert "without radio" in f[3] and "radius 2H = 10 cm" in f[3]
    assert findings([("bn-nr", "0101"), ("coy2", "0105")]) == []
    assert only(findings([("bn-nr", "0101"), ("coy2", "0106")]), "mini-command-radius")


def test_no_limit_above_the_battalion():
    assert findings([("rgt", "0101"), ("bn3", "1212")]) == []


# --- deployment (M§C.1) --------------------------------------------------------------------------------

def test_deployment_within_twenty_cm_of_the_table_edge(monkeypatch):
    monkeypatch.setitem(RULES["deployment"], "edge_depth_cm", 20)
    model, _ = game([("s1", "0101")])
    table = model.table("T")
    zone = deployment_zone(model, table, {"edge": "south"})
    assert {int(k[-2:]) for k in zone} == {9, 10, 11, 12}  # 4 rows from the south edge
    deploy = {"blue": {"edge": "south"}}
    assert findings([("bn", "0512")], deployment=deploy) == []
    (f,) = findings([("bn", "0508")], deployment=deploy)
    assert (f[0], f[2]) == ("mini-deployment", "M§C.1") and "4H (20 cm) from the south edge" in f[3]


def test_deployment_in_a_group_of_shelters(monkeypatch):
    monkeypatch.setitem(RULES["deployment"], "edge_depth_cm", 20)
    village = ("village", ["0606", "0607"])
    deploy = {"blue": {"shelters": ["village"]}}
    assert findings([("bn", "0606")], deployment=deploy, shelters=[village]) == []
    assert only(findings([("bn", "0608")], deployment=deploy, shelters=[village]), "mini-deployment")
    both = {"blue": {"shelters": ["village"], "edge": "south"}}
    assert findings([("bn", "0612")], deployment=both, shelters=[village]) == []


# --- the sides apart (M§C.1) ----------------------------------------------------------------------------

def test_sides_at_least_strongest_power_times_ten_cm_apart():
    assert findings([("bn", "0101"), ("red1", "0105")], deployment=ANYWHERE) == []  # MG power 2: 4H
    (f,) = findings([("bn", "0101"), ("red1", "0104")], deployment=ANYWHERE)
    assert (f[0], f[2]) == ("mini-separation", "M§C.1") and "at least 4H" in f[3]
    (f,) = findings([("bn", "0101"), ("red-gun", "0110")], deployment=ANYWHERE)  # PaK power 5: 10H
    assert "at least 10H" in f[3] and "red-gun is the strongest unit" in f[3]
    assert findings([("bn", "0101"), ("red-gun", "0111")], deployment=ANYWHERE) == []


# --- placements -------------------------------------------------------------------------------------------

def test_placements():
    model, setup = game([("bn", "0101"), ("coy", "0103")])
    setup["placements"] += [{"unit": "bn", "hex": "0102"}, {"unit": "s1", "hex": "0102"},
                            {"unit": "nobody", "hex": "0102"}, {"unit": "coy", "hex": "1313"}]
    setup["placements"].pop(1)
    out: list = []
    check_setup(model, setup, lambda code, message, pointer="", **k: out.append((code, pointer, message)))
    assert [(c, p) for c, p, _ in out] == [("mini-placement", "/placements/1/unit"), ("mini-placement", "/placements/2/unit"),
                                           ("unknown-reference", "/placements/3/unit"),
                                           ("hex-unknown", "/placements/4/hex")]
    model, setup = game([("bn", "0101"), ("coy", "0103")])
    setup["placements"].pop()
    out = []
    check_setup(model, setup, lambda code, message, pointer="", **k: out.append((code, pointer, message)))
    assert out == [("mini-placement", "/placements", "coy (blue) is not placed")]
