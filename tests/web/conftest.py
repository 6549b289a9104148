"""Fixtures of the web door's browser tests (the harness is tests/web/browser.py):
`live`, the web door served on a free port, and `ui`, Debian's chromium
driven by Playwright, with a folder for the test's screenshots."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.web.browser import UI, LiveSite, launch, live_site, output_dir


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    """One headless chromium for the whole run (each player gets a fresh context)."""
    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveSite]:
    with live_site(tmp_path) as site:
        yield site


@pytest.fixture
def ui(request: pytest.FixtureRequest, chromium: Browser, live: LiveSite) -> Iterator[UI]:
    failed_before = request.session.testsfailed
    harness = UI(chromium, live, output_dir(request.node.name))
    yield harness
    harness.close(failed=request.session.testsfailed > failed_before)
