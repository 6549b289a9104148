"""Doing things from the web: the same command lines as mail, run for the
logged-in player (the web vouches for them, so no password is sent), with
the same mails going out. What went wrong comes back as a message for the
page."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from ..server import Server
from ..server.messages import Sent
from .session import current_userid


@dataclass(frozen=True)
class Outcome:
    """What a command did: the mails it sent, or the reason it was refused
    and what kind of refusal (server.errors) that was."""

    messages: Sent
    error: str | None
    kind: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def server_of(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def run_as(
    server: Server, userid: str | None, line: str, body: str = "", sender: str = ""
) -> Outcome:
    """Run a command line for a player the door vouches for, from their
    first address (so replies go where their mail goes), or, with no
    player, as `sender`; a refusal is returned, not mailed."""
    messages = server.handle(sender, line, body, as_user=userid, mail_errors=False)
    refusal = next((message for message in messages if message.error), None)
    if refusal is None:
        return Outcome(messages, None)
    return Outcome(messages, refusal.error, refusal.error_kind)


def act(request: Request, line: str, body: str = "", sender: str = "") -> Outcome:
    """Run a command line for the logged-in player (or, logged out, as the
    given sender, for signing up)."""
    return run_as(server_of(request), current_userid(request), line, body, sender)


def play(
    request: Request, game: str, board_id: int, userid: str, move: str, number: str, comment: str
) -> None:
    """Play a move from a form, with the page's move number as the `#N`
    guard (a form sent twice, or from an old page, plays nothing), and say
    how it went on the next page."""
    guard = f"#{number}" if number.isdigit() else ""
    outcome = act(request, f"{game} move {board_id} {userid} - {move}{guard}", comment)
    flash(request, outcome.error or f"Played {move}.", "ok" if outcome.ok else "error")


def flash(request: Request, text: str, kind: str = "ok") -> None:
    """A message shown on the next page (after the redirect of a form)."""
    notes = request.session.setdefault("flash", [])
    notes.append({"kind": kind, "text": text})
    request.session["flash"] = notes[-5:]


def take_flashes(request: Request) -> list[dict[str, str]]:
    notes = request.session.pop("flash", [])
    return notes if isinstance(notes, list) else []
