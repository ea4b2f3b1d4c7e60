"""Miniatures cross-reference checks: weapons, chains of command (M§B.3, M§B.4), tables,
scenarios and setups; then the setup rules on every setup once the pack is sound."""
from __future__ import annotations

from ..findings import Finding, Severity
from .model import ECHELONS


def check(catalog) -> list[Finding]:
    out: list[Finding] = []
    out += _units(catalog)
    out += _tables(catalog)
    out += _scenarios(catalog)
    for e in catalog.entries("setup"):
        if catalog.get("scenario", e.value["scenario"]) is None:
            out.append(e.finding("unknown-reference", f"scenario {e.value['scenario']!r} does not exist", "/scenario"))
    if not any(f.severity == Severity.ERROR for f in [*catalog.findings, *out]) and catalog.model is not None:
        from .setup_checks import check_setup
        for e in catalog.entries("setup"):
            out += check_setup(catalog.model, e.value, e.finding)
    return out


def _units(catalog) -> list[Finding]:
    out = []
    radio_echelons = set()
    rules = sorted(catalog.entries("rules"), key=lambda e: e.id)
    if rules:
        radio_echelons = set(rules[0].value["command"]["radio_echelons"])
    for e in catalog.entries("unit"):
        u = e.value
        for i, w in enumerate(u["weapons"]):
            if catalog.get("weapon", w) is None:
                out.append(e.finding("unknown-reference", f"weapon {w!r} does not exist", f"/weapons/{i}"))
        want = "company" if u["category"] != "hq" else _next(u["echelon"])
        if "commander" not in u:
            if u["category"] != "hq":
                out.append(e.finding("mini-organisation", "a unit must belong to a company (it takes its orders from "
                                     "the company HQ)", "/category", section="M§B.3"))
            continue
        boss = catalog.get("unit", u["commander"])
        if boss is None:
            out.append(e.finding("unknown-reference", f"HQ {u['commander']!r} does not exist", "/commander"))
            continue
        b = boss.value
        if b["category"] != "hq":
            out.append(e.finding("mini-organisation", f"{u['commander']} is not an HQ", "/commander", section="M§B.3"))
        elif b["side"] != u["side"]:
            out.append(e.finding("mini-organisation", f"HQ {u['commander']} is on the {b['side']} side", "/commander",
                                 section="M§B.3"))
        elif b["echelon"] != want:
            out.append(e.finding("mini-organisation", f"a {u.get('echelon') or u['category']} takes its orders from a "
                                 f"{want} HQ, not a {b['echelon']} HQ", "/commander", section="M§B.3"))
        if u["category"] == "hq" and u["echelon"] in radio_echelons and not u["radio"]:
            out.append(e.finding("mini-organisation", f"{u['echelon']} HQs are equipped with radios", "/radio",
                                 section="M§B.4"))
    return out


def _next(echelon: str) -> str | None:
    i = ECHELONS.index(echelon)
    return ECHELONS[i + 1] if i + 1 < len(ECHELONS) else None


def _tables(catalog) -> list[Finding]:
    out = []
    for e in catalog.entries("table"):
        g = e.value["grid"]
        cols, rows = g["columns"], g["rows"]
        for i, s in enumerate(e.value.get("shelters", ())):
            for j, h in enumerate(s["hexes"]):
                if not (cols["first"] <= int(h[:2]) <= cols["last"] and rows["first"] <= int(h[2:]) <= rows["last"]):
                    out.append(e.finding("hex-unknown", f"hex {h} is not on table {e.id}", f"/shelters/{i}/hexes/{j}"))
    return out


def _scenarios(catalog) -> list[Finding]:
    out = []
    for e in catalog.entries("scenario"):
        s = e.value
        table = catalog.get("table", s["table"])
        if table is None:
            out.append(e.finding("unknown-reference", f"table {s['table']!r} does not exist", "/table"))
        shelters = {x["id"] for x in table.value.get("shelters", ())} if table else set()
        for side, data in s["sides"].items():
            base = f"/sides/{side}"
            for i, uid in enumerate(data["units"]):
                u = catalog.get("unit", uid)
                if u is None:
                    out.append(e.finding("unknown-reference", f"unit {uid!r} does not exist", f"{base}/units/{i}"))
                elif u.value["side"] != side:
                    out.append(e.finding("mini-organisation", f"{uid} is a {u.value['side']} unit", f"{base}/units/{i}",
                                         section="M§B.3"))
            for i, sh in enumerate(data["deployment"].get("shelters", ())):
                if table is not None and sh not in shelters:
                    out.append(e.finding("unknown-reference", f"shelter group {sh!r} is not on table {s['table']}",
                                         f"{base}/deployment/shelters/{i}"))
    return out
