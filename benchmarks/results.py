# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What one bench.py run leaves in build/bench/: results.md, results.json, scaling.png.

results.md is the table docs/benchmarks.md shows (benchmarks/publish.py
copies it there, with the plot), so the page's numbers and plot always come
from one run.
"""

import datetime
import json
import os
import platform

from benchlib import ROWS, SERIES, TASKS

SECTION_TITLES = (("edit", "Editing a kickstart"), ("check", "Checking passwords"), ("profile", "Checking by profile"),
                  ("role", "Rendering kickstarts"), ("audit", "Auditing an inventory"),
                  ("linear", "Hostile input, twice the size"), ("hash", "Hashing passwords"),
                  ("blocklist", "Blocklist lookup"))


def machine():
    """One line naming the machine, the Python and the main libraries."""
    parts = ["%s, %d cores" % (platform.platform(terse=True), os.cpu_count() or 0),
             "Python %s" % platform.python_version()]
    for name in ("ansible-core", "pykickstart", "passlib"):
        try:
            from importlib.metadata import version
            parts.append("%s %s" % (name, version(name)))
        except Exception:  # not installed: leave it out
            pass
    return ", ".join(parts) + "; load average at start %.1f" % os.getloadavg()[0]


def _number(seconds, unit):
    if seconds >= 1:
        return "%.2f s/%s" % (seconds, unit)
    return "%.3g ms/%s" % (seconds * 1000, unit)


def markdown(command, elapsed, where, when):
    lines = ["Measured by `%s` (whole run %.0f s) on %s UTC, on %s." % (command, elapsed, when, where), "",
             "| benchmark | ours | baseline | ratio |", "|---|---|---|---|"]
    for row in ROWS:
        label = row["label"] if row["label"].startswith(row["section"]) else "%s, %s" % (row["section"], row["label"])
        lines.append("| %s | %s | %s | %.2fx |"
                     % (label, _number(row["ours"], row["unit"]), _number(row["baseline"], row["unit"]), row["ratio"]))
    if SERIES:
        lines += ["", "Scaling series (SHA-512 crypt at %s rounds on both sides):" % format(SERIES[0]["rounds"], ","),
                  "", "| hosts | role | template loop | ratio (wall) | ratio (CPU) |", "|---|---|---|---|---|"]
        for hosts in sorted(set(run["hosts"] for run in SERIES)):
            role = [run for run in SERIES if run["hosts"] == hosts and run["play"] == "role"][0]
            base = [run for run in SERIES if run["hosts"] == hosts and run["play"] == "template"][0]
            lines.append("| %s | %.3f s/host (CPU %.3f) | %.3f s/host (CPU %.3f) | %.2fx | %.2fx |" % (
                format(hosts, ","), role["wall"] / hosts, role["cpu"] / hosts, base["wall"] / hosts,
                base["cpu"] / hosts, role["wall"] / base["wall"], role["cpu"] / base["cpu"]))
    if TASKS:
        lines += profile_table()
    return "\n".join(lines) + "\n"


def _task_label(name):
    """A task's name for the table: without the role's prefix and an argument spec's description."""
    name = name.split(" : ", 1)[-1]
    if name.startswith("Validating arguments"):
        name = name.split(" - ", 1)[0]
    return name.replace("|", "/")


def profile_table():
    """The series' per-task profile: each task's wall time per host (CPU time per host) at each host count."""
    counts = sorted(set(entry["hosts"] for entry in TASKS))
    lines = ["", "Per task (the series' runs; wall time per host, CPU time per host in brackets, the controller "
             "and its workers):", "",
             "| play | task | %s |" % " | ".join("%s hosts" % format(hosts, ",") for hosts in counts),
             "|---|---|%s" % ("---|" * len(counts))]
    for play in ("role", "template"):
        by_count = dict((entry["hosts"], entry["tasks"]) for entry in TASKS if entry["play"] == play)
        names = [row["task"] for row in by_count.get(counts[-1], [])]
        for index, name in enumerate(names):
            cells = []
            for hosts in counts:
                rows = by_count.get(hosts) or []
                row = rows[index] if index < len(rows) and rows[index]["task"] == name else None
                cells.append("%.1f ms (%.1f)" % (row["wall"] * 1000 / hosts, row["cpu"] * 1000 / hosts)
                             if row else "")
            lines.append("| %s | %s | %s |" % (play, _task_label(name), " | ".join(cells)))
    return lines


def plot(path):
    """scaling.png: per-host cost against host count; per-password cost of each libpwquality backend."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for play, colour in (("role", "tab:blue"), ("template", "tab:orange")):
        runs = sorted((run for run in SERIES if run["play"] == play), key=lambda run: run["hosts"])
        hosts = [run["hosts"] for run in runs]
        label = "kickstart role" if play == "role" else "ansible.builtin.template loop"
        left.plot(hosts, [run["wall"] / run["hosts"] for run in runs], "o-", color=colour, label=label + " (wall)")
        left.plot(hosts, [run["cpu"] / run["hosts"] for run in runs], "s--", color=colour, label=label + " (CPU)")
    left.set_xscale("log")
    counts = sorted(set(run["hosts"] for run in SERIES))
    left.set_xticks(counts, [format(n, ",") for n in counts])
    left.minorticks_off()
    left.set_ylim(bottom=0)
    left.set_xlabel("hosts")
    left.set_ylabel("seconds per host")
    rounds = SERIES[0]["rounds"] if SERIES else 0
    left.set_title("Rendering kickstarts (%s SHA-512 rounds)" % format(rounds, ","))
    left.legend(fontsize="small")
    checks = [row for row in ROWS if row["section"] == "check"]
    names = [row["label"].replace("pwpolicy_check, ", "").replace(" backend", "") for row in checks]
    positions = range(len(checks))
    right.barh([p + 0.2 for p in positions], [row["ours"] * 1000 for row in checks], 0.4, label="pwpolicy_check")
    right.barh([p - 0.2 for p in positions], [row["baseline"] * 1000 for row in checks], 0.4, label="baseline")
    right.set_yticks(list(positions), names, fontsize="small")
    right.set_xlabel("milliseconds per password")
    right.set_title("Checking passwords")
    right.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def write(out_dir, command, elapsed, where):
    """Write results.md, results.json and (with a series) scaling.png; returns the paths written.

    ``where`` is :func:`machine` as the run started.
    """
    os.makedirs(out_dir, exist_ok=True)
    written = []
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    path = os.path.join(out_dir, "results.md")
    with open(path, "w") as handle:
        handle.write(markdown(command, elapsed, where, when))
    written.append(path)
    path = os.path.join(out_dir, "results.json")
    with open(path, "w") as handle:
        json.dump({"command": command, "machine": where, "finished": when, "elapsed": elapsed, "rows": ROWS,
                   "series": SERIES, "tasks": TASKS}, handle, indent=1)
    written.append(path)
    if SERIES or any(row["section"] == "check" for row in ROWS):
        path = os.path.join(out_dir, "scaling.png")
        try:
            plot(path)
            written.append(path)
        except ImportError:
            print("matplotlib is not installed (requirements-dev.txt): no plot written")
    return written
