# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The one judge: a posture (``model``) against compliance profiles, into deviations.

:func:`judge` reads nothing but the posture and the profile tables of
``_profiles``; it does not know where the posture came from.  Each value a
profile's rules set is judged by one row of :data:`CHECKS` (the value's key ->
the function that judges it), so a new kind of rule is one new row.

A deviation is a plain dict::

    rule      the id of the first rule that asks for the value
    rules     the ids of every rule of the profile that asks for it (a deviation is waived when all are)
    profile   "stig (RHEL9)"
    what      the value judged: encryption, bootloader_password, schemes, min_rounds, policies, or a
              libpwquality setting's name
    expected  what the profile asks, in words
    found     what the posture has, in words
    where     {line} or {line, file} of what was found, or None (it is missing)
    fix       what to do

Where the posture cannot tell (a template value, an ``%include``), the value
is *not checked*: listed under ``not_checked`` with the reason, never
accepted or rejected.  Nothing here sees a secret: a posture holds none.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _profiles

# libpwquality's own defaults (pwquality.conf(5)): what a setting is where no file sets it.
PWQUALITY_DEFAULTS = {"minlen": 8, "minclass": 0, "dcredit": 0, "ucredit": 0, "lcredit": 0, "ocredit": 0,
                      "difok": 1, "maxrepeat": 0, "maxclassrepeat": 0, "maxsequence": 0, "dictcheck": 1,
                      "usercheck": 1, "enforce_for_root": 0, "retry": 1}
# Settings whose 0 turns the check off (so 0 asks least, not most).
_OFF_AT_ZERO = ("maxrepeat", "maxclassrepeat", "maxsequence")
# Mount points that cannot or need not be encrypted (the boot loader reads them before any passphrase).
UNENCRYPTED_MOUNTS = frozenset(("/boot", "/boot/efi", "biosboot", "prepboot", "appleboot", "/boot/zipl"))
# login.defs ENCRYPT_METHOD values and the crypt schemes they are.
ENCRYPT_METHODS = {"SHA512": "sha512crypt", "YESCRYPT": "yescrypt", "SHA256": "sha256crypt", "MD5": "md5crypt",
                   "DES": "des", "BCRYPT": "bcrypt"}
# The login.defs key of each scheme's least cost, what applies where login.defs does not set it (the
# scheme's own default), and what the cost is called.
MIN_COST_KEYS = {"sha512crypt": ("SHA_CRYPT_MIN_ROUNDS", 5000, "rounds"),
                 "yescrypt": ("YESCRYPT_COST_FACTOR", 5, "cost")}
SCHEME_WORDS = {"sha512crypt": "SHA-512 crypt", "yescrypt": "yescrypt"}
# pam_unix's hashing options and the crypt schemes they are (pam_unix(8)).
PAM_UNIX_HASHES = {"sha512": "sha512crypt", "yescrypt": "yescrypt", "sha256": "sha256crypt", "md5": "md5crypt",
                   "blowfish": "bcrypt", "bigcrypt": "bigcrypt", "gost_yescrypt": "gost_yescrypt"}


class _Verdicts(object):
    """The deviations and the values not checked of one profile (``name``, ``target``)."""

    def __init__(self, name, target):
        self.name = name
        self.target = target
        self.label = "%s (%s)" % (name, target)
        self.deviations = []
        self.not_checked = []

    def rules(self, *keys):
        return _profiles.rule_list(self.name, self.target, *keys)

    def deviation(self, keys, what, expected, found, where, fix):
        rules = self.rules(*keys)
        if rules:
            self.deviations.append({"rule": rules[0], "rules": rules, "profile": self.label, "what": what,
                                    "expected": expected, "found": found, "where": where, "fix": fix})

    def unchecked(self, keys, what, reason, where):
        rules = self.rules(*keys)
        if rules:
            self.not_checked.append({"rule": rules[0], "rules": rules, "profile": self.label, "what": what,
                                     "reason": reason, "where": where})


# ---------------------------------------------------------------------------
# The rows
# ---------------------------------------------------------------------------

