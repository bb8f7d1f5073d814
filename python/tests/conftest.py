"""Shared fixtures: the `splut` command-line binary for cross-checks."""

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
