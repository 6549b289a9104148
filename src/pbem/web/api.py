"""The JSON API: the web door for programs.

Reading needs no token: the games, the boards of a game, one board (its
record, whose move, the position as JSON, the SVG picture), the standings
and a player. Acting needs an API token (made on the account page; only its
SHA-256 is stored) sent as `Authorization: Bearer TOKEN`: every action runs
the very command line a mail would (`vasco move 101 alice - a0,0#1`, the
password word being `-` since the token vouches for the player) through
`Server.handle`, so the same checks apply and the same mails go out.

Errors are always `{"error": "..."}`, the command layer's own message when
a command was refused. The status says what kind of refusal it was:

- 401: no token, or one that is not known (revoked or mistyped);
- 403: the command acts for someone the token is not (not a player of the
  board, another user's password);
- 404: the game, board or player named does not exist;
- 409: the command was understood but the board or account as it is now
  refuses it: an illegal move, a stale `#N`, not your move, the board is
  over, nothing to accept, a userid or address taken;
- 422: the request itself is malformed: unreadable move text, a missing or
  wrong field, an unknown option, a command written the wrong way.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import TypeAdapter
from starlette.routing import Match

from ..games import GAMES, get_game
from ..games.base import Game
from ..server import (
    CONFLICT,
    FORBIDDEN,
    MALFORMED,
    NOT_FOUND,
    SECTION_SIZE,
    BoardLine,
    BoardView,
    CommandError,
    Ending,
    Outcome,
    Recent,
    Server,
    api_tokens,
    commands,
    play_moves,
    record_token_failure,
    tokens_allowed,
)
from . import found
from .actions import dashed, execute_as, run_as, server_of
from .api_models import (
    Action,
    ActionRequest,
    ActionResult,
    BoardDetail,
    BoardList,
    BoardSummary,
    ChallengeRequest,
    ClockInfo,
    CommandRequest,
    CommandResult,
    ErrorBody,
    GameInfo,
    HintAnswer,
    MailOut,
    Me,
    MoveInfo,
    MoveRequest,
    OptionInfo,
    PlayerInfo,
    PreviewRequest,
    PreviewResult,
    RatingInfo,
    ResultInfo,
    SeatInfo,
    SideInfo,
    StandingInfo,
    Standings,
    StandingSection,
)
from .clients import client_source
from .found import BoardId
from .password_lane import password_lane

router = APIRouter(prefix="/api", tags=["api"])


# ------------------------------------------------------------ authentication

bearer = HTTPBearer(
    auto_error=False,
    description="An API token from your account page (/account): `Authorization: Bearer pbem_...`.",
)
# How a refusal tells a program to get a token and send it.
GET_TOKEN = (
    "make one on your account page (/account, 'API tokens') and send it as "
    "'Authorization: Bearer TOKEN'."
)


def unauthorized(message: str) -> HTTPException:
    return HTTPException(401, message, headers={"WWW-Authenticate": "Bearer"})


def no_token() -> HTTPException:
    return unauthorized(f"This needs an API token: {GET_TOKEN}")


@dataclass(frozen=True)
class SentToken:
    """The request's API token as its header gave it, not yet looked up.
    The header is read on the event loop (no I/O); the endpoint, already in
    the thread pool, looks the token up (`userid`, `owner`). A dependency
    that did the lookup would run in the pool of its own, and every acting
    request would wait in the pool's queue twice."""

    token: str | None
    source: str  # the client's address (web/clients.py), for the guessing throttle

    def userid(self, server: Server) -> str | None:
        """The token's userid, None without a token; a token that is not
        known is refused (401) rather than ignored, and counted against the
        client: past its limit, 429 (server/players/throttle.py). A known
        token is always taken, whatever its client sent before: it is looked
        up, not guessed."""
        if self.token is None:
            return None
        userid = api_tokens.token_owner(server, self.token)
        if userid is None:
            if not tokens_allowed(server.reader, self.source):
                raise HTTPException(
                    429,
                    "Too many unknown API tokens from your address lately: stop sending "
                    f"them, and {GET_TOKEN}",
                )
            record_token_failure(server.reader, self.source)
            raise unauthorized(f"That API token is not known (revoked, or mistyped): {GET_TOKEN}")
        return userid

    def owner(self, server: Server) -> str:
        """The token's userid; 401 without a token or with one not known."""
        userid = self.userid(server)
        if userid is None:
            raise no_token()
        return userid


