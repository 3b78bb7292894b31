"""Services some tests need (PostgreSQL, chromium, node): skipped on a developer's
machine without them, a failure in CI (``CI=true``), where `.ci/run` installs them."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def need_service(what: str, hint: str) -> NoReturn:
    """Skip (developer machine) or fail (CI) a test whose service is missing."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{what} is missing in CI: {hint}")
    pytest.skip(f"{what} is not available: {hint}")
