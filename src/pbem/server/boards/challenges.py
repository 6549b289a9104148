"""Answering challenges: `GAME accept USERID PASSWORD` and `GAME reject
USERID PASSWORD` (no board number) take or decline every open challenge of
that game at once, and, as pbmserv's did, stand for the future: after
`reject` the player takes no new challenge of the game until `accept`.

A challenge starts its board at once; it is open for a player until they
move on it or accept it. The challenger chose the board and a bot takes
every challenge: their seats are accepted from the start (`start_board`).
Declining ends the board unrated. Accepting keeps it going and means a later
resignation counts like any other.
"""

from __future__ import annotations

from ...games.base import Game
from ...store import Board, User
from ...store.boards import boards_of, players_of, rebuild
from ..context import Context, login, seat_of
from ..language import commands
from ..language.registry import runs
from ..mailing.board_mail import quoted, starred
from ..players.accounts import main_address
from ..players.ratings import rating_row
from .lifecycle import can_decline, end_by_resignation


def open_challenges(ctx: Context, game: Game, user: User) -> list[tuple[Board, int]]:
    """The user's active boards of this game they could still decline, with their seat."""
    found = []
    for board in boards_of(ctx.session, user.id, game=game.name, active=True):
        seat = seat_of(board, user)
        if can_decline(board, seat):
            found.append((board, seat))
    return found


@runs(commands.AnswerChallenges)
def answer_all(ctx: Context, game: Game, command: commands.AnswerChallenges) -> None:
    """Accept, or decline, every open challenge of the game."""
    if command.accept:
        accept_all(ctx, game, command)
    else:
        reject_all(ctx, game, command)


def accept_all(ctx: Context, game: Game, command: commands.AnswerChallenges) -> None:
    user = login(ctx, command.userid, command.password)
    row = rating_row(ctx.session, user.id, game.name)
    lifted = "" if row.limit is None else f" (your limit of {row.limit} is lifted, as on pbmserv)"
    row.rejects, row.limit = False, None  # as `limit ... accept`: challenges taken again
    boards = open_challenges(ctx, game, user)
    for board, seat in boards:
        board.players[seat].accepted = True
        for player in board.players:
            if player.seat != seat:
                ctx.reply.send(
                    main_address(player.user),
                    starred(
                        f"{game.title} Board {board.id} accepted by {user.userid}",
                        command.comment,
                    ),
                    f"{user.userid} accepts the challenge on board {board.id} "
                    f"({' vs '.join(players_of(board))}).\n" + quoted(command.comment, user.userid),
                )
    taken = (
        f"You accept the {game.title} {on_boards(boards)}. Resigning now counts as a loss, "
        "no longer as declining. "
        if boards
        else f"You have no open {game.title} challenge. "
    )
    ctx.reply.send(
        main_address(user),
        f"{game.title} challenges accepted by {user.userid}",
        taken + f"You take new challenges of the game{lifted}.\n",
    )


def reject_all(ctx: Context, game: Game, command: commands.AnswerChallenges) -> None:
    user = login(ctx, command.userid, command.password)
    rating_row(ctx.session, user.id, game.name).rejects = True
    boards = open_challenges(ctx, game, user)
    for board, seat in boards:
        end_by_resignation(ctx, board, rebuild(board), seat, command.comment)
    declined = f"You declined the {game.title} {on_boards(boards)}. " if boards else ""
    ctx.reply.send(
        main_address(user),
        f"{game.title} challenges rejected by {user.userid}",
        f"{declined}You take no new {game.title} challenges until you send "
        f"'{game.name} accept {user.userid} PASSWORD'.\n",
    )


def on_boards(boards: list[tuple[Board, int]]) -> str:
    """'challenge on board 3', 'challenges on boards 3, 5'."""
    numbers = ", ".join(str(board.id) for board, _ in boards)
    return (
        f"challenge on board {numbers}" if len(boards) == 1 else f"challenges on boards {numbers}"
    )
