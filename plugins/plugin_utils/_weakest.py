# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""One host's weakest link: which secret, which attack, how long; the warnings and the floor.

The estimates come from :mod:`._exposure` (and zxcvbn through :mod:`._guesses`);
this module only puts one host's secrets side by side, words the warnings, and
says whether the host is below the floor the user asked to enforce.  Nothing
here returns or words a secret: an entry holds its label (``root``,
``user:NAME``, ``luks``), its policy name and numbers.

One secret used twice is a weakest link of its own: the root password that is
also the LUKS passphrase falls to an offline attack on the disk's header, and
sits in plain text in the kickstart.  The secrets of a host (the boot loader's
password too, which is not estimated) are compared by a keyed hash held in
memory (:func:`._guesses.keyed_digest`); what is said is which labels share a
value, never the value.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import textwrap

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError, plain_type
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._exposure import (
    REQUIRES_DISK,
    REQUIRES_KICKSTART,
    REQUIRES_LOGIN,
    REQUIRES_ROOT_COPY,
    duration,
    estimate_secret,
    kdf_note,
    options_from,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._guesses import EstimatorMissing, keyed_digest
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import BOOTLOADER

# The widest each column of the weakest-link table may be (host, secret, attack, time; what the attack needs
# has the rest of the line).
TABLE_CAPS = (36, 16, 22, 13, None)
# The default floor below which a host's weakest link is a warning: one year.
WARN_SECONDS = 31557600

REQUIRES = {"online_login": REQUIRES_LOGIN, "offline_sha512crypt": REQUIRES_KICKSTART,
            "offline_yescrypt": REQUIRES_KICKSTART,
            "root_copy_sha512crypt": REQUIRES_ROOT_COPY, "root_copy_yescrypt": REQUIRES_ROOT_COPY,
            "offline_luks2_argon2id": REQUIRES_DISK, "offline_luks2_argon2i": REQUIRES_DISK,
            "offline_luks2_pbkdf2": REQUIRES_DISK}
HINTS = {
    "online_login": "use a longer password, or lock accounts after failed logins (pam_faillock)",
    "offline_sha512crypt": "use a longer password (each random character multiplies the time by about 95), "
                           "or raise kickstart_password_hash_rounds",
    "offline_yescrypt": "use a longer password (each random character multiplies the time by about 95), "
                        "or raise kickstart_password_hash_cost",
    "root_copy_sha512crypt": "use a longer password; the installer keeps the kickstart in /root/original-ks.cfg "
                             "(Fedora 24 has no inst.nosave=input_ks): remove it after the install",
    "root_copy_yescrypt": "use a longer password; the installer keeps the kickstart in /root/original-ks.cfg "
                          "(Fedora 24 has no inst.nosave=input_ks): remove it after the install",
    "offline_luks2_argon2id": "use a longer passphrase (several random words)",
    "offline_luks2_argon2i": "use a longer passphrase (several random words)",
    "offline_luks2_pbkdf2": "use a longer passphrase: PBKDF2 (FIPS, LUKS1) is far cheaper to attack than argon2id",
}
REUSE_HINT = ("give each of them a secret of its own (kickstart.pwpolicy.pwpolicy_password makes one per lookup), "
              "and change the shared one wherever else it is in use")
HTTP_ALTERNATIVES = ("serve the kickstart over HTTPS with client authentication, or behind a short-lived URL; "
                     "rotate the LUKS passphrase after the install (cryptsetup luksChangeKey); or unlock the disk "
                     "from the network (Clevis and Tang) and keep a passphrase for recovery only")


def secret_entry(item, options):
    """The estimate of one readable secret (a :func:`._preflight.secret` dict), without its value."""
    account = "root" if item["policy"] == "root" else item.get("user")
    found = estimate_secret(item["value"], item["policy"], account, options)
    return {"secret": item["secret"], "policy": item["policy"], "guesses_log10": found["guesses_log10"],
            "weakest_attack": found["weakest_attack"], "weakest_seconds": found["weakest_seconds"],
            "weakest_seconds_with_plaintext": found["weakest_seconds_with_plaintext"],
            "exposures": found["exposures"]}


def weakest_of(entries):
    """The entry with the shortest ``weakest_seconds``, or None."""
    timed = [entry for entry in entries if entry["weakest_seconds"] is not None]
    return min(timed, key=lambda entry: entry["weakest_seconds"]) if timed else None


def describe(entry):
    """``luks: offline_luks2_argon2id on assumed cryptsetup defaults (argon2id, 1 GiB, 4 iterations) (needs the
    encrypted disk ...), about 3.2 years``: a LUKS attack names the key-slot parameters its rate came from."""
    attack = entry["weakest_attack"]
    note = "".join(kdf_note(found) for found in entry.get("exposures") or () if found.get("attack") == attack)
    return "%s: %s%s (needs %s), about %s" % (entry["secret"], attack, note, REQUIRES[attack],
                                              duration(entry["weakest_seconds"]))


def below(entries, floor):
    """The entries whose weakest link is under ``floor`` seconds (none when the floor is 0)."""
    if not floor:
        return []
    return [entry for entry in entries if entry["weakest_seconds"] is not None and entry["weakest_seconds"] < floor]


def floor_text(entries, floor, name):
    """One sentence per secret below ``floor``, with what to do."""
    return "; ".join("%s, below %s (%s): %s" % (describe(entry), duration(floor), name,
                                                HINTS[entry["weakest_attack"]]) for entry in entries)


def shared_values(items):
    """``[[label, ...]]``: the labels of the secrets of ``items`` that hold one value, two or more to a group.

    Compared by a keyed hash in memory; an empty value, one that is not a string or could not be read is no one's.
    """
    groups = {}
    for item in items:
        value = item.get("value")
        if isinstance(value, str) and value and not item.get("error"):
            labels = groups.setdefault(keyed_digest(value), [])
            if item["secret"] not in labels:
                labels.append(item["secret"])
    return [labels for labels in groups.values() if len(labels) > 1]


def _listed(labels):
    """``root, luks and bootloader``."""
    return labels[0] if len(labels) == 1 else "%s and %s" % (", ".join(labels[:-1]), labels[-1])


def reuse_finding(labels, entries, luks_in_kickstart=True):
    """``{secrets, reason, hint}`` for the secrets ``labels`` that are one value; ``entries``: the host's estimates."""
    reason = "%s are the same secret: whoever finds it for one has %s" % (
        _listed(labels), "both" if len(labels) == 2 else "them all")
    if "luks" in labels:
        others = _listed([label for label in labels if label != "luks"])
        reason += "; an offline attack on the LUKS header of the disk gives %s too" % others
        if luks_in_kickstart:
            reason += ", and the kickstart holds the LUKS passphrase in plain text"
    weakest = weakest_of([entry for entry in entries if entry["secret"] in labels])
    if weakest is not None:
        reason += "; the weakest of them: %s" % describe(weakest)
    return {"secrets": list(labels), "reason": reason, "hint": REUSE_HINT}


# How that warning starts, whatever the kickstart holds (the kickstart role shows it once for all hosts).
HTTP_WARNING_START = "kickstart_base_url is plain http://"


def http_warning(base_url, has_luks, has_hashes):
    """The warning for a kickstart served over plain ``http://`` that holds secrets, or None."""
    if not isinstance(base_url, str) or not base_url.strip().lower().startswith("http://"):
        return None
    if not (has_luks or has_hashes):
        return None
    held = [what for what, present in (("the LUKS passphrase in plain text", has_luks),
                                       ("password hashes", has_hashes)) if present]
    return ("%s while the kickstart holds %s: they travel in clear to anyone on the path; %s"
            % (HTTP_WARNING_START, " and ".join(held), HTTP_ALTERNATIVES))


# The variable whose floor a host's warning names; :func:`below_warn_floor` knows those warnings by it.
WARN_FLOOR = "kickstart_warn_crack_seconds"


def below_warn_floor(warning):
    """Whether ``warning`` (one of :func:`host_report`'s) says that a secret is below the warning floor."""
    return "(%s): " % WARN_FLOOR in warning


def host_report(host, entries, warn_seconds=WARN_SECONDS, min_seconds=0):
    """``{host, weakest, secrets, warnings, failed, msg}`` for one host's estimated secrets."""
    weakest = weakest_of(entries)
    warned = below(entries, warn_seconds)
    failing = below(entries, min_seconds)
    warnings = ["%s: %s" % (host, floor_text(warned, warn_seconds, WARN_FLOOR))] if warned else []
    summary = None
    if weakest is not None:
        summary = {"secret": weakest["secret"], "attack": weakest["weakest_attack"],
                   "seconds": weakest["weakest_seconds"], "time": duration(weakest["weakest_seconds"]),
                   "requires": REQUIRES[weakest["weakest_attack"]]}
    if failing:
        msg = "%s: weakest link below kickstart_min_crack_seconds: %s" % (
            host, floor_text(failing, min_seconds, "kickstart_min_crack_seconds"))
    elif weakest is not None:
        msg = "%s: weakest link %s" % (host, describe(weakest))
    else:
        msg = "%s: no secret to estimate" % host
    return {"host": host, "weakest": summary, "secrets": entries, "warnings": warnings,
            "failed": bool(failing), "msg": msg}


def seconds_arg(value, name, caller="weakest_link"):
    """``value`` as a non-negative number of seconds, or a PwpolicyError naming ``name``."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise PwpolicyError("%s: %s must be a number of seconds, got %s" % (caller, name, type(value).__name__))
    if seconds < 0:
        raise PwpolicyError("%s: %s must not be negative" % (caller, name))
    return seconds


def model_options(estimate, given, hostname, caller="weakest_link"):
    """The exposure model's options: ``estimate`` (a dict or nothing) under the non-empty values of ``given``."""
    if estimate in (None, ""):
        estimate = {}
    if not isinstance(estimate, dict):
        raise PwpolicyError("%s: estimate must be a dict of model options (fips, faillock, devices)" % caller)
    merged = dict(estimate)
    merged.update((name, value) for name, value in given.items() if value not in (None, ""))
    merged.setdefault("hostname", hostname)
    return options_from(merged)


NOT_ESTIMATED = "weakest link not estimated: zxcvbn is not installed on the controller"


def host_weakest(host, items, options, base_url, floors, require, notice=True):
    """``(fields, warnings, failed)``: one host's weakest link from its readable secrets.

    ``items`` are :func:`._preflight.secret` dicts with a value; ``floors`` is
    ``(warn_seconds, min_seconds)``.  Without zxcvbn the fields say why nothing
    was estimated, unless ``require`` (or a floor to enforce) makes that an error.
    That is the same for every host of a run, so the warning saying how to
    install it comes only with ``notice`` (the caller sets it on one host).
    The boot loader's password (label ``bootloader``) is not estimated (the
    exposure model knows accounts and disks): it is only compared with the
    others, as every secret is (``reused``).
    """
    warn_seconds, min_seconds = floors
    notes = []
    shared = shared_values(items)
    items = [item for item in items if item["secret"] != BOOTLOADER]
    # A secret that is not a string (a number, a list, a boolean in YAML) is named, never estimated.
    odd = ["%s: %s is not a string (got %s), not estimated: give it as a string or a vaulted string (quote it in "
           "YAML)" % (host, item["secret"], plain_type(item["value"])) for item in items
           if not isinstance(item["value"], str)]
    items = [item for item in items if isinstance(item["value"], str)]
    try:
        entries, note = [secret_entry(item, options) for item in items], None
    except PwpolicyError as exc:
        if require or min_seconds > 0:
            raise PwpolicyError("weakest_link: %s: %s" % (host, exc))
        entries = None
        if isinstance(exc, EstimatorMissing):
            note = "%s: %s" % (host, NOT_ESTIMATED)
            notes = ["weakest links not estimated on any host: %s" % exc] if notice else []
        else:
            note = "%s: weakest link not estimated: %s" % (host, exc)
            notes = [note]
    http = http_warning(base_url, any(i["policy"] == "luks" for i in items), any(i["policy"] != "luks" for i in items))
    report = host_report(host, entries or [], warn_seconds, min_seconds)
    reused = [reuse_finding(labels, entries or [], options["luks_in_kickstart"]) for labels in shared]
    fields = {"host": host, "weakest": report["weakest"] if entries is not None else None,
              "secrets": report["secrets"], "below_floor": report["failed"], "estimated": entries is not None,
              "reused": reused, "msg": note or report["msg"]}
    if http:
        fields["plain_http"] = True
    warnings = (odd + report["warnings"] + ["%s: %s; %s" % (host, found["reason"], found["hint"]) for found in reused]
                + (["%s: %s" % (host, http)] if http else []) + notes)
    return fields, warnings, report["failed"]


def weakest_table(reports):
    """The audit's text table: one row per host with its weakest link (every cell :func:`._report.visible`), then
    a line for each group of a host's secrets that are one value (``reused``); no line longer than
    :data:`._report.WIDTH` (a longer cell or line wraps, nothing is cut)."""
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._report import WIDTH, fit_columns, visible

    header = ("host", "secret", "attack", "time", "needs")
    rows = [header]
    for report in reports:
        weakest = report.get("weakest") if isinstance(report, dict) else None
        if weakest:
            rows.append((report["host"], weakest["secret"], weakest["attack"], weakest["time"], weakest["requires"]))
        elif isinstance(report, dict) and report.get("host"):
            rows.append((report["host"], "-", "-", "-", report.get("note") or "nothing estimated"))
    lines = fit_columns([tuple(visible(cell) for cell in row) for row in rows], TABLE_CAPS)
    for report in reports:
        if isinstance(report, dict) and report.get("host"):
            for found in report.get("reused") or ():
                lines.extend(textwrap.wrap(visible("%s: %s" % (report["host"], found["reason"])), WIDTH,
                                           subsequent_indent="    ", break_on_hyphens=False))
    return "\n".join(lines)
