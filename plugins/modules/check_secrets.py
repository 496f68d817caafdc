#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

# Documentation only: the work is done on the controller by the action plugin
# plugins/action/check_secrets.py (as ansible.builtin.assert does).

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: check_secrets
short_description: Check every secret of one host against its password policy, on the controller
version_added: 0.2.0
description:
  - Checks the secrets that go into one host's kickstart, the root password, each account's password and the LUKS
    passphrase, against the effective password policy of each (C(root), C(user), C(luks)).
  - The effective policies are the O(product) preset overridden field by field by O(pwpolicies); without a product,
    omitted fields mean what the O(target) installer release made an omitted C(pwpolicy) option mean.
  - Each secret becomes a finding with a verdict, V(accepted), V(accepted_weak) (weak, but its policy is not strict),
    V(rejected) or V(error). Secrets are labelled V(root), V(user:NAME) and V(luks).
  - "Each secret is read on its own: a vaulted value this run cannot decrypt (a wrong or missing vault id) or one that
    refers to an undefined variable becomes an V(error) finding for that secret, and every other secret is still
    checked. Ansible's own error text is not shown, because it may quote the value or the vault ciphertext."
  - Account entries are checked too. Each must be a mapping with a valid account name (at most 32 characters,
    lower-case letters, digits, C(_), C(-) and C(.)), given once; a password must be a string. An entry without a
    password is a locked account and is not checked.
  - One message lists every secret that trips O(fail_on), with its reasons and hints. Weak secrets that pass are
    reported as warnings.
  - This is the pre-flight of the P(kickstart.pwpolicy.kickstart#role) role (its C(check) entry point) and the check
    behind the C(kickstart.pwpolicy.audit) playbook.
  - No result, message, warning or error holds a secret or any part of one.
  - Runs on the controller only; it neither connects to the host nor runs a module there.
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
requirements:
  - libpwquality on the controller (its Python binding C(pwquality), or the shared library C(libpwquality.so.1)),
    with a cracklib dictionary.
notes:
  - At any verbosity, nothing this action returns or shows holds a secret. The secrets themselves are not task
    results either, so C(no_log) is not needed; keep it off to see the reasons.
seealso:
  - plugin: kickstart.pwpolicy.pwpolicy_check
    plugin_type: filter
  - module: kickstart.pwpolicy.audit_report
extends_documentation_fragment:
  - kickstart.pwpolicy.preflight
  - ansible.builtin.action_common_attributes
  - ansible.builtin.action_common_attributes.conn
  - ansible.builtin.action_common_attributes.flow
  - kickstart.pwpolicy.controller_action
"""

EXAMPLES = r"""
- name: Check the secrets of this host with the kickstart role's variables
  kickstart.pwpolicy.check_secrets:
    role_vars: true

- name: Check given secrets against the Server preset with a longer root password, failing on weak ones too
  kickstart.pwpolicy.check_secrets:
    product: server
    target: RHEL9
    pwpolicies:
      root:
        minlen: 20
    root_password: "{{ vault_root_password }}"
    users:
      - name: alice
        password: "{{ vault_alice_password }}"
    fail_on: weak

- name: Collect the findings without failing
  kickstart.pwpolicy.check_secrets:
    role_vars: true
    fail: false
  register: secrets_check

- name: Show the verdicts
  ansible.builtin.debug:
    msg: "{{ secrets_check.findings | map(attribute='secret') | zip(secrets_check.findings | map(attribute='verdict')) }}"
"""

RETURN = r"""
findings:
  description:
    - One finding per secret, in the order root, the accounts, LUKS. Never holds a secret.
  returned: always
  type: list
  elements: dict
  contains:
    host:
      description: The host (O(host_label)).
      type: str
      sample: web01.example.com
    secret:
      description:
        - V(root), V(user:NAME) or V(luks); V(user[INDEX]) for an account entry that cannot be read, V(users) when
          the account list itself cannot be read, V(policy) when the policies cannot be resolved and there is no secret.
        - For a value that cannot go on a kickstart line, the variable it comes from, for example
          V(kickstart_users[1].name) or V(kickstart_content.finish).
      type: str
      sample: "user:alice"
    verdict:
      description: V(accepted), V(accepted_weak), V(rejected) or V(error) (the secret could not be read or checked).
      type: str
      sample: rejected
    ok:
      description: Acceptable under its policy (V(accepted) or V(accepted_weak)).
      type: bool
    score:
      description: libpwquality's score, 0 to 100 (0 when libpwquality rejects the secret, or on an error).
      type: int
    strength:
      description: V(empty), V(too_short), V(weak), V(fair), V(good) or V(strong); null on an error.
      type: str
    reasons:
      description: Each failed rule in plain words.
      type: list
      elements: str
      sample: ["shorter than 15 characters (has 8)"]
    hints:
      description: What to do about each reason.
      type: list
      elements: str
    policy:
      description: The effective policy the secret was checked against (null when it could not be resolved).
      type: dict
    stops:
      description:
        - Present and V(true) when the value cannot go on a kickstart line (a line break, a NUL, a section keyword, a
          value its command does not take). Such a finding fails the task whatever O(fail_on) says.
      type: bool
      returned: when true
policies:
  description: The effective policies, keyed by name (V(root), V(user), V(luks)).
  returned: always
  type: dict
  sample:
    root: {name: root, minlen: 15, minquality: 30, strict: true, emptyok: false, changesok: false}
release:
  description:
    - What the O(target) release does with password policies, as the P(kickstart.pwpolicy.installer_release#filter)
      filter returns it (C(name), C(label), C(family), C(section), C(deprecated), C(anaconda_conf),
      C(delivery), C(copies_input_kickstart), C(nosave_input_ks)); null without a target.
  returned: always
  type: dict
delivery:
  description: What carries the policies to the installer, for the O(delivery) given.
  returned: when O(delivery) and O(target) are given
  type: dict
  contains:
    section:
      description: The kickstart gets a C(%anaconda) section.
      type: bool
    updates_image:
      description: An updates image with the anaconda configuration drop-in is built.
      type: bool
  sample: {section: true, updates_image: false}
summary:
  description: How many findings have each verdict.
  returned: always
  type: dict
  sample: {accepted: 2, accepted_weak: 0, rejected: 1, error: 0}
fail_on:
  description: The O(fail_on) in effect.
  returned: always
  type: str
msg:
  description:
    - One message naming every secret that trips O(fail_on), with its verdict, reasons and hints; or a one-line
      summary when none does.
  returned: always
  type: str
warnings:
  description:
    - One warning per weak secret that its non-strict policy accepts and O(fail_on) lets pass.
    - Not given with O(fail=false), whose caller reports the findings itself (the audit playbook shows them in its
      table).
  returned: when there is such a secret and O(fail) is true
  type: list
  elements: str
weakest_link:
  description:
    - With O(weakest), the host's weakest link with the keys the M(kickstart.pwpolicy.weakest_link) action returns
      (C(host), C(weakest), C(secrets), C(below_floor), C(estimated), C(msg), and C(plain_http) when the kickstart URL
      is plain C(http://)). Never a secret.
  returned: when O(weakest) is given
  type: dict
  version_added: 0.2.0
"""
