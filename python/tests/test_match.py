"""Python on the match: EnvGame, the PettingZoo environment and Batch end
episodes and reward the seats as tournaments judge games (the match's
judge, play/src/judge.rs, and the rules' places). Games played here are
written as game records (docs/formats.md) and replayed by `splut replay`,
which judges them again with the referee's own judge: each must stop
where that judge ends it, for the reason Python gave, with the result
Python gave."""

import pickle
import subprocess

import numpy as np
import pytest

from splut._splut import Batch, EnvGame, Position, place_points

SEATS = ["red", "yellow", "green", "blue"]
LAST = "last sorcerer standing"

# The dwarfs of a 2-player game shuffle on the e-file: after three steps a
# cycle of twelve steps comes back where it started, so the position after
# step 1 occurs again after steps 13 and 25 (play/src/judge.rs has the same
# game as a unit test).
CYCLE = "e3e2 e2e3 e3e2 e8e7 e7e8 e8e7 e2e3 e3e2 e2e3 e7e8 e8e7 e7e8".split()
SHUFFLE = "e2e3 e8e7 e7e8".split() + CYCLE * 3


def ids_of(players, steps):
    """The action ids of step texts played from the start."""
    pos, ids = Position(players), []
    for s in steps:
        ids.append(pos.action(s))
        pos.play(s)
    return ids


def record_text(number, players, actions, reason, result):
    """A game record (docs/formats.md, "Game records") of `actions` played
    from the standard start, ended for `reason` with `result`: one line per
    turn, the seat's letter and its steps."""
    pos = Position(players)
    turns, key = [], None
    for a in actions:
        now = (pos.side_to_move, pos.turn)
        if now != key:
            turns.append((now[0][0], []))
            key = now
        turns[-1][1].append(pos.step_for_action(a))
        pos.play_action(a)
    seats = " ".join(f"{s[0]}=p{s[0]}" for s in EnvGame(players).seats)
    lines = [f"[Game {number}]", f"[Players {players}]", f"[Seats {seats}]",
             "[Opening none]", "[Start startpos]", "[OpeningSteps 0]",
             "[TimeControl python]", f"[Result {result}]", f"[Reason {reason}]"]
    lines += [f"{seat} {' '.join(steps)}" for seat, steps in turns]
    return "\n".join(lines) + "\n\n"


def replay(splut_bin, tmp_path, records):
    """`splut replay` on these records: (exit code, output)."""
    path = tmp_path / "python.games"
    path.write_text("".join(records))
    r = subprocess.run([splut_bin, "replay", str(path)], capture_output=True, text=True,
                       timeout=300)
    return r.returncode, r.stdout + r.stderr


def assert_valid(splut_bin, tmp_path, records):
    code, out = replay(splut_bin, tmp_path, records)
    n = len(records)
    assert code == 0 and f"{n} games, {n} valid, 0 invalid" in out, out


def judged_end(players, actions, max_turns, repetitions):
    """Where the tournament's draw rules and the rules end these steps,
    counted here from `Position.zobrist` alone: `(steps, reason)` of the
    first end, the referee's order (the repetition, counted after every
    step, first), or None."""
    pos, counts = Position(players), {}
    for k, a in enumerate(actions, 1):
        pos.play_action(a)
        counts[pos.zobrist] = counts.get(pos.zobrist, 0) + 1
        if repetitions and counts[pos.zobrist] >= repetitions:
            return k, f"repetition {repetitions}"
        if pos.is_over():
            return k, LAST
        if max_turns is not None and pos.turn > max_turns:
            return k, f"turn limit {max_turns}"
    return None


def rewards_of_result(players, result, reason, reward):
    """`{colour: final reward}` from a record's result (`g > r = y`): a
    place's points (seats sharing a place get the mean of the places they
    span), or for "win" +1 the winner, -1 each seat out, 0 at a draw."""
    colour = {s[0]: s for s in SEATS}
    out, place = {}, 1
    groups = [g.split(" = ") for g in result.split(" > ")]
    for i, group in enumerate(groups):
        for letter in group:
            if reward == "place":
                value = place_points(players, place + (len(group) - 1) / 2)
            elif i > 0:
                value = -1.0
            else:
                value = 1.0 if reason == LAST else 0.0
            out[colour[letter]] = value
        place += len(group)
    return out


