"""The bots' side of the server: which boards wait for a bot, a lease so
that one worker at a time thinks about a board, and the commands a bot
sends once it has decided; and the hints players asked (hints.py), which a
bot worker claims and answers the same way.

A bot is a user with a `bot_level`. It never thinks inside a command: the
bot worker (`bots/`) asks `waiting` what to do, `claim`s a board, searches
in a process of its own, and plays what it found with `play`, as a typed
command the server runs for it like any player's (with the `#N` guard, so a
board that moved meanwhile refuses it and nothing is played twice).

What a bot does, besides moving: it accepts every challenge when it is
made (`board_commands.challenge`); it answers a draw offer after a short
search (taking the draw when it is behind, `ai.decide.takes_draw`); it
rejects every undo (a bot plays as in a tournament: a move stands); and it
resigns a game it has proven lost.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import and_, delete, exists, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from ..games import get_game
from ..store import Board, BoardPlayer, BoardStatus, BotLease, HintRequest, User, Vote
from ..store.boards import rebuild
from ..store.database import rows_changed
from .boards.hints import Suggestion, hint_text
from .language.commands import Accept, Move, Reject, Resign
from .language.messages import Reply, queue_messages
from .mailing.footers import with_footers
from .players.accounts import main_address
from .service import Server

log = logging.getLogger("pbem.bots")

MOVE, DRAW, UNDO = "move", "draw", "undo"  # what a bot is asked to do


@dataclass(frozen=True)
class BotTurn:
    """A board waiting for a bot: to move (`MOVE`), or to answer a draw
    offer (`DRAW`) or an undo proposal (`UNDO`), at the board's `version`."""

    task: str
    board: int
    game: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    version: int
    seat: int
    bot: str  # its userid
    level: str


def waiting(server: Server, limit: int = 20) -> list[BotTurn]:
    """Boards waiting for a bot that no worker holds a live lease on:
    answers to proposals before moves (nobody moves while a proposal is
    open), and within each, the people served in turn: every person's
    longest-waiting board first (the longest waiting of them first), then
    every person's second, and so on. So one person's twenty boards delay
    another's by one search, not twenty (issue 50). The look walks the
    bots' waiting boards alone (by their index), as many as people may
    have (runners/board_commands.py's BOT_BOARDS each)."""
    now = server.clock()
    seat = aliased(BoardPlayer)
    human = aliased(BoardPlayer)
    person = aliased(User)
    leased = exists().where(BotLease.board_id == Board.id, BotLease.expires_at > now)
    # The person the bot plays against (the lowest id when there are several).
    owner = (
        select(func.min(human.user_id))
        .join(person, person.id == human.user_id)
        .where(human.board_id == Board.id, person.bot_level.is_(None))
        .scalar_subquery()
    )
    turns: list[BotTurn] = []
    with server.reads() as session:
        for task in (DRAW, UNDO, MOVE):
            query = (
                select(Board.id, seat.seat, User.userid, User.bot_level, owner)
                .join(seat, seat.board_id == Board.id)
                .join(User, User.id == seat.user_id)
                .where(
                    Board.with_bot,  # (its index holds the bots' boards alone)
                    Board.status == BoardStatus.ACTIVE,
                    User.bot_level.is_not(None),
                    ~leased,
                )
                .order_by(Board.updated_at, Board.id)
            )
            if task == MOVE:
                query = query.where(
                    Board.to_move == seat.seat, ~exists().where(Vote.board_id == Board.id)
                )
            else:
                query = query.where(
                    exists().where(Vote.board_id == Board.id, Vote.kind == task),
                    ~exists().where(
                        and_(Vote.board_id == Board.id, Vote.kind == task, Vote.seat == seat.seat)
                    ),
                )
            served: dict[int | None, int] = {}  # boards of each person before this one
            ranked = []
            for order, (board_id, seat_number, userid, level, person_id) in enumerate(
                session.execute(query)
            ):
                rank = served.get(person_id, 0)
                served[person_id] = rank + 1
                ranked.append((rank, order, board_id, seat_number, userid, level))
            chosen = sorted(ranked)[: limit - len(turns)]
            boards = {
                board.id: board
                for board in session.scalars(
                    select(Board).where(Board.id.in_([row[2] for row in chosen]))
                )
            }
            for _, _, board_id, seat_number, userid, level in chosen:
                board = boards[board_id]
                turns.append(
                    BotTurn(
                        task,
                        board.id,
                        board.game,
                        dict(board.options),
                        tuple(board.snapshot["moves"]),
                        board.version,
                        seat_number,
                        userid,
                        level or "",  # never None: the query asks for bots
                    )
                )
            if len(turns) >= limit:
                break
    return turns


def claim(server: Server, turn: BotTurn, holder: str, seconds: float) -> bool:
    """Take the board for `seconds` for the worker `holder`; False when
    another worker holds it (a lease that ran out is taken over: its worker
    died or hung)."""
    now = server.clock()
    try:
        with server.sessions.begin() as session:
            session.execute(
                delete(BotLease).where(BotLease.board_id == turn.board, BotLease.expires_at <= now)
            )
            session.add(
                BotLease(
                    board_id=turn.board,
                    version=turn.version,
                    holder=holder,
                    expires_at=now + timedelta(seconds=seconds),
                )
            )
    except IntegrityError:
        return False
    return True


