"""The pages say what is true, in chromium at desktop and phone width: a
finished board's line says who won and how, with its last move's number; a
declined challenge reads "Declined" (no draw, no rematch) and is declined
by a "Decline" button; userids keep their case; your own page speaks to
you; a bot to move is said to be one that may be warming up; the home
page names each game's designer and its pictures read true; a Vasco board
of few tiles keeps its caption smaller than the heading; the standings
fit a phone with each W-L-D on one line."""

from __future__ import annotations

import random
import re

from playwright.sync_api import expect

from pbem.games import get_game
from tests.web.browser import MOBILE, UI, LiveSite

PW = "secret-pw"


def signup(live: LiveSite, *names: str) -> None:
    for name in names:
        live.server.handle(f"{name}@example.org", f"signup {name} {PW}")


def handle(live: LiveSite, name: str, command: str) -> None:
    live.server.handle(f"{name}@example.org", command)


def won_by_a_loop(live: LiveSite, first: str, second: str) -> int:
    """A size-12 Vasco board that `first` wins by the rules in five moves
    (random moves, seed 22: red closes a loop of 6 tiles)."""
    sent = live.server.handle(
        f"{first}@example.org", f"vasco challenge {first} {second} -size=12", as_user=first
    )
    board = sent.board
    assert board is not None
    chooser = random.Random(22)
    rules = get_game("vasco")
    state = rules.new_state(rules.parse_options(["-size=12"]))
    while state.result is None:
        assert state.to_move is not None
        name = (first, second)[state.to_move]
        move = state.move_text(chooser.choice(state.legal_moves()))
        handle(live, name, f"vasco move {board} {name} {PW} {move}")
        state = state.play_text(move)
    assert state.result.reason == "O (red) closed a loop of 6 tiles"
    return board


def one_line(page: object, selector: str) -> list[str]:
    """The texts of the elements that wrap over more than one line."""
    return list(
        page.evaluate(  # type: ignore[attr-defined]
            """selector => [...document.querySelectorAll(selector)].filter(cell => {
                const range = document.createRange();
                range.selectNodeContents(cell);
                const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                return tops.size > 1;
            }).map(cell => cell.textContent)""",
            selector,
        )
    )


def test_finished_and_declined_boards_say_what_happened(ui: UI, live: LiveSite) -> None:
    signup(live, "alice", "bob", "cat")
    won = won_by_a_loop(live, "alice", "bob")
    declined = live.server.handle(
        "alice@example.org", "vasco challenge cat alice", as_user="alice"
    ).board
    assert declined is not None
    cat = ui.player("cat", mobile=True)
    alice = ui.player("alice")
    for player in (cat, alice):
        player.goto("/login")
        form = player.page.locator("form[action='/login']")
        form.locator("input[name=userid]").fill(player.name)
        form.locator("input[name=password]").fill(PW)
        form.locator("button").click()
        player.expect_flash(f"Logged in as {player.name}")

    # cat's turn on alice's challenge: the userid as written, and a Decline button
    alice.open_board("vasco", declined)
    expect(alice.page.locator("#status")).to_contain_text("cat to move.")
    assert "Cat to move" not in alice.page.locator("#status").inner_text()
    cat.open_board("vasco", declined)
    cat.open_menu()
    expect(cat.page.locator("section.menu summary")).to_have_text("Decline, draw, undo …")
    button = cat.page.locator("#decline")
    expect(button).to_have_text("Decline")
    expect(cat.page.locator("section.menu button[value=resign]")).to_have_count(0)
    cat.page.locator("section.menu input[name=confirm]").check()
    button.click()
    cat.expect_flash("You declined the challenge: the board is over, and not rated.")
    row = live.board(declined)
    assert (row.status, row.ending) == ("finished", "declined"), row
    for player in (cat, alice):
        player.open_board("vasco", declined)
        over = player.page.locator("#game-over")
        expect(over.locator("h2")).to_contain_text("Declined")
        expect(over).not_to_contain_text("Drawn")
        expect(player.page.locator("#rematch")).to_have_count(0)
        expect(player.page.locator("#status")).to_contain_text(
            "Not played. cat declined the challenge; not rated."
        )
    cat.shot("declined")

    # The lists: the winner, then how, with the last move's number.
    for player in (alice, cat):
        for path in ("/vasco?show=finished", "/players/alice", "/players/bob"):
            player.goto(path)
            line = player.page.locator(f"tr:has(a[href='/vasco/{won}'])").first
            expect(line).to_contain_text("alice won: closed a loop of 6 tiles")
            expect(line.locator("td.move")).to_have_text("5")
            assert "(red)" not in line.inner_text()
        player.goto("/vasco?show=finished")
        line = player.page.locator(f"tr:has(a[href='/vasco/{declined}'])")
        expect(line).to_contain_text("Declined: cat declined the challenge; not rated")
        expect(line.locator("td.move")).to_have_text("0")
    alice.open_board("vasco", won)
    expect(alice.page.locator("#status")).to_contain_text(
        "Game over. alice won: closed a loop of 6 tiles."
    )
    expect(alice.page.locator("#game-over h2")).to_contain_text("alice won")
    expect(alice.page.locator("#rematch")).to_be_visible()
    cat.goto("/vasco?show=finished")
    cat.shot("finished-list")
    ui.check()


