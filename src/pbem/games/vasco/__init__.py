"""Vasco: the rules engine, its notation and its boards."""

from .game import VascoGame
from .move import VascoMove
from .state import VascoState

__all__ = ["VascoGame", "VascoMove", "VascoState"]
