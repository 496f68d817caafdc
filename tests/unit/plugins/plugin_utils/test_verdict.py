# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The verdict rules (_verdict): reasons, hints, strength, policy resolution, no leak."""

import json

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pw_reasons as pw_reasons
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pwq_settings
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pwquality
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _verdict as verdict
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import PolicyError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verdict import (
    PwcheckError,
    check_against,
    check_password,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.plugin_utils.pwq_helpers import (
    BOTH,
    STRONG,
    assert_no_leak,
    check,
    policy,
)


# --------------------------------------------------------------------------
# Verdict rules
# --------------------------------------------------------------------------
class TestVerdict:
    def test_strong_password_is_accepted(self, backend):
        report = check(backend, STRONG, policy(minlen=12, minquality=30))
        assert report["ok"] is True
        assert report["verdict"] == "accepted"
        assert report["reasons"] == [] and report["hints"] == []
        assert 30 <= report["score"] <= 100
        assert report["strength"] in ("good", "strong")
        assert report["policy"] == policy(minlen=12, minquality=30).to_dict()

    @pytest.mark.parametrize("strict", [True, False])
    def test_empty_with_emptyok_is_accepted(self, backend, strict):
        report = check(backend, "", policy(emptyok=True, strict=strict))
        assert (report["ok"], report["verdict"], report["strength"], report["score"]) == \
            (True, "accepted", "empty", 0)
        assert report["reasons"] == []

    @pytest.mark.parametrize("strict", [True, False])
    def test_empty_without_emptyok_is_rejected_even_when_not_strict(self, backend, strict):
        report = check(backend, "", policy(emptyok=False, strict=strict))
        assert (report["ok"], report["verdict"], report["strength"]) == (False, "rejected", "empty")
        assert report["reasons"] == ["is empty, and this policy does not allow an empty password"]
        assert "emptyok" in report["hints"][0]
        assert "locked" in report["hints"][0]  # root: empty means locked

    def test_empty_hint_for_user_does_not_talk_about_locking(self, backend):
        report = check(backend, "", policy(name="user"))
        assert "locked" not in report["hints"][0]

    @pytest.mark.parametrize("strict,verdict,ok", [(True, "rejected", False), (False, "accepted_weak", True)])
    def test_too_short_in_characters(self, backend, strict, verdict, ok):
        report = check(backend, "Xk9#mQ2", policy(minlen=12, strict=strict))
        assert (report["ok"], report["verdict"], report["strength"], report["score"]) == \
            (ok, verdict, "too_short", 0)
        # libpwquality's own "too short" is not repeated.
        assert report["reasons"] == ["shorter than 12 characters (has 7)"]
        assert report["hints"] == ["add at least 5 more characters"]

    def test_too_short_also_reports_what_else_libpwquality_finds(self, backend):
        # libpwquality stops at its own length rule; the rest is still reported.
        report = check(backend, "sunshine99", policy(minlen=15, minquality=0))
        assert report["reasons"] == ["shorter than 15 characters (has 10)", "is based on a dictionary word"]
        assert report["hints"][0] == "add at least 5 more characters"
        assert report["strength"] == "too_short" and report["score"] == 0

    def test_too_short_singular(self, backend):
        report = check(backend, "Xk9#mQ2!zLp", policy(minlen=12))
        assert report["reasons"] == ["shorter than 12 characters (has 11)"]
        assert report["hints"] == ["add at least 1 more character"]

    def test_length_counts_characters_not_bytes(self, backend):
        # 10 characters, 20 bytes: libpwquality (bytes) would let it pass minlen 12.
        password = "äöüßéèàçñø"
        report = check(backend, password, policy(minlen=12, minquality=0))
        assert report["strength"] == "too_short"
        assert report["reasons"][0] == "shorter than 12 characters (has 10)"
        assert report["verdict"] == "rejected"

    @pytest.mark.parametrize("strict,verdict,ok", [(True, "rejected", False), (False, "accepted_weak", True)])
    def test_libpwquality_rejection(self, backend, strict, verdict, ok):
        report = check(backend, "password", policy(minlen=6, minquality=0, strict=strict))
        assert (report["ok"], report["verdict"], report["strength"], report["score"]) == \
            (ok, verdict, "weak", 0)
        assert report["reasons"] == ["is based on a dictionary word"]

    @pytest.mark.parametrize("strict,verdict,ok", [(True, "rejected", False), (False, "accepted_weak", True)])
    def test_below_minquality(self, backend, strict, verdict, ok):
        accepted = check(backend, STRONG, policy(minlen=18, minquality=0))
        score = accepted["score"]
        assert accepted["verdict"] == "accepted" and 0 < score < 100
        report = check(backend, STRONG, policy(minlen=18, minquality=score + 1, strict=strict))
        assert (report["ok"], report["verdict"], report["score"]) == (ok, verdict, score)
        assert report["reasons"] == ["libpwquality scores it %d, below this policy's minquality of %d"
                                     % (score, score + 1)]
        # exactly minquality is enough
        assert check(backend, STRONG, policy(minlen=18, minquality=score))["verdict"] == "accepted"

    def test_several_failures_are_all_reported(self, backend):
        # 9 characters, 12 bytes: too short for 12 characters, and too many repeats.
        report = check(backend, "äöüXXXXkq", policy(minlen=12, minquality=0), settings={"maxrepeat": 2})
        assert report["reasons"][0] == "shorter than 12 characters (has 9)"
        assert report["reasons"][1] == "repeats the same character more than 2 times in a row"
        assert len(report["hints"]) == 3  # two reasons, and the keyboard layout
        assert report["strength"] == "too_short"

    @pytest.mark.parametrize("score,band", [(0, "fair"), (29, "fair"), (30, "good"), (69, "good"),
                                            (70, "strong"), (100, "strong")])
    def test_strength_bands(self, score, band):
        assert pw_reasons.strength_band(score) == band

    def test_policy_minlen_below_libpwquality_minimum(self, backend):
        # Policy allows 4, libpwquality never goes below 6 (bytes).
        report = check(backend, "Xk9#m", policy(minlen=4, minquality=0))
        assert report["strength"] == "weak"
        assert report["reasons"] == ["shorter than libpwquality's minimum of 6 characters (has 5)"]
        assert "at least 6 characters" in report["hints"][0]


# --------------------------------------------------------------------------
# One reason and one hint for every code a check can return
# --------------------------------------------------------------------------
CODE_CASES = [
    # (password, settings, user policy name, user, code, reason fragment, hint fragment)
    ("Xk#mQz!Lp@wTrb", {"dcredit": -2}, "luks", None, _pwq_settings.ERR_MIN_DIGITS,
     "has fewer than 2 digits", "at least 2"),
    ("xk9#mq2!zlp7", {"ucredit": -1}, "luks", None, _pwq_settings.ERR_MIN_UPPERS,
     "has fewer than 1 uppercase letters", "uppercase"),
    ("XK9#MQ2!ZLP7", {"lcredit": -1}, "luks", None, _pwq_settings.ERR_MIN_LOWERS,
     "has fewer than 1 lowercase letters", "lowercase"),
    ("Xk9mQ2zLp7qR", {"ocredit": -1}, "luks", None, _pwq_settings.ERR_MIN_OTHERS,
     "has fewer than 1 characters that are not letters or digits", "symbols"),
    ("Xk9#mm#9kX", {}, "luks", None, _pwq_settings.ERR_PALINDROME,
     "reads the same backwards", "forwards and backwards"),
    ("Xk9mQ2zLp7qR", {"minclass": 4}, "luks", None, _pwq_settings.ERR_MIN_CLASSES,
     "uses fewer than 4 character classes", "non-ASCII letters count as symbols"),
    ("Xk9#mQQQzLp7", {"maxrepeat": 2}, "luks", None, _pwq_settings.ERR_MAX_CONSECUTIVE,
     "repeats the same character more than 2 times in a row", "runs of the same character"),
    ("Xk9rootQ2!z", {}, "root", None, _pwq_settings.ERR_USER_CHECK,
     "contains the account's user name", "leave the user name out"),
    ("Xk9alicEQ2!z", {}, "user", "alice", _pwq_settings.ERR_USER_CHECK,
     "contains the account's user name", "leave the user name out"),
    ("Xkabcd9#Q2!", {"maxclassrepeat": 3}, "luks", None, _pwq_settings.ERR_MAX_CLASS_REPEAT,
     "more than 3 characters of the same class in a row", "alternate"),
    ("Xk9acmeQ2!z", {"badwords": "acme"}, "luks", None, _pwq_settings.ERR_BAD_WORDS,
     "forbidden word", "forbidden words"),
    ("Xk9acmeQ2!z", {"badwords": ["foo", "acme"]}, "luks", None, _pwq_settings.ERR_BAD_WORDS,
     "forbidden word", "forbidden words"),
    ("Xk9#1234Q!zp", {"maxsequence": 3}, "luks", None, _pwq_settings.ERR_MAX_SEQUENCE,
     "monotonic sequence", "consecutive"),
    ("password", {}, "luks", None, _pwq_settings.ERR_CRACKLIB_CHECK,
     "is based on a dictionary word", "dictionary words"),
    ("AB123456C", {}, "luks", None, _pwq_settings.ERR_CRACKLIB_CHECK,
     "too simple or systematic", "no pattern"),
    ("a1a1a1a1a1", {}, "luks", None, _pwq_settings.ERR_CRACKLIB_CHECK,
     "not contain enough different characters", "more different characters"),
]


@pytest.mark.parametrize("password,settings,name,user,code,reason,hint", CODE_CASES)
def test_every_check_code_has_reason_and_hint(backend, password, settings, name, user, code, reason, hint):
    rc, _aux = _pwquality.check(backend, _pwq_settings.normalize_settings(settings), 6,
                                password, verdict.account_for(name, user))
    assert rc == code
    report = check(backend, password, policy(name=name, minlen=6, minquality=0), user=user, settings=settings)
    assert report["verdict"] == "rejected" and report["strength"] == "weak"
    assert len(report["reasons"]) == 1 and reason in report["reasons"][0]
    assert hint in report["hints"][0]


def test_gecos_check(backend):
    import pwd
    try:
        gecos = pwd.getpwnam("daemon").pw_gecos.split(",")[0]
    except KeyError:
        pytest.skip("no daemon account on this machine")
    if len(gecos) < 4 or " " in gecos:
        pytest.skip("the daemon account's real name is not one usable word")
    report = check(backend, "Xk9%sQ2!" % gecos, policy(name="user", minlen=6, minquality=0),
                   user="daemon", settings={"usercheck": False, "gecoscheck": True})
    assert report["reasons"] == ["contains words from the account's real name"]


def test_luks_gets_no_user_name_and_user_gets_the_account():
    assert verdict.account_for("root", "alice") == "root"
    assert verdict.account_for("user", "alice") == "alice"
    assert verdict.account_for("user", None) is None
    assert verdict.account_for("luks", "alice") is None


def test_user_name_not_checked_for_luks(backend):
    report = check(backend, "Xk9rootQ2!zW", policy(name="luks", minlen=6, minquality=0))
    assert report["verdict"] == "accepted"


@pytest.mark.parametrize("code", [
    _pwq_settings.ERR_TOO_SIMILAR, _pwq_settings.ERR_MIN_DIGITS, _pwq_settings.ERR_MIN_UPPERS, _pwq_settings.ERR_MIN_LOWERS,
    _pwq_settings.ERR_MIN_OTHERS, _pwq_settings.ERR_MIN_LENGTH, _pwq_settings.ERR_PALINDROME, _pwq_settings.ERR_CASE_CHANGES_ONLY,
    _pwq_settings.ERR_ROTATED, _pwq_settings.ERR_MIN_CLASSES, _pwq_settings.ERR_MAX_CONSECUTIVE, _pwq_settings.ERR_EMPTY_PASSWORD,
    _pwq_settings.ERR_SAME_PASSWORD, _pwq_settings.ERR_CRACKLIB_CHECK, _pwq_settings.ERR_USER_CHECK, _pwq_settings.ERR_GECOS_CHECK,
    _pwq_settings.ERR_MAX_CLASS_REPEAT, _pwq_settings.ERR_BAD_WORDS, _pwq_settings.ERR_MAX_SEQUENCE,
])
@pytest.mark.parametrize("aux", [None, 3])
def test_explain_covers_every_check_code(code, aux):
    reason, hint = pw_reasons.explain(code, aux if code != _pwq_settings.ERR_CRACKLIB_CHECK else None, length=5)
    assert reason and hint
    assert "{" not in reason + hint and "None" not in reason + hint
    assert "error %d" % code not in reason  # not the generic fallback


def test_explain_numbers_and_unknown_code():
    assert pw_reasons.explain(_pwq_settings.ERR_MIN_CLASSES, 3)[0].startswith("uses fewer than 3 character classes")
    assert pw_reasons.explain(_pwq_settings.ERR_MIN_LENGTH, 6, length=5)[0] == \
        "shorter than libpwquality's minimum of 6 characters (has 5)"
    assert pw_reasons.explain(-99) == ("rejected by libpwquality (error -99)", "see the pwquality(3) manual for error -99")
    assert pw_reasons.explain(_pwq_settings.ERR_CRACKLIB_CHECK, "something new") == pw_reasons.CRACKLIB_GENERIC
    for text in ("it is WAY too short", "it is too short", "it is all whitespace",
                 "it looks like a National Insurance number.", "it is based upon your password entry",
                 "it is based on your username"):
        assert pw_reasons.explain(_pwq_settings.ERR_CRACKLIB_CHECK, text) != pw_reasons.CRACKLIB_GENERIC
    assert "WAY" not in pw_reasons.explain(_pwq_settings.ERR_CRACKLIB_CHECK, "it is WAY too short")[0]
    assert pw_reasons.explain(_pwq_settings.ERR_CRACKLIB_CHECK, "it is WAY too short")[0].startswith("is far too short")


# --------------------------------------------------------------------------
# Non-ASCII
# --------------------------------------------------------------------------
@pytest.mark.parametrize("password", ["Überweisung-überall-Kx9", "密码密码密码密码Xk9#", "Xk9#mQ2!\tzLp7qR5@wT",
                                      "äöüß"])
def test_non_ascii_never_crashes_and_gets_keyboard_hint(backend, password):
    report = check(backend, password, policy(minlen=6, minquality=0, strict=False))
    assert report["hints"][-1] == pw_reasons.KEYBOARD_HINT
    assert report["ok"] is True


def test_ascii_gets_no_keyboard_hint(backend):
    assert pw_reasons.KEYBOARD_HINT not in check(backend, "Xk9#mQ2!zLp7 qR5@wT", policy())["hints"]


def test_non_ascii_letters_count_as_symbols(backend):
    report = check(backend, "überweisungsüberall", policy(minlen=6, minquality=0), settings={"minclass": 3})
    assert "uses fewer than 3 character classes" in report["reasons"][0]


def test_nul_is_a_reason_not_an_error(backend):
    report = check_password("Xk9\0mQ2!zLp7", policy(strict=False), backend=backend)
    assert report["verdict"] == "rejected" and not report["ok"]
    assert "NUL character" in report["reasons"][0]
    assert_no_leak("Xk9\0mQ2!zLp7", json.dumps(report, ensure_ascii=False))


@pytest.mark.parametrize("password,message", [
    ("Xk9\udc80mQ2!zLp7", "cannot be encoded as UTF-8"),
])
def test_unusable_text_is_refused_without_echo(backend, password, message):
    with pytest.raises(PwcheckError) as info:
        check_password(password, policy(), backend=backend)
    assert message in str(info.value)
    assert_no_leak(password, str(info.value), repr(info.value))


def test_password_must_be_text(backend):
    with pytest.raises(PwcheckError, match="must be a string, got bytes"):
        check_password(b"Xk9#mQ2!zLp7", policy(), backend=backend)


# --------------------------------------------------------------------------
# Policy resolution and no-leak on errors
# --------------------------------------------------------------------------
def test_check_against_resolves_names_and_presets(backend):
    report = check_against(STRONG, "luks", product="server", backend=backend)
    assert report["policy"]["minlen"] == 20 and report["verdict"] == "rejected"
    report = check_against(STRONG, {"name": "user", "minlen": 10}, target="F39", user="alice", backend=backend)
    assert report["policy"] == {"name": "user", "minlen": 10, "minquality": 1, "strict": False,
                                "emptyok": True, "changesok": False}


def test_check_against_never_repeats_a_misplaced_password(backend):
    with pytest.raises(PwcheckError) as info:
        check_against("root", STRONG, backend=backend)
    assert_no_leak(STRONG, str(info.value))
    assert "not a policy name" in str(info.value)


# --------------------------------------------------------------------------
# Any text: never a crash, never a leak, the same answer from both backends
# --------------------------------------------------------------------------
_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"),
                min_size=1, max_size=40)


