"""The package never aborts or hangs on input (issue 49): sizes are checked
before allocating, perft's depth is bounded, long calls stop on Ctrl-C,
arguments out of range are refused, the values pickle and copy, the
benchmark runs as documented and the stubs ship with the module.

A case that could abort or hang the interpreter (on the code before these
checks) runs in a child process, so pytest itself always survives."""

import copy
import math
import os
import pathlib
import pickle
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import splut
from splut import Batch, Engine, EnvGame, Line, Position, Turn

REPO = pathlib.Path(__file__).resolve().parents[2]


def run_child(code, timeout=60):
    """Runs `code` in a fresh interpreter; returns (exit status, stdout,
    stderr). A child still running after `timeout` seconds is killed
    (status None)."""
    p = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        return None, out, err
    return p.returncode, out, err


# 1. Sizes are checked before allocating.


def test_huge_batches_are_refused_with_the_limit_not_an_abort():
    rc, out, err = run_child(
        """
        import splut
        for n in (10**9, 10**12, 2**64, 10**40, 2**18 + 1):
            for players in (2, 4):
                try:
                    splut.Batch(n, players=players)
                except ValueError as e:
                    assert "262144" in str(e), e
                    print("refused", n)
                else:
                    print("accepted", n)
        """
    )
    assert rc == 0, (rc, out, err)
    assert out.split().count("refused") == 10, out
    assert splut._splut.MAX_GAMES == 2**18
    # Memory that is not there is a MemoryError, not an abort: a child
    # limited to 1.5 GB of address space asks for a batch of 2.4 GB and
    # for more observations than fit.
    rc, out, err = run_child(
        """
        import resource, splut
        resource.setrlimit(resource.RLIMIT_AS, (3 * 2**29, 3 * 2**29))
        try:
            splut.Batch(2**18)
        except MemoryError as e:
            print("MemoryError", e)
        b = splut.Batch(2**16)
        try:
            kept = [b.observations() for _ in range(4)]
        except MemoryError as e:
            print("MemoryError", e)
        b.step(b.random_actions())
        print("alive")
        """
    )
    assert rc == 0, (rc, out, err)
    assert out.count("MemoryError") == 2 and "alive" in out, out
    # The limit itself is a size, not a refusal of big batches in general.
    b = Batch(3000, players=2)
    assert len(b) == 3000 and b.observations().shape == (3000, 28, 9, 9)


# 2. Perft is bounded; long calls stop on Ctrl-C.


def test_perft_depth_and_threads_are_bounded():
    rc, out, err = run_child(
        """
        import splut
        p = splut.Position(2)
        for args in [(60,), (13,), (13, 0), (-1,), (10**30,), (4, 10**6), (4, -1)]:
            try:
                p.perft(*args)
            except ValueError as e:
                print("refused", args, e)
        # threads=0: all cores, as `splut perft --threads 0`.
        print(p.perft(4), p.perft(0), p.perft(5, threads=2), p.perft(5, threads=0))
        """,
        timeout=60,
    )
    assert rc == 0, (rc, out, err)
    assert out.count("refused") == 7, out
    assert "depth must be 0-12, not 60" in out
    assert "threads must be 0-256, not 1000000" in out
    assert out.splitlines()[-1] == "691 1 5597 5597"


LONG_CALLS = {
    "perft": "splut.Position(2).perft(12)",
    "perft-threads": "splut.Position(3).perft(12, threads=2)",
    "best_turn": "splut.Engine(Threads=1).best_turn(splut.Position(2), infinite=True)",
    "analyse": "splut.Engine(Threads=2).analyse(splut.Position(4), multipv=2, infinite=True)",
    "batch": "b = splut.Batch(256)\nwhile True: b.step(b.random_actions())",
}


@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_ctrl_c_interrupts_a_long_call(name):
    # Ctrl-C as an interactive interpreter gets it: a shell that starts the
    # tests in the background has SIGINT ignored, and an interpreter that
    # starts with it ignored installs no KeyboardInterrupt handler.
    code = f"""
import signal, sys, time, splut
signal.signal(signal.SIGINT, signal.default_int_handler)
print("ready", flush=True)
t0 = time.monotonic()
try:
{textwrap.indent(LONG_CALLS[name], "    ")}
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("returned", flush=True)
sys.exit(3)
"""
    p = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert p.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=20)
        took = time.monotonic() - sent
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == 0 and "interrupted" in out, (p.returncode, out, err)
    # A fraction of a second on an idle machine; generous for a loaded one.
    assert took < 3, took


