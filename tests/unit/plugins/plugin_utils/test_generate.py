# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Generated passwords and passphrases: accepted by the verdict, of the asked shape, never in an error."""

import hashlib
import random
import re
import sys

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.filter.compliance_profile import compliance_profile
from ansible_collections.kickstart.pwpolicy.plugins.filter.pwpolicy_check import pwpolicy_check
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _generate as gen
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

CUSTOM = {"name": "user", "minlen": 12, "minquality": 50, "strict": True, "emptyok": False, "changesok": False}
POLICIES = [("root", "server"), ("user", "server"), ("luks", "server"), ("user", "workstation"),
            ("luks", "cloud"), (CUSTOM, None)]
PROFILES = [("stig", "RHEL9", "user"), ("stig", "RHEL9", "luks"), ("nist_800_63b", "RHEL9", "user"),
            ("nist_800_63b", "RHEL9", "root"), ("cis_server_l1", "RHEL10", "user"), ("anssi", "RHEL8", "root")]
KINDS = ["password", "passphrase"]


def profile_check(value, name, target, policy_name):
    """The verdict as a playbook gets it from the filters, independently of _generate's own resolution."""
    found = compliance_profile(name, target)
    settings = dict((k, v) for k, v in found["pwquality"].items() if k not in ("minlen", "enforce_for_root", "retry"))
    return pwpolicy_check(value, found["policies"][policy_name], settings=settings)


def sorted_corpus(path, values):
    """A sorted SHA1:COUNT file holding ``values``."""
    lines = sorted(hashlib.sha1(v.encode("utf-8")).hexdigest().upper() + ":3\n" for v in values)
    path.write_text("".join(lines))
    return str(path)


class Scripted(random.Random):
    """A random source whose first choices among sequences are given, then those of a seeded Random."""

    def __init__(self, first):
        super().__init__(5)
        self.first = list(first)

    def choice(self, seq):
        if self.first:
            return self.first.pop(0)
        return super().choice(seq)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("policy, product", POLICIES)
