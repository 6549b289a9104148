"""Pages to look around: home, each game's page (rules, boards, challenge
form), players and standings."""

from __future__ import annotations

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from ..games import GAMES
from ..server import listings
from ..server.commands import Challenge
from ..server.standings import SECTION_SIZE, SECTIONS, standing_sections
from .actions import act_on, flash, server_of
from .found import game_or_404
from .session import PostedForm, check_csrf, current_userid
from .templating import render, rules_html, svg_markup

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    server = server_of(request)
    userid = current_userid(request)
    with server.reads() as session:
        recent = listings.boards(session, None, "active", userid, limit=12)
        waiting = listings.boards(session, None, "awaiting", userid, limit=20) if userid else []
    pictures = {name: svg_markup(listings.sample_svg(name)) for name in GAMES}
    return render(
        request, "home.html", recent=recent, waiting=waiting, pictures=pictures, title="pbem"
    )


@router.get("/players/{userid}", response_class=HTMLResponse)
def player(request: Request, userid: str) -> HTMLResponse:
    server = server_of(request)
    with server.reads() as session:
        user = listings.player_named(session, userid)
        if user is None:
            raise HTTPException(404, f"No player is called {userid[:30]!r}.")
        ratings = listings.ratings_of(session, user)
        active = listings.boards(session, None, "mine", user.userid)
        waiting = listings.boards(session, None, "awaiting", user.userid)
        events = listings.rating_history(session, user)
        name = user.userid
        level = user.bot_level
    return render(
        request,
        "player.html",
        title=name,
        player=name,
        bot_level=level,
        ratings=ratings,
        active=[line for line in active if not line.finished],
        finished=[line for line in active if line.finished],
        waiting=waiting,
        events=events,
    )


@router.get("/{game_name}/standings", response_class=HTMLResponse)
def standings(
    request: Request, game_name: str, section: str | None = None, start: int = 0
) -> HTMLResponse:
    """The best 100 of each section; `section` and `start` page through one."""
    game = game_or_404(game_name)
    if section not in SECTIONS:
        section, start = None, 0
    start = max(0, start)
    server = server_of(request)
    with server.reads() as session:
        sections = standing_sections(
            session, game.name, server.clock(), start={section: start} if section else None
        )
    if section:
        sections = {section: sections[section]}
    return render(
        request,
        "standings.html",
        title=f"{game.title} standings",
        game=game,
        sections=sections,
        start=start if section else 0,
        size=SECTION_SIZE,
        paging=section is not None,
    )


@router.get("/{game_name}", response_class=HTMLResponse)
def game_page(request: Request, game_name: str, show: str = "active") -> HTMLResponse:
    game = game_or_404(game_name)
    if show not in listings.FILTERS:
        show = "active"
    server = server_of(request)
    with server.reads() as session:
        lines = listings.boards(session, game.name, show, current_userid(request))
    return render(
        request,
        "game.html",
        title=game.title,
        game=game,
        lines=lines,
        show=show,
        filters=listings.FILTERS,
        rules=rules_html(game.name),
    )


@router.post("/{game_name}/challenge", dependencies=[Depends(check_csrf)])
def challenge(request: Request, game_name: str, form: PostedForm) -> RedirectResponse:
    """The challenge form: two players (you among them, or not), options,
    timing; for logged-in players only (a stranger must not start boards
    in other people's names)."""
    game = game_or_404(game_name)
    userid = current_userid(request)
    if userid is None:
        flash(request, "Log in to challenge: a challenge comes from a player.", "error")
        return RedirectResponse(f"/login?next=/{game.name}%23challenge", status_code=303)
    days: dict[str, int | None] = {}
    for name in ("nagtime", "forfeittime", "totaltime"):
        value = str(form.get(name, "")).strip()
        if value and not (value.isdigit() and len(value) <= 4):
            flash(request, f"The {name} is a number of days, like 7: not '{value[:10]}'.", "error")
            return RedirectResponse(f"/{game.name}#challenge", status_code=303)
        days[name] = int(value) if value else None
    players = (str(form.get("first", "")).strip(), str(form.get("second", "")).strip())
    options = str(form.get("options", "")).split()
    command = Challenge(
        game=game.name,
        players=tuple(name for name in players if name),
        options=tuple(word if word.startswith("-") else f"-{word}" for word in options),
        nag_days=days["nagtime"],
        forfeit_days=days["forfeittime"],
        total_days=days["totaltime"],
        hints=form.get("hints") == "yes",
    )
    outcome = act_on(request, userid, command)
    if not outcome.ok:
        flash(request, outcome.error or "", "error")
        return RedirectResponse(f"/{game.name}#challenge", status_code=303)
    board = outcome.messages.board
    flash(request, f"Board {board} started.")
    return RedirectResponse(f"/{game.name}/{board}", status_code=303)
