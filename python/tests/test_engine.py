"""splut.Engine: searches from Python."""

import random
import threading
import time

import pytest

from splut import Engine, Position, SplutError, Turn


def test_best_turn_node_limited_is_reproducible():
    e = Engine(Threads=1, Hash=16)
    p = Position(2)
    p.play("e2e3")
    first = e.best_turn(p, nodes=3000)
    e.new_game()
    second = e.best_turn(p, nodes=3000)
    assert isinstance(first, Turn)
    assert (first.steps, first.score, first.pv, first.depth, first.nodes) == (
        second.steps, second.score, second.pv, second.depth, second.nodes)
    assert first.win_probabilities == second.win_probabilities
    assert first.nodes == 3000
    assert 1 <= len(first.steps) <= 3
    assert first.steps[0] in p.legal_steps()
    assert first.score.split()[0] in ("cp", "win", "loss")
    assert set(first.win_probabilities) == {"red", "green"}
    assert abs(sum(first.win_probabilities.values()) - 1) < 1e-9
    # The turn plays out.
    q = Position.from_spn(p.spn())
    for s in first.steps:
        q.play(s)


def test_depth_and_movetime_limits():
    e = Engine()
    p = Position(3)
    t = e.best_turn(p, depth=3)
    assert t.depth == 3
    assert set(t.win_probabilities) == {"red", "yellow", "green"}
    t = e.best_turn(p, movetime=50)
    assert t.steps


def test_limits_required_and_game_over():
    e = Engine()
    with pytest.raises(ValueError):
        e.best_turn(Position(2))
    rng = random.Random(5)
    over = Position(2)
    while not over.is_over():
        over.play(rng.choice(over.legal_steps()))
    with pytest.raises(ValueError):
        e.best_turn(over, depth=2)


def test_stop_ends_an_infinite_search():
    e = Engine(Threads=1)
    e.stop()  # no search: harmless
    p = Position(4)
    result = {}

    def search():
        result["turn"] = e.best_turn(p, infinite=True)

    t = threading.Thread(target=search)
    start = time.monotonic()
    t.start()
    while not e.is_searching() and time.monotonic() - start < 10:
        time.sleep(0.01)
    assert e.is_searching()
    time.sleep(0.2)
    assert t.is_alive()
    # One search at a time; options wait too.
    with pytest.raises(SplutError, match="search"):
        e.best_turn(p, depth=1)
    with pytest.raises(SplutError):
        e.set_option("Hash", 4)
    e.stop()
    t.join(timeout=10)
    assert not t.is_alive()
    assert time.monotonic() - start < 10
    assert not e.is_searching()
    turn = result["turn"]
    assert turn.steps[0] in p.legal_steps()
    assert turn.nodes > 0
    # The engine takes the next search as usual.
    assert e.best_turn(p, depth=2).depth == 2


def test_options():
    e = Engine(Skill_Level=5, Hash=8, UCI_ShowWinProb=True)
    assert e.get_option("Skill Level") == 5
    assert e.get_option("skill_level") == 5
    assert e.get_option("Hash") == 8
    assert e.get_option("UCI_ShowWinProb") is True
    e.set_option("Threads", 1)
    assert e.get_option("Threads") == 1
    e.set_option("skill level", 3)
    assert e.get_option("Skill_Level") == 3
    e.set_option("Skill_Level", "20")
    assert e.get_option("Skill_Level") == 20
    e.set_option("UCI_ShowWinProb", False)
    assert e.get_option("UCI_ShowWinProb") is False
    with pytest.raises(SplutError, match="Not_An_Option"):
        Engine(Not_An_Option=1)
    with pytest.raises(ValueError, match="Pondering"):
        e.set_option("Pondering", "1")
    with pytest.raises(ValueError, match="Pondering"):
        e.get_option("Pondering")
    with pytest.raises(ValueError, match="Threads"):
        e.set_option("Threads", "0")
    with pytest.raises(ValueError, match="Hash"):
        e.set_option("Hash", "lots")
    assert e.get_option("Threads") == 1  # a refused value changes nothing
    weak = Engine(Skill_Level=0, Threads=1)
    assert weak.get_option("Skill Level") == 0
    turn = weak.best_turn(Position(2), depth=2)
    assert turn.steps and turn.steps[0] in Position(2).legal_steps()


def test_score_cp():
    e = Engine(Threads=1)
    t = e.best_turn(Position(2), depth=3)
    kind, value = t.score.split()
    assert kind == "cp"
    assert t.score_cp == int(value)
    for line in e.analyse(Position(2), multipv=2, depth=3):
        assert line.score_cp == int(line.score.split()[1])


def test_analyse_lines():
    e = Engine(Threads=1)
    p = Position(2)
    p.play("e2e3")
    lines = e.analyse(p, multipv=3, depth=4)
    assert len(lines) == 3
    assert [l.multipv for l in lines] == [1, 2, 3]
    firsts = [tuple(l.pv[:2]) for l in lines]
    assert len(set(firsts)) == 3
    for l in lines:
        assert l.depth == 4
        assert l.pv[0] in p.legal_steps()
        assert l.score.split()[0] in ("cp", "win", "loss")
        assert set(l.win_probabilities) == {"red", "green"}
    # MultiPV is restored: a plain search reports one line.
    assert e.best_turn(p, depth=3).steps
