"""Vasco: the rules engine, its notation and its boards."""

from .game import VascoGame
from .state import VascoMove, VascoState

__all__ = ["VascoGame", "VascoMove", "VascoState"]
