# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checking by compliance profile (_profile_check, _verdict.check_by_profile).

Per profile: a password that passes, and one that breaks each setting, with
the reason and hint asserted; the stricter value applying where profiles, the
policy or the settings disagree, and said; one libpwquality call per password
with every setting on it; the blocklist; bad input as errors that name what
to give.
"""

import hashlib

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _blocklist, _profile_check, _pwquality
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _verdict as verdict
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._profiles import PROFILES, ProfileError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pw_reasons import CRACKLIB_REASONS
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import PwcheckError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verdict import check_against
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.samples import passwords

STRONG = "Xk9#mQ2!zLp7qR5@wT"
CLASSES = "needs characters from 4 classes (digits, upper-case letters, lower-case letters, symbols), has 3"
MORE_CHARACTERS = "add at least %d more character%s"
CLASS_RUN = ("has more than 4 characters of one class in a row (%s: maxclassrepeat 4)",
             "put a character of another class (digit, upper-case letter, lower-case letter, symbol) after at most 4 "
             "of one class")
REPEAT = ("repeats a character more than 3 times in a row (%s: maxrepeat 3)", "use each character at most 3 times in a row")
USER = ("contains the account's user name in some form (as is, reversed or with changed case)",
        "leave the user name out of the password")
BREACHED = (_blocklist.REASON, _blocklist.HINT)


def digit(name):
    return ("needs at least 1 digit, has 0 (%s: dcredit -1)" % name, "add a digit")


def upper(name):
    return ("needs at least 1 upper-case letter, has 0 (%s: ucredit -1)" % name, "add an upper-case ASCII letter")


def lower(name):
    return ("needs at least 1 lower-case letter, has 0 (%s: lcredit -1)" % name, "add a lower-case ASCII letter")


def symbol(name):
    return ("needs at least 1 symbol, has 0 (%s: ocredit -1)" % name, "add a symbol (or a space)")


def classes(name, hint):
    return ("%s (%s: minclass 4)" % (CLASSES, name), hint)


def short(minlen, has):
    more = minlen - has
    return ("shorter than %d characters (has %d)" % (minlen, has), MORE_CHARACTERS % (more, "" if more == 1 else "s"))


# (profile, target, policy, user, password, expected (reason, hint) pairs): a pass and each setting broken.
TABLE = [
    ("stig", "RHEL9", "root", None, STRONG, []),
    ("stig", "RHEL9", "root", None, "Xk9#mQ2!zLp7", [short(15, 12)]),
    ("stig", "RHEL9", "root", None, "Xkq#mQw!zLpjqRh@wT", [digit("stig"), classes("stig", "add a digit")]),
    ("stig", "RHEL9", "root", None, "xk9#mq2!zlp7qr5@wt",
     [upper("stig"), classes("stig", "add an upper-case ASCII letter")]),
    ("stig", "RHEL9", "root", None, "XK9#MQ2!ZLP7QR5@WT",
     [lower("stig"), classes("stig", "add a lower-case ASCII letter")]),
    ("stig", "RHEL9", "root", None, "Xk9XmQ2kzLp7qR5bwT", [symbol("stig"), classes("stig", "add a symbol (or a space)")]),
    ("stig", "RHEL9", "root", None, "Xk9#mQ2!zzzzLp7qR5@wT", [(REPEAT[0] % "stig", REPEAT[1])]),
    ("stig", "RHEL9", "root", None, "Xk9#mQ2!zLpwqrt7qR5@wT", [(CLASS_RUN[0] % "stig", CLASS_RUN[1])]),
    ("stig", "RHEL9", "root", None, "rootXk9#mQ2!zLp7q", [USER]),  # libpwquality's own usercheck, on by default
    ("stig", "RHEL10", "root", None, "Xk9#mQ2!zLp7q", [short(15, 13)]),
    ("cis_server_l1", "RHEL9", "user", "alice", STRONG, []),
    ("cis_server_l1", "RHEL9", "user", "alice", "Xk9#mQ2!zLp7q", [short(14, 13)]),
    ("cis_server_l1", "RHEL9", "user", "alice", "xk9#mq2!zlp7qr5@wt",
     [classes("cis_server_l1", "add an upper-case ASCII letter")]),
    ("cis_server_l1", "RHEL9", "user", "alice", "Xk9#mQ2!zzzzLp7", [(REPEAT[0] % "cis_server_l1", REPEAT[1])]),
    ("cis_server_l1", "RHEL9", "user", "alice", STRONG + "1234",
     [("holds a sequence (like 1234 or dcba) longer than 3 characters (cis_server_l1: maxsequence 3)",
       "break up runs of consecutive letters or digits: at most 3 in a row")]),
    ("cis_server_l1", "RHEL9", "user", "alice", "Xk9#alice!Lp7qR5", [USER]),
    ("cis_workstation_l2", "RHEL8", "user", "alice", "xk9#mq2!zlp7qr5@wt", []),  # RHEL 8: no minclass
    ("ospp", "RHEL8", "root", None, STRONG, []),
    ("ospp", "RHEL8", "root", None, "Xk9#mQ2!zLp", [short(12, 11)]),
    ("ospp", "RHEL8", "root", None, "Xkq#mQw!zLpj", [digit("ospp")]),
    ("ospp", "RHEL8", "root", None, "xk9#mq2!zlp7", [upper("ospp")]),
    ("ospp", "RHEL8", "root", None, "XK9#MQ2!ZLP7", [lower("ospp")]),
    ("ospp", "RHEL8", "root", None, "Xk9XmQ2kzLp7", [symbol("ospp")]),
    ("ospp", "RHEL8", "root", None, "Xk9#mQ2!zLpwqrt7", [(CLASS_RUN[0] % "ospp", CLASS_RUN[1])]),
    ("ospp", "RHEL8", "root", None, "Xk9#mQ2!zzzzL", [(REPEAT[0] % "ospp", REPEAT[1])]),
    ("ospp", "RHEL9", "root", None, "Xk9#mQ2!zLpwqrt7", []),  # OSPP 4.3 has no maxclassrepeat
    ("pci_dss", "RHEL10", "luks", None, "correct horse battery 9", []),
    ("pci_dss", "RHEL10", "luks", None, "correct horse battery staple", [digit("pci_dss")]),
    ("pci_dss", "RHEL10", "luks", None, "CORRECT HORSE 9", [lower("pci_dss")]),
    ("pci_dss", "RHEL10", "luks", None, "q7 Lkz vW", [short(12, 9)]),
    ("anssi", "RHEL9", "root", None, STRONG, []),
    ("anssi", "RHEL9", "root", None, "Xk9#mQ2!zLp7qR", [short(15, 14)]),
    ("anssi", "RHEL9", "root", None, "xk9#mq2!zlp7qr5@wt", [upper("anssi"), classes("anssi", "add an upper-case ASCII letter")]),
    ("anssi", "RHEL9", "root", None, "Xk9XmQ2kzLp7qR5bwT", [symbol("anssi"), classes("anssi", "add a symbol (or a space)")]),
    ("nist_800_63b", "RHEL10", "user", "alice", "correct horse battery staple", []),  # no composition rules
    ("nist_800_63b", "RHEL10", "user", "alice", "correct horse", [short(15, 13)]),
    ("nist_800_63b", "RHEL10", "user", "alice", "Passwordstandard", [BREACHED]),  # the shipped list, any case
    ("nist_800_63b", "RHEL10", "user", "alice", "zqjphsyf6ctifgu", [BREACHED]),
    ("nist_800_63b", "RHEL10", "user", "alice", "alice-correct-horse-battery",
     [(USER[0] + " (nist_800_63b: usercheck 1)", USER[1])]),
]


@pytest.mark.parametrize("profile,target,policy,user,password,expected", TABLE)
def test_each_profile_passes_a_good_password_and_names_each_setting_broken(backend, profile, target, policy, user,
                                                                           password, expected):
    report = check_against(password, policy, profile=profile, target=target, user=user, backend=backend)
    assert list(zip(report["reasons"], report["hints"])) == expected
    assert report["verdict"] == ("rejected" if expected else "accepted")
    assert report["profile"] == {"names": [profile], "target": target} and report["conflicts"] == []
    assert_no_leak(password, report)


def test_the_dictionary_check_names_the_profile_that_asks_for_it(backend):
    report = check_against("Abcd1234!Abcd1234!", "root", profile="stig", target="RHEL9", backend=backend)
    assert len(report["reasons"]) == 1 and report["reasons"][0].endswith(" (stig: dictcheck 1)")
    assert report["reasons"][0][:-len(" (stig: dictcheck 1)")] in [pair[0] for _needle, pair in CRACKLIB_REASONS]


def test_the_profiles_policy_applies_where_the_policy_argument_gives_none(backend):
    report = check_against(STRONG, "luks", profile="stig", target="RHEL9", backend=backend)
    assert report["policy"] == {"name": "luks", "minlen": 15, "minquality": 1, "strict": True, "emptyok": False,
                                "changesok": False}
    # A stricter field given applies, and is no conflict; a product's preset counts as given.
    report = check_against(STRONG, {"name": "root", "minlen": 18}, profile="stig", target="RHEL9", backend=backend)
    assert report["policy"]["minlen"] == 18 and report["conflicts"] == []
    report = check_against(STRONG, "luks", product="server", profile="stig", target="RHEL9", backend=backend)
    assert (report["policy"]["minlen"], report["policy"]["minquality"]) == (20, 30) and report["conflicts"] == []


def test_a_looser_policy_gives_way_to_the_profile_and_says_so(backend):
    # Workstation's root policy is not strict, allows empty and 8 characters; the STIG's is strict with 15.
    loose = check_against("Xk9#mQ2!zLp7", "root", product="workstation", backend=backend)
    assert loose["verdict"] == "accepted"
    report = check_against("Xk9#mQ2!zLp7", "root", product="workstation", profile="stig", target="RHEL9",
                           backend=backend)
    assert report["verdict"] == "rejected" and report["reasons"] == [short(15, 12)[0]]
    assert report["conflicts"] == [
        "root policy: minlen 8 as given is looser than the 15 asked by stig (stig rule RHEL-09-611090); the "
        "stricter 15 applies",
        "root policy: strict false as given is looser than strict true in the policies of stig; the stricter true "
        "applies",
        "root policy: emptyok true as given is looser than emptyok false in the policies of stig; the stricter "
        "false applies",
        "root policy: changesok true as given is looser than changesok false in the policies of stig; the stricter "
        "false applies",
    ]
    assert check_against("", "root", product="workstation", profile="stig", target="RHEL9",
                         backend=backend)["verdict"] == "rejected"


def test_looser_settings_give_way_and_stricter_ones_apply(backend):
    report = check_against("Xk9#mQ2!zLp7qR5@wTT", "root", profile="stig", target="RHEL9", backend=backend,
                           settings={"maxrepeat": 1, "minclass": 2, "dictcheck": False})
    assert report["reasons"] == ["repeats a character more than 1 time in a row (settings: maxrepeat 1)"]
    assert report["conflicts"] == [
        "settings: dictcheck 0 as given is looser than the 1 asked by stig (stig rule RHEL-09-611105); the stricter "
        "1 applies",
        "settings: minclass 2 as given is looser than the 4 asked by stig (stig rule RHEL-09-611130); the stricter 4 "
        "applies"]
    report = check_against("correct horse battery staple", "user", profile="nist_800_63b", backend=backend,
                           settings={"minclass": 3})
    assert report["conflicts"] == ["settings: minclass 3 is a composition rule, which nist_800_63b forbids; the "
                                   "check applies it as given"]
    assert report["reasons"] == ["needs characters from 3 classes (digits, upper-case letters, lower-case letters, "
                                 "symbols), has 2 (settings: minclass 3)"]


def test_profiles_that_disagree_give_the_stricter_value_and_every_reason_names_its_profile(backend):
    report = check_against("Xk9#mQ2!zLpwqrt1234", "root", profile=["cis_server_l1", "stig"], target="RHEL9",
                           backend=backend)
    assert report["profile"] == {"names": ["cis_server_l1", "stig"], "target": "RHEL9"}
    assert report["conflicts"] == [
        "minlen differs: cis_server_l1 asks 14 (rule 5.3.3.2.2), stig asks 15 (rule RHEL-09-611090); the stricter "
        "value is 15",
        "difok differs: cis_server_l1 asks 2 (rule 5.3.3.2.1), stig asks 8 (rule RHEL-09-611115); the stricter "
        "value is 8",
        "this check applies the stricter value of each setting the profiles cis_server_l1, stig set: minlen 15, "
        "minclass 4, dcredit -1, ucredit -1, lcredit -1, ocredit -1, difok 8, maxrepeat 3, maxclassrepeat 4, "
        "maxsequence 3, dictcheck 1"]
    assert report["policy"]["minlen"] == 15
    assert report["reasons"] == [
        "has more than 4 characters of one class in a row (stig: maxclassrepeat 4)",
        "holds a sequence (like 1234 or dcba) longer than 3 characters (cis_server_l1: maxsequence 3)"]


def test_nist_and_stig_conflict_is_named_and_the_required_rules_apply(backend):
    report = check_against("correct horse battery staple", "user", user="alice", profile=["stig", "nist_800_63b"],
                           target="RHEL9", backend=backend)
    first, second, applied = report["conflicts"]
    assert first.startswith("stig requires a mixture of character types (minclass 4, dcredit -1, ucredit -1, "
                            "lcredit -1, ocredit -1; rules RHEL-09-611110")
    assert "but nist_800_63b forbids composition rules" in first
    assert second.startswith("stig refuses passwords for the shape of their characters (maxrepeat 3, "
                             "maxclassrepeat 4")
    assert applied == (
        "this check applies the stricter value of each setting the profiles stig, nist_800_63b set: minlen 15, "
        "minclass 4, dcredit -1, ucredit -1, lcredit -1, ocredit -1, difok 8, maxrepeat 3, maxclassrepeat 4, "
        "dictcheck 1, usercheck 1; a password that meets these has the character types one profile requires and "
        "still meets nist_800_63b, which only forbids requiring them")
    assert report["verdict"] == "rejected" and "needs at least 1 digit, has 0 (stig: dcredit -1)" in report["reasons"]
    # NIST asks for a blocklist: the shipped list applies to the pair.
    assert check_against("Passwordstandard", "user", profile=["stig", "nist_800_63b"], target="RHEL9",
                         backend=backend)["reasons"][-1] == _blocklist.REASON


def test_nist_takes_any_target_and_the_others_need_theirs():
    assert _profile_check.select("nist_800_63b").target == "RHEL10"
    assert _profile_check.select("nist_800_63b", "F40").target == "RHEL10"
    assert _profile_check.select("nist_800_63b", "rhel8").target == "RHEL8"
    assert _profile_check.select("stig,nist_800_63b", "RHEL9").names == ("stig", "nist_800_63b")


@pytest.mark.parametrize("kwargs,message", [
    (dict(profile="stgi", target="RHEL9"),
     r"unknown compliance profile 'stgi' \(did you mean 'stig'\?\): give one of stig, cis_server_l1, "),
    (dict(profile="bogus", target="RHEL9"), "unknown compliance profile '<hidden>': give one of stig, cis_server_l1, "),
    (dict(profile=["stig", 7], target="RHEL9"), r"unknown compliance profile \(a number\) \(name 2 of the 2 given\): "
                                                "give one of stig, "),
    (dict(profile={"stig": 1}, target="RHEL9"), "profile must be a compliance profile name or a list of them "),
    (dict(profile="stig"), "^compliance profile stig needs a target release: give target, one of RHEL8, RHEL9, "
                           "RHEL10$"),
    (dict(profile=["nist_800_63b", "anssi"]), "^compliance profile anssi needs a target release"),
    (dict(profile="stig", target="F40"), "^compliance profile 'stig' has no values for target 'F40': give one of "
                                         "RHEL8, RHEL9, RHEL10$"),
    (dict(profile="stig", target="RHEL9", rules="installer"), "^rules=installer cannot be combined with a "
                                                              "compliance profile or a blocklist"),
    (dict(blocklist="shipped", rules="installer"), "^rules=installer cannot be combined"),
    (dict(profile="stig", target="RHEL9", settings={"minlen": 9}), "setting 'minlen' is not accepted"),
])
def test_bad_input_names_what_to_give(kwargs, message):
    with pytest.raises((ProfileError, PwcheckError), match=message) as raised:
        check_against(STRONG, "root", **kwargs)
    assert_no_leak(STRONG, str(raised.value), piece=5)


SECRET_NAME = "Vq7-Hj3k-Zr9w"


@pytest.mark.parametrize("profile, where", [
    (SECRET_NAME, ""), (" %s " % SECRET_NAME, ""), ([SECRET_NAME], ""),
    ("stig,%s" % SECRET_NAME, " (name 2 of the 2 given)"), ("stig, %s" % SECRET_NAME, " (name 2 of the 2 given)"),
    ("%s,stig" % SECRET_NAME, " (name 1 of the 2 given)"), (["stig", SECRET_NAME], " (name 2 of the 2 given)"),
    (("anssi", "stig", SECRET_NAME), " (name 3 of the 3 given)"),
])
def test_an_unknown_profile_name_is_never_shown_alone_or_among_others(profile, where):
    with pytest.raises(ProfileError) as raised:
        _profile_check.select(profile, "RHEL9")
    message = str(raised.value)
    assert message == "unknown compliance profile '<hidden>'%s: give one of %s" % (where, ", ".join(PROFILES))
    assert_no_leak(SECRET_NAME, message, piece=5)


def test_with_a_profile_the_policy_names_the_account():
    with pytest.raises(PwcheckError, match=r"^with a compliance profile, policy names the account: give a policy "
                                           r"name \(root, user, luks\) or a dict with name: one of them$"):
        check_against(STRONG, {"minlen": 20}, profile="stig", target="RHEL9")


def test_an_empty_profile_is_no_profile(backend):
    for empty in ("", " ", []):
        assert "profile" not in check_against(STRONG, "root", product="server", profile=empty, backend=backend)


def test_one_libpwquality_call_per_password_with_every_setting_on_it(monkeypatch, backend):
    seen = []
    real = verdict.libpwquality_check
    monkeypatch.setattr(verdict, "libpwquality_check",
                        lambda b, items, minlen, pw, account: seen.append(items) or real(b, items, minlen, pw, account))
    sample = passwords(200)
    for password in sample:
        check_against(password, "root", profile=["stig", "cis_server_l1"], target="RHEL9", backend=backend)
    assert len(seen) == len(sample)
    assert set(seen) == {(("dcredit", -1), ("dictcheck", 1), ("difok", 8), ("lcredit", -1), ("maxclassrepeat", 4),
                          ("maxrepeat", 3), ("maxsequence", 3), ("minclass", 4), ("ocredit", -1), ("ucredit", -1))}


def _sha1(password):
    return hashlib.sha1(password.encode("utf-8")).hexdigest().upper()


@pytest.fixture
def corpus(tmp_path):
    """A sorted SHA1:COUNT file and a range directory that hold BREACHED_ONE, and their paths."""
    # (the range directory also holds a file for STRONG's prefix, as a complete download would)
    digests = sorted([_sha1(BREACHED_ONE), _sha1("another breached one"), "0" * 40, "F" * 40,
                      _sha1(STRONG)[:5] + "0" * 35])
    sorted_file = tmp_path / "pwned.txt"
    sorted_file.write_text("".join("%s:%d\n" % (digest, COUNT) for digest in digests))
    ranges = tmp_path / "ranges"
    ranges.mkdir()
    for digest in digests:
        with open(str(ranges / (digest[:5] + ".txt")), "a") as handle:
            handle.write("%s:%d\r\n" % (digest[5:], COUNT))
    return {"sorted": str(sorted_file), "range": str(ranges)}


BREACHED_ONE = "Vq8!tRz#2mLwPs6@"
COUNT = 987654  # how often the corpus saw it: never shown


@pytest.mark.parametrize("kind", ["sorted", "range"])
def test_a_breached_password_is_a_reason_without_which_entry(backend, corpus, kind):
    report = check_against(BREACHED_ONE, "root", product="server", blocklist=corpus[kind], backend=backend)
    assert list(zip(report["reasons"], report["hints"])) == [BREACHED]
    assert report["verdict"] == "rejected" and report["strength"] == "weak"
    assert "profile" not in report and "conflicts" not in report
    text = repr(report)
    assert _sha1(BREACHED_ONE)[5:] not in text and corpus[kind] not in text and str(COUNT) not in text
    assert_no_leak(BREACHED_ONE, report, piece=5)
    # The same password without a blocklist, and a clean one with it, pass.
    assert check_against(BREACHED_ONE, "root", product="server", backend=backend)["verdict"] == "accepted"
    assert check_against(STRONG, "root", product="server", blocklist=corpus[kind], backend=backend)["ok"]


def test_the_shipped_list_applies_with_a_blocklist_or_a_profile_that_asks_for_one(backend, corpus):
    common = "Passwordstandard"
    plain = check_against(common, {"name": "user", "minlen": 8, "minquality": 0}, backend=backend)
    assert _blocklist.REASON not in plain["reasons"]
    given = check_against(common, {"name": "user", "minlen": 8, "minquality": 0}, blocklist=corpus["sorted"],
                          backend=backend)
    assert given["reasons"][-1] == _blocklist.REASON
    assert _blocklist.REASON not in check_against(common, "user", profile="stig", target="RHEL9",
                                                  backend=backend)["reasons"]
    assert _blocklist.REASON in check_against(common, "user", profile="nist_800_63b", backend=backend)["reasons"]
    # A non-strict policy coaches: the hit makes it weak, not rejected.
    weak = check_against(common, {"name": "user", "minlen": 8, "minquality": 0, "strict": False},
                         blocklist=corpus["range"], backend=backend)
    assert weak["verdict"] == "accepted_weak" and weak["reasons"] == [_blocklist.REASON]


@pytest.mark.parametrize("blocklist,message", [
    ("/nonexistent/pwned.txt", "^blocklist /nonexistent/pwned.txt: no such file \\(give a sorted file of SHA1:COUNT"),
    (["/nonexistent/ranges/"], "^blocklist /nonexistent/ranges/: no such file"),
    (3, "^blocklist must be a list of sources"),
])
def test_an_unusable_blocklist_is_an_error_naming_the_path_and_what_to_give(blocklist, message):
    with pytest.raises(_blocklist.BlocklistError, match=message) as raised:
        check_against(STRONG, "root", product="server", blocklist=blocklist)
    assert_no_leak(STRONG, str(raised.value), piece=5)


def test_an_unreadable_blocklist_says_what_to_give(tmp_path, monkeypatch):
    path = tmp_path / "pwned.txt"
    path.write_text("%s:1\n" % ("A" * 40))
    monkeypatch.setattr(_blocklist.os, "access", lambda *args: False)
    with pytest.raises(_blocklist.BlocklistError, match="^blocklist %s: not readable by this user: give a sorted "
                                                        "file this user can read$" % path):
        check_against(STRONG, "root", product="server", blocklist=str(path))


def test_a_corpus_line_that_cannot_be_read_names_the_corpus_never_the_hash(tmp_path):
    path = tmp_path / "pwned.txt"
    path.write_text("not a hash line\n" * 3)
    with pytest.raises(_blocklist.BlocklistError) as raised:
        check_against(BREACHED_ONE, "root", product="server", blocklist=str(path))
    assert str(path) in str(raised.value) and _sha1(BREACHED_ONE)[:5] not in str(raised.value)


def test_no_network_is_opened(monkeypatch, backend, corpus):
    import socket

    def refuse(*args, **kwargs):
        raise AssertionError("a network connection was opened")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    assert check_against(BREACHED_ONE, "user", profile="nist_800_63b", blocklist=[corpus["sorted"], corpus["range"]],
                         backend=backend)["reasons"] == [_blocklist.REASON]


def test_the_installer_backend_unchanged_without_profile_or_blocklist(backend):
    report = check_against(STRONG, "root", product="server", backend=backend)
    assert set(report) == {"ok", "verdict", "score", "strength", "reasons", "hints", "policy"}


def test_a_selection_is_made_once_per_plain_arguments():
    assert _profile_check.select(["stig", "nist_800_63b"], "RHEL9") is _profile_check.select(
        ["stig", "nist_800_63b"], "RHEL9")
    assert _pwquality  # the backends are the conftest's
