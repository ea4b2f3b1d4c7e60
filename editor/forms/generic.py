"""The form of any object kind a ruleset has no hand-made form for: a structured JSON tree."""
from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout

from .fields import Heading, ObjectForm
from .jsontree import JsonTree


class GenericForm(ObjectForm):
    """Any object as a structured JSON tree (for kinds without a hand-made form)."""

    def __init__(self, ctx, kind, oid, parent=None):
        super().__init__(ctx, kind, oid, parent)
        lay = QVBoxLayout(self)
        lay.addWidget(Heading(f"{kind} {oid}"))
        lay.addWidget(self.bind("", JsonTree(self, expand_depth=2)), 1)
        self.refresh("")
