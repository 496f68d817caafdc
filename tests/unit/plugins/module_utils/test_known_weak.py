# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_known_weak.py: hashes checked against the candidates, each distinct hash once, on every core."""

import hashlib
import json
import secrets
import string
import subprocess
import sys

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _known_weak, _libxcrypt
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._candidates import CandidateList
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._hash_schemes import identify
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_secrets import read_secrets
from ansible_collections.kickstart.pwpolicy.tests.unit.hashes import LIB, crypt_hash, needs_libxcrypt

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


# --- what a hash states is bounded before it is hashed ----------------------------------------------------------

class Recording(object):
    """The system's libxcrypt, except that a setting in ``never`` is only noted, never computed: a run of code
    that would hash one stays short, and the test sees that it tried."""

    name = "libxcrypt"

    def __init__(self, never):
        self.never = set(setting.encode("ascii") for setting in never)
        self.asked = []

    def gensalt(self, prefix, count, rbytes):
        return LIB.gensalt(prefix, count, rbytes)

    def crypt(self, phrase, setting):
        if setting in self.never:
            self.asked.append(setting)
            return b"$x$not-computed"
        return LIB.crypt(phrase, setting)

    def verifier(self, hashed):
        if hashed in self.never:
            def noted(phrase):
                self.asked.append(hashed)
                return False
            return noted
        return LIB.verifier(hashed)


def run_recorded(monkeypatch, targets, budget=2.0, threads=2):
    lib = Recording(targets)
    monkeypatch.setattr(_libxcrypt, "load", lambda: lib)
    return _known_weak.check_hashes([(target, "crypt") for target in targets], CandidateList(), budget=budget,
                                    threads=threads), lib.asked


SALT = "CalibrationSalt2"
HASH_43 = "a" * 43
# Costs far beyond a budget of half a second: days, minutes, hours, seconds.
COSTLY = [
    "$2b$31$" + "abcdefghijklmnopqrstuu" + "a" * 31,               # bcrypt 2^31
    "$6$rounds=999999999$saltsalt$" + "a" * 86,                    # SHA-512 crypt, the most rounds
    "$5$rounds=999999999$saltsalt$" + HASH_43,
    "$sha1$4294967295$saltsalt$" + "a" * 28,
    "_zzzzsalt" + "a" * 11,                                         # BSDi, 2^24 - 1 rounds
    "$y$j75/y/vrD$%s$%s" % (SALT, HASH_43),                         # yescrypt N=1024, r=8, t=2^20
]


@needs_libxcrypt
@pytest.mark.parametrize("target", COSTLY, ids=["bcrypt", "sha512crypt", "sha256crypt", "sha1crypt", "bsdicrypt",
                                                "yescrypt-t"])
def test_a_hash_whose_stated_cost_exceeds_the_budget_is_not_hashed(monkeypatch, target):
    outcomes, asked = run_recorded(monkeypatch, [target], budget=0.5)
    outcome = outcomes[target]
    assert asked == []
    assert (outcome.supported, outcome.found, outcome.tried) == (True, False, 0)
    assert "exceeds the budget: one guess takes about" in outcome.skipped
    assert outcome.skipped.endswith(", the budget is 0.5 s")
    assert target not in outcome.skipped and target.split("$")[-1] not in outcome.skipped


@needs_libxcrypt
def test_the_skipped_text_names_the_stated_cost(monkeypatch):
    outcomes, dummy = run_recorded(monkeypatch, COSTLY[:2])
    assert outcomes[COSTLY[0]].skipped.startswith("cost 31 exceeds the budget: one guess takes about ")
    assert outcomes[COSTLY[1]].skipped.startswith("rounds 999999999 exceeds the budget: one guess takes about ")
    assert _known_weak.refusal(identify(COSTLY[-1]), 2.0).startswith("N=2^10, r=8, t=1048576 exceeds the budget")


