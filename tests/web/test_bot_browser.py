"""A bot in a real browser: ann challenges easybot from the game's page,
moves, and the bot's answer appears on her open page by itself (the page
polls), played by a bot worker running beside the web door."""

from __future__ import annotations

import threading

from playwright.sync_api import expect

from tests.conftest import BotWorkers
from tests.web.browser import UI, LiveSite
from tests.web.test_browser import type_move


def test_a_bot_challenged_on_the_web_answers_on_the_open_page(
    ui: UI, live: LiveSite, bot_workers: BotWorkers
) -> None:
    ann = ui.player("ann")
    ann.signup()
    board_id = ann.challenge("vacu", "easybot", "-size=5 -komi=3")
    expect(ann.page.locator("body")).to_contain_text("easybot")
    ann.expect_my_turn()
    stop = threading.Event()
    worker = bot_workers(live.server, "browser test")
    thread = threading.Thread(target=worker.run, args=(stop, 0.2), name="bots")
    thread.start()
    try:
        type_move(ann, live, board_id)
        ann.expect_version(2)  # the bot's move, without a reload by hand
        ann.expect_my_turn()
        [first, answer] = live.board_moves(board_id)
        assert (first.seat, answer.seat) == (0, 1)
        expect(ann.page.locator("#status")).to_contain_text("Black (X) to move")
        ann.shot("the-bot-answered")
    finally:
        stop.set()
        thread.join(30)
    ui.check()
