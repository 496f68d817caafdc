# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What every benchmark of bench.py shares: timing, and the rows it reports."""

import resource
import statistics
import subprocess
import time

# Every reported row (results.md, results.json, the plot), in order.
ROWS = []
# The scaling series: {hosts, rounds, play, wall, cpu} per play run.
SERIES = []
# The series' per-task profile: {hosts, play, tasks: [{task, wall, cpu}]} (medians over the runs of a point).
TASKS = []
# The benchmark running now (bench.py sets it): each row is filed under it.
SECTION = {"name": ""}


def median_time(func, runs, warm_up=True):
    """Median wall time of ``runs`` calls of ``func`` (after one warm-up call)."""
    if warm_up:
        func()
    samples = []
    for dummy_run in range(runs):
        start = time.perf_counter()
        func()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def report(label, ours, baseline, unit_count=1, unit="item"):
    """Print one comparison and keep it as a row."""
    print("  %-58s %9.3f ms/%s  baseline %9.3f ms/%s  ratio %6.2fx"
          % (label, ours * 1000 / unit_count, unit, baseline * 1000 / unit_count, unit, ours / baseline))
    ROWS.append({"section": SECTION["name"], "label": label, "ours": ours / unit_count,
                 "baseline": baseline / unit_count, "unit": unit, "ratio": ours / baseline})


def timed_run(command, **kwargs):
    """Run ``command`` to the end: ``(wall seconds, CPU seconds of it and its children)``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, **kwargs)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
