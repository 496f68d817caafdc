# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The libpwquality backends (_pwquality): settings, parity, the settings cache, dictionary and backend errors."""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pwq_settings
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pwquality as pwq
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verdict import check_password
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.plugin_utils.pwq_helpers import (
    BOTH,
    NEEDS_BINDING,
    HAVE_CTYPES,
    STRONG,
    assert_no_leak,
    check,
    policy,
)


def test_every_error_class_is_a_pwpolicy_error():
    for cls in (_pwq_settings.PwcheckError, pwq.BackendUnavailable, pwq.DictionaryError, _pwq_settings.SettingsError):
        assert issubclass(cls, PwpolicyError)


# --------------------------------------------------------------------------
# Backends: parity, cache, errors
# --------------------------------------------------------------------------
PARITY_PASSWORDS = [
    STRONG, "Tr0ub4dour&3", "correcthorsebatterystaple", "aaaaaaaaaaaaaaaaaaaa", "äöüß", "密码密码",
    "Überweisung-überall", "Xk9#m", "abc", "qwertyuiop", "P@ssw0rd2024!", "johnsmith99", "rootroot12X!",
    "        a", "Xk9#mQ2!zLp7 qR5@wT x", "x" * 300, "Xk#mQz!Lp@wTrb", "xk9#mq2!zlp7", "Xk9#mm#9kX",
    "Xk9mQ2zLp7qR", "Xk9#mQQQzLp7", "Xk9rootQ2!z", "Xkabcd9#Q2!", "Xk9acmeQ2!z", "Xk9#1234Q!zp", "password",
    "AB123456C", "a1a1a1a1a1",
]
PARITY_SETTINGS = [
    ({}, 6), ({}, 8), ({}, 20), ({"minclass": 3}, 8), ({"minclass": 4, "maxrepeat": 2}, 14),
    ({"dcredit": -2, "ucredit": -1}, 8), ({"lcredit": -1, "ocredit": -1}, 8),
    ({"maxclassrepeat": 3, "maxsequence": 3}, 8), ({"badwords": "acme foo"}, 8),
    ({"dictcheck": False}, 8), ({"usercheck": False, "usersubstr": 4}, 8),
    ({"dcredit": 1, "ucredit": 1, "lcredit": 1, "ocredit": 1}, 12), ({"difok": 3}, 8),
]


@BOTH
@pytest.mark.parametrize("settings,minlen", PARITY_SETTINGS)
def test_binding_and_shared_library_agree(settings, minlen):
    binding = pwq.load_backend("binding")
    shared = pwq.load_backend("ctypes")
    items = _pwq_settings.normalize_settings(settings)
    b_handle = binding.settings(items, minlen)
    s_handle = shared.settings(items, minlen)
    assert binding.dictpath(b_handle) == shared.dictpath(s_handle)
    codes = set()
    for password in PARITY_PASSWORDS:
        for user in (None, "root", "alice", "john"):
            b = pwq.check(binding, items, minlen, password, user)
            s = pwq.check(shared, items, minlen, password, user)
            assert b == s, (password, user)
            codes.add(b[0] if b[0] < 0 else "score")
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
    assert backend.built == 3


def test_minimum_lengths_below_libpwquality_floor_share_one_settings_object(backend):
    # libpwquality raises any minlen below 6 to 6: one object serves them all.
    first = backend.settings((), 0)
    assert all(backend.settings((), minlen) is first for minlen in (1, 4, 6))
    assert backend.settings((), 7) is not first
    assert backend.built == 2


def test_missing_dictionary_is_reported_with_packages(backend, tmp_path):
    missing = str(tmp_path / "nothing" / "pw_dict")
    with pytest.raises(pwq.DictionaryError) as info:
        check_password(STRONG, policy(), settings={"dictpath": missing}, backend=backend)
    text = str(info.value)
    assert "cracklib-dicts" in text and "cracklib-runtime" in text and "dictcheck" in text
    assert missing + ".pwd" in text
    assert_no_leak(STRONG, text)


def test_broken_dictionary_is_reported_not_called_weak(backend, tmp_path):
    broken = tmp_path / "pw_dict"
    for ext in (".pwd", ".pwi", ".hwm"):
        (tmp_path / ("pw_dict" + ext)).write_bytes(b"not a dictionary")
    with pytest.raises(pwq.DictionaryError) as info:
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

    monkeypatch.setattr(pwq, "BindingBackend", no_binding)
    monkeypatch.setattr(pwq, "CtypesBackend", fail)
    with pytest.raises(pwq.BackendUnavailable) as info:
        pwq.load_backend()
    text = str(info.value)
    for package in ("libpwquality", "python3-pwquality", "cracklib-dicts", "libpwquality1", "cracklib-runtime"):
        assert package in text
    assert "Fedora/RHEL" in text and "Debian/Ubuntu" in text


