# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import pwcheck
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import Policy
from ansible_collections.kickstart.pwpolicy.plugins.module_utils.pwcheck import (
    DictionaryError,
    PwcheckError,
    SettingsError,
    check_against,
    check_password,
)


def _available(name):
    try:
        pwcheck.load_backend(name)
        return True
    except pwcheck.BackendUnavailable:
        return False


HAVE_BINDING = _available("binding")
HAVE_CTYPES = _available("ctypes")
BACKENDS = [
    pytest.param("binding", marks=pytest.mark.skipif(
        not HAVE_BINDING, reason="the pwquality Python binding is not importable here "
        "(install python3-pwquality and link it into the virtual environment)")),
    pytest.param("ctypes", marks=pytest.mark.skipif(
        not HAVE_CTYPES, reason="libpwquality.so.1 is not installed")),
]
STRONG = "Xk9#mQ2!zLp7qR5@wT"  # 18 characters, libpwquality scores it 60 at minlen 18


@pytest.fixture(params=BACKENDS)
def backend(request):
    return pwcheck.load_backend(request.param)


def policy(name="root", minlen=8, minquality=1, strict=True, emptyok=False, changesok=False):
    return Policy(name=name, minlen=minlen, minquality=minquality, strict=strict,
                  emptyok=emptyok, changesok=changesok)


def assert_no_leak(password, *texts):
    """Neither the password nor any 5-character piece of it appears in texts."""
    if not password:
        return
    blob = "\n".join(texts)
    assert password not in blob
    for start in range(0, max(0, len(password) - 4)):
        assert password[start:start + 5] not in blob, password[start:start + 5]


def check(backend, password, pol=None, **kwargs):
    report = check_password(password, pol or policy(), backend=backend, **kwargs)
    assert_no_leak(password, json.dumps(report, ensure_ascii=False))
    assert len(report["reasons"]) <= len(report["hints"])
    return report


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
        assert pwcheck.strength_band(score) == band

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
    ("Xk#mQz!Lp@wTrb", {"dcredit": -2}, "luks", None, pwcheck.ERR_MIN_DIGITS,
     "has fewer than 2 digits", "at least 2"),
    ("xk9#mq2!zlp7", {"ucredit": -1}, "luks", None, pwcheck.ERR_MIN_UPPERS,
     "has fewer than 1 uppercase letters", "uppercase"),
    ("XK9#MQ2!ZLP7", {"lcredit": -1}, "luks", None, pwcheck.ERR_MIN_LOWERS,
     "has fewer than 1 lowercase letters", "lowercase"),
    ("Xk9mQ2zLp7qR", {"ocredit": -1}, "luks", None, pwcheck.ERR_MIN_OTHERS,
     "has fewer than 1 characters that are not letters or digits", "symbols"),
    ("Xk9#mm#9kX", {}, "luks", None, pwcheck.ERR_PALINDROME,
     "reads the same backwards", "forwards and backwards"),
    ("Xk9mQ2zLp7qR", {"minclass": 4}, "luks", None, pwcheck.ERR_MIN_CLASSES,
     "uses fewer than 4 character classes", "non-ASCII letters count as symbols"),
    ("Xk9#mQQQzLp7", {"maxrepeat": 2}, "luks", None, pwcheck.ERR_MAX_CONSECUTIVE,
     "repeats the same character more than 2 times in a row", "runs of the same character"),
    ("Xk9rootQ2!z", {}, "root", None, pwcheck.ERR_USER_CHECK,
     "contains the account's user name", "leave the user name out"),
    ("Xk9alicEQ2!z", {}, "user", "alice", pwcheck.ERR_USER_CHECK,
     "contains the account's user name", "leave the user name out"),
    ("Xkabcd9#Q2!", {"maxclassrepeat": 3}, "luks", None, pwcheck.ERR_MAX_CLASS_REPEAT,
     "more than 3 characters of the same class in a row", "alternate"),
    ("Xk9acmeQ2!z", {"badwords": "acme"}, "luks", None, pwcheck.ERR_BAD_WORDS,
     "forbidden word", "forbidden words"),
    ("Xk9acmeQ2!z", {"badwords": ["foo", "acme"]}, "luks", None, pwcheck.ERR_BAD_WORDS,
     "forbidden word", "forbidden words"),
    ("Xk9#1234Q!zp", {"maxsequence": 3}, "luks", None, pwcheck.ERR_MAX_SEQUENCE,
     "monotonic sequence", "consecutive"),
    ("password", {}, "luks", None, pwcheck.ERR_CRACKLIB_CHECK,
     "is based on a dictionary word", "dictionary words"),
    ("AB123456C", {}, "luks", None, pwcheck.ERR_CRACKLIB_CHECK,
     "too simple or systematic", "no pattern"),
    ("a1a1a1a1a1", {}, "luks", None, pwcheck.ERR_CRACKLIB_CHECK,
     "not contain enough different characters", "more different characters"),
]


