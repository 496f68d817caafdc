# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The class and pattern settings counted as libpwquality counts them (_setting_reasons).

libpwquality stops at the first setting a password breaks; the first failure
counted here must be that one, on both backends, for every profile's settings
and for harsher ones, over the benchmark's passwords, the unit tables and
generated text (non-ASCII included).  Reasons are held to their words.
"""

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _profiles
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pwquality
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pwq_settings as codes
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import normalize_settings
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._setting_reasons import CODES, failures, shape
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.plugin_utils.pwq_helpers import HAVE_CTYPES
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.plugin_utils.test_verdict_one_call import (
    BENCHMARK_SET,
    TABLE_SET,
)

# libpwquality's order of checks (src/check.c): a failure found here may only come at or after its answer.
ORDER = [codes.ERR_MAX_CLASS_REPEAT, codes.ERR_MIN_DIGITS, codes.ERR_MIN_UPPERS, codes.ERR_MIN_LOWERS,
         codes.ERR_MIN_OTHERS, codes.ERR_MIN_LENGTH, codes.ERR_MIN_CLASSES, codes.ERR_PALINDROME,
         codes.ERR_MAX_CONSECUTIVE, codes.ERR_MAX_SEQUENCE, codes.ERR_USER_CHECK, codes.ERR_GECOS_CHECK,
         codes.ERR_BAD_WORDS, codes.ERR_CRACKLIB_CHECK]
HARSH = {"maxclassrepeat": 2, "maxrepeat": 1, "maxsequence": 2, "minclass": 4, "dcredit": -2, "ucredit": -2,
         "lcredit": -2, "ocredit": -2}


def profile_settings():
    """Every distinct set of class and pattern settings the profiles ask for on any release, and harsher ones."""
    found = []
    for name in _profiles.PROFILES:
        for target in _profiles.TARGETS:
            values = dict((key, value) for key, value in _profiles.pwquality(name, target).items()
                          if key not in _profiles.NOT_FOR_A_CHECK + ("dictcheck", "usercheck", "difok"))
            if values not in found:
                found.append(values)
    return found + [HARSH, {"maxsequence": 1}, {"ocredit": -3, "minclass": 2}]


SETTINGS = profile_settings()


def agree(backend, password, settings):
    """Assert that the failures counted here agree with libpwquality's one answer (no dictionary check)."""
    items = normalize_settings(dict(settings, dictcheck=0))
    rc, _aux = _pwquality.check(backend, items, _pwquality.LIBPWQUALITY_MIN_LENGTH, password, None)
    found = [code for code, _setting, _reason, _hint in failures(password, settings)]
    if rc >= 0:
        assert found == [], "libpwquality accepts a password the count refuses (%s)" % found
    elif rc in CODES:
        assert found and found[0] == rc, "libpwquality stops at %d, the count finds %s" % (rc, found)
    else:
        assert all(ORDER.index(code) > ORDER.index(rc) for code in found), \
            "libpwquality stops at %d before the count's %s" % (rc, found)
    return found


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join("%s=%s" % i for i in sorted(s.items())))
def test_the_first_failure_is_libpwqualitys_over_the_benchmark_and_the_tables(backend, settings):
    found = [agree(backend, password, settings) for password in BENCHMARK_SET + TABLE_SET if password]
    asks = any(value > 0 if key in ("minclass", "maxrepeat", "maxclassrepeat", "maxsequence") else value < 0
               for key, value in settings.items())
    assert any(found) is asks, "the set breaks none of these settings: the comparison proves nothing"


@pytest.mark.skipif(not HAVE_CTYPES, reason="libpwquality.so.1 is not installed")
@hyp_settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(password=st.text(alphabet=st.sampled_from("aAbBcCdDyzYZ0123456789!#-.~ éÄ€\t\x7f\u0080"), min_size=1, max_size=40),
       settings=st.sampled_from(SETTINGS))
def test_the_first_failure_is_libpwqualitys_for_generated_text(password, settings):
    agree(_pwquality.load_backend("ctypes"), password, settings)


def test_the_shape_is_counted_over_utf8_bytes_as_libpwquality_counts():
    seen = shape("aÄ1!")
    assert seen["counts"] == [1, 0, 1, 3]  # Ä is two bytes, both symbols
    assert seen["chars"] == [1, 0, 1, 2]
    assert shape("abcd9876")["sequence_run"] == 4 and shape("aaab")["repeat_run"] == 3
    assert shape("ÄÄ")["class_run"] == 4
    # The bytes 0x80 and 0x7F (U+0080 then DEL) go down by one, but not as C's signed char.
    assert shape("\u0080\x7f")["sequence_run"] == 1
    assert shape("\x7f~")["sequence_run"] == 2


STIG = dict((key, value) for key, value in _profiles.pwquality("stig", "RHEL9").items()
            if key not in _profiles.NOT_FOR_A_CHECK)
