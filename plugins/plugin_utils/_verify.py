# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""An installed host against what the inventory declares for it: the verify playbook's judgement, on the controller.

What the inventory declares for a host (:func:`declare`) is read as the
audit reads it (plugin_utils/_audit_hosts.py: the host's variables as the
inventory gives them, each templated on its own) and made into what the
kickstart role would make of it, through the role's own code: the pre-flight
(plugin_utils/_secrets_check.py) resolves the policies and the check by
profile (plugin_utils/_profile_check.py ``RoleProfile``) gives every
libpwquality setting and the ``/etc/login.defs`` lines, and the role's own
``%post`` template (roles/kickstart/templates/pwquality_post.j2) is rendered
with them and read back by the kickstart reader (module_utils/_posture),
so the settings compared are those the role writes, line for line.  No
secret is read: the secrets' variables are never templated here.

What the host enforces is its posture (``posture_info`` with ``source:
host``, registered on the host).  :func:`verify_host` makes the findings of
one host, in the audit's shape (plugin_utils/_report.py), each with the rule
ids (``rules``) and, where it was found, the file on the host and the line:

* ``kickstart_target`` against the release ``/etc/os-release`` names;
* the judge (module_utils/_posture/judge.py) with ``kickstart_profile`` and
  ``kickstart_profile_exceptions`` (a waived deviation is reported as such);
* each libpwquality setting and ``login.defs`` line the role writes that the
  host no longer enforces and the judge does not report already (rule: the
  profile's rule for it, else ``kickstart.pwpolicy.pwquality.KEY`` or
  ``kickstart.pwpolicy.login_defs.KEY``);
* each kickstart or installer log left that keeps secrets
  (``kickstart.pwpolicy.leftover_secret``);
* what the reader could not read and what the judge could not check
  (``not_checked``);
* with ``kickstart_verify_secrets``, each secret the ``verify_secrets``
  action compared (``kickstart.pwpolicy.secret_changed``).