def test_a_grub_hash_with_too_many_iterations_is_not_hashed(monkeypatch):
    iterations = 4000000000
    target = "grub.pbkdf2.sha512.%d.%s.%s" % (iterations, "AB" * 64, "CD" * 64)
    real, asked = hashlib.pbkdf2_hmac, []

    def noted(name, phrase, salt, rounds, *rest):
        if rounds == iterations:
            asked.append(rounds)
            return b"\0" * 64
        return real(name, phrase, salt, rounds, *rest)
    monkeypatch.setattr(_known_weak.hashlib, "pbkdf2_hmac", noted)
    outcome = _known_weak.check_hashes([(target, "grub_pbkdf2")], CandidateList(), budget=2, threads=2)[target]
    assert asked == [] and outcome.tried == 0
    assert outcome.skipped.startswith("iterations 4000000000 exceeds the budget")


# yescrypt and scrypt parameters that ask for more memory than a thread may take.
HUNGRY = [
    ("$y$jGT$%s$%s" % (SALT, HASH_43), "N=2^19, r=32 asks for 2 GiB"),
    ("$y$jJT$%s$%s" % (SALT, HASH_43), "N=2^22, r=32 asks for 16 GiB"),
    ("$gy$jGT$%s$%s" % (SALT, HASH_43), "N=2^19, r=32 asks for 2 GiB"),
    ("$y$j75.y/vrC$%s$%s" % (SALT, HASH_43), "N=2^10, r=8, p=1048576 asks for 13.1 GiB"),  # p lanes
    ("$y$jDT$%s$%s" % (SALT, HASH_43), "N=2^16, r=32 asks for 257 MiB"),  # libxcrypt's cost 9 and its blocks
    ("$7$I6..../....%s$%s" % (SALT, HASH_43), "N=2^20, r=8 asks for 1 GiB"),
]


@needs_libxcrypt
@pytest.mark.parametrize("target, says", HUNGRY, ids=["y-2GiB", "y-16GiB", "gy-2GiB", "y-p", "y-cost9", "scrypt"])
def test_a_hash_asking_for_more_memory_than_the_bound_is_not_hashed(monkeypatch, target, says):
    outcomes, asked = run_recorded(monkeypatch, [target], budget=3600)
    outcome = outcomes[target]
    assert asked == []
    assert (outcome.supported, outcome.found, outcome.tried) == (True, False, 0)
    assert outcome.skipped == "%s of memory per thread, more than the bound of 256 MiB" % says


@needs_libxcrypt
def test_memory_is_counted_as_libxcrypt_allocates_it():
    for cost in range(1, 12):
        form = identify(LIB.crypt(b"x", LIB.gensalt(b"$y$", cost, None)).decode())
        # 2^(cost - 1) MiB for the array, and a few KiB for the blocks and the S-boxes.
        assert 0 < _known_weak.hash_memory(form) - (1 << (cost - 1 + 20)) < 64 * 1024
        assert (_known_weak.hash_memory(form) <= _known_weak.MAX_HASH_MEMORY) == (cost <= 8)
    assert _known_weak.hash_memory(identify(hashed("x", b"$6$"))) == 0


@needs_libxcrypt
def test_a_guess_that_fits_the_budget_but_not_a_threads_share_gets_fewer_threads(monkeypatch):
    made = []
    real = _known_weak._task

    def counting(job, outcome, shard, shards, seconds, cands):
        made.append((shards, seconds))
        return real(job, outcome, shard, shards, seconds, cands)
    monkeypatch.setattr(_known_weak, "_task", counting)
    monkeypatch.setattr(_known_weak, "guess_seconds", lambda form, lib=None: 0.7)
    target = hashed(random_password(), b"$6$")
    outcome = _known_weak.check_hashes([(target, "crypt")], Words(["a", "b"]), budget=1, threads=4)[target]
    assert made == [(1, 1.0)] and outcome.skipped is None and outcome.tried >= 1
    made[:] = []
    monkeypatch.setattr(_known_weak, "guess_seconds", lambda form, lib=None: 0.3)
    _known_weak.check_hashes([(target, "crypt")], Words(["a", "b"]), budget=1, threads=4)
    assert sorted(made) == [(3, 1.0 / 3)] * 3


