# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The role benchmark and its scaling series (bench.py runs them).

Both plays (benchmarks/role/role.yml and template.yml) run as whole
``ansible-playbook`` processes, 2 forks, pipelining on, over an inventory of N
local hosts written here; each run's wall time and CPU time (the process and
its children) are measured.  At 100 hosts each play runs ROLE_RUNS times,
alternating, and the medians are compared; so does the scaling series at every
point under 1,000 hosts, and it runs each play once from there.
Every run must leave one kickstart per host, or the benchmark stops; a play's
output is shown only when it fails.  Both plays must also do the same work:
the first host's kickstarts must be the same but for the comments, the role's
%anaconda section and the hashes' salts (same_work), or the benchmark stops.
"""

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

import yaml

import json

from benchlib import SERIES, TASKS, report, timed_run

ROLE_HOSTS = 100
SERIES_HOSTS = (10, 100, 1000)
# The role's default (passlib's SHA-512 crypt default) and the series' reduced setting.
DEFAULT_ROUNDS = 656000
SERIES_ROUNDS = 5000
FORKS = 2
# Runs of each play at 100 hosts: whole ansible-playbook runs on a shared machine move by
# a tenth between runs, so one run each cannot tell 1.1x from 1.2x.
ROLE_RUNS = 3
# From this host count the series runs each play once (a 1,000-host run lasts minutes, and moves less).
SERIES_ONE_RUN_FROM = 1000


def _inventory(here, work, hosts):
    """benchmarks/role/inventory.yml with ``hosts`` hosts; returns its path."""
    with open(os.path.join(here, "inventory.yml")) as handle:
        inventory = yaml.safe_load(handle)
    width = max(3, len(str(hosts)))
    inventory["all"]["hosts"] = {"host[%s:%s].bench.example" % ("1".zfill(width), str(hosts).zfill(width)): None}
    path = os.path.join(work, "inventory-%d.yml" % hosts)
    with open(path, "w") as handle:
        yaml.safe_dump(inventory, handle)
    return path


class Plays:
    """Runs role.yml or template.yml over N hosts with a given number of hash rounds."""

    def __init__(self, root, collections_dir, work):
        self.here = os.path.join(root, "benchmarks", "role")
        self.work = work
        self.playbook = os.path.join(os.path.dirname(sys.executable), "ansible-playbook")
        self.env = dict(os.environ, BENCH_OUT=os.path.join(work, "out"), ANSIBLE_FORKS=str(FORKS),
                        ANSIBLE_PIPELINING="1", ANSIBLE_NOCOLOR="1", ANSIBLE_ACTION_WARNINGS="0",
                        ANSIBLE_COLLECTIONS_PATH=os.environ.get("ANSIBLE_COLLECTIONS_PATH", collections_dir),
                        # Each task's time (role/callback_plugins/bench_tasks.py), for the per-task profile.
                        ANSIBLE_CALLBACKS_ENABLED="bench_tasks")
        self.tasks = None  # the last run's [{task, wall, cpu}]

    def run(self, name, hosts, rounds):
        """``(wall, cpu)`` of one run of play ``name`` over ``hosts`` hosts."""
        out = os.path.join(self.work, "out", name)
        shutil.rmtree(out, ignore_errors=True)
        tasks = os.path.join(self.work, "tasks-%s-%d.json" % (name, hosts))
        env = dict(self.env, BENCH_HASH_ROUNDS=str(rounds), BENCH_TASKS_OUT=tasks)
        log = os.path.join(self.work, "%s-%d.log" % (name, hosts))
        with open(log, "w") as handle:  # the plays' output (the role's warnings) only when a run fails
            try:
                wall, cpu = timed_run([self.playbook, "-i", _inventory(self.here, self.work, hosts),
                                       os.path.join(self.here, name + ".yml")],
                                      cwd=self.here, env=env, stdout=handle, stderr=subprocess.STDOUT)
            except subprocess.CalledProcessError:
                with open(log) as output:
                    sys.stderr.write("".join(output.readlines()[-40:]))
                raise
        written = len([f for f in os.listdir(out) if f.endswith(".ks")])
        if written != hosts:
            raise SystemExit("role benchmark: %s.yml wrote %d kickstarts for %d hosts" % (name, written, hosts))
        with open(tasks) as handle:
            self.tasks = json.load(handle)
        return wall, cpu


# A crypt hash's salt and digest (the rounds and the scheme stay).
_HASH = re.compile(r"(\$[0-9a-z]+\$(?:rounds=[0-9]+\$)?)[./0-9A-Za-z]+\$[./0-9A-Za-z]+")


def _comparable(path):
    """The kickstart at ``path`` without comments, its %anaconda section and the hashes' salts and digests."""
    with open(path) as handle:
        text = re.sub(r"(?ms)^%anaconda$.*?^%end$\n?", "", handle.read())
    return [_HASH.sub(r"\1SALT$DIGEST", line) for line in text.splitlines() if line and not line.startswith("#")]


