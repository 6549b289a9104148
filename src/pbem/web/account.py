"""Accounts on the web: sign up, log in and out (here or everywhere), and
the account page (password, addresses, mail preference, vacation, API
tokens)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..server import CommandError, Outcome, api_tokens, commands
from .actions import act_on, execute_as, flash, server_of
from .clients import client_source
from .found import TokenId
from .password_lane import password_lane
from .session import CHECKED, PostedForm, check_csrf, current_userid, log_in, log_out
from .templating import render

router = APIRouter(include_in_schema=False)


@router.get("/signup", response_class=HTMLResponse)
def signup_page(request: Request) -> HTMLResponse:
    return render(request, "signup.html", title="Sign up", error=None, form={})


@router.post("/signup", response_class=HTMLResponse, dependencies=[Depends(check_csrf)])
@password_lane
def signup(request: Request, form: PostedForm) -> Response:
    userid = str(form.get("userid", "")).strip()
    password = str(form.get("password", ""))
    address = str(form.get("address", "")).strip()
    outcome_error: str | None = None
    if not address:
        outcome_error = "Give a mail address: board mails and replies go there."
    else:
        request.session.pop("userid", None)  # signing up as someone new
        command = commands.Signup(userid=userid, password=password, address=address)
        outcome_error = execute_as(server_of(request), None, command).error
    if outcome_error:
        return render(
            request,
            "signup.html",
            status_code=422,
            title="Sign up",
            error=outcome_error,
            form={"userid": userid, "address": address},
        )
    log_in(request, canonical(request, userid))
    flash(request, f"Welcome, {userid}! A welcome mail went to {address}.")
    return RedirectResponse("/account", status_code=303)


def canonical(request: Request, userid: str) -> str:
    """The userid as its owner spelled it at sign-up."""
    return server_of(request).read.spelled(userid)


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, next: str = "/") -> HTMLResponse:
    return render(request, "login.html", title="Log in", error=None, next=safe_next(next))


@router.post("/login", response_class=HTMLResponse, dependencies=[Depends(check_csrf)])
@password_lane
def login(request: Request, form: PostedForm) -> Response:
    userid = str(form.get("userid", "")).strip()
    password = str(form.get("password", ""))
    target = safe_next(str(form.get("next", "/")))
    try:
        name = server_of(request).check_login(userid, password, client_source(request))
    except CommandError as error:
        return render(
            request, "login.html", status_code=403, title="Log in", error=error.message, next=target
        )
    log_in(request, name)
    flash(request, f"Logged in as {name}.")
    return RedirectResponse(target, status_code=303)


def safe_next(target: str) -> str:
    """Only a path on this site (no open redirect to another)."""
    return target if target.startswith("/") and not target.startswith("//") else "/"


@router.post("/logout", dependencies=[Depends(check_csrf)])
def logout(request: Request) -> RedirectResponse:
    log_out(request)
    return RedirectResponse("/", status_code=303)


@router.post("/logout/everywhere", dependencies=[Depends(check_csrf)])
def logout_everywhere(request: Request) -> RedirectResponse:
    """The account page's "Log out everywhere": every web session of the
    player ends, this one too, and every API token of theirs is revoked
    (a stolen cookie or token dies with them); the next page says so."""
    userid = account_user(request)
    revoked = server_of(request).end_sessions(userid, tokens=True)
    request.session.clear()
    request.scope[CHECKED] = None
    tokens = "1 API token" if revoked == 1 else f"{revoked or 'no'} API tokens"
    flash(
        request,
        f"Logged out everywhere: every session of {userid} has ended, this one too, "
        f"and {tokens} revoked.",
    )
    return RedirectResponse("/login", status_code=303)


def account_user(request: Request) -> str:
    userid = current_userid(request)
    if userid is None:
        raise HTTPException(403, "Log in first to see your account.")
    return userid


@router.get("/account", response_class=HTMLResponse)
def account(request: Request) -> HTMLResponse:
    return account_page(request, account_user(request))


def account_page(request: Request, userid: str, new_token: str | None = None) -> HTMLResponse:
    """The account page; with a token just made, that token, shown this once."""
    shown = server_of(request).read.account(userid)
    if shown is None:  # deleted meanwhile
        log_out(request)
        raise HTTPException(403, "That account no longer exists.")
    details: dict[str, Any] = {
        "mail": shown.mail_preference,
        "vacation": shown.vacation,
        "addresses": list(shown.addresses),
    }
    tokens = api_tokens.tokens_of(server_of(request), userid)
    details["tokens"] = [(t.id, t.label, t.created_at, t.last_used_at) for t in tokens]
    return render(request, "account.html", title="Your account", new_token=new_token, **details)


def account_form(request: Request, userid: str, what: str, value: dict[str, str]) -> Outcome:
    """Run what one form of the account page stands for. A new password or
    address needs the current password, as by mail; the rest the session
    vouches for."""
    current = value.get("current") or None
    command: commands.Command
    if what == "password":
        command = commands.Change(
            what="password", userid=userid, password=current, new=value.get("new", "")
        )
    elif what == "addresses":
        new = value.get("addresses", "")
        command = commands.Change(what="address", userid=userid, password=current, new=new)
    elif what == "mail":
        command = commands.MailPreference(userid=userid, preference=value.get("preference", ""))
    elif what == "vacation":
        command = commands.Vacation(userid=userid, state=value.get("state", ""))
    else:
        raise HTTPException(404, f"The account page has no form {what[:20]!r}.")
    return act_on(request, userid, command)


@router.post("/account/{what}", dependencies=[Depends(check_csrf)])
@password_lane
def change(request: Request, what: str, form: PostedForm) -> Response:
    """One form of the account page, as the command it stands for."""
    userid = account_user(request)
    value = {name: str(form.get(name, "")).strip() for name in form}
    if what == "token":
        return make_token(request, userid, value.get("label") or "API token")
    outcome = account_form(request, userid, what, value)
    said = "Saved."
    if what == "password" and outcome.ok:
        # The new password ended every session, this one included, and
        # revoked every API token: start this session again (its forms stay
        # valid in the pages already open).
        token = request.session.get("csrf")
        log_in(request, userid)
        request.session["csrf"] = token or request.session["csrf"]
        said = (
            "Your password is changed. Every other session is logged out and every "
            "API token revoked."
        )
    flash(request, outcome.error or said, "ok" if outcome.ok else "error")
    return RedirectResponse("/account", status_code=303)


def make_token(request: Request, userid: str, label: str) -> HTMLResponse:
    """A new API token, shown once, on the page this form answers with (never
    kept in the session cookie); only its hash is stored."""
    token = api_tokens.make_token(server_of(request), userid, label)
    if token is None:
        raise HTTPException(403, "That account no longer exists.")
    return account_page(request, userid, new_token=token)


@router.post("/account/token/{token_id}/delete", dependencies=[Depends(check_csrf)])
def delete_token(request: Request, token_id: TokenId) -> RedirectResponse:
    userid = account_user(request)
    if not api_tokens.revoke(server_of(request), userid, token_id):
        raise HTTPException(404, "You have no such token.")
    flash(request, "The token is revoked.")
    return RedirectResponse("/account#tokens", status_code=303)
