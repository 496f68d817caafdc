# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The exposure model: which attacks each kind of secret faces, at what rate, and how long it holds.

Where a secret lives decides the attack:

* a root or user password is guessed online at the login and SSH throttle
  once the system runs, and offline against its crypt hash (SHA-512 crypt or
  yescrypt), which the kickstart carries to anyone who can fetch it;
* the LUKS passphrase is guessed offline against the LUKS2 keyslot
  (argon2id at cryptsetup's default cost, or PBKDF2 under FIPS), and sits in
  plain text in the kickstart (``--passphrase``): whoever can fetch the
  kickstart has it without guessing.  Where the key slot's parameters are
  known (option ``luks_kdf``: the header an installed host's posture reads,
  :func:`weakest_keyslot` picks the slot an attacker would), the rate comes
  from them instead, and the exposure says which it used (``kdf``).

Every rate below is a named constant with its source; the user guide's page
"The weakest link" shows the same numbers (a unit test compares them).  The
results are orders of magnitude, not guarantees.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError

# --- LUKS2 keyslot defaults of cryptsetup -------------------------------------
# https://gitlab.com/cryptsetup/cryptsetup/-/blob/main/configure.ac (luks2-pbkdf,
# luks2-iter-time, luks2-memory-kb, luks2-parallel-threads).
LUKS2_PBKDF = "argon2id"
LUKS2_ITER_TIME_MS = 2000
LUKS2_MEMORY_KIB = 1048576
LUKS2_PARALLEL_THREADS = 4
# Under FIPS the installer formats LUKS2 with PBKDF2 (storaged-project/blivet
# PR 1128), benchmarked to the same 2000 ms.  A luksDump of such a keyslot
# (sha256) shows about this many iterations:
# https://gitlab.com/cryptsetup/cryptsetup/-/issues/316
LUKS_PBKDF2_ITERATIONS = 2302032
# cryptsetup never calibrates an Argon2 key slot below 4 iterations (time cost), whatever the machine
# (lib/crypto_backend/pbkdf_check.c, crypt_pbkdf_get_limits: min_iterations 4 for argon2i and argon2id).
# The default slot is taken as 1 GiB at that time cost filling the 2000 ms: the slowest machine that keeps
# the full memory.
LUKS2_ARGON2_MIN_TIME_COST = 4

# --- Offline guessing rates -----------------------------------------------------
# hashcat -b on one NVIDIA RTX 3090, https://gist.github.com/Chick3nman/e4fcee00cb6d82874dace72106d73fef
# mode 1800 (sha512crypt $6$) at 5000 rounds; the rate scales with 5000 / rounds.
GPU_SHA512CRYPT_PER_SECOND = 483700
GPU_SHA512CRYPT_BENCH_ROUNDS = 5000
# mode 10900 (PBKDF2-HMAC-SHA256) at 999 iterations; the rate scales with 999 / iterations.
GPU_PBKDF2_SHA256_PER_SECOND = 3785400
GPU_PBKDF2_SHA256_BENCH_ITERATIONS = 999
# The same benchmark, for the other hashes of a LUKS PBKDF2 key slot (cryptsetup's --hash; LUKS1's default was
# sha1 before cryptsetup 1.7, sha256 since): mode 12000 (PBKDF2-HMAC-SHA1) and mode 12100 (PBKDF2-HMAC-SHA512),
# both at 999 iterations like mode 10900; each rate scales with 999 / iterations.
GPU_PBKDF2_SHA1_PER_SECOND = 9240900
GPU_PBKDF2_SHA512_PER_SECOND = 1431600
# yescrypt ($y$), at libxcrypt's cost 5 (N=4096, r=32: 16 MiB per guess, the
# installer's setting $y$j9T$).  On a GPU: hashcat's yescrypt mode,
# https://github.com/hashcat/hashcat/pull/4657 (419 H/s, one GPU, $y$j9T$).
GPU_YESCRYPT_PER_SECOND = 419
# On a CPU server: Openwall's yescrypt PERFORMANCE file, 16 MiB with r=32 and
# no ROM, 2,462 hashes/s on a dual 14-core Xeon Gold 5120 (56 threads),
# https://github.com/openwall/yescrypt/blob/main/PERFORMANCE.  Such a server
# beats one GPU, so an attacker's device does the faster of the two.
CPU_YESCRYPT_PER_SECOND = 2462
YESCRYPT_BENCH_COST = 5
YESCRYPT_BENCH_MEMORY_KIB = 16384
# argon2id with 1 GiB per guess gains little on GPUs (CPU/GPU break-even at
# "100 to 200+ MB per hash", https://github.com/besser82/libxcrypt/pull/113):
# a machine like the one that formatted the disk does one guess per iteration
# time, cryptsetup's own calibration.
ARGON2ID_PER_SECOND_PER_MACHINE = 1000.0 / LUKS2_ITER_TIME_MS
# A key slot's own Argon2 parameters (argon2i or argon2id, read from its header) scale that rate: one guess fills
# ``memory`` KiB ``iterations`` times over (Argon2's work is memory x time cost, RFC 9106 section 3; the lanes,
# ``threads``, share it out and do not change it), so the rate is ARGON2ID_PER_SECOND_PER_MACHINE times
# LUKS2_MEMORY_KIB x LUKS2_ARGON2_MIN_TIME_COST over memory x iterations: 32 times faster at 32 MiB and 4
# iterations.  Below the CPU/GPU break-even above, GPUs gain more: the rate of a small-memory slot is a floor.
# The attacker's farm: this many GPUs (or machines, for argon2id) at once.
# Our assumption (a rented cluster), not a measurement; the estimate option
# ``devices`` changes it.
ATTACKER_DEVICES = 100

# --- Online guessing rates ------------------------------------------------------
# sshd_config(5): MaxStartups 10:30:100 (10 unauthenticated connections at a
# time), PermitRootLogin prohibit-password.  https://man.openbsd.org/sshd_config
SSHD_MAX_STARTUPS = 10
# pam_unix(8): a failed login is delayed "of the order of two seconds".
# https://man7.org/linux/man-pages/man8/pam_unix.8.html
PAM_UNIX_FAIL_DELAY_SECONDS = 2
# faillock.conf(5): deny=3, unlock_time=600; root is locked only with even_deny_root.
# https://man7.org/linux/man-pages/man5/faillock.conf.5.html
FAILLOCK_DENY = 3
FAILLOCK_UNLOCK_TIME_SECONDS = 600
ONLINE_SSHD_PER_SECOND = float(SSHD_MAX_STARTUPS) / PAM_UNIX_FAIL_DELAY_SECONDS
ONLINE_FAILLOCK_PER_SECOND = float(FAILLOCK_DENY) / FAILLOCK_UNLOCK_TIME_SECONDS

# SHA-512 crypt accepts 1000 to 999999999 rounds (crypt(5)).
MIN_ROUNDS = 1000
MAX_ROUNDS = 999999999
DEFAULT_ROUNDS = 656000  # passlib's default, and the kickstart role's kickstart_password_hash_rounds
# libxcrypt's yescrypt cost scale, 1 to 11 (crypt_gensalt(3)); 5 is its and the installer's default.
MIN_YESCRYPT_COST = 1
MAX_YESCRYPT_COST = 11
DEFAULT_YESCRYPT_COST = 5
HASHES = ("sha512crypt", "yescrypt")

REQUIRES_LOGIN = "a login prompt of the installed host"
REQUIRES_KICKSTART = "a copy of the kickstart"
REQUIRES_DISK = "the encrypted disk or an image of it"
REQUIRES_ROOT_COPY = "a copy of the installed system's /root"

OPTIONS = {"rounds": int, "fips": bool, "faillock": bool, "devices": int, "luks_in_kickstart": bool,
           "input_ks_copy": bool, "hostname": str, "product": str, "hash": str, "cost": int, "luks_kdf": dict}
DEFAULTS = {"rounds": DEFAULT_ROUNDS, "fips": False, "faillock": False, "devices": ATTACKER_DEVICES,
            "luks_in_kickstart": True, "input_ks_copy": False, "hostname": None, "product": None,
            "hash": "sha512crypt", "cost": DEFAULT_YESCRYPT_COST, "luks_kdf": None}

# The key-slot KDFs whose rate is known, and the hashes of PBKDF2 (a GPU rate each, at the benchmark's iterations).
LUKS_KDFS = ("pbkdf2", "argon2i", "argon2id")
PBKDF2_RATES = {"sha1": GPU_PBKDF2_SHA1_PER_SECOND, "sha256": GPU_PBKDF2_SHA256_PER_SECOND,
                "sha512": GPU_PBKDF2_SHA512_PER_SECOND}
# What ``luks_kdf`` takes: a key slot's ``kdf`` as the host posture holds it (``time`` is never in a header and is
# not used), and optionally the device and the slot, named in the texts.
LUKS_KDF_KEYS = ("type", "hash", "iterations", "time", "memory", "threads", "device", "slot")
# The parameters assumed without a header: cryptsetup's LUKS2 default, and the installer's PBKDF2 under FIPS.
ASSUMED_KDF = {"type": "argon2id", "hash": None, "iterations": LUKS2_ARGON2_MIN_TIME_COST,
               "memory": LUKS2_MEMORY_KIB, "threads": LUKS2_PARALLEL_THREADS, "device": None, "slot": None}
ASSUMED_FIPS_KDF = {"type": "pbkdf2", "hash": "sha256", "iterations": LUKS_PBKDF2_ITERATIONS, "memory": None,
                    "threads": None, "device": None, "slot": None}


def options_from(value):
    """The model's options from the ``estimate`` argument: ``True`` (defaults) or a dict; ``None`` when off."""
    if value is None or value is False:
        return None
    if value is True:
        return dict(DEFAULTS)
    if not isinstance(value, dict):
        raise PwpolicyError("estimate must be true, false or a dict of model options (%s), got %s"
                            % (", ".join(sorted(OPTIONS)), type(value).__name__))
    unknown = sorted(str(key) for key in value if key not in OPTIONS)
    if unknown:
        raise PwpolicyError("estimate: unknown option(s) %s; valid options are %s"
                            % (", ".join(unknown), ", ".join(sorted(OPTIONS))))
    options = dict(DEFAULTS)
    for key, item in value.items():
        if key == "luks_kdf" and isinstance(item, (list, tuple)):
            options[key] = weakest_keyslot(item)  # a host posture's devices: the slot an attacker would pick
            continue
        options[key] = _typed(key, item)
    if options["hash"] not in HASHES:
        raise PwpolicyError("estimate: hash must be one of %s, got %r" % (", ".join(HASHES), options["hash"]))
    if options["hash"] == "sha512crypt" and not MIN_ROUNDS <= options["rounds"] <= MAX_ROUNDS:
        raise PwpolicyError("estimate: rounds must be between %d and %d (SHA-512 crypt's range), got %d"
                            % (MIN_ROUNDS, MAX_ROUNDS, options["rounds"]))
    if options["hash"] == "yescrypt" and not MIN_YESCRYPT_COST <= options["cost"] <= MAX_YESCRYPT_COST:
        raise PwpolicyError("estimate: cost must be between %d and %d (yescrypt's range in libxcrypt), got %d"
                            % (MIN_YESCRYPT_COST, MAX_YESCRYPT_COST, options["cost"]))
    if options["devices"] < 1:
        raise PwpolicyError("estimate: devices must be at least 1, got %d" % options["devices"])
    if options["luks_kdf"] is not None:
        options["luks_kdf"] = luks_kdf(options["luks_kdf"])
    return options


def _count(kdf, key, what):
    value = kdf.get(key)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise PwpolicyError("estimate: luks_kdf %s (%s) must be a whole number of at least 1" % (key, what))
    return value


def luks_kdf(kdf):
    """The ``luks_kdf`` option checked: ``{type, hash, iterations, memory, threads, device, slot}`` (a key slot's
    ``kdf`` as the host posture's reader gives it); a PwpolicyError naming what to give."""
    unknown = sorted(str(key) for key in kdf if key not in LUKS_KDF_KEYS)
    if unknown:
        raise PwpolicyError("estimate: luks_kdf: unknown key(s) %s; valid keys are %s"
                            % (", ".join(unknown), ", ".join(LUKS_KDF_KEYS)))
    kdf_type = kdf.get("type")
    if kdf_type not in LUKS_KDFS:
        raise PwpolicyError("estimate: luks_kdf type must be one of %s, got %r" % (", ".join(LUKS_KDFS), kdf_type))
    found = {"type": kdf_type, "hash": None, "iterations": None, "memory": None, "threads": None,
             "device": kdf.get("device") if isinstance(kdf.get("device"), str) else None,
             "slot": kdf.get("slot") if isinstance(kdf.get("slot"), int) and not isinstance(kdf.get("slot"), bool)
             else None}
    if kdf_type == "pbkdf2":
        if kdf.get("hash") not in PBKDF2_RATES:
            raise PwpolicyError("estimate: luks_kdf hash of a PBKDF2 key slot must be one of %s, got %r"
                                % (", ".join(sorted(PBKDF2_RATES)), kdf.get("hash")))
        found.update(hash=kdf["hash"], iterations=_count(kdf, "iterations", "PBKDF2's iterations"))
    else:
        found.update(iterations=_count(kdf, "iterations", "Argon2's time cost"),
                     memory=_count(kdf, "memory", "Argon2's memory in KiB"))
        if kdf.get("threads") is not None:
            found["threads"] = _count(kdf, "threads", "Argon2's parallel lanes")
    return found


def _typed(key, item):
    kind = OPTIONS[key]
    if item is None and kind in (str, dict):
        return None
    if kind is int and isinstance(item, str) and item.strip().isdigit():
        return int(item)
    if isinstance(item, kind) and not (kind is int and isinstance(item, bool)):
        return item
    wanted = {int: "an integer", bool: "true or false", str: "a string",
              dict: "a dict (or, for luks_kdf, a host posture's devices)"}[kind]
    raise PwpolicyError("estimate: %s must be %s, got %s" % (key, wanted, type(item).__name__))


def _significant(number, digits=3):
    return float("%.*g" % (digits, number))


def _exposure(attack, per_second, guesses_log10, requires):
    seconds = (10.0 ** guesses_log10) / per_second
    return {"attack": attack, "guesses_per_second": _significant(per_second, 4),
            "seconds": _significant(seconds), "requires": requires}


def sha512crypt_per_second(rounds, devices):
    """Offline guesses per second against one SHA-512 crypt hash of ``rounds`` rounds."""
    return GPU_SHA512CRYPT_PER_SECOND * float(GPU_SHA512CRYPT_BENCH_ROUNDS) / rounds * devices


def yescrypt_memory_kib(cost):
    """The memory of one yescrypt guess at libxcrypt's ``cost``: 128 * N * r bytes.

    libxcrypt's ``crypt_gensalt`` takes costs 1 and 2 as r=8 with N=2^10 and
    2^11, and 3 to 11 as r=32 with N=2^10 to 2^18 (16 MiB at 5, 1 GiB at 11).
    """
    if cost <= 2:
        n_log2, block = cost + 9, 8
    else:
        n_log2, block = cost + 7, 32
    return 128 * (2 ** n_log2) * block // 1024


def yescrypt_per_second(cost, devices):
    """Offline guesses per second against one yescrypt hash of ``cost``: the time grows with the memory."""
    per_device = max(GPU_YESCRYPT_PER_SECOND, CPU_YESCRYPT_PER_SECOND)
    return per_device * float(YESCRYPT_BENCH_MEMORY_KIB) / yescrypt_memory_kib(cost) * devices


def kdf_per_second(kdf):
    """Offline guesses per second of one attacker's device (a GPU for PBKDF2, a machine for Argon2) against a key
    slot of the parameters ``kdf`` (a checked :func:`luks_kdf`)."""
    if kdf["type"] == "pbkdf2":
        return PBKDF2_RATES[kdf["hash"]] * float(GPU_PBKDF2_SHA256_BENCH_ITERATIONS) / kdf["iterations"]
    reference = LUKS2_MEMORY_KIB * LUKS2_ARGON2_MIN_TIME_COST
    return ARGON2ID_PER_SECOND_PER_MACHINE * float(reference) / (kdf["memory"] * kdf["iterations"])


def luks_per_second(fips, devices, kdf=None):
    """Offline guesses per second against a LUKS2 keyslot: of the parameters ``kdf`` (read from its header), else
    at cryptsetup's default cost (PBKDF2 under ``fips``)."""
    if kdf is not None:
        return kdf_per_second(kdf) * devices
    if fips:
        return GPU_PBKDF2_SHA256_PER_SECOND * float(GPU_PBKDF2_SHA256_BENCH_ITERATIONS) / LUKS_PBKDF2_ITERATIONS * devices
    return ARGON2ID_PER_SECOND_PER_MACHINE * devices


def luks_attack(options):
    """The LUKS offline attack's name and what it used: ``(attack, kdf, parameters)``, ``kdf`` ``header`` with the
    key slot's parameters (``luks_kdf``) or ``assumed`` with the defaults the estimate assumes."""
    kdf = options.get("luks_kdf")
    if kdf is not None:
        return "offline_luks2_" + kdf["type"], "header", dict(kdf)
    assumed = ASSUMED_FIPS_KDF if options["fips"] else ASSUMED_KDF
    return "offline_luks2_" + assumed["type"], "assumed", dict(assumed)


def weakest_keyslot(devices):
    """The key slot an attacker would pick among a host posture's ``devices`` (each ``{name, keyslots: [{slot,
    kdf}]}``, as ``host_disk.read_luks`` gives them): the active one whose parameters are the fastest to attack,
    as a ``luks_kdf`` option ``{type, hash, iterations, memory, threads, device, slot}``; None where no key slot
    has parameters whose rate is known.  Every active slot counts (the header does not say which holds the
    passphrase: a slot a token opens holds another key, but an attacker who does not know which tries them all)."""
    best, rate = None, None
    for device in devices or ():
        if not isinstance(device, dict):
            continue
        for slot in device.get("keyslots") or ():
            kdf = slot.get("kdf") if isinstance(slot, dict) else None
            if not isinstance(kdf, dict):
                continue
            given = dict((key, kdf.get(key)) for key in ("type", "hash", "iterations", "memory", "threads"))
            given.update(device=device.get("name"), slot=slot.get("slot"))
            try:
                checked = luks_kdf(given)
            except PwpolicyError:
                continue  # a KDF or hash whose rate is not known here
            found = kdf_per_second(checked)
            if rate is None or found > rate:
                best, rate = checked, found
    return best


def kdf_words(kdf):
    """A key slot's parameters in words: ``argon2id, 32 MiB, 4 iterations`` or ``pbkdf2-sha512, 1000 iterations``."""
    if kdf["type"] == "pbkdf2":
        return "pbkdf2-%s, %d iterations" % (kdf["hash"], kdf["iterations"])
    memory = kdf["memory"]
    if memory >= 1048576:
        size = "%g GiB" % (memory / 1048576.0)
    elif memory >= 1024:
        size = "%g MiB" % (memory / 1024.0)
    else:
        size = "%d KiB" % memory
    return "%s, %s, %d iterations" % (kdf["type"], size, kdf["iterations"])


def kdf_note(exposure):
    """What an offline LUKS exposure's rate came from, in words (empty for any other exposure): `` on key slot 3 of
    /dev/vda3 (pbkdf2-sha512, 1000 iterations)`` or `` on assumed defaults (argon2id, 1 GiB, 4 iterations)``."""
    source, kdf = exposure.get("kdf"), exposure.get("kdf_parameters")
    if source is None or not isinstance(kdf, dict):
        return ""
    if source == "assumed":
        return " on assumed %s (%s)" % ("FIPS defaults" if kdf["type"] == "pbkdf2" else "cryptsetup defaults",
                                        kdf_words(kdf))
    if kdf.get("slot") is not None and kdf.get("device"):
        return " on key slot %d of %s (%s)" % (kdf["slot"], kdf["device"], kdf_words(kdf))
    return " on the header's key slot (%s)" % kdf_words(kdf)


def exposures(policy_name, guesses_log10, options):
    """Every attack the secret of ``policy_name`` (root, user, luks) faces, cheapest last not guaranteed."""
    devices = options["devices"]
    if policy_name == "luks":
        attack, source, parameters = luks_attack(options)
        offline = _exposure(attack, luks_per_second(options["fips"], devices, options.get("luks_kdf")),
                            guesses_log10, REQUIRES_DISK)
        offline.update(kdf=source, kdf_parameters=parameters)
        found = [offline]
        if options["luks_in_kickstart"]:
            found.append({"attack": "kickstart_plaintext", "guesses_per_second": None, "seconds": 0,
                          "requires": REQUIRES_KICKSTART})
            if options["input_ks_copy"]:
                found.append({"attack": "root_copy_plaintext", "guesses_per_second": None, "seconds": 0,
                              "requires": REQUIRES_ROOT_COPY})
        return found
    # pam_faillock never locks root by default: root faces sshd's throttle only.
    online = ONLINE_FAILLOCK_PER_SECOND if options["faillock"] and policy_name == "user" else ONLINE_SSHD_PER_SECOND
    if options["hash"] == "yescrypt":
        rate = yescrypt_per_second(options["cost"], devices)
    else:
        rate = sha512crypt_per_second(options["rounds"], devices)
    found = [_exposure("online_login", online, guesses_log10, REQUIRES_LOGIN),
             _exposure("offline_" + options["hash"], rate, guesses_log10, REQUIRES_KICKSTART)]
    if options["input_ks_copy"]:
        found.append(_exposure("root_copy_" + options["hash"], rate, guesses_log10, REQUIRES_ROOT_COPY))
    return found


def weakest(found):
    """``(seconds, attack)`` of the cheapest guessing attack; the plain-text copy has no guessing cost."""
    guessing = [item for item in found if item["guesses_per_second"] is not None]
    if not guessing:
        return None, None
    cheapest = min(guessing, key=lambda item: item["seconds"])
    return cheapest["seconds"], cheapest["attack"]


def estimate_summary(policy_name, guesses_log10, options):
    """The report fields: ``exposures``, ``weakest_seconds``, ``weakest_attack``, ``weakest_seconds_with_plaintext``."""
    found = exposures(policy_name, guesses_log10, options)
    seconds, attack = weakest(found)
    plaintext = any(item["guesses_per_second"] is None for item in found)
    return {"exposures": found, "weakest_seconds": seconds, "weakest_attack": attack,
            "weakest_seconds_with_plaintext": 0 if plaintext else seconds}


def estimate_secret(password, policy_name, account, options):
    """The estimate fields of one secret's report: ``guesses_log10`` and the :func:`estimate_summary` fields.

    ``account`` is the account name (root or the user), given to zxcvbn with
    the host name and the product words; an empty password has no estimate.
    """
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._guesses import guesses_log10, user_inputs

    if not password:
        return {"guesses_log10": None, "exposures": [], "weakest_seconds": None, "weakest_attack": None,
                "weakest_seconds_with_plaintext": None}
    log10 = guesses_log10(password, user_inputs(account, options["hostname"], options["product"]))
    result = {"guesses_log10": log10}
    result.update(estimate_summary(policy_name, log10, options))
    return result


def add_estimate(report, password, user=None, product=None, estimate=None):
    """``report`` (a verdict report) with the estimate fields when ``estimate`` asks for them."""
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verdict import account_for

    options = options_from(estimate)
    if options is None:
        return report
    if options["product"] is None:
        options["product"] = product
    name = report["policy"]["name"]
    report.update(estimate_secret(password, name, account_for(name, user), options))
    return report


def duration(seconds):
    """``seconds`` in words, one unit, for messages: ``instantly``, ``40 minutes``, ``3.2e+05 years``."""
    if seconds is None:
        return "unknown"
    if seconds < 1:
        return "instantly"
    for unit, size in (("years", 31557600.0), ("days", 86400.0), ("hours", 3600.0), ("minutes", 60.0)):
        if seconds >= size:
            value = seconds / size
            text = "%.1f" % value if value < 10 else "%d" % round(value) if value < 1e6 else "%.1e" % value
            return "%s %s" % (text, unit)
    return "%d second%s" % (seconds, "" if int(seconds) == 1 else "s")
