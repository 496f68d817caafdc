# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The pre-flight of one host: its secrets against its policy, as the ``check_secrets`` and ``render_kickstart``
actions run it.

The rules live in plugin_utils/_preflight.py; the secrets are read by
plugin_utils/_secrets_reader.py.  ``CHECK_ARGUMENT_SPEC`` is the arguments
this reads (render_kickstart takes them too, with its own); check_secrets
also takes ``PROFILE_ARGUMENT_SPEC``: a check by compliance profile
(plugin_utils/_profile_check.py) and a blocklist (plugin_utils/_blocklist.py).
Without them, its arguments and results are what they were.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import functools

from ansible.module_utils.common.text.converters import to_text
from ansible.module_utils.parsing.convert_bool import boolean

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import (
    FIELDS,
    NAMES,
    PRODUCTS,
    build_policies,
    normalize_policies,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import hide, leaves
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _blocklist, _profile_check
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._ks_content import bootloader_problems, input_problems
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import (
    check_all,
    check_fail_on,
    delivery_for,
    error_finding,
    failure_message,
    passing_message,
    problem_findings,
    release_facts,
    verdict_counts,
    warnings_for,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._profiles import PROFILES, TARGETS
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import normalize_settings
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._renamed import announce_renamed
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import BOOTLOADER, ROLE_VARS, SECRET_ARGS
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verdict import check_password
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._weakest import (
    WARN_SECONDS,
    host_weakest,
    model_options,
    seconds_arg,
)

# Values that go on kickstart lines but are no secret (the role passes them): checked, never read with role_vars.
INPUT_ARGS = ("content", "root_ssh_keys", "dest", "updates_image", "delivery")
# The role's variables that are no secret, templated as they are (read with role_vars).
PLAIN_ROLE_ARGS = ("product", "target", "pwpolicies", "pwquality_settings", "profile_exceptions", "pwquality_dropin")
# The arguments, in the order the messages give them; every value is templated and converted here (raw).
CHECK_ARGUMENT_SPEC = dict(
    [(name, dict(type="raw", no_log=name in SECRET_ARGS)) for name, _var in ROLE_VARS]
    + [(name, dict(type="raw")) for name in INPUT_ARGS + ("host_label", "fail_on", "fail", "role_vars", "weakest")])
# check_secrets' own: a check by compliance profile, and a blocklist (never read with role_vars).
PROFILE_ARGS = ("profile", "blocklist")
PROFILE_ARGUMENT_SPEC = dict((name, dict(type="raw")) for name in PROFILE_ARGS)
# The keys of the ``weakest`` argument (the weakest_link action's model and floors, for the secrets read here).
WEAKEST_KEYS = ("rounds", "hostname", "base_url", "estimate", "warn_seconds", "min_seconds", "require_estimates",
                "hash", "cost")
# Words of the policy model and the profiles: never secrets, and the messages need them.
SAFE_WORDS = frozenset(NAMES + FIELDS + PRODUCTS + PROFILES + TARGETS)


def hash_options(given, release, hash_estimate=None):
    """The estimate's ``hash``, ``rounds`` and ``cost``: ``hash_estimate`` ((scheme, cost) the caller chose: the
    kickstart's hashes), else ``weakest``'s (``given``), where ``auto`` (or nothing) is what the target's installer
    writes."""
    if hash_estimate is not None:
        scheme, cost = hash_estimate
        return {"hash": scheme, "rounds": cost} if scheme == "sha512crypt" else {"hash": scheme, "cost": cost}
    scheme = given.get("hash", "auto")
    if scheme == "auto":
        scheme = release["password_hash"] if release else "sha512crypt"
    return {"hash": scheme, "rounds": given.get("rounds"), "cost": given.get("cost")}


def add_weakest(result, weakest, fail):
    """The weakest link into ``result``: its fields, its warnings, and a failure below the floor."""
    fields, warnings, failed = weakest
    result["weakest_link"] = fields
    if warnings:
        result["warnings"] = result.get("warnings", []) + warnings
    if failed and fail and not result.get("failed"):
        result.update(failed=True, msg=fields["msg"])


class SecretsCheck(object):
    """One host's pre-flight over the task's ``args`` (checked against CHECK_ARGUMENT_SPEC), read with ``reader``
    (a SecretReader); ``hash_estimate``: (scheme, cost) of the kickstart's hashes when the caller chose them."""

    def __init__(self, reader, args, hash_estimate=None):
        self.reader = reader
        self.args = args
        self.hash_estimate = hash_estimate
        # The role's check by profile (None: not asked for), and why it cannot be made: role_profile() sets them.
        self.profile_view = None
        self.profile_view_problem = None
        self._viewed = False
        # (task_vars, what arguments() made of them): render_kickstart asks before the run and in it.
        self._arguments = None
        # For the kickstart role (role_vars): its messages name the role's variables, without the action's name.
        self.role = False

    def say(self, text):
        """``text`` as the run's error: the role's own, or ``check_secrets: text``."""
        return text if self.role else "check_secrets: %s" % text

    def variable(self, arg):
        """The name of argument ``arg`` in a message: the role's variable (``kickstart_ARG``) for the role."""
        return "kickstart_%s" % arg if self.role else arg

    def hidden(self, exc, plain):
        """The message of ``exc``, prefixed for the run, with the values of ``pwpolicies`` hidden (a secret may sit
        in the wrong place).  The product, the target and the profile are no secrets: they are shown, and an
        unknown profile name is shown only as :func:`._profiles.unknown_profile` allows."""
        return self.say(hide(str(exc), leaves([plain["pwpolicies"]]) - SAFE_WORDS))

    def template(self, value):
        return self.reader.template(value)

    def arguments(self, task_vars):
        """``(raw, names, plain, host, fail_on, fail)`` of the arguments, templated once for ``task_vars``."""
        if self._arguments is not None and self._arguments[0] is task_vars:
            return self._arguments[1]
        args = self.args
        raw, names = self.reader.role_values(args, task_vars, ROLE_VARS)
        self.role = boolean(self.template(args.get("role_vars", False)), strict=False)
        plain = {}
        for arg in PLAIN_ROLE_ARGS + INPUT_ARGS + PROFILE_ARGS:
            value = raw[arg] if arg in raw else args.get(arg)
            plain[arg] = self.template(value) if value is not None else None
        if plain["profile_exceptions"] is None and names.get("profile_exceptions") != "profile_exceptions":
            # Read with role_vars: the role's default (none waived), so that the role, its check entry point,
            # check_secrets and the audit judge one host alike (the role's check by profile).
            plain["profile_exceptions"] = []
        host = args.get("host_label", task_vars.get("inventory_hostname", "localhost"))
        fail_on = check_fail_on(self.template(args.get("fail_on", "rejected")))
        fail = boolean(self.template(args.get("fail", True)), strict=False)
        made = raw, names, plain, to_text(self.template(host)), fail_on, fail
        self._arguments = (task_vars, made)
        return made

    def resolve(self, plain):
        """``(policies, release, problem)``: the effective policies, or why they cannot be resolved."""
        try:
            # With a product its preset, else the target's defaults, under the overrides; all three names.
            return (build_policies(plain["pwpolicies"], product=plain["product"], target=plain["target"],
                                   every_name=True),
                    release_facts(plain["target"]), None)
        except PwpolicyError as exc:
            return {}, None, self.hidden(exc, plain)

    def by_profile(self, plain, policies):
        """``(policies, selection, conflicts, problem)`` of a check by ``profile`` (``policies`` unchanged without
        one): each account's policy is the profiles' merged with what the product and ``pwpolicies`` set, the
        stricter value of each field applying."""
        if not _profile_check.wanted(plain.get("profile")) or not policies:
            return policies, None, [], None
        try:
            selection = self.select(plain)
            overrides = normalize_policies(plain["pwpolicies"])
            merged, notes = {}, list(selection.conflicts)
            for name in NAMES:
                merged[name], found = selection.policy_for(name, _profile_check.given_fields(
                    name, overrides.get(name), plain["product"]))
                notes.extend(found)
            return merged, selection, notes, None
        except PwpolicyError as exc:
            return {}, None, [], self.hidden(exc, plain)

    def select(self, plain):
        """The :class:`._profile_check.Selection` of ``profile`` for ``target``, its errors naming them."""
        return _profile_check.select(plain["profile"], plain["target"], self.variable("profile"),
                                     self.variable("target"))

    def role_profile(self, plain, names):
        """``(view, problem)``: the role's check by profile, a :class:`._profile_check.RoleProfile`, when
        ``profile_exceptions`` is given (the role always gives it, an empty list too), else ``(None, None)``; made
        once.  ``problem`` says why it cannot be made (an unknown profile or rule id, a bad setting)."""
        if not self._viewed:
            self._viewed = True
            if plain.get("profile_exceptions") is not None:
                try:
                    selection = (self.select(plain)
                                 if _profile_check.wanted(plain.get("profile")) else None)
                    self.profile_view = _profile_check.RoleProfile(
                        selection, plain["profile_exceptions"], plain.get("pwquality_settings"),
                        settings_var=names.get("pwquality_settings", "pwquality_settings"),
                        exceptions_var=names.get("profile_exceptions", "profile_exceptions"))
                except PwpolicyError as exc:
                    # The messages name a rule id or a setting given by its position or name, never its value.
                    self.profile_view_problem = self.hidden(exc, plain)
        return self.profile_view, self.profile_view_problem

    def prepare(self, task_vars):
        """The role's check by profile before the run (render_kickstart's hashing needs it): ``(view, problem)``."""
        dummy_raw, names, plain, dummy_host, dummy_fail_on, dummy_fail = self.arguments(task_vars or {})
        return self.role_profile(plain, names)

    def for_role(self, plain, policies, view, names):
        """``(policies, selection, conflicts, problem)`` of the role's check by profile: each account's policy is
        the profiles' merged with the product's preset, then each field of ``pwpolicies`` as given (a looser one
        is a deviation of ``view``)."""
        if view.selection is None or not policies:
            return policies, None, [], None
        try:
            overrides = normalize_policies(plain["pwpolicies"])
        except PwpolicyError as exc:  # resolve() said it already, as a problem
            return {}, None, [], self.hidden(exc, plain)
        merged = {}
        for name in NAMES:
            preset = _profile_check.given_fields(name, None, plain["product"]) if plain["product"] else {}
            merged[name] = view.policy(name, preset, overrides.get(name), names.get("pwpolicies", "pwpolicies"))
        return merged, view.selection, list(view.selection.conflicts), None

    @staticmethod
    def checker(selection, sources, view=None, settings=None, merged=None):
        """The check of each secret: by the profiles' settings (``selection``), or the role's (``view``), with
        the libpwquality ``settings`` given, and the blocklist ``sources``.  ``merged``: what
        ``selection.settings_for(settings)`` gave already (None: worked out here)."""
        if view is not None:
            dummy_every, check, origins = view.pwquality()
            if not check and not sources:
                return check_password
            return functools.partial(check_password, settings=check or None, origins=origins if check else None,
                                     blocklist=sources)
        if selection is None and not settings and not sources:
            return check_password
        if selection is None:
            normalize_settings(settings)  # a bad setting is the task's error, not each secret's
            return functools.partial(check_password, settings=settings or None, blocklist=sources)
        merged, origins, dummy_notes = merged or selection.settings_for(settings)
        return functools.partial(check_password, settings=merged, origins=origins, blocklist=sources)

    @staticmethod
    def findings(host, problems, items, policies, problem, checker=check_password, profile=False):
        """Every finding: the line-value problems, then each secret (an error each when there is no policy)."""
        findings = problem_findings(host, problems)
        if problem is None:
            return findings + check_all(host, items, policies, checker)
        hint = ("fix kickstart_product, kickstart_target, kickstart_pwpolicies or the compliance profile "
                "(kickstart_profile)" if profile else "fix kickstart_product, kickstart_target or kickstart_pwpolicies")
        unresolved = [error_finding(host, item["secret"], None, "its policy could not be resolved: " + problem, hint)
                      for item in items]
        return findings + (unresolved or [error_finding(host, "policy", None, problem, hint)])

    @staticmethod
    def delivery(plain, release):
        """``(flags, refusal)`` for the ``delivery`` argument (``(None, None)`` without it or a release)."""
        if plain["delivery"] is None or release is None:
            return None, None
        try:
            return delivery_for(release, plain["delivery"])
        except PwpolicyError as exc:
            return None, str(exc)

    def weakest(self, host, plain, items, task_vars, release=None):
        """``(fields, warnings, failed)`` of the host's weakest link, from the secrets already read; None without it.

        ``release`` (the release matrix's facts) gives the hash the installer writes and whether the installed
        system keeps a copy of the kickstart that no boot option can stop (``input_ks_copy``, unless ``estimate``
        gives it).
        """
        given = self.template(self.args.get("weakest"))
        if given is None:
            return None
        if not isinstance(given, dict) or set(given) - set(WEAKEST_KEYS):
            raise PwpolicyError("check_secrets: weakest must be a dict with some of %s" % ", ".join(WEAKEST_KEYS))
        given = dict((key, value) for key, value in given.items() if value not in (None, ""))  # empty: the default
        estimate = given.get("estimate")
        if release and isinstance(estimate, (dict, type(None))) and "input_ks_copy" not in (estimate or {}):
            estimate = dict(estimate or {}, input_ks_copy=release["copies_input_kickstart"]
                            and not release["nosave_input_ks"])
        model = {"product": plain["product"], "hostname": given.get("hostname")}
        model.update(hash_options(given, release, self.hash_estimate))
        options = model_options(estimate, model, to_text(task_vars.get("inventory_hostname", "localhost")),
                                caller="check_secrets")
        floors = (seconds_arg(given.get("warn_seconds", WARN_SECONDS), "weakest.warn_seconds", "check_secrets"),
                  seconds_arg(given.get("min_seconds", 0), "weakest.min_seconds", "check_secrets"))
        # A secret that is not a string is a finding of its own (it stops the role): nothing to estimate.
        # The boot loader's password is only compared with the others (host_weakest does not estimate it).
        readable = [item for item in items if isinstance(item["value"], str) and item["value"] and not item["error"]]
        # What is the same for every host (no zxcvbn) is said once, by the first host of the play.
        first = (task_vars.get("ansible_play_hosts") or [task_vars.get("inventory_hostname")])[0]
        return host_weakest(host, readable, options, to_text(given.get("base_url") or ""), floors,
                            boolean(given.get("require_estimates", False), strict=False),
                            notice=to_text(first) == to_text(task_vars.get("inventory_hostname")))

    def run(self, result, task_vars, announce=True):
        """``(result, plain, items)``: the check's result, its templated plain arguments and the secrets read;
        ``announce``: say which deprecated role variables are set (the audit says it once for all hosts)."""
        if announce:
            announce_renamed(task_vars)
        try:
            raw, names, plain, host, fail_on, fail = self.arguments(task_vars or {})
        except PwpolicyError as exc:
            result.update(failed=True, msg=str(exc))
            return result, None, []
        policies, release, problem = self.resolve(plain)
        view, view_problem = self.role_profile(plain, names)
        merged = None  # the profiles' settings merged with pwquality_settings (worked out once)
        if view is not None:
            policies, selection, conflicts, profile_problem = self.for_role(plain, policies, view, names)
        else:
            policies, selection, conflicts, profile_problem = self.by_profile(plain, policies)
            if selection is not None and plain.get("pwquality_settings"):
                try:
                    merged = selection.settings_for(plain["pwquality_settings"])
                    conflicts = conflicts + merged[2]
                except PwpolicyError as exc:
                    profile_problem = profile_problem or self.say("pwquality_settings: %s" % exc)
        problem = problem or view_problem or profile_problem
        try:
            sources = _blocklist.checked_sources(plain.get("blocklist"), required=bool(selection and selection.blocklist))
        except PwpolicyError as exc:  # the path is named: it is where to look
            result.update(failed=True, changed=False, msg=self.say(str(exc)))
            return result, plain, []
        flags, refusal = self.delivery(plain, release)
        context = ", ".join(str(x) for x in (plain["product"], release and release["name"]) if x)
        if refusal is not None:  # before anything else: the role cannot deliver the policies at all
            result.update(failed=True, msg="%s (%s): %s" % (host, context, refusal), changed=False)
            return result, plain, []
        image = plain["updates_image"] if flags is None or flags["updates_image"] else None
        problems = input_problems(plain["content"], None, plain["root_ssh_keys"], plain["dest"], image,
                                  target=plain["target"])
        items = self.reader.secrets(raw, names, problems)
        # Known once it is read (comparing a vaulted value would decrypt it here, outside the reader).
        bootloader = any(item["secret"] == BOOTLOADER for item in items)
        if bootloader and isinstance(plain["content"], dict):
            problems.extend(bootloader_problems(plain["content"]))
        if view is not None and problem is None:
            content = plain["content"] if isinstance(plain["content"], dict) else {}
            dropin = plain.get("pwquality_dropin")
            view.requirements(bootloader, any(item["secret"] == "luks" for item in items), content.get("storage"),
                              dropin in (None, "") or boolean(dropin, strict=False))
        try:
            weakest = self.weakest(host, plain, items, task_vars or {}, release)
        except PwpolicyError as exc:
            result.update(failed=True, changed=False,
                          msg="%s: the weakest link cannot be estimated, nothing has been written: %s" % (host, exc))
            return result, plain, items
        try:
            checker = self.checker(selection, sources, view, plain.get("pwquality_settings"), merged)
        except PwpolicyError as exc:  # the settings given (a check by profile validated them already)
            checker, problem = check_password, problem or self.say("pwquality_settings: %s" % exc)
        # A value that asks less than the profile is a finding that stops the run, as a value no line can carry.
        deviations = view.problems() if view is not None and problem is None else []
        findings = self.findings(host, deviations + problems, items, policies, problem, checker,
                                 profile=_profile_check.wanted(plain.get("profile")))
        message = failure_message(host, findings, fail_on, context or None,
                                  dict((item["secret"], item["variable"]) for item in items if item.get("variable")))
        result.update(changed=False, findings=findings, release=release, summary=verdict_counts(findings), fail_on=fail_on,
                      policies=dict((name, policy.to_dict()) for name, policy in policies.items()))
        if flags is not None:
            result["delivery"] = flags
        weak = warnings_for(findings, fail_on) if fail else []  # with fail=false the caller reports them
        if weak:
            result["warnings"] = ["%s: %s" % (host, text) for text in weak]
        if selection is not None:
            result.update(profile={"names": list(selection.names), "target": selection.target}, conflicts=conflicts)
            if view is not None:
                result["profile"].update(exceptions=list(view.exceptions), deviations=view.errors(),
                                         waived=view.warnings())
                if view.warnings():
                    result["warnings"] = result.get("warnings", []) + ["%s: %s" % (host, text)
                                                                       for text in view.warnings()]
            if conflicts:  # the same words for every host alike: Ansible shows them once
                result["warnings"] = result.get("warnings", []) + [
                    "the compliance profiles %s, the policies or the settings disagree; the stricter value of each "
                    "applies (conflicts): %s" % (selection.label, " | ".join(conflicts))]
        if problem is not None and fail:
            result.update(failed=True, msg=problem)
        elif message is not None:
            result.update(failed=bool(fail), msg=message)
        else:
            result["msg"] = passing_message(host, findings, fail_on)
        if weakest is not None:
            add_weakest(result, weakest, fail)
        # Whether the run may go on, with fail=false too (the kickstart role stops on it with the message alone).
        result["passed"] = problem is None and message is None and not (weakest is not None and weakest[2])
        return result, plain, items
