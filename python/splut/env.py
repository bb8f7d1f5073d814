"""Splut! as a PettingZoo AEC environment (2-4 players).

``env(players=2, render_mode=None, reward="place", max_turns=300,
repetitions=3)`` returns
the environment wrapped in PettingZoo's ``OrderEnforcingWrapper``;
``raw_env`` is the class itself. (No ``AssertOutOfBoundsWrapper``: the
environment refuses an id out of range or not legal itself, with a
``ValueError``, and that wrapper cost a third of the steps per second.)

- Agents are the seats' colours in turn order (``red``, ``yellow``,
  ``green``, ``blue``; 2 players: ``red``, ``green``; 3: ``red``,
  ``yellow``, ``green``).
- A turn is 1-3 steps of the same player: ``agent_selection`` stays on the
  mover until its turn ends. Actions are ``Discrete(NUM_ACTIONS)`` step ids
  (``splut_rules`` action.rs); an illegal id raises ``ValueError`` and
  changes nothing.
- Observations are ``{"observation": float32 (28, 9, 9), "action_mask":
  int8 (NUM_ACTIONS,)}``; the mask is all zeros for agents not to move. The
  planes are those of ``splut._splut.EnvGame.observe`` (the board turned to
  the observing agent, seats relative to it).
- Rewards come when an agent's game ends. ``reward="place"``: finishing
  place ``p`` of ``N`` players scores ``1 - 2 (p - 1) / (N - 1)`` (first +1,
  last -1; 3 players +1, 0, -1; 4 players +1, +1/3, -1/3, -1;
  ``place_points``, the rules' own); the first out is last, and no two
  agents go out on the same step, so each has a place of its own. An agent
  gets its points on the step that eliminates it (its place is then known)
  and the winner on the step that ends the game. ``reward="win"``: the
  winner +1, every other agent -1.
- Draws: more than ``max_turns`` turns, or a position (pieces, rocks, side
  to move, steps left, levitation state) reached ``repetitions`` times
  after steps (0: never), truncates every agent left. The agents left
  share the first place, as a tournament places them: with
  ``reward="place"`` each gets the mean of the points of the places they
  span (0 when no one is out yet), with ``reward="win"`` 0.
- An eliminated agent is terminated and, following PettingZoo's dead-step
  protocol, is selected next and must step with ``None`` to leave
  ``agents``; play then continues with the side to move.

Every decision is the native module's: ``EnvGame.step_outcome`` judges the
step as tournaments judge games (the match's judge, the rules' places) and
returns each seat's reward, termination and truncation; this module only
arranges them into PettingZoo's dicts.
"""

from __future__ import annotations

import operator

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

# place_points(players, place): the reward for finishing ``place`` (1 =
# first) of ``players``, +1 ... -1; the rules' own
# (``splut_rules::place_points``), re-exported here.
from ._splut import NUM_ACTIONS, OBS_PLANES, EnvGame, place_points

__all__ = ["env", "raw_env", "place_points", "OBS_SHAPE"]

OBS_SHAPE = (OBS_PLANES, 9, 9)


_U32_MAX = 2**32 - 1


def _int_arg(value, name, low, high):
    """``value`` as an int in ``low..high``: a ``TypeError`` for a bool or a
    non-int (a float, NaN, a str), a ``ValueError`` naming the range when
    out of it."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int, not a bool")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None
    if not low <= value <= high:
        raise ValueError(f"{name} must be {low}-{high}, not {value}")
    return value


def env(players=2, render_mode=None, reward="place", max_turns=300, repetitions=3):
    """The Splut! AEC environment in PettingZoo's order-enforcing wrapper
    (ids out of range or not legal are refused by the environment itself)."""
    e = raw_env(
        players=players,
        render_mode=render_mode,
        reward=reward,
        max_turns=max_turns,
        repetitions=repetitions,
    )
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    """Splut! for 2-4 players as a PettingZoo AEC environment (module docs)."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "splut_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, players=2, render_mode=None, reward="place", max_turns=300, repetitions=3
    ):
        super().__init__()
        players = _int_arg(players, "players", 2, 4)
        max_turns = _int_arg(max_turns, "max_turns", 1, _U32_MAX)
        repetitions = _int_arg(repetitions, "repetitions", 0, _U32_MAX)
        if not isinstance(reward, str) or reward not in ("place", "win"):
            raise ValueError(f'reward must be "place" or "win", not {reward!r}')
        if render_mode is not None and (
            not isinstance(render_mode, str) or render_mode not in self.metadata["render_modes"]
        ):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.players = players
        self.render_mode = render_mode
        self.reward_mode = reward
        self.max_turns = max_turns
        self.repetitions = repetitions
        self.game = self._new_game()
        self.possible_agents = list(self.game.seats)
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, OBS_SHAPE, np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._mask = np.zeros(NUM_ACTIONS, np.int8)
        self._no_mask = np.zeros(NUM_ACTIONS, np.int8)
        self.reset()

    def _new_game(self):
        """A game from the start under this environment's rules."""
        return EnvGame(self.players, self.max_turns, self.repetitions, self.reward_mode)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
        self.game = self._new_game()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.game.to_move
        self.game.fill_mask(self._mask)

    def observe(self, agent):
        live = (
            agent == self.agent_selection
            and agent in self.terminations
            and not (self.terminations[agent] or self.truncations[agent])
        )
        return {
            "observation": self.game.observe(agent),
            "action_mask": self._mask.copy() if live else self._no_mask.copy(),
        }

    def action_mask(self, agent=None):
        """The current int8 mask of the agent (default: the one to move)."""
        return self.observe(agent or self.agent_selection)["action_mask"]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for dead agents")
        # Any int (numpy ints too); a bool, float or complex is a TypeError, an
        # illegal id a ValueError: nothing changed.
        rewards, terminations, truncations = self.game.step_outcome(action)
        self._cumulative_rewards[agent] = 0.0
        # By colour, for the seats in the game before this step: at a live
        # step (dead agents step first), exactly the agents.
        self.rewards.update(rewards)
        self.terminations.update(terminations)
        self.truncations.update(truncations)
        if not self.game.is_over:
            self.agent_selection = self.game.to_move
        self.game.fill_mask(self._mask)
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode (human or ansi)")
            return None
        text = self.game.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