@pytest.mark.parametrize("password,settings,name,user,code,reason,hint", CODE_CASES)
def test_every_check_code_has_reason_and_hint(backend, password, settings, name, user, code, reason, hint):
    rc, _aux, _msg = backend.check(
        pwcheck.settings_cache(backend).get(pwcheck.normalize_settings(settings), 6),
        password, pwcheck.account_for(name, user))
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
    assert pwcheck.account_for("root", "alice") == "root"
    assert pwcheck.account_for("user", "alice") == "alice"
    assert pwcheck.account_for("user", None) is None
    assert pwcheck.account_for("luks", "alice") is None


def test_user_name_not_checked_for_luks(backend):
    report = check(backend, "Xk9rootQ2!zW", policy(name="luks", minlen=6, minquality=0))
    assert report["verdict"] == "accepted"


@pytest.mark.parametrize("code", [
    pwcheck.ERR_TOO_SIMILAR, pwcheck.ERR_MIN_DIGITS, pwcheck.ERR_MIN_UPPERS, pwcheck.ERR_MIN_LOWERS,
    pwcheck.ERR_MIN_OTHERS, pwcheck.ERR_MIN_LENGTH, pwcheck.ERR_PALINDROME, pwcheck.ERR_CASE_CHANGES_ONLY,
    pwcheck.ERR_ROTATED, pwcheck.ERR_MIN_CLASSES, pwcheck.ERR_MAX_CONSECUTIVE, pwcheck.ERR_EMPTY_PASSWORD,
    pwcheck.ERR_SAME_PASSWORD, pwcheck.ERR_CRACKLIB_CHECK, pwcheck.ERR_USER_CHECK, pwcheck.ERR_GECOS_CHECK,
    pwcheck.ERR_MAX_CLASS_REPEAT, pwcheck.ERR_BAD_WORDS, pwcheck.ERR_MAX_SEQUENCE,
])
@pytest.mark.parametrize("aux", [None, 3])
def test_explain_covers_every_check_code(code, aux):
    reason, hint = pwcheck.explain(code, aux if code != pwcheck.ERR_CRACKLIB_CHECK else None, length=5)
    assert reason and hint
    assert "{" not in reason + hint and "None" not in reason + hint
    assert "error %d" % code not in reason  # not the generic fallback


def test_explain_numbers_and_unknown_code():
    assert pwcheck.explain(pwcheck.ERR_MIN_CLASSES, 3)[0].startswith("uses fewer than 3 character classes")
    assert pwcheck.explain(pwcheck.ERR_MIN_LENGTH, 6, length=5)[0] == \
        "shorter than libpwquality's minimum of 6 characters (has 5)"
    assert pwcheck.explain(-99) == ("rejected by libpwquality (error -99)", "see the pwquality(3) manual for error -99")
    assert pwcheck.explain(pwcheck.ERR_CRACKLIB_CHECK, "something new") == pwcheck.CRACKLIB_GENERIC
    for text in ("it is WAY too short", "it is too short", "it is all whitespace",
                 "it looks like a National Insurance number.", "it is based upon your password entry",
                 "it is based on your username"):
        assert pwcheck.explain(pwcheck.ERR_CRACKLIB_CHECK, text) != pwcheck.CRACKLIB_GENERIC
    assert "WAY" not in pwcheck.explain(pwcheck.ERR_CRACKLIB_CHECK, "it is WAY too short")[0]
    assert pwcheck.explain(pwcheck.ERR_CRACKLIB_CHECK, "it is WAY too short")[0].startswith("is far too short")


# --------------------------------------------------------------------------
# Non-ASCII
# --------------------------------------------------------------------------
@pytest.mark.parametrize("password", ["Überweisung-überall-Kx9", "密码密码密码密码Xk9#", "Xk9#mQ2!\tzLp7qR5@wT",
                                      "äöüß"])
def test_non_ascii_never_crashes_and_gets_keyboard_hint(backend, password):
    report = check(backend, password, policy(minlen=6, minquality=0, strict=False))
    assert report["hints"][-1] == pwcheck.KEYBOARD_HINT
    assert report["ok"] is True


