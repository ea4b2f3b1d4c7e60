"""Unit type editor: every printed value with proper widgets, and the counter drawn live."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QFormLayout, QGroupBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QVBoxLayout,
                               QWidget)

from ..counter import CounterPreview
from ...forms.fields import Heading, ObjectForm, scrolled
from ...forms.schema_form import add_fields, index

IDENTITY = ["name", "full_name", "nationality", "class", "role"]
VALUES = ["movement", "range", "anti_vehicle_range", "indirect_fire", "anti_vehicle", "defense", "anti_infantry"]
FLAGS = ["lightly_armored", "towed", "spotter", "close_support", "engineer", "counts_as_observer"]
LABELS = {"anti_vehicle": "Anti-vehicle fire", "anti_infantry": "Anti-infantry fire", "anti_vehicle_range":
          "Anti-vehicle range", "movement": "Movement points", "lightly_armored": "Lightly armoured (white defense)",
          "towed": "Towed (T)", "spotter": "Spotter (star)", "close_support": "Close support (CS)",
          "counts_as_observer": "Counts as observer"}


class UnitTypeForm(ObjectForm):
    def __init__(self, ctx, kind, oid, parent=None):
        super().__init__(ctx, kind, oid, parent)
        schema, rel = index().object_schema(ctx.ruleset, kind)
        outer = QHBoxLayout(self)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.addWidget(Heading(f"Unit type {oid}"))
        for title, keys in (("Counter", IDENTITY), ("Printed values", VALUES), ("Symbols", FLAGS),
                            ("Transport, art and notes", ["transport", "art", "aliases", "notes"])):
            box = QGroupBox(title)
            form = QFormLayout(box)
            add_fields(self, form, schema, rel, "", keys, labels=LABELS)
            lv.addWidget(box)
        lv.addStretch(1)
        outer.addWidget(scrolled(left), 3)
        right = QVBoxLayout()
        self.preview = CounterPreview()
        right.addWidget(QLabel("<b>Counter preview</b> (as printed, §2.11)"))
        right.addWidget(self.preview)
        right.addWidget(QLabel("<b>Formation cards with this unit</b>"))
        self.used = QListWidget()
        self.used.itemDoubleClicked.connect(lambda it: ctx.open_object("formation-card", it.data(Qt.UserRole), ""))
        right.addWidget(self.used, 1)
        outer.addLayout(right, 2)
        self.refresh("")

    def cards_using(self) -> list[tuple[str, dict, list[str]]]:
        out = []
        for number, card in self.ctx.values("formation-card").items():
            years = [y for y, v in (card.get("variants") or {}).items()
                     if any(u.get("type") == self.oid for u in v.get("units", []))]
            if years:
                out.append((number, card, years))
        return out

    def refresh_extra(self, pointer: str) -> None:
        using = self.cards_using()
        self.preview.show_unit(self.value(), using[0][1].get("designation", "") if using else "")
        self.used.clear()
        for number, card, years in using:
            it = QListWidgetItem(f"{number} {card.get('designation', '')} — {', '.join(sorted(years))}")
            it.setData(Qt.UserRole, number)
            self.used.addItem(it)

    def other_changed(self, kind, oid) -> None:
        if kind == "formation-card":
            self.refresh_extra("")
