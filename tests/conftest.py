import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
