"""A `--totaltime` board's page shows each player's time used and left
(issue 49, item 24), in chromium at desktop and phone width: as of the
page's request, so a page asked for again later shows the clock moved on
though the board did not change; once the game is over, the time each
used, as the game-over mail gives it. On both engines (the board's view is
read otherwise on PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import ENGINES, upgraded_database_url
from tests.server.test_commands import Clock
from tests.web.browser import MOBILE, UI, LiveSite, Player, live_site

PW = "secret-pw"


@pytest.fixture(params=ENGINES)
def live(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveSite]:
    """The web door on each engine, its server's time a `Clock` the test moves."""
    database = upgraded_database_url(request.param, request, tmp_path)
    with live_site(tmp_path, database, Clock()) as site:
        yield site


def clock_of(live: LiveSite) -> Clock:
    clock = live.server.clock
    assert isinstance(clock, Clock)
    return clock


def handle(live: LiveSite, name: str, command: str) -> None:
    outcome = live.server.handle(f"{name}@example.org", command)
    assert all(mail.error is None for mail in outcome.mails), outcome.mails


def clocks_read(player: Player) -> list[tuple[str, str, str]]:
    """Each clock on the page: (who, left, used), as the player reads them."""
    clocks = player.page.locator("#clocks li.clock")
    return [
        (
            clock.locator(".who").inner_text(),
            clock.locator(".left").inner_text() if clock.locator(".left").count() else "",
            clock.locator(".used").inner_text(),
        )
        for clock in clocks.all()
    ]


def at_a_glance(player: Player) -> None:
    """The clocks are on the first screen, side by side, wholly within the
    page's width, each on lines of its own (no page wider than the screen)."""
    page = player.page
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    boxes = [clock.bounding_box() for clock in page.locator("#clocks li.clock").all()]
    assert all(box is not None for box in boxes)
    for box in boxes:
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert box["y"] + box["height"] <= (page.viewport_size or MOBILE)["height"]
    first, second = boxes
    assert first is not None and second is not None
    assert abs(first["y"] - second["y"]) < 2, "the two clocks side by side"


def test_a_totaltime_board_page_shows_each_players_time_as_of_now(ui: UI, live: LiveSite) -> None:
    clock = clock_of(live)
    for name in ("ann", "bob"):
        handle(live, name, f"signup {name} {PW}")
    handle(live, "ann", "vasco challenge ann bob -size=12 --totaltime=10")
    clock.advance(hours=5)
    handle(live, "ann", f"vasco move 1 ann {PW} a0,0")
    clock.advance(hours=2)  # bob's wait counts as his
    desk, phone = ui.player("desk"), ui.player("phone", mobile=True)
    for viewer in (desk, phone):
        viewer.open_board("vasco", 1)
        expect(viewer.page.locator("#clocks .clocks-title")).to_have_text(
            "Time, 10 days each, as of 2026-11-21 16:00 UTC"
        )
        assert clocks_read(viewer) == [
            ("ann", "9 days 19 hours left", "used 5 hours"),
            ("bob to move", "9 days 22 hours left", "used 2 hours"),
        ]
        expect(viewer.page.locator("#clocks li.running .who")).to_have_text("bob to move")
        at_a_glance(viewer)
        viewer.shot("clocks")

    clock.advance(days=1, minutes=30)  # the board unchanged: the clock alone moves on
    for viewer in (desk, phone):
        viewer.open_board("vasco", 1)
        expect(viewer.page.locator("#clocks .clocks-title")).to_contain_text(
            "as of 2026-11-22 16:30 UTC"
        )
        assert clocks_read(viewer) == [
            ("ann", "9 days 19 hours left", "used 5 hours"),
            ("bob to move", "8 days 21 hours left", "used 1 day 2 hours"),
        ]
        at_a_glance(viewer)

    clock.advance(hours=1)
    handle(live, "bob", f"vasco move 1 bob {PW} b1,0")
    clock.advance(hours=2)
    handle(live, "ann", f"vasco resign 1 ann {PW}")  # her wait until then counts as hers
    told = [m.body for m in live.mails(1) if m.body.startswith("Game over")]
    assert told and all("Time taken: ann 7 hours, bob 1 day 3 hours." in body for body in told)
    clock.advance(days=2)  # a finished board's clocks stand still
    for viewer in (desk, phone):
        viewer.open_board("vasco", 1)
        expect(viewer.page.locator("#game-over h2")).to_contain_text("bob won")
        expect(viewer.page.locator("#clocks .clocks-title")).to_have_text(
            "Time used (10 days each)"
        )
        assert clocks_read(viewer) == [
            ("ann", "", "used 7 hours"),
            ("bob", "", "used 1 day 3 hours"),
        ]
        expect(viewer.page.locator("#clocks li.running")).to_have_count(0)
        at_a_glance(viewer)
        viewer.shot("clocks-over")

    # a board without a total time shows no clocks
    handle(live, "ann", "vasco challenge ann bob -size=12")
    desk.open_board("vasco", 2)
    expect(desk.page.locator("#board")).to_be_visible()
    expect(desk.page.locator("#clocks")).to_have_count(0)
    ui.check()