@needs_libxcrypt
def test_the_estimate_scales_with_the_stated_cost():
    low, high = identify("$6$rounds=1000$salt$" + "a" * 86), identify("$6$rounds=100000$salt$" + "a" * 86)
    assert _known_weak.guess_seconds(high) == pytest.approx(100 * _known_weak.guess_seconds(low))
    one, five = identify(hashed("x", b"$2b$", 4)), identify(hashed("x", b"$2b$", 9))
    assert _known_weak.guess_seconds(five) == pytest.approx(32 * _known_weak.guess_seconds(one))
    # Every scheme this libxcrypt makes has a reference hash it computes.
    for prefix in (b"", b"_", b"$1$", b"$3$", b"$md5", b"$sha1", b"$5$", b"$6$", b"$2b$", b"$2y$", b"$7$", b"$y$",
                   b"$gy$"):
        setting = LIB.gensalt(prefix, 0 if prefix not in (b"$2b$", b"$2y$") else 4, None)
        if setting is not None:
            assert _known_weak.guess_seconds(identify(LIB.crypt(b"x", setting).decode())) > 0, prefix


BOUNDED_RUN = r"""
import json, resource, sys
sys.path.insert(0, %(collections)r)
resource.setrlimit(resource.RLIMIT_AS, (%(limit)d, %(limit)d))
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _known_weak
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._candidates import CandidateList
targets = json.loads(sys.argv[1])
outcomes = _known_weak.check_hashes([(target, "crypt") for target in targets], CandidateList(), budget=2, threads=2)
print(json.dumps([[outcomes[t].supported, outcomes[t].found, outcomes[t].tried, outcomes[t].skipped] for t in targets]))
"""


@needs_libxcrypt
def test_costly_and_hungry_hashes_in_a_bounded_run(tmp_path):
    # The real libxcrypt in a process that cannot map 1 GiB, under a harness timeout: a hash computed at its
    # stated cost would not end in time, one computed at its stated memory would fail to allocate.
    from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import COLLECTIONS_DIR
    control = hashed("vagrant", b"$6$")
    targets = COSTLY[:2] + [target for target, dummy in HUNGRY[:2]] + [control]
    script = tmp_path / "bounded.py"
    script.write_text(BOUNDED_RUN % dict(collections=COLLECTIONS_DIR, limit=1 << 30))
    proc = subprocess.Popen([sys.executable, str(script), json.dumps(targets)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=120)  # a guard: each check takes at most its 2 s budget
    finally:
        proc.kill()
    results = json.loads(out.decode("utf-8"))
    for result in results[:-1]:
        assert result[:3] == [True, False, 0] and result[3], (result, err)
    assert results[-1][:2] == [True, True] and results[-1][3] is None


@needs_libxcrypt
def test_the_secrets_report_says_which_hash_was_not_tried_and_why(monkeypatch):
    lib = Recording([COSTLY[1], HUNGRY[0][0]])
    monkeypatch.setattr(_libxcrypt, "load", lambda: lib)
    text = "rootpw --iscrypted %s\nuser --name=ops --iscrypted --password=%s\n" % (COSTLY[1], HUNGRY[0][0])
    report = read_secrets(text, budget=2)
    assert lib.asked == [] and [entry["tried"] for entry in report.to_list()] == [0, 0]
    first, second = report.warnings
    assert first.startswith("line 1: this sha512crypt hash was not tried against known-weak passwords: rounds "
                            "999999999 exceeds the budget: one guess takes about ")
    assert second == ("line 2: this yescrypt hash was not tried against known-weak passwords: N=2^19, r=32 asks "
                      "for 2 GiB of memory per thread, more than the bound of 256 MiB")
    assert not any(piece in " ".join(report.warnings) for piece in ("saltsalt", SALT, HASH_43))