def _effective(devices):
    """``{id(device): True | False | None}``: whether each device is encrypted, itself or through every one of
    the physical volumes, RAID members or volume group it is made of (None: not known)."""
    by_name = {}
    for device in devices:
        if device.get("name"):
            by_name.setdefault(device["name"], device)
    memo = {}

    def encrypted(device, depth=0):
        key = id(device)
        if key in memo:
            return memo[key]
        memo[key] = None  # a cycle reads as not known
        found = device.get("encrypted")
        if not found and device.get("members") and depth < 8:
            members = [by_name.get(member) for member in device["members"]]
            if all(member is not None for member in members):  # one not in the text: the device's own flag
                states = [encrypted(member, depth + 1) for member in members]
                found = True if all(states) else (None if any(s is None for s in states) else False)
        memo[key] = found
        return found
    return dict((id(device), encrypted(device)) for device in devices)


def _host(posture):
    """Whether the posture is an installed host's (the fixes are then on the machine, not in the kickstart)."""
    return posture.get("source") == "host"


def _host_encryption(verdicts, posture):
    keys = ("encryption",)
    if not posture["devices"]:
        if any(item.get("where", {}).get("file") == "/dev" for item in posture["unknown"]):
            verdicts.unchecked(keys, "encryption", "the LUKS devices were not read", None)
            return
        verdicts.deviation(keys, "encryption", "encrypted disks", "no LUKS device on the host", None,
                           "encrypt the data volumes (cryptsetup reencrypt --encrypt, or install again with "
                           "encryption)")
        return
    verdicts.unchecked(keys, "encryption", "the host has %d LUKS device(s); which file systems sit on them is not "
                       "read" % len(posture["devices"]), posture["devices"][0]["where"])


def _encryption(verdicts, posture, asked):
    keys = ("encryption",)
    if _host(posture):
        _host_encryption(verdicts, posture)
        return
    autopart = posture.get("autopart")
    if autopart is not None:
        if autopart["encrypted"] is None:
            verdicts.unchecked(keys, "encryption", "the autopart line is filled in by the template",
                               autopart["where"])
        elif not autopart["encrypted"]:
            verdicts.deviation(keys, "encryption", "encrypted disks", "autopart without --encrypted",
                               autopart["where"], "add --encrypted to the autopart line")
        return
    states = _effective(posture["devices"])
    mounted = [device for device in posture["devices"] if device.get("command") != "volgroup"
               and device.get("name") and (device["name"].startswith("/") or device["name"] == "swap")
               and device["name"] not in UNENCRYPTED_MOUNTS]
    if not mounted:
        elsewhere = [item for item in posture["unknown"] if item.get("scope") == "commands"]
        if elsewhere:
            verdicts.unchecked(keys, "encryption", "the storage lines are not in the text read (%s)"
                               % elsewhere[0]["what"], elsewhere[0]["where"])
        else:
            verdicts.deviation(keys, "encryption", "encrypted disks",
                               "no storage command: the installer's screens choose, unencrypted unless a person "
                               "asks", None, "add autopart --encrypted, or storage lines with --encrypted")
        return
    for device in mounted:
        state = states[id(device)]
        if state is None:
            verdicts.unchecked(keys, "encryption", "%s %s is filled in by the template or made of devices not in "
                               "the text" % (device["command"], device["name"]), device["where"])
        elif not state:
            verdicts.deviation(keys, "encryption", "encrypted disks", "%s %s is not encrypted"
                               % (device["command"], device["name"]), device["where"],
                               "add --encrypted to that line (or to the physical volumes or RAID it is made of)")


