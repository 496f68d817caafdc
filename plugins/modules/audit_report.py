#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

# Documentation only: the work is done on the controller by the action plugin
# plugins/action/audit_report.py.

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: audit_report
short_description: One report over every host's password policy findings, as a table, JSON and JUnit XML
version_added: 0.2.0
description:
  - Collects the findings that M(kickstart.pwpolicy.check_secrets) registered on each host and reports them once for
    the whole run. It shows one table (host, secret, verdict, reasons, hints) and can write a JSON and a JUnit XML
    report for CI systems.
  - Fails when a finding trips O(fail_on) (and O(fail) is true), with one message that counts the failing secrets and
    names their hosts.
  - A host whose check did not run (it failed or was skipped before) gets an V(error) finding, so it cannot pass
    unnoticed.
  - This is the last task of the C(kickstart.pwpolicy.audit) playbook; run it once (C(run_once=true)).
  - Findings never hold a secret, and nothing here adds one.
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - ansible.builtin.action_common_attributes.conn
  - ansible.builtin.action_common_attributes.flow
  - kickstart.pwpolicy.controller_action
options:
  result_var:
    description:
      - The variable each host registered the M(kickstart.pwpolicy.check_secrets) result in.
      - Required unless O(findings) is given.
    type: str
  hosts:
    description:
      - The inventory hosts to report on. Defaults to C(ansible_play_hosts_all).
    type: list
    elements: str
  findings:
    description:
      - The findings themselves, instead of O(result_var) and O(hosts).
    type: list
    elements: dict
  fail_on:
    description:
      - Which findings fail the task. V(rejected) fails on V(rejected) and V(error); V(weak) also on V(accepted_weak);
        V(never) on nothing.
    type: str
    choices: [rejected, weak, never]
    default: rejected
  fail:
    description:
      - Fail the task when a finding trips O(fail_on).
    type: bool
    default: true
  json:
    description:
      - Write the findings as a JSON list to this path on the controller, one object per secret (C(host), C(secret),
        C(verdict), C(ok), C(score), C(strength), C(reasons), C(hints), C(policy)). Its directory must exist.
    type: path
  junit:
    description:
      - Write JUnit XML to this path on the controller, one C(testsuite) per host, one C(testcase) per secret and a
        C(failure) with the reasons and hints for each secret that trips O(fail_on). Its directory must exist.
    type: path
  show:
    description:
      - Which rows the table shows. V(problems) leaves out the V(accepted) secrets; V(none) prints no table.
    type: str
    choices: [all, problems, none]
    default: all
  weakest_var:
    description:
      - The variable M(kickstart.pwpolicy.weakest_link) registered on each host, or M(kickstart.pwpolicy.check_secrets)
        with its C(weakest) option (as the audit playbook does, reading each secret once). When given, a second table
        shows each host's weakest link (secret, attack, time, what the attacker needs), and hosts below C(min_seconds)
        count as failing.
    type: str
notes:
  - The reports are written in check mode too; they are the point of the run.
  - Both reports are written atomically (a temporary file renamed into place) with mode C(0644), since they hold no
    secret and CI systems collect them.
seealso:
  - module: kickstart.pwpolicy.check_secrets
"""

EXAMPLES = r"""
- name: Check each host's secrets without failing
  kickstart.pwpolicy.check_secrets:
    role_vars: true
    fail: false
  register: secrets_check

- name: Report every secret of every host once, and fail on rejected ones
  kickstart.pwpolicy.audit_report:
    result_var: secrets_check
    junit: "{{ playbook_dir }}/reports/pwpolicy.xml"
    json: "{{ playbook_dir }}/reports/pwpolicy.json"
  run_once: true
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
  sample: {accepted: 60, accepted_weak: 1, rejected: 1, error: 1}
reports:
  description: The reports written, C(json) and C(junit), with their paths.
  returned: success or failure
  type: dict
  sample: {junit: /builds/infra/reports/pwpolicy.xml}
fail_on:
  description: The O(fail_on) in effect.
  returned: success or failure
  type: str
msg:
  description: How many secrets on how many hosts fail, the count of each verdict, and the failing hosts.
  returned: always
  type: str
weakest:
  description:
    - With O(weakest_var), one entry per host with C(host), C(weakest) (C(secret), C(attack), C(seconds), C(time),
      C(requires), or null), C(below_floor) and C(note) (the action's message). Never a secret.
  returned: when O(weakest_var) is given and the report does not fail (a failed result holds only the message and
    the counts, since Ansible prints it whole; the weakest-link table shows every host)
  type: list
  elements: dict
"""