A deviation is ``rejected`` (as a file's deviation is in the audit); what
passes is ``accepted``, one finding for each part that passes.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

from ansible.module_utils.common.text.converters import to_text
from ansible.module_utils.parsing.convert_bool import boolean

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _profiles
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.conf import LOGIN_DEFS, PWQUALITY_CONF
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.judge import (
    ENCRYPT_METHODS,
    PWQUALITY_DEFAULTS,
    judge,
    meets,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.kickstart import read_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import ReleaseError, hash_scheme
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._audit_hosts import (
    _MISSING,
    host_arguments,
    variable_getter,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._profile_check import (
    EXCEPTIONS_VAR,
    MIN_COST_KEYS,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_check import SecretsCheck
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._exposure import weakest_keyslot
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._guesses import EstimatorMissing
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import secret
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import SecretReader
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._weakest import (
    WARN_SECONDS,
    describe,
    model_options,
    seconds_arg,
    secret_entry,
)

# The rule ids of what no compliance profile names (a profile's own ids are its rules').
RULE_PREFIX = "kickstart.pwpolicy."
TARGET_RULE = RULE_PREFIX + "target"
LEFTOVER_RULE = RULE_PREFIX + "leftover_secret"
SECRET_RULE = RULE_PREFIX + "secret_changed"
NOT_READ_RULE = RULE_PREFIX + "not_read"
LUKS_RULE = RULE_PREFIX + "luks_estimate"
PWQUALITY_RULE = RULE_PREFIX + "pwquality.%s"
LOGIN_DEFS_RULE = RULE_PREFIX + "login_defs.%s"
# The role's %post template of the installed system's settings, in this collection.
_COLLECTION = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DROPIN_TEMPLATE = os.path.join(_COLLECTION, "roles", "kickstart", "templates", "pwquality_post.j2")
# The fix of a leftover kickstart.
LEFTOVER_FIX = ("delete the file; boot the installer with inst.nosave=input_ks,output_ks so that it keeps no copy "
                "(the kickstart role's boot_args give it)")
# The keys of login.defs and the profile values they carry.
LOGIN_DEFS_VALUES = dict([("ENCRYPT_METHOD", "schemes")] + [(key, "min_rounds") for key in MIN_COST_KEYS.values()])
# libpwquality's settings the role writes that no profile sets, and their defaults (pwquality.conf(5)).
OTHER_DEFAULTS = {"enforcing": 1}

_DESCRIPTIONS = {
    TARGET_RULE: ("The installed release is not the one the inventory declares",
                  "kickstart_target names another release than the host's /etc/os-release: what the kickstart role "
                  "renders and checks for the host is for a release it does not run."),
    LEFTOVER_RULE: ("A kickstart or installer log left on the host keeps secrets",
                    "Anyone who can read the file, or a backup of it, has the secrets or their hashes."),
    SECRET_RULE: ("An installed password hash no longer matches the vaulted value",
                  "The password was changed on the host (or the vault was): the vault no longer holds the password "
                  "that opens the account or the boot loader."),
    NOT_READ_RULE: ("A file or device of the host could not be read",
                    "What it holds may change what the host enforces, and nothing judged it."),
}


def rule_description(rule):
    """``(short, full)`` description of a rule of an installed host's findings, for the SARIF report."""
    if rule in _DESCRIPTIONS:
        return _DESCRIPTIONS[rule]
    for prefix, words in ((PWQUALITY_RULE % "", "libpwquality setting"), (LOGIN_DEFS_RULE % "", "login.defs line")):
        if rule.startswith(prefix):
            key = rule[len(prefix):]
            return ("The %s %s the kickstart role wrote is no longer in effect" % (words, key),
                    "The inventory declares %s for the host (kickstart_profile, kickstart_pwquality_settings, "
                    "kickstart_pwpolicies) and the installed host enforces less." % key)
    return ("Rule %s of a compliance profile" % rule,
            "What the installed host enforces breaks rule %s of the compliance profile the inventory declares for it "
            "(kickstart_profile)." % rule)


class Declared(object):
    """What the inventory declares for one host, as the kickstart role makes it: ``target`` (upper case, or None),
    ``profiles`` (names) and ``exceptions``, ``dropin`` (whether the role writes the settings), ``pwquality``
    (``{key: value}``) and ``login_defs`` (``{KEY: value}``) the role writes, with ``origins`` (``{key: where}`` in
    the role's drop-in), and ``problem`` (why it could not be worked out, or None)."""

    def __init__(self):
        self.target = None
        self.profiles = ()
        self.exceptions = ()
        self.dropin = True
        self.pwquality = {}
        self.login_defs = {}
        self.origins = {}
        self.problem = None
        self.notes = []


def template_renderer(loader):
    """``render(templar, path, variables)``: the template ``path`` rendered with ``variables`` only, as the kickstart
    role renders its templates (the ``ansible.builtin.template`` lookup), with ``loader`` (the action's)."""
    from ansible.plugins.loader import lookup_loader

    def render(templar, path, variables):
        saved = templar.available_variables
        try:
            templar.available_variables = variables
            lookup = lookup_loader.get("ansible.builtin.template", loader=loader, templar=templar)
            return to_text(lookup.run([path], variables)[0])
        # Ansible's text is not quoted: the values are the role's settings, but the message is not this collection's.
        except Exception as exc:  # pylint: disable=broad-except
            raise PwpolicyError("the kickstart role's template %s could not be rendered (%s)"
                                % (path, type(exc).__name__))
        finally:
            templar.available_variables = saved
    return render


def declare(templar, task_vars, render):
    """The :class:`Declared` of a host whose variables (untemplated, as ``_audit_hosts.HostsCheck.variables`` gives
    them) are ``task_vars``, templated with ``templar`` (a copy for them); ``render(templar, path, variables)``
    renders the role's template.  Never raises for what the variables hold."""
    found = Declared()
    try:
        _declare(found, templar, task_vars, render)
    except PwpolicyError as exc:
        found.problem = str(exc)
    return found


def _declare(found, templar, task_vars, render):
    get = variable_getter(templar, task_vars)
    args = host_arguments(get)
    args.pop("weakest", None)  # no secret is read here
    check = SecretsCheck(SecretReader(templar.template, templar), args)
    dummy_raw, names, plain, dummy_host, dummy_fail_on, dummy_fail = check.arguments(task_vars)
    target = plain.get("target")
    found.target = to_text(target).strip().upper() if target not in (None, "") else None
    policies, dummy_release, problem = check.resolve(plain)
    view, view_problem = check.role_profile(plain, names)
    problem = problem or view_problem
    if problem is None and view is not None:
        policies, dummy_selection, dummy_conflicts, problem = check.for_role(plain, policies, view, names)
    if problem is None and view is None:
        problem = "the kickstart role's check by profile could not be made"
    if problem is not None:
        raise PwpolicyError(problem)
    if view.selection is not None:
        found.profiles = tuple(view.selection.names)
    found.exceptions = tuple(view.exceptions)
    dropin = plain.get("pwquality_dropin")
    found.dropin = dropin in (None, "") or _true(dropin)
    if not found.dropin:
        return
    wanted = get("kickstart_password_hash")
    scheme = None
    if found.target is not None:  # without one, the target's own finding says so
        try:
            scheme = hash_scheme(found.target, "auto" if wanted in (_MISSING, None, "") else wanted,
                                 view.allowed_schemes())
        except ReleaseError as exc:
            found.notes.append("the login.defs lines the kickstart role writes are not known: %s" % exc)
    variables = {
        "kickstart_policies": dict((name, policy.to_dict()) for name, policy in policies.items()),
        "kickstart_pwquality": view.pwquality()[0],
        "kickstart_login_defs": [list(line) for line in view.login_defs(scheme)] if scheme else [],
        "kickstart_product": plain.get("product") or "",
    }
    text = render(templar, DROPIN_TEMPLATE, variables)
    written = read_kickstart(text)
    found.pwquality = dict(written["pwquality"]["settings"])
    found.origins = dict(written["pwquality"]["origins"])
    found.login_defs = dict((key, entry["value"]) for key, entry in written["login_defs"].items())


def _true(value):
    return boolean(value, strict=False)


# ---------------------------------------------------------------------------
# Findings
# ---------------------------------------------------------------------------
def finding(host, label, verdict, reasons=(), hints=(), rules=(), where=None, waiver=None):
    """A finding of an installed host in the audit's shape (plugin_utils/_report.py), with ``rules`` and, from
    ``where`` (``{file, line}``), the file on the host and the line."""
    found = {"host": host, "secret": label, "verdict": verdict, "ok": verdict in ("accepted", "accepted_weak"),
             "score": None, "strength": None, "reasons": list(reasons), "hints": list(hints), "policy": None,
             "rules": list(rules)}
    if where and where.get("file"):
        found["file"] = where["file"]
        found["line"] = where.get("line")
    if waiver:
        found["waived"] = True
        found["waiver"] = waiver
    return found


def place(where):
    """`` (/etc/login.defs line 12)``, `` (/etc/login.defs)`` or nothing."""
    if not where or not where.get("file"):
        return ""
    return " (%s%s)" % (where["file"], " line %d" % where["line"] if where.get("line") else "")


def _rules_text(rules):
    return "%s %s" % ("rule" if len(rules) == 1 else "rules", ", ".join(rules))


def _missing_where(entry):
    """Where a value a deviation finds missing goes (the file its fix names), or None."""
    if entry["what"] in _profiles.PWQUALITY:
        return {"file": PWQUALITY_CONF}
    if entry["what"] in ("schemes", "min_rounds") and "login.defs" in entry["found"]:
        return {"file": LOGIN_DEFS}
    return None


def _waiver(rules, exceptions):
    if rules and all(rule in exceptions for rule in rules):
        return "%s lists %s" % (EXCEPTIONS_VAR, ", ".join(rules))
    return None


def target_findings(host, declared, posture):
    """``kickstart_target`` against the release ``/etc/os-release`` names."""
    system = posture.get("os")
    if declared.target is None:
        return [finding(host, "kickstart_target", "not_checked", ["kickstart_target is not set for this host"],
                        ["set kickstart_target (the release the kickstart role renders for)"], [TARGET_RULE])]
    if not system:
        return [finding(host, "kickstart_target", "not_checked",
                        ["the host has no /etc/os-release (nor /usr/lib/os-release) to name its release"],
                        ["check the release by hand"], [TARGET_RULE])]
    runs = system.get("target") or "%s %s" % (system.get("id") or "an unknown system", system.get("version_id") or "")
    runs = runs.strip()
    where = system.get("where")
    if system.get("target") == declared.target:
        return [finding(host, "kickstart_target", "accepted", ["the host runs %s%s, as kickstart_target declares"
                                                               % (runs, place(where))], rules=[TARGET_RULE])]
    return [finding(host, "kickstart_target", "rejected",
                    ["the host runs %s%s; kickstart_target declares %s" % (runs, place(where), declared.target)],
                    ["set kickstart_target to the release the host runs%s, or install the host again with %s"
                     % (" (%s)" % system["target"] if system.get("target") else "", declared.target)],
                    [TARGET_RULE], where)]


def judge_target(declared, posture):
    """The release the judge takes the profiles' rules of: the host's own when a profile has it, else the one
    declared."""
    running = posture.get("target")
    return running if running in _profiles.TARGETS else declared.target


def profile_findings(host, declared, posture):
    """``(findings, judged)``: the judge's deviations (waived ones as such) and what it could not check, or one
    accepted finding when nothing deviates; ``judged`` None without a profile."""
    if not declared.profiles:
        return [], None
    target = judge_target(declared, posture)
    label = "profile %s" % ", ".join(declared.profiles)
    try:
        judged = judge(posture, list(declared.profiles), target, declared.exceptions)
    except PwpolicyError as exc:
        return [finding(host, label, "not_checked", ["not judged: %s" % exc],
                        ["set kickstart_target to %s" % " or ".join(_profiles.TARGETS)])], None
    found = []
    for kind in ("deviations", "waived"):
        for entry in judged[kind]:
            where = entry.get("where") or _missing_where(entry)
            reason = "%s: %s%s; %s asks %s" % (
                _rules_text(entry["rules"]), entry["found"], place(entry.get("where")), entry["profile"],
                entry["expected"])
            found.append(finding(host, entry["what"], "rejected", [reason], [entry["fix"]], entry["rules"], where,
                                 _waiver(entry["rules"], declared.exceptions) if kind == "waived" else None))
    for entry in judged["not_checked"]:
        found.append(finding(host, entry["what"], "not_checked",
                             ["%s: not checked: %s%s" % (_rules_text(entry["rules"]), entry["reason"],
                                                         place(entry.get("where")))],
                             ["check it by hand on the host"], entry["rules"], entry.get("where")))
    if not judged["deviations"] and not judged["waived"]:
        found.insert(0, finding(host, label, "accepted", ["the host meets every rule of %s (%s) the posture shows%s"
                                                          % (", ".join(declared.profiles), target,
                                                             "; what could not be checked is listed"
                                                             if judged["not_checked"] else "")]))
    return found, judged


def _covered(judged, what, key=None):
    """Whether the judge reported (or waived) a deviation of ``what`` (for login.defs, one that names ``key``)."""
    if judged is None:
        return False
    return any(entry["what"] == what and (key is None or key in entry["found"])
               for kind in ("deviations", "waived") for entry in judged[kind])


def _profile_rules(declared, posture, value):
    """The rule ids of the declared profiles that set ``value`` (a libpwquality setting, ``schemes``...)."""
    target = judge_target(declared, posture)
    rules = []
    for name in declared.profiles:
        try:
            rules.extend(rule for rule in _profiles.rule_list(name, target, value) if rule not in rules)
        except (PwpolicyError, KeyError):  # a release the profile has no rules of
            continue
    return rules


def _pwquality_holds(key, found, asked):
    if key in _profiles.PWQUALITY:
        return meets(key, found, asked)
    return found == asked


def drift_findings(host, declared, posture, judged):
    """Each libpwquality setting and login.defs line the role writes for the host that the host no longer enforces
    (and the judge does not report already), or one accepted finding."""
    if not declared.dropin:
        return [finding(host, "role settings", "accepted",
                        ["kickstart_pwquality_dropin is false: the kickstart role writes no settings for this host"],
                        rules=[])]
    found, held, covered = [], 0, 0
    settings, origins = posture["pwquality"]["settings"], posture["pwquality"]["origins"]
    for key, asked in sorted(declared.pwquality.items()):
        value = settings.get(key, PWQUALITY_DEFAULTS.get(key, OTHER_DEFAULTS.get(key)))
        if _pwquality_holds(key, value, asked):
            held += 1
            continue
        if _covered(judged, key):
            covered += 1
            continue
        rules = _profile_rules(declared, posture, key) or [PWQUALITY_RULE % key]
        where = origins.get(key)
        line = "%s = %s" % (key, asked) if key != "enforce_for_root" else key
        shown = ("%s = %s%s" % (key, value, place(where)) if where else
                 "%s not set (libpwquality's default %s)" % (key, value) if value is not None else "%s not set" % key)
        found.append(finding(
            host, "pwquality.%s" % key, "rejected",
            ["%s: %s; the kickstart role writes %s%s" % (_rules_text(rules), shown, line, _dropin(declared, key))],
            ["write %s in %s (read after the pwquality.conf.d drop-ins, it wins over them)" % (line, PWQUALITY_CONF)],
            rules, where or {"file": PWQUALITY_CONF}, _waiver(rules, declared.exceptions)))
    defs = posture.get("login_defs") or {}
    for key, asked in sorted(declared.login_defs.items()):
        entry = defs.get(key)
        value = entry["value"] if entry else None
        if key == "ENCRYPT_METHOD":
            holds = value is not None and str(value).upper() == str(asked).upper()
        elif key in MIN_COST_KEYS.values():
            holds = isinstance(value, int) and isinstance(asked, int) and value >= asked
        else:
            holds = value == asked
        if holds:
            held += 1
            continue
        if _covered(judged, LOGIN_DEFS_VALUES.get(key, key), key):
            covered += 1
            continue
        rules = (_profile_rules(declared, posture, LOGIN_DEFS_VALUES[key]) if key in LOGIN_DEFS_VALUES else []) \
            or [LOGIN_DEFS_RULE % key]
        where = entry["where"] if entry else None
        if entry is None:
            shown = "login.defs without %s" % key
        else:  # a number, or a method shadow-utils knows, as it is; anything else is not shown
            known = isinstance(value, int) or (key == "ENCRYPT_METHOD" and str(value).upper() in ENCRYPT_METHODS)
            shown = "login.defs %s %s%s" % (key, value if known else "set to another value", place(where))
        found.append(finding(host, "login.defs.%s" % key, "rejected",
                             ["%s: %s; the kickstart role writes %s %s" % (_rules_text(rules), shown, key, asked)],
                             ["write %s %s in %s" % (key, asked, LOGIN_DEFS)], rules, where or {"file": LOGIN_DEFS},
                             _waiver(rules, declared.exceptions)))
    if not found:
        found.append(finding(host, "role settings", "accepted", [
            "the %d libpwquality settings and login.defs lines the kickstart role writes for this host are in effect"
            % held if not covered else
            "of the %d libpwquality settings and login.defs lines the kickstart role writes for this host, %d are in "
            "effect and %d are not, each reported under the profile's rule" % (held + covered, held, covered)],
            rules=[]))
    return found


def _dropin(declared, key):
    """`` (in /etc/security/pwquality.conf.d/...)``: the file of the role's drop-in that sets ``key``."""
    where = declared.origins.get(key) or {}
    return " (in %s)" % where["file"] if where.get("file") else ""


def leftover_findings(host, posture):
    """Each kickstart or installer log left that keeps secrets (never a secret: how many, of which kinds)."""
    found = []
    for entry in posture.get("leftovers") or []:
        if not entry.get("exists"):
            continue
        where = {"file": entry["path"]}
        if entry.get("secrets") is None:
            found.append(finding(host, "leftover:%s" % entry["path"], "not_checked",
                                 ["%s could not be read: the secrets it may keep are not counted" % entry["path"]],
                                 [LEFTOVER_FIX], [LEFTOVER_RULE], where))
        elif entry["secrets"]:
            kinds = ", ".join(entry.get("kinds") or ())
            found.append(finding(host, "leftover:%s" % entry["path"], "rejected",
                                 ["%s keeps %d secret%s%s%s" % (
                                     entry["path"], entry["secrets"], "" if entry["secrets"] == 1 else "s",
                                     " (%d in the clear)" % entry["plaintext"] if entry.get("plaintext") else "",
                                     ": %s" % kinds if kinds else "")],
                                 [LEFTOVER_FIX], [LEFTOVER_RULE], where))
    if not found:
        found.append(finding(host, "leftovers", "accepted",
                             ["no kickstart or installer log left on the host keeps a secret"], rules=[]))
    return found


def unknown_findings(host, posture):
    """What the reader could not read, each a not-checked finding."""
    return [finding(host, "not read", "not_checked", [to_text(entry.get("what"))],
                    ["read it by hand, or run the verify playbook with become (root reads /etc/shadow and the LUKS "
                     "headers)"], [NOT_READ_RULE], entry.get("where"))
            for entry in posture.get("unknown") or []]


SECRET_VARS = {"root": "kickstart_root_password", "bootloader": "kickstart_bootloader_password"}


def secret_findings(host, result):
    """The findings of the ``verify_secrets`` result registered on the host (None or skipped: none)."""
    if not isinstance(result, dict) or result.get("skipped"):
        return []
    if result.get("failed") or not isinstance(result.get("secrets"), list):
        why = to_text(result.get("msg") or "verify_secrets returned no comparison")
        return [finding(host, "secrets", "error", ["the installed secrets were not compared: %s" % why],
                        ["run the verify playbook again with -v to see why verify_secrets stopped"], [SECRET_RULE])]
    found = []
    for entry in result["secrets"]:
        if not isinstance(entry, dict):
            continue
        label = to_text(entry.get("secret"))
        variable = SECRET_VARS.get(label, "kickstart_users" if label.startswith("user:") else "its variable")
        where = entry.get("where") if isinstance(entry.get("where"), dict) else None
        if entry.get("matches") is True:
            found.append(finding(host, label, "accepted", ["the installed hash%s still opens with the vaulted value "
                                                           "of %s" % (place(where), variable)], rules=[SECRET_RULE]))
        elif entry.get("matches") is False:
            found.append(finding(host, label, "rejected",
                                 ["%s: the installed hash%s no longer opens with the vaulted value of %s"
                                  % (SECRET_RULE, place(where), variable)],
                                 ["set the password on the host again from the vault, or put the password in use "
                                  "in the vault (%s)" % variable], [SECRET_RULE], where))
        else:
            found.append(finding(host, label, "not_checked",
                                 ["not compared: %s" % to_text(entry.get("reason") or "no reason given")],
                                 ["compare it by hand"], [SECRET_RULE], where))
    return found


LUKS_HINT = ("a longer passphrase (cryptsetup luksChangeKey), or a costlier key slot (cryptsetup luksConvertKey "
             "--pbkdf argon2id with more --pbkdf-memory); a slot of PBKDF2 or of little memory is the one an attacker "
             "picks")


def luks_findings(host, posture, get, read):
    """The declared LUKS passphrase against the host's own LUKS headers: the offline estimate on the key slot an
    attacker would pick (its parameters as the header states them), below ``kickstart_min_crack_seconds``
    rejected, below ``kickstart_warn_crack_seconds`` weak.  ``get(name)`` is the host's variable templated (or
    ``_MISSING``), ``read(name)`` ``(passphrase, error)`` of a secret variable; nothing is returned of the value."""
    slot = weakest_keyslot(posture.get("devices") or [])
    if slot is None:
        return []
    value, error = read("kickstart_luks_passphrase")
    if value in (None, "") and not error:
        return []  # no passphrase declared: nothing to estimate
    where = {"file": slot.get("device")} if slot.get("device") else None
    if error or not isinstance(value, str):
        return [finding(host, "luks", "not_checked", ["the LUKS passphrase was not estimated: %s" % (
            error or "kickstart_luks_passphrase is not a string")], [], rules=[LUKS_RULE], where=where)]
    estimate = get("kickstart_estimate_options")
    estimate = dict(estimate) if isinstance(estimate, dict) else {}
    # The installed host's own header, not the installer's assumed defaults; the kickstart's copy is judged apart
    # (leftover_secret).
    estimate.update(luks_kdf=slot, luks_in_kickstart=False)
    try:
        options = model_options(estimate, {"product": None if get("kickstart_product") is _MISSING
                                           else get("kickstart_product")}, host, caller="verify")
        warn, least = (seconds_arg(default if get(name) is _MISSING else get(name), name, "verify") for name, default
                       in (("kickstart_warn_crack_seconds", WARN_SECONDS), ("kickstart_min_crack_seconds", 0)))
        entry = secret_entry(secret("luks", "luks", value=value), options)
    except (PwpolicyError, EstimatorMissing) as exc:
        return [finding(host, "luks", "not_checked", ["the LUKS passphrase was not estimated: %s" % exc], [],
                        rules=[LUKS_RULE], where=where)]
    seconds = entry["weakest_seconds"]
    verdict = "accepted"
    if seconds is not None and least and seconds < least:
        verdict = "rejected"
    elif seconds is not None and warn and seconds < warn:
        verdict = "accepted_weak"
    return [finding(host, "luks", verdict, [describe(entry)], [] if verdict == "accepted" else [LUKS_HINT],
                    rules=[LUKS_RULE], where=where)]


def verify_host(host, posture_result, declared, secrets_result=None, luks=None):
    """Every finding of ``host``: ``posture_result`` is what ``posture_info`` registered (None: nothing),
    ``declared`` its :class:`Declared`, ``secrets_result`` what ``verify_secrets`` registered, ``luks(posture)``
    the findings of the declared LUKS passphrase against the host's headers (:func:`luks_findings`)."""
    if not isinstance(posture_result, dict) or not isinstance(posture_result.get("posture"), dict):
        why = to_text((posture_result or {}).get("msg") or "") if isinstance(posture_result, dict) else ""
        return [finding(host, "posture", "error",
                        ["the host's posture was not read%s" % (": %s" % why if why else
                                                                " (posture_info failed, or the host was unreachable "
                                                                "or skipped)")],
                        ["run the verify playbook again with -v to see why posture_info stopped on the host"])]
    posture = posture_result["posture"]
    if declared.problem is not None:
        found = [finding(host, "declared", "error",
                         ["what the inventory declares for this host cannot be read: %s" % declared.problem],
                         ["fix the kickstart role's variables of this host (the role stops on the same)"])]
    else:
        found = target_findings(host, declared, posture)
        judged_found, judged = profile_findings(host, declared, posture)
        found.extend(judged_found)
        found.extend(drift_findings(host, declared, posture, judged))
        found.extend(finding(host, "role settings", "not_checked", [note],
                             ["fix kickstart_target or kickstart_password_hash (the role stops on the same)"], rules=[])
                     for note in declared.notes)
    found.extend(leftover_findings(host, posture))
    found.extend(unknown_findings(host, posture))
    found.extend(secret_findings(host, secrets_result))
    if luks is not None:
        found.extend(luks(posture))
    return found