def _host_bootloader_password(verdicts, found):
    keys = ("bootloader_password",)
    fix = "set one with grub2-setpassword (it writes GRUB2_PASSWORD=grub.pbkdf2.sha512... to user.cfg)"
    if found is None:
        verdicts.deviation(keys, "bootloader_password", "a boot-loader superuser password",
                           "no GRUB 2 configuration found", None, fix)
    elif found["form"] == "none":
        verdicts.deviation(keys, "bootloader_password", "a boot-loader superuser password",
                           "GRUB 2 without a superuser password", found["where"], fix)
    elif found["form"] == "plaintext":
        verdicts.deviation(keys, "bootloader_password", "a boot-loader superuser password as a PBKDF2 hash",
                           "a GRUB 2 password in the clear", found["where"],
                           "replace the password line with password_pbkdf2 and the hash grub2-mkpasswd-pbkdf2 "
                           "prints, or use grub2-setpassword")
    elif found["form"] == "unparsed":
        verdicts.deviation(keys, "bootloader_password", "a boot-loader superuser password",
                           "a password_pbkdf2 value that is no GRUB 2 PBKDF2 hash", found["where"], fix)


def _bootloader_password(verdicts, posture, asked):
    keys = ("bootloader_password",)
    found = posture.get("bootloader")
    if _host(posture):
        _host_bootloader_password(verdicts, found)
        return
    if found is None or found["form"] == "none":
        verdicts.deviation(keys, "bootloader_password", "a boot-loader superuser password",
                           "no bootloader line" if found is None else "a bootloader line without --password",
                           found["where"] if found else None,
                           "write bootloader --iscrypted --password=grub.pbkdf2.sha512... (grub2-mkpasswd-pbkdf2)")
    elif found["form"] == "template":
        verdicts.unchecked(keys, "bootloader_password", "the password is filled in by the template", found["where"])
    elif found["form"] == "unparsed":
        verdicts.deviation(keys, "bootloader_password", "a boot-loader superuser password",
                           "an --iscrypted password that is no GRUB 2 PBKDF2 hash", found["where"],
                           "write the hash grub2-mkpasswd-pbkdf2 prints (grub.pbkdf2.sha512...)")


def _scheme_words(scheme):
    return SCHEME_WORDS.get(scheme, scheme or "an unknown scheme")


def _schemes(verdicts, posture, asked):
    keys = ("schemes",)
    allowed = [_profiles.CRYPT_SCHEMES.get(scheme, scheme) for scheme in asked]
    expected = " or ".join(_scheme_words(scheme) for scheme in allowed)
    typed = posture["installer"].get("hashes_typed_as")
    host = _host(posture)
    for account in _judged_accounts(posture):
        label = _account_label(account)
        if account["form"] == "crypt" and account["scheme"] not in allowed:
            verdicts.deviation(keys, "schemes", expected, "%s is a %s hash" % (label, _scheme_words(account["scheme"])),
                               account["where"], "set its password again (passwd) once new passwords are hashed "
                               "with %s" % expected if host else "hash it with %s" % expected)
        elif account["form"] == "unparsed":
            verdicts.deviation(keys, "schemes", expected, "%s is %s" % (
                label, "a hash of no scheme libxcrypt knows" if host else "--iscrypted but no crypt hash"),
                account["where"], "set it again (passwd) with %s" % expected if host else "write a %s hash" % expected)
        elif account["form"] == "plaintext" and typed and typed not in allowed:
            verdicts.deviation(keys, "schemes", expected, "%s is in the clear, and the installer hashes it as %s"
                               % (label, _scheme_words(typed)), account["where"],
                               "write a %s hash with --iscrypted" % expected)
        elif account["form"] == "template":
            verdicts.unchecked(keys, "schemes", "%s is filled in by the template" % label, account["where"])
    if typed and typed not in allowed and not any(account["name"] == "root" for account in posture["accounts"]):
        verdicts.deviation(keys, "schemes", expected, "no rootpw line: the installer asks a person for root's "
                           "password and hashes it as %s" % _scheme_words(typed), None,
                           "give rootpw --iscrypted with a %s hash (or rootpw --lock)" % expected)
    methods = " or ".join(key for key, value in ENCRYPT_METHODS.items() if value in allowed)
    method = posture["login_defs"].get("ENCRYPT_METHOD")
    if method is not None:
        scheme = ENCRYPT_METHODS.get(str(method["value"]).upper())
        if scheme not in allowed:
            shown = method["value"] if scheme else "of a method shadow-utils does not know"
            fix = "write ENCRYPT_METHOD %s" % methods
            verdicts.deviation(keys, "schemes", expected, "login.defs ENCRYPT_METHOD %s" % shown, method["where"], fix)
    elif host:
        verdicts.deviation(keys, "schemes", expected, "login.defs without ENCRYPT_METHOD", None,
                           "write ENCRYPT_METHOD %s in /etc/login.defs" % methods)
    elif typed and typed not in allowed:
        verdicts.deviation(keys, "schemes", expected, "login.defs keeps the release's %s (no ENCRYPT_METHOD "
                           "written)" % _scheme_words(typed), None, "write ENCRYPT_METHOD %s in %%post" % " or ".join(
                               key for key, value in ENCRYPT_METHODS.items() if value in allowed))
    for name, unix in _pam_unix(posture):
        if unix["hash"] is not None and PAM_UNIX_HASHES.get(unix["hash"]) not in allowed:
            verdicts.deviation(keys, "schemes", expected, "pam_unix in %s hashes new passwords with %s"
                               % (name, unix["hash"]), unix["where"], "give pam_unix's password line %s instead "
                               "(with authselect, in a custom profile)" % " or ".join(
                                   key for key, value in PAM_UNIX_HASHES.items() if value in allowed))