def test_policies_accept_what_is_generated(policy, product, kind):
    plan = gen.prepare(policy=policy, product=product, kind=kind)
    for dummy in range(3):
        value = gen.generate(plan)
        report = pwpolicy_check(value, policy, product=product or "server")
        assert report["verdict"] == "accepted", report["reasons"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name, target, policy_name", PROFILES)
def test_profiles_accept_what_is_generated(name, target, policy_name, kind):
    plan = gen.prepare(profile=name, target=target, policy_name=policy_name, kind=kind)
    for dummy in range(3):
        value = gen.generate(plan)
        report = profile_check(value, name, target, policy_name)
        assert report["verdict"] == "accepted", report["reasons"]
        assert len(value) >= 15 if name in ("stig", "nist_800_63b", "anssi") else 14


def test_default_and_given_lengths():
    assert len(gen.generate(gen.prepare(policy="user"))) == 19          # server user: minlen 15 + 4
    assert len(gen.generate(gen.prepare(policy="luks"))) == 24          # server luks: minlen 20 + 4
    assert len(gen.generate(gen.prepare(policy="user", product="workstation"))) == 16  # minlen 8: at least 16
    assert len(gen.generate(gen.prepare(policy="user", length=40))) == 40
    assert len(gen.generate(gen.prepare(policy="user", length="15"))) == 15


@pytest.mark.parametrize("seed", range(20))
def test_a_password_has_every_class(seed):
    value = gen.candidate(gen.prepare(profile="stig", target="RHEL10"), random.Random(seed))
    assert re.search("[a-z]", value) and re.search("[A-Z]", value) and re.search("[0-9]", value)
    assert re.search("[^A-Za-z0-9]", value)
    assert set(value) <= set(gen.LOWER + gen.UPPER + gen.DIGITS + gen.SYMBOLS)


def test_a_passphrase_is_words_with_the_classes_the_stig_asks_for():
    plan = gen.prepare(profile="stig", target="RHEL9", kind="passphrase")
    assert plan.words == 7  # 1,119 words of 4 letters: 7 words for 64 bits
    for dummy in range(5):
        value = gen.generate(plan)
        words = value.split("-")
        assert len(words) == 7
        assert all(re.fullmatch(r"[a-z]{4}", re.sub(r"[0-9]", "", w).lower()) for w in words)
        assert re.search("[A-Z]", value) and re.search("[0-9]", value)
        assert not re.search("[a-z]{5}", value)  # maxclassrepeat 4


def test_a_passphrase_without_class_rules_is_lower_case_words():
    value = gen.generate(gen.prepare(profile="nist_800_63b", target="RHEL9", kind="passphrase", words=5,
                                     separator=" "))
    words = value.split(" ")
    assert len(words) == 5 and all(re.fullmatch(r"[a-z]{4,8}", w) for w in words)


def test_the_word_list_is_zxcvbns_english_words():
    words = gen.word_list()
    assert len(words) == 29357
    assert all(re.fullmatch(r"[a-z]{4,8}", w) for w in words)
    assert len(gen.word_list(4, 4)) == 1119


@pytest.mark.parametrize("kind", KINDS)
def test_two_calls_differ(kind):
    plan = gen.prepare(kind=kind)
    assert gen.generate(plan) != gen.generate(plan)


def test_a_blocklisted_candidate_is_rejected_and_the_next_one_returned(tmp_path):
    base = gen.prepare(policy="user")
    first_rng, second = random.Random(11), None
    first = gen.candidate(base, first_rng)
    second = gen.candidate(base, first_rng)
    assert gen.refusal(base, first) is None  # the first one alone would have been accepted
    assert gen.generate(base, rng=random.Random(11)) == first
    plan = gen.prepare(policy="user", blocklist=sorted_corpus(tmp_path / "pwned.txt", [first]))
    assert "breach corpus" in gen.refusal(plan, first)
    assert gen.generate(plan, rng=random.Random(11)) == second


def test_the_shipped_list_is_always_checked():
    plan = gen.prepare(policy={"name": "user", "minlen": 6, "minquality": 0, "strict": True}, kind="passphrase",
                       words=1, settings={"dictcheck": False})
    assert "shipped" in gen.refusal(plan, "password")
    assert gen.refusal(plan, "hearth") is None
    assert gen.generate(plan, rng=Scripted(["password", "hearth"])) == "hearth"


def test_no_error_holds_a_candidate(tmp_path):
    rng = random.Random(3)
    plan = gen.prepare(policy="user")
    candidates = [gen.candidate(plan, rng) for dummy in range(gen.MAX_ATTEMPTS)]
    plan = gen.prepare(policy="user", blocklist=sorted_corpus(tmp_path / "all.txt", candidates))
    with pytest.raises(gen.GenerateError) as caught:
        gen.generate(plan, rng=random.Random(3))
    message = str(caught.value)
    assert "no password of 19 characters that the user policy" in message
    assert "100 attempts" in message and "breach corpus" in message and "give a longer length" in message
    for value in candidates:
        assert_no_leak(value, message, repr(caught.value), piece=8)


def test_a_policy_nothing_meets_names_what_to_change():
    # libpwquality refuses every password holding these words; one word of one is the whole passphrase.
    plan = gen.prepare(policy={"name": "luks", "minlen": 6, "minquality": 0, "strict": True}, kind="passphrase",
                       words=1, separator="", settings={"badwords": " ".join(gen.word_list()[:5])})
    rng = Scripted([gen.word_list()[0]] * gen.MAX_ATTEMPTS)
    with pytest.raises(gen.GenerateError, match="give more words, another separator, or kind=password") as caught:
        gen.generate(plan, rng=rng)
    assert_no_leak(gen.word_list()[0], str(caught.value).split("badwords=", maxsplit=1)[0])


@pytest.mark.parametrize("options, expected", [
    ({"profile": "nope", "target": "RHEL9"}, "unknown compliance profile '<hidden>': give one of stig"),
    ({"profile": "stgi", "target": "RHEL9"}, "unknown compliance profile 'stgi' \\(did you mean 'stig'\\?\\): give one of stig"),
    ({"profile": "stig"}, "a target release is needed: give one of RHEL8"),
    ({"profile": "stig", "target": "RHEL7"}, "has no values for target 'RHEL7': give one of RHEL8, RHEL9, RHEL10"),
    ({"profile": "stig", "target": "RHEL9", "policy_name": "admin"}, "unknown policy_name 'admin': give one of root"),
    ({"profile": "stig", "target": "RHEL9", "policy": "root"}, "give either policy or profile"),
    ({"policy": "admin"}, r"policy must be a dict of policy fields or a policy name \(root, user, luks\)"),
    ({"policy": {"name": "user", "minlen": "many"}}, "minlen"),
    ({"policy": 3}, "policy must be a dict .* got int"),
    ({"product": "laptop"}, "unknown product 'laptop': give one of server"),
    ({"policy": "luks", "length": 12}, "length 12 is below the 20 characters .* give length 20 or more"),
    ({"policy": "user", "product": "workstation", "length": 5},
     "length 5 is below the 8 characters"),
    ({"length": 4097}, "length 4097 is over 4096.*give at most 4096"),
    ({"length": "long"}, "length must be a whole number, got 'long'"),
    ({"kind": "pin"}, "unknown kind 'pin': give one of password, passphrase"),
    ({"kind": "passphrase", "length": 20}, "length is for kind=password; for a passphrase give words"),
    ({"words": 5}, "words and separator are for kind=passphrase"),
    ({"kind": "passphrase", "words": 0}, "words must be from 1 to 256"),
    ({"kind": "passphrase", "words": 1}, "words=1 gives at most 8 characters, below the 15 .* give more words"),
    ({"kind": "passphrase", "words": 2, "policy": "luks"}, "below the 20 characters .* give more words"),
    ({"kind": "passphrase", "profile": "stig", "target": "RHEL9", "separator": ""}, "give a separator"),
    ({"kind": "passphrase", "separator": "\r"}, "separator must be a string of at most 8 characters on one line"),
    ({"kind": "passphrase", "separator": "-\u2028"}, "separator must be a string of at most 8 characters on one"),
    ({"kind": "passphrase", "settings": {"maxclassrepeat": 3}}, "maxclassrepeat=3 .* use kind=password"),
    ({"settings": {"minlen": 30}}, "minlen comes from the policy"),
    ({"settings": "strict"}, "settings must be a dict"),
    ({"blocklist": "/nonexistent/pwned.txt"}, "blocklist /nonexistent/pwned.txt: no such file"),
    ({"username": ""}, "username must be the account name"),
])
def test_bad_input_names_what_to_give(options, expected):
    with pytest.raises(gen.GenerateError, match=expected):
        gen.prepare(**options)


def test_an_unreadable_blocklist(tmp_path):
    corpus = tmp_path / "pwned.txt"
    corpus.write_text("")
    corpus.chmod(0)
    try:
        import os
        if os.access(str(corpus), os.R_OK):
            pytest.skip("running as a user who reads any file")
        with pytest.raises(gen.GenerateError, match="not readable"):
            gen.prepare(blocklist=[str(corpus)])
    finally:
        corpus.chmod(0o600)


def test_passphrases_need_zxcvbn(monkeypatch):
    monkeypatch.setattr(gen, "_WORDS", {})
    monkeypatch.setitem(sys.modules, "zxcvbn.frequency_lists", None)
    with pytest.raises(gen.GenerateError, match=r"pip install zxcvbn\) or use kind=password"):
        gen.prepare(kind="passphrase")
    assert len(gen.generate(gen.prepare(kind="password"))) == 19
