"""The web door in a real browser: Debian's chromium, driven by Playwright,
against the app served by uvicorn. People sign up, log in and out, challenge
each other and play whole games by clicking on the boards, with and without
JavaScript; the special moves menu; each page's console stays free of errors.

Screenshots land in test-output/browser/<test>/ (see tests/web/browser.py).
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Route, expect

from tests.web.browser import UI, LiveSite, Player


def sign_up_pair(
    ui: UI, mobile_bob: bool = False, javascript: bool = True
) -> tuple[Player, Player]:
    alice = ui.player("alice", javascript=javascript)
    bob = ui.player("bob", mobile=mobile_bob, javascript=javascript)
    alice.signup()
    bob.signup()
    return alice, bob


def type_move(player: Player, live: LiveSite, board_id: int) -> str:
    """Play the first legal move through the move box (no clicking)."""
    version = live.board(board_id).version
    move = live.legal_moves(board_id)[0]
    player.page.locator("#move-input").fill(move)
    player.page.locator("#send-button").click()
    player.expect_flash(f"Played {re.escape(move)}")
    player.expect_version(version + 1, timeout=5_000)
    return move


def send_clicked(player: Player, live: LiveSite, board_id: int, move: str) -> None:
    """The clicked move is in the box and previewed: send it from the preview."""
    version = live.board(board_id).version
    page = player.page
    expect(page.locator("#move-input")).to_have_value(move)
    expect(page.locator("#preview")).to_contain_text(f"After {move}")
    expect(page.locator("#preview svg")).to_have_count(1)
    page.locator("#preview button.primary", has_text=f"Send {move}").click()
    player.expect_flash(f"Played {re.escape(move)}")
    player.expect_version(version + 1, timeout=5_000)


def click_vasco(player: Player, move: str) -> None:
    """A Vasco placement by clicking: the cell, then its orientation in the picker."""
    assert re.fullmatch(r"[a-f]-?\d+,-?\d+", move), move
    cell = move[1:]
    page = player.page
    page.locator(f"#board g.candidate[data-cell='{cell}']").click()
    page.locator(f"#picker button.choice[data-move='{move}']").click()
    expect(page.locator(f"#picker button.choice[data-move='{move}']")).to_have_attribute(
        "aria-pressed", "true"
    )


def test_a_whole_vasco_game_by_clicking(ui: UI, live: LiveSite) -> None:
    alice = ui.player("alice")
    bob = ui.player("bob", mobile=True)
    alice.signup()
    bob.signup()
    bob.shot("account")
    for player in (alice, bob):
        player.logout()
        player.login()
    alice.goto("/vasco")
    alice.shot("game-page", full_page=False)
    board_id = alice.challenge("vasco", "bob", "-size=8")
    bob.open_board("vasco", board_id)
    bob.shot("board-start")
    seats = {0: alice, 1: bob}

    turns = 0
    while (seat := live.to_move(board_id)) is not None and turns < 20:
        player, other = seats[seat], seats[1 - seat]
        version = live.board(board_id).version
        player.expect_version(version)  # the page reloaded itself after the last move
        player.expect_my_turn()
        move = live.legal_moves(board_id)[0]
        click_vasco(player, move)
        if turns < 3:
            player.shot(f"picked-{move}")
        send_clicked(player, live, board_id, move)
        other.expect_version(version + 1)  # the other page notices by itself
        turns += 1

    row = live.board(board_id)
    assert row.status == "finished" and row.result, (row.status, row.result)
    for player in (alice, bob):
        player.expect_version(row.version)
        expect(player.page.locator("#status")).to_contain_text("Game over")
        expect(player.page.locator("#move-form")).to_have_count(0)
        player.shot("game-over")
    # The board mails went out: to both players after every move, the last
    # ones with the result.
    mails = live.mails(board_id)
    for address in ("alice@example.org", "bob@example.org"):
        theirs = [mail for mail in mails if address in mail.recipients]
        assert len(theirs) >= turns, [mail.subject for mail in theirs]
        assert "Game over" in theirs[-1].body, theirs[-1].body
    ui.check()


def test_vacu_komi_step_and_moves_by_clicking(ui: UI, live: LiveSite) -> None:
    alice, bob = sign_up_pair(ui)
    board_id = alice.challenge("vacu", "bob", "-size=5")
    bob.open_board("vacu", board_id)

    # The komi step: alice names White's komi, bob chooses a colour.
    komi = alice.page.locator("form.move-button.with-number")
    # an empty field, no grey number that looks filled in (issue 49 item 12)
    field = komi.locator("input[name=value]")
    assert field.input_value() == "" and field.get_attribute("placeholder") is None
    field.fill("3")
    komi.locator("button").click()
    alice.shot("komi-offered")
    send_clicked(alice, live, board_id, "komi3")
    bob.open_board("vacu", board_id)
    bob.page.locator("form.move-button button", has_text="Play White").click()
    send_clicked(bob, live, board_id, "white")
    assert live.to_move(board_id) == 0  # alice plays Black and the first stone

    # Stones by clicking points, the button, a pass.
    seats = {0: alice, 1: bob}
    for plan in ("point", "button", "point", "point", "pass", "point"):
        seat = live.to_move(board_id)
        assert seat is not None
        player = seats[seat]
        player.open_board("vacu", board_id)
        player.expect_my_turn()
        if plan == "point":
            move = next(m for m in live.legal_moves(board_id) if re.fullmatch(r"[A-Z]\d+", m))
            player.page.locator(f"#board g.point[data-move='{move}']").click()
        else:
            move = plan
            label = {"button": "Take the button", "pass": "Pass"}[plan]
            player.page.locator("form.move-button button", has_text=label).click()
        send_clicked(player, live, board_id, move)
        if plan in ("button", "pass"):
            player.shot(f"after-{plan}")
    texts = [row.text for row in live.board_moves(board_id)]
    assert texts[:2] == ["komi3", "white"] and "button" in texts and "pass" in texts, texts
    alice.open_board("vacu", board_id)
    alice.shot("board")
    ui.check()


TRUGO_TILES = ["a0,0", "a1,-1", "a2,0", "a0,1", "a1,0"]  # a1,0 makes three pieces
JUNCTION = r"-?\d+,-?\d+[ew]"
PIECE_MOVE = re.compile(f"({JUNCTION})-({JUNCTION})")


def test_trugo_tiles_and_a_piece_move_by_clicking(ui: UI, live: LiveSite) -> None:
    alice = ui.player("alice", mobile=True)
    bob = ui.player("bob")
    alice.signup()
    bob.signup()
    board_id = alice.challenge("trugo", "bob")
    seats = {0: alice, 1: bob}
    for move in TRUGO_TILES:
        player = seats[live.to_move(board_id)]
        assert move in live.legal_moves(board_id), move
        player.open_board("trugo", board_id)
        player.expect_my_turn()
        player.page.locator(f"#board g.position[data-cell='{move[1:]}']").click()
        choice = player.page.locator(f"#picker button.choice[data-move='{move}']")
        choice.click()
        expect(choice).to_have_attribute("aria-pressed", "true")
        if move == TRUGO_TILES[-1]:
            player.shot("rotations")
        send_clicked(player, live, board_id, move)

    # Blue (bob) now has pieces; one of them moves: click it, then where it goes.
    piece_moves = [m for m in live.legal_moves(board_id) if PIECE_MOVE.fullmatch(m)]
    assert piece_moves, live.legal_moves(board_id)
    move = piece_moves[0]
    start, end = PIECE_MOVE.fullmatch(move).groups()
    bob.open_board("trugo", board_id)
    bob.expect_my_turn()
    piece = bob.page.locator(f"#board g.junction[data-junction='{start}']")
    expect(piece).to_have_class(re.compile(r"\bmovable\b"))
    piece.click()
    target = bob.page.locator(f"#board g.junction[data-junction='{end}']")
    expect(target).to_have_class(re.compile(r"\bdestination\b"))
    bob.shot("piece-selected")
    target.click()
    send_clicked(bob, live, board_id, move)
    bob.shot("piece-moved")
    assert live.board_moves(board_id)[-1].text == move
    ui.check()


def test_without_javascript_forms_and_the_move_box_work(ui: UI, live: LiveSite) -> None:
    alice, bob = sign_up_pair(ui, javascript=False)
    alice.shot("account")
    alice.logout()
    alice.login()
    board_id = alice.challenge("vasco", "bob", "-size=8")
    alice.shot("new-board")
    assert live.board(board_id).status == "active"

    # A wrong move is refused with a message; the board is unchanged.
    alice.page.locator("#move-input").fill("zz9")
    alice.page.locator("#send-button").click()
    alice.expect_flash("zz9", kind="error")
    assert live.board(board_id).version == 0

    for player, version in ((alice, 1), (bob, 2)):
        if player is bob:
            bob.open_board("vasco", board_id)
        move = live.legal_moves(board_id)[0]
        player.page.locator("#move-input").fill(move)
        player.page.locator("#move-form textarea[name=comment]").fill(f"{player.name} types {move}")
        player.page.locator("#send-button").click()
        player.expect_flash(f"Played {re.escape(move)}")
        player.expect_version(version, timeout=5_000)
        player.expect_my_turn(False, timeout=5_000)
        expect(player.page.locator("ol.moves")).to_contain_text(move)
        player.shot(f"after-move-{version}")
    assert live.board(board_id).version == 2

    # The move buttons are forms of their own: the komi step without JavaScript.
    board_id = alice.challenge("vacu", "bob", "-size=5")
    komi = alice.page.locator("form.move-button.with-number")
    komi.locator("input[name=value]").fill("4")
    komi.locator("button").click()
    alice.expect_flash("Played komi4")
    bob.open_board("vacu", board_id)
    bob.page.locator("form.move-button button", has_text="Play Black").click()
    bob.expect_flash("Played black")
    bob.expect_my_turn()  # bob took Black, so he plays the first stone
    bob.shot("vacu-black")
    assert [row.text for row in live.board_moves(board_id)] == ["komi4", "black"]
    ui.check()


def test_the_special_moves_menu_draw_and_resign(ui: UI, live: LiveSite) -> None:
    alice, bob = sign_up_pair(ui, mobile_bob=True)

    # A draw: alice proposes it, bob accepts it from his side.
    board_id = alice.challenge("trugo", "bob")
    alice.open_menu()
    alice.page.locator("section.menu button[value=draw]").click()
    alice.expect_flash("Your vote is in")
    alice.expect_no_error()
    bob.open_board("trugo", board_id)
    bob.open_menu()
    bob.shot("menu-open")
    expect(bob.page.locator(".flash.proposal")).to_contain_text("alice proposed a draw")
    bob.page.locator("section.menu button[value=accept]").click()
    bob.expect_flash("Everyone agreed: the game is drawn.")
    row = live.board(board_id)
    assert (row.status, row.winner, row.result) == ("finished", None, "drawn by agreement"), row
    # The game is over: no more menu, and alice's open page learns of it by itself.
    expect(bob.page.locator("section.menu")).to_have_count(0)
    expect(alice.page.locator("section.menu")).to_have_count(0, timeout=15_000)
    expect(alice.page.locator("#board")).to_have_attribute("data-my-turn", "false")
    for player in (alice, bob):
        expect(player.page.locator("#status")).to_contain_text("Game over. Drawn by agreement.")
    alice.shot("drawn")
    bob.shot("drawn")

    # Resigning asks for the box to be ticked first. After a move each (before
    # his first move, bob's resignation would decline the challenge), and on
    # one's own turn (out of turn, it waits for that turn).
    board_id = alice.challenge("vasco", "bob")
    type_move(alice, live, board_id)
    bob.open_board("vasco", board_id)
    type_move(bob, live, board_id)
    alice.open_board("vasco", board_id)
    alice.open_menu()
    resign = alice.page.locator("section.menu button[value=resign]")
    confirm = alice.page.locator("section.menu input[name=confirm]")
    resign.click()
    assert confirm.evaluate("box => box.validity.valueMissing")
    expect(alice.page).to_have_url(re.compile(rf"/vasco/{board_id}$"))
    assert live.board(board_id).status == "active"
    confirm.check()
    alice.shot("resign-confirmed")
    resign.click()
    alice.expect_flash("You resigned.")
    row = live.board(board_id)
    assert row.status == "finished" and row.winner == 1, (row.status, row.winner, row.result)
    expect(alice.page.locator("section.menu")).to_have_count(0)
    expect(bob.page.locator("section.menu")).to_have_count(0, timeout=15_000)
    for player in (alice, bob):
        expect(player.page.locator("#status")).to_contain_text(re.compile("resign", re.I))
    alice.shot("resigned")
    bob.shot("resigned")
    ui.check()


def test_the_api_documentation_renders_from_vendored_files(ui: UI) -> None:
    reader = ui.player("reader")
    reader.goto("/docs")
    expect(reader.page.locator(".swagger-ui .info .title")).to_contain_text("pbem")
    expect(reader.page.locator(".opblock-summary-path").first).to_be_visible()
    reader.shot("docs")
    ui.check()


def test_logging_out_ends_a_copied_session_in_the_browser(ui: UI) -> None:
    """A session cookie copied to another browser dies when its owner logs out."""
    ann = ui.player("ann")
    ann.signup()
    thief = ui.player("thief")
    thief.context.add_cookies(ann.context.cookies())
    thief.goto("/")
    expect(thief.page.locator("header .who")).to_contain_text("ann")
    ann.logout()
    thief.goto("/")
    expect(thief.page.locator("header .who")).to_contain_text("log in")
    ui.check()


def test_a_move_sent_from_the_page_keeps_its_message_while_the_page_follows_live(
    ui: UI, live: LiveSite
) -> None:
    """The page's own move makes its live stream say "changed" while the
    answer to the form is still on its way; the page must not reload over
    that answer (it did, now and then: the "Played ..." message was lost)."""
    alice, _bob = sign_up_pair(ui)
    board_id = alice.challenge("vasco", "bob")
    alice.open_board("vasco", board_id)

    def slow_answer(route: Route) -> None:
        answer = route.fetch()  # the server plays the move now: the stream hears of it
        time.sleep(2.5)  # and the answer comes late, as from a busy server
        route.fulfill(response=answer)

    alice.page.route(f"**/vasco/{board_id}/move", slow_answer)
    type_move(alice, live, board_id)
    alice.page.unroute(f"**/vasco/{board_id}/move")