def _judged_accounts(posture):
    """The accounts a rule on hashes judges: on a host, all but those no password opens (a locked one; an unparsed
    hash is judged, as it is not known to be locked)."""
    if not _host(posture):
        return posture["accounts"]
    return [account for account in posture["accounts"] if account.get("usable") is not False]


def _account_label(account):
    if account["command"] == "shadow":
        return "the password of %s" % account["name"]
    return "%s of %s" % (account["command"], account["name"] or "a user")


def _pam_unix(posture):
    """``[(stack, pam_unix's password line)]`` of a host's PAM stacks that have one."""
    stacks = (posture.get("pam") or {}).get("stacks") or {}
    return [(name, stack["unix"]) for name, stack in sorted(stacks.items())
            if stack.get("unix") and stack["unix"].get("present")]


def _min_rounds(verdicts, posture, asked):
    """The least cost of the scheme the profile's minimum is for: SHA-512 crypt's rounds, or (a profile that allows
    only yescrypt) yescrypt's cost factor; in the accounts' hashes and in login.defs."""
    keys = ("min_rounds",)
    allowed = _profiles.crypt_schemes(verdicts.name, verdicts.target)
    scheme = "sha512crypt" if not allowed or "sha512crypt" in allowed else allowed[0]
    if scheme not in MIN_COST_KEYS:
        return
    key, default, unit = MIN_COST_KEYS[scheme]
    host = _host(posture)
    for account in _judged_accounts(posture):
        if account["form"] == "crypt" and account["scheme"] == scheme and (account["cost"] or default) < asked:
            verdicts.deviation(keys, "min_rounds", "%s %d or more" % (unit, asked), "%s has %s %d" % (
                _account_label(account), unit, account["cost"] or default), account["where"],
                "set its password again (passwd) once new passwords get %s %d or more" % (unit, asked) if host
                else "hash it with %s %d or more" % (unit, asked))
    method = posture["login_defs"].get("ENCRYPT_METHOD")
    if scheme == "sha512crypt":
        for name, unix in _pam_unix(posture):
            hashed = PAM_UNIX_HASHES.get(unix["hash"]) if unix["hash"] else (
                ENCRYPT_METHODS.get(str(method["value"]).upper()) if method else None)
            if hashed == scheme and (unix.get("rounds") or default) < asked:
                verdicts.deviation(keys, "min_rounds", "rounds=%d or more on pam_unix" % asked,
                                   "pam_unix in %s: %s" % (name, "rounds=%d" % unix["rounds"] if unix.get("rounds")
                                                           else "no rounds= (%d)" % default), unix["where"],
                                   "give pam_unix's password line rounds=%d (with authselect, in a custom profile)"
                                   % asked)
    written = ENCRYPT_METHODS.get(str(method["value"]).upper()) if method else posture["installer"].get(
        "hashes_typed_as")
    if written != scheme:
        return  # login.defs hashes with another scheme: the schemes row says so where it matters
    found = posture["login_defs"].get(key)
    value = found["value"] if found else default
    if not isinstance(value, int) or value < asked:
        verdicts.deviation(keys, "min_rounds", "%s %d or more" % (key, asked),
                           "login.defs %s %s" % (key, _shown(value)) if found
                           else "login.defs without %s (%d)" % (key, default),
                           found["where"] if found else None,
                           "write %s %d in %s" % (key, asked, "/etc/login.defs" if host else "%post"))


