"""The browser the end-to-end tests drive: Debian's Chromium through Playwright, headless."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test's thread; the tests' own ORM calls are safe there.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def chromium():
    """One Chromium for the whole run (in each test process): starting it is a second or more each time."""
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def browser(chromium):
    """The shared Chromium, with every page and context a test opened closed after it, so nothing it left open
    goes on polling into the next test; each test's pages start with cookies and storage of their own."""
    yield chromium
    for context in chromium.contexts:
        context.close()