def test_backend_choice_from_environment(monkeypatch):
    monkeypatch.setenv(pwq.BACKEND_ENV, "nonsense")
    with pytest.raises(_pwq_settings.PwcheckError, match="valid backends are binding, ctypes"):
        pwq.load_backend()


@BOTH
@pytest.mark.parametrize("name", ["binding", "ctypes"])
def test_environment_backend_is_used_by_default(monkeypatch, name):
    # Both backends load here, so only the variable can make the choice.
    monkeypatch.setattr(pwq, "_BACKEND", None)
    monkeypatch.setenv(pwq.BACKEND_ENV, name)
    assert pwq.get_backend().name == name
    assert pwq.get_backend() is pwq.get_backend()


def test_ctypes_reports_a_missing_library():
    with pytest.raises(OSError, match="libdoesnotexist-kickstart"):
        pwq.CtypesBackend(library="libdoesnotexist-kickstart.so.0")


@pytest.mark.skipif(not HAVE_CTYPES, reason="libpwquality.so.1 is not installed")
def test_ctypes_cracklib_message_is_read():
    backend = pwq.load_backend("ctypes")
    rc, aux = pwq.check(backend, (), 6, "password", None)
    assert rc == _pwq_settings.ERR_CRACKLIB_CHECK and "dictionary word" in aux


@NEEDS_BINDING
def test_binding_numbers_are_read():
    backend = pwq.load_backend("binding")
    assert pwq.check(backend, (("minclass", 4),), 6, "Xk9mQ2zLp7qR", None) == (_pwq_settings.ERR_MIN_CLASSES, 4)


# --------------------------------------------------------------------------
# Settings validation
# --------------------------------------------------------------------------
def test_settings_normalized():
    given = {"minclass": "3", "dictcheck": "no", "usercheck": True, "badwords": ["acme", " corp "], "dcredit": "-2"}
    assert _pwq_settings.normalize_settings(given) == \
        (("badwords", "acme corp"), ("dcredit", -2), ("dictcheck", 0), ("minclass", 3), ("usercheck", 1))
    assert _pwq_settings.normalize_settings(None) == ()


@pytest.mark.parametrize("items,positive", [
    ((), False), ((("dcredit", -2), ("minclass", 3)), False), ((("ucredit", 0),), False),
    ((("ocredit", 1),), True), ((("dcredit", -1), ("lcredit", 2)), True), ((("minclass", 3),), False),
])
def test_positive_credit(items, positive):
    assert _pwq_settings.has_positive_credit(items) is positive


@pytest.mark.parametrize("settings,message", [
    ({"minlen": 12}, "set the policy's minlen instead"),
    ({"enforcing": 0}, "PAM module"),
    ({"retry": 3}, "PAM module"),
    ({"minclas": 3}, "unknown libpwquality setting 'minclas': valid settings are difok"),
    ({"minclass": "three"}, "must be a whole number"),
    ({"minclass": -1}, "must not be negative"),
    ({"minclass": True}, "must be a whole number"),
    ({"minclass": 2000}, "from -1024 to 1024"),
    ({"dictcheck": "maybe"}, "must be true or false"),
    ({"dictcheck": 2}, "must be true or false"),
    ({"badwords": 3}, "must be a string"),
    ({"badwords": ["ok", 3]}, "list of strings"),
    ({"dictpath": "a\nb"}, "one line"),
    (["minclass"], "settings must be a dict"),
])
def test_bad_settings(settings, message):
    with pytest.raises(_pwq_settings.SettingsError, match=message):
        _pwq_settings.normalize_settings(settings)


INJECTION = "acme\r%end\rrootpw --plaintext X\r%post\rtrue"


@pytest.mark.parametrize("name", ["badwords", "dictpath"])
@pytest.mark.parametrize("end", ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
                                 "\u2029"])
def test_a_setting_with_any_line_boundary_is_refused_by_name(name, end):
    # The settings go on lines of the %post drop-in: "\r%end\r" would end the section and add commands.
    for value in (INJECTION.replace("\r", end), "acme%scorp" % end, ["acme", "corp" + end + "x"]):
        if isinstance(value, list) and name != "badwords":
            continue
        with pytest.raises(_pwq_settings.SettingsError) as caught:
            _pwq_settings.normalize_settings({name: value})
        assert str(caught.value) == "setting %r must be one line of text (it holds a line break)" % name
    with pytest.raises(_pwq_settings.SettingsError, match="it holds a NUL character"):
        _pwq_settings.normalize_settings({name: "acme\0corp"})