def _shown(value):
    """A value read from a file, for a message: a number as it is, anything else not (it could be anything)."""
    return value if isinstance(value, int) else "a value that is not a number"


def meets(key, found, asked):
    """Whether the libpwquality setting ``key`` at ``found`` asks at least what ``asked`` asks."""
    if not isinstance(found, int):
        return False
    if key in _OFF_AT_ZERO:
        return found != 0 and (asked == 0 or found <= asked)
    return _profiles.stricter(key, [found, asked]) == found


def _pwquality(key):
    def check(verdicts, posture, asked):
        settings, origins = posture["pwquality"]["settings"], posture["pwquality"]["origins"]
        found = settings.get(key, PWQUALITY_DEFAULTS.get(key))
        if meets(key, found, asked):
            return
        place = origins.get(key)
        line = "%s = %s" % (key, asked) if key != "enforce_for_root" else key
        verdicts.deviation((key,), key, "%s = %s" % (key, asked),
                           "%s = %s" % (key, _shown(found)) if place else "%s not set (libpwquality's default %s)"
                           % (key, found), place,
                           "write %s in /etc/security/pwquality.conf (read after the pwquality.conf.d drop-ins, it "
                           "wins over them)" % line if _host(posture) else
                           "write %s in a pwquality.conf.d drop-in in %%post (pwquality.conf, read last, must not "
                           "set it)" % line)
    return check


CHECKS = {
    "encryption": _encryption,
    "bootloader_password": _bootloader_password,
    "schemes": _schemes,
    "min_rounds": _min_rounds,
}
CHECKS.update((key, _pwquality(key)) for key in _profiles.PWQUALITY)


_UI_NAMES = {"gtk": "the GTK interface", "tui": "the text interface", "webui": "the Web UI"}


def _lets_through(posture, field):
    """What the target's interfaces let through under a policy with ``field`` loose, in words (or empty)."""
    uis = posture["installer"].get("uis") or []
    if field == "strict":
        taken = [ui["ui"] for ui in uis if ui["non_strict_blocks"] == "nothing"]
        return " (a password it refuses is taken in %s)" % ", ".join(_UI_NAMES[ui] for ui in taken) if taken else ""
    if field == "emptyok":
        taken = [ui["ui"] for ui in uis if ui["empty_user_password"]]
        return " (an empty password is taken in %s)" % ", ".join(_UI_NAMES[ui] for ui in taken) if taken else ""
    return ""


def _policies(verdicts, posture):
    """The installer's policies of the posture (where it states them) against the profile's."""
    asked = _profiles.policies(verdicts.name, verdicts.target)
    for name, found in sorted(posture["policies"].items()):
        for field in ("minlen", "strict", "emptyok", "changesok"):
            value, wanted = found.get(field), asked[name][field]
            if value is None or _profiles.stricter(field, [value, wanted]) == value:
                continue
            verdicts.deviation(_profiles.policy_field_keys(name, field), "policies",
                               "pwpolicy %s %s" % (name, _policy_words(field, wanted)),
                               "pwpolicy %s %s%s" % (name, _policy_words(field, value), _lets_through(posture, field)),
                               found["where"], "write pwpolicy %s %s" % (name, _policy_words(field, wanted)))


def _policy_words(field, value):
    if field == "minlen":
        return "--minlen=%d" % value
    return {"strict": ("--notstrict", "--strict"), "emptyok": ("--notempty", "--emptyok"),
            "changesok": ("--nochanges", "--changesok")}[field][bool(value)]


