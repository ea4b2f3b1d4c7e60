"""Rule tables and terrain-effect tables (battle conditions) as editable grids."""
from __future__ import annotations

from PySide6.QtWidgets import QGroupBox, QLabel, QTabWidget, QVBoxLayout, QWidget

from ...forms.fields import Heading, ObjectForm, scrolled
from ...forms.grid import Col, JsonGrid

RESULT_HELP = "miss, hit, hit+1 … hit+9 or destroyed"
MODIFIER_COLS = [Col("Id", "/id", "str"), Col("Value", "/value", "number"), Col("Label (en)", "/label/en", "text"),
                 Col("Label (fr)", "/label/fr", "text"), Col("§", "/section", "str"),
                 Col("Cumulative", "/cumulative", "bool")]
BAND_COLS = [Col("Min", "/min", "int"), Col("Max", "/max", "int"), Col("Value", "/value", "int")]
CRT_COLS = [Col("Min total", "/min", "int"), Col("Max total", "/max", "int"), Col("Result", "/result", "str")]


def _page(*widgets) -> QWidget:
    w = QWidget()
    v = QVBoxLayout(w)
    for x in widgets:
        v.addWidget(x)
    v.addStretch(0)
    return w


def _box(title: str, grid: QWidget, note: str = "") -> QGroupBox:
    box = QGroupBox(title)
    v = QVBoxLayout(box)
    if note:
        lab = QLabel(note)
        lab.setWordWrap(True)
        lab.setStyleSheet("color: #555")
        v.addWidget(lab)
    v.addWidget(grid)
    return box


class RuleTablesForm(ObjectForm):
    def __init__(self, ctx, kind, oid, parent=None):
        super().__init__(ctx, kind, oid, parent)
        lay = QVBoxLayout(self)
        lay.addWidget(Heading(f"Rule tables {oid}"))
        legend = QLabel("Tinted cells hold reconstructed values (the charts of §2.4 are not printed); "
                        "hover a cell for its source.")
        legend.setStyleSheet("color: #555")
        lay.addWidget(legend)
        tabs = QTabWidget()
        self.tabs = tabs
        v = self.value()
        crt = _page(*[_box(f"{col.replace('_', '-')} targets", self.bind(f"/combat_results/columns/{col}",
                                                                          JsonGrid(self, CRT_COLS)),
                           f"Modified 3d6 total → result ({RESULT_HELP}); §9.22, §9.3.")
                      for col in ("vehicle", "non_vehicle")])
        tabs.addTab(scrolled(crt), "Combat results")
        for key, title in (("spotting_modifiers", "Spotting modifiers"), ("fire_modifiers", "Fire modifiers"),
                           ("morale_modifiers", "Morale modifiers")):
            tabs.addTab(self.bind(f"/{key}", JsonGrid(self, MODIFIER_COLS)), title)
        rng = _page(*[_box(f"{k} fire", self.bind(f"/range_modifiers/{k}", JsonGrid(self, BAND_COLS)),
                           "Distance in hexes → modifier; only the most favourable range modifier applies (§9.23).")
                      for k in ("direct", "indirect")])
        tabs.addTab(scrolled(rng), "Range")
        columns = (v.get("movement_costs") or {}).get("columns", ["vehicle", "non_vehicle"])
        tabs.addTab(_page(_box("Movement points to enter a hex (§8)", self.bind(
            "/movement_costs/terrain", JsonGrid(self, [Col(c.replace("_", "-"), f"/{c}", "cost") for c in columns],
                                                keyed=True)), "A number (halves allowed), 'all' or 'prohibited'.")),
                    "Movement costs")
        tabs.addTab(_page(_box("Units per player per hex (§8.5)", self.bind(
            "/stacking", JsonGrid(self, [Col("Units", "/units", "int"), Col("Vehicles", "/vehicles", "int")],
                                  keyed=True, can_add=False)))), "Stacking")
        tabs.addTab(_page(_box("Random battle conditions, 1d6 per condition (§3.11)", self.bind(
            "/random_conditions/tables", JsonGrid(self, [Col(str(i), f"/{i}", "json") for i in range(1, 7)],
                                                  keyed=True, can_add=False)))), "Random conditions")
        tabs.addTab(_page(_box("Lowest unmodified 3d6 for a flash kill, by firer experience (§9.35)",
                               self.bind("/flash_kill", _FlashGrid(self)))), "Flash kill")
        tabs.addTab(_page(_box("Numbers the rulebook leaves open, decided once (see NOTES.md)",
                               self.bind("/settings", _SettingsGrid(self)))), "Settings")
        lay.addWidget(tabs, 1)
        self.refresh("")


