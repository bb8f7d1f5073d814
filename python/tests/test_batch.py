"""The batch API (splut._splut.Batch)."""

import numpy as np
import pytest

from splut._splut import NUM_ACTIONS, Batch, EnvGame, place_points


def check_masks(b):
    for i in range(len(b)):
        assert list(np.flatnonzero(b.masks[i])) == sorted(b.legal_actions(i))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_masks_equal_legal_actions_after_random_steps(players):
    b = Batch(64, players, seed=3)
    masks = b.masks
    assert masks.shape == (64, NUM_ACTIONS) and masks.dtype == np.uint8
    check_masks(b)
    for k in range(300):
        b.step(b.random_actions())
        assert b.masks is not None and np.shares_memory(b.masks, masks)
        if k % 37 == 0:
            check_masks(b)
            # the same ids as a game replayed from its SPN would give
            assert b.to_move.shape == (64,)
    check_masks(b)


def test_matches_envgame():
    # One game of the batch follows the same steps in an EnvGame.
    b = Batch(4, 3, seed=5, max_turns=10_000)  # threefold repetition on
    g = EnvGame(3)
    draws = 0
    for _ in range(4000):
        acts = b.random_actions()
        over = g.is_over
        assert not over
        g.step(int(acts[0]))
        b.step(acts)
        if b.terminations[0]:
            assert g.is_over
            assert b.winners[0] == ["red", "yellow", "green", "blue"].index(g.winner)
            g = EnvGame(3)
        elif b.truncations[0]:
            assert g.repetition_count == 3 and not g.is_over
            draws += 1
            g = EnvGame(3)
        else:
            assert g.is_over or g.repetition_count < 3
        assert b.spn(0) == g.spn()
        assert b.to_move[0] == g.to_move_index
    obs = b.observations()
    assert obs.shape == (4, 28, 9, 9) and obs.dtype == np.float32
    assert np.array_equal(obs[0], g.observe(g.to_move))


@pytest.mark.parametrize("players,reward", [(2, "place"), (3, "place"), (4, "place"), (4, "win")])
def test_end_rewards_and_reset(players, reward):
    b = Batch(32, players, seed=1, max_turns=100_000, reward=reward, repetitions=0)
    seats = np.flatnonzero(b.masks.any(axis=1) >= 0)  # all games
    ended = 0
    start = b.spn(0)
    for _ in range(20_000):
        b.step(b.random_actions())
        r = b.rewards
        t = b.terminations
        assert not b.truncations.any()
        assert not r[~t].any()
        for i in np.flatnonzero(t):
            ended += 1
            row = r[i]
            w = b.winners[i]
            assert row[w] == 1.0
            in_game = row != 0
            assert in_game.sum() == players or reward == "place" and players == 3
            if reward == "win":
                assert sorted(row[row != 0]) == [-1.0] * (players - 1) + [1.0]
            else:
                assert abs(row.sum()) < 1e-5
            # reset at once: the start again
            assert b.spn(i) == start
            assert list(np.flatnonzero(b.masks[i])) == sorted(b.legal_actions(i))
        if ended >= 40:
            break
    assert ended >= 40
    del seats


def test_truncation_resets():
    b = Batch(8, 2, seed=2, max_turns=4, repetitions=0)
    seen = 0
    for _ in range(40):
        b.step(b.random_actions())
        for i in np.flatnonzero(b.truncations):
            seen += 1
            assert not b.rewards[i].any()
            assert b.spn(i) == Batch(1, 2).spn(0)
    assert seen > 0


def test_illegal_id_raises_naming_game_and_id():
    b = Batch(8, 2, seed=0)
    before = [b.spn(i) for i in range(8)]
    masks = b.masks.copy()
    acts = b.random_actions()
    bad = int(np.flatnonzero(b.masks[5] == 0)[0])
    acts[5] = bad
    with pytest.raises(ValueError, match=f"game 5.*{bad}"):
        b.step(acts)
    acts[5] = NUM_ACTIONS
    with pytest.raises(ValueError, match="game 5"):
        b.step(acts)
    with pytest.raises(ValueError):
        b.step(acts[:3])
    assert [b.spn(i) for i in range(8)] == before
    assert np.array_equal(b.masks, masks)
    b.step(b.random_actions())  # still works; lists work too
    b.step(list(b.random_actions()))


def test_seeded_and_reset():
    def run(seed):
        b = Batch(16, 4, seed=seed)
        for _ in range(200):
            b.step(b.random_actions())
        return [b.spn(i) for i in range(16)]

    assert run(1) == run(1)
    assert run(1) != run(2)
    b = Batch(4, 2)
    for _ in range(10):
        b.step(b.random_actions())
    b.reset()
    assert all(b.spn(i) == Batch(1, 2).spn(0) for i in range(4))
    check_masks(b)


def test_draw_rewards_share_the_first_place():
    # 4 players, repetitions on: a draw's row holds the points of seats
    # already out (negative in "place") and, for the seats still in, who
    # share the first place as a tournament places them, the mean of the
    # points of the places they span (0 when no one is out).
    b = Batch(64, 4, seed=9, max_turns=60)
    rows = []
    for _ in range(3000):
        b.step(b.random_actions())
        for i in np.flatnonzero(b.truncations):
            rows.append(b.rewards[i].copy())
            assert b.winners[i] == -1
        if len(rows) > 50:
            break
    assert rows
    for row in rows:
        out = sorted(row[row < 0])
        still_in = 4 - len(out)
        assert out == pytest.approx(
            [place_points(4, p) for p in range(4, still_in, -1)]
        )
        shared = place_points(4, (1 + still_in) / 2)
        assert sorted(row[row >= 0]) == pytest.approx([shared] * still_in)
        assert abs(row.sum()) < 1e-5
    assert any((row < 0).any() for row in rows)


def test_repetition_draw_in_batch():
    # Steered into repeating positions (as test_env's repeating_action), a
    # game of the batch ends in a draw the step its position occurs a third
    # time, exactly when an EnvGame following the same steps counts 3.
    from test_env import repeating_action

    rng = np.random.default_rng(4)
    b = Batch(2, 2, seed=0, max_turns=100_000)
    g = EnvGame(2)
    draws = 0
    for _ in range(400):
        acts = b.random_actions()
        acts[0] = repeating_action(g, rng)
        g.step(int(acts[0]))
        b.step(acts)
        if b.truncations[0]:
            assert g.repetition_count == 3 and not b.rewards[0].any()
            draws += 1
            g = EnvGame(2)
        elif b.terminations[0]:
            assert g.is_over
            g = EnvGame(2)
        else:
            assert g.repetition_count < 3
        assert b.spn(0) == g.spn()
    assert draws > 0


def test_a_mask_written_by_the_caller_lets_no_illegal_action_through():
    b = Batch(4, 2, seed=5)
    before = [b.spn(i) for i in range(4)]
    b.masks[:] = 1  # the arrays are readable and writable; legality is not theirs
    illegal = next(a for a in range(NUM_ACTIONS) if a not in b.legal_actions(0))
    actions = b.random_actions()
    actions[0] = illegal
    with pytest.raises(ValueError, match=f"game 0: action {illegal} is not legal"):
        b.step(actions)
    assert [b.spn(i) for i in range(4)] == before
