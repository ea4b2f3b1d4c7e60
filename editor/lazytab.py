"""A tab whose content is built the first time it is shown, or when asked (``build``).

Opening a form should cost only what the user sees first: a board, a setup workbench or a
scenario side's dozen grids and trees are made when their tab is first shown. Kept out of
the board modules so a form can use it without importing them."""
from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget


class LazyTab(QWidget):
    def __init__(self, build, parent=None, on_built=None):
        super().__init__(parent)
        self._build = build
        self._on_built = on_built  # called once, after the content is in place
        self.content = None
        QVBoxLayout(self).setContentsMargins(0, 0, 0, 0)

    def build(self) -> QWidget:
        """The content, made now if it was not yet (e.g. to jump to a field inside it)."""
        if self.content is None:
            self.content = self._build()
            self.layout().addWidget(self.content)
            if self._on_built is not None:
                self._on_built(self)
        return self.content

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.build()