def repeating(ids, ply, rng):
    """Random at first, then the smallest legal id: soon goes round in a
    cycle (test_env's repeating_action)."""
    if ply < 8:
        return int(ids[rng.integers(len(ids))])
    return min(ids)


# (players, max_turns, repetitions, reward, policy): every way to end.
RULES = [
    (2, None, 0, "place", "random"),
    (3, 10_000, 3, "win", "random"),
    (4, 10_000, 3, "place", "random"),
    (2, 25, 3, "place", "random"),
    (3, 30, 0, "place", "random"),
    (4, 40, 3, "win", "random"),
    (2, 10_000, 3, "place", "repeating"),
    (3, 10_000, 2, "place", "repeating"),
    (4, 10_000, 3, "win", "repeating"),
]


def play_envgame(players, max_turns, repetitions, reward, policy, rng):
    """One EnvGame episode to its end: the game, the ids played and the
    rewards its steps gave, summed by colour."""
    g = EnvGame(players, max_turns, repetitions, reward)
    actions, totals = [], dict.fromkeys(g.seats, 0.0)
    while not g.is_over:
        ids = g.legal_actions()
        a = repeating(ids, g.ply, rng) if policy == "repeating" else int(rng.choice(ids))
        before = g.seats_in_game
        rewards, terms, truncs = g.step_outcome(a)
        actions.append(a)
        # By colour, for the seats in the game before the step.
        assert list(rewards) == list(terms) == list(truncs) == before
        for seat, r in rewards.items():
            totals[seat] += r
        gone = [s for s in before if s not in g.seats_in_game]
        draw = g.is_over and g.reason != LAST
        assert [s for s in before if terms[s]] == (before if g.reason == LAST else gone)
        assert [s for s in before if truncs[s]] == (g.seats_in_game if draw else [])
        assert all(rewards[s] == 0 for s in before if not (terms[s] or truncs[s]))
    return g, actions, totals


def test_envgame_ends_and_rewards_as_the_judge(splut_bin, tmp_path):
    rng = np.random.default_rng(2026)
    records, reasons = [], set()
    for players, max_turns, repetitions, reward, policy in RULES:
        for _ in range(4):
            g, actions, totals = play_envgame(players, max_turns, repetitions, reward, policy,
                                              rng)
            assert judged_end(players, actions, max_turns, repetitions) == (len(actions),
                                                                            g.reason)
            want = rewards_of_result(players, g.result, g.reason, reward)
            assert totals == pytest.approx(want)
            assert dict(zip(g.seats, g.returns)) == pytest.approx(want)
            if reward == "place":
                assert sum(totals.values()) == pytest.approx(0, abs=1e-6)
            reasons.add(g.reason.split()[0])
            records.append(record_text(len(records) + 1, players, actions, g.reason, g.result))
    assert reasons == {"last", "turn", "repetition"}
    assert_valid(splut_bin, tmp_path, records)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_env_ends_and_rewards_as_the_judge(players, splut_bin, tmp_path):
    from splut.env import raw_env

    rng = np.random.default_rng(players)
    records = []
    for max_turns, repetitions, reward in [(10_000, 3, "place"), (15, 3, "win"),
                                           (10_000, 2, "place"), (20, 0, "place")]:
        e = raw_env(players=players, max_turns=max_turns, repetitions=repetitions,
                    reward=reward)
        e.reset(seed=1)
        actions, totals = [], dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter(100_000):
            obs, r, term, trunc, _ = e.last()
            totals[agent] += r
            if term or trunc:
                assert (term, trunc) == ((True, False) if e.game.reason in (None, LAST) or
                                         agent in e.game.eliminations else (False, True))
                e.step(None)
                continue
            ids = np.flatnonzero(obs["action_mask"])
            a = repeating(ids, e.game.ply, rng) if repetitions == 2 else int(rng.choice(ids))
            actions.append(a)
            e.step(a)
        g = e.game
        assert not e.agents and g.is_over
        assert judged_end(players, actions, max_turns, repetitions) == (len(actions), g.reason)
        assert totals == pytest.approx(rewards_of_result(players, g.result, g.reason, reward))
        records.append(record_text(len(records) + 1, players, actions, g.reason, g.result))
    assert_valid(splut_bin, tmp_path, records)


