"""The JSON API's request and response bodies (pydantic models), so the
OpenAPI at /docs documents every field."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class ErrorBody(BaseModel):
    """Every error: what was wrong and how to do it instead."""

    error: str = Field(description="The reason, for people (the command layer's message).")


class MailOut(BaseModel):
    """A mail the command sent you (it is also in the outbox, for delivery);
    mails to other players are never shown."""

    to: list[str]
    subject: str
    body: str


class SideInfo(BaseModel):
    name: str
    letter: str
    colour: str


class OptionInfo(BaseModel):
    """A game option: `-name` for a flag, `-name=N` for a number."""

    name: str
    kind: Literal["flag", "number"]
    default: bool | int | None = Field(description="None: off unless given.")
    help: str
    minimum: int | None = None
    maximum: int | None = None


class GameInfo(BaseModel):
    """A game the server hosts."""

    name: str = Field(description="The name in commands and URLs: vasco.")
    title: str
    players: int = Field(description="How many players a board has.")
    sides: list[SideInfo] = Field(description="The seats, in order: seat 0 moves first.")
    options: list[OptionInfo]
    can_pass: bool
    can_undo: bool
    swap_move: str | None = Field(description="The move the swap action plays, if any.")


class BoardSummary(BaseModel):
    """A board in a list."""

    id: int
    game: str
    players: list[str] = Field(description="Userids, by seat.")
    move: int = Field(
        description="The number of the next move (the #N a move names); on a finished "
        "board, of its last move."
    )
    status: str = Field(
        description="'alice to move', or how the game ended, the winner first: "
        "'alice won: closed a loop of 6 tiles', 'Drawn by agreement'."
    )
    to_move: str | None = Field(description="The userid of the player to move, if active.")
    options: str = Field(description="The options that differ from the defaults.")
    finished: bool
    updated_at: datetime


class BoardList(BaseModel):
    show: str
    boards: list[BoardSummary]


class SeatInfo(BaseModel):
    seat: int
    userid: str
    side: str = Field(description="The side's name and letter: 'Red (O)'.")


class MoveInfo(BaseModel):
    """One move of the record."""

    number: int
    seat: int
    player: str = Field(description="The userid of who played it.")
    move: str = Field(description="The canonical text.")
    note: str = Field(description="What the rules did with it (auto tiles, a lost turn).")
    comment: str
    auto: bool = Field(description="Played by the server (a queued move).")
    played_at: datetime


class ResultInfo(BaseModel):
    winner: int | None = Field(description="The winner's seat; None for a draw.")
    winner_userid: str | None
    reason: str
    ending: str = Field(
        description="How it ended: rules (a move ended it, by the game's rules), resignation, "
        "declined (not rated), agreed draw, standing draw (a draw proposal unanswered until "
        "the forfeit time), forfeit, out of time, or unanswered (a challenge nobody took up, "
        "not rated)."
    )


class ClockInfo(BaseModel):
    """A player's clock on a board with a total time (`--totaltime`)."""

    seat: int
    userid: str
    used_seconds: int = Field(
        description="The time the player has used, in whole seconds: their moves' time, and "
        "while the board is played and they are to move, their wait until the request."
    )
    left_seconds: int = Field(
        description="timing.total_days less the time used, in whole seconds (never below 0)."
    )


class BoardDetail(BaseModel):
    """A board: its players, state, record and position."""

    id: int
    game: str
    title: str
    players: list[SeatInfo]
    status: str = Field(description="active, finished or archived.")
    to_move: str | None = Field(description="The userid of the player to move now.")
    version: int = Field(description="How many moves the board has.")
    next_move: int = Field(description="version + 1: the #N guard of the next move.")
    result: ResultInfo | None = Field(description="How the board ended, once it did.")
    options: dict[str, Any] = Field(description="Every option, defaults filled in.")
    timing: dict[str, int | None] = Field(description="nag_days, forfeit_days, total_days.")
    proposals: dict[str, list[str]] = Field(
        description="Open proposals (draw, undo) and who voted for them."
    )
    moves: list[MoveInfo]
    shown: int = Field(description="The position below is after this many moves (`at`).")
    status_line: str = Field(description="Whose move it is or how it ended, at `shown`.")
    position: dict[str, Any] = Field(
        description="The game state as JSON at `shown` (game, options, moves, to_move as a "
        "seat, result, legal_moves, and the game's own position)."
    )
    created_at: datetime
    updated_at: datetime
    clocks: list[ClockInfo] = Field(
        [],
        description="On a board with a total time (timing.total_days), each seat's time used "
        "and left, by seat: as of the request while the board is played (the wait of the "
        "player to move counts as theirs), as at its end once it is over (the wait of the "
        "player to move when it ended counted as theirs). Empty without a total time.",
    )


class StandingInfo(BaseModel):
    rank: int
    userid: str
    rating: float
    games: int
    wins: int
    losses: int
    draws: int
    active: int = Field(description="Active boards of the game.")
    limit: int | None
    seeking: int


class StandingSection(BaseModel):
    name: str = Field(description="Established, Provisional or Inactive.")
    players: list[StandingInfo]
    more: bool = Field(
        description="More players follow: ask again with section=NAME and start=the next rank - 1."
    )


class Standings(BaseModel):
    game: str
    sections: list[StandingSection]


class RatingInfo(BaseModel):
    game: str
    rating: float
    games: int
    wins: int
    losses: int
    draws: int
    limit: int | None
    seeking: int


class PlayerInfo(BaseModel):
    userid: str
    vacation: bool
    signed_off: bool
    ratings: list[RatingInfo]
    active: list[BoardSummary]
    awaiting: list[BoardSummary] = Field(description="Active boards waiting for their move.")
    finished: list[BoardSummary]


