"""The harness of the browser tests: the web door served by uvicorn on a
free port of 127.0.0.1 (in a thread), and Debian's chromium driven by
Playwright (in the test's own, main thread).

Every page records its console errors, uncaught script errors and server
errors (5xx); a test ends with `UI.check()`, which fails on any of them.
Screenshots go to test-output/browser/<test>/ (or $PBEM_TEST_OUTPUT/browser/
<test>/), numbered in the order they were taken.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect
from playwright.sync_api import Error as PlaywrightError
from sqlalchemy import Engine, select

import pbem.web
from pbem.server import Server, utc_now
from pbem.settings import Settings
from pbem.store import Board, MoveRow, OutboxMessage, make_engine, session_factory
from pbem.store.boards import rebuild
from tests.databases import upgraded_sqlite

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 900}
MOBILE = {"width": 390, "height": 844}
# An open board page hears of a change at once (web/live.py); this is a generous bound.
POLL_MS = 15_000
PASSWORD = "secret-pw"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def output_dir(test_name: str) -> Path:
    """test-output/browser/<test>/ at the repo root, or under $PBEM_TEST_OUTPUT;
    emptied first, so it holds this run's pictures only."""
    root = Path(os.environ.get("PBEM_TEST_OUTPUT") or REPO / "test-output")
    folder = root / "browser" / re.sub(r"[^\w.-]+", "_", test_name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


# The live server.


@dataclass
class LiveSite:
    """The web door at `url`, on `server` (read the database through it)."""

    url: str
    server: Server
    engine: Engine

    def board(self, board_id: int) -> Board:
        with self.server.sessions() as session:
            board = session.get(Board, board_id)
            assert board is not None, f"no board {board_id}"
            session.expunge(board)
            return board

    def legal_moves(self, board_id: int) -> list[str]:
        """The move texts the player to move may play now."""
        with self.server.sessions() as session:
            board = session.get_one(Board, board_id)
            state = rebuild(board)
            return [state.move_text(move) for move in state.legal_moves()]

    def board_moves(self, board_id: int) -> list[MoveRow]:
        with self.server.sessions() as session:
            query = select(MoveRow).where(MoveRow.board_id == board_id)
            return list(session.scalars(query.order_by(MoveRow.number)))

    def state(self, board_id: int) -> Any:
        with self.server.sessions() as session:
            return rebuild(session.get_one(Board, board_id))

    def to_move(self, board_id: int) -> int | None:
        return self.state(board_id).to_move

    def mails(self, board_id: int | None = None) -> list[OutboxMessage]:
        """The outbox, oldest first (only the mails showing `board_id`, if given)."""
        with self.server.sessions() as session:
            query = select(OutboxMessage).order_by(OutboxMessage.id)
            if board_id is not None:
                query = query.where(OutboxMessage.board_id == board_id)
            return list(session.scalars(query))


@contextmanager
def live_site(
    folder: Path, database: str | None = None, clock: Callable[[], datetime] = utc_now
) -> Iterator[LiveSite]:
    """The web door, served in a thread, on a fresh SQLite database (or on
    the `database` given), its server's time told by `clock`."""
    engine = make_engine(database or upgraded_sqlite(folder / "db.sqlite3"))
    server = Server(session_factory(engine), clock)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(secret_key="k" * 32, web_host="127.0.0.1", web_port=port, web_url=url)
    app = pbem.web.create_app(server, settings)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not uv.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            uv.should_exit = True
            pytest.fail(f"the web door did not start on {url}")
        time.sleep(0.02)
    try:
        yield LiveSite(url, server, engine)
    finally:
        uv.should_exit = True
        thread.join(15)
        engine.dispose()


# The browser.


def launch(playwright: Playwright) -> Browser:
    """Debian's chromium, headless; never a browser Playwright downloads."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"the browser tests drive Debian's chromium at {CHROMIUM}: install the Debian "
            "package chromium (apt-get install chromium; .ci/run does). Never "
            "'playwright install'."
        )
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


@dataclass
class Player:
    """One person at one browser (a context of their own: their own cookies)."""

    ui: UI
    name: str
    context: BrowserContext
    page: Page
    password: str = PASSWORD

    # Pictures.

    def shot(self, label: str, full_page: bool = True) -> Path:
        self.ui.shots += 1
        path = self.ui.folder / f"{self.ui.shots:02d}-{self.name}-{label}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path

    # Pages.

    def goto(self, path: str) -> None:
        """Go to `path`. An open board page reloads by itself when its board
        changes (web/live.py); a navigation that meets that reload is cut
        off (net::ERR_ABORTED), or, when the reload wins the race, answered
        by no response of its own (Playwright's goto then returns None: CI
        met it once on /trugo/1). Either way it waits for the reload and goes
        again, as a person would click again; a reload of the very page
        asked for is that page (on a busy machine a page reloading itself
        met three navigations in a row)."""
        target = self.ui.site.url + path
        response = None
        for attempt in range(5):
            try:
                response = self.page.goto(target)
            except PlaywrightError as error:
                if "ERR_ABORTED" not in str(error) and "interrupted" not in str(error):
                    raise
                if attempt == 4:
                    raise
            if response is not None:
                break
            self.page.wait_for_load_state("load")
            if self.page.url == target:
                return  # (the page's own reload brought it; UI.check() sees any 5xx)
        assert response is not None and response.ok, f"{self.name}: GET {path} gave {response}"

    def flashes(self) -> list[str]:
        return self.page.locator("p.flash").all_inner_texts()

    def expect_flash(self, pattern: str, kind: str = "ok") -> None:
        expect(self.page.locator(f"p.flash.{kind}").first).to_contain_text(re.compile(pattern))

    def expect_no_error(self) -> None:
        errors = self.page.locator("p.flash.error").all_inner_texts()
        assert not errors, f"{self.name}: the page says {errors}"

    # Accounts.

    def signup(self, address: str | None = None) -> None:
        self.goto("/signup")
        form = self.page.locator("form[action='/signup']")
        form.locator("input[name=userid]").fill(self.name)
        form.locator("input[name=password]").fill(self.password)
        form.locator("input[name=address]").fill(address or f"{self.name}@example.org")
        form.locator("button").click()
        self.page.wait_for_url("**/account")
        self.expect_flash(f"Welcome, {self.name}")

    def logout(self) -> None:
        self.page.locator("header form[action='/logout'] button").click()
        self.page.wait_for_url(self.ui.site.url + "/")
        expect(self.page.locator("header .who")).to_contain_text("log in")

    def login(self) -> None:
        self.page.locator("header a[href='/login']").click()
        self.page.wait_for_url("**/login*")
        form = self.page.locator("form[action='/login']")
        form.locator("input[name=userid]").fill(self.name)
        form.locator("input[name=password]").fill(self.password)
        form.locator("button").click()
        self.expect_flash(f"Logged in as {self.name}")
        expect(self.page.locator("header .who")).to_contain_text(self.name)

    # Boards.

    def challenge(self, game: str, second: str, options: str = "") -> int:
        """From the game's page: this player first, `second` second; the new board's id."""
        self.goto(f"/{game}")
        form = self.page.locator(f"form[action='/{game}/challenge']")
        expect(form.locator("input[name=first]")).to_have_value(self.name)
        form.locator("input[name=second]").fill(second)
        form.locator("input[name=options]").fill(options)
        form.locator("button", has_text="Start the board").click()
        self.page.wait_for_url(re.compile(rf"/{game}/\d+$"))
        self.expect_flash(r"Board \d+ started")
        return int(self.page.url.rsplit("/", 1)[1])

    def open_board(self, game: str, board_id: int) -> None:
        self.goto(f"/{game}/{board_id}")

    @property
    def board(self) -> Any:
        return self.page.locator("#board")

    def expect_version(self, version: int, timeout: float = POLL_MS) -> None:
        """Wait until the page shows the board after `version` moves (an open
        page reloads itself within a poll or two)."""
        expect(self.board).to_have_attribute("data-version", str(version), timeout=timeout)

    def expect_my_turn(self, mine: bool = True, timeout: float = POLL_MS) -> None:
        want = "true" if mine else "false"
        expect(self.board).to_have_attribute("data-my-turn", want, timeout=timeout)

    def open_menu(self) -> None:
        details = self.page.locator("section.menu details")
        if details.get_attribute("open") is None:
            details.locator("summary").click()
        expect(details.locator("button[value=draw]")).to_be_visible()


@dataclass
class UI:
    """The browser side of one test: players, their problems, the pictures."""

    browser: Browser
    site: LiveSite
    folder: Path
    players: list[Player] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    shots: int = 0

    def player(self, name: str, mobile: bool = False, javascript: bool = True) -> Player:
        options: dict[str, Any] = {
            "viewport": MOBILE if mobile else DESKTOP,
            "java_script_enabled": javascript,
            "base_url": self.site.url,
        }
        if mobile:
            options |= {"is_mobile": True, "has_touch": True, "device_scale_factor": 2}
        context = self.browser.new_context(**options)
        context.set_default_timeout(10_000)
        page = context.new_page()
        self._watch(name, page)
        player = Player(self, name, context, page)
        self.players.append(player)
        return player

    def _watch(self, name: str, page: Page) -> None:
        def console(message: Any) -> None:
            if message.type == "error":
                where = message.location or {}
                self.problems.append(
                    f"{name}: console error on {page.url}: {message.text} "
                    f"({where.get('url', '')}:{where.get('lineNumber', '')})"
                )

        def page_error(error: Any) -> None:
            self.problems.append(f"{name}: script error on {page.url}: {error}")

        def response(answer: Any) -> None:
            if answer.status >= 500:
                self.problems.append(
                    f"{name}: server error {answer.status} for {answer.request.method} {answer.url}"
                )

        page.on("console", console)
        page.on("pageerror", page_error)
        page.on("response", response)

    def check(self) -> None:
        """No console error, script error or server error on any page so far."""
        assert not self.problems, "problems in the browser:\n" + "\n".join(self.problems)

    def close(self, failed: bool) -> None:
        for player in self.players:
            if failed:
                try:
                    player.shot("at-failure")
                except Exception as error:  # the page may be gone
                    self.problems.append(f"{player.name}: no failure screenshot: {error}")
            player.context.close()
        if self.problems:
            (self.folder / "problems.txt").write_text("\n".join(self.problems) + "\n")
