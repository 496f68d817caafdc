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
short_description: One report over every host's password policy findings and every file's secrets, as a table,
  JSON, JUnit XML and SARIF
version_added: 0.2.0
description:
  - Collects the findings that M(kickstart.pwpolicy.check_secrets) registered on each host and reports them once for
    the whole run. It shows one table (a row per secret with its host, or file and line, and verdict; its reasons
    and hints under the row; no line longer than 120 characters) and can write a JSON and a JUnit XML report for CI
    systems, which hold the same text unwrapped.
  - With O(role_vars) it makes those checks itself, for every host of O(hosts) in this one task, from each host's
    C(kickstart) role variables (as the C(kickstart.pwpolicy.audit) playbook does). No task runs per host, and the
    hosts are shared among one process per usable core of the controller (at most C(forks)). The findings, reports
    and weakest links are the ones a M(kickstart.pwpolicy.check_secrets) task per host would have given.
  - With O(paths) it reads kickstarts and templates on the controller too, as M(kickstart.pwpolicy.ks_secrets_info)
    reads them, and reports their secrets in the same table and reports, each with its file and line; O(sarif) writes
    their findings as SARIF 2.1.0 for code scanning.
  - Fails when a finding trips O(fail_on) (and O(fail) is true), with one message that counts the failing secrets and
    names their hosts. With O(fail=false) it prints that message under the tables and returns what fails where
    (RV(failing_hosts), RV(failing_files)), for a task on each host to fail on, as the C(kickstart.pwpolicy.audit)
    playbook's last play does, so that each failing host fails as itself.
  - A host whose check did not run (it failed or was skipped before) gets an V(error) finding, so it cannot pass
    unnoticed; so do a file that cannot be read and a pattern of O(paths) that matches no file.
  - This is the first task of the C(kickstart.pwpolicy.audit) playbook; run it once (C(run_once=true)).
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
      - Required unless O(role_vars) or O(findings) is given.
    type: str
  role_vars:
    description:
      - Check each host of O(hosts) here, as M(kickstart.pwpolicy.check_secrets) with its
        O(kickstart.pwpolicy.check_secrets#module:role_vars) would on that host with C(fail=false), instead of reading
        a registered result.
      - Each host's variables are read as the inventory gives them (inventory, group and host variables and extra
        variables, no play variables and no facts). The secrets come from C(kickstart_root_password),
        C(kickstart_users), C(kickstart_luks_passphrase) and C(kickstart_bootloader_password), the policy from
        C(kickstart_product), C(kickstart_target), C(kickstart_pwpolicies) and C(kickstart_pwquality_settings); the
        check by profile and blocklist from C(kickstart_profile), C(kickstart_profile_exceptions) and
        C(kickstart_blocklist); C(kickstart_fail_on) sets the host's own message.
      - Unless a host sets C(kickstart_weakest_link=never), its weakest link is estimated from the same secrets, with
        C(kickstart_password_hash), C(kickstart_password_hash_rounds), C(kickstart_password_hash_cost),
        C(kickstart_host_id), C(kickstart_base_url), C(kickstart_estimate_options), C(kickstart_warn_crack_seconds)
        and C(kickstart_min_crack_seconds); C(kickstart_weakest_link=required) requires the estimates.
      - Each secret is templated, and so decrypted, on its own in the process that checks it; one that cannot be read
        is an V(error) finding of its own. A host whose check cannot run at all (a blocklist that cannot be read, a
        host the inventory lacks) gets an V(error) finding and fails the task, naming the host and why.
    type: bool
    default: false
  weakest:
    description:
      - With O(role_vars), show a second table with each host's weakest link, and count the hosts below
        C(kickstart_min_crack_seconds) as failing, as O(weakest_var) does.
    type: bool
    default: false
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
        V(never) on nothing. A file's secret is judged the same way, by the verdict O(paths) describes.
    type: str
    choices: [rejected, weak, never]
    default: rejected
  fail:
    description:
      - Fail the task when a finding trips O(fail_on).
      - With V(false), the task reports and returns RV(failing_hosts) and RV(failing_files) instead.
    type: bool
    default: true
  json:
    description:
      - Write the findings as a JSON list to this path on the controller, one object per secret (C(host), C(secret),
        C(verdict), C(ok), C(score), C(strength), C(reasons), C(hints), C(policy)). Its directory must exist.
      - A file's secret has the same keys (C(host), C(score), C(strength) and C(policy) null), then C(file), C(line),
        C(command), C(account), C(form), C(scheme), C(cost), C(tried) and C(findings) (the ids of its findings, in the
        order of C(reasons) and C(hints)), as M(kickstart.pwpolicy.ks_secrets_info) returns them.
    type: path
  junit:
    description:
      - Write JUnit XML to this path on the controller, one C(testsuite) per host or file, one C(testcase) per secret
        and a C(failure) with the reasons and hints for each secret that trips O(fail_on). Its directory must exist.
      - A file's testcase is named by the secret and its line (C(rootpw (line 3\))) and has C(file) and C(line)
        attributes.
    type: path
  sarif:
    description:
      - Write a SARIF 2.1.0 log to this path on the controller, for code scanning (GitHub, GitLab and other SARIF
        consumers). Its directory must exist.
      - It holds the findings of the files of O(paths) only, one result per finding of a secret (rule V(plaintext),
        V(legacy_scheme), V(low_cost), V(known_weak) or V(policy), level C(error) for a level of V(rejected) and
        C(warning) for V(accepted_weak)) and one per unreadable file (rule V(unreadable)), located by the file's
        path as given (relative to C(%SRCROOT%), the repository root, or a C(file://) URI) and the line.
        A host's finding has no place in a file, and code scanning refuses a result without one, so hosts are in the
        table, JSON and JUnit only; a pattern that matches no file is a tool notification of level C(error).
      - "Each result has the partial fingerprint C(kickstartPwpolicy/v2), the SHA-256 (hex) of the file's URI, the
        command, the rule and the result's order among those alike in the file: stable when lines move, and never
        computed from an option's value (a secret, a hash, an account) or a line of the file."
    type: path
  paths:
    description:
      - Glob patterns of kickstarts and templates to read on the controller, beside the hosts; C(**) matches
        directories at any depth. A relative pattern is read from the directory C(ansible-playbook) runs in, and
        the reports give each path as the pattern gave it. A file matched twice is read once; directories are
        left out. Below the part before the first wildcard, C(**) does not enter a symbolic link to a directory,
        and no link that leads outside that part is followed (a link to a file outside is an V(error) finding).
      - Each file is read as M(kickstart.pwpolicy.ks_secrets_info) reads one (without a profile). Each secret is one
        finding, named C(rootpw), C(user:NAME), C(bootloader), C(part), C(url:USER)... with the C(file) and C(line),
        and its verdict is its worst finding's level, the one mapping of the audit. V(plaintext), V(known_weak) and
        V(policy) are V(rejected); V(legacy_scheme) and V(low_cost) are V(accepted_weak) (the password may be strong,
        its hash is cheap to attack); a value the template fills in is V(not_checked) (never accepted, and it trips no
        O(fail_on)); a value given as a hash that no scheme reads (C(--iscrypted notahash), a harness placeholder) is
        V(unparsed) (it trips O(fail_on=weak)); a secret without findings (a strong hash, a locked account) is
        V(accepted).
      - A file that cannot be read (not a regular file, over 16 MiB, not UTF-8 text, a NUL character, more than 2,000
        command lines or 500 secrets, a command line over 16,384 characters) is one V(error) finding that says why,
        and so is a pattern that matches no file, or a directory that cannot be listed. Patterns matching more than
        10,000 files, or walking more than 100,000 directories, fail the task.
      - A list, or one string of comma-separated patterns.
    type: list
    elements: str
  templates:
    description:
      - "Glob patterns of the files of O(paths) to read as unrendered templates (as
        O(kickstart.pwpolicy.ks_secrets_info#module:template) does), besides those whose names end in C(.erb), C(.j2),
        C(.jinja), C(.jinja2), C(.tmpl), C(.tpl) or C(.tftpl). Cobbler's templates are often named C(.ks): name them
        here. A pattern matches the path as found, or the file name."
    type: list
    elements: str
  budget:
    description:
      - Seconds of hashing each distinct hash of a file gets in the known-weak check, counted on each core, as
        O(kickstart.pwpolicy.ks_secrets_info#module:budget). V(0) skips the check; at most 3600.
      - The run over files takes at most about this many seconds per distinct hash divided by the cores.
    type: float
    default: 2.0
  profile:
    description:
      - "Compliance profiles each file of O(paths) is judged against, as the
        P(kickstart.pwpolicy.compliance_profile#filter) filter names them: a name, a list or comma-separated names
        for every file, or a mapping of glob patterns (matched against the path as found, or the file name; the
        first that matches applies) to names."
      - Each file is read as the installer will read it (M(kickstart.pwpolicy.posture_info)); each deviation is a
        V(rejected) finding named C(PROFILE:RULE) with the line, the rule ids in C(rules), what was expected and
        found, and what to do (V(deviation) in SARIF); each value the judge could not check (a template's, an
        C(%include)) is a V(not_checked) finding. A file that names no release the profile has (no C(#version=)
        line, and no O(target)) is an V(error) finding.
    type: raw
    version_added: 0.3.0
  target:
    description:
      - The release the files of O(paths) are judged for with O(profile) (V(RHEL8), V(RHEL9) or V(RHEL10)), in
        place of each file's C(#version=) line.
    type: str
    version_added: 0.3.0
  baseline:
    description:
      - "A YAML or JSON file on the controller listing the findings of files that are waived, each C({rule, file,
        reason}): C(rule) a finding's id (V(plaintext), V(known_weak)...) or a profile's rule id, C(file) a glob
        pattern of the paths as the reports give them, C(reason) why."
      - "A waived finding keeps its verdict and stays in every report (the table shows C(rejected (waived)), the
        JSON has C(waived) and C(waiver), JUnit a C(skipped) test case, SARIF a C(suppressions) entry), and trips no
        O(fail_on). A waiver that matches no finding is a warning, so a fixed finding's waiver is noticed."
    type: path
    version_added: 0.3.0
  show:
    description:
      - Which rows the table shows. V(problems) leaves out the V(accepted) secrets; V(none) prints no table.
    type: str
    choices: [all, problems, none]
    default: all
  weakest_var:
    description:
      - The variable M(kickstart.pwpolicy.weakest_link) registered on each host, or M(kickstart.pwpolicy.check_secrets)
        with its C(weakest) option (reading each secret once). When given, a second table
        shows each host's weakest link (secret, attack, time, what the attacker needs), and hosts below C(min_seconds)
        count as failing.
    type: str
notes:
  - The reports are written in check mode too; they are the point of the run.
  - The reports are written atomically (a temporary file renamed into place) with mode C(0644), since they hold no
    secret and CI systems collect them.
seealso:
  - module: kickstart.pwpolicy.check_secrets
  - module: kickstart.pwpolicy.ks_secrets_info
"""

EXAMPLES = r"""
- name: Check and report every secret of every host of the play in one task, as the audit playbook does
  kickstart.pwpolicy.audit_report:
    role_vars: true
    weakest: true
    hosts: "{{ ansible_play_hosts_all }}"
    json: "{{ playbook_dir }}/reports/pwpolicy.json"
  run_once: true
  delegate_to: localhost

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

- name: The same, with the repository's kickstarts and templates, and SARIF for code scanning
  kickstart.pwpolicy.audit_report:
    result_var: secrets_check
    paths:
      - kickstarts/**/*.ks
      - foreman/*.erb
      - cobbler/templates/*
    templates:
      - cobbler/templates/*
    sarif: reports/pwpolicy.sarif
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
  description: The reports written, C(json), C(junit) and C(sarif), with their paths.
  returned: success or failure
  type: dict
  sample: {junit: /builds/infra/reports/pwpolicy.xml, sarif: /builds/infra/reports/pwpolicy.sarif}
files:
  description: How many files O(paths) matched and were read (a file without a secret, or that cannot be read, too).
  returned: when O(paths) is given and the report is made
  type: int
  sample: 12
fail_on:
  description: The O(fail_on) in effect.
  returned: success or failure
  type: str
msg:
  description: How many secrets on how many hosts (and in how many files) fail, the count of each verdict, and the
    failing hosts and files.
  returned: always
  type: str
weakest:
  description:
    - With O(weakest_var) or O(weakest), one entry per host with C(host), C(weakest) (C(secret), C(attack), C(seconds), C(time),
      C(requires), or null), C(below_floor), C(note) (the action's message) and C(reused) (the secrets of the host that
      are one value, as M(kickstart.pwpolicy.weakest_link) returns them; also a line under the table). Never a secret.
  returned: when O(weakest_var) or O(weakest) is given and the report does not fail (a failed result holds only the message and
    the counts, since Ansible prints it whole; the weakest-link table shows every host)
  type: list
  elements: dict
failing_hosts:
  description:
    - Each host with a finding that trips O(fail_on), a check that could not run, or a weakest link below
      C(kickstart_min_crack_seconds), and a short message saying what fails there (the secrets and their verdicts,
      never a value) and where the reasons are (the table, the reports written). Empty when no host fails.
  returned: when the report does not fail
  type: dict
  sample: {srv03: "1 of 3 secrets fail (fail_on=rejected): root rejected; the reasons are in the audit's table above"}
failing_files:
  description:
    - With O(paths), the message of the files' findings that trip O(fail_on) (how many secrets in how many files, and
      which files and patterns), or null when none does.
  returned: when the report does not fail
  type: str
"""
