"""The PettingZoo environment (splut.env) and EnvGame."""

import numpy as np
import pytest
from pettingzoo.test import api_test

from splut._splut import NUM_ACTIONS, EnvGame, Position
from splut._splut import place_points as rules_place_points
from splut.env import env, place_points, raw_env


@pytest.mark.parametrize("players", [2, 3, 4])
def test_api(players):
    api_test(env(players=players), num_cycles=2000)


def play_random(e, rng, limit=100_000):
    """Plays random legal actions to the end; returns the agents' totals."""
    totals = {a: 0.0 for a in e.possible_agents}
    n = 0
    for agent in e.agent_iter(limit):
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        n += 1
    return totals, n


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mask_equals_legal_steps(players):
    e = raw_env(players=players)
    pos = Position(players)
    rng = np.random.default_rng(players)
    for _ in range(300):
        if not e.agents:
            break
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
            continue
        mask = e.observe(agent)["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
        ids = sorted(pos.legal_actions())
        assert list(np.flatnonzero(mask)) == ids
        assert sorted(e.game.legal_actions()) == ids
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        a = int(rng.choice(ids))
        e.step(a)
        pos.play_action(a)
        assert pos.spn() == e.game.spn()


def test_mask_against_rules_over_random_games():
    # EnvGame's mask and legal ids agree with each other and with step():
    # every masked id plays, every other id raises.
    rng = np.random.default_rng(1)
    for players in (2, 3, 4):
        g = EnvGame(players)
        mask = np.zeros(NUM_ACTIONS, np.uint8)
        for _ in range(200):
            if g.is_over:
                break
            g.fill_mask(mask)
            ids = np.flatnonzero(mask)
            assert sorted(g.legal_actions()) == list(ids)
            bad = int(rng.integers(NUM_ACTIONS))
            if mask[bad] == 0:
                c = g.copy()
                with pytest.raises(ValueError):
                    c.step(bad)
            g.step(int(rng.choice(ids)))


def test_observation_layout():
    g = EnvGame(2)
    red = g.observe("red")
    green = g.observe("green")
    assert red.shape == (28, 9, 9) and red.dtype == np.float32
    # The board turned to each seat: the 2-player start looks the same.
    assert np.array_equal(red[:16], green[:16])
    # Own sorcerer, dwarf, troll on rank 2 (row 1), files d, e, f.
    assert red[0, 1, 3] == 1 and red[1, 1, 4] == 1 and red[2, 1, 5] == 1
    # The opponent (opposite seat: relative 2) on row 7.
    assert red[6:9, 7].sum() == 3
    assert red[12].sum() == 4  # rocks
    assert red[16].sum() == 41  # the diamond
    assert red[17].all() and not red[18].any()  # 1 step left at the start
    assert red[20].all() and green[22].all()  # red to move: relative 0 / 2
    assert red[24].all() and red[26].all() and not red[25].any()


def test_illegal_action_raises_and_leaves_state():
    e = env(players=3)
    e.reset(seed=0)
    raw = e.unwrapped
    before = (raw.game.spn(), e.agent_selection, dict(e.rewards))
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError):
        e.step(illegal)
    assert (raw.game.spn(), e.agent_selection, dict(e.rewards)) == before
    assert np.array_equal(e.observe(e.agent_selection)["action_mask"], mask)
    with pytest.raises(ValueError):
        raw.step(NUM_ACTIONS + 5)
    assert raw.game.spn() == before[0]


def test_seeded_runs_repeat():
    def run(seed):
        e = env(players=4)
        e.reset(seed=seed)
        trace = []
        for agent in e.agent_iter(3000):
            obs, r, term, trunc, _ = e.last()
            if term or trunc:
                action = None
            else:
                action = e.action_space(agent).sample(obs["action_mask"])
            trace.append((agent, action, r))
            e.step(action)
        return trace, e.unwrapped.game.spn()

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_agents_and_turns():
    e = raw_env(players=4)
    assert e.possible_agents == ["red", "yellow", "green", "blue"]
    assert raw_env(players=2).possible_agents == ["red", "green"]
    assert raw_env(players=3).possible_agents == ["red", "yellow", "green"]
    # The agent stays selected for the steps of its turn: 1, 2, then 3.
    seq = []
    for _ in range(1 + 2 + 3 + 3):
        seq.append(e.agent_selection)
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert seq == ["red", "yellow", "yellow", "green", "green", "green", "blue", "blue", "blue"]