class _FlashGrid(JsonGrid):
    """flash_kill is one object of three numbers: shown as one row."""

    def __init__(self, form):
        super().__init__(form, [Col("Green", "/green", "int"), Col("Seasoned", "/seasoned", "int"),
                                Col("Veteran", "/veteran", "int")], can_add=False)

    def load(self, value) -> None:
        super().load({"flash_kill": value} if isinstance(value, dict) else value)

    def cell_pointer(self, row, col, absolute=True):
        rel = self.columns[col].sub
        return (self.pointer + rel) if absolute else rel


class _SettingsGrid(JsonGrid):
    """settings: name → number, boolean or word."""

    def __init__(self, form):
        super().__init__(form, [Col("Value", "", "json")], keyed=True, new_row=lambda: 0)

    def load(self, value) -> None:
        super().load(value)
        self.table.verticalHeader().setVisible(True)


CONDITION_COLUMNS = {
    "urbanization": [Col("Label (en)", "/label/en", "text"), Col("Label (fr)", "/label/fr", "text"),
                     Col("Building hexes are", "/building_hexes", "str", ("clear", "building"))],
    "zone": [Col("Label (en)", "/label/en", "text"), Col("Label (fr)", "/label/fr", "text"),
             Col("Ground (movement column)", "/ground", "str"), Col("Entrenchment", "/entrenchment", "bool"),
             Col("Spotting modifier", "/spotting_modifier", "int")],
    "road_network": [Col("Label (en)", "/label/en", "text"), Col("Label (fr)", "/label/fr", "text"),
                     Col("A red line is", "/road", "str", ("clear", "track", "road")),
                     Col("A brown line is", "/track", "str", ("clear", "track", "road"))],
}
CONDITION_TITLES = {"relief": "Relief (§3.4)", "zone": "Zone (§3.3)", "urbanization": "Urbanization (§3.2)",
                    "road_network": "Road network (§3.5)"}


class TerrainEffectsForm(ObjectForm):
    """Battle conditions: each condition's values and what they do to the printed map."""

    def __init__(self, ctx, kind, oid, parent=None):
        super().__init__(ctx, kind, oid, parent)
        lay = QVBoxLayout(self)
        lay.addWidget(Heading(f"Battle conditions and terrain effects {oid}"))
        tabs = QTabWidget()
        self.tabs = tabs
        v = self.value()
        colours = []
        for m in ctx.values("map").values():
            for c in (m or {}).get("colours", []):
                if c not in colours:
                    colours.append(c)
        for cond in ("relief", "zone", "urbanization", "road_network"):
            if cond == "relief":
                cols = [Col("Label (en)", "/label/en", "text"), Col("Label (fr)", "/label/fr", "text")] + \
                       [Col(f"{c} level", f"/levels/{c}", "int") for c in colours]
            else:
                cols = CONDITION_COLUMNS[cond]
            values = _box("Values", self.bind(f"/{cond}/values", JsonGrid(self, cols, keyed=True)))
            aliases = _box("Printed words → value (the scenarios' wording, English or French)",
                           self.bind(f"/{cond}/aliases", JsonGrid(self, [Col("Value", "", "str")], keyed=True,
                                                                    new_row=lambda: "")))
            tabs.addTab(_page(values, aliases), CONDITION_TITLES[cond])
        del v
        lay.addWidget(tabs, 1)
        self.refresh("")
