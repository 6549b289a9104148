"""Pages to look around: home, each game's page (rules, boards, challenge
form), players and standings."""

from __future__ import annotations

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from ..games import GAMES
from ..server import FILTERS, OPEN_DAYS, SECTION_SIZE, SECTIONS, commands, sample_svg
from .actions import act_on, dashed, flash, server_of
from .found import OfferId, game_or_404
from .session import PostedForm, check_csrf, current_userid
from .templating import render, rules_html, svg_markup

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    server = server_of(request)
    userid = current_userid(request)
    shown = server.read.home(userid)
    recent, waiting, offers = shown.recent, shown.awaiting, shown.offers
    pictures = {name: svg_markup(sample_svg(name)) for name in GAMES}
    return render(
        request,
        "home.html",
        recent=recent,
        waiting=waiting,
        offers=offers,
        pictures=pictures,
        title="pbem",
    )


@router.get("/players/{userid}", response_class=HTMLResponse)
def player(request: Request, userid: str) -> HTMLResponse:
    server = server_of(request)
    shown = server.read.player(userid, history=True)
    if shown is None:
        raise HTTPException(404, f"No player is called {userid[:30]!r}.")
    ratings, active, waiting = shown.ratings, shown.boards, shown.awaiting
    events, name, level = shown.history, shown.userid, shown.bot_level
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
    sections = server.read.standings(game.name, start={section: start} if section else None)
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
    if show not in FILTERS:
        show = "active"
    server = server_of(request)
    lines = server.read.boards(game.name, show, current_userid(request))
    offers = server.read.open_challenges(game.name)
    return render(
        request,
        "game.html",
        title=game.title,
        game=game,
        lines=lines,
        offers=offers,
        open_days=OPEN_DAYS,
        show=show,
        filters=FILTERS,
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
    command = commands.Challenge(
        game=game.name,
        players=tuple(name for name in players if name),
        options=dashed(options),
        nag_days=days["nagtime"],
        forfeit_days=days["forfeittime"],
        total_days=days["totaltime"],
        hints=form.get("hints") == "yes",
        unrated=form.get("unrated") == "yes",
    )
    outcome = act_on(request, userid, command)
    if not outcome.ok:
        flash(request, outcome.error or "", "error")
        return RedirectResponse(f"/{game.name}#challenge", status_code=303)
    board = outcome.board
    flash(request, f"Board {board} started.")
    return RedirectResponse(f"/{game.name}/{board}", status_code=303)


def _number(value: object, what: str) -> int | None:
    """A whole number from a form field ('' is None); ValueError says what is wrong."""
    text = str(value or "").strip()
    if not text:
        return None
    if not text.isdigit() or len(text) > 4:
        raise ValueError(f"The {what} is a whole number, like 7: not '{text[:10]}'.")
    return int(text)


@router.post("/{game_name}/open", dependencies=[Depends(check_csrf)])
def post_open(request: Request, game_name: str, form: PostedForm) -> RedirectResponse:
    """Post an open challenge: anyone (within the rating range) may take it."""
    game = game_or_404(game_name)
    back = RedirectResponse(f"/{game.name}#open", status_code=303)
    userid = current_userid(request)
    if userid is None:
        flash(request, "Log in to post an open challenge: it comes from a player.", "error")
        return RedirectResponse(f"/login?next=/{game.name}%23open", status_code=303)
    try:
        low = _number(form.get("min_rating"), "lowest rating")
        high = _number(form.get("max_rating"), "highest rating")
        days = _number(form.get("days"), "number of days it stays open")
    except ValueError as problem:
        flash(request, str(problem), "error")
        return back
    options = str(form.get("options", "")).split()
    command = commands.PostOpen(
        game=game.name,
        userid=userid,
        options=dashed(options),
        unrated=form.get("unrated") == "yes",
        min_rating=low,
        max_rating=high,
        days=days,
        hints=form.get("hints") == "yes",
        comment=str(form.get("comment", "")),
    )
    outcome = act_on(request, userid, command)
    if outcome.ok:
        flash(request, "Your open challenge is posted: the first player to take it plays you.")
    else:
        flash(request, outcome.error or "", "error")
    return back


@router.post("/{game_name}/open/{number}/{action}", dependencies=[Depends(check_csrf)])
def answer_open(request: Request, game_name: str, number: OfferId, action: str) -> RedirectResponse:
    """Take an open challenge (the board starts), or withdraw one's own."""
    game = game_or_404(game_name)
    if action not in ("take", "withdraw"):
        raise HTTPException(404, "An open challenge is taken or withdrawn, nothing else.")
    userid = current_userid(request)
    if userid is None:
        flash(request, "Log in to take an open challenge: the board needs a player.", "error")
        return RedirectResponse(f"/login?next=/{game.name}%23open", status_code=303)
    kind = commands.TakeOpen if action == "take" else commands.WithdrawOpen
    outcome = act_on(request, userid, kind(game=game.name, number=number, userid=userid))
    if not outcome.ok:
        flash(request, outcome.error or "", "error")
        return RedirectResponse(f"/{game.name}#open", status_code=303)
    if action == "withdraw":
        flash(request, f"Open challenge {number} is withdrawn.")
        return RedirectResponse(f"/{game.name}#open", status_code=303)
    board = outcome.board
    flash(request, f"Board {board} started: you took open challenge {number}.")
    return RedirectResponse(f"/{game.name}/{board}", status_code=303)
