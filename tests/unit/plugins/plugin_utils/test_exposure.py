# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The exposure model: rates from the named constants, attacks per kind of secret, the weakest link."""

import math

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _exposure as model
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError

YEAR = 31557600.0


def defaults(**changes):
    options = model.options_from(True)
    options.update(changes)
    return options


def by_attack(found):
    return dict((item["attack"], item) for item in found)


# (policy, guesses_log10, options, attack, order of magnitude of the seconds at that attack)
# Worked by hand from the sources: 483700 sha512crypt/s per GPU at 5000 rounds -> 3687/s at
# 656000 rounds, x100 GPUs = 3.69e5/s; argon2id 0.5/s per machine x100 = 50/s; PBKDF2-SHA256
# 3785400/s at 999 iterations -> 1643/s at 2302032, x100 = 1.64e5/s; sshd 10 / 2 s = 5/s;
# faillock 3 / 600 s = 0.005/s.
TABLE = [
    ("root", 10.0, {}, "offline_sha512crypt", 4),      # 1e10 / 3.69e5 = 2.7e4 s
    ("root", 10.0, {}, "online_login", 9),             # 1e10 / 5 = 2e9 s
    ("user", 10.0, {"faillock": True}, "online_login", 12),  # 1e10 / 0.005 = 2e12 s
    ("root", 10.0, {"faillock": True}, "online_login", 9),   # faillock never locks root by default
    ("user", 10.0, {"rounds": 5000}, "offline_sha512crypt", 2),  # 1e10 / 4.84e7 = 207 s
    ("luks", 10.0, {}, "offline_luks2_argon2id", 8),   # 1e10 / 50 = 2e8 s
    ("luks", 10.0, {"fips": True}, "offline_luks2_pbkdf2", 4),  # 1e10 / 1.64e5 = 6.1e4 s
    ("luks", 10.0, {"devices": 1}, "offline_luks2_argon2id", 10),  # 1e10 / 0.5
    ("luks", 20.0, {}, "offline_luks2_argon2id", 18),
]


@pytest.mark.parametrize("policy, log10, changes, attack, magnitude", TABLE)
def test_known_orders_of_magnitude(policy, log10, changes, attack, magnitude):
    found = by_attack(model.exposures(policy, log10, defaults(**changes)))
    assert int(math.floor(math.log10(found[attack]["seconds"]))) == magnitude


def test_rates_come_from_the_named_constants():
    assert model.sha512crypt_per_second(model.GPU_SHA512CRYPT_BENCH_ROUNDS, 1) == model.GPU_SHA512CRYPT_PER_SECOND
    # Twice the rounds, half the rate: the hash the role writes decides the offline attack.
    assert model.sha512crypt_per_second(1312000, 100) == pytest.approx(model.sha512crypt_per_second(656000, 100) / 2)
    assert model.luks_per_second(False, 1) == pytest.approx(1000.0 / model.LUKS2_ITER_TIME_MS)
    assert model.luks_per_second(True, 1) > 1000 * model.luks_per_second(False, 1)
    assert model.ONLINE_SSHD_PER_SECOND == 5.0 and model.ONLINE_FAILLOCK_PER_SECOND == 0.005


def test_each_kind_of_secret_faces_its_own_attacks():
    assert sorted(by_attack(model.exposures("root", 8, defaults()))) == ["offline_sha512crypt", "online_login"]
    assert sorted(by_attack(model.exposures("user", 8, defaults()))) == ["offline_sha512crypt", "online_login"]
    luks = sorted(by_attack(model.exposures("luks", 8, defaults())))
    assert luks == ["kickstart_plaintext", "offline_luks2_argon2id"]
    assert sorted(by_attack(model.exposures("luks", 8, defaults(luks_in_kickstart=False)))) == [
        "offline_luks2_argon2id"]


def test_the_plaintext_copy_is_reported_but_kept_out_of_the_weakest_guessing_attack():
    luks = model.estimate_summary("luks", 12.0, defaults())
    plain = by_attack(luks["exposures"])["kickstart_plaintext"]
    assert plain["seconds"] == 0 and plain["guesses_per_second"] is None
    assert "kickstart" in plain["requires"]
    assert luks["weakest_attack"] == "offline_luks2_argon2id" and luks["weakest_seconds"] > 1e9
    assert luks["weakest_seconds_with_plaintext"] == 0
    private = model.estimate_summary("luks", 12.0, defaults(luks_in_kickstart=False))
    assert private["weakest_seconds_with_plaintext"] == private["weakest_seconds"] == luks["weakest_seconds"]
    root = model.estimate_summary("root", 12.0, defaults())
    assert root["weakest_attack"] == "offline_sha512crypt"
    assert root["weakest_seconds_with_plaintext"] == root["weakest_seconds"]