def test_a_search_after_an_interrupted_one_works():
    rc, out, err = run_child(
        """
        import signal, threading, os, splut
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as above
        e = splut.Engine(Threads=1)
        threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        try:
            e.best_turn(splut.Position(2), infinite=True)
        except KeyboardInterrupt:
            print("interrupted")
        print(e.is_searching(), e.best_turn(splut.Position(2), depth=2).depth)
        """,
        timeout=60,
    )
    assert rc == 0, (rc, out, err)
    assert out.split() == ["interrupted", "False", "2"], out


# 3. Pickle and copy.


def played(players, steps, seed=1):
    """A position and an EnvGame after `steps` random legal steps."""
    rng = np.random.default_rng(seed)
    p, g = Position(players), EnvGame(players)
    for _ in range(steps):
        if g.is_over:
            break
        a = int(rng.choice(g.legal_actions()))
        p.play_action(a)
        g.step(a)
    return p, g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_positions_pickle_and_copy_with_their_history(players):
    p, _ = played(players, 40)
    for q in [
        pickle.loads(pickle.dumps(p)),
        *(pickle.loads(pickle.dumps(p, protocol=k)) for k in range(pickle.HIGHEST_PROTOCOL + 1)),
        copy.copy(p),
        copy.deepcopy(p),
    ]:
        assert type(q) is Position and q is not p
        assert q == p and q.spn() == p.spn() and q.history == p.history
        assert q.zobrist == p.zobrist and q.places() == p.places()
    q = pickle.loads(pickle.dumps(p))
    q.undo()
    assert q != p and q.history == p.history[:-1]
    # A position read from SPN keeps that start.
    start = played(players, 6)[0].spn()
    s = Position.from_spn(start)
    s.play(s.legal_steps()[0])
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.history == s.history
    t.undo()
    assert t == Position.from_spn(start)


def test_a_bad_pickled_position_is_refused():
    p = Position(2)
    with pytest.raises(ValueError):
        p.__setstate__(("not spn", []))
    with pytest.raises(ValueError):
        p.__setstate__((Position(2).spn(), ["e2e3", "a1a2"]))
    assert p == Position(2) and p.history == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_env_games_pickle_and_copy_with_their_whole_state(players):
    _, g = played(players, 300, seed=players)
    fields = [
        "to_move", "to_move_index", "seats", "seats_in_game", "players", "winner",
        "eliminations", "places", "is_over", "repetition_count", "turn", "steps_left", "ply",
    ]
    for h in [pickle.loads(pickle.dumps(g)), copy.copy(g), copy.deepcopy(g), g.copy()]:
        assert type(h) is EnvGame and h is not g and h == g
        for f in fields:
            assert getattr(h, f) == getattr(g, f), f
        assert h.spn() == g.spn() and h.legal_actions() == g.legal_actions()
        assert np.array_equal(h.observe(0), g.observe(0))
    # The hidden state (positions seen, for repetitions) survives too: the
    # copy and the original go on alike.
    h = pickle.loads(pickle.dumps(g))
    rng = np.random.default_rng(7)
    while not g.is_over and g.ply < 600:
        a = int(rng.choice(g.legal_actions()))
        assert g.step(a) == h.step(a)
        assert h.repetition_count == g.repetition_count and h.places == g.places
    assert EnvGame(2) != EnvGame(3) and EnvGame(2) == EnvGame(2)


def test_the_pettingzoo_environment_deep_copies():
    pytest.importorskip("pettingzoo")
    from splut.env import raw_env

    e = raw_env(players=3)
    e.reset(seed=1)
    for _ in range(10):
        agent = e.agent_selection
        e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))
    f = copy.deepcopy(e)
    assert f.game == e.game and f.rewards == e.rewards and f.agents == e.agents
    g = pickle.loads(pickle.dumps(e))
    assert g.game == e.game and g.agent_selection == e.agent_selection


