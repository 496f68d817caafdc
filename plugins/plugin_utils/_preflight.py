# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Pre-flight of one host's secrets: every secret checked against its effective policy.

This is the Python behind the ``check_secrets`` action plugin (the role's own
pre-flight, its ``check`` entry point and the ``audit`` playbook all use it).

A host has up to three kinds of secret, each with a label: ``root`` (policy
``root``), ``user:NAME`` for each account (policy ``user``, libpwquality gets
the account name) and ``luks`` (policy ``luks``).  The caller reads each
secret's value (templating and decrypting it) and hands over either the
text or the reason it could not be read; this module turns them into
*findings*::

    {host, secret, verdict, ok, score, strength, reasons, hints, policy}

``verdict`` is ``accepted``, ``accepted_weak``, ``rejected`` or ``error`` (the
secret could not be read or checked).  No finding, message or error holds a
secret or any part of one: every word comes from this collection.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError, plain_type
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._blocklist import BlocklistError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._ks_content import secret_problems
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import release_info
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verdict import check_password

FAIL_ON = ("rejected", "weak", "never")
# From least to most severe.  not_checked: a value a template fills in, which nothing can judge; unparsed: a
# hash no scheme reads (the installer writes it as it is, and no password opens the account): files only.
VERDICTS = ("accepted", "not_checked", "accepted_weak", "unparsed", "rejected", "error")
# Which verdicts stop a run, per fail_on.
TRIPS = {
    "rejected": ("rejected", "error"),
    "weak": ("accepted_weak", "unparsed", "rejected", "error"),
    "never": (),
}


class PreflightError(PwpolicyError):
    """The pre-flight's own input is wrong (fail_on, a users list that is not a list...)."""


def check_fail_on(fail_on):
    """Validate ``fail_on``; returns it (``None`` means ``rejected``)."""
    if fail_on is None:
        return "rejected"
    if not isinstance(fail_on, str) or fail_on not in FAIL_ON:
        raise PreflightError("fail_on must be one of %s, got %r" % (", ".join(FAIL_ON), fail_on))
    return fail_on


def release_facts(target):
    """The release matrix entry of ``target`` (``None`` when no target is given)."""
    if target is None or target == "":
        return None
    return release_info(target)


DELIVERIES = ("auto", "section", "updates_image", "both")


def delivery_for(release, delivery):
    """``(flags, problem)``: what carries the policies to ``release`` for the role's ``delivery`` choice.

    ``flags`` is ``{section, updates_image}`` (booleans); ``problem`` says why
    the release's installer cannot take the chosen delivery (``None`` when it
    can).  ``auto`` picks what the release reads.
    """
    if delivery not in DELIVERIES:
        raise PreflightError("kickstart_policy_delivery must be one of %s, got %r" % (", ".join(DELIVERIES), delivery))
    section = delivery in ("section", "both") or (delivery == "auto" and release["section"])
    image = delivery in ("updates_image", "both") or (delivery == "auto" and not release["section"])
    problem = None
    if section and not release["section"]:
        problem = "ignores a %anaconda pwpolicy section"
    elif image and not release["anaconda_conf"]:
        problem = "does not read password policies from anaconda configuration"
    if problem:
        problem = ("kickstart_policy_delivery=%s cannot reach this installer: %s %s. "
                   "Use auto, which picks what the target reads (%s)."
                   % (delivery, release["label"], problem, release["delivery"]))
    return {"section": bool(section), "updates_image": bool(image)}, problem


# ---------------------------------------------------------------------------
# Secrets as the caller hands them over
# ---------------------------------------------------------------------------
def secret(label, policy, value=None, user=None, error=None, hint=None, variable=None):
    """One secret to check: its text (``value``), or why it could not be read (``error``, ``hint``); ``variable``
    names where it was read from, for the messages."""
    return {"secret": label, "policy": policy, "value": value, "user": user, "error": error, "hint": hint,
            "variable": variable}


def account_label(name):
    """The label of an account's secret: ``user:NAME``."""
    return "user:%s" % name


# ---------------------------------------------------------------------------
# Findings
# ---------------------------------------------------------------------------
def _finding(host, label, effective, **fields):
    finding = {"host": host, "secret": label, "verdict": "error", "ok": False, "score": 0,
               "strength": None, "reasons": [], "hints": [],
               "policy": effective.to_dict() if effective is not None else None}
    finding.update(fields)
    return finding


def error_finding(host, label, policy, reason, hint):
    """A finding for a secret that could not be read or checked."""
    return _finding(host, label, policy, reasons=[reason], hints=[hint])


def problem_findings(host, problems):
    """``error`` findings for input problems (``{label, reasons, hints}``, as plugin_utils._ks_content finds them)."""
    return [_finding(host, problem["label"], None, reasons=list(problem["reasons"]), hints=list(problem["hints"]),
                     stops=True)
            for problem in problems]


def check_one(host, item, policies, checker=check_password):
    """The finding for one secret handed over by :func:`secret`."""
    policy = policies.get(item["policy"])
    if item.get("error"):
        return error_finding(host, item["secret"], policy, item["error"],
                             item.get("hint") or "fix the variable that holds this secret")
    value = item.get("value")
    if not isinstance(value, str):
        # Never checked, so never rendered (the role would write "True" or "12345" as the secret): it stops.
        found = error_finding(host, item["secret"], policy, "is not a string (got %s)" % plain_type(value),
                              "give the secret as a string or a vaulted string (quote it in YAML)")
        found["stops"] = True
        return found
    try:
        report = checker(value, policy, user=item.get("user"))
    except BlocklistError as exc:
        # Names the blocklist, never the password, its hash or the range file it needed.
        return error_finding(host, item["secret"], policy, "could not be checked: %s" % exc,
                             "fix or replace the blocklist, then run again")
    except PwpolicyError as exc:
        # The check's own errors never hold the password (the verdict module's promise).
        return error_finding(host, item["secret"], policy, "could not be checked: %s" % exc,
                             "fix the controller's libpwquality set-up, then run again")
    finding = _finding(host, item["secret"], policy,
                       verdict=report["verdict"], ok=report["ok"], score=report["score"],
                       strength=report["strength"], reasons=list(report["reasons"]),
                       hints=list(report["hints"]), policy=report["policy"])
    for problem in ([] if "\0" in value else secret_problems(item["secret"], value)):
        # What no kickstart line can carry stops the role whatever the policy says.
        finding["reasons"].extend(problem["reasons"])
        finding["hints"].extend(problem["hints"])
        finding.update(verdict="rejected", ok=False, stops=True)
    return finding


