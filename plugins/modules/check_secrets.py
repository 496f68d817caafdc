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
  - Checks the secrets that go into one host's kickstart, the root password, each account's password, the LUKS
    passphrase and the boot-loader password, against the effective password policy of each (C(root), C(user),
    C(luks); the boot loader's is C(root)).
  - The effective policies are the O(product) preset overridden field by field by O(pwpolicies); without a product,
    omitted fields mean what the O(target) installer release made an omitted C(pwpolicy) option mean.
  - Each secret becomes a finding with a verdict, V(accepted), V(accepted_weak) (weak, but its policy is not strict),
    V(rejected) or V(error). Secrets are labelled V(root), V(user:NAME), V(luks) and V(bootloader).
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
  - With O(profile), every secret is also checked by one or more compliance profiles, and with O(blocklist) compared
    with a local breach corpus; without them, the arguments and results are those of earlier releases.
options:
  profile:
    description:
      - Check every secret by this compliance profile, or by each of a list of them (or of names separated by commas),
        for the release O(target), as the P(kickstart.pwpolicy.pwpolicy_check#filter) filter's C(profile) does.
      - 'Each account''s policy is the profile''s, merged with the O(product) preset and O(pwpolicies) field by field;
        where they differ, the stricter value applies. Every libpwquality setting of the profile applies, and each
        setting a secret breaks is a reason of its own, naming the profile (for example C(needs at least 1 digit, has
        0 (stig: dcredit -1\))).'
      - Where the profiles, the policies or the settings disagree, RV(conflicts) says so, and so does one warning.
      - An unknown profile, or a target the profile has no values for, makes every secret an V(error) finding naming
        what to give (and fails the task when O(fail) is true).
      - Never read from the role's variables; the C(kickstart.pwpolicy.audit) playbook passes C(kickstart_profile).
    type: raw
    version_added: 0.3.0
  blocklist:
    description:
      - A local breach corpus no secret may be in, as the filter's C(blocklist) (a Pwned Passwords range directory or
        a sorted C(SHA1:COUNT) file, or a list of them); the list of common passwords shipped with the collection
        applies with it, and with a profile that requires a blocklist (NIST SP 800-63B).
      - A secret in it is V(rejected) with the reason C(appears in a list of breached or common passwords) (never
        which entry). A path that is missing or unreadable fails the task before any secret is read, naming the path;
        a corpus that turns out ill-formed during a check is an V(error) finding naming it.
      - Never read from the role's variables; the C(kickstart.pwpolicy.audit) playbook passes C(kickstart_blocklist).
    type: raw
    version_added: 0.3.0
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

- name: Check the secrets of this host by the STIG for its release and against a local breach corpus
  kickstart.pwpolicy.check_secrets:
    role_vars: true
    profile: stig
    blocklist: /srv/pwned-passwords

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
passed:
  description:
    - Whether nothing trips O(fail_on), the policies resolved and the weakest link is not below its floor; the task
      fails when it is false, unless O(fail=false).
  returned: always
  type: bool
  version_added: 0.3.0
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
profile:
  description:
    - The compliance profiles checked by (C(names)) and the release whose values they took (C(target)).
    - With O(profile_exceptions), also C(exceptions) (the rule ids waived), C(deviations) (one sentence for each value
      that asks less than a profile and is not waived, or each required secret that is missing, naming the
      variable, the values and the rule ids) and C(waived) (the same for those the exceptions waive).
  returned: when O(profile) is given
  type: dict
  sample: {names: [stig], target: RHEL9, exceptions: [RHEL-09-212010], deviations: [],
           waived: ["kickstart_profile_exceptions waives rule RHEL-09-212010: kickstart_bootloader_password is not set,
                    but stig (RHEL9) requires a boot-loader password"]}
  version_added: 0.3.0
conflicts:
  description:
    - Where the profiles, the policies (the O(product) preset and O(pwpolicies)) or the settings disagree, one sentence
      each, naming the values, the rule ids and the stricter value that applies; empty when they agree.
  returned: when O(profile) is given
  type: list
  elements: str
  version_added: 0.3.0
weakest_link:
  description:
    - With O(weakest), the host's weakest link with the keys the M(kickstart.pwpolicy.weakest_link) action returns
      (C(host), C(weakest), C(secrets), C(below_floor), C(estimated), C(reused), C(msg), and C(plain_http) when the
      kickstart URL is plain C(http://)). Never a secret.
  returned: when O(weakest) is given
  type: dict
  version_added: 0.2.0
"""
