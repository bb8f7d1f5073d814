"""Splut!: the rules, the engine and a 2-4 player learning environment."""

from ._splut import NUM_ACTIONS
from ._splut import SplutError
from ._splut import Position
from ._splut import Engine
from ._splut import Turn
from ._splut import Line
from ._splut import EnvGame
from ._splut import Batch
from ._splut import OBS_PLANES

try:
    # The PettingZoo environment needs the extra `env` (pettingzoo, gymnasium).
    from .env import env, raw_env
except ImportError as _missing:  # pragma: no cover - depends on the install
    _reason = str(_missing)

    def env(*args, **kwargs):
        """The PettingZoo environment: needs `pip install "./python[env]"`."""
        raise ImportError(f"splut.env needs pettingzoo and gymnasium ({_reason})")

    raw_env = env

__all__ = [
    "NUM_ACTIONS",
    "SplutError",
    "Position",
    "Engine",
    "Turn",
    "Line",
    "EnvGame",
    "Batch",
    "OBS_PLANES",
    "env",
    "raw_env",
]
