"""Vacu and Convacu: one rules engine, its notation and its boards."""

from .game import ConvacuGame, VacuGame
from .state import VacuMove, VacuState

__all__ = ["ConvacuGame", "VacuGame", "VacuMove", "VacuState"]
