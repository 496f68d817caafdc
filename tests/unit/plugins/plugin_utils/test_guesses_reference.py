# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The estimates are Dropbox's reference zxcvbn 4.4.2's: every one of its published estimates, to 0.02 in log10.

The reference estimates (../shared/reference/zxcvbn-4.4.2-reference.tsv, beside the checkout or beside the main
checkout of a worktree) were computed by zxcvbn 4.4.2 (npm) with the year 2026; it takes the current year, so the
year is 2026 here too.  Each row: category, password, user inputs (JSON), guesses_log10, score.
"""

import csv
import json

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _guesses
from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import reference_file

pytest.importorskip("zxcvbn")

NAME = "zxcvbn-4.4.2-reference.tsv"
REFERENCE = reference_file(NAME)
YEAR = 2026
pytestmark = pytest.mark.skipif(REFERENCE is None, reason="zxcvbn's reference estimates (shared/reference/%s) "
                                                          "are not beside the checkout" % NAME)


def rows():
    """``(line, category, password, inputs, guesses_log10, score)`` of each reference estimate."""
    with open(REFERENCE, encoding="utf-8", newline="") as handle:
        lines = [(number, line) for number, line in enumerate(handle, 1) if not line.startswith("#")]
    reader = csv.DictReader((line for dummy, line in lines), delimiter="\t")
    return [(number, row["category"], row["password"], json.loads(row["user_inputs"]), float(row["guesses_log10"]),
             int(row["score"])) for (number, dummy), row in zip(lines[1:], reader)]


@pytest.fixture
def reference_year(monkeypatch):
    monkeypatch.setattr(_guesses, "reference_year", lambda: YEAR)


def test_every_estimate_and_score_is_the_references(reference_year):
    found = rows()
    assert len(found) == 586 and len({row[1] for row in found}) > 20
    off = []
    for number, category, password, inputs, log10, score in found:
        got = _guesses.estimate(password, inputs)
        if abs(got["guesses_log10"] - log10) > 0.02 or got["score"] != score:
            off.append("line %d (%s): %s, reference %.4f, %d" % (number, category, got, log10, score))
    assert off == []


def test_what_another_host_was_told_never_changes_an_estimate(reference_year):
    # The same password was estimated before with other hosts' words: what is remembered serves only where
    # zxcvbn would say the same.
    for number, category, password, inputs, log10, score in rows():
        if inputs:
            for other in (["web01.example.org", "web01"], inputs[1:], inputs[:1]):
                _guesses.estimate(password, other)
            got = _guesses.estimate(password, inputs)
            assert abs(got["guesses_log10"] - log10) <= 0.02 and got["score"] == score, "line %d" % number
