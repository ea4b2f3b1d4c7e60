"""Desert Steel's print parts as the CLI, the kit and the editor call them: one ``draw_*`` per
declared part (rules/desert_steel/contributions.py), a PrintRequest in, (PDF, findings) out.

A draw raises LookupError for a scenario, card or configuration the pack does not have and
ValueError for options that contradict each other (usage errors, exit 2).
"""
from __future__ import annotations

from sandtable.rules.rulesets import PrintRequest


def scenario_of(model, ref: str):
    s = model.scenario(ref)
    if s is None:
        known = ", ".join(f"{x.number} ({x.id})" for x in model.scenarios.values())
        raise LookupError(f"no scenario {ref!r}; known: {known}")
    return s


def _opt(req: PrintRequest, name: str, default=None):
    return getattr(req.options, name, default)


def draw_cards(req: PrintRequest):
    from .cards import cards_pdf
    model = req.model
    if req.selected is not None:  # the editor's Print of one card: every year variant, with backs
        return cards_pdf(model, numbers=[int(req.selected[1])], backs=True, page=req.page, profile=req.profile,
                         lang=req.lang)
    scenario = scenario_of(model, req.options.scenario) if _opt(req, "scenario") else None
    if _opt(req, "per_formation") and scenario is not None:
        raise ValueError("--per-formation prints every year of a card; a scenario's cards are for its year: "
                         "give one or the other")
    numbers = _opt(req, "card") or []
    missing = [n for n in numbers if n not in model.cards]
    if missing:  # an empty sheet for a typo would look like a printing problem
        raise LookupError(f"no formation card {', '.join(map(str, missing))} in the pack")
    return cards_pdf(model, year=_opt(req, "year"), numbers=numbers or None, scenario=scenario,
                     backs=_opt(req, "backs", False), page=req.page, profile=req.profile,
                     back_style=_opt(req, "back_style", "side"), per_formation=_opt(req, "per_formation", False),
                     lang=req.lang)


def draw_raids(req: PrintRequest):
    from .raids import raids_pdf
    backs = True if req.selected is not None else _opt(req, "backs", False)
    return raids_pdf(req.model, req.catalog, backs=backs, page=req.page, profile=req.profile, lang=req.lang)


def draw_counters(req: PrintRequest):
    from .counters import counters_pdf
    if req.selected is not None:  # the editor: the pack's countersheets, as they print by default
        return counters_pdf(req.model)
    scenario = scenario_of(req.model, req.options.scenario) if _opt(req, "scenario") else None
    return counters_pdf(req.model, scenario, size=req.options.size, page=req.page, profile=req.profile,
                        bleed_mm=req.options.bleed, cut_lines=req.options.cut_lines, lang=req.lang)  # warns of 3/4"


def draw_markers(req: PrintRequest):
    from .markers import markers_pdf
    return markers_pdf(req.model, scenario_of(req.model, req.options.scenario), size=req.options.size,
                       page=req.page, profile=req.profile, bleed_mm=req.options.bleed,
                       cut_lines=req.options.cut_lines, lang=req.lang)


def draw_record(req: PrintRequest):
    from .record import record_pdf
    return record_pdf(req.model, scenario_of(req.model, req.options.scenario), page=req.page, profile=req.profile,
                      lang=req.lang, size=req.options.size)


def draw_scenario(req: PrintRequest):
    from .scenario_sheet import scenario_pdf
    return scenario_pdf(req.model, scenario_of(req.model, req.options.scenario), page=req.page,
                        profile=req.profile, lang=req.lang)


def draw_raid_form(req: PrintRequest):
    from .raidform import raid_form_pdf
    model = req.model
    scenario = scenario_of(model, req.options.scenario) if _opt(req, "scenario") else None
    setup = _opt(req, "setup_value")  # read and checked by the command (--setup)
    if setup is not None and scenario is None:
        scenario = model.scenario(setup.get("scenario", ""))
    return raid_form_pdf(model, scenario, setup, page=req.page, profile=req.profile, lang=req.lang)


def draw_aids(req: PrintRequest):
    from .aids import aids_pdf
    if req.selected is not None:
        return aids_pdf(req.model)
    return aids_pdf(req.model, page=req.page, profile=req.profile, lang=req.lang)


def draw_map(req: PrintRequest):
    from .mapsheet import map_pdf
    model = req.model
    if req.selected is not None:
        conf = model.configurations.get(req.selected[1])
        if conf is None:
            raise ValueError(f"map configuration {req.selected[1]!r} has broken references (see the findings)")
        return map_pdf(model, conf)[:2]
    conf, scenario = model.configurations.get(req.options.what), None
    if conf is None:
        scenario = scenario_of(model, req.options.what)
        conf = scenario.configuration
    data, findings, _ = map_pdf(model, conf, scenario, page=req.page, overlap_mm=req.options.overlap,
                                profile=req.profile, lang=req.lang)
    return data, findings
