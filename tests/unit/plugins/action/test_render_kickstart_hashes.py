# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The render_kickstart action makes the accounts' crypt hashes itself: scheme per target, ranges, bytes."""

import ctypes
import hashlib
import re

import pytest
from ansible.plugins.action import ActionBase

from ansible_collections.kickstart.pwpolicy.plugins.action import render_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.action.render_kickstart import ActionModule, RenderError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import secret

PASSWORD = "Quartz-Lantern-9431-otter-gamma"
LIB = ctypes.CDLL("libcrypt.so.1")
LIB.crypt.restype = ctypes.c_char_p
LIB.crypt.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
LIB.crypt_gensalt.restype = ctypes.c_char_p
LIB.crypt_gensalt.argtypes = [ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p, ctypes.c_int]


class _Task(object):
    no_log = False
    check_mode = False
    diff = False
    args = {}


class _Action(ActionModule):
    """The action with the task's arguments as they are (no templating) and no module run."""

    def __init__(self, **args):  # pylint: disable=super-init-not-called
        self._task = _Task()
        self._task.args = dict(args)
        self._templar = None
        self.checked = False

    def _template(self, value):
        return value

    def _execute_module(self, module_name=None, module_args=None, task_vars=None, **kwargs):
        raise AssertionError("no module may run: %s" % module_name)

    def _check(self, result, task_vars):
        self.checked = True
        raise AssertionError("the pre-flight's secrets must not be read after a hashing error")


def own(**given):
    values = dict((name, None) for name in render_kickstart.OWN_ARGS)
    values.update(given)
    return values


def documented_salt(seed, host, account):
    """The salt as the role's documentation gives it: SHA-512 of SEED|HOST|ACCOUNT, its first 16 hex digits."""
    return hashlib.sha512(("%s|%s|%s" % (seed, host, account)).encode("utf-8")).hexdigest()[:16]


@pytest.mark.parametrize("target, wanted, expected", [
    ("RHEL7", "auto", ("sha512crypt", 656000)),
    ("RHEL8", None, ("sha512crypt", 656000)),
    ("RHEL9", "auto", ("sha512crypt", 656000)),
    ("F34", "auto", ("sha512crypt", 656000)),
    ("F35", "auto", ("yescrypt", 5)),
    ("F40", "", ("yescrypt", 5)),
    ("RHEL10", "auto", ("yescrypt", 5)),
    ("RHEL10", "sha512crypt", ("sha512crypt", 656000)),
    ("RHEL9", "yescrypt", ("yescrypt", 5)),
])
def test_the_scheme_is_the_targets_unless_chosen(target, wanted, expected):
    action = _Action(target=target, dest="/srv/ks/a.ks")
    assert action._hashing(own(hash=wanted), "web01") == expected


def test_the_cost_is_the_chosen_schemes_only():
    action = _Action(target="F40", dest="/srv/ks/a.ks")
    # kickstart_password_hash_rounds is not used for yescrypt, whatever it says.
    assert action._hashing(own(hash_rounds=10, hash_cost="7"), "web01") == ("yescrypt", 7)
    action = _Action(target="RHEL9", dest="/srv/ks/a.ks")
    assert action._hashing(own(hash_rounds="5000", hash_cost=99), "web01") == ("sha512crypt", 5000)


@pytest.mark.parametrize("target, given, says", [
    ("RHEL9", dict(hash_rounds=999), r"hash_rounds \(the role's kickstart_password_hash_rounds\) is 999, but "
                                     r"sha512crypt rounds must be a whole number from 1000 to 999999999"),
    ("RHEL9", dict(hash_rounds=1000000000), "from 1000 to 999999999"),
    ("RHEL9", dict(hash_rounds="many"), "from 1000 to 999999999"),
    ("F40", dict(hash_cost=0), r"hash_cost \(the role's kickstart_password_hash_cost\) is 0, but "
                               r"yescrypt cost must be a whole number from 1 to 11"),
    ("F40", dict(hash_cost=12), "from 1 to 11"),
    ("RHEL8", dict(hash="yescrypt"), r"RHEL 8 cannot verify yescrypt password hashes \(yescrypt needs libxcrypt "
                                     r"4\.2\.0"),
    ("F40", dict(hash="bcrypt"), "kickstart_password_hash must be one of auto, sha512crypt, yescrypt"),
])
def test_what_cannot_be_hashed_stops_before_anything_is_read_or_written(monkeypatch, target, given, says):
    monkeypatch.setattr(ActionBase, "run", lambda self, tmp=None, task_vars=None: {})
    args = dict(target=target, dest="/srv/ks/a.ks", root_password=PASSWORD)
    args.update(given)
    action = _Action(**args)
    result = action.run(task_vars={"inventory_hostname": "web01"})
    assert result["failed"] and not action.checked
    assert result["msg"].startswith("web01: the password hashes cannot be made, so nothing was written "
                                    "(the kickstart /srv/ks/a.ks was not changed): ")
    assert re.search(says, result["msg"]), result["msg"]
    assert PASSWORD not in result["msg"]


def test_an_unknown_target_is_left_to_the_pre_flight():
    assert _Action(target="F99X", dest="/a.ks")._hashing(own(hash="yescrypt"), "web01") is None


def items(*pairs):
    found = [secret(label, "root" if label == "root" else "user", value=value,
                    user="root" if label == "root" else label.split(":", 1)[1]) for label, value in pairs]
    return found + [secret("luks", "luks", value="Delta-Harbor-5521-lantern-quartz")]


