#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

# Documentation only: the work is done on the controller by the action plugin
# plugins/action/weakest_link.py (as ansible.builtin.assert does).

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: weakest_link
short_description: Estimate how long one host's secrets hold, and name its weakest link, on the controller
version_added: 0.2.0
description:
  - Estimates, for each secret that goes into one host's kickstart (the root password, each account's password, the
    LUKS passphrase), how long it holds against each attack it is exposed to, and names the host's weakest link -
    which secret, which attack, how long.
  - Root and user passwords face the login throttle and an offline attack on their SHA-512 crypt hash at O(rounds)
    (the kickstart carries the hash; O(estimate) with C(hash=yescrypt) and C(cost) models a
    yescrypt hash); the LUKS passphrase faces an offline attack on its LUKS2 keyslot, and sits in
    plain text in the kickstart. The model, its sources and its limits are on the page
    R(The weakest link,ansible_collections.kickstart.pwpolicy.docsite.weakest_link).
  - Warns when a secret's weakest link is below O(warn_seconds), and when O(base_url) is plain C(http://) while the
    kickstart holds a LUKS passphrase or password hashes, naming the alternatives. Fails only when a secret is below
    O(min_seconds) (and O(fail) is true).
  - Secrets that cannot be read are left to M(kickstart.pwpolicy.check_secrets), which reports them.
  - No result, message, warning or error holds a secret or any part of one.
  - Runs on the controller only; it neither connects to the host nor runs a module there.
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
requirements:
  - The Python package C(zxcvbn) on the controller (C(pip install zxcvbn)). Without it, the estimates are skipped
    with a warning that says how to install it, unless O(require_estimates) is true or O(min_seconds) is set, which
    fail instead.
