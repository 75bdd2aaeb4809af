"""Test set-up: Qt runs offscreen with PySide6; real data sets are found beside the project."""

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("BLEU_GUI_DATA", ROOT.parent / "shared" / "data"))

settings.register_profile("ci", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")


def data_set(name: str) -> Path:
    """Path of a real data set under ../shared/data, or skip the test when it is absent."""
    path = DATA / name
    if not path.is_dir():
        pytest.skip(f"real data set {name} not available at {path}")
    return path
