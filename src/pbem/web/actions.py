"""Doing things from the web: the same commands as mail, run for the
logged-in player (the web vouches for them, so no password is sent), with
the same mails going out. The pages build command objects
(`server.commands`); the API's one text door runs a command line as mail
would. What went wrong comes back as a message for the page."""

from __future__ import annotations

from collections.abc import Iterable

from fastapi import Request

from ..server import Outcome, Server, commands


def server_of(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def run_as(
    server: Server, userid: str | None, line: str, body: str = "", sender: str = ""
) -> Outcome:
    """Run a command line for a player the door vouches for, from their
    first address (so replies go where their mail goes), or, with no
    player, as `sender`; a refusal is returned, not mailed."""
    return server.handle(sender, line, body, as_user=userid, mail_errors=False)


def execute_as(server: Server, userid: str | None, command: commands.Command) -> Outcome:
    """Run a command object for a player the door vouches for (None: for
    no one, as signing up is)."""
    return server.execute(command, as_user=userid)


def act_on(request: Request, userid: str, command: commands.Command) -> Outcome:
    """Run a command object for the logged-in player `userid`."""
    return execute_as(server_of(request), userid, command)


def play(
    request: Request, game: str, board_id: int, userid: str, move: str, number: str, comment: str
) -> None:
    """Play a move from a form, with the page's move number as the `#N`
    guard (a form sent twice, or from an old page, plays nothing), and say
    how it went on the next page."""
    command = commands.Move(
        game=game,
        board=board_id,
        userid=userid,
        move=move,
        number=int(number) if number.isdigit() and len(number) < 7 else None,
        comment=comment,
    )
    outcome = act_on(request, userid, command)
    flash(request, outcome.error or f"Played {move}.", "ok" if outcome.ok else "error")


def flash(request: Request, text: str, kind: str = "ok") -> None:
    """A message shown on the next page (after the redirect of a form)."""
    notes = request.session.setdefault("flash", [])
    notes.append({"kind": kind, "text": text})
    request.session["flash"] = notes[-5:]


def take_flashes(request: Request) -> list[dict[str, str]]:
    notes = request.session.pop("flash", [])
    return notes if isinstance(notes, list) else []


def dashed(words: Iterable[str]) -> tuple[str, ...]:
    """A game's options as typed in a form or sent to the API, each with its
    leading '-' (which people leave out: 'size=12')."""
    return tuple(word if word.startswith("-") else f"-{word}" for word in words)