async def sent_token(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> SentToken:
    """The request's token, if it sent one; an Authorization header that is
    not 'Bearer TOKEN' is refused (401)."""
    if credentials is None and request.headers.get("authorization"):
        raise unauthorized(f"The Authorization header is not 'Bearer TOKEN': {GET_TOKEN}")
    return SentToken(credentials.credentials if credentials else None, client_source(request))


async def required_token(found: Annotated[SentToken, Depends(sent_token)]) -> SentToken:
    """The request's token; 401 without one (on the event loop: no I/O)."""
    if found.token is None:
        raise no_token()
    return found


OptionalToken = Annotated[SentToken, Depends(sent_token)]
Token = Annotated[SentToken, Depends(required_token)]
GamePath = Annotated[str, Path(description=f"The game: {', '.join(GAMES)}.")]

ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "No API token, or one that is not known."},
    403: {
        "model": ErrorBody,
        "description": "Not yours to do: not a player of the board, another user's password.",
    },
    404: {"model": ErrorBody, "description": "No such game, board or player."},
    409: {
        "model": ErrorBody,
        "description": "Refused as things are: illegal move, stale #N, not your move, over.",
    },
    422: {"model": ErrorBody, "description": "Malformed: unreadable move, wrong fields."},
}
READ_ERRORS: dict[int | str, dict[str, Any]] = {code: ERRORS[code] for code in (404, 422)}


# ----------------------------------------------------------- status mapping

STATUS = {FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409, MALFORMED: 422}


def status_for(kind: str | None) -> int:
    """The HTTP status of a refused command, from the kind of refusal the
    command layer gave it (see the module's docstring)."""
    return STATUS.get(kind or MALFORMED, 422)


# ------------------------------------------------------------------ reading


def game_or_404(name: str) -> Game:
    """The game, or 404 with the registry's message naming the hosted games."""
    try:
        return get_game(name)
    except KeyError as error:
        raise HTTPException(404, str(error.args[0])) from None


def game_info(game: Game) -> GameInfo:
    return GameInfo(
        name=game.name,
        title=game.title,
        players=game.players,
        sides=[SideInfo(name=s.name, letter=s.letter, colour=s.colour) for s in game.sides],
        options=[
            OptionInfo(
                name=spec.name,
                kind="flag" if isinstance(spec.default, bool) else "number",
                default=spec.default,
                help=spec.help,
                minimum=spec.minimum,
                maximum=spec.maximum,
            )
            for spec in game.option_specs
        ],
        can_pass=game.can_pass,
        can_undo=game.can_undo,
        swap_move=game.swap_move,
    )


def summary(line: BoardLine) -> BoardSummary:
    return BoardSummary(
        id=line.id,
        game=line.game,
        players=line.players,
        move=line.move,
        status=line.status,
        to_move=line.to_move,
        options=line.options,
        finished=line.finished,
        updated_at=line.updated_at,
    )


def view_or_404(server: Server, game: Game, board_id: int) -> BoardView:
    """The board as it is now, or 404 naming where the game's boards are listed."""
    return found.view_or_404(server, game, board_id, f"GET /api/{game.name}/boards")


def board_detail(view: BoardView, at: int | None = None) -> BoardDetail:
    game = get_game(view.game)
    shown = view.shown(at)
    state = view.state(shown)
    result = None
    if not view.active:
        winner = view.winner
        result = ResultInfo(
            winner=winner,
            winner_userid=None if winner is None else view.players[winner],
            reason=view.result or "",
            ending=(view.ending or Ending.RULES).value,
        )
    return BoardDetail(
        id=view.id,
        game=game.name,
        title=game.title,
        players=[
            SeatInfo(seat=seat, userid=userid, side=state.side_text(seat))
            for seat, userid in enumerate(view.players)
        ],
        status=view.status,
        to_move=view.player_to_move,
        version=view.version,
        next_move=view.version + 1,
        result=result,
        options=view.parsed_options().to_json(),
        timing={
            "nag_days": view.nag_days,
            "forfeit_days": view.forfeit_days,
            "total_days": view.total_days,
        },
        proposals=view.proposals(),
        moves=[
            MoveInfo(
                number=move.number,
                seat=move.seat,
                player=move.player,
                move=move.text,
                note=move.note,
                comment=move.comment,
                auto=move.auto,
                played_at=move.played_at,
            )
            for move in view.moves
        ],
        shown=shown,
        status_line=state.status_line(),
        position=state.to_json(),
        created_at=view.created_at,
        updated_at=view.updated_at,
    )


