# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_known_weak.py: hashes checked against the candidates, each distinct hash once, on every core."""

import hashlib
import secrets
import string

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _known_weak, _libxcrypt
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._candidates import CandidateList
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.tests.unit.hashes import crypt_hash, needs_libxcrypt

pytestmark = needs_libxcrypt


def Words(words):  # noqa: N802 - reads as the list it makes
    return CandidateList.from_words(words)


def hashed(password, prefix=b"$1$", count=0):
    return crypt_hash(password, prefix, count)


def random_password():
    return "".join(secrets.choice(string.ascii_letters + string.digits) for dummy in range(20))


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_every_candidate_is_tried_once_when_none_matches(threads):
    words = ["w%d" % index for index in range(101)]
    outcome = _known_weak.check_hashes([(hashed(random_password()), "crypt")], Words(words), budget=600,
                                       threads=threads)
    result = list(outcome.values())[0]
    assert (result.found, result.tried, result.supported) == (False, 101, True)


def test_a_match_is_found_and_stops_the_other_tasks():
    words = ["w%d" % index for index in range(5000)]
    words[7] = "hunter2"
    target = hashed("hunter2", b"$5$", 1000)
    result = _known_weak.check_hashes([(target, "crypt")], Words(words), budget=600, threads=2)[target]
    assert result.found and result.tried < 5000


def test_identical_hashes_are_hashed_once(monkeypatch):
    calls = []
    real = _known_weak._task

    def counting(job, outcome, shard, shards, seconds, cands):
        calls.append(outcome)
        return real(job, outcome, shard, shards, seconds, cands)
    monkeypatch.setattr(_known_weak, "_task", counting)
    one, other = hashed(random_password()), hashed(random_password())
    outcomes = _known_weak.check_hashes([(one, "crypt"), (other, "crypt"), (one, "crypt"), (one, "crypt")],
                                        Words(["a", "b", "c"]), budget=60, threads=2)
    assert set(outcomes) == {one, other}
    assert len(calls) == 4  # two tasks (one per thread) for each distinct hash
    assert outcomes[one].tried == outcomes[other].tried == 3


def test_grub_pbkdf2_hashes_are_checked():
    salt = bytes(range(64))
    target = "grub.pbkdf2.sha512.1000.%s.%s" % (
        salt.hex().upper(), hashlib.pbkdf2_hmac("sha512", b"vagrant", salt, 1000).hex().upper())
    result = _known_weak.check_hashes([(target, "grub_pbkdf2")], CandidateList(), budget=60)[target]
    assert result.found


def test_a_budget_of_zero_tries_nothing():
    target = hashed("vagrant")
    result = _known_weak.check_hashes([(target, "crypt")], CandidateList(), budget=0)[target]
    assert (result.found, result.tried, result.supported) == (False, 0, True)


def test_what_libxcrypt_cannot_hash_is_not_tried(monkeypatch):
    target = "$9$unknown$scheme"
    result = _known_weak.check_hashes([(target, "crypt")], CandidateList(), budget=1)[target]
    assert (result.supported, result.tried) == (False, 0)
    monkeypatch.setattr(_libxcrypt, "load", lambda: None)
    known = hashed("vagrant")
    assert not _known_weak.check_hashes([(known, "crypt")], CandidateList(), budget=1)[known].supported


def test_a_failing_task_names_no_value(monkeypatch):
    def broken(*args):
        raise ValueError("hunter2 $1$secret")
    monkeypatch.setattr(_known_weak, "_task", broken)
    with pytest.raises(RuntimeError) as caught:
        _known_weak.check_hashes([(hashed("x"), "crypt")], CandidateList(), budget=1)
    assert str(caught.value) == "the known-weak check failed: ValueError"


def test_workers_are_the_cores_at_most_eight():
    assert 1 <= _known_weak.workers() <= _known_weak.MAX_WORKERS
    assert _known_weak.workers() == min(_known_weak.MAX_WORKERS, _known_weak.usable_cores())


def test_usable_cores_without_an_affinity_are_the_cpu_count(monkeypatch):
    monkeypatch.delattr(_known_weak.os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(_known_weak.os, "cpu_count", lambda: None)
    assert _known_weak.usable_cores() == 1


@pytest.mark.parametrize("budget, shown", [(-1, "-1"), (3601, "3601"), (float("nan"), "nan"), ("many", "a string"),
                                           (True, "a boolean"), ([2], "a list")])
def test_a_budget_out_of_range_is_refused_by_name(budget, shown):
    with pytest.raises(PwpolicyError) as caught:
        _known_weak.check_budget(budget)
    assert str(caught.value) == "budget must be a number of seconds from 0 to 3600, got %s" % shown


def test_a_budget_is_read_as_seconds():
    assert _known_weak.check_budget("0.5") == 0.5
    assert _known_weak.check_budget(0) == 0.0 and _known_weak.check_budget(3600) == 3600.0
    assert _known_weak.check_budget(None) == _known_weak.DEFAULT_BUDGET
