"""Trugo: the rules engine, its notation and its boards."""

from .game import TrugoGame
from .state import TrugoMove, TrugoState

__all__ = ["TrugoGame", "TrugoMove", "TrugoState"]