STIG_ORIGINS = dict((key, ["stig"]) for key in STIG)


@pytest.mark.parametrize("password,expected", [
    ("Xk9#mQ2!zLp7qR5@wT", []),
    ("Xkq#mQw!zLpjqRh@wT", [
        ("needs at least 1 digit, has 0 (stig: dcredit -1)", "add a digit"),
        ("needs characters from 4 classes (digits, upper-case letters, lower-case letters, symbols), has 3 "
         "(stig: minclass 4)", "add a digit")]),
    ("xk9#mq2!zlp7qr5@wt", [
        ("needs at least 1 upper-case letter, has 0 (stig: ucredit -1)", "add an upper-case ASCII letter"),
        ("needs characters from 4 classes (digits, upper-case letters, lower-case letters, symbols), has 3 "
         "(stig: minclass 4)", "add an upper-case ASCII letter")]),
    ("XK9#MQ2!ZLP7QR5@WT", [
        ("needs at least 1 lower-case letter, has 0 (stig: lcredit -1)", "add a lower-case ASCII letter"),
        ("needs characters from 4 classes (digits, upper-case letters, lower-case letters, symbols), has 3 "
         "(stig: minclass 4)", "add a lower-case ASCII letter")]),
    ("Xk9XmQ2kzLp7qR5bwT", [
        ("needs at least 1 symbol, has 0 (stig: ocredit -1)", "add a symbol (or a space)"),
        ("needs characters from 4 classes (digits, upper-case letters, lower-case letters, symbols), has 3 "
         "(stig: minclass 4)", "add a symbol (or a space)")]),
    ("Xk9#mQ2!zzzzLp7qR5@wT", [
        ("repeats a character more than 3 times in a row (stig: maxrepeat 3)",
         "use each character at most 3 times in a row")]),
    ("Xk9#mQ2!zLpwqrt7qR5@wT", [
        ("has more than 4 characters of one class in a row (stig: maxclassrepeat 4)",
         "put a character of another class (digit, upper-case letter, lower-case letter, symbol) after at most 4 "
         "of one class")]),
    ("correcthorse", [
        ("has more than 4 characters of one class in a row (stig: maxclassrepeat 4)",
         "put a character of another class (digit, upper-case letter, lower-case letter, symbol) after at most 4 "
         "of one class"),
        ("needs at least 1 digit, has 0 (stig: dcredit -1)", "add a digit"),
        ("needs at least 1 upper-case letter, has 0 (stig: ucredit -1)", "add an upper-case ASCII letter"),
        ("needs at least 1 symbol, has 0 (stig: ocredit -1)", "add a symbol (or a space)"),
        ("needs characters from 4 classes (digits, upper-case letters, lower-case letters, symbols), has 1 "
         "(stig: minclass 4)", "add a digit, an upper-case ASCII letter and a symbol (or a space)")]),
])
def test_each_broken_setting_is_a_reason_in_plain_words(password, expected):
    found = failures(password, STIG, STIG_ORIGINS)
    assert [(reason, hint) for _code, _setting, reason, hint in found] == expected
    assert_no_leak(password, found, piece=5)


@pytest.mark.parametrize("settings,password,expected", [
    ({"minclass": 3}, "abcdefgh", ("needs characters from 3 classes (digits, upper-case letters, lower-case "
                                   "letters, symbols), has 1", "add characters of 2 more classes: a digit, an "
                                   "upper-case ASCII letter or a symbol (or a space)")),
    ({"minclass": 2}, "abcdefgh", ("needs characters from 2 classes (digits, upper-case letters, lower-case "
                                   "letters, symbols), has 1", "add characters of 1 more class: a digit, an "
                                   "upper-case ASCII letter or a symbol (or a space)")),
    ({"dcredit": -3}, "abc1defg", ("needs at least 3 digits, has 1", "add 2 more digits")),
    ({"maxsequence": 3}, "Xk9#dcba!", ("holds a sequence (like 1234 or dcba) longer than 3 characters",
                                       "break up runs of consecutive letters or digits: at most 3 in a row")),
    ({"maxrepeat": 1}, "Xk9##", ("repeats a character more than 1 time in a row",
                                 "use each character at most 1 time in a row")),
])
def test_reasons_without_an_origin_and_counts_in_words(settings, password, expected):
    assert [(reason, hint) for _c, _s, reason, hint in failures(password, settings)] == [expected]


def test_nothing_is_counted_for_an_empty_password_or_settings_that_are_off():
    assert failures("", STIG) == []
    off = {"maxrepeat": 0, "maxclassrepeat": 0, "maxsequence": 0, "minclass": 0, "dcredit": 0, "ucredit": 2}
    assert failures("aaaaaaaaaaaabbbbbbbbb", off) == []
