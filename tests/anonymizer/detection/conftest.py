"""Fixtures shared by the detection tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def combined():
    """The default detector, built once per test module (loading its model takes seconds)."""
    from anonymizer.detection.combined import CombinedDetector

    return CombinedDetector()