options:
  root_password:
    description: The root password, a string or a vaulted string; absent or null when root is locked.
    type: raw
  users:
    description: Accounts, each a mapping with C(name) and C(password).
    type: list
    elements: dict
  luks_passphrase:
    description: The disk encryption passphrase; absent, null or empty when the disk is not encrypted.
    type: raw
  bootloader_password:
    description:
      - The boot loader's (GRUB 2) password. It is not estimated, only compared with the other secrets (RV(reused)).
    type: raw
    version_added: 0.3.0
  role_vars:
    description:
      - Read the secrets not given from the P(kickstart.pwpolicy.kickstart#role) role's variables
        C(kickstart_root_password), C(kickstart_users), C(kickstart_luks_passphrase) and
        C(kickstart_bootloader_password), untemplated, each on its own.
    type: bool
    default: false
  rounds:
    description: The SHA-512 crypt rounds of the hashes the kickstart carries (the role's C(kickstart_password_hash_rounds)).
    type: int
    default: 656000
  product:
    description: The product, given to the estimator as a word an attacker tries first.
    type: str
  hostname:
    description:
      - The host's name, given to the estimator (with its first label) as words an attacker tries first.
      - Defaults to C(inventory_hostname).
    type: str
  estimate:
    description:
      - More model options, as the P(kickstart.pwpolicy.pwpolicy_check#filter) filter's C(estimate) takes them, for
        example C(fips) (a LUKS2 keyslot formatted with PBKDF2), C(faillock) or C(devices).
      - C(luks_kdf) gives the LUKS key slot's own parameters, as an installed host's posture reads them from its
        header (C(type), C(hash), C(iterations), C(memory), C(threads), C(device), C(slot)), or the posture's
        C(devices), of which the key slot an attacker would pick is taken (the active one fastest to attack); the
        LUKS estimate then uses them instead of cryptsetup's assumed defaults, and the weakest link's text names
        which it used.
    type: dict
  base_url:
    description: The URL prefix the kickstart is served under (the role's C(kickstart_base_url)); checked for plain C(http://).
    type: str
  warn_seconds:
    description: Warn about each secret whose weakest link holds less than this many seconds; V(0) never warns.
    type: float
    default: 31557600
  min_seconds:
    description:
      - Fail when a secret's weakest link holds less than this many seconds (with O(fail)); V(0), the default, never
        fails. Setting it makes the estimates required.
    type: float
    default: 0
  require_estimates:
    description: Fail when the estimates cannot be made (C(zxcvbn) missing) instead of warning.
    type: bool
    default: false
  fail:
    description: Fail the task when a secret is below O(min_seconds). With V(false), RV(below_floor) says so instead.
    type: bool
    default: true
  host_label:
    description: The host name used in the messages. Defaults to C(inventory_hostname).
    type: str
seealso:
  - plugin: kickstart.pwpolicy.pwpolicy_check
    plugin_type: filter
  - module: kickstart.pwpolicy.check_secrets
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - ansible.builtin.action_common_attributes.conn
  - ansible.builtin.action_common_attributes.flow
  - kickstart.pwpolicy.controller_action
"""

EXAMPLES = r"""
- name: Name this host's weakest link with the kickstart role's variables
  kickstart.pwpolicy.weakest_link:
    role_vars: true
    rounds: "{{ kickstart_password_hash_rounds }}"
    base_url: "{{ kickstart_base_url }}"

- name: Stop when any secret falls within ten years to the cheapest attack
  kickstart.pwpolicy.weakest_link:
    root_password: "{{ vault_root_password }}"
    luks_passphrase: "{{ vault_luks_passphrase }}"
    estimate:
      fips: true
    min_seconds: 315576000
"""

RETURN = r"""
weakest:
  description:
    - The host's weakest link, null when there is no secret or no estimate.
  returned: always
  type: dict
  contains:
    secret:
      description: V(root), V(user:NAME) or V(luks).
      type: str
    attack:
      description: V(online_login), V(offline_sha512crypt), V(offline_yescrypt), V(offline_luks2_argon2id),
        V(offline_luks2_argon2i) or V(offline_luks2_pbkdf2).
      type: str
    seconds:
      description: The expected time to find the secret by that attack.
      type: float
    time:
      description: The same in words, for example C(3.2 years).
      type: str
    requires:
      description: What the attacker needs first.
      type: str
  sample: {secret: "user:alice", attack: offline_sha512crypt, seconds: 51.7, time: "52 seconds",
           requires: "a copy of the kickstart"}
secrets:
  description:
    - Each estimated secret with C(secret), C(policy), C(guesses_log10), C(weakest_attack), C(weakest_seconds),
      C(weakest_seconds_with_plaintext) and C(exposures), as the P(kickstart.pwpolicy.pwpolicy_check#filter) filter
      returns them. Never a secret.
  returned: always
  type: list
  elements: dict
below_floor:
  description: Whether a secret is below O(min_seconds).
  returned: always
  type: bool
estimated:
  description: Whether the estimates were made (false when C(zxcvbn) is missing and not required).
  returned: always
  type: bool
reused:
  description:
    - Each group of the host's secrets that are one value (compared by a keyed hash in memory), with C(secrets) (their
      labels, V(bootloader) among them), C(reason) (what the attacker gets, in words) and C(hint) (what to do); each
      is also a warning. Never a secret.
  returned: always
  type: list
  elements: dict
  version_added: 0.3.0
  sample: [{secrets: [root, luks, bootloader], reason: "root, luks and bootloader are the same secret: ...",
            hint: "give each of them a secret of its own ..."}]
plain_http:
  description: Present and true when O(base_url) is plain C(http://) and the kickstart holds secrets.
  returned: when true
  type: bool
msg:
  description:
    - The weakest link in one line, or the secrets below O(min_seconds). A LUKS attack names what its rate came from,
      for example C(on key slot 3 of /dev/vda3 (pbkdf2-sha512, 1000 iterations\)) or
      C(on assumed cryptsetup defaults (argon2id, 1 GiB, 4 iterations\)).
  returned: always
  type: str
"""
