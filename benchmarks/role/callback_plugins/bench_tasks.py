# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The role benchmark's per-task profile: each task's wall and CPU time over all hosts.

Enabled by bench_role.py (ANSIBLE_CALLBACKS_ENABLED=bench_tasks) with
BENCH_TASKS_OUT naming the JSON file to write at the end of the run: a list
of ``{task, wall, cpu}``, in the order the tasks ran.  Under the linear
strategy a task runs on every host before the next starts, so a task's time
is from its start to the next task's start (or the end of the play); its CPU
time is the controller process's and its workers' (each worker is waited
for before the next task starts).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import resource
import time

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = """
name: bench_tasks
type: aggregate
short_description: each task's wall and CPU time, for the role benchmark
description:
  - Writes each task's wall and CPU time over all hosts to the JSON file BENCH_TASKS_OUT names.
requirements:
  - enabled in the configuration (the role benchmark does it)
"""


def _cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "bench_tasks"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super(CallbackModule, self).__init__(*args, **kwargs)
        self._rows = []
        self._running = None

    def _close(self):
        if self._running is not None:
            name, wall, cpu = self._running
            self._rows.append({"task": name, "wall": time.perf_counter() - wall, "cpu": _cpu() - cpu})
        self._running = None

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._close()
        self._running = (task.get_name(), time.perf_counter(), _cpu())

    def v2_playbook_on_handler_task_start(self, task):
        self.v2_playbook_on_task_start(task, False)

    def v2_playbook_on_stats(self, stats):
        self._close()
        path = os.environ.get("BENCH_TASKS_OUT")
        if path:
            with open(path, "w") as handle:
                json.dump(self._rows, handle, indent=1)