def test_sha512crypt_hashes_are_the_bytes_password_hash_gave_on_earlier_cores():
    """Today's SHA-512 crypt kickstarts stay as they were: password_hash with passlib, the documented salt."""
    action = _Action()
    hashes = action._hashes(own(salt_seed="seed", host_id="web01"), ("sha512crypt", 5000),
                            items(("root", PASSWORD), ("user:alice", "Xk9#mQ2!zLp7qR5")), {})
    assert sorted(hashes) == ["root", "user:alice"]  # the LUKS passphrase is never hashed
    for label, password in (("root", PASSWORD), ("user:alice", "Xk9#mQ2!zLp7qR5")):
        salt = documented_salt("seed", "web01", label)
        assert hashes[label] == "$6$%s$" % salt + hashes[label].split("$")[3]
        assert hashes[label] == LIB.crypt(password.encode(), ("$6$" + salt).encode()).decode()
        passlib_hash = pytest.importorskip("passlib.hash")
        assert hashes[label] == passlib_hash.sha512_crypt.using(salt=salt, rounds=5000).hash(password)


def test_sha512crypt_hashes_equal_the_password_hash_filter_of_this_core_where_it_uses_passlib():
    from ansible.release import __version__
    if tuple(int(part) for part in __version__.split(".")[:2]) >= (2, 21):
        pytest.skip("ansible-core 2.21 re-encodes the salt: the collection no longer uses its password_hash")
    pytest.importorskip("passlib")
    from ansible.plugins.filter.core import get_encrypted_password
    hashes = _Action()._hashes(own(salt_seed="kickstart.pwpolicy", host_id="web01"), ("sha512crypt", 656000),
                               items(("root", PASSWORD)), {})
    salt = documented_salt("kickstart.pwpolicy", "web01", "root")
    assert hashes["root"] == get_encrypted_password(PASSWORD, "sha512", salt=salt, rounds=656000)
    assert hashes["root"].startswith("$6$rounds=656000$%s$" % salt)


def test_yescrypt_hashes_are_libxcrypts_with_the_documented_salt_as_salt_bytes():
    hashes = _Action()._hashes(own(host_id="web01"), ("yescrypt", 5), items(("root", PASSWORD)),
                               {"inventory_hostname": "ignored"})
    salt = documented_salt("kickstart.pwpolicy", "web01", "root")
    setting = LIB.crypt_gensalt(b"$y$", 5, salt.encode(), 16)
    assert setting.startswith(b"$y$j9T$")
    assert hashes["root"] == LIB.crypt(PASSWORD.encode(), setting).decode()


def test_the_host_id_defaults_to_the_inventory_host_and_an_empty_password_is_not_hashed():
    hashes = _Action()._hashes(own(), ("sha512crypt", 5000), items(("root", ""), ("user:bob", PASSWORD)),
                               {"inventory_hostname": "db02"})
    assert list(hashes) == ["user:bob"]
    assert hashes["user:bob"].startswith("$6$%s$" % documented_salt("kickstart.pwpolicy", "db02", "user:bob"))


def test_a_password_that_could_not_be_read_stops_the_hashing_without_a_value():
    unread = secret("root", "root", user="root", error="cannot be decrypted with the vault secrets of this run")
    with pytest.raises(RenderError) as error:
        _Action()._hashes(own(), ("sha512crypt", 5000), [unread], {})
    assert "hashing the passwords failed: root cannot be decrypted" in str(error.value)


def test_the_role_template_writes_the_hashes_and_never_calls_password_hash():
    import os
    from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import ROOT
    with open(os.path.join(ROOT, "roles", "kickstart", "templates", "accounts.j2"), encoding="utf-8") as handle:
        text = handle.read()
    assert "password_hash(" not in text and "__kickstart_hashes" in text
    assert render_kickstart.HASHES_VAR == "__kickstart_hashes"


def test_a_pwpolicy_error_is_what_the_hashing_raises():
    with pytest.raises(PwpolicyError):
        _Action(target="RHEL9", dest="/a.ks")._hashing(own(hash_rounds=1), "h")


def test_the_weakest_link_estimates_the_hash_the_kickstart_gets(monkeypatch):
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_check import SecretsCheck, hash_options
    f40 = {"password_hash": "yescrypt"}
    assert hash_options({}, f40) == {"hash": "yescrypt", "rounds": None, "cost": None}
    assert hash_options({"hash": "auto", "cost": 7}, f40)["cost"] == 7
    assert hash_options({"rounds": 5000}, None) == {"hash": "sha512crypt", "rounds": 5000, "cost": None}
    assert hash_options({"hash": "sha512crypt"}, f40)["hash"] == "sha512crypt"
    # The render action's own choice (a compliance profile may have narrowed auto) wins over weakest's.
    assert hash_options({"hash": "auto"}, f40, ("sha512crypt", 656000)) == {"hash": "sha512crypt", "rounds": 656000}
    assert hash_options({"rounds": 10}, f40, ("yescrypt", 6)) == {"hash": "yescrypt", "cost": 6}
    # ... which the render action gives its pre-flight.
    checks = []
    action = _Action()
    action._templar = None
    action._hash_estimate = ("yescrypt", 6)
    monkeypatch.setattr(SecretsCheck, "run", lambda check, result, task_vars: checks.append(check) or (result, {}, []))
    ActionModule._check(action, {}, {})
    assert [check.hash_estimate for check in checks] == [("yescrypt", 6)]


def test_a_controller_that_cannot_hash_is_told_before_anything_is_read(monkeypatch):
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _crypt

    def no_backend():
        raise _crypt.CryptError("cannot hash passwords on the controller: libxcrypt (libcrypt.so.1, ...) could not "
                                "be loaded and passlib is not installed for this Python")
    monkeypatch.setattr(_crypt, "backend", no_backend)
    with pytest.raises(PwpolicyError, match="web01: the password hashes cannot be made, .*libxcrypt"):
        _Action(target="RHEL9", dest="/a.ks")._hashing(own(), "web01")
