"""Who is logged in, and the CSRF token every form carries.

Sessions are Starlette's signed cookies: they hold the userid and a random
CSRF token, never a password. A POST without the session's token is refused.
"""

from __future__ import annotations

import hmac
import secrets
from pathlib import Path
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from starlette.datastructures import FormData

from ..settings import Settings


def secret_key(settings: Settings) -> str:
    """The key that signs sessions: the setting, else one made once and kept
    in var/secret_key (so sessions survive a restart)."""
    if settings.secret_key:
        return settings.secret_key
    path = Path("var") / "secret_key"
    if path.exists():
        return path.read_text(encoding="ascii").strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    path.write_text(key, encoding="ascii")
    path.chmod(0o600)
    return key


CHECKED = "pbem.userid"  # where a request keeps the player its session was checked for


def current_userid(request: Request) -> str | None:
    """The logged-in player, if the session is still theirs: made under the
    player's current session count (logging out and a new password move it
    on, so a copied cookie dies with them). Checked once per request."""
    if CHECKED in request.scope:
        checked: str | None = request.scope[CHECKED]
        return checked
    userid = request.session.get("userid")
    valid = None
    if isinstance(userid, str):
        generation = request.app.state.server.session_generation(userid)
        if generation is not None and request.session.get("generation") == generation:
            valid = userid
        else:
            request.session.clear()  # voided: logged out elsewhere, or a new password
    request.scope[CHECKED] = valid
    return valid


def log_in(request: Request, userid: str) -> None:
    request.session.clear()  # a fresh session (and token) at each log-in
    request.session["userid"] = userid
    request.session["generation"] = request.app.state.server.session_generation(userid)
    request.session["csrf"] = secrets.token_urlsafe(24)
    request.scope[CHECKED] = userid


def log_out(request: Request) -> None:
    """End this session and every other of the player (a cookie copied
    before logging out no longer works)."""
    userid = request.session.get("userid")
    if isinstance(userid, str):
        request.app.state.server.end_sessions(userid)
    request.session.clear()
    request.scope[CHECKED] = None


def csrf_token(request: Request) -> str:
    token = request.session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        request.session["csrf"] = token
    return token


async def read_form(request: Request) -> FormData:
    """The posted form, read on the event loop; the handlers that take it
    are plain functions, run in the thread pool (they use the database,
    argon2 and drawings, which must never block the loop)."""
    return await request.form()


PostedForm = Annotated[FormData, Depends(read_form)]


async def check_csrf(request: Request) -> None:
    """Refuse a form that does not carry this session's token (a page on
    another site cannot read it, so it cannot forge the form)."""
    form = await request.form()
    sent = form.get("csrf") or request.headers.get("x-csrf-token") or ""
    expected = request.session.get("csrf")
    if not isinstance(expected, str) or not hmac.compare_digest(str(sent), expected):
        raise HTTPException(
            status_code=403,
            detail="This form has expired or did not come from this site: reload the page "
            "and send it again.",
        )
