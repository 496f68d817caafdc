# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Blocklist benchmark: a lookup in a sorted SHA1:COUNT file by binary search vs reading the file once.

Files of 100,000, 1,000,000 and 10,000,000 lines (the last about 430 MB) are
generated once in build/bench/blocklist/ (kept for later runs) with hashes
spread evenly at random, already sorted; each row is the median time of a
lookup (half of them hits) and, in its label, the most lines one lookup read:
a tenfold file adds a few reads (logarithmic), while the baseline, one read of
the whole file, grows tenfold.
"""

import os
import random

from benchlib import median_time, report

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _blocklist

SIZES = (100 * 1000, 1000 * 1000, 10 * 1000 * 1000)
LOOKUPS = 200


def sorted_file(directory, lines, seed=20250801):
    """A sorted file of ``lines`` random SHA1:COUNT lines (made once) and some of its hashes."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "sorted-%d.txt" % lines)
    rng = random.Random(seed + lines)
    step = (1 << 160) // lines
    samples = []
    every = max(1, lines // LOOKUPS)
    complete = os.path.exists(path) and os.path.getsize(path) > 42 * lines
    handle = None if complete else open(path + ".part", "w")
    value = 0
    chunk = []
    for index in range(lines):
        value += rng.randrange(1, step * 9 // 5)  # a mean gap of 0.9 step: the last hash stays below 2**160
        digest = "%040X" % min(value, (1 << 160) - 1)
        if index % every == 0:
            samples.append(digest)
        if handle is not None:
            chunk.append("%s:%d\n" % (digest, 1 + index % 1000))
            if len(chunk) == 100000:
                handle.write("".join(chunk))
                chunk = []
    if handle is not None:
        handle.write("".join(chunk))
        handle.close()
        os.replace(path + ".part", path)
    return path, samples[:LOOKUPS // 2]


def misses(count, seed=7):
    rng = random.Random(seed)
    return ["%040X" % rng.getrandbits(160) for dummy in range(count)]


def read_whole(path):
    """The baseline: one read of the whole file, line by line, comparing each hash."""
    def call():
        wanted = b"F" * 40
        with open(path, "rb") as handle:
            for line in handle:
                if line[:40] == wanted:
                    break
    return call


def bench_blocklist(runs, out_dir):
    print("6. blocklist: a lookup in a sorted SHA1:COUNT file (binary search with seek) vs reading the file once")
    directory = os.path.join(out_dir, "blocklist")
    for lines in SIZES:
        path, hits = sorted_file(directory, lines)
        digests = [digest.encode("ascii") for digest in hits + misses(LOOKUPS - len(hits))]
        searcher = _blocklist.SortedFile(path)
        most = [0]

        def lookups():
            for digest in digests:
                searcher.find(digest)
                most[0] = max(most[0], searcher.reads)
        found = sum(1 for digest in digests[:len(hits)] if searcher.find(digest) > 0)
        if found != len(hits):
            raise SystemExit("blocklist benchmark: %d of %d hashes of the file not found" % (found, len(hits)))
        ours = median_time(lookups, runs) / len(digests)
        base = median_time(read_whole(path), max(1, min(runs, 3)), warm_up=False)
        report("sorted file of %s lines, at most %d reads per lookup, vs one whole read"
               % (format(lines, ","), most[0]), ours, base, 1, "lookup")
