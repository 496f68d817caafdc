# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``verify_report`` action: every installed host against what the inventory declares for it, in one report.

Documentation: plugins/modules/verify_report.py.  Meant to run once
(``run_once: true``) on the controller, after ``posture_info`` (``source:
host``) and, optionally, ``verify_secrets`` registered their results on each
host.  The judgement of one host is plugin_utils/_verify.py's, the reports
plugin_utils/_report.py's (the audit's table, JSON, JUnit and SARIF).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import textwrap

from ansible.module_utils.common.text.converters import to_text
from ansible.module_utils.parsing.convert_bool import boolean
from ansible.utils.display import Display

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._action import ActionModuleBase
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._audit_hosts import (
    _MISSING,
    HostsCheck,
    variable_getter,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import check_fail_on, verdict_counts
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._report import (
    WIDTH,
    check_show,
    clean,
    host_failures,
    outcome,
    reports_text,
    shown_table,
    visible,
    write_reports,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import SecretReader
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verify import (
    Declared,
    declare,
    luks_findings,
    template_renderer,
    verify_host,
)

display = Display()

ARGUMENT_SPEC = dict((name, dict(type="raw")) for name in (
    "posture_var", "secrets_var", "hosts", "fail_on", "fail", "json", "junit", "sarif", "show"))
POSTURE_VAR = "__kickstart_verify_posture"
SECRETS_VAR = "__kickstart_verify_secrets"


class ActionModule(ActionModuleBase):
    """Each host's posture judged against its declared profile and settings; table, JSON, JUnit, SARIF, fail_on."""

    NAME = "verify_report"
    ARGUMENT_SPEC = ARGUMENT_SPEC
    _requires_connection = False

    def _registered(self, hostvars, host, var):
        """What ``host`` registered in ``var`` (None when it has nothing there)."""
        if not var:
            return None
        try:
            return self._templar.template(hostvars[host].get(var))
        except Exception:  # pylint: disable=broad-except  # a host without the result is reported, not fatal
            return None

    @staticmethod
    def _variables(check, host):
        """``(task_vars, templar, problem)``: the host's variables, read once for all that is judged of it, and a
        templar for them; ``problem`` (and no variables) when they cannot be read."""
        try:
            task_vars = check.variables(host)
            return task_vars, check.templar.copy_with_new_env(available_variables=task_vars), None
        except PwpolicyError as exc:
            return None, None, str(exc)
        # A crash of one host's reading must not lose the others'; Ansible's text may quote a value.
        except Exception as exc:  # pylint: disable=broad-except
            return None, None, "reading the host's variables stopped on an unexpected %s" % type(exc).__name__

    def _declared(self, task_vars, templar, problem):
        """What the inventory declares for a host; a Declared with the problem when it cannot be read."""
        if problem is None:
            try:
                return declare(templar, task_vars, template_renderer(self._loader))
            except PwpolicyError as exc:
                problem = str(exc)
            # A crash of one host's reading must not lose the others'; Ansible's text may quote a value.
            except Exception as exc:  # pylint: disable=broad-except
                problem = "reading the host's variables stopped on an unexpected %s" % type(exc).__name__
        found = Declared()
        found.problem = problem
        return found

    def _findings(self, args, task_vars):
        """``(findings, hosts)`` of every host of the play."""
        hosts = args.get("hosts")
        if hosts is None:
            hosts = task_vars.get("ansible_play_hosts_all") or []
        if not isinstance(hosts, list):
            raise PwpolicyError("verify_report: hosts must be a list of inventory host names")
        hosts = [to_text(host) for host in hosts]
        hostvars = task_vars.get("hostvars")
        if hostvars is None or not hasattr(hostvars, "raw_get"):
            raise PwpolicyError("verify_report: it needs the inventory's hostvars (run it in a play)")
        posture_var = args.get("posture_var") or POSTURE_VAR
        secrets_var = args.get("secrets_var") or SECRETS_VAR
        for name, value in (("posture_var", posture_var), ("secrets_var", secrets_var)):
            if not isinstance(value, str):
                raise PwpolicyError("verify_report: %s must be the name of a variable" % name)
        check = HostsCheck(self._templar, hostvars, hosts)
        findings = []
        for host in hosts:
            posture = self._registered(hostvars, host, posture_var)
            secrets = self._registered(hostvars, host, secrets_var)
            task_vars, templar, problem = self._variables(check, host)
            luks = self._luks(host, task_vars, templar) if task_vars is not None else None
            found = verify_host(host, posture, self._declared(task_vars, templar, problem), secrets, luks)
            findings.extend(clean(item) for item in found)
        return findings, hosts

    @staticmethod
    def _luks(host, task_vars, templar):
        """``luks(posture)``: the host's declared LUKS passphrase estimated on its own headers (read, and so
        decrypted, only with kickstart_verify_secrets and where the posture has a key slot)."""
        def luks(posture):
            reader = SecretReader(templar.template, templar)
            # The passphrase is read (decrypted) only in a run that compares the secrets, which has the vault.
            if not boolean(templar.template(task_vars.get("kickstart_verify_secrets", False)), strict=False):
                return []
            variable = variable_getter(templar, task_vars)

            def get(name):
                try:
                    return variable(name)
                except Exception:  # pylint: disable=broad-except  # its message may quote a value
                    return _MISSING

            def read(name):
                if task_vars.get(name) is None:
                    return None, None
                value, error, dummy_hint = reader.read(task_vars[name], name)
                return value, error
            return luks_findings(host, posture, get, read)
        return luks

    def _run(self, result, args, task_vars):
        written = {}
        try:
            fail_on = check_fail_on(args.get("fail_on", "rejected"))
            show = check_show(args.get("show", "all"), "verify_report")
            findings, hosts = self._findings(args, task_vars)
            failing, message = outcome(findings, fail_on, hosts)
            text = shown_table(findings, show)
            written = write_reports(args, findings, fail_on, name="kickstart.pwpolicy verify")
        except PwpolicyError as exc:
            result.update(failed=True, msg=str(exc))
            return result
        if text:
            display.display("kickstart.pwpolicy verify (fail_on=%s)\n%s" % (fail_on, text))
        reports = reports_text(written)
        result.update(changed=False, failing=len(failing), summary=verdict_counts(findings), reports=written,
                      fail_on=fail_on, msg=message + reports)
        if failing and boolean(args.get("fail", True), strict=False):
            result["failed"] = True
            return result
        # Not failing here: the message under the table, and what fails where, for a task on each host to fail on
        # (the verify playbook's last play).
        display.display("\n".join(textwrap.wrap(result["msg"], WIDTH, subsequent_indent="    ",
                                                break_long_words=False, break_on_hyphens=False)))
        where = "; the reasons are in the verify table above" if text else ""
        result["failing_hosts"] = dict((host, visible(why) + where + reports)
                                       for host, why in host_failures(findings, fail_on).items())
        return result
