"""What `sandtable edit` shows first: a small window with a progress bar, up before the
editor's own modules are imported (they and the pack reader take most of the start), so the
user sees the editor coming within a fraction of a second. Only PySide6 here."""
from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QProgressBar, QVBoxLayout, QWidget

from .packpath import pack_problem  # noqa: F401 - `sandtable edit` asks it before any Qt window


class Splash(QWidget):
    def __init__(self, what: str):
        super().__init__(None, Qt.SplashScreen | Qt.WindowStaysOnTopHint)
        self.setWindowTitle("sandtable editor")
        lay = QVBoxLayout(self)
        title = QLabel("<b>sandtable</b> editor")
        title.setAlignment(Qt.AlignCenter)
        lay.addWidget(title)
        self.label = QLabel(f"Opening {what}…")
        self.label.setAlignment(Qt.AlignCenter)
        lay.addWidget(self.label)
        bar = QProgressBar()
        bar.setRange(0, 0)
        lay.addWidget(bar)
        self.resize(360, 110)


def start(pack: str | None = None, search: list[str] | None = None, argv: list[str] | None = None) -> int:
    """The splash, then the main window (which reads the pack on a thread), then the event loop."""
    app = QApplication.instance() or QApplication(sys.argv[:1] if argv is None else argv)
    app.setApplicationName("sandtable")
    app.setOrganizationName("sandtable")
    splash = Splash(Path(pack).name if pack else "the Desert Steel pack")
    splash.show()
    app.processEvents()
    from .app import MainWindow  # the editor's modules: most of the start after Qt's own
    window = MainWindow(pack, search=[Path(s) for s in (search or [])], background=True)
    window.show()
    splash.close()
    splash.deleteLater()
    return app.exec()
