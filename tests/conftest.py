"""Shared test set-up: the ``--slow`` flag and Hypothesis profiles.

Statistical and load tests are marked ``slow``. Without ``--slow`` they still run,
sized down (use the ``scale`` fixture to size them); ``pytest --slow`` runs the
full versions.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# tests.support (harnesses shared with bench/) imports from the repository's root
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.support.forker import Forker
from tests.support.services import need_service, private_schema

# Scripts that make test data run against an old commit: not tests, not collected.
collect_ignore_glob = ["support/make_*.py"]

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


# A slow test at full size (``--slow``) may take this long before it counts as hung
# (the suite's own limit, pyproject.toml's ``timeout``, is for the sized-down runs).
FULL_SIZE_TIMEOUT = 3600


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long tests that mostly wait (a soak) start first, so that they run beside the
    others rather than after them; with ``--slow``, slow tests get a longer timeout."""
    items.sort(key=lambda item: item.get_closest_marker("early") is None)
    if config.getoption("--slow"):
        for item in items:
            if item.get_closest_marker("slow") is not None:
                item.add_marker(pytest.mark.timeout(FULL_SIZE_TIMEOUT))


@pytest.fixture
def full_size(request: pytest.FixtureRequest) -> bool:
    """True when the run asked for full-size slow tests (``pytest --slow``)."""
    return bool(request.config.getoption("--slow"))


# -- databases for the money tests (ledger, server): SQLite always, PostgreSQL when set ----
POSTGRES_URL_VAR = "BACCARA_TEST_POSTGRES_URL"


@pytest.fixture(autouse=True)
def _own_default_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command run without --db (``baccara play`` saves every game) writes to the
    test's own folder, never to the user data folder."""
    monkeypatch.setenv("BACCARA_DB", str(tmp_path / "default.db"))


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a private schema in the test PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'money.db'}"
        return
    base = os.environ.get(POSTGRES_URL_VAR)
    if not base:
        need_service("PostgreSQL", f"set {POSTGRES_URL_VAR} (.ci/run does)")
    with private_schema(base) as url:
        yield url


@pytest.fixture(scope="session")
def forker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Forker]:
    """One helper per test process that imports the server once and forks each server
    process a test starts (`tests.support.forker`): a start costs no imports."""
    with Forker(tmp_path_factory.mktemp("forker") / "forker.log") as helper:
        yield helper