def clock_infos(view: BoardView, now: datetime) -> list[ClockInfo]:
    """Each seat's clock at `now` (once over, at the board's end); [] on a
    board without a total time."""
    return [
        ClockInfo(
            seat=seat,
            userid=view.players[seat],
            used_seconds=int(used.total_seconds()),
            left_seconds=int(left.total_seconds()),
        )
        for seat, (used, left) in enumerate(view.clocks(now))
    ]


_CLOCKS = TypeAdapter(list[ClockInfo])


def detail_json(request: Request, view: BoardView, at: int | None = None) -> bytes:
    """A board's detail as JSON (now, or after move `at`), kept by all it
    shows (the view's stamp), so each position is serialised once per
    process however often it is asked for. The clocks move on with time,
    not with the board: they are worked out at each request (the Server's
    clock) and added to what is kept, as its last field."""
    key = (view.stamp, view.shown(at))
    kept: Recent[bytes] = request.app.state.board_json
    body = kept.get(key)
    if body is None:
        detail = board_detail(view, at).model_dump_json(exclude={"clocks"})
        body = kept.put(key, detail.encode())
    clocks = _CLOCKS.dump_json(clock_infos(view, server_of(request).clock()))
    return body[:-1] + b',"clocks":' + clocks + b"}"  # (the kept object, one field more)


_MAILS = TypeAdapter(list[MailOut])


def action_result(
    request: Request, game: Game, board_id: int, done: Outcome, status: int = 200
) -> Response:
    """The answer to a command that was done (an ActionResult): the board
    after it, read again unless the command handed it back, and the mails
    it sent to the token's user."""
    view = done.view or view_or_404(server_of(request), game, board_id)
    return Response(
        b'{"ok":true,"board":%b,"messages":%b}'
        % (detail_json(request, view), _MAILS.dump_json(mails(done))),
        status_code=status,
        media_type="application/json",
    )


# ------------------------------------------------------------------- acting


def mails(done: Outcome) -> list[MailOut]:
    """The mails a command sent to the token's user. The others' mails stay
    out of the answer: they hold other players' addresses, and may tell of
    their queued or submitted moves."""
    own = done.actor
    return [
        MailOut(to=list(m.to), subject=m.subject, body=m.body)
        for m in done.mails
        if m.to and all(to.lower() in own for to in m.to)
    ]


def execute(server: Server, userid: str, command: commands.Command) -> Outcome:
    """Run a command for the token's user; a refusal becomes the HTTP error
    its kind calls for."""
    outcome = execute_as(server, userid, command)
    if not outcome.ok:
        raise HTTPException(status_for(outcome.kind), outcome.error)
    return outcome


def run(server: Server, userid: str, line: str, body: str = "") -> Outcome:
    """Run a command line for the token's user; a refusal becomes the HTTP
    error its kind calls for."""
    outcome = run_as(server, userid, line, body)
    if not outcome.ok:
        raise HTTPException(status_for(outcome.kind), outcome.error)
    return outcome


# -------------------------------------------------------------- the routes


@router.get("/games", summary="The games", response_model=list[GameInfo])
def list_games() -> list[GameInfo]:
    """Every game the server hosts, with its seats and options (and their
    defaults)."""
    return [game_info(game) for game in GAMES.values()]


@router.get("/me", summary="Who the token is for", response_model=Me, responses=ERRORS)
def me(request: Request, token: Token) -> Me:
    """The account of the API token: a way to check a token works."""
    server = server_of(request)
    userid = token.owner(server)
    shown = server.read.account(userid)
    if shown is None:
        raise unauthorized(f"That token's account no longer exists: {GET_TOKEN}")
    return Me(
        userid=shown.userid,
        addresses=list(shown.addresses),
        mail_preference=shown.mail_preference,
        vacation=shown.vacation,
    )