def test_ascii_gets_no_keyboard_hint(backend):
    assert pwcheck.KEYBOARD_HINT not in check(backend, "Xk9#mQ2!zLp7 qR5@wT", policy())["hints"]


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
# Backends: parity, cache, errors
# --------------------------------------------------------------------------
PARITY_PASSWORDS = [case[0] for case in CODE_CASES] + [
    STRONG, "Tr0ub4dour&3", "correcthorsebatterystaple", "aaaaaaaaaaaaaaaaaaaa", "äöüß", "密码密码",
    "Überweisung-überall", "Xk9#m", "abc", "qwertyuiop", "P@ssw0rd2024!", "johnsmith99", "rootroot12X!",
    "        a", "Xk9#mQ2!zLp7 qR5@wT x", "x" * 300,
]
PARITY_SETTINGS = [
    ({}, 6), ({}, 8), ({}, 20), ({"minclass": 3}, 8), ({"minclass": 4, "maxrepeat": 2}, 14),
    ({"dcredit": -2, "ucredit": -1}, 8), ({"lcredit": -1, "ocredit": -1}, 8),
    ({"maxclassrepeat": 3, "maxsequence": 3}, 8), ({"badwords": "acme foo"}, 8),
    ({"dictcheck": False}, 8), ({"usercheck": False, "usersubstr": 4}, 8),
    ({"dcredit": 1, "ucredit": 1, "lcredit": 1, "ocredit": 1}, 12), ({"difok": 3}, 8),
]


@pytest.mark.skipif(not HAVE_BINDING, reason="the pwquality Python binding is not importable here "
                    "(install python3-pwquality and link it into the virtual environment); parity needs both")
@pytest.mark.skipif(not HAVE_CTYPES, reason="libpwquality.so.1 is not installed; parity needs both")
@pytest.mark.parametrize("settings,minlen", PARITY_SETTINGS)
def test_binding_and_shared_library_agree(settings, minlen):
    binding = pwcheck.load_backend("binding")
    shared = pwcheck.load_backend("ctypes")
    items = pwcheck.normalize_settings(settings)
    b_handle = binding.make_settings(items, minlen)
    s_handle = shared.make_settings(items, minlen)
    assert binding.dictpath(b_handle) == shared.dictpath(s_handle)
    codes = set()
    for password in PARITY_PASSWORDS:
        for user in (None, "root", "alice", "john"):
            b = binding.check(b_handle, password, user)
            s = shared.check(s_handle, password, user)
            assert b == s, (password, user)
            codes.add(b[0] if b[0] < 0 else "score")
        pol = policy(name="user", minlen=min(minlen, 1024), minquality=20, strict=False)
        assert check_password(password, pol, user="alice", settings=settings, backend=binding) == \
            check_password(password, pol, user="alice", settings=settings, backend=shared)
    assert "score" in codes and len(codes) > 1


def test_settings_are_built_once_per_distinct_settings(backend):
    calls = []
    real = backend.make_settings

    def counting(items, minlen):
        calls.append((items, minlen))
        return real(items, minlen)

    backend.make_settings = counting
    for password in ("Xk9#mQ2!zLp7", "Tr0ub4dour&3", "password", "Xk9#mQ2!zLp7"):
        check_password(password, policy(minlen=8), backend=backend)
    assert len(calls) == 1
    # a different policy with the same minlen shares the settings too
    check_password(STRONG, policy(name="luks", minlen=8, minquality=50, strict=False), backend=backend)
    assert len(calls) == 1
    check_password(STRONG, policy(minlen=9), backend=backend)
    check_password(STRONG, policy(minlen=8), settings={"minclass": 3}, backend=backend)
    check_password(STRONG, policy(minlen=8), settings={"minclass": "3"}, backend=backend)
    assert len(calls) == 3
    assert pwcheck.settings_cache(backend).built == 3


def test_cache_is_bounded(backend):
    cache = pwcheck.SettingsCache(backend, size=2)
    first = cache.get((), 8)
    cache.get((), 9)
    assert cache.get((), 8) is first
    cache.get((), 10)  # evicts 9, the least recently used
    cache.get((), 11)  # evicts 8
    assert cache.get((), 8) is not first
    assert cache.built == 5


def test_missing_dictionary_is_reported_with_packages(backend, tmp_path):
    missing = str(tmp_path / "nothing" / "pw_dict")
    with pytest.raises(DictionaryError) as info:
        check_password(STRONG, policy(), settings={"dictpath": missing}, backend=backend)
    text = str(info.value)
    assert "cracklib-dicts" in text and "cracklib-runtime" in text and "dictcheck" in text
    assert missing + ".pwd" in text
    assert_no_leak(STRONG, text)


def test_broken_dictionary_is_reported_not_called_weak(backend, tmp_path):
    broken = tmp_path / "pw_dict"
    for ext in (".pwd", ".pwi", ".hwm"):
        (tmp_path / ("pw_dict" + ext)).write_bytes(b"not a dictionary")
    with pytest.raises(DictionaryError) as info:
        check_password(STRONG, policy(), settings={"dictpath": str(broken)}, backend=backend)
    assert "error loading dictionary" in str(info.value)
    assert "cracklib-runtime" in str(info.value)


