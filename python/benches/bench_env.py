"""Throughput of the learning environments under random play.

    python python/benches/bench_env.py [--seconds 3] [--players 2] [--batch 1024] [--repetitions 3]

AEC: the PettingZoo environment (splut.env.env, wrapped, and raw_env), one core, steps
per second of agent_iter/last/step with a random legal action (dead steps
counted too). Batch: Batch(n) with random_actions() and step() (masks and
rewards filled in place), steps per second counting one step per game; and
again with observations() after every step. Set RAYON_NUM_THREADS to fix
the batch's cores (e.g. 2).
"""

import argparse
import os
import time

import numpy as np

from splut._splut import Batch
from splut.env import env, raw_env


def bench_aec(players, seconds, raw=False, repetitions=3):
    make = raw_env if raw else env
    e = make(players=players, repetitions=repetitions)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
            else:
                ids = obs["action_mask"].view(bool).nonzero()[0]
                e.step(int(ids[rng.integers(len(ids))]))
            steps += 1
        e.reset()
    return steps / (time.perf_counter() - t0)


def bench_batch(n, players, seconds, observe, repetitions=3):
    b = Batch(n, players, seed=0, repetitions=repetitions)
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(50):
            b.step(b.random_actions())
            if observe:
                b.observations()
        steps += 50 * n
    return steps / (time.perf_counter() - t0)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument("--repetitions", type=int, default=3, help="draw rule (0: off)")
    a = p.parse_args()
    threads = os.environ.get("RAYON_NUM_THREADS", "all")
    for raw in (False, True):
        name = "raw_env (unwrapped)" if raw else "env() (wrapped)"
        r = bench_aec(a.players, a.seconds, raw, a.repetitions)
        print(f"AEC {name}, {a.players} players: {r:,.0f} steps/s (1 core)")
    for obs in (False, True):
        what = "step + observations()" if obs else "step (masks + rewards)"
        r = bench_batch(a.batch, a.players, a.seconds, obs, a.repetitions)
        print(f"Batch({a.batch}), {a.players} players, {what}: {r:,.0f} steps/s (rayon threads: {threads})")


if __name__ == "__main__":
    main()