@BOTH
@hyp_settings(max_examples=300, deadline=None)
@given(password=_TEXT, minlen=st.integers(0, 30), name=st.sampled_from(["root", "user", "luks"]))
def test_any_text_same_report_from_both_backends(password, minlen, name):
    pol = policy(name=name, minlen=minlen, minquality=10, strict=False)
    binding_report = check_password(password, pol, user="alice", backend=_pwquality.load_backend("binding"))
    shared_report = check_password(password, pol, user="alice", backend=_pwquality.load_backend("ctypes"))
    assert binding_report == shared_report
    assert binding_report["verdict"] in ("accepted", "accepted_weak")


@hyp_settings(max_examples=200, deadline=None)
@given(before=_TEXT, after=_TEXT)
def test_any_text_never_appears_in_the_report(before, after):
    # "\u00a4" never occurs in the collection's own words, so finding the
    # password in the report could only be a leak.
    password = before + "\u00a4" + after
    for name in ("root", "user", "luks"):
        report = check_password(password, policy(name=name, minlen=12, strict=False), user="alice")
        assert password not in json.dumps(report, ensure_ascii=False)


def test_overlong_password_never_reaches_libpwquality(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("libpwquality was called")

    monkeypatch.setattr(verdict, "get_backend", boom)
    pol = policy("luks", 8, 1, False, False, False)
    report = verdict.check_password("x" * 90000, pol)
    assert report["verdict"] == "rejected" and not report["ok"]
    assert "longer than 4096 characters (has 90000)" in report["reasons"][0]


def test_overlong_user_name_is_an_error():
    pol = policy("user", 8, 1, False, False, False)
    with pytest.raises(verdict.PwcheckError, match="has 90000 characters"):
        verdict.check_password("Correct-Horse-9", pol, user="u" * 90000)


# --------------------------------------------------------------------------
# Policies are resolved once per distinct plain value
# --------------------------------------------------------------------------
def test_resolve_caches_plain_policies_only(monkeypatch):
    calls = []
    real = verdict.policy_from

    def counting(policy, **kwargs):
        calls.append(policy)
        return real(policy, **kwargs)

    monkeypatch.setattr(verdict, "policy_from", counting)
    monkeypatch.setattr(verdict, "_RESOLVED", {})
    first = verdict.resolve("root", "server")
    assert verdict.resolve("root", "server") is first and len(calls) == 1
    assert verdict.resolve("root", "workstation") != first and len(calls) == 2
    fields = {"name": "luks", "minlen": 9, "strict": True}
    assert verdict.resolve(dict(fields), "server") is verdict.resolve(dict(fields), "server")
    assert len(calls) == 3
    # True == 1, but True is no minlen: the type is part of the key, and the error comes every time.
    assert verdict.resolve({"name": "luks", "minlen": 1}, "server").minlen == 1
    for _attempt in range(2):
        with pytest.raises(PolicyError, match="minlen"):
            verdict.resolve({"name": "luks", "minlen": True}, "server")
    # Values that are not plain (a list, or a str subclass such as a vaulted or tagged value) are never kept.
    before = len(verdict._RESOLVED)
    verdict.resolve({"name": "luks", "minlen": 9}, type("Tagged", (str,), {})("server"))
    assert len(verdict._RESOLVED) == before


def test_resolve_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(verdict, "_RESOLVED", {})
    for minlen in range(6, 6 + 2 * verdict._RESOLVED_MAX):
        verdict.resolve({"name": "user", "minlen": minlen}, "server")
    assert len(verdict._RESOLVED) <= verdict._RESOLVED_MAX