def test_place_points():
    assert [place_points(2, p) for p in (1, 2)] == [1, -1]
    assert [place_points(3, p) for p in (1, 2, 3)] == [1, 0, -1]
    assert np.allclose([place_points(4, p) for p in (1, 2, 3, 4)], [1, 1 / 3, -1 / 3, -1])
    # The rules' own function, shared with the extension.
    assert place_points is rules_place_points
    # A place shared (a draw): the mean place, worth the mean points.
    assert place_points(2, 1.5) == 0.0
    assert place_points(4, 1.5) == pytest.approx((1 + 1 / 3) / 2)
    assert place_points(1, 1) == 1.0
    for players, place in [(0, 1), (5, 1), (2, 0), (2, 2.5), (3, float("nan"))]:
        with pytest.raises(ValueError):
            place_points(players, place)
    with pytest.raises(TypeError):
        place_points(True, 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_position_and_envgame_places_agree(players):
    """Position.places() and EnvGame.places are one answer, the rules'
    (splut_rules::Game::places): the same after every step of random
    games; each seat out has a place of its own (no two go out on one
    step), the first out last."""
    rng = np.random.default_rng(100 + players)
    finished = 0
    for _ in range(6):
        g, p = EnvGame(players), Position(players)
        while not g.is_over and g.ply < 3000:
            action = int(rng.choice(g.legal_actions()))
            gone = g.step(action)
            p.play_action(action)
            assert len(gone) <= 1
            places = p.places()
            assert places == g.places
            assert all(type(v) is int for v in places.values())
            want = {s: players - i for i, s in enumerate(g.eliminations)}
            if g.is_over:
                want[g.winner] = 1
            assert places == want
        finished += g.is_over
        assert sorted(g.places.values()) == list(range(players - len(g.places) + 1, players + 1))
    assert finished >= 3


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("reward", ["place", "win"])
def test_elimination_terminates_and_rewards(players, reward):
    rng = np.random.default_rng(players)
    ended = 0
    for game in range(30):
        e = raw_env(players=players, reward=reward, max_turns=10_000, repetitions=0)
        out_order = []
        totals = {a: 0.0 for a in e.possible_agents}
        for agent in e.agent_iter(200_000):
            obs, r, term, trunc, _ = e.last()
            totals[agent] += r
            assert not trunc
            if term:
                out_order.append(agent)
                assert not obs["action_mask"].any()
                e.step(None)
                assert agent not in e.agents
            else:
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not e.agents
        g = e.game
        assert g.is_over and g.winner is not None
        assert sorted(out_order) == sorted(e.possible_agents)
        assert g.winner not in g.eliminations
        assert len(g.eliminations) == players - 1
        assert totals[g.winner] == 1.0
        places = g.places
        assert set(places) == set(e.possible_agents) and places[g.winner] == 1.0
        if reward == "place":
            assert all(totals[a] == pytest.approx(place_points(players, places[a])) for a in places)
        if reward == "win":
            assert all(totals[a] == -1.0 for a in g.eliminations)
        else:
            assert sorted(totals.values()) == pytest.approx(
                sorted(place_points(players, p) for p in range(1, players + 1))
            )
        ended += 1
    assert ended == 30


def test_truncation():
    e = raw_env(players=2, max_turns=5, repetitions=0)
    rng = np.random.default_rng(0)
    seen = False
    for agent in e.agent_iter(1000):
        obs, r, term, trunc, _ = e.last()
        if trunc:
            seen = True
            assert r == 0
            e.step(None)
        elif term:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen and not e.agents
    assert e.game.turn == 6


def test_render():
    e = env(players=2, render_mode="ansi")
    e.reset()
    text = e.render()
    assert isinstance(text, str) and "r 1 1" in text


def repeating_action(game, rng):
    """Random play almost never repeats a position: after 8 random steps,
    this plays the smallest legal id, a fixed policy that soon goes round
    in a cycle."""
    ids = game.legal_actions()
    if game.ply < 8:
        return int(ids[rng.integers(len(ids))])
    return min(ids)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_threefold_repetition_truncates(players):
    # Counted independently with Position.zobrist: the game is truncated
    # exactly when a position reached after a step occurs the third time.
    rng = np.random.default_rng(10 + players)
    draws = 0
    for _ in range(4):
        e = raw_env(players=players, max_turns=100_000)
        pos = Position(players)
        counts = {}
        truncated = False
        for agent in e.agent_iter(10_000):
            obs, r, term, trunc, _ = e.last()
            if term or trunc:
                truncated |= bool(trunc)
                if trunc:
                    assert counts[pos.zobrist] == 3 and max(counts.values()) == 3
                    assert e.game.reason == "repetition 3"
                    # The agents left share the first place (0 when no one
                    # is out).
                    still_in = players - len(e.game.eliminations)
                    assert r == pytest.approx(place_points(players, (1 + still_in) / 2))
                e.step(None)
                continue
            a = repeating_action(e.game, rng)
            e.step(a)
            pos.play_action(a)
            counts[pos.zobrist] = counts.get(pos.zobrist, 0) + 1
            assert e.game.repetition_count == counts[pos.zobrist] <= 3
        assert not e.agents
        draws += truncated
    assert draws > 0


def test_places():
    g = EnvGame(4)
    rng = np.random.default_rng(3)
    while not g.is_over:
        g.step(int(rng.choice(g.legal_actions())))
        out = g.eliminations
        assert set(g.places) == set(out) | ({g.winner} if g.is_over else set())
    pl = g.places
    assert pl[g.winner] == 1
    assert sorted(pl.values()) == [1, 2, 3, 4]
    # the first out is last, the last out second
    assert pl[g.eliminations[0]] == 4 and pl[g.eliminations[-1]] == 2