@router.post(
    "/command",
    summary="Run any command (the escape hatch)",
    response_model=CommandResult,
    responses=ERRORS,
)
@password_lane  # (the commands that still ask for the password check it in the lane)
def command(request: Request, token: Token, sent: CommandRequest) -> CommandResult:
    """Run one command line for the token's user, exactly as a mail with
    that Subject and body would, and return the mails it sent you (all of
    them are also delivered; the other players' are not shown here). Write
    `-` for your password: the token vouches for you (changing the password,
    signing off and deleting the account still ask for the real one; a new
    password revokes every other token and web session, not this token). For
    everything the other operations do not cover:
    `vasco subscribe alice - 12`, `trugo newboards alice - on`,
    `vasco limit alice - 5`, `vacu seek alice - 2`, `mail alice - digest`,
    `vacation alice - on`, `vasco submit ...`/`confirm`, `vasco show 12#3`
    (the reply is mailed and returned), and so on: see docs/commands.md.
    `multiple` is for mail: send one command per request."""
    server = server_of(request)
    userid = token.owner(server)
    words = sent.command.split()
    if not words:
        raise HTTPException(422, "The command is empty: write one as a mail's Subject.")
    if words[0].lower() == "multiple":
        raise HTTPException(422, "'multiple' is for mail: send one command per request.")
    with api_tokens.in_use(token.token or ""):  # (a new password keeps this token)
        return CommandResult(messages=mails(run(server, userid, sent.command, sent.body)))


@router.get(
    "/players/{userid}", summary="A player", response_model=PlayerInfo, responses=READ_ERRORS
)
def player(request: Request, userid: str) -> PlayerInfo:
    """A player's ratings in each game and their boards: active, awaiting
    their move, and finished (the newest 200)."""
    shown = server_of(request).read.player(userid)
    if shown is None:
        raise HTTPException(404, f"There is no user '{userid[:40]}'.")
    ratings = [
        RatingInfo(
            game=row.game,
            rating=row.rating,
            games=row.games,
            wins=row.wins,
            losses=row.losses,
            draws=row.draws,
            limit=row.limit,
            seeking=row.seeking,
        )
        for _, row in sorted(shown.ratings.items())
    ]
    return PlayerInfo(
        userid=shown.userid,
        vacation=shown.vacation,
        signed_off=shown.signed_off,
        ratings=ratings,
        active=[summary(line) for line in shown.boards if not line.finished],
        awaiting=[summary(line) for line in shown.awaiting],
        finished=[summary(line) for line in shown.boards if line.finished],
    )


@router.get(
    "/{game}/standings",
    summary="A game's standings",
    response_model=Standings,
    responses=READ_ERRORS,
)
def standings(
    request: Request,
    game: GamePath,
    section: Annotated[
        Literal["Established", "Provisional", "Inactive"] | None,
        Query(description="Only this section, from `start`."),
    ] = None,
    start: Annotated[int, Query(ge=0, description="Skip this many of the section.")] = 0,
) -> Standings:
    """The players of the game best first: established, provisional and
    inactive (as the `standings` command mails them), 100 of each at a time;
    `more` says when a section goes on (ask with `section` and `start`)."""
    found = game_or_404(game)
    server = server_of(request)
    sections = server.read.standings(found.name, start={section: start} if section else None)
    if section:
        sections = {section: sections[section]}
    first = start if section else 0
    return Standings(
        game=found.name,
        sections=[
            StandingSection(
                name=name,
                more=len(entries) > SECTION_SIZE,
                players=[
                    StandingInfo(
                        rank=rank,
                        userid=s.userid,
                        rating=s.rating,
                        games=s.games,
                        wins=s.wins,
                        losses=s.losses,
                        draws=s.draws,
                        active=s.active,
                        limit=s.limit,
                        seeking=s.seeking,
                    )
                    for rank, s in enumerate(entries[:SECTION_SIZE], start=first + 1)
                ],
            )
            for name, entries in sections.items()
        ],
    )


@router.get("/{game}/boards", summary="A game's boards", response_model=BoardList, responses=ERRORS)
def boards(
    request: Request,
    game: GamePath,
    token: OptionalToken,
    show: Annotated[
        Literal["active", "finished", "mine", "awaiting"],
        Query(description="mine and awaiting (my move) need a token."),
    ] = "active",
    limit: Annotated[int, Query(ge=1, le=500)] = 200,
) -> BoardList:
    """The game's boards, most recently changed first: active, finished, the
    token user's (`mine`), or those waiting for the token user's move
    (`awaiting`)."""
    server = server_of(request)
    userid = token.userid(server)
    found = game_or_404(game)
    if show in ("mine", "awaiting") and userid is None:
        raise unauthorized(f"show={show} is about you, so it needs an API token: {GET_TOKEN}")
    lines = server.read.boards(found.name, show, userid, limit=limit)
    return BoardList(show=show, boards=[summary(line) for line in lines])


