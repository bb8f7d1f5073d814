"""Splut!: the rules, the engine and a 2-4 player learning environment."""

from ._splut import NUM_ACTIONS
from ._splut import Position
from ._splut import Engine
from ._splut import Turn
from ._splut import Line

__all__ = [
    "NUM_ACTIONS",
    "Position",
    "Engine",
    "Turn",
    "Line",
]
