"""Where a board is in its life, how it ended, and what a subscription asks
for: stored as their values (`active`, `resignation`, ...), compared as
enums everywhere else."""

from __future__ import annotations

from enum import StrEnum


class BoardStatus(StrEnum):
    ACTIVE = "active"  # being played
    FINISHED = "finished"  # over, in the lists of recent results
    ARCHIVED = "archived"  # over for a while (the periodic job moves it)

    @property
    def over(self) -> bool:
        return self is not BoardStatus.ACTIVE


class Ending(StrEnum):
    """How a board ended (its result's prose says it for people)."""

    RULES = "rules"  # a move ended it, by the game's own rules
    RESIGNATION = "resignation"
    DECLINED = "declined"  # resigned before moving: the challenge declined, not rated
    AGREED_DRAW = "agreed draw"
    STANDING_DRAW = "standing draw"  # a draw proposal unanswered until the forfeit time
    FORFEIT = "forfeit"  # no move within the forfeit time
    OUT_OF_TIME = "out of time"  # the whole game's time used up
    UNANSWERED = "unanswered"  # the challenge never taken up in time, not rated

    @property
    def rated(self) -> bool:
        return self not in (Ending.DECLINED, Ending.UNANSWERED)


class SubscriptionKind(StrEnum):
    """What a `Subscription` row asks for."""

    BOARD = "board"  # copies of one board's mails
    ALL = "all"  # copies of the mails of every board of the game started from now
    NEW_BOARDS = "notify"  # a mail for each new board (`newboards`; stored under its old name)
    OVER = "over"  # a mail when this board ends (pbmserv's `notify BOARD`)
    EVERY_OVER = "overall"  # a mail when any board of the game ends (`notify`)
