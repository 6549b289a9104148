"""The FastAPI application: pages, forms and the JSON API."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from importlib import resources

from anyio import to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..games import GAMES
from ..server import Recent, Server, database_unavailable, out_of_disk, warm_up
from ..settings import Settings
from . import account, api, api_open, board_page, browse, live, move_entry, records
from .headers import SecurityHeaders, docs_policy, nonce
from .limits import BodyLimit
from .session import secret_key
from .templating import compile_templates, render

log = logging.getLogger("pbem.web")

# Requests a web process runs at once in its threads (anyio's default is 40);
# the others wait their turn in order. The running ones share one interpreter
# lock, which is not handed out in order: with many threads, the one holding
# the database's write turn waits for it among them (docs/performance.md has
# the figures). First password checks (argon2, a fraction of a second each) run
# in threads of their own (web/password_lane.py), so four log-ins at once do
# not hold every request thread.
THREADS_PER_PROCESS = 4
# When a full disk answers 503, the client is asked to try again after this
# many seconds (the host must free space first).
DISK_FULL_RETRY_SECONDS = 300
DISK_FULL = (
    "The server is out of disk space: nothing you sent was done (no move was "
    "played, nothing was changed). Try again later."
)
# When the database is busy (another writer held it past the bounded wait)
# or out of reach (PostgreSQL restarting), the client is asked to try again
# after this many seconds.
BUSY_RETRY_SECONDS = 5
BUSY = (
    "The server is busy: nothing you sent was done (no move was played, "
    "nothing was changed). Try again in a few seconds."
)


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    to_thread.current_default_thread_limiter().total_tokens = THREADS_PER_PROCESS
    await to_thread.run_sync(warm_up, app.state.server, THREADS_PER_PROCESS)
    await to_thread.run_sync(compile_templates)
    yield


def create_app(server: Server, settings: Settings) -> FastAPI:
    """The web door on `server`; `settings` give the session key and links."""
    app = FastAPI(
        lifespan=lifespan,
        title="pbem",
        summary="Abstract strategy games by mail and on the web: "
        + ", ".join(game.title for game in GAMES.values())
        + ".",
        description="The JSON API does what the mail commands do. Authenticate with "
        "`Authorization: Bearer TOKEN`; make a token on your account page.",
        version="1",
        docs_url=None,  # served below from vendored files, not a CDN
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.state.server = server
    app.state.settings = settings
    app.state.board_json = Recent[bytes](2048)  # the API's boards, by all they show
    app.add_middleware(DiskFullAnswers)  # innermost: its page has the session and headers
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit)
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret_key(settings),
        session_cookie="pbem_session",
        same_site="lax",
        https_only=settings.public_url.startswith("https://"),
        max_age=30 * 24 * 3600,
    )
    static = resources.files("pbem.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.add_api_route("/docs", api_documentation, include_in_schema=False)
    app.add_api_route(
        "/favicon.ico",
        lambda: RedirectResponse("/static/favicon.svg", status_code=301),
        include_in_schema=False,
    )
    app.include_router(api_open.router)  # before api's catch-all for unknown /api paths
    app.include_router(api.router)
    app.include_router(account.router)
    app.include_router(browse.router)
    app.include_router(move_entry.router)  # before board_page's /{game_name}/{board_id}
    app.include_router(records.router)
    app.include_router(live.router)
    app.include_router(board_page.router)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        """Errors as JSON under /api, as a page elsewhere; headers kept (a 401's
        WWW-Authenticate, a 405's Allow)."""
        if request.url.path.startswith("/api/"):
            return JSONResponse(
                {"error": error.detail}, status_code=error.status_code, headers=error.headers
            )
        return page_error(request, error.status_code, str(error.detail))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> Response:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in item['loc'][1:])}: {item['msg']}" for item in error.errors()
        )
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": problems}, status_code=422)
        return page_error(request, 422, f"The request was not understood: {problems}.")

    return app


def api_documentation() -> HTMLResponse:
    """Swagger UI on the OpenAPI document, from the vendored copy in static/;
    its inline start-up script runs by a nonce of this answer's own."""
    page = get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="pbem JSON API",
        swagger_js_url="/static/swagger/swagger-ui-bundle.js",
        swagger_css_url="/static/swagger/swagger-ui.css",
        swagger_favicon_url="/static/favicon.svg",
    )
    key = nonce()
    html = bytes(page.body).decode().replace("<script>", f'<script nonce="{key}">')
    return HTMLResponse(html, headers={"Content-Security-Policy": docs_policy(key)})


class DiskFullAnswers:
    """ASGI middleware: a request that failed because the database's disk is
    full (`out_of_disk`: SQLite's "database or disk is full", PostgreSQL's
    disk_full, ENOSPC), or because the database was busy or out of reach
    (`database_unavailable`: the write turn not had within the bounded wait,
    a lost connection, PostgreSQL restarting), is answered 503 with
    Retry-After and the reason, as JSON under /api and as a page elsewhere,
    not a bare 500 or a hang. Any other failure passes on untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as error:
            if started:
                raise
            if out_of_disk(error):
                log.error("answered 503: the database's disk is full (%s)", error)
                message, retry = DISK_FULL, DISK_FULL_RETRY_SECONDS
            elif database_unavailable(error):
                log.warning("answered 503: the database is busy or away (%s)", error)
                message, retry = BUSY, BUSY_RETRY_SECONDS
            else:
                raise
            request = Request(scope, receive)
            headers = {"Retry-After": str(retry)}
            answer: Response
            if request.url.path.startswith("/api/"):
                answer = JSONResponse({"error": message}, status_code=503, headers=headers)
            else:
                answer = page_error(request, 503, message)
                answer.headers.update(headers)
            await answer(scope, receive, send)


def page_error(request: Request, status: int, message: str) -> HTMLResponse:
    titles = {
        403: "Not allowed",
        404: "Not found",
        422: "Not understood",
        503: "Out of disk space" if message == DISK_FULL else "Busy",
    }
    return render(
        request,
        "error.html",
        status_code=status,
        title=titles.get(status, "Error"),
        message=message,
    )
