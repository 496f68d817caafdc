# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``audit_report`` action: one report over every host's ``check_secrets`` findings and every file's secrets.

Documentation: plugins/modules/audit_report.py.  The report code lives in
plugin_utils/_report.py, the files' reading in plugin_utils/_audit_files.py.
Meant to run once (``run_once: true``) on the controller; it reads each
host's registered ``check_secrets`` result and the files ``paths`` match.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import textwrap

from ansible import context
from ansible.module_utils.common.text.converters import to_text
from ansible.module_utils.parsing.convert_bool import boolean
from ansible.utils.display import Display

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._action import ActionModuleBase
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._audit_files import AuditFilesError, audit_files
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._audit_hosts import (
    HostsCheck,
    audit_warnings,
    processes_for,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import check_fail_on, verdict_counts
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._report import (
    WIDTH,
    check_show,
    clean,
    files_failure,
    gather,
    host_failures,
    outcome,
    reports_text,
    shown_table,
    visible,
    write_reports,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._weakest import weakest_table

display = Display()

# The arguments, in the order the messages give them; every value is read here as it is (raw).
ARGUMENT_SPEC = dict((name, dict(type="raw")) for name in (
    "result_var", "hosts", "findings", "fail_on", "fail", "json", "junit", "show", "weakest_var",
    "paths", "templates", "budget", "sarif", "role_vars", "weakest", "profile", "target", "baseline"))
# The reports, in the order the message names them.


class ActionModule(ActionModuleBase):
    """Table, JSON, JUnit and SARIF over all hosts' and files' findings; fails per fail_on."""

    NAME = "audit_report"
    ARGUMENT_SPEC = ARGUMENT_SPEC
    _requires_connection = False

    def _hosts(self, args, task_vars):
        hosts = args.get("hosts")
        if hosts is None:
            hosts = task_vars.get("ansible_play_hosts_all") or []
        if not isinstance(hosts, list):
            raise PwpolicyError("audit_report: hosts must be a list of inventory host names")
        return [to_text(host) for host in hosts]

    def _registered(self, hosts, var, task_vars):
        """Each host's result registered in ``var`` (None when it has none)."""
        hostvars = task_vars.get("hostvars") or {}
        results = {}
        for host in hosts:
            try:
                results[host] = self._templar.template(hostvars[host].get(var))
            # A host without the result is reported, not fatal.
            except Exception:  # pylint: disable=broad-except
                results[host] = None
        return results

    def _checked(self, hosts, task_vars):
        """``(results, warnings, stopped)``: each host's check, made here (role_vars), the warnings of those
        checks, and the message of each host whose check could not run (a bad blocklist path, say)."""
        hostvars = task_vars.get("hostvars")
        if hostvars is None or not hasattr(hostvars, "raw_get"):
            raise PwpolicyError("audit_report: role_vars needs the inventory's hostvars (run it in a play)")
        results = HostsCheck(self._templar, hostvars, hosts).run(processes_for(context.CLIARGS.get("forks")))
        stopped = []
        for host in hosts:
            found = results.get(host) or {}
            if found.get("failed"):  # a host's task failed with this message
                message = to_text(found.get("msg") or "the check failed")
                stopped.append((host, message[len(host) + 2:] if message.startswith(host + ": ") else message))
        return results, audit_warnings(hosts, results), stopped

    @staticmethod
    def _stopped_message(stopped, hosts):
        """One line for the checks that could not run: each message once, with the hosts it stopped."""
        by_message = {}
        for host, message in stopped:
            by_message.setdefault(message, []).append(host)
        return "the check could not run on %d of %d hosts: %s" % (
            len(stopped), len(hosts), "; ".join("%s: %s" % (", ".join(names), message)
                                                for message, names in by_message.items()))

    def _findings(self, args, task_vars):
        """``(findings, hosts, results, warnings, stopped)``: ``results`` is each host's check (None from
        ``findings``), ``stopped`` what :meth:`_checked` says of the checks that could not run."""
        if args.get("findings") is not None:
            if not isinstance(args["findings"], list):
                raise PwpolicyError("audit_report: findings must be a list of findings")
            return [clean(finding) for finding in args["findings"]], None, None, [], []
        if boolean(args.get("role_vars", False), strict=False):
            hosts = self._hosts(args, task_vars)
            results, warnings, stopped = self._checked(hosts, task_vars)
            return gather(results, hosts), hosts, results, warnings, stopped
        var = args.get("result_var")
        if not isinstance(var, str) or not var:
            raise PwpolicyError("audit_report: give role_vars (check each host here), result_var (the variable "
                                "check_secrets registered on each host) or findings")
        hosts = self._hosts(args, task_vars)
        results = self._registered(hosts, var, task_vars)
        return gather(results, hosts), hosts, results, [], []

    @staticmethod
    def _weakest(hosts, results):
        """Each host's weakest link (``results``: its weakest_link or check_secrets result), reduced to the report's."""
        reports = []
        for host in hosts:
            found = results.get(host) or {}
            # A check_secrets result holds the weakest link under weakest_link (its weakest option).
            found = found.get("weakest_link") or {} if "findings" in found else found
            reports.append({"host": host, "weakest": found.get("weakest"),
                            "below_floor": bool(found.get("below_floor")), "note": found.get("msg"),
                            "reused": found.get("reused") or []})
        return reports

    def _weakest_of(self, args, hosts, results, task_vars):
        """Each host's weakest link for the report, or None: from the results registered in ``weakest_var`` (read
        once: those of ``result_var`` when it names the same variable), or from the checks made here (``weakest``)."""
        var = args.get("weakest_var")
        if var:
            if hosts is None:  # the findings were given: the hosts are the play's
                hosts = self._hosts(args, task_vars)
            registered = results is not None and var == args.get("result_var") \
                and not boolean(args.get("role_vars", False), strict=False)
            return self._weakest(hosts, results if registered else self._registered(hosts, var, task_vars))
        if results is not None and boolean(args.get("weakest", False), strict=False):
            return self._weakest(hosts, results)
        return None

    def _run(self, result, args, task_vars):
        written = {}
        files, warnings = None, []
        try:
            fail_on = check_fail_on(args.get("fail_on", "rejected"))
            show = check_show(args.get("show", "all"), "audit_report")
            findings, hosts, results, warnings, stopped = self._findings(args, task_vars)
            if args.get("paths") is not None:
                try:
                    found, files, file_warnings = audit_files(
                        args["paths"], args.get("templates"), args.get("budget"), profile=args.get("profile"),
                        target=args.get("target"), baseline=args.get("baseline"))
                except AuditFilesError as exc:
                    raise PwpolicyError("audit_report: %s" % exc)
                findings = findings + found
                warnings = warnings + file_warnings
            failing, message = outcome(findings, fail_on, hosts, files)
            text = shown_table(findings, show)
            written = write_reports(args, findings, fail_on)
        except PwpolicyError as exc:
            result.update(failed=True, msg=str(exc))
            return result
        if text:
            display.display("kickstart.pwpolicy audit (fail_on=%s)\n%s" % (fail_on, text))
        failures = host_failures(findings, fail_on)
        weakest = self._weakest_of(args, hosts, results, task_vars)
        if weakest:  # the weakest link of each host (plugin_utils/_weakest.py)
            display.display("kickstart.pwpolicy weakest links\n%s" % weakest_table(weakest))
            below = [report for report in weakest if report["below_floor"]]
            failing = failing + [report["host"] for report in below]
            message += "; below kickstart_min_crack_seconds: %s" % ", ".join(r["host"] for r in below) if below else ""
            for report in below:
                found = report.get("weakest") or {}
                failures[report["host"]] = "; ".join(part for part in (failures.get(report["host"]), (
                    "weakest link below kickstart_min_crack_seconds: %s (%s, about %s)"
                    % (found.get("secret"), found.get("attack"), found.get("time")))) if part)
        if stopped:  # as each host's own task did: a check that cannot run fails the audit, whatever fail_on says
            message = "%s; %s" % (self._stopped_message(stopped, hosts), message)
            for host, why in stopped:
                failures[host] = "the check could not run: %s" % why
        reports = reports_text(written)
        result.update(
            changed=False,
            failing=len(failing),
            summary=verdict_counts(findings),
            reports=written,
            fail_on=fail_on,
            msg=message + reports,
        )
        if files is not None:
            result["files"] = len(files)
        if warnings:
            result["warnings"] = warnings
        if (failing or stopped) and boolean(args.get("fail", True), strict=False):
            # Ansible prints a failed result whole: keep it to the message and the counts
            # (the tables above already show every host).
            result["failed"] = True
            return result
        # Not failing here (fail=false, or nothing fails): the message under the tables, and what fails where, for
        # a task on each host to fail on (the audit playbook's last play).
        display.display("\n".join(textwrap.wrap(result["msg"], WIDTH, subsequent_indent="    ",
                                                break_long_words=False, break_on_hyphens=False)))
        where = "; the reasons are in the audit's table above" if text else ""
        result["failing_hosts"] = dict((host, visible(why) + where + reports) for host, why in failures.items())
        result["failing_files"] = None
        if files is not None:
            why = files_failure(findings, fail_on, files)
            result["failing_files"] = why + where + reports if why else None
        if weakest is not None:
            result["weakest"] = weakest
        return result