def test_search_results_pickle_copy_and_compare():
    e = Engine(Threads=1)
    turn = e.best_turn(Position(3), depth=3)
    lines = e.analyse(Position(2), multipv=2, depth=3)
    for value in [turn, *lines]:
        for other in [pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)]:
            assert type(other) is type(value) and other == value
            assert repr(other) == repr(value)
    t = pickle.loads(pickle.dumps(turn))
    assert (t.steps, t.score, t.score_cp, t.pv, t.depth, t.nodes) == (
        turn.steps, turn.score, turn.score_cp, turn.pv, turn.depth, turn.nodes
    )
    assert t.win_probabilities == turn.win_probabilities
    assert lines[0] != lines[1]
    assert Turn(["pass"], "cp 1", 1, {"red": 0.5}, [], 1, 2) != turn
    assert Line(1, "cp 1", 1, ["pass"], {}, 1).pv == ["pass"]


# 4. Arguments out of range are refused.


def refused(make, exc=ValueError, match=None):
    with pytest.raises(exc, match=match):
        make()


def test_position_and_env_game_arguments_are_checked():
    for bad in [1, 5, -1, 0, 10**30]:
        refused(lambda: Position(bad), match="players")
        refused(lambda: EnvGame(bad), match="players")
    for bad in [True, 2.0, float("nan"), "2", None]:
        refused(lambda: Position(bad), TypeError)
        refused(lambda: EnvGame(bad), TypeError)
    assert Position(np.int64(3)).spn() == Position(3).spn()
    p, g = Position(2), EnvGame(2)
    refused(lambda: p.play_action(True), TypeError)
    refused(lambda: g.step(True), TypeError)
    refused(lambda: g.step(1.0), TypeError)
    for bad in [10**30, -(10**30), -1, splut.NUM_ACTIONS]:
        refused(lambda: g.step(bad), match="illegal action")
    refused(lambda: g.observe(True), TypeError)
    for bad in [4, -1, 10**30]:
        refused(lambda: g.observe(bad), match="seat index")
    assert g.ply == 0 and p.history == []


def test_batch_arguments_are_checked():
    for kwargs, match in [
        (dict(n=0), "n .*1-262144"),
        (dict(n=-5), "n "),
        (dict(n=4, players=1), "players"),
        (dict(n=4, players=5), "players"),
        (dict(n=4, max_turns=0), "max_turns"),
        (dict(n=4, max_turns=-1), "max_turns"),
        (dict(n=4, max_turns=2**32), "max_turns"),
        (dict(n=4, repetitions=-1), "repetitions"),
        (dict(n=4, repetitions=2**32), "repetitions"),
        (dict(n=4, seed=-1), "seed"),
        (dict(n=4, seed=2**64), "seed"),
        (dict(n=4, reward="points"), "reward"),
    ]:
        refused(lambda: Batch(**kwargs), match=match)
    for kwargs in [dict(n=True), dict(n=4.0), dict(n=4, players=2.5), dict(n=4, max_turns=math.nan)]:
        refused(lambda: Batch(**kwargs), TypeError)
    b = Batch(4, seed=2**64 - 1, repetitions=0, max_turns=1)
    for bad in [-1, 4, 10**30]:
        refused(lambda: b.spn(bad), match="game index")
        refused(lambda: b.legal_actions(bad), match="game index")
    assert b.spn(np.int64(3)) == Position(2).spn()


def test_engine_limits_are_checked():
    e = Engine(Threads=1)
    p = Position(2)
    for kwargs, match in [
        (dict(movetime=-1), "movetime"),
        (dict(movetime=0), "movetime"),
        (dict(movetime=2**64), "movetime"),
        (dict(nodes=0), "nodes"),
        (dict(nodes=-1), "nodes"),
        (dict(depth=0), "depth"),
        (dict(depth=10**9), "depth"),
        (dict(depth=-3), "depth"),
    ]:
        refused(lambda: e.best_turn(p, **kwargs), match=match)
        refused(lambda: e.analyse(p, **kwargs), match=match)
    for bad in [0, -1, 65, 10**30]:
        refused(lambda: e.analyse(p, multipv=bad, depth=1), match="multipv")
    refused(lambda: e.best_turn(p, depth=True), TypeError)
    refused(lambda: e.best_turn(p, movetime=1.5), TypeError)
    for name, bad in [("Hash", -1), ("Hash", 10**30), ("Threads", 0), ("Hash", math.nan), ("Hash", True)]:
        refused(lambda: Engine(**{name: bad}), match=name)
    assert e.get_option("MultiPV") == 1 and not e.is_searching()


