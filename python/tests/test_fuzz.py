"""Property-based fuzzing of the Python package with Hypothesis (issue 49).

State machines over `Position`, `EnvGame`, the PettingZoo environment,
`Batch` and `Engine` mix legal calls with hostile ones (wrong types, huge
and negative numbers, NaN and infinities, numpy scalars and arrays of every
dtype and shape, malformed SPN and step text, calls from several threads,
`stop` at random moments) and check after every call that:

- nothing aborts the interpreter, nothing raises pyo3's `PanicException`,
  nothing hangs (each call runs under a watchdog: `guarded`);
- a refusal is a normal exception (`ValueError`, `TypeError`,
  `OverflowError`, `IndexError`, `KeyError`) and changes nothing the object
  shows (SPN, history, legal steps, masks, arrays, options);
- what is accepted is what the documentation promises, and the games agree
  with a model (a `Position` replaying the same steps) and, at the end of
  each run, with the `splut` binary (SPN, legal steps, perft 2, game over,
  winner, side to move, steps left).

By default the runs are seeded (`derandomize=True`) and short, for the
suite. `SPLUT_FUZZ_EXAMPLES=<n>` runs `n` examples per machine with random
seeds (`--hypothesis-seed=<s>` fixes one); `scripts/fuzz-python <seconds>
[seed]` loops over such runs for as long as asked. `SPLUT_FUZZ_STATS=<file>`
writes what ran (examples, calls, refusals, binary checks) as JSON.

Sizes that abort or hang an unhardened build (`Batch(10**9)`, `perft(60)`,
`perft(1, threads=10**5)`) are fuzzed only once a probe in a subprocess
(`hardened()`) finds them refused: until the hardening of issue 49 lands,
the fuzzer leaves them out rather than die with them. Where that
hardening changes an answer (a bool or 0 threads refused, repetitions 1
or max_turns 0 refused), either answer passes, as long as a refusal is a
normal exception and changes nothing.
"""

