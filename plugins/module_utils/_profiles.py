# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compliance profiles: what DISA STIG, CIS, OSPP, PCI-DSS, ANSSI BP-028 and NIST SP 800-63B ask of passwords.

A profile for a target release is the benchmark and its version, then its
rules, each with the id the benchmark gives it, our own short wording and the
values it sets.  Everything else (the libpwquality settings, the hashing, the
boot-loader password, encrypted storage, the three password policies) is
derived from the rules, so each value has exactly one rule that asks for it.

Where the values come from
--------------------------
The DISA STIG, CIS, OSPP, PCI-DSS and ANSSI values are the selections of
ComplianceAsCode/content at commit :data:`CAC_COMMIT` (its control files
``products/rhel*/controls/stig_rhel*.yml``, ``products/rhel*/controls/cis_rhel*.yml``,
``controls/ospp.yml``, ``controls/pcidss_4.yml``, ``controls/anssi.yml``, the
variable selections of ``products/rhel*/profiles/*.profile`` and the values
of the ``var_*.var`` files), read as facts.  The NIST values are from NIST SP
800-63B-4 (August 2025), section 3.1.1.2 "Password Verifiers".  Rule texts
are ours.

How a profile's rules become our policy model
---------------------------------------------
``{minlen, minquality, strict, emptyok, changesok}`` for ``root``, ``user`` and ``luks``:

* ``minlen``: the profile's minimum length (libpwquality's ``minlen``).  No
  benchmark has a rule of its own for a LUKS passphrase; the profile's minimum
  is its minimum for any secret a person types, so ``luks`` gets it too.
* ``minquality``: 1.  No benchmark sets libpwquality's score; what it asks is
  in the settings, and a password that fails a setting scores 0.
* ``strict``: true.  A benchmark rule is a requirement, not advice: the
  installer must refuse a password that breaks it (for ``root`` too, which
  STIG and CIS say with ``enforce_for_root``).
* ``emptyok``: false.  Every profile has a minimum length, which an empty
  password does not meet.
* ``changesok``: false.  The checked password of the kickstart is the one
  that counts; the installer's screens must not replace it unchecked.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type


from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError, plain_type
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._names import NAME_TOKEN, distance
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES

# The ComplianceAsCode/content commit the values were read from (2026-08-21).
CAC_REPOSITORY = "https://github.com/ComplianceAsCode/content"
CAC_COMMIT = "b3a2cca9352cbcefb7f00d770bfd6f679da18d6a"

PROFILES = ("stig", "cis_server_l1", "cis_server_l2", "cis_workstation_l1", "cis_workstation_l2",
            "ospp", "pci_dss", "anssi", "nist_800_63b")
TARGETS = ("RHEL8", "RHEL9", "RHEL10")

# libpwquality settings a profile may set, in pwquality.conf's names (credits negative).
PWQUALITY = ("minlen", "minclass", "dcredit", "ucredit", "lcredit", "ocredit", "difok", "maxrepeat",
             "maxclassrepeat", "maxsequence", "dictcheck", "usercheck", "enforce_for_root", "retry")
# Other values a rule may set (``blocklist``: passwords are compared with a list of breached and common ones).
OTHER = ("schemes", "min_rounds", "bootloader_password", "encryption", "blocklist")
# Settings a profile sets that a check does not take as libpwquality settings: minlen is the policy's
# (characters), enforce_for_root and retry only change how the PAM module behaves.
NOT_FOR_A_CHECK = ("minlen", "enforce_for_root", "retry")
# Settings that ask for a mixture of character types (NIST forbids them) and
# settings that refuse a password for the shape of its characters.
COMPOSITION = ("minclass", "dcredit", "ucredit", "lcredit", "ocredit")
PATTERN = ("maxrepeat", "maxclassrepeat", "maxsequence")


class ProfileError(PwpolicyError):
    """An unknown profile, or a profile without the target asked for."""


def _rule(rule_id, text, **values):
    unknown = set(values) - set(PWQUALITY) - set(OTHER)
    if unknown:  # pragma: no cover - a typo in the table below
        raise ValueError("rule %s sets unknown values %s" % (rule_id, sorted(unknown)))
    return {"id": rule_id, "text": text, "values": values}


_SHA512 = ("sha512",)
_YESCRYPT_OR_SHA512 = ("yescrypt", "sha512")


# ---------------------------------------------------------------------------
# DISA STIG
# ---------------------------------------------------------------------------
def _stig_classes(prefix, upper, lower, digit, other, classes):
    return [
        _rule(prefix + upper, "At least one upper-case letter.", ucredit=-1),
        _rule(prefix + lower, "At least one lower-case letter.", lcredit=-1),
        _rule(prefix + digit, "At least one digit.", dcredit=-1),
        _rule(prefix + other, "At least one special character.", ocredit=-1),
        _rule(prefix + classes, "Characters from all four classes.", minclass=4),
    ]


STIG = {
    "RHEL8": {
        "benchmark": "DISA STIG for Red Hat Enterprise Linux 8", "version": "V2R8",
        "file": "products/rhel8/controls/stig_rhel8.yml",
        "rules": [_rule("RHEL-08-020230", "At least 15 characters.", minlen=15)]
        + _stig_classes("RHEL-08-", "020110", "020120", "020130", "020280", "020160") + [
            _rule("RHEL-08-020170", "A new password changes at least 8 characters of the old one.", difok=8),
            _rule("RHEL-08-020150", "No character more than 3 times in a row.", maxrepeat=3),
            _rule("RHEL-08-020140", "No more than 4 characters of one class in a row.", maxclassrepeat=4),
            _rule("RHEL-08-020300", "No dictionary words.", dictcheck=1),
            _rule("RHEL-08-020104", "At most 3 tries to choose a new password.", retry=3),
            _rule("RHEL-08-010110", "Passwords stored as SHA-512 crypt (login.defs ENCRYPT_METHOD).", schemes=_SHA512),
            _rule("RHEL-08-010159", "pam_unix in system-auth hashes with SHA-512.", schemes=_SHA512),
            _rule("RHEL-08-010160", "pam_unix in password-auth hashes with SHA-512.", schemes=_SHA512),
            _rule("RHEL-08-010130", "At least 100,000 SHA-512 crypt rounds (login.defs SHA_CRYPT_MIN_ROUNDS).",
                  min_rounds=100000),
            _rule("RHEL-08-010140", "A boot-loader superuser password on UEFI systems.", bootloader_password=True),
            _rule("RHEL-08-010150", "A boot-loader superuser password on BIOS systems.", bootloader_password=True),
            _rule("RHEL-08-010030", "Local disk partitions encrypted.", encryption=True),
        ],
    },
    "RHEL9": {
        "benchmark": "DISA STIG for Red Hat Enterprise Linux 9", "version": "V2R9",
        "file": "products/rhel9/controls/stig_rhel9.yml",
        "rules": [_rule("RHEL-09-611090", "At least 15 characters.", minlen=15)]
        + _stig_classes("RHEL-09-", "611110", "611065", "611070", "611100", "611130") + [
            _rule("RHEL-09-611115", "A new password changes at least 8 characters of the old one.", difok=8),
            _rule("RHEL-09-611125", "No character more than 3 times in a row.", maxrepeat=3),
            _rule("RHEL-09-611120", "No more than 4 characters of one class in a row.", maxclassrepeat=4),
            _rule("RHEL-09-611105", "No dictionary words.", dictcheck=1),
            _rule("RHEL-09-611060", "The rules apply to root too.", enforce_for_root=1),
            _rule("RHEL-09-611010", "At most 3 tries to choose a new password.", retry=3),
            _rule("RHEL-09-611140", "Passwords stored as SHA-512 crypt (login.defs ENCRYPT_METHOD).", schemes=_SHA512),
            _rule("RHEL-09-611135", "libuser hashes with SHA-512.", schemes=_SHA512),
            _rule("RHEL-09-671025", "pam_unix in password-auth hashes with SHA-512.", schemes=_SHA512),
            _rule("RHEL-09-611050", "pam_unix in password-auth uses at least 100,000 rounds.", min_rounds=100000),
            _rule("RHEL-09-611055", "pam_unix in system-auth uses at least 100,000 rounds.", min_rounds=100000),
            _rule("RHEL-09-212010", "A boot-loader superuser password.", bootloader_password=True),
            _rule("RHEL-09-231190", "Local disk partitions encrypted.", encryption=True),
        ],
    },
    "RHEL10": {
        "benchmark": "DISA STIG for Red Hat Enterprise Linux 10", "version": "V1R2",
        "file": "products/rhel10/controls/stig_rhel10.yml",
        "rules": [_rule("RHEL-10-600220", "At least 15 characters.", minlen=15)]
        + _stig_classes("RHEL-10-", "600250", "600240", "600310", "600230", "600300") + [
            _rule("RHEL-10-600260", "A new password changes at least 8 characters of the old one.", difok=8),
            _rule("RHEL-10-600290", "No character more than 3 times in a row.", maxrepeat=3),
            _rule("RHEL-10-600280", "No more than 4 characters of one class in a row.", maxclassrepeat=4),
            _rule("RHEL-10-600320", "No dictionary words.", dictcheck=1),
            _rule("RHEL-10-600405", "The rules apply to root too.", enforce_for_root=1),
            _rule("RHEL-10-600485", "At most 3 tries to choose a new password.", retry=3),
            _rule("RHEL-10-600740", "Passwords stored as SHA-512 crypt (login.defs ENCRYPT_METHOD).", schemes=_SHA512),
            _rule("RHEL-10-600750", "libuser hashes with SHA-512.", schemes=_SHA512),
            _rule("RHEL-10-600650", "pam_unix in password-auth hashes with SHA-512.", schemes=_SHA512),
            _rule("RHEL-10-600710", "pam_unix in system-auth hashes with SHA-512.", schemes=_SHA512),
            _rule("RHEL-10-600720", "pam_unix in password-auth uses at least 100,000 rounds.", min_rounds=100000),
            _rule("RHEL-10-600700", "pam_unix in system-auth uses at least 100,000 rounds.", min_rounds=100000),
            _rule("RHEL-10-600000", "A boot-loader superuser password.", bootloader_password=True),
            _rule("RHEL-10-000510", "Local disk partitions encrypted.", encryption=True),
        ],
    },
}


# ---------------------------------------------------------------------------
# CIS: levels 2 inherit levels 1, and no password rule is level 2 only, so
# the four profiles of a release hold the same rules.
# ---------------------------------------------------------------------------
def _cis(release, version, section, minclass, schemes):
    pwq = "5.3.%s.2." % section
    rules = [
        _rule("1.4.1", "A boot-loader password.", bootloader_password=True),
        _rule(pwq + "1", "A new password changes at least 2 characters of the old one.", difok=2),
        _rule(pwq + "2", "At least 14 characters.", minlen=14),
        _rule(pwq + "3", "Characters from all four classes.", minclass=4) if minclass else
        _rule(pwq + "3", "Complexity is left to the site (a manual rule without a value)."),
        _rule(pwq + "4", "No character more than 3 times in a row.", maxrepeat=3),
        _rule(pwq + "5", "No sequence ('abcd', '1234') longer than 3.", maxsequence=3),
        _rule(pwq + "6", "No dictionary words.", dictcheck=1),
        _rule(pwq + "7", "The rules apply to root too.", enforce_for_root=1),
        _rule("5.3.%s.4.3" % section, "pam_unix hashes with a strong scheme (%s)." % " or ".join(schemes),
              schemes=schemes),
        _rule("5.4.1.4", "login.defs names a strong hashing scheme (%s)." % " or ".join(schemes), schemes=schemes),
    ]
    return {"benchmark": "CIS Red Hat Enterprise Linux %s Benchmark" % release, "version": version,
            "file": "products/rhel%s/controls/cis_rhel%s.yml" % (release, release), "rules": rules}


CIS = {
    "RHEL8": _cis("8", "4.0.0", "3", False, _YESCRYPT_OR_SHA512),
    "RHEL9": _cis("9", "2.0.0", "3", True, _SHA512),
    "RHEL10": _cis("10", "1.0.1", "2", True, _YESCRYPT_OR_SHA512),
}


# ---------------------------------------------------------------------------
# OSPP (Common Criteria Protection Profile for General Purpose Operating
# Systems): the control file sets length and classes; the RHEL 8 profile
# (for version 4.2.1) adds difok, maxrepeat and maxclassrepeat and asks for
# the UEFI boot-loader password instead of the BIOS one.
# ---------------------------------------------------------------------------
def _ospp(release, version, bootloader_rule, extra=()):
    rules = [
        _rule("FMT_SMF_EXT.1", "At least 12 characters.", minlen=12),
        _rule("FMT_SMF_EXT.1", "At least one upper-case letter.", ucredit=-1),
        _rule("FMT_SMF_EXT.1", "At least one lower-case letter.", lcredit=-1),
        _rule("FMT_SMF_EXT.1", "At least one digit.", dcredit=-1),
        _rule("FMT_SMF_EXT.1", "At least one special character.", ocredit=-1),
    ] + list(extra) + [bootloader_rule]
    return {"benchmark": "Protection Profile for General Purpose Operating Systems", "version": version,
            "file": "controls/ospp.yml, products/rhel%s/profiles/ospp.profile" % release, "rules": rules}


OSPP = {
    "RHEL8": _ospp("8", "4.2.1", _rule("grub2_uefi_password", "A boot-loader password (UEFI).",
                                       bootloader_password=True), extra=(
        _rule("accounts_password_pam_difok", "A new password changes at least 4 characters of the old one.",
              difok=4),
        _rule("accounts_password_pam_maxrepeat", "No character more than 3 times in a row.", maxrepeat=3),
        _rule("accounts_password_pam_maxclassrepeat", "No more than 4 characters of one class in a row.",
              maxclassrepeat=4),
    )),
    "RHEL9": _ospp("9", "4.3", _rule("FIA_UAU.1", "A boot-loader password.", bootloader_password=True)),
    "RHEL10": _ospp("10", "4.3", _rule("FIA_UAU.1", "A boot-loader password.", bootloader_password=True)),
}


# ---------------------------------------------------------------------------
# PCI-DSS v4.0.1 (requirements 8.3.6 and 8.3.2); RHEL 10's profile asks for yescrypt.
# ---------------------------------------------------------------------------
def _pci(release, scheme):
    return {"benchmark": "PCI-DSS", "version": "4.0.1",
            "file": "controls/pcidss_4.yml, products/rhel%s/profiles/pci-dss.profile" % release,
            "rules": [
                _rule("8.3.6", "At least 12 characters.", minlen=12),
                _rule("8.3.6", "At least one digit.", dcredit=-1),
                _rule("8.3.6", "At least one letter (checked as one lower-case letter).", lcredit=-1),
                _rule("8.3.2", "Passwords stored with strong cryptography (%s)." % scheme, schemes=(scheme,)),
            ]}


PCI_DSS = {"RHEL8": _pci("8", "sha512"), "RHEL9": _pci("9", "sha512"), "RHEL10": _pci("10", "yescrypt")}


# ---------------------------------------------------------------------------
# ANSSI BP-028 v2.0.  The password rules R31 and R68 are of level minimal,
# the boot-loader password R5 of level intermediary; levels enhanced and high
# add none.  The profile here is level intermediary and above.  RHEL 8 and 9
# profiles hash with SHA-512 at 65,536 rounds; RHEL 10 with yescrypt at cost
# 11 (pam_unix's rounds= is yescrypt's cost factor) and without retry.
# ---------------------------------------------------------------------------
def _anssi(release, scheme, rounds, retry):
    rules = [
        _rule("R31", "At least 15 characters.", minlen=15),
        _rule("R31", "At least one upper-case letter.", ucredit=-1),
        _rule("R31", "At least one lower-case letter.", lcredit=-1),
        _rule("R31", "At least one digit.", dcredit=-1),
        _rule("R31", "At least one special character.", ocredit=-1),
        _rule("R68", "Characters from all four classes.", minclass=4),
    ]
    if retry:
        rules.append(_rule("R68", "At most 3 tries to choose a new password.", retry=3))
    rules += [
        _rule("R68", "pam_unix hashes with %s." % scheme, schemes=(scheme,)),
        _rule("R68", "pam_unix uses rounds=%d (%s)." % (rounds, "rounds" if scheme == "sha512" else "cost factor"),
              min_rounds=rounds),
        _rule("R5", "A boot-loader password.", bootloader_password=True),
    ]
    return {"benchmark": "ANSSI-BP-028", "version": "2.0",
            "file": "controls/anssi.yml, products/rhel%s/profiles/anssi_bp28_intermediary.profile" % release,
            "rules": rules}


ANSSI = {"RHEL8": _anssi("8", "sha512", 65536, True), "RHEL9": _anssi("9", "sha512", 65536, True),
         "RHEL10": _anssi("10", "yescrypt", 11, False)}


# ---------------------------------------------------------------------------
# NIST SP 800-63B-4, section 3.1.1.2 (the same for every release).  The ids
# name the requirement of that section in our words.  A password used as the
# only factor needs 15 characters (8 when it is one factor of several; an
# installer's passwords are used alone); composition rules are forbidden, so
# the credits and minclass are 0; a blocklist is required, which libpwquality
# approaches with its dictionary and user-name checks (the blocklist lookup of
# this collection does the rest).
# ---------------------------------------------------------------------------
NIST_SECTION = "SP 800-63B-4 3.1.1.2"
NIST = {
    "benchmark": "NIST SP 800-63B", "version": "Revision 4 (August 2025)", "file": None,
    "rules": [
        _rule(NIST_SECTION + " length", "At least 15 characters for a password used alone (8 with another factor).",
              minlen=15),
        _rule(NIST_SECTION + " composition", "No composition rules: no classes asked for.", minclass=0,
              dcredit=0, ucredit=0, lcredit=0, ocredit=0),
        _rule(NIST_SECTION + " blocklist",
              "Refuse passwords on a blocklist of common, expected or breached passwords.", dictcheck=1,
              blocklist=True),
        _rule(NIST_SECTION + " context", "Refuse passwords made of context words such as the user name.",
              usercheck=1),
        _rule(NIST_SECTION + " maximum length", "Accept at least 64 characters; never truncate."),
        _rule(NIST_SECTION + " storage", "Store passwords salted and hashed with a password-hashing scheme."),
    ],
}

_TABLES = {
    "stig": STIG, "cis_server_l1": CIS, "cis_server_l2": CIS, "cis_workstation_l1": CIS,
    "cis_workstation_l2": CIS, "ospp": OSPP, "pci_dss": PCI_DSS, "anssi": ANSSI,
    "nist_800_63b": dict((target, NIST) for target in TARGETS),
}


# ---------------------------------------------------------------------------
# Looking profiles up
# ---------------------------------------------------------------------------
def _target_name(target):
    if not isinstance(target, str) or not target.strip():
        raise ProfileError("a target release is needed: give one of %s" % ", ".join(TARGETS))
    return target.strip().upper()


def profile_name(value):
    """The profile ``value`` names (case-insensitive, spaces around it ignored), as :data:`PROFILES` spells it;
    None when it names none.  Every entry point matches profile names here."""
    if isinstance(value, str) and value.strip().lower() in _TABLES:
        return value.strip().lower()
    return None


# An unknown profile name is shown, with the names it is closest to, only when it is a plain name token (letters,
# digits, '-', '_', '.', at most 32 characters) within a Damerau-Levenshtein distance of 2 (case-insensitive) of a
# profile name or of one of the short names people use for a benchmark (ALIASES, for the suggestion only: they
# select nothing): such a value is a typo of a public name and carries no secret.  Any other unknown value is
# shown as '<hidden>', by its position and with the list of valid names: a secret given in the wrong variable
# would otherwise be printed by every caller.
SUGGEST_DISTANCE = 2
ALIASES = {
    "nist": ("nist_800_63b",), "800-63b": ("nist_800_63b",), "disa_stig": ("stig",), "pci": ("pci_dss",),
    "anssi_bp28": ("anssi",), "bp28": ("anssi",),
    "cis": ("cis_server_l1", "cis_server_l2", "cis_workstation_l1", "cis_workstation_l2"),
}


def suggestion(value):
    """The profile names ``value`` is a typo of (see :data:`NAME_TOKEN`), closest first, or None: ``value`` is then
    not shown."""
    if not isinstance(value, str) or not NAME_TOKEN.match(value.strip()):
        return None
    given = value.strip().lower()
    known = [(name, (name,)) for name in PROFILES] + sorted(ALIASES.items())
    near = sorted((distance(given, word), index) for index, (word, dummy) in enumerate(known))
    if near[0][0] > SUGGEST_DISTANCE:
        return None
    names = []
    for dummy, index in [entry for entry in near if entry[0] == near[0][0]]:
        names.extend(name for name in known[index][1] if name not in names)
    return tuple(names)


def unknown_profile(value, index=0, count=1, variable=None):
    """The :class:`ProfileError` of the unknown profile ``value``, element ``index`` of the ``count`` given in
    ``variable`` (None: the caller names it): a typo of a profile name is shown with the names it is close to, any
    other value is shown as ``<hidden>``; of several, its position is given."""
    near = suggestion(value)
    if near is not None:
        shown = repr(value.strip())
    elif isinstance(value, str):
        shown = "'<hidden>'"
    else:
        shown = "(%s)" % plain_type(value)
    notes = ["name %d of the %d given" % (index + 1, count)] if count > 1 else []
    if near is not None:
        notes.append("did you mean %s%s?" % ("one of " if len(near) > 1 else "", ", ".join(repr(n) for n in near)))
    return ProfileError("%sunknown compliance profile %s%s: give one of %s"
                        % ("%s: " % variable if variable else "", shown,
                           " (%s)" % ", ".join(notes) if notes else "", ", ".join(PROFILES)))


def profile_names(value, variable=None):
    """The profile names ``value`` gives (a name, names separated by commas, or a list of names, any case), as
    :data:`PROFILES` spells them, in order, once each; :class:`ProfileError` (:func:`unknown_profile`) names an
    unknown one, ``variable`` where they were given (None: the caller names it)."""
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, (list, tuple)) or not value:
        raise ProfileError("%sprofile must be a compliance profile name or a list of them (%s)"
                           % ("%s: " % variable if variable else "", ", ".join(PROFILES)))
    names = []
    for index, name in enumerate(value):
        known = profile_name(name)
        if known is None:
            raise unknown_profile(name, index, len(value), variable)
        if known not in names:
            names.append(known)
    return names


def check_profile(name, target, variable=None):
    """Validate a profile name (any case) and a target: ``(name, TARGET)``; :class:`ProfileError` names what to give
    (``variable``: the variable the name was given in, for the message)."""
    known = profile_name(name)
    if known is None:
        raise unknown_profile(name, variable=variable)
    normalized = _target_name(target)
    if normalized not in _TABLES[known]:
        raise ProfileError("compliance profile %r has no values for target %r: give one of %s"
                           % (known, target, ", ".join(t for t in TARGETS if t in _TABLES[known])))
    return known, normalized


def entry(name, target):
    """The table entry of a profile for a target: ``{benchmark, version, file, rules}``."""
    name, target = check_profile(name, target)
    return _TABLES[name][target]


def _values(rules, key):
    found = [rule["values"][key] for rule in rules if key in rule["values"]]
    return found[0] if found else None


def pwquality(name, target):
    """Every libpwquality setting the profile sets: ``{setting: value}`` in pwquality.conf's names."""
    rules = entry(name, target)["rules"]
    result = {}
    for setting in PWQUALITY:
        value = _values(rules, setting)
        if value is not None:
            result[setting] = value
    return result


def requires_blocklist(name, target):
    """Whether the profile asks for passwords to be compared with a blocklist of breached and common passwords."""
    return bool(_values(entry(name, target)["rules"], "blocklist"))


def policies(name, target):
    """The three password policies of the profile (see the module docstring for how rules map onto them)."""
    minlen = pwquality(name, target)["minlen"]
    return dict((policy, {"name": policy, "minlen": minlen, "minquality": 1, "strict": True, "emptyok": False,
                          "changesok": False}) for policy in NAMES)


def hashing(name, target):
    """``{schemes, min_rounds}``: the crypt schemes allowed (empty: any) and the least rounds (None: any)."""
    rules = entry(name, target)["rules"]
    schemes = _values(rules, "schemes")
    return {"schemes": list(schemes or ()), "min_rounds": _values(rules, "min_rounds")}


# The profiles' scheme names -> the crypt schemes' (kickstart_password_hash's, the release matrix's).
CRYPT_SCHEMES = {"sha512": "sha512crypt", "yescrypt": "yescrypt"}


def crypt_schemes(name, target):
    """The crypt schemes the profile allows, as the release matrix names them (empty: any)."""
    return [CRYPT_SCHEMES.get(scheme, scheme) for scheme in hashing(name, target)["schemes"]]


# Which of a profile's values each field of its policies stands for (see the module docstring): minlen is the
# length rule; a policy that is not strict, takes an empty password or lets the installer's screens change the
# checked one lets a password through that breaks it; minquality 1 is "libpwquality accepts it", so it stands for
# every setting a check makes.
POLICY_FIELD_KEYS = {
    "minlen": ("minlen",),
    "emptyok": ("minlen",),
    "changesok": ("minlen",),
    "strict": ("minlen",),
    "minquality": tuple(key for key in PWQUALITY if key not in NOT_FOR_A_CHECK),
}


def policy_field_keys(account, field):
    """The profile values ``field`` of ``account``'s policy stands for; root's ``strict`` is also the rule that
    the settings apply to root (``enforce_for_root``)."""
    keys = POLICY_FIELD_KEYS[field]
    return keys + ("enforce_for_root",) if (account, field) == ("root", "strict") else keys


def profile(name, target, others=()):
    """The whole profile, as the ``compliance_profile`` filter returns it.

    ``others`` are other profile names selected with this one; their
    conflicts with it are listed under ``conflicts``.
    """
    name, target = check_profile(name, target)
    data = entry(name, target)
    return {
        "name": name, "target": target,
        "source": {"benchmark": data["benchmark"], "version": data["version"]},
        "policies": policies(name, target),
        "pwquality": pwquality(name, target),
        "hashing": hashing(name, target),
        "bootloader_password": bool(_values(data["rules"], "bootloader_password")),
        "encryption": bool(_values(data["rules"], "encryption")),
        "blocklist": requires_blocklist(name, target),
        "rules": [{"id": rule["id"], "text": rule["text"]} for rule in data["rules"]],
        "conflicts": conflicts([name] + [other for other in others if other != name], target),
    }


# ---------------------------------------------------------------------------
# Conflicts between profiles selected together
# ---------------------------------------------------------------------------
# For each setting, which value asks more: the larger, the smaller, or (credits) the more negative.
_STRICTER = {"minlen": max, "minclass": max, "difok": max, "dictcheck": max, "usercheck": max,
             "enforce_for_root": max, "dcredit": min, "ucredit": min, "lcredit": min, "ocredit": min,
             "maxrepeat": min, "maxclassrepeat": min, "maxsequence": min, "retry": min, "min_rounds": max,
             # The policy model's fields (a check by profile merges them too).
             "minquality": max, "strict": max, "emptyok": min, "changesok": min}


def stricter(key, values):
    """The value of ``values`` (of one setting, policy field or ``min_rounds``) that asks more of a password."""
    return _STRICTER[key](values)


def rule_list(name, target, *keys):
    """The ids of the rules of a profile that set any of ``keys``, in the profile's order, each once."""
    ids = []
    for rule in entry(name, target)["rules"]:
        if set(keys) & set(rule["values"]) and rule["id"] not in ids:
            ids.append(rule["id"])
    return ids


def rule_ids(name, target, *keys):
    """``rule ID`` or ``rules ID, ID``: the rules of a profile that set any of ``keys``."""
    ids = rule_list(name, target, *keys)
    return "%s %s" % ("rule" if len(ids) == 1 else "rules", ", ".join(ids))


def _asks_composition(settings):
    """The composition settings of ``settings`` that ask for a mixture of character types."""
    return [key for key in COMPOSITION if key in settings
            and ((key == "minclass" and settings[key] > 1) or (key != "minclass" and settings[key] < 0))]


def forbids_composition(name):
    """Whether the profile forbids composition rules (NIST SP 800-63B)."""
    return name == "nist_800_63b"


def _composition_conflicts(names, target, settings):
    found = []
    for forbidding in [name for name in names if forbids_composition(name)]:
        for name in names:
            if forbids_composition(name):
                continue
            asked = _asks_composition(settings[name])
            patterns = [key for key in PATTERN if settings[name].get(key)]
            if asked:
                found.append("%s requires a mixture of character types (%s; %s) but %s forbids composition "
                             "rules (%s): no libpwquality configuration meets both; choose one"
                             % (name, ", ".join("%s %d" % (key, settings[name][key]) for key in asked),
                                rule_ids(name, target, *asked), forbidding,
                                rule_ids(forbidding, target, "minclass")))
            if patterns:
                found.append("%s refuses passwords for the shape of their characters (%s; %s), which %s "
                             "counts among the composition rules it forbids; choose one"
                             % (name, ", ".join("%s %d" % (key, settings[name][key]) for key in patterns),
                                rule_ids(name, target, *patterns), forbidding))
    return found


def _value_conflicts(names, target, settings):
    found = []
    for key in PWQUALITY + ("min_rounds",):
        if key in COMPOSITION and any(forbids_composition(name) for name in names):
            continue  # said once above, in stronger words
        values = [(name, settings[name][key]) for name in names if settings[name].get(key) is not None]
        if len(set(value for dummy, value in values)) < 2:
            continue
        stricter = _STRICTER[key](value for dummy, value in values)
        found.append("%s differs: %s; the stricter value is %s" % (
            key, ", ".join("%s asks %s (%s)" % (name, value, rule_ids(name, target, key))
                           for name, value in values), stricter))
    return found


def _scheme_conflicts(names, target):
    asked = [(name, set(hashing(name, target)["schemes"])) for name in names if hashing(name, target)["schemes"]]
    if len(asked) < 2:
        return []
    common = set.intersection(*(schemes for dummy, schemes in asked))
    if common:
        if len(set(frozenset(schemes) for dummy, schemes in asked)) == 1:
            return []
        return ["hashing schemes differ: %s; only %s meets all of them" % (
            ", ".join("%s allows %s (%s)" % (name, " or ".join(sorted(schemes)), rule_ids(name, target, "schemes"))
                      for name, schemes in asked),
            " or ".join(sorted(common)))]
    return ["hashing schemes conflict: %s; no scheme meets all of them; choose one profile"
            % ", ".join("%s allows only %s (%s)" % (name, " or ".join(sorted(schemes)),
                                                    rule_ids(name, target, "schemes"))
                        for name, schemes in asked)]


def conflicts(names, target):
    """Where profiles selected together disagree on ``target``, in plain words (a list of sentences).

    A composition rule (classes, credits) one profile requires and another
    forbids is a conflict no configuration resolves; a setting several
    profiles set to different values is reported with the stricter value,
    which meets both only where the other profile allows it.  Nothing is
    picked here: the caller decides, and says so.
    """
    if isinstance(names, str):
        names = [names]
    checked = []
    for name in names:
        name, normalized = check_profile(name, target)
        if name not in checked:
            checked.append(name)
    target = normalized if checked else _target_name(target)
    if len(checked) < 2:
        return []
    settings = {}
    for name in checked:
        settings[name] = dict(pwquality(name, target))
        rounds = hashing(name, target)["min_rounds"]
        if rounds is not None:
            settings[name]["min_rounds"] = rounds
    # yescrypt's cost and SHA-512's rounds are not one scale: compare rounds only within one scheme.
    schemes = set(tuple(hashing(name, target)["schemes"]) for name in checked if "min_rounds" in settings[name])
    if len(schemes) > 1:
        for name in checked:
            settings[name].pop("min_rounds", None)
    return (_composition_conflicts(checked, target, settings) + _value_conflicts(checked, target, settings)
            + _scheme_conflicts(checked, target))
