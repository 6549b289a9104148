"""Trugo: the rules engine, its notation and its boards."""

from .game import TrugoGame
from .move import TrugoMove
from .state import TrugoState

__all__ = ["TrugoGame", "TrugoMove", "TrugoState"]
