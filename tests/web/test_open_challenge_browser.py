"""Finding an opponent in Debian's chromium: alice posts an open challenge
on the game's page, bob (on a phone) finds it on the home page and takes
it, they play to the end, the winner and the rating changes show on both
pages, and the rematch starts a new board with the seats swapped."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web.browser import UI, LiveSite
from tests.web.test_browser import sign_up_pair, type_move


def test_an_open_challenge_from_posting_to_the_rematch(ui: UI, live: LiveSite) -> None:
    alice, bob = sign_up_pair(ui, mobile_bob=True)
    alice.goto("/vasco")
    post = alice.page.locator("details.post-open")
    if post.get_attribute("open") is None:
        post.locator("summary").click()
    form = post.locator("form[action='/vasco/open']")
    form.locator("input[name=options]").fill("-size=12")
    form.locator("input[name=max_rating]").fill("1800")
    form.locator("input[name=comment]").fill("First to come plays")
    form.locator("button").click()
    alice.expect_flash("Your open challenge is posted")
    offer = alice.page.locator("ul.offers li", has_text="open challenge 1")
    expect(offer).to_contain_text("-size=12, rated, ratings: up to 1800")
    expect(offer.locator("button.withdraw")).to_be_visible()  # hers: she may withdraw it
    alice.shot("posted")

    bob.goto("/")
    listed = bob.page.locator("#open ul.offers li", has_text="open challenge 1")
    expect(listed).to_contain_text("First to come plays")
    bob.shot("home-with-offer")
    listed.locator("button.take").click()
    bob.expect_flash("you took open challenge 1")
    board_id = int(bob.page.url.rsplit("/", 1)[1])
    row = live.board(board_id)
    assert [p.user.userid for p in row.players] == ["alice", "bob"]
    assert row.options["size"] == 12
    bob.goto("/vasco")
    expect(bob.page.locator("#open")).to_contain_text("No open Vasco challenge now")

    # They play: a move each, then bob resigns on his turn.
    alice.open_board("vasco", board_id)
    type_move(alice, live, board_id)
    bob.open_board("vasco", board_id)
    type_move(bob, live, board_id)
    type_move(alice, live, board_id)
    bob.open_board("vasco", board_id)
    bob.open_menu()
    bob.page.locator("section.menu input[name=confirm]").check()
    bob.page.locator("section.menu button[value=resign]").click()
    bob.expect_flash("You resigned.")
    for player in (alice, bob):
        player.open_board("vasco", board_id)
        over = player.page.locator("#game-over")
        expect(over).to_contain_text("alice won")
        expect(over.locator("li", has_text="alice")).to_contain_text(re.compile(r"\(\+\d+\)"))
        expect(over.locator("li", has_text="bob")).to_contain_text(re.compile(r"\(-\d+\)"))
        player.shot("game-over")

    bob.page.locator("#rematch").click()
    bob.expect_flash(f"the rematch of board {board_id}, seats swapped")
    rematch = live.board(int(bob.page.url.rsplit("/", 1)[1]))
    assert [p.user.userid for p in rematch.players] == ["bob", "alice"]
    assert rematch.options == row.options
    expect(bob.page.locator("#status")).to_contain_text("Your move")
    bob.shot("rematch")
    ui.check()
