#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

# Documentation only: the work is done on the controller by the action plugin
# plugins/action/verify_secrets.py, which reads the host's files with ansible.builtin.slurp.

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: verify_secrets
short_description: Check that an installed host's password hashes still match the vaulted values
version_added: 0.3.0
description:
  - Checks, on the controller, whether the root password, each account's password and the boot-loader (GRUB 2)
    password installed on one host are still the vaulted values of the P(kickstart.pwpolicy.kickstart#role) role's
    variables C(kickstart_root_password), C(kickstart_users) and C(kickstart_bootloader_password).
  - The host's C(/etc/shadow) and GRUB 2 files (C(/boot/grub2/user.cfg), C(/boot/grub2/grub.cfg),
    C(/boot/grub/grub.cfg)) are read with C(ansible.builtin.slurp), run as for a C(no_log) task. Each vaulted
    value with an installed hash is hashed again with that hash's own setting, salt and cost (libxcrypt for crypt
    hashes; PBKDF2-HMAC-SHA-512 with the installed salt and iterations for GRUB 2's) and compared in constant time,
    in memory. The files' text is dropped once compared.
  - The boot-loader password compared is that of GRUB 2's superuser C(root), as the installer writes it (C(user.cfg)'s
    C(GRUB2_PASSWORD)), else the last C(password_pbkdf2 root) or C(password root) line of a C(grub.cfg).
  - Each secret is read on its own, as M(kickstart.pwpolicy.check_secrets) reads them with C(role_vars); one that
    cannot be decrypted is a result with the reason, and the others are still compared.
  - No result, message, warning or error holds a secret, a hash, a salt or any part of one. Run the task with
    C(no_log) all the same, as the C(kickstart.pwpolicy.verify) playbook does with C(kickstart_verify_secrets).
  - The host's files must be readable by the connection's user; C(/etc/shadow) needs C(become).
options:
  root:
    description:
      - The host's C(/) under which its files are read, for example a mounted image or a test tree.
    type: str
    default: /
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
requirements:
  - libxcrypt (C(libcrypt.so.1)) on the controller to compute crypt hashes; with passlib instead, only SHA-512 crypt
    hashes are compared.
notes:
  - A hash whose one computation would take longer than 30 seconds, or more memory than the collection's bound, on
    the controller is not computed (C(matches) null, the reason naming its cost).
seealso:
  - module: kickstart.pwpolicy.posture_info
  - module: kickstart.pwpolicy.check_secrets
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - ansible.builtin.action_common_attributes.flow
attributes:
  action:
    support: full
  async:
    support: none
  bypass_host_loop:
    support: none
  check_mode:
    support: full
  diff_mode:
    support: none
  platform:
    support: full
    platforms: posix
"""

EXAMPLES = r"""
- name: Compare the installed root, account and boot-loader hashes with the vaulted values
  kickstart.pwpolicy.verify_secrets:
  become: true
  no_log: true
  register: installed

- name: Name the secrets that changed on the host (labels only)
  ansible.builtin.debug:
    msg: "{{ installed.secrets | selectattr('matches', 'false') | map(attribute='secret') | list }}"
"""

RETURN = r"""
secrets:
  description:
    - One result per secret, in the order root, the accounts, the boot loader. Root is always listed; an account when
      it has a vaulted password; the boot loader when it has a vaulted password or the host has one.
    - Never a secret, a hash or a salt.
  returned: success
  type: list
  elements: dict
  contains:
    secret:
      description: V(root), V(user:NAME) or V(bootloader).
      type: str
      sample: "user:alice"
    where:
      description: The file and line on the host that holds the installed hash (C(file), C(line)); null where there is
        none.
      type: dict
      sample: {file: /etc/shadow, line: 1}
    matches:
      description:
        - V(true) when the installed hash is that of the vaulted value, V(false) when it is not (the password was
          changed on the host, or the vaulted value was).
        - Null when nothing could be compared; RV(secrets[].reason) says why.
      type: bool
    reason:
      description:
        - Why nothing was compared (no vaulted value, no installed hash, a locked account or one without a password,
          a scheme or cost that cannot be computed here, a vaulted value that cannot be decrypted); null when
          RV(secrets[].matches) is V(true) or V(false).
      type: str
      sample: "the account is locked on the host (its password field starts with ! or *)"
"""
