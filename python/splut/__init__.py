"""Splut!: the rules, the engine and a 2-4 player learning environment."""

from ._splut import NUM_ACTIONS

__all__ = ["NUM_ACTIONS"]
