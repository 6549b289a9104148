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
        assert board is not None, [mail.body for mail in sent]
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
        ["/", "/account", "/vasco?show=mine", "/vasco?show=awaiting", "/players/bob", *mine],
        "logged-in",
    )
    phone.goto(f"/vasco/{boards['vasco']}")
    phone.shot("vasco-board")
    phone.goto("/")
    phone.shot("home")
    assert not wide, f"pages wider than {WIDTH} px: {wide}"
    ui.check()
