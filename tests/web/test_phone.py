"""Every page fits a phone: at 390 CSS pixels (an iPhone's width) no page
scrolls sideways. The document's `scrollWidth` is measured on each, logged
out and logged in, with boards of every game, a finished board, the
standings and the player pages filled with rows."""

from __future__ import annotations

from tests.web.browser import MOBILE, UI, LiveSite

WIDTH = MOBILE["width"]


def fill(live: LiveSite) -> dict[str, int]:
    """Players, a board of each game with moves, a finished (rated) board."""
    server = live.server
    for name in ("annabelle", "bob"):
        server.handle(f"{name}@example.org", f"signup {name} secret-pw")
    boards: dict[str, int] = {}
    for game in ("vasco", "trugo", "vacu", "convacu"):
        sent = server.handle(
            "annabelle@example.org", f"{game} challenge annabelle bob", as_user="annabelle"
        )
        board = sent.board
        assert board is not None, [mail.body for mail in sent.mails]
        boards[game] = board
        for _ in range(4):
            state = live.state(board)
            seat = state.to_move
            mover = ("annabelle", "bob")[seat]
            move = state.move_text(state.legal_moves()[0])
            server.handle(f"{mover}@example.org", f"{game} move {board} {mover} secret-pw {move}")
    sent = server.handle("bob@example.org", "vasco challenge bob annabelle", as_user="bob")
    assert sent.board is not None
    boards["finished"] = sent.board
    server.handle("bob@example.org", f"vasco move {sent.board} bob secret-pw a0,0")
    server.handle("annabelle@example.org", f"vasco resign {sent.board} annabelle secret-pw")
    server.handle(
        "bob@example.org",
        "vasco open bob secret-pw -size=30 --rating=1400-1800 --hints",
        "Anyone fancy a long game with a rather long comment that has to wrap somewhere?",
    )
    return boards


def scroll_width(page: object) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))  # type: ignore[attr-defined]


def test_no_page_scrolls_sideways_at_390_pixels(ui: UI, live: LiveSite) -> None:
    boards = fill(live)
    phone = ui.player("annabelle", mobile=True)
    pages = [
        "/",
        "/signup",
        "/login",
        "/vasco",
        "/vasco?show=finished",
        "/vasco/standings",
        "/players/annabelle",
        f"/vasco/{boards['finished']}",
    ]
    wide: dict[str, int] = {}

    def measure(paths: list[str], label: str) -> None:
        for path in paths:
            phone.goto(path)
            width = scroll_width(phone.page)
            if width > WIDTH:
                wide[f"{label} {path}"] = width
                phone.shot(f"{label}-{path.strip('/').replace('/', '-') or 'home'}-wide")

    measure(pages, "logged-out")
    phone.password = "secret-pw"
    phone.goto("/login")
    form = phone.page.locator("form[action='/login']")
    form.locator("input[name=userid]").fill("annabelle")
    form.locator("input[name=password]").fill("secret-pw")
    form.locator("button").click()
    phone.expect_flash("Logged in as annabelle")
    mine = [f"/{game}/{boards[game]}" for game in ("vasco", "trugo", "vacu", "convacu")]
    measure(
        [
            "/",
            "/account",
            "/vasco?show=mine",
            "/vasco?show=awaiting",
            "/trugo",
            "/players/bob",
            *mine,
        ],
        "logged-in",
    )
    # The preview page (the move box's Preview without JavaScript), a board
    # at an earlier move, and an error page.
    phone.goto(f"/vasco/{boards['vasco']}")
    phone.page.locator("#move-input").fill(live.legal_moves(boards["vasco"])[0])
    phone.page.locator("#move-form").evaluate("form => form.removeAttribute('hx-post')")
    phone.page.locator("#move-form").evaluate(
        "form => { form.action = form.querySelector('#preview-button').formAction; form.submit(); }"
    )
    phone.page.wait_for_url("**/preview")
    if scroll_width(phone.page) > WIDTH:
        wide["the preview page"] = scroll_width(phone.page)
    measure([f"/vasco/{boards['vasco']}?at=1"], "more")
    for missing in ("/vasco/99999", "/nogame"):
        answer = phone.page.goto(live.url + missing)
        assert answer is not None and answer.status == 404
        if scroll_width(phone.page) > WIDTH:
            wide[missing] = scroll_width(phone.page)
    # (the browser logs each 404 it was sent to on purpose above)
    ui.problems[:] = [p for p in ui.problems if "status of 404" not in p]
    phone.goto(f"/vasco/{boards['vasco']}")
    phone.shot("vasco-board")
    phone.goto("/")
    phone.shot("home")
    assert not wide, f"pages wider than {WIDTH} px: {wide}"
    ui.check()
