# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``check_secrets`` action: every secret of one host against its policy, on the controller.

Documentation: plugins/modules/check_secrets.py.  The rules live in
plugin_utils/_preflight.py; this plugin only reads the secrets.

Each secret is templated (and so decrypted) on its own, inside its own
``try``: a vaulted value that this run cannot decrypt, or one that refers to
an undefined variable, becomes an ``error`` finding for that secret and the
others are still checked.  Ansible's own error text is never passed on: it
may quote the value or the vault ciphertext.

Secret arguments are not templated by ansible-core 2.19+ before the plugin
runs (``finalize_task_arg``); ansible-core 2.16 to 2.18 template them before,
which leaves vaulted values encrypted until they are read here, but fails the
task on an undefined variable.  With ``role_vars`` the secrets come untemplated
from the host's variables on every version.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.module_utils.common.text.converters import to_text
from ansible.module_utils.parsing.convert_bool import boolean
from ansible.plugins.action import ActionBase

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError, plain_type
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import FIELDS, NAMES, PRODUCTS, build_policies
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._ks_content import input_problems, user_problems
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import (
    account_label,
    check_all,
    check_fail_on,
    delivery_for,
    error_finding,
    failure_message,
    passing_message,
    problem_findings,
    release_facts,
    secret,
    verdict_counts,
    warnings_for,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import hide, leaves
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._renamed import announce_renamed
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._weakest import (
    WARN_SECONDS,
    host_weakest,
    model_options,
    seconds_arg,
)

# Argument -> the kickstart role's variable it is read from with role_vars.
ROLE_VARS = (
    ("product", "kickstart_product"),
    ("target", "kickstart_target"),
    ("pwpolicies", "kickstart_pwpolicies"),
    ("root_password", "kickstart_root_password"),
    ("users", "kickstart_users"),
    ("luks_passphrase", "kickstart_luks_passphrase"),
)
SECRET_ARGS = ("root_password", "users", "luks_passphrase")
# Values that go on kickstart lines but are no secret (the role passes them): checked, never read with role_vars.
INPUT_ARGS = ("content", "root_ssh_keys", "dest", "updates_image", "delivery")
ARGS = tuple(name for name, _var in ROLE_VARS) + INPUT_ARGS + ("host_label", "fail_on", "fail", "role_vars", "weakest")
# The keys of the ``weakest`` argument (the weakest_link action's model and floors, for the secrets read here).
WEAKEST_KEYS = ("rounds", "hostname", "base_url", "estimate", "warn_seconds", "min_seconds", "require_estimates",
                "hash", "cost")
# Words of the policy model itself: never secrets, and the messages need them.
SAFE_WORDS = frozenset(NAMES + FIELDS + PRODUCTS)

VAULT_ERROR = ("cannot be decrypted with the vault secrets of this run (wrong or missing vault id or password)",
               "run with the vault id and password that encrypted %s (--vault-id LABEL@FILE), "
               "or encrypt it again with ansible-vault")
UNDEFINED_ERROR = ("could not be read: it refers to an undefined variable",
                   "define the variable %s refers to (for example in the vaulted vars file), or remove the secret")
TEMPLATE_ERROR = ("could not be read: templating it failed (Ansible's message is not shown, as it may quote "
                  "the value)", "check the expression that sets %s")


def _error_kind(exc):
    """``(reason, hint)`` for an exception raised while reading a secret, from its class names only."""
    names = []
    seen = 0
    while exc is not None and seen < 10:
        names.extend(cls.__name__ for cls in type(exc).__mro__)
        exc = exc.__cause__ or exc.__context__
        seen += 1
    if any("Vault" in name for name in names):
        return VAULT_ERROR
    if any("Undefined" in name for name in names):
        return UNDEFINED_ERROR
    return TEMPLATE_ERROR


class ActionModule(ActionBase):
    """Check one host's secrets; no module, no connection."""

    TRANSFERS_FILES = False
    _requires_connection = False
    # (scheme, cost) of the kickstart's password hashes when the caller chose them (render_kickstart), else None.
    _hash_estimate = None

    @classmethod
    def finalize_task_arg(cls, name, value, templar, context):
        """ansible-core 2.19+: leave the secrets untemplated, :meth:`_read` templates each on its own."""
        if name in SECRET_ARGS:
            return value
        return super(ActionModule, cls).finalize_task_arg(name, value, templar, context)

    # -- reading ---------------------------------------------------------
    def _template(self, value):
        return self._templar.template(value)

    def _container(self, value):
        """``value`` templated down to its outer list or dict, leaving what it holds untemplated."""
        if isinstance(value, (list, tuple, dict)):
            return value  # already a container: each item is templated on its own
        engine = getattr(self._templar, "_engine", None)
        resolve = getattr(engine, "resolve_to_container", None)
        if resolve is not None:  # ansible-core 2.19+: templating the whole list would decrypt every value
            return resolve(value)
        return self._template(value)  # 2.16-2.18: vaulted values stay encrypted in a templated list

    def _read(self, raw, where):
        """``(text or None, error, hint)`` of one secret; never raises, never repeats Ansible's message."""
        try:
            value = self._template(raw)
            if value is None or isinstance(value, (bool, int, float, list, tuple, dict)):
                return value, None, None
            return to_text(value, errors="surrogate_or_strict"), None, None
        # One secret's failure must not stop the others.
        except Exception as exc:  # pylint: disable=broad-except
            reason, hint = _error_kind(exc)
            return None, reason, hint % where

    def _secrets(self, raw, names, problems):
        """The secrets to check: [secret(...)] in the order root, users, luks."""
        items = []
        if raw["root_password"] is not None:
            value, error, hint = self._read(raw["root_password"], names["root_password"])
            if value is not None or error:
                items.append(secret("root", "root", value=value, user="root", error=error, hint=hint))
        items.extend(self._user_secrets(raw["users"], names["users"], problems))
        if raw["luks_passphrase"] is not None:
            value, error, hint = self._read(raw["luks_passphrase"], names["luks_passphrase"])
            # An empty passphrase means no encryption, as the role renders it: nothing to check.
            if (value is not None and value != "") or error:
                items.append(secret("luks", "luks", value=value, error=error, hint=hint))
        return items

    def _user_secrets(self, raw_users, where, problems):
        """The accounts' secrets; the problems of each entry (name, gecos, groups, keys) go to ``problems``."""
        if raw_users is None:
            return []
        try:
            users = self._container(raw_users)
        except Exception as exc:  # pylint: disable=broad-except
            reason, hint = _error_kind(exc)
            return [secret("users", "user", error=reason, hint=hint % where)]
        if users is None:
            return []
        if not isinstance(users, (list, tuple)):
            return [secret("users", "user", error="is not a list of accounts (got %s)" % plain_type(users),
                           hint="give %s as a list of {name, password}" % where)]
        items = []
        seen = set()
        for index, raw_entry in enumerate(users):
            entry_where = "%s[%d]" % (where, index)
            try:
                entry = self._container(raw_entry)
                # Every field but the password, templated: they are checked as kickstart line values.
                shown = (dict((key, self._template(value)) for key, value in entry.items() if key != "password")
                         if isinstance(entry, dict) else entry)
            except Exception as exc:  # pylint: disable=broad-except
                reason, hint = _error_kind(exc)
                items.append(secret("user[%d]" % index, "user", error=reason, hint=hint % entry_where))
                continue
            found = user_problems(index, shown, seen)
            problems.extend(found)
            unusable = ("kickstart_users[%d]" % index, "kickstart_users[%d].name" % index)
            if any(problem["label"] in unusable for problem in found) or entry.get("password") is None:
                continue  # no account to check, or no password: a locked account
            value, error, hint = self._read(entry["password"], entry_where + ".password")
            if value is None and not error:
                continue
            items.append(secret(account_label(shown["name"]), "user", value=value, user=shown["name"],
                                error=error, hint=hint))
        return items

    # -- arguments -------------------------------------------------------
    def _given(self):
        """The task's arguments this check reads (render_kickstart gives it a part of its own)."""
        return dict(self._task.args)

    def _arguments(self, task_vars):
        args = self._given()
        unknown = sorted(str(key) for key in args if key not in ARGS)
        if unknown:
            raise PwpolicyError("check_secrets: unknown argument(s) %s; valid arguments are %s"
                                % (", ".join(unknown), ", ".join(ARGS)))
        role_vars = boolean(self._template(args.get("role_vars", False)), strict=False)
        raw, names = {}, {}
        for arg, var in ROLE_VARS:
            if arg in args:
                raw[arg], names[arg] = args[arg], arg
            elif role_vars:
                raw[arg], names[arg] = task_vars.get(var), var
            else:
                raw[arg], names[arg] = None, arg
        plain = {}
        for arg in ("product", "target", "pwpolicies") + INPUT_ARGS:
            value = raw[arg] if arg in raw else args.get(arg)
            plain[arg] = self._template(value) if value is not None else None
        host = args.get("host_label", task_vars.get("inventory_hostname", "localhost"))
        fail_on = check_fail_on(self._template(args.get("fail_on", "rejected")))
        fail = boolean(self._template(args.get("fail", True)), strict=False)
        return raw, names, plain, to_text(self._template(host)), fail_on, fail

    def _resolve(self, plain):
        """``(policies, release, problem)``: the effective policies, or why they cannot be resolved."""
        try:
            # With a product its preset, else the target's defaults, under the overrides; all three names.
            return (build_policies(plain["pwpolicies"], product=plain["product"], target=plain["target"],
                                   every_name=True),
                    release_facts(plain["target"]), None)
        except PwpolicyError as exc:
            # No value given is repeated: a secret may sit in the wrong place.
            given = [plain[arg] for arg in ("product", "target", "pwpolicies")]
            return {}, None, "check_secrets: %s" % hide(str(exc), leaves(given) - SAFE_WORDS)

    @staticmethod
    def _findings(host, problems, items, policies, problem):
        """Every finding: the line-value problems, then each secret (an error each when there is no policy)."""
        findings = problem_findings(host, problems)
        if problem is None:
            return findings + check_all(host, items, policies)
        hint = "fix kickstart_product, kickstart_target or kickstart_pwpolicies"
        unresolved = [error_finding(host, item["secret"], None, "its policy could not be resolved: " + problem, hint)
                      for item in items]
        return findings + (unresolved or [error_finding(host, "policy", None, problem, hint)])

    @staticmethod
    def _delivery(plain, release):
        """``(flags, refusal)`` for the ``delivery`` argument (``(None, None)`` without it or a release)."""
        if plain["delivery"] is None or release is None:
            return None, None
        try:
            return delivery_for(release, plain["delivery"])
        except PwpolicyError as exc:
            return None, str(exc)

    def _hash_options(self, given, release):
        """The estimate's ``hash``, ``rounds`` and ``cost``: the caller's choice, else ``weakest``'s, where ``auto``
        (or nothing) is what the target's installer writes."""
        if self._hash_estimate is not None:
            scheme, cost = self._hash_estimate
            return {"hash": scheme, "rounds": cost} if scheme == "sha512crypt" else {"hash": scheme, "cost": cost}
        scheme = given.get("hash", "auto")
        if scheme == "auto":
            scheme = release["password_hash"] if release else "sha512crypt"
        return {"hash": scheme, "rounds": given.get("rounds"), "cost": given.get("cost")}

    def _weakest(self, host, plain, items, task_vars, release=None):
        """``(fields, warnings, failed)`` of the host's weakest link, from the secrets already read; None without it.

        ``release`` (the release matrix's facts) gives the hash the installer writes and whether the installed
        system keeps a copy of the kickstart that no boot option can stop (``input_ks_copy``, unless ``estimate``
        gives it).
        """
        given = self._template(self._given().get("weakest"))
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
        model.update(self._hash_options(given, release))
        options = model_options(estimate, model, to_text(task_vars.get("inventory_hostname", "localhost")),
                                caller="check_secrets")
        floors = (seconds_arg(given.get("warn_seconds", WARN_SECONDS), "weakest.warn_seconds", "check_secrets"),
                  seconds_arg(given.get("min_seconds", 0), "weakest.min_seconds", "check_secrets"))
        # A secret that is not a string is a finding of its own (it stops the role): nothing to estimate.
        readable = [item for item in items if isinstance(item["value"], str) and item["value"] and not item["error"]]
        # What is the same for every host (no zxcvbn) is said once, by the first host of the play.
        first = (task_vars.get("ansible_play_hosts") or [task_vars.get("inventory_hostname")])[0]
        return host_weakest(host, readable, options, to_text(given.get("base_url") or ""), floors,
                            boolean(given.get("require_estimates", False), strict=False),
                            notice=to_text(first) == to_text(task_vars.get("inventory_hostname")))

    def _add_weakest(self, result, weakest, fail):
        """The weakest link into ``result``: its fields, its warnings, and a failure below the floor."""
        fields, warnings, failed = weakest
        result["weakest_link"] = fields
        if warnings:
            result["warnings"] = result.get("warnings", []) + warnings
        if failed and fail and not result.get("failed"):
            result.update(failed=True, msg=fields["msg"])

    # -- run -------------------------------------------------------------
    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        del tmp
        return self._check(result, task_vars)[0]

    def _check(self, result, task_vars):
        """``(result, plain, items)``: the check's result, its templated plain arguments and the secrets read."""
        announce_renamed(task_vars)
        try:
            raw, names, plain, host, fail_on, fail = self._arguments(task_vars or {})
        except PwpolicyError as exc:
            result.update(failed=True, msg=str(exc))
            return result, None, []
        policies, release, problem = self._resolve(plain)
        flags, refusal = self._delivery(plain, release)
        context = ", ".join(str(x) for x in (plain["product"], release and release["name"]) if x)
        if refusal is not None:  # before anything else: the role cannot deliver the policies at all
            result.update(failed=True, msg="%s (%s): %s" % (host, context, refusal), changed=False)
            return result, plain, []
        image = plain["updates_image"] if flags is None or flags["updates_image"] else None
        problems = input_problems(plain["content"], None, plain["root_ssh_keys"], plain["dest"], image,
                                  target=plain["target"])
        items = self._secrets(raw, names, problems)
        try:
            weakest = self._weakest(host, plain, items, task_vars or {}, release)
        except PwpolicyError as exc:
            result.update(failed=True, changed=False,
                          msg="%s: the weakest link cannot be estimated, nothing has been written: %s" % (host, exc))
            return result, plain, items
        findings = self._findings(host, problems, items, policies, problem)
        message = failure_message(host, findings, fail_on, context or None)
        result.update(changed=False, findings=findings, release=release, summary=verdict_counts(findings), fail_on=fail_on,
                      policies=dict((name, policy.to_dict()) for name, policy in policies.items()))
        if flags is not None:
            result["delivery"] = flags
        weak = warnings_for(findings, fail_on) if fail else []  # with fail=false the caller reports them
        if weak:
            result["warnings"] = ["%s: %s" % (host, text) for text in weak]
        if problem is not None and fail:
            result.update(failed=True, msg=problem)
        elif message is not None:
            result.update(failed=bool(fail), msg=message)
        else:
            result["msg"] = passing_message(host, findings, fail_on)
        if weakest is not None:
            self._add_weakest(result, weakest, fail)
        return result, plain, items
