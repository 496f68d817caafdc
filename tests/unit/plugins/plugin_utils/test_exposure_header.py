# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The LUKS estimate from a real header's key slots: cryptsetup makes the headers, host_disk reads them.

The headers are those of the host posture's tests (``test_host_disk.headers``:
``cryptsetup luksFormat`` on files, an argon2id slot of 32 MiB and 4
iterations beside a PBKDF2-SHA512 slot of 1,000 iterations, an argon2i
header, a LUKS1 header), read by ``host_disk.read_luks`` with the real
``cryptsetup``.  Nothing is timed: the rates are the model's.
"""

import math

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host_disk import read_luks
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _exposure as model
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _weakest
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.module_utils.test_host_disk import (  # noqa: F401  pylint: disable=unused-import
    headers,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.module_utils.test_host_disk import real_run

LOG10 = 12.0


def devices_of(headers, *names):  # noqa: F811
    found, unknown = read_luks(real_run, devices=[headers[name] for name in names])
    assert unknown == []
    return found


def luks_exposure(**estimate):
    options = model.options_from(dict(estimate, luks_in_kickstart=False))
    found, = model.exposures("luks", LOG10, options)
    return found


def slot(devices, number):
    kdf = [entry for entry in devices[0]["keyslots"] if entry["slot"] == number][0]["kdf"]
    return dict(kdf, device=devices[0]["name"], slot=number)


def test_orders_of_magnitude_between_a_small_argon2id_slot_the_default_and_pbkdf2(headers):  # noqa: F811
    devices = devices_of(headers, "luks2")
    small = luks_exposure(luks_kdf=slot(devices, 0))     # argon2id, 32 MiB, 4 iterations
    pbkdf2 = luks_exposure(luks_kdf=slot(devices, 3))    # pbkdf2-sha512, 1000 iterations
    assumed = luks_exposure()                            # cryptsetup's default: argon2id, 1 GiB, calibrated to 2 s
    default = luks_exposure(luks_kdf={"type": "argon2id", "iterations": 4, "memory": 1048576, "threads": 4})
    assert (small["attack"], pbkdf2["attack"], assumed["attack"]) == (
        "offline_luks2_argon2id", "offline_luks2_pbkdf2", "offline_luks2_argon2id")
    # 1 GiB over 32 MiB at the same time cost: 32 times the rate, 1.5 orders of magnitude.
    assert math.log10(small["guesses_per_second"] / assumed["guesses_per_second"]) == pytest.approx(math.log10(32))
    # A 1,000-iteration PBKDF2 slot on GPUs: more than six orders of magnitude faster than the default.
    assert math.log10(pbkdf2["guesses_per_second"] / assumed["guesses_per_second"]) > 6.4
    assert pbkdf2["guesses_per_second"] == pytest.approx(100 * 1431600 * 999 / 1000.0, rel=1e-3)
    # The default slot read from a header is the default assumed: the same rate, said differently.
    assert default["guesses_per_second"] == assumed["guesses_per_second"]
    assert (small["kdf"], default["kdf"], assumed["kdf"]) == ("header", "header", "assumed")
    assert small["kdf_parameters"] == {"type": "argon2id", "hash": None, "iterations": 4, "memory": 32768,
                                       "threads": 1, "device": headers["luks2"], "slot": 0}
    assert assumed["kdf_parameters"] == {"type": "argon2id", "hash": None, "iterations": 4, "memory": 1048576,
                                         "threads": 4, "device": None, "slot": None}
    assert luks_exposure(fips=True)["kdf_parameters"]["iterations"] == model.LUKS_PBKDF2_ITERATIONS


def test_the_attacker_picks_the_fastest_active_key_slot_of_every_device(headers):  # noqa: F811
    luks2 = devices_of(headers, "luks2")
    assert model.weakest_keyslot(luks2) == {"type": "pbkdf2", "hash": "sha512", "iterations": 1000, "memory": None,
                                            "threads": None, "device": headers["luks2"], "slot": 3}
    argon2i = devices_of(headers, "argon2i")
    assert model.weakest_keyslot(argon2i)["slot"] == 1  # pbkdf2-sha256 at 1,200 beats argon2i at 16 MiB
    # Across devices: LUKS1's sha256 at 1,000 iterations is faster on GPUs than sha512 at 1,000.
    both = devices_of(headers, "luks2", "luks1")
    assert (model.weakest_keyslot(both)["device"], model.weakest_keyslot(both)["slot"]) == (headers["luks1"], 0)
    # Without its PBKDF2 slot, the argon2i slot: its own memory and time cost.
    argon2i[0]["keyslots"] = [entry for entry in argon2i[0]["keyslots"] if entry["kdf"]["type"] != "pbkdf2"]
    picked = model.weakest_keyslot(argon2i)
    assert (picked["type"], picked["memory"], picked["iterations"]) == ("argon2i", 16384, 5)
    assert luks_exposure(luks_kdf=picked)["attack"] == "offline_luks2_argon2i"
    assert model.weakest_keyslot([]) is None
    # Given the devices themselves, the estimate picks that slot.
    assert model.options_from({"luks_kdf": both})["luks_kdf"] == model.weakest_keyslot(both)
    assert model.options_from({"luks_kdf": []})["luks_kdf"] is None
    unknown_hash = {"type": "pbkdf2", "hash": "whirlpool", "iterations": 1000}
    assert model.weakest_keyslot([{"name": "/dev/x", "keyslots": [{"slot": 0, "kdf": unknown_hash}]}]) is None


def test_the_weakest_link_text_names_the_key_slot_or_the_assumption(headers):  # noqa: F811
    picked = model.weakest_keyslot(devices_of(headers, "luks2"))
    entry = {"secret": "luks", "weakest_attack": None, "weakest_seconds": None, "exposures": []}
    for options, words in (
            ({"luks_kdf": picked}, "luks: offline_luks2_pbkdf2 on key slot 3 of %s (pbkdf2-sha512, 1000 iterations) "
                                   "(needs the encrypted disk or an image of it), about " % headers["luks2"]),
            ({}, "luks: offline_luks2_argon2id on assumed cryptsetup defaults (argon2id, 1 GiB, 4 iterations) "
                 "(needs the encrypted disk"),
            ({"fips": True}, "luks: offline_luks2_pbkdf2 on assumed FIPS defaults (pbkdf2-sha256, 2302032 "
                             "iterations) (needs")):
        summary = model.estimate_summary("luks", LOG10, model.options_from(options))
        entry.update(weakest_attack=summary["weakest_attack"], weakest_seconds=summary["weakest_seconds"],
                     exposures=summary["exposures"])
        assert _weakest.describe(entry).startswith(words)


@pytest.mark.parametrize("kdf, message", [
    ({"type": "scrypt"}, "luks_kdf type must be one of pbkdf2, argon2i, argon2id, got 'scrypt'"),
    ({"type": "pbkdf2", "hash": "whirlpool", "iterations": 1000}, "hash of a PBKDF2 key slot must be one of sha1, "
                                                                  "sha256, sha512, got 'whirlpool'"),
    ({"type": "pbkdf2", "hash": "sha256"}, "luks_kdf iterations (PBKDF2's iterations) must be a whole number"),
    ({"type": "argon2id", "iterations": 4}, "luks_kdf memory (Argon2's memory in KiB) must be a whole number"),
    ({"type": "argon2id", "iterations": 4, "memory": 0}, "memory (Argon2's memory in KiB) must be"),
    ({"type": "argon2id", "iterations": 4, "memory": 1024, "salt": "x"}, "unknown key(s) salt; valid keys are type"),
    ("argon2id", "luks_kdf must be a dict"),
])
def test_a_bad_key_slot_option_is_refused_naming_what_to_give(kdf, message):
    with pytest.raises(PwpolicyError) as raised:
        model.options_from({"luks_kdf": kdf})
    assert message in str(raised.value)