def test_missing_dictionary_is_fine_without_dictionary_check(backend, tmp_path):
    report = check(backend, "password", policy(minlen=6, minquality=0),
                   settings={"dictpath": str(tmp_path / "none"), "dictcheck": "no"})
    assert report["verdict"] == "accepted"


def test_defaults_ignore_the_controllers_config(backend):
    # libpwquality's compiled defaults: no minclass, so one class is enough
    # whatever /etc/security/pwquality.conf says.
    report = check(backend, "kqzvxwjtbplmr", policy(minlen=8, minquality=0))
    assert report["verdict"] == "accepted"


def test_no_backend_names_packages(monkeypatch):
    def fail(*args, **kwargs):
        raise OSError("libpwquality.so.1: cannot open shared object file")

    def no_binding():
        raise ImportError("No module named pwquality")

    monkeypatch.setattr(pwcheck, "BindingBackend", no_binding)
    monkeypatch.setattr(pwcheck, "CtypesBackend", fail)
    with pytest.raises(pwcheck.BackendUnavailable) as info:
        pwcheck.load_backend()
    text = str(info.value)
    for package in ("libpwquality", "python3-pwquality", "cracklib-dicts", "libpwquality1", "cracklib-runtime"):
        assert package in text
    assert "Fedora/RHEL" in text and "Debian/Ubuntu" in text


def test_backend_choice_from_environment(monkeypatch):
    monkeypatch.setenv(pwcheck.BACKEND_ENV, "ctypes")
    if HAVE_CTYPES:
        assert pwcheck.load_backend().name == "ctypes"
    monkeypatch.setenv(pwcheck.BACKEND_ENV, "nonsense")
    with pytest.raises(PwcheckError, match="valid backends are binding, ctypes"):
        pwcheck.load_backend()


def test_ctypes_reports_a_missing_library():
    with pytest.raises(OSError):
        pwcheck.CtypesBackend(library="libdoesnotexist-kickstart.so.0")


# --------------------------------------------------------------------------
# Settings validation
# --------------------------------------------------------------------------
def test_settings_normalized():
    assert pwcheck.normalize_settings({"minclass": "3", "dictcheck": "no", "usercheck": True,
                                       "badwords": ["acme", " corp "], "dcredit": "-2"}) == \
        (("badwords", "acme corp"), ("dcredit", -2), ("dictcheck", 0), ("minclass", 3), ("usercheck", 1))
    assert pwcheck.normalize_settings(None) == ()


@pytest.mark.parametrize("settings,message", [
    ({"minlen": 12}, "set the policy's minlen instead"),
    ({"enforcing": 0}, "PAM module"),
    ({"retry": 3}, "PAM module"),
    ({"minclas": 3}, "unknown libpwquality setting 'minclas': valid settings are difok"),
    ({"minclass": "three"}, "must be a whole number"),
    ({"minclass": -1}, "must not be negative"),
    ({"minclass": True}, "must be a whole number"),
    ({"dictcheck": "maybe"}, "must be true or false"),
    ({"badwords": 3}, "must be a string"),
    ({"badwords": ["ok", 3]}, "list of strings"),
    ({"dictpath": "a\nb"}, "one line"),
    (["minclass"], "settings must be a dict"),
])
def test_bad_settings(settings, message):
    with pytest.raises(SettingsError, match=message):
        pwcheck.normalize_settings(settings)


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


def test_environment_backend_is_used_by_default(monkeypatch):
    if not HAVE_CTYPES:
        pytest.skip("libpwquality.so.1 is not installed")
    monkeypatch.setattr(pwcheck, "_BACKEND", None)
    monkeypatch.setenv(pwcheck.BACKEND_ENV, "ctypes")
    assert pwcheck.get_backend().name == "ctypes"
    assert os.environ[pwcheck.BACKEND_ENV] == "ctypes"


# --------------------------------------------------------------------------
# Any text: never a crash, never a leak, the same answer from both backends
# --------------------------------------------------------------------------
_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"),
                min_size=1, max_size=40)


@pytest.mark.skipif(not (HAVE_BINDING and HAVE_CTYPES),
                    reason="parity needs both the pwquality Python binding and libpwquality.so.1")
@hyp_settings(max_examples=300, deadline=None)
@given(password=_TEXT, minlen=st.integers(0, 30), name=st.sampled_from(["root", "user", "luks"]))
def test_any_text_same_report_from_both_backends(password, minlen, name):
    pol = policy(name=name, minlen=minlen, minquality=10, strict=False)
    binding_report = check_password(password, pol, user="alice", backend=pwcheck.load_backend("binding"))
    shared_report = check_password(password, pol, user="alice", backend=pwcheck.load_backend("ctypes"))
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
        assert password not in json.dumps(report)
