#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

# Documentation only: the work is done on the controller by the action plugin
# plugins/action/verify_report.py.

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: verify_report
short_description: Every installed host against what the inventory declares for it, as the audit's table, JSON,
  JUnit XML and SARIF
version_added: 0.3.0
description:
  - Reads the posture M(kickstart.pwpolicy.posture_info) (with O(kickstart.pwpolicy.posture_info#module:source=host))
    registered on each host, and judges it on the controller against what the inventory declares for that host, read
    as the C(kickstart.pwpolicy.audit) playbook reads it (the host's C(kickstart) role variables as the inventory gives
    them; no secret is read).
  - "What is judged: C(kickstart_target) against the release C(/etc/os-release) names (rule
    C(kickstart.pwpolicy.target)); the posture against C(kickstart_profile) with C(kickstart_profile_exceptions), by
    the same judge as M(kickstart.pwpolicy.posture_info); each libpwquality setting and C(/etc/login.defs) line the
    C(kickstart) role writes for the host (from C(kickstart_profile), C(kickstart_pwpolicies),
    C(kickstart_pwquality_settings) and C(kickstart_password_hash), through the role's own template) that the host no
    longer enforces (the profile's rule, else C(kickstart.pwpolicy.pwquality.KEY) or
    C(kickstart.pwpolicy.login_defs.KEY)); each kickstart or installer log left that keeps secrets (rule
    C(kickstart.pwpolicy.leftover_secret)); and, when the host registered one, the comparison of the installed
    secrets with the vaulted values (rule C(kickstart.pwpolicy.secret_changed))."
  - Each deviation is a V(rejected) finding with its rule ids, what was found (with the file and line on the host) and
    what was expected, and the fix; a deviation C(kickstart_profile_exceptions) waives is reported as waived and fails
    nothing. What the host's reader could not read and what the judge could not check are V(not_checked) findings;
    each part that passes is one V(accepted) finding.
  - Prints the audit's table, writes the JSON, JUnit XML and SARIF reports, and fails when a finding trips O(fail_on)
    (and O(fail) is true). With O(fail=false) it returns RV(failing_hosts) for a task on each host to fail on, as the
    C(kickstart.pwpolicy.verify) playbook's last play does.
  - This is a task of the C(kickstart.pwpolicy.verify) playbook; run it once (C(run_once=true)) on the controller.
  - Findings never hold a secret or a hash, and nothing here adds one.
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - ansible.builtin.action_common_attributes.conn
  - ansible.builtin.action_common_attributes.flow
  - kickstart.pwpolicy.controller_action
options:
  posture_var:
    description:
      - The variable each host registered the M(kickstart.pwpolicy.posture_info) result in. A host without it (its
        task failed, or it was unreachable) gets an V(error) finding.
    type: str
    default: __kickstart_verify_posture
  secrets_var:
    description:
      - The variable each host registered its comparison of the installed secrets with the vaulted values in
        (C(secrets), a list of C(secret), C(where), C(matches) and C(reason)). A host without it, or whose task was
        skipped, has no such findings. C(matches=false) is a V(rejected) finding; C(matches=null) is V(not_checked)
        with its reason.
    type: str
    default: __kickstart_verify_secrets
  hosts:
    description:
      - The inventory hosts to report on. Defaults to C(ansible_play_hosts_all).
    type: list
    elements: str
  fail_on:
    description:
      - Which findings fail the task. V(rejected) fails on V(rejected) and V(error) (a deviation is V(rejected));
        V(weak) also on V(accepted_weak); V(never) on nothing.
    type: str
    choices: [rejected, weak, never]
    default: rejected
  fail:
    description:
      - Fail the task when a finding trips O(fail_on).
      - With V(false), the task reports and returns RV(failing_hosts) instead.
    type: bool
    default: true
  json:
    description:
      - Write the findings as a JSON list to this path on the controller, one object per finding with the keys of
        M(kickstart.pwpolicy.audit_report)'s hosts (C(host), C(secret), C(verdict), C(ok), C(score), C(strength),
        C(reasons), C(hints), C(policy)), then C(rules) (the rule ids; the first is the finding's rule) and, where it
        was found, C(file) (the path on the host) and C(line); a waived deviation has C(waived) and C(waiver). Its
        directory must exist.
    type: path
  junit:
    description:
      - Write JUnit XML to this path on the controller, one C(testsuite) per host, one C(testcase) per finding, a
        C(failure) for each that trips O(fail_on) and C(skipped) for each not checked or waived. Its directory must
        exist.
    type: path
  sarif:
    description:
      - Write a SARIF 2.1.0 log to this path on the controller. Its directory must exist.
      - It holds one result per finding that is not V(accepted) and names a file on the host, its rule the finding's
        rule id (described in the driver's rules), located at C(file://HOST/path/on/host) (the RFC 8089 form that
        names the host) and the line, with the host and every rule id in its properties; a waived deviation has a
        C(suppressions) entry.
    type: path
  show:
    description:
      - Which rows the table shows. V(problems) leaves out the V(accepted) findings; V(none) prints no table.
    type: str
    choices: [all, problems, none]
    default: all
notes:
  - The reports are written in check mode too; they are the point of the run.
  - The reports are written atomically with mode C(0644), since they hold no secret and CI systems collect them.
seealso:
  - module: kickstart.pwpolicy.posture_info
  - module: kickstart.pwpolicy.audit_report
  - ref: ansible_collections.kickstart.pwpolicy.docsite.verify
    description: The verify playbook, what it reads and judges, its variables and reports.
"""

EXAMPLES = r"""
- name: Read what each installed host enforces
  kickstart.pwpolicy.posture_info:
    source: host
  become: true
  register: installed

- name: Judge every host against what the inventory declares, and write the reports
  kickstart.pwpolicy.verify_report:
    posture_var: installed
    json: "{{ playbook_dir }}/reports/verify.json"
    sarif: "{{ playbook_dir }}/reports/verify.sarif"
  run_once: true
  delegate_to: localhost
  become: false
"""

RETURN = r"""
failing:
  description: How many findings trip O(fail_on).
  returned: success or failure
  type: int
  sample: 2
summary:
  description: How many findings have each verdict.
  returned: success or failure
  type: dict
  sample: {accepted: 9, not_checked: 2, rejected: 2, error: 0, accepted_weak: 0}
reports:
  description: The reports written, C(json), C(junit) and C(sarif), with their paths.
  returned: success or failure
  type: dict
  sample: {json: /builds/infra/reports/verify.json, sarif: /builds/infra/reports/verify.sarif}
fail_on:
  description: The O(fail_on) in effect.
  returned: success or failure
  type: str
msg:
  description: How many findings on how many hosts fail, the count of each verdict, and the failing hosts.
  returned: always
  type: str
failing_hosts:
  description:
    - Each host with a finding that trips O(fail_on), and a short message saying what fails there (the findings'
      labels and verdicts) and where the reasons are (the table, the reports written). Empty when no host fails.
  returned: when the report does not fail
  type: dict
  sample: {web03: "2 of 9 findings fail (fail_on=rejected): minlen rejected, leftover:/root/original-ks.cfg rejected"}
"""
