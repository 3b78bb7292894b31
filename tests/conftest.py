"""Shared test set-up: the ``--slow`` flag and Hypothesis profiles.

Statistical and load tests are marked ``slow``. Without ``--slow`` they still run,
sized down (use the ``scale`` fixture to size them); ``pytest --slow`` runs the
full versions.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("slow", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow", action="store_true", default=False, help="run slow tests at full size"
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--slow"):
        settings.load_profile("slow")


@pytest.fixture
def full_size(request: pytest.FixtureRequest) -> bool:
    """True when the run asked for full-size slow tests (``pytest --slow``)."""
    return bool(request.config.getoption("--slow"))
