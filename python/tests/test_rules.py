"""splut.Position: the rules from Python."""

import copy
import random

import pytest

import splut
from splut import NUM_ACTIONS, Position

from conftest import binary_answers

# From tests/data/perft.txt.
PERFT = [
    ("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -", [3, 9, 79, 691, 5597, 53945]),
    ("R/gTgDgS/5/yS6/RyD6R/yT6/5/rSrDrT/R r 1 1 - - -", [3, 9, 73, 219, 1863, 14767]),
    ("R/gTgDgS/5/yS5bT/RyD5bDR/yT5bS/5/rSrDrT/R r 1 1 - - -", [3, 9, 70, 210, 1653, 12358, 37387]),
    ("1/gT2/1gD3/5gS1/rSR7/4rT2/5/RrDR/R g 1 28 - - -", [13, 74, 489, 3536]),
    ("R/gTgD1/4gS/7/1R6R/2rS4/1rT3/1rD1/R r 1 7 x - b5", [9, 54, 501, 4462]),
    ("1/1R1/gT1gD2/7/3rT3gSR/7/RrD1rS1/3/R r 1 27 x c3 e8", [11, 121, 1308, 14251]),
    ("1/3/2gT1gD/5R1/5gS3/R5rT/rS4/RR1/1 r 3 17 - g6 -", [9, 82, 686, 11498]),
    ("R/2gD/ySgTgS2/2yD3bT/1yT3bS1R1/R3rTbD1/1rS1rD1/1R1/1 g 2 15 - - -", [13, 135, 2083, 29309]),
    ("R/gD1gS/1gT3/3yS1bT1/RyDyT3bDR1/2rS2bS1/5/1rDrT/R g 2 7 - - -", [9, 88, 1036, 11575]),
    ("R/gD1gS/4gT/1yS5/RyD6R/1yT2rT2/1rD3/rSR1/1 r 2 10 - - -", [7, 55, 830, 9339]),
]


def random_game(rng, players, max_steps=400):
    p = Position(players)
    steps = []
    while not p.is_over() and len(steps) < max_steps:
        s = rng.choice(p.legal_steps())
        p.play(s)
        steps.append(s)
    return p, steps


def test_start_positions():
    for n in (2, 3, 4):
        p = Position(n)
        assert p.side_to_move == "red"
        assert p.steps_left == 1
        assert not p.is_over()
        assert p.winner is None
        assert p.places() == {}
        assert Position.from_spn(p.spn()) == p
    assert Position() == Position(2)
    with pytest.raises(ValueError):
        Position(5)


@pytest.mark.parametrize("spn,counts", PERFT)
def test_perft(spn, counts):
    p = Position.from_spn(spn)
    for depth, n in enumerate(counts, 1):
        assert p.perft(depth) == n, (spn, depth)
    assert p.perft(len(counts), threads=2) == counts[-1]


def test_actions_round_trip_over_random_games():
    rng = random.Random(7)
    assert NUM_ACTIONS == 7709
    for g in range(300):
        p = Position(2 + g % 3)
        for _ in range(120):
            if p.is_over():
                break
            steps = p.legal_steps()
            actions = p.legal_actions()
            assert len(actions) == len(steps) == len(set(actions))
            for s, a in zip(steps, actions):
                assert 0 <= a < NUM_ACTIONS
                assert p.action(s) == a
                assert p.step_for_action(a) == s
            a = rng.choice(actions)
            before = p.spn()
            p.play_action(a)
            p.undo()
            assert p.spn() == before
            p.play_action(a)


def test_bad_input_raises_and_changes_nothing():
    assert issubclass(splut.SplutError, ValueError)
    p = Position(3)
    p.play("d2d3")
    before, hist = p.spn(), p.history
    for bad in ["", "zz", "e9e8", "d3d4x", "a1a2", "pass pass", "pass"]:
        with pytest.raises(splut.SplutError) as info:
            p.play(bad)
        assert str(info.value)
        assert p.spn() == before and p.history == hist
    # The message names the problem.
    with pytest.raises(ValueError, match="a1a2"):
        p.play("a1a2")
    for bad in [-1, NUM_ACTIONS, 10**6, 10**30, -(10**30), 1]:
        with pytest.raises(splut.SplutError, match=str(bad) if bad != 1 else "not a legal"):
            p.play_action(bad)
        with pytest.raises(ValueError):
            p.step_for_action(bad)
        assert p.spn() == before and p.history == hist
    with pytest.raises(TypeError):
        p.play_action("e2e3")
    with pytest.raises(ValueError):
        p.action("a1a2")
    with pytest.raises(ValueError):
        p.action("not a step")
    assert p.spn() == before
    for bad in ["", "nonsense", "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R x 1 1 - - -"]:
        with pytest.raises(splut.SplutError):
            Position.from_spn(bad)
    fresh = Position(2)
    with pytest.raises(ValueError, match="undo"):
        fresh.undo()
    assert fresh == Position(2)
    with pytest.raises(ValueError, match="players"):
        Position(1)


def test_game_over_refuses_steps_and_places():
    rng = random.Random(3)
    for players in (2, 3, 4):
        for _ in range(20):
            p, _ = random_game(rng, players, max_steps=3000)
            if p.is_over():
                break
        assert p.is_over(), players
        assert p.legal_steps() == [] and p.legal_actions() == []
        spn = p.spn()
        with pytest.raises(ValueError):
            p.play("pass")
        with pytest.raises(ValueError):
            p.play_action(0)
        assert p.spn() == spn
        places = p.places()
        assert sorted(places.values()) == list(range(1, players + 1))
        assert places[p.winner] == 1
        p.undo()
        assert not p.is_over()
        assert p.winner is None
        assert len(p.places()) == players - 2


def test_copy_eq_hash():
    p = Position(4)
    p.play("d2d3")
    q = copy.copy(p)
    r = copy.deepcopy(p)
    assert p == q == r and hash(p) == hash(q) == hash(r)
    assert p.zobrist == q.zobrist
    q.play(q.legal_steps()[0])
    assert q != p and p == r
    assert len({p, q, r}) == 2
    assert p != "not a position"
    # Reached by another route: equal, with another history.
    a, b = Position(2), Position(2)
    a.play("d2d3"); a.undo(); a.play("e2e3")
    b.play("e2e3")
    assert a == b and hash(a) == hash(b)
    assert str(p).strip().startswith("9")
    assert p.spn() in str(p)


def test_random_games_match_the_binary(splut_bin):
    rng = random.Random(11)
    finished = 0
    for g in range(15):
        players = 2 + g % 3
        p, steps = random_game(rng, players, max_steps=60 if g < 6 else 3000)
        b = binary_answers(splut_bin, f"position startpos players {players} moves {' '.join(steps)}")
        spn, gameover, winner, turn, steps_left = (
            b["spn"], b["gameover"], b["winner"], b["turn"], b["steps"])
        assert spn == p.spn()
        assert gameover == str(p.is_over()).lower()
        assert winner == ("none" if p.winner is None else p.winner[0])
        assert turn == p.side_to_move[0]
        assert steps_left == str(p.steps_left)
        # Places: the winner first, then the seats out, last out first.
        places = p.places()
        if p.is_over():
            finished += 1
            assert places[p.winner] == 1
            assert sorted(places.values()) == list(range(1, players + 1))
        else:
            assert winner == "none"
            assert sorted(places.values()) == list(range(players - len(places) + 1, players + 1))
            assert set(places).isdisjoint(p.seats_in_game)
    assert finished >= 3
