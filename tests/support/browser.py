"""A page of Debian's chromium at laptop or phone size, for the page tests (skipped
without chromium on a developer machine; a failure in CI)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.test_browser import ARGS, ARTIFACTS, CHROMIUM, _need_chromium

SIZES = {"laptop": (1366, 900), "phone": (390, 844)}


@contextmanager
def browser_page(size: str) -> Iterator[Any]:
    """A fresh page of a headless chromium whose window is ``SIZES[size]``."""
    _need_chromium()
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    width, height = SIZES[size]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser.new_page(viewport={"width": width, "height": height})
        finally:
            browser.close()
