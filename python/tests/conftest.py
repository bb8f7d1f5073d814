"""Shared fixtures: the `splut` command-line binary for cross-checks, and
what it answers about a position."""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def splut_bin():
    """Path of the `splut` binary: $SPLUT_BIN, else target/release or
    target/debug, else built with `cargo build`."""
    env = os.environ.get("SPLUT_BIN")
    if env:
        return env
    for profile in ("release", "debug"):
        path = REPO / "target" / profile / "splut"
        if path.exists():
            return str(path)
    try:
        subprocess.run(["cargo", "build", "--bin", "splut"], cwd=REPO, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        pytest.skip(f"no splut binary and cargo build failed: {e}")
    return str(REPO / "target" / "debug" / "splut")


def binary_answers(splut_bin, position_line):
    """The binary's answers after `position_line` (a `position ...` protocol
    line): spn, gameover, winner, turn, steps, legal steps (a set) and
    perft 2. Any error line from the binary fails the test."""
    script = (f"{position_line}\nquery spn\nquery gameover\nquery winner\nquery turn\n"
              "query steps\nquery legal\nperft 2\n")
    out = subprocess.run([splut_bin], input=script, capture_output=True, text=True,
                         timeout=60).stdout
    lines = out.splitlines()
    assert not any(l.startswith("info string error") for l in lines), (position_line, out)
    responses = [l[len("response"):].strip() for l in lines
                 if l == "response" or l.startswith("response ")]
    assert len(responses) == 6, out
    nodes = [l for l in lines if l.startswith("nodes ")]
    assert len(nodes) == 1, out
    spn, gameover, winner, turn, steps_left, legal = responses
    return dict(spn=spn, gameover=gameover, winner=winner, turn=turn, steps=steps_left,
                legal=set(legal.split()), perft2=int(nodes[0].split()[1]))