class Me(BaseModel):
    """The account the token belongs to."""

    userid: str
    addresses: list[str]
    mail_preference: str
    vacation: bool


class ActionResult(BaseModel):
    """A command that was done: the board after it, and the mails it sent."""

    ok: Literal[True] = True
    board: BoardDetail
    messages: list[MailOut]


class CommandResult(BaseModel):
    ok: Literal[True] = True
    messages: list[MailOut]


class PreviewResult(BaseModel):
    """The board after the previewed moves; nothing was stored or mailed."""

    moves: list[str] = Field(description="The previewed moves, in canonical text.")
    to_move: str | None = Field(description="The userid of the player to move after them.")
    status_line: str
    result: dict[str, Any] | None
    position: dict[str, Any]
    svg: str | None = Field(None, description="The SVG picture, when asked for.")


_WORD = r"^[^\s#]+$"


class ChallengeRequest(BaseModel):
    first: str = Field(pattern=r"^\S+$", description="The userid in the first seat.")
    second: str = Field(pattern=r"^\S+$", description="The userid in the second seat.")
    options: list[Annotated[str, Field(pattern=r"^\S+$")]] = Field(
        default_factory=list,
        max_length=20,
        description="The game's options, like ['-size=30', '-strict'] (the '-' may be left out).",
    )
    nagtime: int | None = Field(None, ge=1, le=365, description="Days before reminders (7).")
    forfeittime: int | None = Field(None, ge=1, le=365, description="Days before a forfeit (21).")
    totaltime: int | None = Field(None, ge=1, le=365, description="Each player's total days.")
    hints: bool = Field(
        False, description="Either player may ask the engine for hints (`GAME hint`)."
    )
    rated: bool = Field(True, description="False: a friendly game, never in the ratings.")

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"first": "alice", "second": "bob", "options": []}]}
    )


class HintAnswer(BaseModel):
    """The engine's answer to the token user's latest question on a board."""

    board: int
    version: int = Field(description="The move the hint is for: the position after it.")
    ready: bool = Field(description="False while the engine is still thinking.")
    text: str = Field(description="The hint as the mail says it (empty while not ready).")


class MoveRequest(BaseModel):
    move: str = Field(
        pattern=_WORD, max_length=64, description="The move in any notation the game reads."
    )
    number: int | None = Field(
        None,
        ge=1,
        description="The move's number (the board's next_move): refused as stale otherwise.",
    )
    comment: str = Field("", max_length=100_000, description="Goes to the other players.")

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"move": "a0,0", "number": 1, "comment": "Hi!"}]}
    )


class PreviewRequest(BaseModel):
    moves: list[Annotated[str, Field(pattern=_WORD, max_length=64)]] = Field(
        max_length=500, description="Moves to play one after the other, from `at`."
    )
    at: int | None = Field(None, ge=0, description="Start after this many moves (default: now).")
    svg: bool = Field(False, description="Also return the SVG picture.")


class Action(StrEnum):
    resign = "resign"
    propose = "propose"
    draw = "draw"
    undo = "undo"
    accept = "accept"
    reject = "reject"
    swap = "swap"
    pass_ = "pass"
    chat = "chat"
    queue = "queue"
    hint = "hint"


class ActionRequest(BaseModel):
    """What the action needs: a comment (chat needs one; with queue it
    goes with the move), the #N guard (pass, swap), the move to queue and
    the opponent's move it answers."""

    comment: str = Field("", max_length=100_000)
    number: int | None = Field(None, ge=1, description="The #N guard, for pass and swap.")
    move: str | None = Field(None, pattern=_WORD, max_length=64, description="For queue.")
    if_: str | None = Field(
        None,
        alias="if",
        pattern=_WORD,
        max_length=64,
        description="For queue: play the move only if the opponent's move is this one.",
    )

    model_config = ConfigDict(populate_by_name=True)


class CommandRequest(BaseModel):
    command: str = Field(
        min_length=1,
        max_length=1000,
        description="A command line as a mail's Subject, with '-' for the password.",
    )
    body: str = Field("", max_length=100_000, description="As a mail's body.")

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"command": "vasco subscribe alice - 12", "body": ""},
                {"command": "mail alice - digest", "body": ""},
            ]
        }
    )


class OpenChallengeOut(BaseModel):
    """An open challenge: anyone within its rating range may take it."""

    id: int
    game: str
    poster: str = Field(description="Who posted it; they move first on the board.")
    options: list[str]
    rated: bool
    min_rating: int | None = Field(description="The lowest rating that may take it (None: any).")
    max_rating: int | None = Field(description="The highest rating that may take it (None: any).")
    hints: bool
    comment: str
    created_at: datetime
    expires_at: datetime


class OpenChallengeRequest(BaseModel):
    options: list[Annotated[str, Field(pattern=r"^\S+$")]] = Field(
        default_factory=list,
        max_length=20,
        description="The game's options, like ['-size=30'] (the '-' may be left out).",
    )
    rated: bool = Field(True, description="False: a friendly game, never in the ratings.")
    min_rating: int | None = Field(None, ge=0, le=9999, description="The lowest rating welcome.")
    max_rating: int | None = Field(None, ge=0, le=9999, description="The highest rating welcome.")
    days: int | None = Field(None, ge=1, le=60, description="Days until it expires (7).")
    nagtime: int | None = Field(None, ge=1, le=365, description="Days before reminders (7).")
    forfeittime: int | None = Field(None, ge=1, le=365, description="Days before a forfeit (21).")
    totaltime: int | None = Field(None, ge=1, le=365, description="Each player's total days.")
    hints: bool = Field(False, description="Either player may ask the engine for hints.")
    comment: str = Field("", max_length=500, description="A word for whoever takes it.")

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"options": ["-size=30"], "min_rating": 1400}]}
    )