def test_own_page_bot_note_plurals_and_the_home_page(ui: UI, live: LiveSite) -> None:
    signup(live, "dora")
    sent = live.server.handle("dora@example.org", "vasco challenge easybot dora", as_user="dora")
    assert sent.board is not None  # easybot moves first; no bot worker runs here
    dora = ui.player("dora")
    dora.goto("/login")
    form = dora.page.locator("form[action='/login']")
    form.locator("input[name=userid]").fill("dora")
    form.locator("input[name=password]").fill(PW)
    form.locator("button").click()
    dora.expect_flash("Logged in as dora")
    dora.goto("/players/dora")
    expect(dora.page.locator("main")).to_contain_text("Awaiting your move")
    expect(dora.page.locator("main")).to_contain_text("Nothing waits for your move.")
    expect(dora.page.locator("main")).not_to_contain_text("them")
    dora.goto("/players/easybot")
    expect(dora.page.locator("main")).to_contain_text("Awaiting easybot's move")

    dora.open_board("vasco", sent.board)
    note = dora.page.locator("#bot-note")
    expect(note).to_contain_text("easybot is a bot")
    expect(note).to_contain_text(
        "the first bot move on a newly installed or upgraded server may take a minute or so"
    )
    dora.shot("bot-to-move")

    dora.goto("/")
    intro = dora.page.locator("section.intro")
    expect(intro).to_contain_text("Cameron Browne's Vasco and Trugo")
    expect(intro).to_contain_text("Luis Bolaños Mures's Vacu and Convacu")
    for game in ("vacu", "convacu"):
        card = dora.page.locator(f"a.card[href='/{game}']")
        expect(card).to_contain_text("Komi 6 for White")
        assert not re.search(r"Komi -\d", card.inner_text())
    for path in ("/", "/vasco", "/players/dora", "/players/easybot", "/vasco/standings"):
        dora.goto(path)
        text = dora.page.locator("main").inner_text()
        assert not re.search(r"\b1 (boards|games|challenges)\b", text), (path, text)
    ui.check()


def test_a_vasco_board_of_few_tiles_keeps_its_caption_below_the_heading(
    ui: UI, live: LiveSite
) -> None:
    signup(live, "erin", "fred")
    board = live.server.handle(
        "erin@example.org", "vasco challenge erin fred", as_user="erin"
    ).board
    for mobile in (False, True):
        viewer = ui.player(f"viewer{int(mobile)}", mobile=mobile)
        viewer.open_board("vasco", board)
        sizes = viewer.page.evaluate(
            """() => {
                const heading = document.querySelector('h1').getBoundingClientRect().height;
                const caption = document.querySelector('#board .caption text');
                return [heading, caption.getBoundingClientRect().height];
            }"""
        )
        heading, caption = sizes
        assert caption < 0.8 * heading, (mobile, sizes)
        viewer.shot("few-tiles")
    ui.check()


def test_the_standings_fit_a_phone_with_each_record_on_one_line(ui: UI, live: LiveSite) -> None:
    names = ["annabelle", "bartholomew", "christabel", "dorothea"]
    signup(live, *names)
    for number, (first, second) in enumerate(zip(names, names[1:] + names[:1], strict=True)):
        sent = live.server.handle(
            f"{first}@example.org", f"vasco challenge {first} {second}", as_user=first
        )
        board = sent.board
        handle(live, first, f"vasco move {board} {first} {PW} a0,0")
        handle(live, second, f"vasco move {board} {second} {PW} b1,0")
        loser = (first, second)[number % 2]
        handle(live, loser, f"vasco resign {board} {loser} {PW}")
    for mobile in (True, False):
        reader = ui.player(f"reader{int(mobile)}", mobile=mobile)
        for path in ("/vasco/standings", "/players/annabelle"):
            reader.goto(path)
            expect(reader.page.locator("table.standings td").first).to_be_visible()
            width = int(reader.page.evaluate("document.documentElement.scrollWidth"))
            if mobile:
                assert width <= MOBILE["width"], (path, width)
            assert one_line(reader.page, "table.standings td.record") == [], path
            assert reader.page.locator("table.standings td.record").count() >= 1
        reader.goto("/vasco/standings")
        reader.shot("standings")
    ui.check()
