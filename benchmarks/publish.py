# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Put one bench.py run on the benchmarks page.

    python benchmarks/publish.py

Replaces the part of docs/benchmarks.md between the ``results:start`` and
``results:end`` markers with build/bench/results.md, and copies
build/bench/scaling.png to docs/images/scaling.png, so the page's table and
plot come from the same run.
"""

import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "build", "bench", "results.md")
PLOT = os.path.join(ROOT, "build", "bench", "scaling.png")
PAGE = os.path.join(ROOT, "docs", "benchmarks.md")
IMAGE = os.path.join(ROOT, "docs", "images", "scaling.png")
START, END = "<!-- results:start", "<!-- results:end -->"


def main():
    for path in (RESULTS, PLOT):
        if not os.path.isfile(path):
            sys.exit("%s not found: run `make bench` first (with the role series, for the plot)" % path)
    with open(PAGE) as handle:
        page = handle.read()
    if START not in page or END not in page:
        sys.exit("%s has no %s ... %s markers" % (PAGE, START, END))
    head, rest = page.split(START, 1)
    marker_line, rest = rest.split("\n", 1)
    tail = rest.split(END, 1)[1]
    with open(RESULTS) as handle:
        results = handle.read()
    with open(PAGE, "w") as handle:
        handle.write(head + START + marker_line + "\n" + results + END + tail)
    os.makedirs(os.path.dirname(IMAGE), exist_ok=True)
    shutil.copyfile(PLOT, IMAGE)
    print("updated %s and %s" % (PAGE, IMAGE))


if __name__ == "__main__":
    main()
