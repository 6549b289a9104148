"""The JSON API's open challenges: list them, post one, take one (the board
starts), withdraw one's own. The same commands as `GAME games open`,
`GAME open`, `GAME take` and `GAME withdraw` by mail."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from ..server import Listed, commands
from .actions import dashed, server_of
from .api import ERRORS, READ_ERRORS, GamePath, Token, action_result, execute
from .api_models import ActionResult, OpenChallengeOut, OpenChallengeRequest
from .found import OfferId, game_or_404

router = APIRouter(prefix="/api", tags=["api"])


def shown(item: Listed) -> OpenChallengeOut:
    return OpenChallengeOut(
        id=item.id,
        game=item.game,
        poster=item.poster,
        options=item.options.split(),
        rated=not item.unrated,
        min_rating=item.min_rating,
        max_rating=item.max_rating,
        hints=item.hints,
        comment=item.comment,
        created_at=item.created_at,
        expires_at=item.expires_at,
    )


@router.get(
    "/{game}/open",
    summary="The open challenges",
    response_model=list[OpenChallengeOut],
    responses=READ_ERRORS,
)
def open_list(request: Request, game: GamePath) -> list[OpenChallengeOut]:
    """The game's open challenges, oldest first: neither taken, withdrawn
    nor expired. Anyone may read them; taking one needs a token."""
    found = game_or_404(game)
    server = server_of(request)
    return [shown(item) for item in server.read.open_challenges(found.name)]


@router.post(
    "/{game}/open",
    summary="Post an open challenge",
    status_code=201,
    response_model=OpenChallengeOut,
    responses=ERRORS,
)
def post_open(
    request: Request, game: GamePath, token: Token, sent: OpenChallengeRequest
) -> OpenChallengeOut:
    """A challenge to anyone (`GAME open`): the first player to take it,
    within the rating range if one is set, gets a board against the token's
    user, who moves first. It expires after `days`."""
    server = server_of(request)
    userid = token.owner(server)
    found = game_or_404(game)
    command = commands.PostOpen(
        game=found.name,
        userid=userid,
        options=dashed(sent.options),
        unrated=not sent.rated,
        min_rating=sent.min_rating,
        max_rating=sent.max_rating,
        days=sent.days,
        nag_days=sent.nagtime,
        forfeit_days=sent.forfeittime,
        total_days=sent.totaltime,
        hints=sent.hints,
        comment=sent.comment,
    )
    execute(server, userid, command)
    mine = [
        item
        for item in server.read.open_challenges(found.name)
        if item.poster.lower() == userid.lower()
    ]
    return shown(max(mine, key=lambda item: item.id))


@router.post(
    "/{game}/open/{number}/take",
    summary="Take an open challenge",
    status_code=201,
    response_model=ActionResult,
    responses=ERRORS,
)
def take(request: Request, game: GamePath, number: OfferId, token: Token) -> Response:
    """Take open challenge `number` (`GAME take`): its board starts at once,
    its poster first and the token's user second. Refused (409) when it was
    taken, withdrawn or has expired, or the user's rating is outside its
    range. Returns the new board."""
    server = server_of(request)
    userid = token.owner(server)
    found = game_or_404(game)
    command = commands.TakeOpen(game=found.name, number=number, userid=userid)
    done = execute(server, userid, command)
    assert done.board is not None  # a take that ran made its board
    return action_result(request, found, done.board, done, status=201)


@router.delete(
    "/{game}/open/{number}",
    summary="Withdraw an open challenge",
    status_code=204,
    responses=ERRORS,
)
def withdraw(request: Request, game: GamePath, number: OfferId, token: Token) -> Response:
    """Withdraw the token user's own open challenge `number` (`GAME withdraw`)."""
    server = server_of(request)
    userid = token.owner(server)
    found = game_or_404(game)
    command = commands.WithdrawOpen(game=found.name, number=number, userid=userid)
    execute(server, userid, command)
    return Response(status_code=204)