import copy
import faulthandler
import json
import operator
import os
import pickle
import random
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.stateful import (  # noqa: E402
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import splut  # noqa: E402
from conftest import binary_answers  # noqa: E402
from splut import NUM_ACTIONS, Batch, Engine, EnvGame, Position, SplutError  # noqa: E402

# ---------------------------------------------------------------------------
# Settings: short and seeded in the suite, as long as asked by hand.

_EXAMPLES = os.environ.get("SPLUT_FUZZ_EXAMPLES")
_COMMON = dict(
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=list(HealthCheck),
)
settings.register_profile(
    "splut-ci", derandomize=True, max_examples=12, stateful_step_count=25, **_COMMON
)
settings.register_profile(
    "splut-fuzz",
    derandomize=False,
    max_examples=int(_EXAMPLES or 100),
    stateful_step_count=int(os.environ.get("SPLUT_FUZZ_STEPS", 50)),
    **_COMMON,
)
PROFILE = settings.get_profile("splut-fuzz" if _EXAMPLES else "splut-ci")

# The longest any one call may take before it counts as a hang (seconds).
CALL_TIMEOUT = float(os.environ.get("SPLUT_FUZZ_CALL_TIMEOUT", 30))
# A factor on the time a Ctrl-C may take (2 s by default): more on a loaded
# machine, as the protocol fuzzer's SPLUT_FUZZ_SLACK.
SLACK = float(os.environ.get("SPLUT_FUZZ_SLACK", 1))

REFUSALS = (ValueError, TypeError, OverflowError, IndexError, KeyError)
PLAYERS = st.sampled_from([2, 3, 4])
SEATS = ["red", "yellow", "green", "blue"]

# What ran, for scripts/fuzz-python's summary.
STATS = {"examples": {}, "calls": 0, "refusals": 0, "binary_checks": 0}


@pytest.fixture(scope="module", autouse=True)
def _write_stats():
    yield
    path = os.environ.get("SPLUT_FUZZ_STATS")
    if path:
        with open(path, "w") as f:
            json.dump(STATS, f)


def _count_example(name):
    STATS["examples"][name] = STATS["examples"].get(name, 0) + 1


# ---------------------------------------------------------------------------
# The watchdog.


class Refused:
    """A call that raised one of the allowed exceptions."""

    def __init__(self, error):
        self.error = error

    def __repr__(self):
        return f"Refused({type(self.error).__name__}: {self.error})"


def guarded(what, fn, *args, allowed=REFUSALS, timeout=None, **kwargs):
    """Calls `fn(*args, **kwargs)` on a thread under a watchdog and returns
    its value, or a `Refused` when it raised one of `allowed`. Fails the
    test on a hang (no return within `timeout` s), on a pyo3
    `PanicException` and on any other exception. A hang that holds the GIL
    would also block this thread: `faulthandler` then dumps every thread's
    stack and exits the process, so the run fails loudly instead of
    blocking forever."""
    timeout = CALL_TIMEOUT if timeout is None else timeout
    box = {}

    def target():
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as e:  # noqa: BLE001 - judged below
            box["error"] = e

    STATS["calls"] += 1
    worker = threading.Thread(target=target, daemon=True)
    main = threading.current_thread() is threading.main_thread()
    if main:
        faulthandler.dump_traceback_later(timeout + 30, exit=True)
    try:
        worker.start()
        worker.join(timeout)
    finally:
        if main:
            faulthandler.cancel_dump_traceback_later()
    if worker.is_alive():
        pytest.fail(f"hang: {what} did not return within {timeout} s")
    if "error" in box:
        e = box["error"]
        if type(e).__name__ == "PanicException":
            pytest.fail(f"panic: {what} raised PanicException: {e}")
        if not isinstance(e, allowed):
            pytest.fail(f"{what} raised {type(e).__name__}: {e}")
        STATS["refusals"] += 1
        return Refused(e)
    return box["value"]


def refused(x):
    return isinstance(x, Refused)


def as_index(x):
    """`x` as Python reads an integer argument, or None."""
    try:
        return operator.index(x)
    except TypeError:
        return None


def is_bool(x):
    """A bool: read as 0 or 1 before the hardening, refused after; either
    passes."""
    return isinstance(x, (bool, np.bool_))


_HARDENED = None


def hardened():
    """Whether this build refuses the sizes that abort or hang an unhardened
    one: tried once, in a subprocess, so an abort costs nothing."""
    global _HARDENED
    if _HARDENED is None:
        probe = (
            "import splut\n"
            "for call in (lambda: splut.Batch(10**9), lambda: splut.Position(2).perft(60),\n"
            "             lambda: splut.Position(2).perft(1, threads=10**6)):\n"
            "    try:\n"
            "        call()\n"
            "    except (ValueError, MemoryError, OverflowError):\n"
            "        pass\n"
            "    else:\n"
            "        raise SystemExit(1)\n"
        )
        try:
            r = subprocess.run([sys.executable, "-c", probe],
                               capture_output=True, timeout=20)
            _HARDENED = r.returncode == 0
        except subprocess.TimeoutExpired:
            _HARDENED = False
    return _HARDENED


def interrupted(what, fn, *args, after, **kwargs):
    """Calls `fn` on this (the main) thread and sends the process SIGINT
    (Ctrl-C) `after` seconds in: the call must raise `KeyboardInterrupt`
    within 2 s (times SPLUT_FUZZ_SLACK) of it, or return first. Returns "interrupted" or
    "returned". A SIGINT that comes after the call is swallowed, so it
    cannot stop the test run."""
    if threading.current_thread() is not threading.main_thread():
        return "skipped"
    armed = [True]

    def handler(signum, frame):
        if armed[0]:
            raise KeyboardInterrupt

    old = signal.signal(signal.SIGINT, handler)
    timer = threading.Timer(after, os.kill, (os.getpid(), signal.SIGINT))
    STATS["calls"] += 1
    outcome, took = "returned", 0.0
    faulthandler.dump_traceback_later(after + 30, exit=True)
    try:
        try:
            t0 = time.monotonic()
            timer.start()
            try:
                fn(*args, **kwargs)
            except KeyboardInterrupt:
                outcome, took = "interrupted", time.monotonic() - t0
            except BaseException as e:  # noqa: BLE001
                pytest.fail(f"{what} interrupted raised {type(e).__name__}: {e}")
            timer.join()
            time.sleep(0.02)  # the handler runs at the next bytecode
            armed[0] = False
        except KeyboardInterrupt:
            armed[0] = False  # the signal came just after the call
    finally:
        signal.signal(signal.SIGINT, old)
        faulthandler.cancel_dump_traceback_later()
    if outcome == "interrupted":
        assert took < after + 2.0 * SLACK, (
            f"{what}: KeyboardInterrupt {took - after:.2f} s after Ctrl-C")
    return outcome


# ---------------------------------------------------------------------------
# Hostile values.

HUGE = st.sampled_from(
    [2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**64 + 1, 10**30,
     -1, -2, -(2**31), -(2**63), -(2**63) - 1, -(10**30)]
)
FLOATS = st.sampled_from([float("nan"), float("inf"), float("-inf"), 0.5, -0.0, 1e300, 13.0, 33.0])
DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float32", "float64", "bool", "complex64"]


def _np_scalar(t):
    dtype, v = t
    return np.array(v).astype(dtype)[()]


NP_SCALARS = st.tuples(st.sampled_from(DTYPES), st.integers(-300, 8000)).map(_np_scalar)
JUNK = st.one_of(
    st.none(),
    st.binary(max_size=6),
    st.lists(st.integers(0, 50), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.just(object()),
    st.just(np.zeros(3)),
    st.just(1j),
)
ANY_INT = st.one_of(st.integers(-10, NUM_ACTIONS + 10), HUGE, st.integers())
ANY_VALUE = st.one_of(ANY_INT, FLOATS, NP_SCALARS, JUNK, st.text(max_size=10), st.booleans())

STEP_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789@ ABCDEFGHIJ-+.\t\n\x00é\u00a0"


def _mutate_text(t):
    text, how, pos, ch = t
    pos = pos % (len(text) + 1)
    if how == 0:
        return text[:pos] + ch + text[pos:]
    if how == 1:
        return text[:pos] + text[pos + 1:]
    if how == 2:
        return text[:pos] + ch + text[pos + 1:]
    if how == 3:
        return text + " " + text
    if how == 4:
        return text.upper()
    if how == 5:
        return " " + text + "\n"
    return text * 3


def mutated(texts):
    """Texts near the given ones: a character added, dropped or changed,
    doubled, upper-cased, padded."""
    return st.tuples(
        texts, st.integers(0, 6), st.integers(0, 200), st.sampled_from(STEP_CHARS)
    ).map(_mutate_text)


STEP_TEXT = st.one_of(
    st.text(alphabet=STEP_CHARS, max_size=12),
    st.text(max_size=8),
    mutated(st.sampled_from(["e2e3", "d2d3", "pass", "d2d3@a5", "e8e7", "f2f3", "b5c5"])),
    st.just("\ud800"),  # a lone surrogate: not encodable as UTF-8
    st.just("e2e3" * 300),
)

START_SPNS = [Position(n).spn() for n in (2, 3, 4)]
SPN_TEXT = st.one_of(
    mutated(st.sampled_from(START_SPNS)),
    mutated(mutated(st.sampled_from(START_SPNS))),
    st.text(max_size=40),
    st.sampled_from([
        "", " ", "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - - extra",
        "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 99999999999999999999 - - -",
        "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 9 1 - - -",
        "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 0 - - -",
        "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1000000000 - - -",
        "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R g 1 1 - - -",
        "1/3/5/7/9/7/5/3/1 r 1 1 - - -",
        "R/gSgSgS/5/7/R7R/7/5/rSrSrS/R r 1 1 - - -",
        "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 x a5 e5",
    ]),
)

# Thread counts for perft: none, the serial path and a few threads. Not
# thousands (see `hardened`).
PERFT_THREADS = st.sampled_from([None, 1, 2, 3, 8])
# Depths that refuse at once (bad type, negative, past u32).
BAD_DEPTHS = st.one_of(
    st.sampled_from([-1, -(2**40), 2**32, 2**64, 10**30]), FLOATS, st.text(max_size=3), st.none()
)


# ---------------------------------------------------------------------------
# Snapshots: what a refusal must leave as it was.


def position_state(p):
    return (p.spn(), p.history, p.legal_steps(), p.legal_actions(), p.side_to_move,
            p.steps_left, p.turn, p.is_over(), p.winner, p.places(), p.zobrist,
            p.seats_in_game)


def envgame_state(g):
    return (g.spn(), g.legal_actions(), g.action_mask().tobytes(), g.to_move,
            g.to_move_index, g.ply, g.eliminations, g.places, g.repetition_count,
            g.is_over, g.winner, g.turn, g.steps_left, g.seats_in_game)


def batch_state(b):
    return ([b.spn(i) for i in range(len(b))], [b.legal_actions(i) for i in range(len(b))],
            b.masks.tobytes(), b.to_move.tobytes(), b.rewards.tobytes(),
            b.terminations.tobytes(), b.truncations.tobytes(), b.winners.tobytes(),
            b.turns().tobytes())


OPTION_NAMES = ["Hash", "Threads", "Algorithm", "MoveOverhead", "Seed", "MctsParallel",
                "MctsExploration", "MctsPlayout", "MctsMinimax", "EvalFile", "MultiPV",
                "UseNNUE", "UCI_LimitStrength", "UCI_Elo", "Skill Level",
                "UCI_ShowWinProb", "Ponder"]


def engine_state(e):
    return {n: e.get_option(n) for n in OPTION_NAMES}


def check_consistent_position(p):
    """The position's views agree with each other and with its SPN."""
    steps, actions = p.legal_steps(), p.legal_actions()
    assert len(steps) == len(actions) == len(set(actions))
    for s, a in zip(steps, actions):
        assert 0 <= a < NUM_ACTIONS
        assert p.action(s) == a and p.step_for_action(a) == s
    q = Position.from_spn(p.spn())
    assert q == p and hash(q) == hash(p) and q.spn() == p.spn()
    assert q.legal_steps() == steps
    assert p.is_over() == (p.winner is not None) == (not steps)


# ---------------------------------------------------------------------------
# The binary.


def check_against_binary(splut_bin, p, position_line):
    STATS["binary_checks"] += 1
    b = binary_answers(splut_bin, position_line)
    assert b["spn"] == p.spn(), position_line
    assert b["legal"] == set(p.legal_steps()), position_line
    assert b["gameover"] == str(p.is_over()).lower()
    assert b["winner"] == ("none" if p.winner is None else p.winner[0])
    if not p.is_over():
        assert b["turn"] == p.side_to_move[0]
        assert b["steps"] == str(p.steps_left)
    assert b["perft2"] == p.perft(2), position_line


def start_line(players, history):
    moves = f" moves {' '.join(history)}" if history else ""
    return f"position startpos players {players}{moves}"


def random_position(players, seed, steps):
    rng = random.Random(seed)
    p = Position(players)
    for _ in range(steps):
        if p.is_over():
            break
        p.play(rng.choice(p.legal_steps()))
    return p


# ---------------------------------------------------------------------------
# Position.


class PositionMachine(RuleBasedStateMachine):
    splut_bin = None

    def __init__(self):
        super().__init__()
        _count_example("Position")
        self.p = None
        self.start = None  # the protocol's words for the start: "startpos players N" or "spn <SPN>"

    @initialize(players=PLAYERS, seed=st.integers(0, 2**32), steps=st.integers(0, 150),
                from_spn=st.booleans())
    def setup(self, players, seed, steps, from_spn):
        if from_spn:
            # Somewhere in a random game, read back from SPN (no history).
            spn = random_position(players, seed, steps).spn()
            self.p = Position.from_spn(spn)
            self.start = f"spn {spn}"
        else:
            self.p = Position(players)
            self.start = f"startpos players {players}"

    # Every call that must not change the position when it is refused.
    def attempt(self, what, fn, *args, **kwargs):
        before = position_state(self.p)
        r = guarded(what, fn, *args, **kwargs)
        if refused(r):
            assert position_state(self.p) == before, what
        return r

    @rule(i=st.integers(0, 1000))
    def play_legal(self, i):
        steps = self.p.legal_steps()
        if not steps:
            r = self.attempt("play pass after the end", self.p.play, "pass")
            assert refused(r) and isinstance(r.error, SplutError)
            return
        s = steps[i % len(steps)]
        n = len(self.p.history)
        assert not refused(guarded(f"play({s!r})", self.p.play, s))
        assert self.p.history[-1] == s and len(self.p.history) == n + 1

    @rule(i=st.integers(0, 1000))
    def play_action_legal(self, i):
        actions = self.p.legal_actions()
        if actions:
            a = actions[i % len(actions)]
            s = self.p.step_for_action(a)
            assert not refused(guarded(f"play_action({a})", self.p.play_action, a))
            assert self.p.history[-1] == s

    @rule(text=STEP_TEXT)
    def play_text(self, text):
        before = copy.copy(self.p)
        legal = self.p.legal_steps()
        r = self.attempt(f"play({text!r})", self.p.play, text)
        if refused(r):
            assert text not in legal
            assert isinstance(r.error, ValueError)
        else:
            # Accepted: one legal step was played (perhaps spelled another way).
            s = self.p.history[-1]
            assert s in legal
            before.play(s)
            assert before == self.p

    @rule(value=st.one_of(ANY_INT, FLOATS, NP_SCALARS, JUNK, st.booleans()))
    def play_action_any(self, value):
        legal = self.p.legal_actions()
        i = as_index(value)
        r = self.attempt(f"play_action({value!r})", self.p.play_action, value)
        if is_bool(value):
            return
        if i is not None and i in legal:
            assert not refused(r), r
        else:
            assert refused(r), value
            if i is None:
                assert isinstance(r.error, TypeError) or self.p.is_over(), r
            else:
                assert isinstance(r.error, SplutError), r

    @rule(value=st.one_of(ANY_INT, FLOATS, NP_SCALARS, JUNK))
    def step_for_action_any(self, value):
        i = as_index(value)
        r = self.attempt(f"step_for_action({value!r})", self.p.step_for_action, value)
        if is_bool(value):
            return
        if i is not None and i in self.p.legal_actions():
            assert r in self.p.legal_steps()
        else:
            assert refused(r)

    @rule(text=st.one_of(STEP_TEXT, JUNK))
    def action_of_text(self, text):
        r = self.attempt(f"action({text!r})", self.p.action, text)
        if not refused(r):
            assert r in self.p.legal_actions()
        elif isinstance(text, str):
            assert text not in self.p.legal_steps()

    @rule(value=st.one_of(JUNK, ANY_INT, FLOATS))
    def play_wrong_type(self, value):
        r = self.attempt(f"play({value!r})", self.p.play, value)
        assert refused(r) and isinstance(r.error, TypeError)

    @rule()
    def undo(self):
        n = len(self.p.history)
        r = self.attempt("undo()", self.p.undo)
        assert refused(r) == (n == 0)
        assert len(self.p.history) == max(0, n - 1)

    @rule(depth=st.integers(0, 3), threads=PERFT_THREADS)
    def perft(self, depth, threads):
        kw = {} if threads is None else {"threads": threads}
        n = guarded(f"perft({depth}, {kw})", self.p.perft, depth, **kw)
        assert not refused(n), n
        if threads not in (None, 0, 1):
            assert n == self.p.perft(depth)
        if depth == 1 and not self.p.is_over():
            assert n == len(self.p.legal_steps())

    @rule(depth=BAD_DEPTHS, threads=st.one_of(PERFT_THREADS, st.sampled_from([-1, 2**64, 0.5, "2"])))
    def perft_bad(self, depth, threads):
        r = self.attempt(f"perft({depth!r}, threads={threads!r})", self.p.perft, depth,
                         threads=threads if threads is not None else 1)
        assert refused(r)

    @rule(depth=st.integers(0, 2), threads=st.sampled_from([0, True]))
    def perft_threads_edge(self, depth, threads):
        # 0 threads: the serial count before the hardening, refused after.
        r = self.attempt(f"perft({depth}, threads={threads!r})", self.p.perft, depth,
                         threads=threads)
        assert refused(r) or r == self.p.perft(depth)

    @precondition(lambda self: self.p is not None and hardened())
    @rule(depth=st.one_of(st.integers(13, 2**32 - 1), st.sampled_from([13, 60, 2**31])),
          threads=st.one_of(PERFT_THREADS, st.sampled_from([257, 10**5, 2**40])))
    def perft_too_deep(self, depth, threads):
        kw = {} if threads is None else {"threads": threads}
        r = self.attempt(f"perft({depth}, {kw})", self.p.perft, depth, **kw)
        assert refused(r) and isinstance(r.error, ValueError), r

    @rule()
    def copies(self):
        for q in (copy.copy(self.p), copy.deepcopy(self.p)):
            assert q == self.p and hash(q) == hash(self.p) and q.history == self.p.history
            if q.legal_steps():
                q.play(q.legal_steps()[0])
                assert q.history != self.p.history

    @rule()
    def pickles(self):
        r = guarded("pickle.dumps(position)", pickle.dumps, self.p)
        assert not refused(r), r
        q = pickle.loads(r)
        assert q == self.p and q.spn() == self.p.spn() and q.history == self.p.history
        assert position_state(q) == position_state(self.p)

    @rule(spn=st.one_of(st.sampled_from(START_SPNS), SPN_TEXT, JUNK),
          steps=st.one_of(st.lists(STEP_TEXT, max_size=3), st.lists(st.sampled_from(
              ["e2e3", "d2d3", "f2f3", "e8e7", "pass", "b5c5"]), max_size=6), JUNK),
          shape=st.sampled_from(["pair", "pair", "short", "long", "list", "junk"]))
    def setstate_hostile(self, spn, steps, shape):
        """A pickled position's state, mutated: read into a scratch
        position, whole or refused with that position unchanged."""
        state = {"pair": (spn, steps), "short": (spn,), "long": (spn, steps, 1),
                 "list": [spn, steps], "junk": spn}[shape]
        q = Position(3)
        q.play("d2d3")
        before = position_state(q)
        r = guarded(f"__setstate__({state!r})", q.__setstate__, state)
        if refused(r):
            assert position_state(q) == before
            return
        check_consistent_position(q)
        fresh = Position.from_spn(spn)
        for step in steps:
            fresh.play(step)
        assert fresh == q and q.history == fresh.history

    @precondition(lambda self: self.p is not None and hardened())
    @rule(depth=st.integers(10, 12), threads=st.sampled_from([1, 2]),
          after=st.floats(0.0, 0.3))
    def ctrl_c_perft(self, depth, threads, after):
        before = position_state(self.p)
        interrupted(f"perft({depth}, threads={threads})", self.p.perft, depth,
                    threads=threads, after=after)
        assert position_state(self.p) == before

    @rule(text=st.one_of(SPN_TEXT, JUNK))
    def from_spn(self, text):
        r = guarded(f"from_spn({text!r})", Position.from_spn, text)
        if refused(r):
            return
        # Whatever reads must be a position every call works on.
        check_consistent_position(r)
        assert not refused(guarded("perft(2) of a read position", r.perft, 2))
        str(r), repr(r), r.places(), r.seats_in_game, r.turn
        if r.legal_steps():
            r.play(r.legal_steps()[-1])
            r.undo()

    @rule(other=st.one_of(JUNK, st.text(max_size=3), ANY_INT))
    def compare(self, other):
        assert (self.p == other) is False
        assert (self.p != other) is True

    @invariant()
    def consistent(self):
        if self.p is not None:
            check_consistent_position(self.p)
            str(self.p), repr(self.p)

    def teardown(self):
        if self.p is not None and self.splut_bin:
            line = f"position {self.start}"
            if self.p.history:
                line += " moves " + " ".join(self.p.history)
            check_against_binary(self.splut_bin, self.p, line)


def test_fuzz_position(splut_bin):
    PositionMachine.splut_bin = splut_bin
    run_state_machine_as_test(PositionMachine, settings=PROFILE)


# ---------------------------------------------------------------------------
# EnvGame.


def _mask_array(t):
    dtype, shape, layout = t
    size = int(np.prod(shape))
    base = np.full(size * (2 if layout == "strided" else 1), 7).astype(dtype)
    if layout == "strided":
        a = base[::2].reshape(shape)
    elif layout == "fortran":
        a = np.asfortranarray(base.reshape(shape))
    else:
        a = base.reshape(shape)
    if layout == "readonly":
        a.setflags(write=False)
    return a


MASK_ARRAYS = st.tuples(
    st.sampled_from(DTYPES + [">i2", "<u2"]),
    st.sampled_from([(NUM_ACTIONS,), (NUM_ACTIONS,), (NUM_ACTIONS + 1,), (NUM_ACTIONS - 1,),
                     (0,), (1, NUM_ACTIONS), (NUM_ACTIONS, 1), (2, NUM_ACTIONS)]),
    st.sampled_from(["c", "c", "strided", "fortran", "readonly"]),
).map(_mask_array)

SEAT_VALUES = st.one_of(
    st.sampled_from(SEATS + ["r", "y", "g", "b", "R", "RED", "Green", "bLuE", 0, 1, 2, 3, True]),
    st.text(max_size=6), ANY_INT, FLOATS, NP_SCALARS, JUNK,
)


def valid_seat(value):
    i = as_index(value)
    if i is not None:
        return 0 <= i < 4
    if isinstance(value, str):
        t = value.lower()
        return t in SEATS or t in ("r", "y", "g", "b")
    return False


class EnvGameMachine(RuleBasedStateMachine):
    splut_bin = None

    def __init__(self):
        super().__init__()
        _count_example("EnvGame")
        self.g = None

    @initialize(players=PLAYERS)
    def setup(self, players):
        self.players = players
        self.g = EnvGame(players)
        self.actions = []  # the ids played
        self.model = Position(players)  # the same steps, as text
        self.hashes = []  # the positions after each step, for repetitions

    def attempt(self, what, fn, *args):
        before = envgame_state(self.g)
        r = guarded(what, fn, *args)
        if refused(r):
            assert envgame_state(self.g) == before, what
        return r

    def played(self, a, gone, seats_before):
        self.actions.append(a)
        self.model.play_action(a)
        self.hashes.append(self.model.zobrist)
        assert set(gone) <= set(seats_before)
        assert set(gone) == set(seats_before) - set(self.g.seats_in_game)
        assert self.g.repetition_count == self.hashes.count(self.model.zobrist)

    @rule(i=st.integers(0, 1000))
    def step_legal(self, i):
        actions = self.g.legal_actions()
        if not actions:
            r = self.attempt("step(0) after the end", self.g.step, 0)
            assert refused(r)
            return
        a = actions[i % len(actions)]
        seats = self.g.seats_in_game
        gone = guarded(f"step({a})", self.g.step, a)
        assert not refused(gone), gone
        self.played(a, gone, seats)

    @rule(value=ANY_VALUE)
    def step_any(self, value):
        legal = self.g.legal_actions()
        seats = self.g.seats_in_game
        i = as_index(value)
        r = self.attempt(f"step({value!r})", self.g.step, value)
        if is_bool(value) and not refused(r):
            self.played(i, r, seats)
        elif i is not None and i in legal and not is_bool(value):
            assert not refused(r), r
            self.played(i, r, seats)
        else:
            assert refused(r), value

    @rule(mask=MASK_ARRAYS)
    def fill_mask(self, mask):
        before = mask.copy()
        ok = (mask.dtype in (np.int8, np.uint8) and mask.shape == (NUM_ACTIONS,)
              and mask.flags.c_contiguous and mask.flags.writeable)
        r = self.attempt(f"fill_mask({mask.dtype} {mask.shape} {mask.flags.c_contiguous})",
                         self.g.fill_mask, mask)
        if ok:
            assert not refused(r), r
            assert np.array_equal(mask, self.g.action_mask())
        else:
            assert refused(r), (mask.dtype, mask.shape, mask.flags)
            assert np.array_equal(mask, before), "a refused fill_mask wrote to the array"

    @rule(value=st.one_of(JUNK, st.lists(st.integers(0, 1), min_size=NUM_ACTIONS,
                                         max_size=NUM_ACTIONS)))
    def fill_mask_not_an_array(self, value):
        assert refused(self.attempt(f"fill_mask({type(value).__name__})", self.g.fill_mask,
                                    value))

    @rule(seat=SEAT_VALUES)
    def observe(self, seat):
        r = self.attempt(f"observe({seat!r})", self.g.observe, seat)
        if is_bool(seat):
            assert refused(r) or r.shape == (28, 9, 9)
        elif valid_seat(seat):
            assert not refused(r), r
            assert r.shape == (28, 9, 9) and r.dtype == np.float32
            assert set(np.unique(r)) <= {0.0, 1.0}
        else:
            assert refused(r), seat

    @rule()
    def copies(self):
        c = guarded("copy()", self.g.copy)
        assert envgame_state(c) == envgame_state(self.g)
        if c.legal_actions():
            before = envgame_state(self.g)
            c.step(c.legal_actions()[0])
            assert envgame_state(self.g) == before
        r = guarded("pickle.dumps(EnvGame)", pickle.dumps, self.g)
        assert not refused(r), r
        assert envgame_state(pickle.loads(r)) == envgame_state(self.g)
        assert envgame_state(copy.deepcopy(self.g)) == envgame_state(self.g)

    @rule(players=st.one_of(PLAYERS, st.integers(-1, 6), HUGE, st.booleans(), FLOATS),
          cut=st.integers(0, 400), edit=st.one_of(st.none(), st.tuples(
              st.integers(0, 400), st.one_of(ANY_INT, FLOATS, JUNK, st.booleans()))),
          shape=st.sampled_from(["pair", "pair", "short", "long", "junk"]))
    def setstate_hostile(self, players, cut, edit, shape):
        """The state of a pickled EnvGame (players, action ids), mutated:
        read into a scratch game, whole or refused with it unchanged."""
        ids = list(self.actions[:cut])
        if edit is not None and ids:
            ids[edit[0] % len(ids)] = edit[1]
        state = {"pair": (players, ids), "short": (players,), "long": (players, ids, 0),
                 "junk": ids}[shape]
        q = EnvGame(2)
        q.step(q.legal_actions()[0])
        before = envgame_state(q)
        r = guarded(f"EnvGame.__setstate__({state!r})", q.__setstate__, state)
        if refused(r):
            assert envgame_state(q) == before
            return
        fresh = EnvGame(operator.index(players))
        for a in ids:
            fresh.step(operator.index(a))
        assert envgame_state(fresh) == envgame_state(q)

    @invariant()
    def agrees_with_the_model(self):
        if self.g is None:
            return
        g, p = self.g, self.model
        assert g.spn() == p.spn()
        assert g.legal_actions() == p.legal_actions()
        assert list(np.flatnonzero(g.action_mask())) == sorted(g.legal_actions())
        assert g.is_over == p.is_over() and g.winner == p.winner
        assert g.to_move == (None if p.is_over() else p.side_to_move)
        assert g.to_move_index == (-1 if p.is_over() else SEATS.index(p.side_to_move))
        assert g.ply == len(p.history)
        assert g.seats_in_game == p.seats_in_game
        assert set(g.eliminations) == set(g.seats) - set(g.seats_in_game)
        assert set(g.places) == set(g.eliminations) | ({g.winner} if g.winner else set())
        g.render(), repr(g)

    def teardown(self):
        if self.g is not None and self.splut_bin:
            check_against_binary(self.splut_bin, self.model,
                                 start_line(self.players, self.model.history))


def test_fuzz_envgame(splut_bin):
    EnvGameMachine.splut_bin = splut_bin
    run_state_machine_as_test(EnvGameMachine, settings=PROFILE)


# ---------------------------------------------------------------------------
# The PettingZoo environment.


class EnvMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        pytest.importorskip("pettingzoo")
        _count_example("env")
        self.e = None

    @initialize(players=PLAYERS, reward=st.sampled_from(["place", "win"]),
                max_turns=st.integers(1, 40), repetitions=st.sampled_from([0, 2, 3, 4]),
                seed=st.one_of(st.none(), st.integers(0, 2**31)))
    def setup(self, players, reward, max_turns, repetitions, seed):
        from splut.env import env

        self.e = env(players=players, reward=reward, max_turns=max_turns,
                     repetitions=repetitions)
        self.e.reset(seed=seed)
        self.totals = {}

    def state(self):
        e = self.e
        return (e.unwrapped.game.spn(), e.agent_selection, list(e.agents),
                dict(e.rewards), dict(e.terminations), dict(e.truncations),
                dict(e._cumulative_rewards))

    @precondition(lambda self: self.e is not None and bool(self.e.agents))
    @rule(i=st.integers(0, 1000))
    def step_legal(self, i):
        obs, _, term, trunc, _ = self.e.last()
        if term or trunc:
            assert not obs["action_mask"].any()
            assert not refused(guarded("step(None)", self.e.step, None))
            return
        ids = np.flatnonzero(obs["action_mask"])
        assert list(ids) == sorted(self.e.unwrapped.game.legal_actions())
        assert not refused(guarded("step(legal)", self.e.step, int(ids[i % len(ids)])))

    @precondition(lambda self: self.e is not None and bool(self.e.agents))
    @rule(value=ANY_VALUE)
    def step_any(self, value):
        _, _, term, trunc, _ = self.e.last()
        if term or trunc:
            return  # a dead step takes any value (PettingZoo's protocol)
        legal = self.e.unwrapped.game.legal_actions()
        i = as_index(value)
        if value is not None and i in legal:
            return
        before = self.state()
        r = guarded(f"env.step({value!r})", self.e.step, value)
        if i is not None and i in legal:
            assert not refused(r)  # a float, say, that int() takes to a legal id
        elif refused(r):
            assert self.state() == before
        else:
            # Only what int() reads as a legal id plays.
            assert int(value) in legal, value

    @precondition(lambda self: self.e is not None)
    @rule()
    def observe_all(self):
        for a in self.e.possible_agents:
            o = self.e.observe(a)
            assert o["observation"].shape == (28, 9, 9)
            assert o["action_mask"].shape == (NUM_ACTIONS,)
            if a != self.e.agent_selection:
                assert not o["action_mask"].any()


def test_fuzz_env():
    pytest.importorskip("pettingzoo")
    run_state_machine_as_test(EnvMachine, settings=PROFILE)


# ---------------------------------------------------------------------------
# Batch.


def _actions_array(t):
    """An actions argument built from legal ids `ids` (one per game): in
    some dtype and layout, perhaps the wrong length or shape."""
    ids, kind, dtype = t
    n = len(ids)
    a = np.array(ids)
    if kind == "list":
        return [int(x) for x in ids]
    if kind == "tuple":
        return tuple(int(x) for x in ids)
    if kind == "np-list":
        return [np.array(x).astype(dtype)[()] for x in ids]
    if kind == "strided":
        return np.repeat(a, 2).astype(dtype)[::2]
    if kind == "reversed":
        return a.astype(dtype)[::-1][::-1]
    if kind == "short":
        return a[: max(0, n - 1)].astype(dtype)
    if kind == "long":
        return np.append(a, a[:1]).astype(dtype)
    if kind == "2d":
        return a.astype(dtype).reshape(n, 1)
    if kind == "0d":
        return np.array(ids[0]).astype(dtype)
    if kind == "str":
        return " ".join(str(x) for x in ids)
    return a.astype(dtype)


INT_DTYPES = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"}


class BatchMachine(RuleBasedStateMachine):
    splut_bin = None

    def __init__(self):
        super().__init__()
        _count_example("Batch")
        self.b = None

    @initialize(n=st.integers(1, 6), players=PLAYERS, seed=st.integers(0, 2**64 - 1),
                max_turns=st.integers(1, 40), reward=st.sampled_from(["place", "win"]),
                repetitions=st.sampled_from([0, 2, 3, 4]))
    def setup(self, n, players, seed, max_turns, reward, repetitions):
        self.b = Batch(n, players, seed=seed, max_turns=max_turns, reward=reward,
                       repetitions=repetitions)
        self.n, self.players = n, players
        self.max_turns, self.repetitions, self.reward = max_turns, repetitions, reward
        self.models = [self.new_model() for _ in range(n)]

    def new_model(self):
        """An EnvGame under the batch's rules (the episode code the batch
        shares) and a Position (the rules alone)."""
        return (EnvGame(self.players, self.max_turns, self.repetitions, self.reward),
                Position(self.players))

    def attempt(self, what, fn, *args):
        before = batch_state(self.b)
        r = guarded(what, fn, *args)
        if refused(r):
            assert batch_state(self.b) == before, what
        return r

    def stepped(self, ids):
        """The batch took `ids`: step the models the same way and check the
        ending flags and rewards."""
        b = self.b
        for i, a in enumerate(ids):
            g, p = self.models[i]
            g.step(a)
            p.play_action(a)
            term, trunc = bool(b.terminations[i]), bool(b.truncations[i])
            assert not (term and trunc)
            if term:
                assert p.is_over() and b.winners[i] == SEATS.index(g.winner)
                assert b.rewards[i][b.winners[i]] == 1.0
            else:
                assert b.winners[i] == -1
            # The draw rules, from the position alone.
            draw = not p.is_over() and (
                g.turn > self.max_turns
                or self.repetitions and g.repetition_count >= self.repetitions)
            assert trunc == draw, (i, g.turn, g.repetition_count)
            # The EnvGame ends the same game on the same step, with the same
            # final rewards.
            assert g.is_over == (term or trunc), (i, g.reason)
            assert (g.reason == "last sorcerer standing") == term
            if not (term or trunc):
                assert not b.rewards[i].any()
            if term or trunc:
                want = np.zeros(4, np.float32)
                want[[SEATS.index(s) for s in g.seats]] = g.returns
                assert np.array_equal(b.rewards[i], want), (b.rewards[i], want, g.result)
                self.models[i] = self.new_model()

    @rule()
    def step_random(self):
        acts = guarded("random_actions()", self.b.random_actions)
        assert acts.dtype == np.int64 and acts.shape == (self.n,)
        ids = [int(a) for a in acts]
        for i, a in enumerate(ids):
            assert a in self.b.legal_actions(i)
        assert not refused(guarded("step(random_actions())", self.b.step, acts))
        self.stepped(ids)

    @rule(picks=st.lists(st.integers(0, 1000), min_size=6, max_size=6),
          kind=st.sampled_from(["array", "array", "list", "tuple", "np-list", "strided",
                                "reversed", "short", "long", "2d", "0d", "str"]),
          dtype=st.sampled_from(DTYPES), bad=st.one_of(st.none(), st.tuples(
              st.integers(0, 5), st.one_of(st.integers(-5, NUM_ACTIONS + 5), HUGE))))
    def step_shaped(self, picks, kind, dtype, bad):
        """Legal ids (one game's perhaps replaced by anything) in many
        shapes and dtypes: accepted exactly when the documentation says."""
        ids = [self.b.legal_actions(i)[picks[i] % len(self.b.legal_actions(i))]
               for i in range(self.n)]
        if bad is not None:
            ids[bad[0] % self.n] = bad[1]
        try:
            arg = _actions_array((ids, kind, dtype))
        except (OverflowError, ValueError):
            return  # numpy itself refuses the value in that dtype
        # What the batch would read: the values as Python ints, if they are.
        try:
            seen = [operator.index(x) for x in arg] if not isinstance(arg, str) else None
        except TypeError:
            seen = None
        legal_values = (seen is not None and len(seen) == self.n
                        and all(v in self.b.legal_actions(i) for i, v in enumerate(seen)))
        r = self.attempt(f"step({kind} {dtype} {ids})", self.b.step, arg)
        if refused(r):
            must = (legal_values and kind in ("array", "list", "tuple", "np-list", "reversed")
                    and (kind in ("list", "tuple") or dtype in INT_DTYPES))
            assert not must, r
        else:
            assert legal_values, (kind, dtype, ids)
            self.stepped(seen)

    @rule(which=st.sampled_from(["to_move", "winners", "masks0", "turns"]))
    def step_own_arrays(self, which):
        arrays = {"to_move": lambda: self.b.to_move, "winners": lambda: self.b.winners,
                  "masks0": lambda: self.b.masks[0][: self.n].astype(np.int64),
                  "turns": lambda: self.b.turns()}
        arg = arrays[which]()
        ids = [int(x) for x in np.asarray(arg)]
        ok = all(v in self.b.legal_actions(i) for i, v in enumerate(ids))
        r = self.attempt(f"step(batch.{which})", self.b.step, arg)
        assert refused(r) != ok
        if ok:
            self.stepped(ids)

    @rule(value=st.one_of(JUNK, FLOATS, ANY_INT, st.text(max_size=4)))
    def step_junk(self, value):
        # A short list of small ints (from JUNK) may be legal ids for every game.
        legal = isinstance(value, list) and len(value) == self.n and all(
            a in self.b.legal_actions(i) for i, a in enumerate(value))
        r = self.attempt(f"step({value!r})", self.b.step, value)
        if legal:
            assert not refused(r), r
            self.stepped(value)
        else:
            assert refused(r), value

    @rule(i=st.one_of(st.integers(-3, 10), HUGE, FLOATS, JUNK, NP_SCALARS))
    def per_game_queries(self, i):
        k = as_index(i)
        for name in ("spn", "legal_actions"):
            r = self.attempt(f"{name}({i!r})", getattr(self.b, name), i)
            if not is_bool(i):
                assert refused(r) == (k is None or not 0 <= k < self.n), (name, i, r)

    @rule()
    def observations(self):
        o = guarded("observations()", self.b.observations)
        assert o.shape == (self.n, 28, 9, 9) and o.dtype == np.float32
        for i, (g, _) in enumerate(self.models):
            assert np.array_equal(o[i], g.observe(g.to_move))

    @rule()
    def reset(self):
        guarded("reset()", self.b.reset)
        self.models = [self.new_model() for _ in range(self.n)]
        assert not self.b.rewards.any() and not self.b.terminations.any()
        assert (self.b.winners == -1).all()

    @invariant()
    def agrees_with_the_models(self):
        if self.b is None:
            return
        b = self.b
        assert len(b) == self.n and b.players == self.players
        assert b.masks.shape == (self.n, NUM_ACTIONS)
        turns = b.turns()
        for i, (g, p) in enumerate(self.models):
            assert b.spn(i) == g.spn() == p.spn()
            assert b.legal_actions(i) == g.legal_actions()
            assert list(np.flatnonzero(b.masks[i])) == sorted(g.legal_actions())
            assert b.to_move[i] == g.to_move_index
            assert turns[i] == g.turn

    def teardown(self):
        if self.b is not None and self.splut_bin:
            _, p = self.models[0]
            check_against_binary(self.splut_bin, p, start_line(self.players, p.history))


def test_fuzz_batch(splut_bin):
    BatchMachine.splut_bin = splut_bin
    run_state_machine_as_test(BatchMachine, settings=PROFILE)


BIG_SIZES = [2**20 + 1, 10**9, 10**12, 2**63, 2**64 - 1]


@settings(PROFILE, max_examples=max(PROFILE.max_examples * 3, 30))
@hypothesis.given(
    n=st.one_of(st.integers(-3, 3), FLOATS, JUNK, st.text(max_size=3), st.booleans(),
                st.sampled_from([-(2**63), -(2**64), 2**64, 10**30]),
                st.sampled_from(BIG_SIZES)),
    players=st.one_of(st.integers(-2, 6), HUGE, FLOATS, st.text(max_size=2), st.booleans(),
                      NP_SCALARS),
    seed=st.one_of(st.integers(0, 3), HUGE, FLOATS, st.none()),
    max_turns=st.one_of(st.integers(0, 400), st.sampled_from([-1, 2**32, 10**30]), FLOATS),
    reward=st.one_of(st.sampled_from(["place", "win", "Place", "", "wins"]), JUNK),
    repetitions=st.one_of(st.integers(0, 5), st.sampled_from([-1, 2**32, 10**30]), FLOATS),
)
def test_fuzz_batch_arguments(n, players, seed, max_turns, reward, repetitions):
    """Batch's constructor. A size that exhausts memory aborts an
    unhardened build: such sizes are tried only once `hardened()`."""
    _count_example("Batch()")
    size = as_index(n)
    if size is not None and size in BIG_SIZES and not hardened():
        return
    r = guarded("Batch(...)", Batch, n, players, seed=seed, max_turns=max_turns, reward=reward,
                repetitions=repetitions, allowed=REFUSALS + (MemoryError,))
    args = (n, players, seed, max_turns, reward, repetitions)
    if any(is_bool(a) for a in args) or as_index(max_turns) == 0 or as_index(repetitions) == 1:
        # Read as ints before the hardening, refused after.
        assert refused(r) or len(r) == size
        return
    valid = (size is not None and 1 <= size <= 3
             and as_index(players) in (2, 3, 4)
             and as_index(seed) is not None and 0 <= as_index(seed) < 2**64
             and as_index(max_turns) is not None and 0 <= as_index(max_turns) < 2**32
             and isinstance(reward, str) and reward in ("place", "win")
             and as_index(repetitions) is not None and 0 <= as_index(repetitions) < 2**32)
    assert refused(r) != valid, (r, *args)
    if not refused(r):
        assert len(r) == size and r.players == as_index(players)


@settings(PROFILE)
@hypothesis.given(
    players=st.one_of(PLAYERS, st.integers(-1, 6), FLOATS, st.booleans(), st.text(max_size=2)),
    reward=st.one_of(st.sampled_from(["place", "win", "lose"]), JUNK),
    max_turns=st.one_of(st.integers(-2, 5), HUGE, FLOATS),
    repetitions=st.one_of(st.integers(-2, 5), HUGE, FLOATS),
    render_mode=st.sampled_from([None, "ansi", "human", "rgb", 3]),
)
def test_fuzz_env_arguments(players, reward, max_turns, repetitions, render_mode):
    """The PettingZoo environment's constructor: refused with a normal
    exception or a working environment (out-of-range turn and repetition
    limits are accepted before the hardening, refused after)."""
    pytest.importorskip("pettingzoo")
    from splut.env import env

    _count_example("env()")
    r = guarded("env(...)", env, players=players, reward=reward, max_turns=max_turns,
                repetitions=repetitions, render_mode=render_mode)
    if not refused(r):
        assert players in (2, 3, 4) and reward in ("place", "win")
        r.reset(seed=1)
        r.step(r.unwrapped.game.legal_actions()[0])


# ---------------------------------------------------------------------------
# Engine.

OPTION_VALUES = st.one_of(
    st.integers(-5, 70), HUGE, FLOATS, st.booleans(), st.none(),
    st.sampled_from(["", " ", "true", "false", "auto", "alphabeta", "mcts", "maxn",
                     "paranoid", "lots", "1\n2", "\x00", "64 MiB", "default", "<empty>",
                     "/nonexistent/weights.txt", "ab" * 5000]),
    st.text(max_size=8),
)
OPTION_NAMES_FUZZ = st.one_of(
    st.sampled_from(OPTION_NAMES + ["Skill_Level", "skill level", "hash", "MULTIPV",
                                    "Pondering", "", " ", "Hash ", "Skill__Level"]),
    st.text(max_size=8),
)


def too_heavy(name, value):
    """Values that are legal but would make the fuzzer slow: a big table, many
    threads."""
    try:
        v = int(str(value).strip())
    except ValueError:
        return False
    key = name.replace("_", " ").strip().lower()
    return (key == "hash" and 64 < v <= 65536) or (key == "threads" and 4 < v <= 256)


SEARCH_LIMITS = st.one_of(
    st.builds(dict, depth=st.integers(1, 4)),
    st.builds(dict, nodes=st.integers(1, 4000)),
    st.builds(dict, movetime=st.integers(1, 40)),
    st.builds(dict, depth=st.integers(1, 30), nodes=st.integers(1, 3000)),
)
BAD_LIMITS = st.one_of(
    st.just({}),
    st.builds(dict, depth=st.one_of(st.sampled_from([-1, 2**32, 10**30]), FLOATS, JUNK)),
    st.builds(dict, nodes=st.one_of(st.sampled_from([-1, 2**64, 10**30]), FLOATS, JUNK)),
    st.builds(dict, movetime=st.one_of(st.sampled_from([-1, 2**64, 10**30]), FLOATS, JUNK)),
    st.builds(dict, infinite=st.one_of(st.sampled_from([None, 2, "yes"]), FLOATS)),
)


class EngineMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        _count_example("Engine")
        self.e = None

    @initialize(players=PLAYERS, seed=st.integers(0, 2**32), steps=st.integers(0, 60),
                hash_mb=st.integers(1, 16))
    def setup(self, players, seed, steps, hash_mb):
        self.e = Engine(Threads=1, Hash=hash_mb)
        self.p = random_position(players, seed, steps)
        if self.p.is_over():
            self.p.undo()

    def attempt(self, what, fn, *args, **kwargs):
        before = engine_state(self.e)
        r = guarded(what, fn, *args, **kwargs)
        if refused(r):
            assert engine_state(self.e) == before, what
        assert not self.e.is_searching(), what
        return r

    def check_turn(self, t):
        u = pickle.loads(pickle.dumps(t))
        assert u == t and copy.deepcopy(t) == t and u.steps == t.steps
        assert 1 <= len(t.steps) <= 3, t
        assert t.score.split()[0] in ("cp", "win", "loss")
        assert set(t.win_probabilities) == set(self.p.seats_in_game)
        q = copy.copy(self.p)
        for s in t.steps:
            assert s in q.legal_steps(), (t, q.spn())
            q.play(s)

    @rule(limits=SEARCH_LIMITS)
    def best_turn(self, limits):
        t = self.attempt(f"best_turn({limits})", self.e.best_turn, self.p, **limits)
        assert not refused(t), t
        self.check_turn(t)

    @rule(limits=st.sampled_from([dict(depth=0), dict(nodes=0), dict(movetime=0),
                                  dict(depth=0, nodes=0, movetime=0), dict(depth=2**32 - 1,
                                  nodes=500), dict(nodes=2**64 - 1, movetime=5)]))
    def best_turn_edges(self, limits):
        """Limits at the edges: refused or a whole legal turn."""
        t = self.attempt(f"best_turn({limits})", self.e.best_turn, self.p, **limits)
        if not refused(t):
            self.check_turn(t)

    @rule(limits=BAD_LIMITS)
    def best_turn_bad(self, limits):
        assert refused(self.attempt(f"best_turn({limits})", self.e.best_turn, self.p, **limits))

    @rule(multipv=st.one_of(st.integers(0, 70), HUGE, FLOATS), depth=st.integers(1, 3))
    def analyse(self, multipv, depth):
        lines = self.attempt(f"analyse(multipv={multipv!r})", self.e.analyse, self.p,
                             multipv=multipv, depth=depth)
        k = as_index(multipv)
        if k is not None and 1 <= k <= 64:
            assert not refused(lines), lines
            assert 1 <= len(lines) <= k
            for n, line in enumerate(lines, 1):
                assert line.multipv == n and line.pv and line.pv[0] in self.p.legal_steps()
        else:
            assert refused(lines)

    @rule(stop_after=st.floats(0, 0.08), infinite=st.booleans(), analyse=st.booleans())
    def stop_a_search(self, stop_after, infinite, analyse):
        """A long search stopped from this thread at a random moment; meanwhile
        the engine refuses another search and option changes."""
        limits = {"infinite": True} if infinite else {"movetime": 10**9}
        box = {}
        fn = self.e.analyse if analyse else self.e.best_turn

        def search():
            try:
                box["r"] = guarded("long search", fn, self.p, **limits)
            except BaseException as e:  # noqa: BLE001 - reported below
                box["failure"] = e

        t = threading.Thread(target=search, daemon=True)
        t.start()
        time.sleep(stop_after)
        if self.e.is_searching():
            # Refused while the search runs (the search may end by itself
            # just before: a proven result).
            r = guarded("best_turn during a search", self.e.best_turn, self.p, depth=1)
            assert not refused(r) or isinstance(r.error, SplutError), r
            guarded("set_option during a search", self.e.set_option, "Hash", 2)
        self.e.stop()
        deadline = time.monotonic() + 10
        while t.is_alive() and time.monotonic() < deadline:
            self.e.stop()  # a search that had not started when stop came
            t.join(0.05)
        assert not t.is_alive(), "a stopped search did not return within 10 s"
        if "failure" in box:
            raise box["failure"]
        r = box["r"]
        assert not refused(r), r
        if analyse:
            assert r and all(line.pv[0] in self.p.legal_steps() for line in r if line.pv)
        else:
            self.check_turn(r)
        assert not self.e.is_searching()

    @rule(threads=st.integers(2, 4))
    def searches_from_threads(self, threads):
        """Several threads search at once: one at a time runs, the others
        are refused with SplutError; none hangs."""
        results = []

        def search():
            try:
                results.append(guarded("concurrent best_turn", self.e.best_turn, self.p,
                                       nodes=2000))
            except BaseException as e:  # noqa: BLE001 - seen below
                results.append(e)

        ts = [threading.Thread(target=search) for _ in range(threads)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(CALL_TIMEOUT)
            assert not t.is_alive()
        assert len(results) == threads
        for r in results:
            if isinstance(r, BaseException):
                raise r
            if refused(r):
                assert isinstance(r.error, SplutError), r
            else:
                self.check_turn(r)

    @precondition(lambda self: self.e is not None and hardened())
    @rule(after=st.floats(0.0, 0.2), analyse=st.booleans())
    def ctrl_c_search(self, after, analyse):
        """Ctrl-C during an infinite search: KeyboardInterrupt, the engine
        idle and its options as they were, the next search as usual."""
        before = engine_state(self.e)
        fn = self.e.analyse if analyse else self.e.best_turn
        interrupted("infinite search", fn, self.p, infinite=True, after=after)
        assert not self.e.is_searching()
        assert engine_state(self.e) == before
        self.check_turn(guarded("best_turn after Ctrl-C", self.e.best_turn, self.p, nodes=500))

    @rule()
    def stop_idle(self):
        self.e.stop()
        assert not self.e.is_searching()

    @rule(name=OPTION_NAMES_FUZZ, value=OPTION_VALUES)
    def set_option(self, name, value):
        if too_heavy(name, value):
            return
        self.attempt(f"set_option({name!r}, {value!r})", self.e.set_option, name, value)

    @rule(name=st.one_of(OPTION_NAMES_FUZZ, JUNK))
    def get_option(self, name):
        self.attempt(f"get_option({name!r})", self.e.get_option, name)

    @rule()
    def new_game(self):
        assert not refused(self.attempt("new_game()", self.e.new_game))

    @rule(position=st.one_of(JUNK, st.text(max_size=5), ANY_INT))
    def search_not_a_position(self, position):
        assert refused(self.attempt("best_turn(junk)", self.e.best_turn, position, depth=1))

    def teardown(self):
        if self.e is not None:
            self.e.stop()
            assert not self.e.is_searching()


def test_fuzz_engine():
    run_state_machine_as_test(EngineMachine, settings=PROFILE)


@settings(PROFILE, max_examples=max(PROFILE.max_examples * 3, 30))
@hypothesis.given(options=st.dictionaries(OPTION_NAMES_FUZZ, OPTION_VALUES, max_size=4))
def test_fuzz_engine_constructor(options):
    _count_example("Engine()")
    options = {k: v for k, v in options.items() if not too_heavy(k, v)}
    r = guarded(f"Engine(**{options!r})", lambda: Engine(**options))
    if not options:
        assert not refused(r)


# ---------------------------------------------------------------------------
# Several threads on one object.

THREAD_OPS = st.lists(
    st.sampled_from(["play", "undo", "perft", "spn", "legal", "copy", "step_for_action",
                     "play_bad"]),
    min_size=1, max_size=12,
)

# Another thread's call on the same object may meet pyo3's borrow check
# ("Already borrowed"): a RuntimeError, not a crash.
THREAD_REFUSALS = REFUSALS + (RuntimeError,)


def borrow_error(r):
    return refused(r) and isinstance(r.error, RuntimeError) and "borrow" in str(r.error)


@settings(PROFILE)
@hypothesis.given(players=PLAYERS, ops=st.lists(THREAD_OPS, min_size=2, max_size=4),
                  seed=st.integers(0, 2**32))
def test_fuzz_position_from_threads(splut_bin, players, ops, seed):
    """Threads play, undo, count and read one Position at once: every call
    returns or refuses, and the position is whole afterwards (its history
    replays to it, the binary agrees)."""
    _count_example("Position threads")
    p = Position(players)
    barrier = threading.Barrier(len(ops))
    results = []

    failures = []

    def worker(my_ops, rng):
        try:
            work(my_ops, rng)
        except BaseException as e:  # noqa: BLE001 - raised below
            failures.append(e)

    def work(my_ops, rng):
        barrier.wait()
        for op in my_ops:
            if op == "play":
                steps = p.legal_steps()
                r = guarded("play", p.play, rng.choice(steps) if steps else "pass",
                            allowed=THREAD_REFUSALS)
            elif op == "undo":
                r = guarded("undo", p.undo, allowed=THREAD_REFUSALS)
            elif op == "perft":
                r = guarded("perft", p.perft, rng.randint(1, 4), threads=rng.choice([1, 2]),
                            allowed=THREAD_REFUSALS)
            elif op == "spn":
                r = guarded("spn", p.spn, allowed=THREAD_REFUSALS)
            elif op == "legal":
                r = guarded("legal", p.legal_actions, allowed=THREAD_REFUSALS)
            elif op == "copy":
                r = guarded("copy", copy.deepcopy, p, allowed=THREAD_REFUSALS)
            elif op == "step_for_action":
                r = guarded("step_for_action", p.step_for_action, rng.randrange(NUM_ACTIONS),
                            allowed=THREAD_REFUSALS)
            else:
                r = guarded("play bad", p.play, "e2e9", allowed=THREAD_REFUSALS)
            results.append(r)

    threads = [threading.Thread(target=worker, args=(o, random.Random(seed + k)))
               for k, o in enumerate(ops)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(CALL_TIMEOUT * 2)
        assert not t.is_alive()
    if failures:
        raise failures[0]
    for r in results:
        assert not refused(r) or isinstance(r.error, ValueError) or borrow_error(r), r
    q = Position(players)
    for s in p.history:
        q.play(s)
    assert q == p and q.spn() == p.spn()
    check_consistent_position(p)
    check_against_binary(splut_bin, p, start_line(players, p.history))


@settings(PROFILE)
@hypothesis.given(players=PLAYERS, n=st.integers(1, 200), threads=st.integers(2, 4),
                  calls=st.integers(1, 20))
def test_fuzz_batch_from_threads(players, n, threads, calls):
    """Threads step, read and reset one Batch at once: nothing crashes and
    the batch is whole afterwards (masks equal each game's legal ids, which
    equal those of its SPN)."""
    _count_example("Batch threads")
    b = Batch(n, players, seed=n)
    barrier = threading.Barrier(threads)
    results = []

    failures = []

    def worker(k):
        try:
            work(k)
        except BaseException as e:  # noqa: BLE001 - raised below
            failures.append(e)

    def work(k):
        barrier.wait()
        for c in range(calls):
            what = (k + c) % 5
            if what in (0, 1):
                r = guarded("step", lambda: b.step(b.random_actions()), allowed=THREAD_REFUSALS)
            elif what == 2:
                r = guarded("observations", b.observations, allowed=THREAD_REFUSALS)
            elif what == 3:
                r = guarded("spn", b.spn, c % n, allowed=THREAD_REFUSALS)
            else:
                r = guarded("reset" if c % 7 == 0 else "turns",
                            b.reset if c % 7 == 0 else b.turns, allowed=THREAD_REFUSALS)
            results.append(r)

    ts = [threading.Thread(target=worker, args=(k,)) for k in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(CALL_TIMEOUT * 2)
        assert not t.is_alive()
    if failures:
        raise failures[0]
    for r in results:
        # A step whose random ids another thread's step made stale is refused.
        assert not refused(r) or borrow_error(r) or isinstance(r.error, ValueError), r
    for i in range(n):
        ids = b.legal_actions(i)
        assert list(np.flatnonzero(b.masks[i])) == sorted(ids)
        assert Position.from_spn(b.spn(i)).legal_actions() == ids
        assert b.to_move[i] == SEATS.index(Position.from_spn(b.spn(i)).side_to_move)