@router.post(
    "/{game}/boards",
    summary="Challenge: start a board",
    status_code=201,
    response_model=ActionResult,
    responses=ERRORS,
)
def challenge(request: Request, game: GamePath, token: Token, sent: ChallengeRequest) -> Response:
    """Start a board for two players (`GAME challenge FIRST SECOND
    [-OPTION ...] [--nagtime=D] ...`): the token's user need not be one of
    them, and no one's password is needed; a player who does not want the
    game declines by resigning before their first move. Both get the board
    mail. Returns the new board."""
    server = server_of(request)
    userid = token.owner(server)
    found = game_or_404(game)
    command = commands.Challenge(
        game=found.name,
        players=(sent.first, sent.second),
        options=dashed(sent.options),
        nag_days=sent.nagtime,
        forfeit_days=sent.forfeittime,
        total_days=sent.totaltime,
        hints=sent.hints,
        unrated=not sent.rated,
    )
    done = execute(server, userid, command)
    assert done.board is not None  # a challenge that ran made its board
    return action_result(request, found, done.board, done, status=201)


@router.get(
    "/{game}/boards/{board_id}",
    summary="A board",
    response_model=BoardDetail,
    responses=READ_ERRORS,
)
def board(
    request: Request,
    game: GamePath,
    board_id: BoardId,
    at: Annotated[int | None, Query(ge=0, description="Show the position after move N.")] = None,
) -> Response:
    """A board: players, status, whose move, version, result, options, the
    move list with comments, open proposals, and the position as JSON (now,
    or after move `at`)."""
    view = view_or_404(server_of(request), game_or_404(game), board_id)
    return Response(detail_json(request, view, at), media_type="application/json")


@router.get(
    "/{game}/boards/{board_id}/svg",
    summary="A board's picture",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}, **READ_ERRORS},
)
def board_svg(
    request: Request,
    game: GamePath,
    board_id: BoardId,
    at: Annotated[int | None, Query(ge=0, description="After move N.")] = None,
) -> Response:
    """The board as an SVG image (now, or after move `at`)."""
    view = view_or_404(server_of(request), game_or_404(game), board_id)
    return Response(view.svg(view.shown(at)), media_type="image/svg+xml")


@router.post(
    "/{game}/boards/{board_id}/move",
    summary="Play a move",
    response_model=ActionResult,
    responses=ERRORS,
)
def play(
    request: Request, game: GamePath, board_id: BoardId, token: Token, sent: MoveRequest
) -> Response:
    """Play a move (as `GAME move BOARD USERID PASSWORD MOVE[#N]`), with a comment for
    the other players. With `number` (the board's `next_move`), a request
    for a board that has moved on since is refused (409) and plays nothing.
    Every player gets the board mail; queued answers are played after it."""
    server = server_of(request)
    assert token.token is not None
    command = commands.Move(
        game=game.lower(),
        board=board_id,
        userid="",  # the token's owner
        move=sent.move,
        number=sent.number,
        comment=sent.comment,
    )
    # A plain move looks the token up with the board; anything else, or
    # nothing done, as before: the token (401), the game (404), the command.
    played = api_tokens.quick_move_by_token(server, command, token.token)
    if played is None:
        userid = token.owner(server)
        found = game_or_404(game)
        played = execute(server, userid, replace(command, game=found.name, userid=userid))
    else:
        found = game_or_404(game)
    return action_result(request, found, board_id, played)


@router.post(
    "/{game}/boards/{board_id}/preview",
    summary="Preview moves",
    response_model=PreviewResult,
    responses=READ_ERRORS | {409: ERRORS[409]},
)
def preview(
    request: Request, game: GamePath, board_id: BoardId, sent: PreviewRequest
) -> PreviewResult:
    """What moves would do on the board (as it is, or after move `at`),
    played on a copy: nothing is stored and nothing is mailed, and anyone may
    ask. An illegal move is 409, an unreadable one 422, each with the
    reason."""
    view = view_or_404(server_of(request), game_or_404(game), board_id)
    shown = view.shown(sent.at)
    state = view.state(shown)
    names = view.players
    try:
        state = play_moves(state, sent.moves)
    except CommandError as error:
        raise HTTPException(status_for(error.kind), error.message) from None
    played = list(state.moves[shown:])
    return PreviewResult(
        moves=played,
        to_move=None if state.to_move is None else names[state.to_move],
        status_line=state.status_line(),
        result=None if state.result is None else state.result.to_json(),
        position=state.to_json(),
        svg=state.svg_board() if sent.svg else None,
    )