def release(server: Server, turn: BotTurn, holder: str) -> None:
    """Give the board back (the worker is done with it, or gave up)."""
    with server.sessions.begin() as session:
        session.execute(
            delete(BotLease).where(BotLease.board_id == turn.board, BotLease.holder == holder)
        )


def play(server: Server, turn: BotTurn, move: str) -> str | None:
    """Play the bot's move, guarded by the version it thought about; the
    refusal's text when the board moved on meanwhile (or the move is
    refused), else None."""
    command = Move(
        game=turn.game, board=turn.board, userid=turn.bot, move=move, number=turn.version + 1
    )
    return _run(server, turn, command)


def resign(server: Server, turn: BotTurn) -> str | None:
    """The bot gives up a game it has proven lost."""
    command = Resign(
        game=turn.game,
        board=turn.board,
        userid=turn.bot,
        comment="I have worked out that I cannot win this game: well played.",
    )
    return _run(server, turn, command)


# Why a bot says no, passed on with its answer as a player's comment would be.
REFUSALS = {
    UNDO: "I take no move back: as in a tournament, a move played stands.",
    DRAW: "My search does not see this game as a draw yet, so I play on.",
}


def answer(server: Server, turn: BotTurn, yes: bool) -> str | None:
    """Accept or reject what is proposed on the board (a refusal says why)."""
    if yes:
        return _run(server, turn, Accept(game=turn.game, board=turn.board, userid=turn.bot))
    reason = REFUSALS.get(turn.task, "")
    command = Reject(game=turn.game, board=turn.board, userid=turn.bot, comment=reason)
    return _run(server, turn, command)


def _run(server: Server, turn: BotTurn, command: Accept | Reject | Move | Resign) -> str | None:
    outcome = server.execute(command, as_user=turn.bot)
    if outcome.error is not None:
        log.info("bot %s on board %d: %s", turn.bot, turn.board, outcome.error)
    return outcome.error


# Hints: questions a player asked the engine (hints.py), answered by a bot worker.


@dataclass(frozen=True)
class HintTurn:
    """A question waiting for the engine: the board's record up to it."""

    id: int
    board: int
    game: str
    options: dict[str, object]
    moves: tuple[str, ...]


def open_hints(server: Server, limit: int = 10) -> list[HintTurn]:
    """Questions not answered and not being worked on, the askers served in
    turn: everyone's oldest question first (the oldest of them first), then
    everyone's second, and so on."""
    now = server.clock()
    ranked = (
        select(
            HintRequest.id.label("id"),
            func.row_number()
            .over(partition_by=HintRequest.user_id, order_by=HintRequest.id)
            .label("turn"),
        )
        .where(
            HintRequest.answered_at.is_(None),
            or_(HintRequest.claimed_until.is_(None), HintRequest.claimed_until <= now),
        )
        .subquery()
    )
    with server.reads() as session:
        rows = session.execute(
            select(HintRequest, Board)
            .join(ranked, ranked.c.id == HintRequest.id)
            .join(Board, Board.id == HintRequest.board_id)
            .order_by(ranked.c.turn, HintRequest.id)
            .limit(limit)
        ).all()
        return [
            HintTurn(
                request.id,
                board.id,
                board.game,
                dict(board.options),
                tuple(board.snapshot["moves"][: request.version]),
            )
            for request, board in rows
        ]


def claim_hint(server: Server, turn: HintTurn, seconds: float) -> bool:
    """Take the question for `seconds`; False when another worker has it."""
    now = server.clock()
    with server.sessions.begin() as session:
        taken = session.execute(
            update(HintRequest)
            .where(
                HintRequest.id == turn.id,
                HintRequest.answered_at.is_(None),
                or_(HintRequest.claimed_until.is_(None), HintRequest.claimed_until <= now),
            )
            .values(claimed_until=now + timedelta(seconds=seconds))
        )
        return rows_changed(taken) == 1


def answer_hint(
    server: Server, turn: HintTurn, suggestions: Sequence[Suggestion], playouts: int
) -> None:
    """Keep the answer and mail it to the asker (unless their mail is off)."""
    now = server.clock()
    with server.sessions.begin() as session:
        request = session.get_one(HintRequest, turn.id)
        if request.answered_at is not None:
            return  # another worker answered first
        board = session.get_one(Board, turn.board)
        user = session.get_one(User, request.user_id)
        state = rebuild(board, request.version)
        text = hint_text(board.id, request.version, state.status_line(), suggestions, playouts)
        request.answer = text
        request.answered_at = now
        address = main_address(user)
        if address is not None and user.mail_preference != "none":
            reply = Reply()
            reply.send(address, f"{get_game(board.game).title} Board {board.id} hint", text)
            queue_messages(session, with_footers(session, reply.messages), now, None)
