# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hostile sizes and files, with memory bounds.

Each generated input is a shape that once took time growing with the square
of its size (duplicate secret lines, thousands of pwpolicy lines or
sections, a command line with thousands of options, huge scripts and
comment blocks) at a random size up to a few megabytes.  Every one must come
back (a result or a PwpolicyError), and no message may hold a secret; how
long they take at twice the size is measured by ``benchmarks/bench.py --only
linear``, not here (a unit test does not time).  Hostile files (FIFOs,
devices, sparse giants, gzip bombs) must be refused with bounded memory.
"""

import gzip
import io
import json
import os
import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _files
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _updates_image as ui
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import Redactor, hide
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart, section_regions
from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz import strategies as fs


@given(kind=st.sampled_from(fs.SHAPES), count=st.integers(min_value=1, max_value=20000),
       validate=st.booleans(), target=st.sampled_from(["RHEL8", "F33", "F34", "RHEL9"]))
@fs.fuzz_settings(0.15)
def test_hostile_sizes_give_a_result_or_a_clear_error(kind, count, validate, target):
    text = "#version=%s\n" % target + fs.hostile_kickstart(kind, count)
    try:
        result = edit_kickstart(text, product="server", target=target, validate=validate)
        shown = json.dumps(result.warnings) + section_regions(result.parsed_before) + section_regions(result.parsed_after)
    except PwpolicyError as exc:
        shown = str(exc)
    assert fs.BOUND_MARKER not in shown


@given(values=st.sets(st.text(min_size=1, max_size=12), max_size=20), message=st.text(max_size=80),
       picks=st.lists(st.integers(min_value=0, max_value=19), max_size=4))
@fs.fuzz_settings(2)
def test_the_indexed_redactor_hides_what_hide_hides(values, message, picks):
    ordered = sorted(values)
    for pick in picks:  # put some of the values (escaped or not) into the message
        if ordered:
            value = ordered[pick % len(ordered)]
            message += " " + (repr(value) if pick % 2 else value)
    assert Redactor(values).hide(message) == hide(message, values)


def _hostile_files(directory):
    fifo = os.path.join(directory, "fifo")
    os.mkfifo(fifo)
    sparse = os.path.join(directory, "sparse")
    with open(sparse, "wb") as handle:
        handle.truncate(_files.MAX_FILE_SIZE * 4)
    return {"fifo": fifo, "device": "/dev/zero", "sparse": sparse, "directory": directory}


@pytest.mark.parametrize("name", ["fifo", "device", "sparse", "directory"])
def test_hostile_files_are_refused_at_once(tmp_path, name):
    path = _hostile_files(str(tmp_path))[name]
    tracemalloc.start()
    try:
        with pytest.raises(_files.FileError):
            _files.read_bytes(path)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < 4 * 1024 * 1024


@pytest.mark.parametrize("megabytes", [17, 64, 512])
def test_gzip_bombs_are_refused_with_bounded_memory(megabytes):
    data = io.BytesIO()
    with gzip.GzipFile(fileobj=data, mode="wb", compresslevel=9) as stream:
        block = b"\0" * (1024 * 1024)
        for _megabyte in range(megabytes):
            stream.write(block)
    tracemalloc.start()
    try:
        with pytest.raises(ui.UpdatesImageError, match="more than"):
            ui.read_image(data.getvalue())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * ui.MAX_UNPACKED