@pytest.mark.parametrize("value, message", [
    ("yes", "must be true, false or a dict"),
    ({"round": 5000}, "unknown option(s) round; valid options are cost, devices, faillock, fips, hash"),
    ({"rounds": 999}, "between 1000 and 999999999"),
    ({"rounds": True}, "rounds must be an integer"),
    ({"fips": "no"}, "fips must be true or false"),
    ({"devices": 0}, "devices must be at least 1"),
    ({"hostname": 7}, "hostname must be a string"),
])
def test_bad_options_are_refused_clearly(value, message):
    with pytest.raises(PwpolicyError, match=message.replace("(", r"\(").replace(")", r"\)")):
        model.options_from(value)


def test_options_off_and_on():
    assert model.options_from(None) is None and model.options_from(False) is None
    assert model.options_from(True) == model.DEFAULTS
    assert model.options_from({"rounds": "5000"})["rounds"] == 5000


@pytest.mark.parametrize("seconds, words", [
    (None, "unknown"), (0, "instantly"), (0.5, "instantly"), (1.5, "1 second"), (42, "42 seconds"), (90, "1.5 minutes"),
    (7200, "2.0 hours"), (86400 * 40, "40 days"), (YEAR * 3.25, "3.2 years"), (YEAR * 2e7, "2.0e+07 years"),
])
def test_duration_in_words(seconds, words):
    assert model.duration(seconds) == words


def test_a_copy_of_the_kickstart_in_the_installed_root_is_an_exposure_of_every_secret():
    root_copy = "a copy of the installed system's /root"
    luks = model.estimate_summary("luks", 12.0, defaults(input_ks_copy=True))
    kept = by_attack(luks["exposures"])["root_copy_plaintext"]
    assert kept == {"attack": "root_copy_plaintext", "guesses_per_second": None, "seconds": 0, "requires": root_copy}
    assert luks["weakest_attack"] == "offline_luks2_argon2id" and luks["weakest_seconds_with_plaintext"] == 0
    for name in ("root", "user"):
        found = by_attack(model.exposures(name, 12.0, defaults(input_ks_copy=True)))
        assert found["root_copy_sha512crypt"]["requires"] == root_copy
        assert found["root_copy_sha512crypt"]["seconds"] == found["offline_sha512crypt"]["seconds"]
    # Off by default, and nothing to copy when the passphrase is not in the kickstart.
    assert "root_copy_plaintext" not in by_attack(model.exposures("luks", 12.0, defaults()))
    assert "root_copy_plaintext" not in by_attack(model.exposures("luks", 12.0, defaults(
        input_ks_copy=True, luks_in_kickstart=False)))


# --- yescrypt ----------------------------------------------------------------

ITOA64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


@pytest.mark.parametrize("cost", range(1, 12))
def test_the_yescrypt_memory_is_what_libxcrypt_encodes_for_each_cost(cost):
    import ctypes
    lib = ctypes.CDLL("libcrypt.so.1")
    lib.crypt_gensalt.restype = ctypes.c_char_p
    lib.crypt_gensalt.argtypes = [ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p, ctypes.c_int]
    setting = lib.crypt_gensalt(b"$y$", cost, b"0123456789abcdef", 16).decode()
    params = setting.split("$")[2]  # "j" (flavor), then N's log2 - 1, then r - 1
    n_log2, block = ITOA64.index(params[1]) + 1, ITOA64.index(params[2]) + 1
    assert model.yescrypt_memory_kib(cost) == 128 * 2 ** n_log2 * block // 1024


def test_yescrypt_hashes_face_the_yescrypt_attack_at_their_cost():
    options = model.options_from({"hash": "yescrypt"})
    found = model.exposures("root", 10, options)
    assert [item["attack"] for item in found] == ["online_login", "offline_yescrypt"]
    assert found[1]["guesses_per_second"] == model.CPU_YESCRYPT_PER_SECOND * model.ATTACKER_DEVICES
    cost6 = model.exposures("user", 10, model.options_from({"hash": "yescrypt", "cost": 6}))[1]
    assert cost6["guesses_per_second"] == found[1]["guesses_per_second"] / 2
    # The rounds play no part in a yescrypt estimate, nor the cost in a SHA-512 crypt one.
    assert model.options_from({"hash": "yescrypt", "rounds": 10})["hash"] == "yescrypt"
    assert model.options_from({"cost": 99})["hash"] == "sha512crypt"


@pytest.mark.parametrize("value, message", [
    ({"hash": "yescrypt", "cost": 0}, "cost must be between 1 and 11"),
    ({"hash": "yescrypt", "cost": 12}, "cost must be between 1 and 11"),
    ({"hash": "bcrypt"}, "hash must be one of sha512crypt, yescrypt"),
])
def test_yescrypt_options_out_of_range_are_refused(value, message):
    with pytest.raises(PwpolicyError, match=message):
        model.options_from(value)


def test_the_root_copy_of_a_yescrypt_hash_faces_the_yescrypt_attack():
    found = by_attack(model.exposures("root", 12.0, model.options_from({"hash": "yescrypt", "input_ks_copy": True})))
    assert found["root_copy_yescrypt"]["seconds"] == found["offline_yescrypt"]["seconds"]
    assert found["root_copy_yescrypt"]["requires"] == "a copy of the installed system's /root"
    assert "root_copy_sha512crypt" not in found
