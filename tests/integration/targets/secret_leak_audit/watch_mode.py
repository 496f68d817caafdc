# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Poll paths until a stop file appears; write every mode seen that others could read.

Usage: watch_mode.py STOPFILE REPORT PATH...  The report is a JSON object:
``{"polls": N, "seen": N, "wider": ["0644", ...]}``.  A kickstart must never
show a mode wider than 0600, not even for the instant between its creation
and a later chmod.
"""

import json
import os
import stat
import sys
import time

stop, report = sys.argv[1:3]
paths = sys.argv[3:]
polls = seen = 0
wider = set()
deadline = time.monotonic() + 600
while not os.path.exists(stop) and time.monotonic() < deadline:
    polls += 1
    for path in paths:
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except OSError:
            continue
        seen += 1
        if mode & 0o077:
            wider.add("%04o" % mode)
with open(report, "w") as handle:
    json.dump({"polls": polls, "seen": seen, "wider": sorted(wider)}, handle)
