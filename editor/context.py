"""What every editor widget shares: the document, the validation results, navigation."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass
class EditorContext:
    doc: object  # document.PackDocument
    open_object: Callable[[str, str, str], None] = lambda kind, oid, pointer="": None
    show_provenance: bool = True
    status: Callable[[str], None] = lambda text: None
    extras: dict = field(default_factory=dict)

    @property
    def ws(self):
        return self.doc.ws

    @property
    def ruleset(self) -> str:
        return self.doc.ws.ruleset

    def values(self, kind: str) -> dict[str, dict]:
        ws = self.doc.ws
        return {oid: ws.value(kind, oid) for oid in ws.keys(kind)}