def check_all(host, items, policies, checker=check_password):
    """Findings for every secret of one host, in the order given."""
    return [check_one(host, item, policies, checker) for item in items]


def trips(finding, fail_on):
    """Whether ``finding`` stops a run under ``fail_on``.

    A value that no kickstart line can carry (``stops``) stops it under any
    ``fail_on``: rendering it would add lines to the kickstart.  A finding a
    baseline waives (``waived``) stops nothing.
    """
    if finding.get("waived"):  # a baseline waives it: reported, never failing
        return False
    return bool(finding.get("stops")) or finding["verdict"] in TRIPS[check_fail_on(fail_on)]


def is_secret(finding):
    """Whether ``finding`` is of a secret: not of a value that no kickstart line can carry (``kickstart_dest``, an
    entry of ``kickstart_content``), of a value that asks less than a compliance profile, or of policies that
    cannot be resolved when there is no secret."""
    if finding.get("policy") is not None:
        return True
    return not finding.get("stops") and finding["secret"] != "policy"


def _describe(finding, variable=None):
    """One line: the variable (when known), the secret and its policy, the verdict and every reason."""
    name = (finding.get("policy") or {}).get("name")
    head = finding["secret"] + (" (policy %s)" % name if name else "")
    if variable and variable != finding["secret"]:
        head = "%s: %s" % (variable, head)
    if is_secret(finding):  # a line value or a deviation has no verdict
        head += ": " + finding["verdict"]
    return "%s: %s" % (head, "; ".join(finding["reasons"]) or "no reason given")


def _hints(failing):
    """Each hint once, with the secrets or values it is for: ``add a digit (user:alice, luks)``."""
    order, whose = [], {}
    for finding in failing:
        for hint in finding["hints"]:
            if hint not in whose:
                order.append(hint)
                whose[hint] = []
            if finding["secret"] not in whose[hint]:
                whose[hint].append(finding["secret"])
    return ["%s (%s)" % (hint, ", ".join(whose[hint])) if len(failing) > 1 else hint for hint in order]


def warnings_for(findings, fail_on):
    """One warning per weak secret a non-strict policy accepts (when fail_on lets it pass)."""
    return ["%s: accepted by a policy that is not strict, but weak: %s. What to do: %s"
            % (f["secret"], "; ".join(f["reasons"]), "; ".join(f["hints"]))
            for f in findings if f["verdict"] == "accepted_weak" and not trips(f, fail_on)]


def _counted(count, word):
    return "%d %s%s" % (count, word, "" if count == 1 else "s")


def failure_message(host, findings, fail_on, context=None, variables=None):
    """One message for every finding that trips ``fail_on`` (``None`` when none does): a head line that counts the
    secrets (and the other values) that fail, one line per secret or value, then each hint once.

    ``context`` names the run, for example ``server, F40``; ``variables`` maps a secret's label to the variable it
    was read from (``root`` to ``kickstart_root_password``), which its line names.
    """
    failing = [f for f in findings if trips(f, fail_on)]
    if not failing:
        return None
    where = host + (" (%s)" % context if context else "")
    secrets = [f for f in findings if is_secret(f)]
    bad = [f for f in failing if is_secret(f)]
    others = len(failing) - len(bad)
    counted = []
    if secrets or not others:
        counted.append("%d of %s" % (len(bad), _counted(len(secrets), "secret")))
    if others:
        counted.append(_counted(others, "other value" if counted else "value"))
    lines = ["%s: %s fail%s (fail_on=%s):" % (where, " and ".join(counted),
                                              "s" if len(failing) == 1 and len(counted) == 1 else "", fail_on)]
    lines.extend("  " + _describe(f, (variables or {}).get(f["secret"])) for f in failing)
    hints = _hints(failing)
    if hints:
        lines.append("What to do:")
        lines.extend("  " + hint for hint in hints)
    return "\n".join(lines)


def passing_message(host, findings, fail_on):
    """The one-line summary of a run in which no finding trips ``fail_on``."""
    return "%s: %d %s checked, none fails (fail_on=%s): %s" % (
        host, len(findings), "secret" if len(findings) == 1 else "secrets", fail_on,
        verdict_counts_text(findings) or "nothing to check")


def verdict_counts_text(findings):
    """How many findings have each verdict, in words (``2 accepted, 1 rejected``); empty without findings."""
    counts = verdict_counts(findings)
    return ", ".join("%d %s" % (counts[verdict], verdict) for verdict in VERDICTS if counts.get(verdict))


# The verdicts every summary counts (a host's secrets have no others); not_checked and unparsed where any is.
ALWAYS_COUNTED = ("accepted", "accepted_weak", "rejected", "error")


def verdict_counts(findings):
    """Counts of each verdict."""
    counts = dict((verdict, 0) for verdict in ALWAYS_COUNTED)
    for finding in findings:
        counts[finding["verdict"]] = counts.get(finding["verdict"], 0) + 1
    return counts