def same_work(out):
    """Stop unless both plays rendered the same kickstart for the first host (a baseline that skips work, a
    password it does not hash, would flatter the role)."""
    first = sorted(os.listdir(os.path.join(out, "role")))[0]
    role, template = (_comparable(os.path.join(out, name, first)) for name in ("role", "template"))
    if role != template:
        changed = [line for line in template if line not in role][:3]
        raise SystemExit("role benchmark: the template loop renders another kickstart than the role (%s: %s)"
                         % (first, changed or "lines missing"))


def bench_role(root, collections_dir):
    """The role against the template loop at 100 hosts, with the role's default hash rounds."""
    if not os.path.isdir(os.path.join(root, "benchmarks", "role")):
        print("3. role benchmark: benchmarks/role not found, skipped")
        return
    print("3. kickstart role vs ansible.builtin.template loop (%d hosts, %d forks, SHA-512 crypt %s rounds, "
          "median of %d runs each, alternating)" % (ROLE_HOSTS, FORKS, format(DEFAULT_ROUNDS, ","), ROLE_RUNS))
    with tempfile.TemporaryDirectory(prefix="kspw-bench-") as work:
        found = _medians(Plays(root, collections_dir, work), ROLE_HOSTS, DEFAULT_ROUNDS, ROLE_RUNS)
    ours, base = found["role"], found["template"]
    report("role, %d hosts, wall time" % ROLE_HOSTS, ours[0], base[0], ROLE_HOSTS, "host")
    report("role, %d hosts, CPU time" % ROLE_HOSTS, ours[1], base[1], ROLE_HOSTS, "host")


def _task_medians(runs):
    """``[{task, wall, cpu}]``: each task's median over ``runs`` (each a run's task list, in the same order)."""
    return [{"task": rows[0]["task"], "wall": statistics.median(row["wall"] for row in rows),
             "cpu": statistics.median(row["cpu"] for row in rows)} for rows in zip(*runs)]


def _medians(plays, hosts, rounds, runs, profile=False):
    """``{play: (wall, cpu)}``: the median of ``runs`` alternating runs of each play over ``hosts`` hosts;
    ``profile``: keep each task's median time in TASKS too."""
    found = {"role": [], "template": []}
    tasks = {"role": [], "template": []}
    for dummy_pair in range(runs):  # alternating: a drift of the machine's speed hits both plays
        for name in ("role", "template"):
            found[name].append(plays.run(name, hosts, rounds))
            tasks[name].append(plays.tasks)
        same_work(os.path.join(plays.work, "out"))
    if profile:
        TASKS.extend({"hosts": hosts, "play": name, "tasks": _task_medians(tasks[name])} for name in tasks)
    if runs > 1:
        print("  %s hosts, each run's role/template wall: %s" % (format(hosts, ","), ", ".join(
            "%.2fx" % (mine[0] / theirs[0]) for mine, theirs in zip(found["role"], found["template"]))))
    return dict((name, tuple(statistics.median(run[i] for run in found[name]) for i in (0, 1))) for name in found)


def bench_series(root, collections_dir, counts):
    """Per-host cost of both plays against the host count, with the reduced hash rounds on both sides: the median
    of ROLE_RUNS alternating runs at each point under SERIES_ONE_RUN_FROM hosts, one run each from there."""
    print("   scaling series: both plays for %s hosts, SHA-512 crypt at %s rounds on both sides "
          "(reduced from %s to keep 1,000 hosts affordable); median of %d alternating runs under %s hosts"
          % (", ".join(format(n, ",") for n in counts), format(SERIES_ROUNDS, ","), format(DEFAULT_ROUNDS, ","),
             ROLE_RUNS, format(SERIES_ONE_RUN_FROM, ",")))
    with tempfile.TemporaryDirectory(prefix="kspw-series-") as work:
        plays = Plays(root, collections_dir, work)
        for hosts in counts:
            found = _medians(plays, hosts, SERIES_ROUNDS, ROLE_RUNS if hosts < SERIES_ONE_RUN_FROM else 1,
                             profile=True)
            ours, base = found["role"], found["template"]
            for play, (wall, cpu) in found.items():
                SERIES.append({"hosts": hosts, "rounds": SERIES_ROUNDS, "play": play, "wall": wall, "cpu": cpu})
            print("  %6s hosts: role %7.3f s/host (CPU %7.3f)  template loop %7.3f s/host (CPU %7.3f)  "
                  "ratio %5.2fx (CPU %5.2fx)"
                  % (format(hosts, ","), ours[0] / hosts, ours[1] / hosts, base[0] / hosts, base[1] / hosts,
                     ours[0] / base[0], ours[1] / base[1]))