@pytest.mark.parametrize("players,reward", [(2, "place"), (3, "win"), (4, "place")])
def test_batch_ends_and_rewards_as_envgame_and_the_judge(players, reward, splut_bin, tmp_path):
    """Each game of a batch ends on the step an EnvGame under the same rules
    playing the same ids ends, with its final rewards as the row; the games
    replay as `splut replay` judges them."""
    n, max_turns, repetitions = 6, 30, 2
    b = Batch(n, players, seed=players, max_turns=max_turns, reward=reward,
              repetitions=repetitions)
    games = [EnvGame(players, max_turns, repetitions, reward) for _ in range(n)]
    played = [[] for _ in range(n)]
    records, reasons = [], set()
    rng = np.random.default_rng(players)
    for _ in range(3000):
        acts = b.random_actions()
        for i in range(n // 2):  # half the games steered into repetitions
            acts[i] = repeating(b.legal_actions(i), games[i].ply, rng)
        b.step(acts)
        for i, g in enumerate(games):
            g.step(int(acts[i]))
            played[i].append(int(acts[i]))
            ended = bool(b.terminations[i] or b.truncations[i])
            assert g.is_over == ended
            if not ended:
                assert not b.rewards[i].any()
                continue
            assert bool(b.terminations[i]) == (g.reason == LAST)
            assert b.winners[i] == (SEATS.index(g.winner) if g.winner else -1)
            want = np.zeros(4, np.float32)
            want[[SEATS.index(s) for s in g.seats]] = g.returns
            assert np.array_equal(b.rewards[i], want)
            assert dict(zip(g.seats, g.returns)) == pytest.approx(
                rewards_of_result(players, g.result, g.reason, reward))
            records.append(record_text(len(records) + 1, players, played[i], g.reason,
                                       g.result))
            reasons.add(g.reason.split()[0])
            games[i], played[i] = EnvGame(players, max_turns, repetitions, reward), []
        if len(records) >= 24 and len(reasons) == 3:
            break
    assert reasons == {"last", "turn", "repetition"}
    assert_valid(splut_bin, tmp_path, records)


def test_a_repetition_draws_exactly_when_the_judge_does(splut_bin, tmp_path):
    ids = ids_of(2, SHUFFLE)
    # Drawn on the step the position after step 1 occurs the third time.
    g = EnvGame(2, repetitions=3)
    counts = []
    for k, a in enumerate(ids[:25], 1):
        assert not g.is_over
        rewards, terms, truncs = g.step_outcome(a)
        counts.append(g.repetition_count)
        assert truncs == {"red": k == 25, "green": k == 25}
        assert terms == {"red": False, "green": False} and rewards == {"red": 0.0, "green": 0.0}
    assert counts == [1] * 12 + [2] * 12 + [3]
    assert (g.is_over, g.reason, g.result, g.winner) == (True, "repetition 3", "r = g", None)
    assert g.to_move is None and g.to_move_index == -1 and g.legal_actions() == []
    assert not g.action_mask().any()
    with pytest.raises(ValueError, match="the game is over: a draw, repetition 3"):
        g.step(ids[25])
    # The judge agrees: it ends the game there, not a step before or after.
    ok = record_text(1, 2, ids[:25], "repetition 3", "r = g")
    assert_valid(splut_bin, tmp_path, [ok])
    for cut in (24, 26):
        code, out = replay(splut_bin, tmp_path,
                           [record_text(1, 2, ids[:cut], "repetition 3", "r = g")])
        assert code == 1 and "1 invalid" in out, out
    # Repetitions 2 draw at step 13; 0 never (then the turn limit does).
    g2 = EnvGame(2, repetitions=2)
    for a in ids[:13]:
        g2.step(a)
    assert g2.reason == "repetition 2" and g2.ply == 13
    g0 = EnvGame(2, max_turns=10)
    for a in ids:
        if g0.is_over:
            break
        g0.step(a)
    assert g0.reason == "turn limit 10" and g0.turn == 11 and g0.repetition_count == 3
    # The batch and the environment draw on the same step.
    b = Batch(1, 2, repetitions=3)
    for k, a in enumerate(ids[:25], 1):
        b.step([a])
        assert bool(b.truncations[0]) == (k == 25) and not b.terminations[0]
    from splut.env import raw_env

    e = raw_env(players=2, repetitions=3)
    for k, a in enumerate(ids[:25], 1):
        assert not any(e.truncations.values())
        e.step(a)
    assert e.truncations == {"red": True, "green": True} and e.rewards == {"red": 0, "green": 0}


def test_a_draw_shares_the_first_place():
    """4 players, one seat out, then a draw: the three still in share the
    first place (points +1, +1/3, -1/3: +1/3 each with "place"; 0 with
    "win"), as the judge places them; the seat out keeps its -1."""
    rng = np.random.default_rng(5)
    seen = 0
    for _ in range(200):
        g = EnvGame(4, max_turns=40, reward="place")
        w = EnvGame(4, max_turns=40, reward="win")
        while not g.is_over:
            a = int(rng.choice(g.legal_actions()))
            g.step_outcome(a)
            w.step_outcome(a)
        if g.reason != "turn limit 40" or len(g.eliminations) != 1:
            continue
        out = g.eliminations[0]
        still_in = [s for s in g.seats if s != out]
        assert g.result == " = ".join(s[0] for s in still_in) + f" > {out[0]}"
        returns = dict(zip(g.seats, g.returns))
        assert returns[out] == -1.0
        assert all(returns[s] == pytest.approx(1 / 3) for s in still_in)
        assert dict(zip(w.seats, w.returns)) == {s: (-1.0 if s == out else 0.0)
                                                 for s in w.seats}
        seen += 1
        if seen == 3:
            break
    assert seen > 0


def test_envgame_rules_are_kept_by_copies_and_pickles():
    ids = ids_of(2, SHUFFLE[:20])
    g = EnvGame(3, max_turns=7, repetitions=4, reward="win")
    assert (g.max_turns, g.repetitions, g.reward) == (7, 4, "win")
    assert (EnvGame().max_turns, EnvGame().repetitions, EnvGame().reward) == (None, 0, "place")
    h = EnvGame(2, repetitions=2)
    for a in ids:
        if h.is_over:
            break
        h.step(a)
    for game in (g, h):
        for c in (pickle.loads(pickle.dumps(game)), game.copy()):
            assert c == game
            assert (c.max_turns, c.repetitions, c.reward, c.reason, c.result, c.returns,
                    c.repetition_count) == (game.max_turns, game.repetitions, game.reward,
                                            game.reason, game.result, game.returns,
                                            game.repetition_count)
    assert h.reason == "repetition 2"
    assert EnvGame(2, repetitions=2) != EnvGame(2) and EnvGame(2, None, 0) == EnvGame(2)
    # A pickle's state of before the draw rules: none.
    old = EnvGame(2)
    old.__setstate__((2, ids[:5]))
    assert old.ply == 5 and old.max_turns is None and old.repetitions == 0
    for bad in [(2, ids, 0), (2, ids, 5, 3, "points"), (2, ids, 0, 3, "place"), [2, ids]]:
        with pytest.raises((TypeError, ValueError)):
            EnvGame(2).__setstate__(bad)
    for kwargs, match in [(dict(max_turns=0), "max_turns"), (dict(repetitions=-1), "repetitions"),
                          (dict(reward="points"), "reward")]:
        with pytest.raises(ValueError, match=match):
            EnvGame(2, **kwargs)
    with pytest.raises(TypeError):
        EnvGame(2, max_turns=1.5)