@router.get(
    "/{game}/boards/{board_id}/hint",
    summary="The engine's hint",
    response_model=HintAnswer,
    responses=READ_ERRORS,
)
def hint(request: Request, game: GamePath, board_id: BoardId, token: Token) -> HintAnswer:
    """The answer to the token user's question (`POST .../hint`) about the
    board as it is now: `ready` false while the engine thinks. 404 when they
    asked nothing about this position."""
    server = server_of(request)
    userid = token.owner(server)
    view = view_or_404(server, game_or_404(game), board_id)
    text = server.latest_hint(board_id, userid, view.version)
    if text is None:
        raise HTTPException(
            404, f"You asked no hint about board {board_id} as it is now: POST .../hint asks."
        )
    return HintAnswer(board=board_id, version=view.version, ready=bool(text), text=text)


@router.post(
    "/{game}/boards/{board_id}/{action}",
    summary="Resign, propose a draw, undo, accept, reject, swap, pass, chat, queue or hint",
    response_model=ActionResult,
    responses=ERRORS,
)
def act(
    request: Request,
    game: GamePath,
    board_id: BoardId,
    action: Annotated[Action, Path(description="What to do.")],
    token: Token,
    sent: ActionRequest | None = None,
) -> Response:
    """The board's other commands, each the same as its mail command:

    - `resign`: give up (before your first move, unless you accepted, it
      declines the challenge, unrated; out of turn it waits for your turn);
    - `propose` (or `draw`): propose a draw; `undo`: propose taking back the
      last move; `accept`: vote for every open proposal; `reject`: withdraw
      them all;
    - `swap` (Vacu, Convacu), `pass` (Trugo, Vacu, Convacu): with `number`,
      the #N guard;
    - `chat`: `comment` goes to the other players;
    - `queue`: `move` is played at your next turn, if the opponent's move is
      `if` (when given); `comment` goes with it;
    - `hint` (a board challenged with `hints`): ask the engine for the best
      few moves; its answer is at `GET .../hint` (and mailed to you) within
      seconds.
    """
    server = server_of(request)
    userid = token.owner(server)
    found = game_or_404(game)
    sent = sent or ActionRequest()
    name, comment = found.name, sent.comment
    command: commands.OnBoard
    if action in (Action.swap, Action.pass_):
        guarded: type[commands.Guarded] = commands.Swap if action is Action.swap else commands.Pass
        command = guarded(
            game=name, board=board_id, userid=userid, comment=comment, number=sent.number
        )
    elif action is Action.queue:
        if not sent.move:
            raise HTTPException(422, 'Give the move to queue: {"move": "...", "if": "..."}.')
        command = commands.Queue(
            game=name,
            board=board_id,
            userid=userid,
            comment=comment,
            move=sent.move,
            condition=sent.if_ or "",
        )
    else:
        command = ACTIONS[action](game=name, board=board_id, userid=userid, comment=comment)
    return action_result(request, found, board_id, execute(server, userid, command))


ACTIONS: dict[Action, type[commands.OnBoard]] = {
    Action.resign: commands.Resign,
    Action.propose: commands.Propose,
    Action.draw: commands.Propose,
    Action.undo: commands.Undo,
    Action.accept: commands.Accept,
    Action.reject: commands.Reject,
    Action.chat: commands.Chat,
    Action.hint: commands.Hint,
}


@router.api_route(
    "/{rest:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False
)
def nowhere(request: Request, rest: str) -> Response:
    """Any other path under /api: a JSON error naming the way to the list
    of operations (405 where the path exists for another method)."""
    scope = dict(request.scope, path=request.url.path)
    methods = sorted(
        {
            method
            for route in router.routes
            if isinstance(route, APIRoute)
            and route.endpoint is not nowhere
            and route.matches(scope)[0] is Match.PARTIAL
            for method in route.methods or ()
        }
    )
    if methods:
        raise HTTPException(
            405,
            f"{request.method} is not allowed on /api/{rest[:100]}: use {', '.join(methods)}.",
            headers={"Allow": ", ".join(methods)},
        )
    raise HTTPException(404, f"The API has no /api/{rest[:100]}: /docs lists its operations.")
