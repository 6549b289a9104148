"""Finding an opponent in Debian's chromium: alice posts an open challenge
on the game's page, bob (on a phone) finds it on the home page and takes
it, they play the whole game to its end by the rules, the winner (or the
draw) and the rating changes show on both pages, and the rematch starts a
new board with the seats swapped."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web.browser import POLL_MS, UI, LiveSite, Player
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

    # They play the whole game on the web, to its end by the rules.
    players = {"alice": alice, "bob": bob}

    def on_the_board(player: Player) -> None:
        """The board as it is now: an open page learns of the other's move
        by itself and reloads (going there again meanwhile would be cut off)."""
        if player.page.url.endswith(f"/vasco/{board_id}"):
            player.expect_version(live.board(board_id).version)
        else:
            player.open_board("vasco", board_id)

    while (state := live.state(board_id)).to_move is not None:
        player = players[("alice", "bob")[state.to_move]]
        on_the_board(player)
        player.expect_my_turn()
        type_move(player, live, board_id)
    row = live.board(board_id)
    assert row.status == "finished" and row.ending == "rules", (row.status, row.ending)
    headline = "Drawn" if row.winner is None else f"{('alice', 'bob')[row.winner]} won"
    for player in (alice, bob):
        on_the_board(player)
        over = player.page.locator("#game-over")
        expect(over).to_contain_text(headline, timeout=POLL_MS)
        expect(over).to_contain_text("by the rules")
        for name in ("alice", "bob"):
            expect(over.locator("li", has_text=name)).to_contain_text(
                re.compile(r"1600 → \d+ \([+-]\d+\)")
            )
        player.shot("game-over")

    bob.page.locator("#rematch").click()
    bob.expect_flash(f"the rematch of board {board_id}, seats swapped")
    rematch = live.board(int(bob.page.url.rsplit("/", 1)[1]))
    assert [p.user.userid for p in rematch.players] == ["bob", "alice"]
    assert rematch.options == row.options
    expect(bob.page.locator("#status")).to_contain_text("Your move")
    bob.shot("rematch")
    ui.check()
