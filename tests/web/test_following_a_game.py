"""Following a game on the web, in Debian's chromium: chat appears among the
moves on both players' pages (the other's without a reload, so nothing they
were typing is lost); after a move the page links the next board awaiting
the player; a finished board names the winner, how it ended and what it did
to each rating, and offers a rematch with the seats swapped."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.games.test_vacu_sgf import replayed_from_sgf
from tests.web.browser import POLL_MS, UI, LiveSite
from tests.web.test_browser import click_vasco, send_clicked, sign_up_pair, type_move


def test_chat_the_next_board_the_end_and_a_rematch(ui: UI, live: LiveSite) -> None:
    alice, bob = sign_up_pair(ui, mobile_bob=True)
    first = alice.challenge("vasco", "bob")
    second = alice.challenge("vacu", "bob", "-size=9 -komi=6")

    # Alice moves on the Vasco board: the page offers the Vacu board next.
    alice.open_board("vasco", first)
    played = type_move(alice, live, first)
    link = alice.page.locator("#next-board")
    expect(link).to_contain_text(f"Vacu {second}")
    alice.shot("next-board-link")
    link.click()
    expect(alice.page).to_have_url(re.compile(rf"/vacu/{second}$"))
    expect(alice.page.locator("#next-board")).to_have_count(0)  # nothing else awaits her

    # Chat: bob's open page shows alice's words in the record, after her
    # move, without reloading (what he typed in the chat box stays).
    bob.open_board("vasco", first)
    bob.page.evaluate("window.__notReloaded = true")
    bob.page.locator("section.menu textarea[name=comment]").fill("half-written reply")
    alice.open_board("vasco", first)
    chat = alice.page.locator("section.menu form:has(input[value=chat])")
    chat.locator("textarea[name=comment]").fill("Good luck, Bob!\nHave fun.")
    chat.locator("button").click()
    alice.expect_flash("Your message was sent.")
    said = alice.page.locator("#record li.chat")
    expect(said).to_contain_text("alice")
    expect(said).to_contain_text("Good luck, Bob!")
    on_bob = bob.page.locator("#record li.chat")
    expect(on_bob).to_contain_text("Good luck, Bob!", timeout=POLL_MS)
    assert bob.page.evaluate("window.__notReloaded === true"), "bob's page reloaded"
    expect(bob.page.locator("section.menu textarea[name=comment]")).to_have_value(
        "half-written reply"
    )
    order = bob.page.locator("#record li").all_inner_texts()
    assert played in order[0] and "Good luck, Bob!" in order[1], order
    bob.shot("chat-arrived")

    # Bob moves, then alice resigns: bob won, both pages say how and show
    # the rating changes.
    bob.page.reload()
    type_move(bob, live, first)
    alice.open_board("vasco", first)
    alice.open_menu()
    alice.page.locator("section.menu input[name=confirm]").check()
    alice.page.locator("section.menu button[value=resign]").click()
    alice.expect_flash("You resigned.")
    for player in (alice, bob):
        player.open_board("vasco", first)
        over = player.page.locator("#game-over")
        expect(over).to_contain_text("bob won")
        expect(over).to_contain_text("by resignation")
        expect(over.locator("ul.changes li", has_text="bob")).to_contain_text(
            re.compile(r"1600 → 1\d{3} \(\+\d+\)")
        )
        expect(over.locator("ul.changes li", has_text="alice")).to_contain_text(
            re.compile(r"1600 → 1\d{3} \(-\d+\)")
        )
    alice.shot("game-over")
    bob.shot("game-over")

    # The rematch: the same game and options, bob first now.
    alice.page.locator("#rematch").click()
    alice.expect_flash(f"the rematch of board {first}, seats swapped")
    rematch = int(alice.page.url.rsplit("/", 1)[1])
    assert rematch not in (first, second)
    row = live.board(rematch)
    assert row.game == "vasco" and row.status == "active" and row.version == 0
    assert [p.user.userid for p in row.players] == ["bob", "alice"]
    assert row.options == live.board(first).options
    expect(alice.page.locator("p.players")).to_contain_text(re.compile(r"bob.*against.*alice"))
    alice.shot("rematch")
    ui.check()


def test_a_preview_is_drawn_on_the_main_board_with_the_auto_tiles_marked(
    ui: UI, live: LiveSite
) -> None:
    """Bob's a-1,-1 after alice's a0,0 makes Vasco place b-1,0 by itself: the
    preview stands where the board was, marks that tile, and offers Send
    beside it; Back shows the board again."""
    alice, bob = sign_up_pair(ui, mobile_bob=True)
    board_id = alice.challenge("vasco", "bob")
    type_move(alice, live, board_id)
    desk = ui.player("bob")  # bob again, at his desk
    desk.goto("/")
    desk.login()
    for player in (bob, desk):  # on a phone, then on a desktop
        player.open_board("vasco", board_id)
        top = player.board.bounding_box()
        assert top is not None
        click_vasco(player, "a-1,-1")
        preview = player.page.locator("#preview .preview-board")
        expect(preview.locator("svg")).to_have_count(1)
        expect(player.board).to_be_hidden()
        expect(player.page.locator("#preview .preview-bar")).to_contain_text("After a-1,-1")
        expect(preview.locator("svg polygon.auto")).to_have_count(1)  # b-1,0, placed by itself
        shown = preview.bounding_box()
        assert shown is not None and abs(shown["y"] - top["y"]) < 200, (shown, top)
        player.shot("preview-on-the-board")
        player.page.locator("#preview button.back-to-board").click()
        expect(player.board).to_be_visible()
        expect(player.page.locator("#preview")).to_be_empty()
    click_vasco(bob, "a-1,-1")
    send_clicked(bob, live, board_id, "a-1,-1")
    assert live.board(board_id).version == 2
    ui.check()


def test_a_move_by_mail_appears_at_once_and_an_idle_page_asks_nothing(
    ui: UI, live: LiveSite
) -> None:
    """The board page follows its board by server-sent events: a move made
    by mail shows within a couple of seconds (the page's own fallback look
    comes only every minute), and an idle page sends no requests but its
    one open stream."""
    alice, bob = sign_up_pair(ui)
    board_id = alice.challenge("vasco", "bob")
    bob.open_board("vasco", board_id)
    asked: list[str] = []
    bob.page.on("request", lambda request: asked.append(request.url))
    bob.page.wait_for_timeout(4_000)
    idle = [url for url in asked if "/static/" not in url and "/events" not in url]
    assert idle == [], f"an idle page asked {idle}"  # (its icon may come late)
    live.server.handle("alice@example.org", f"vasco move {board_id} alice {alice.password} a0,0")
    bob.expect_version(1, timeout=5_000)
    expect(bob.page.locator("#record li.move")).to_contain_text("a0,0")
    ui.check()


def test_the_sgf_downloaded_from_the_page_replays_to_the_board(ui: UI, live: LiveSite) -> None:
    """A Vacu board's SGF, downloaded by clicking its link, opens in sgfmill
    (an SGF library of its own) and replays by Vacu's rules to the board."""
    alice, _ = sign_up_pair(ui)
    board_id = alice.challenge("vacu", "bob", "-size=7")
    for number, (name, move) in enumerate(
        [("alice", "komi4"), ("bob", "black"), ("bob", "D4"), ("alice", "button"), ("bob", "C3")]
    ):
        sent = live.server.handle(
            f"{name}@example.org",
            f"vacu move {board_id} {name} {alice.password} {move}#{number + 1}",
        )
        assert not any("rror" in mail.subject for mail in sent.mails), [m.body for m in sent.mails]
    alice.open_board("vacu", board_id)
    with alice.page.expect_download() as waiting:
        alice.page.locator(".records a", has_text="SGF").click()
    download = waiting.value
    assert download.suggested_filename == f"vacu-{board_id}.sgf"
    path = download.path()
    assert path is not None
    text = path.read_text(encoding="utf-8")
    again = replayed_from_sgf(text, "vacu", ["-size=7"], ("alice", "bob"))
    assert again.text_board() == live.state(board_id).text_board()
    ui.check()