def _values(name, target):
    """``{key: value}`` of every value a profile's rules set."""
    found = {}
    for rule in _profiles.entry(name, target)["rules"]:
        for key, value in rule["values"].items():
            if key in CHECKS and key not in found:
                found[key] = value
    return found


def judge(posture, profiles, target, exceptions=(), skip=()):
    """``{deviations, waived, not_checked}`` of ``posture`` under each of ``profiles`` (names) for ``target``
    (``RHEL8``...), with the rule ids of ``exceptions`` waived.  ``skip``: the values not to judge (``policies``
    where the caller writes the section itself)."""
    if isinstance(profiles, str):
        profiles = [profiles]
    exceptions = set(exceptions or ())
    result = {"deviations": [], "waived": [], "not_checked": []}
    for name in profiles:
        name, normalized = _profiles.check_profile(name, target)
        verdicts = _Verdicts(name, normalized)
        for key, asked in _values(name, normalized).items():
            if key in skip or not asked:
                continue
            CHECKS[key](verdicts, posture, asked)
        if "policies" not in skip:
            _policies(verdicts, posture)
        for deviation in verdicts.deviations:
            waived = all(rule in exceptions for rule in deviation["rules"])
            result["waived" if waived else "deviations"].append(deviation)
        result["not_checked"].extend(verdicts.not_checked)
    return result


def judge_policies(posture, policies):
    """``{deviations, not_checked}`` of ``posture``'s installer policies against ``policies`` (``{name: Policy}``,
    every field resolved): each field of a written ``pwpolicy`` line that asks less is a deviation named
    ``policies.NAME.FIELD``, and so is a name the section does not set (the installer's own policy then applies).
    Where the target takes its policies from anaconda configuration, the kickstart holds none: not checked."""
    found = {"deviations": [], "not_checked": []}
    target = posture.get("target")
    takes_section = True
    if target:
        from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import release_info
        takes_section = release_info(target)["section"]
    for name, policy in policies.items():
        wanted = policy.to_dict() if hasattr(policy, "to_dict") else dict(policy)
        rule = "policies.%s" % name
        if not takes_section:
            found["not_checked"].append({"rule": rule, "rules": [rule], "profile": None, "what": "policies",
                                         "reason": "%s takes its password policies from anaconda configuration "
                                                   "(an updates image), not from the kickstart" % target,
                                         "where": None})
            continue
        written = posture["policies"].get(name)
        if written is None:
            found["deviations"].append({
                "rule": rule, "rules": [rule], "profile": None, "what": "policies",
                "expected": "a pwpolicy %s line" % name, "found": "no pwpolicy %s line: the installer's own policy "
                "applies" % name, "where": None, "fix": "write the pwpolicy %s line (ks_pwpolicy does)" % name})
            continue
        for field in ("minlen", "minquality", "strict", "emptyok", "changesok"):
            value, asked = written.get(field), wanted.get(field)
            if value is None or asked is None or _profiles.stricter(field, [value, asked]) == value:
                continue
            words = (_policy_words(field, value), _policy_words(field, asked)) if field != "minquality" else (
                "--minquality=%d" % value, "--minquality=%d" % asked)
            found["deviations"].append({
                "rule": "%s.%s" % (rule, field), "rules": ["%s.%s" % (rule, field)], "profile": None,
                "what": "policies", "expected": "pwpolicy %s %s" % (name, words[1]),
                "found": "pwpolicy %s %s%s" % (name, words[0], _lets_through(posture, field)),
                "where": written["where"], "fix": "write pwpolicy %s %s" % (name, words[1])})
    return found


def sentence(deviation):
    """One line for a deviation: where, the rule, what was found and what to do."""
    line = deviation["where"]["line"] if deviation.get("where") and deviation["where"].get("line") else None
    return "%s%s%s %s: %s; %s" % ("line %d: " % line if line else "",
                                  "%s: " % deviation["profile"] if deviation.get("profile") else "",
                                  "rule" if len(deviation["rules"]) == 1 else "rules",
                                  ", ".join(deviation["rules"]), deviation["found"], deviation["fix"])