def test_env_arguments_are_checked():
    pytest.importorskip("pettingzoo")
    from splut.env import env, raw_env

    for kwargs, match in [
        (dict(players=2, max_turns=-1), "max_turns"),
        (dict(max_turns=0), "max_turns"),
        (dict(repetitions=-1), "repetitions"),
        (dict(repetitions=2**32), "repetitions"),
        (dict(players=1), "players"),
        (dict(players=5), "players"),
        (dict(reward="points"), "reward"),
        (dict(reward=["place"]), "reward"),
        (dict(render_mode="rgb_array"), "render_mode"),
    ]:
        refused(lambda: env(**kwargs), match=match)
        refused(lambda: raw_env(**kwargs), match=match)
    for kwargs in [
        dict(players=True), dict(players=2.0), dict(max_turns=math.nan),
        dict(max_turns=1.5), dict(repetitions="3"), dict(repetitions=False),
    ]:
        refused(lambda: env(**kwargs), TypeError)
    assert raw_env(players=np.int64(3), max_turns=np.int32(5)).max_turns == 5


# 5. The benchmark runs as the documentation says.


def test_bench_env_runs_as_documented():
    pytest.importorskip("pettingzoo")
    doc = (REPO / "docs" / "python.md").read_text()
    m = re.search(r"`python (python/\S*bench_env\.py)", doc)
    assert m, "docs/python.md names the benchmark's command"
    script = REPO / m.group(1)
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    r = subprocess.run(
        [sys.executable, str(script), "--seconds", "0.05", "--batch", "16", "--players", "3"],
        capture_output=True, text=True, timeout=300, cwd=REPO, env=env,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("steps/s") == 4, r.stdout


# 6. The stubs ship with the module.


def test_the_stubs_ship_and_name_the_whole_module():
    stub = pathlib.Path(splut._splut.__file__).parent / "_splut.pyi"
    assert stub.exists(), stub
    text = stub.read_text()
    for name in dir(splut._splut):
        if not name.startswith("_"):
            assert re.search(rf"^(class |def )?{name}\b", text, re.M), name


# Found by the fuzzer (python/tests/test_fuzz.py): calls from two threads.


def test_analyse_restores_multipv_while_other_threads_search():
    # analyse sets MultiPV, searches, restores it: a search from another
    # thread in between made the restore fail and left MultiPV changed for
    # good. Now a call meets a busy engine only as a refusal, before it
    # changes anything.
    e = splut.Engine(Threads=1)
    p = splut.Position(2)
    done = threading.Event()

    def rival():
        while not done.is_set():
            try:
                e.best_turn(p, depth=1)
            except splut.SplutError as err:
                assert "searching" in str(err), err

    t = threading.Thread(target=rival)
    t.start()
    try:
        for _ in range(5000):
            try:
                lines = e.analyse(p, multipv=3, depth=1)
                assert 1 <= len(lines) <= 3
            except splut.SplutError as err:
                assert "searching" in str(err), err
                assert e.get_option("MultiPV") == 1
    finally:
        done.set()
        t.join(30)
    assert e.get_option("MultiPV") == 1


def test_a_busy_engine_refuses_options_and_searches_and_changes_nothing():
    e = splut.Engine(Threads=1)
    p = splut.Position(3)
    t = threading.Thread(target=lambda: e.best_turn(p, infinite=True))
    t.start()
    try:
        deadline = time.monotonic() + 10
        while not e.is_searching() and time.monotonic() < deadline:
            time.sleep(0.01)
        for call in (
            lambda: e.analyse(p, multipv=2, depth=2),
            lambda: e.best_turn(p, depth=2),
            lambda: e.set_option("MultiPV", 4),
            e.new_game,
        ):
            with pytest.raises(splut.SplutError, match="searching"):
                call()
        assert e.get_option("MultiPV") == 1
    finally:
        e.stop()
        t.join(30)
    assert e.best_turn(p, depth=1).steps


def test_perft_copies_the_position_so_another_thread_may_play():
    p = splut.Position(2)
    counts = []
    t = threading.Thread(target=lambda: counts.append(p.perft(8)))
    t.start()
    time.sleep(0.05)
    p.play("e2e3")  # was RuntimeError: Already borrowed
    t.join(60)
    assert counts == [splut.Position(2).perft(8)]
    assert p.history == ["e2e3"]


def test_batch_step_takes_a_strided_array():
    b = splut.Batch(4, seed=3)
    acts = np.repeat(b.random_actions(), 2)[::2]  # int64, not contiguous
    assert not acts.flags["C_CONTIGUOUS"]
    b.step(acts)
    assert b.to_move.shape == (4,)
