# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):
    """The options of the pre-flight: check_secrets, and the first step of render_kickstart."""

    DOCUMENTATION = r"""
options:
  product:
    description:
      - Start from this product's preset for all three policies; O(pwpolicies) overrides it field by field.
    type: str
    choices: [server, cloud, workstation]
  target:
    description:
      - The installer release, as pykickstart names it (for example V(F40), V(RHEL9), V(DEVEL)).
      - Without O(product), it says what an omitted policy field means. It is also returned as RV(release).
    type: str
  pwpolicies:
    description:
      - Policy overrides keyed by policy name (V(root), V(user), V(luks)), field by field (C(minlen), C(minquality),
        C(strict), C(emptyok), C(changesok)).
    type: dict
  root_password:
    description:
      - The root password (checked against the C(root) policy, with C(root) as the account name). A string or a
        vaulted string. Absent or null means root is locked and there is nothing to check.
    type: raw
  users:
    description:
      - Accounts, each a mapping with C(name) and C(password). Each password is checked against the C(user) policy
        with the account's name.
      - Each entry's other fields (C(name), C(gecos), C(groups), C(ssh_keys)) are checked as kickstart line values;
        an entry without a valid, unique name is an V(error) finding and its password is not checked.
    type: list
    elements: dict
  luks_passphrase:
    description:
      - The disk encryption passphrase (checked against the C(luks) policy). Absent, null or an empty string means no
        encryption, as the role renders it, and there is nothing to check.
    type: raw
  bootloader_password:
    description:
      - The GRUB 2 superuser password, labelled V(bootloader), checked against the C(root) policy with C(root) as the
        account name (GRUB's superuser is root, as the installer writes it). A string or a vaulted string; absent,
        null or an empty string means none. Its weakest link is not estimated.
    type: raw
    version_added: 0.3.0
  pwquality_settings:
    description:
      - More libpwquality settings every secret is checked with, as the P(kickstart.pwpolicy.pwpolicy_check#filter)
        filter's C(settings) takes them. With O(profile) and without O(profile_exceptions), the stricter of each
        setting and the profile's applies (a looser one is named in RV(conflicts)).
    type: dict
    version_added: 0.3.0
  profile_exceptions:
    description:
      - Given (an empty list too), the check is the P(kickstart.pwpolicy.kickstart#role) role's check by the
        compliance profile O(profile) - each account's policy is the profile's merged with the O(product) preset
        (the stricter value of each field), then each field of O(pwpolicies) and each setting of
        O(pwquality_settings) as given; one that asks less than the profile, a hash cost below its minimum, or a
        boot-loader password or a disk passphrase the profile requires and that is missing, is a deviation - an
        V(error) finding labelled with the variable (for example C(kickstart_pwpolicies.user.minlen)) whose reason
        names both values and the rule id, and which stops the task whatever O(fail_on) says - unless this lists
        every rule id that asks for the value; a waived deviation is a warning, and the value given applies.
      - A rule id that is no rule of the selected profiles fails the task, named by its position.
      - Without it, a looser value is replaced by the profile's (as O(profile) says).
    type: list
    elements: str
    version_added: 0.3.0
  pwquality_dropin:
    description:
      - Whether the kickstart writes the installed system's libpwquality drop-in and C(/etc/login.defs) lines (the
        P(kickstart.pwpolicy.kickstart#role) role's C(kickstart_pwquality_dropin)). Absent or null means true.
      - With O(profile_exceptions) and a compliance profile, V(false) is a deviation (the installed system gets
        none of the settings the profile asks for), labelled C(kickstart_pwquality_dropin), unless
        O(profile_exceptions) lists every rule of the profile that sets one of them.
    type: bool
    version_added: 0.3.0
  content:
    description:
      - The P(kickstart.pwpolicy.kickstart#role) role's merged C(kickstart_content). When given, each of its values is
        checked as the kickstart line it goes on (no line breaks, no section keywords, one of the allowed choices);
        each problem is an V(error) finding labelled with the variable, never with its value.
      - Never read from the role's variables; the role passes it.
    type: dict
  root_ssh_keys:
    description:
      - SSH public keys for root, checked as kickstart line values like O(content).
    type: list
    elements: str
  dest:
    description:
      - The kickstart's path. It must be absolute; with O(updates_image), the two must differ.
    type: str
  updates_image:
    description:
      - The updates image's path, checked like O(dest) when the policies go to the installer in one (see O(delivery)).
    type: str
  delivery:
    description:
      - The role's C(kickstart_policy_delivery), checked against the O(target) release. V(auto) picks what the
        release reads; a delivery the release's installer cannot take fails the task, before any secret is read,
        with what to use instead.
      - With it the action returns RV(delivery). Never read from the role's variables; the role passes it.
    type: str
    choices: [auto, section, updates_image, both]
  role_vars:
    description:
      - Read every argument that is not given from the variables of the P(kickstart.pwpolicy.kickstart#role) role,
        C(kickstart_product), C(kickstart_target), C(kickstart_pwpolicies), C(kickstart_root_password),
        C(kickstart_users), C(kickstart_luks_passphrase), C(kickstart_bootloader_password),
        C(kickstart_pwquality_settings), C(kickstart_profile_exceptions) and C(kickstart_pwquality_dropin).
      - This is how the role and the audit playbook call it. The secrets are then read, untemplated, from the host's
        variables, so an undecryptable or undefined value is an error finding for that secret on every
        ansible-core version. Secrets given as arguments are kept untemplated by ansible-core 2.19 and later only;
        ansible-core 2.16 to 2.18 template arguments before the check, and an undefined variable in one fails the
        whole task there.
    type: bool
    default: false
  host_label:
    description:
      - The host name put in each finding and in the message.
      - Defaults to C(inventory_hostname).
    type: str
  fail_on:
    description:
      - Which findings fail the task (when O(fail) is true) and go into RV(msg).
      - V(rejected) fails on V(rejected) and V(error); V(weak) also on V(accepted_weak); V(never) on nothing but
        values that cannot go on a kickstart line (RV(findings[].stops)).
    type: str
    choices: [rejected, weak, never]
    default: rejected
  fail:
    description:
      - Fail the task when a finding trips O(fail_on). With V(false), the findings are returned and the task succeeds
        (the audit playbook collects them this way).
      - A policy that cannot be resolved (an unknown product or target, a bad override) always fails the task when
        this is V(true); with V(false) it becomes an V(error) finding for each secret.
    type: bool
    default: true
  weakest:
    description:
      - Also name the host's weakest link from the same secrets (read once), as the M(kickstart.pwpolicy.weakest_link)
        action does, and return it as RV(weakest_link). The kickstart role passes it in its pre-flight.
      - A dict with some of C(rounds), C(hostname), C(base_url), C(estimate), C(warn_seconds), C(min_seconds) and
        C(require_estimates), each as the M(kickstart.pwpolicy.weakest_link) option of that name (null or empty for its
        default); the product is O(product).
      - With O(target), the estimate's C(input_ks_copy) follows the release unless C(estimate) gives it, true where
        the installer keeps the kickstart in C(/root/original-ks.cfg) and no boot option stops it (Fedora 24).
      - C(hash) (V(auto), V(sha512crypt) or V(yescrypt)) and C(cost) (yescrypt's, 1 to 11) say which hash the
        kickstart carries, for the offline attack on it; V(auto), the default, is what the O(target) installer writes
        (yescrypt from Fedora 35 and in RHEL 10). M(kickstart.pwpolicy.render_kickstart) uses the hashes it makes.
      - Its warnings join RV(warnings). With O(fail), a secret below C(min_seconds) fails the task when no finding
        already does.
    type: dict
    version_added: 0.2.0
"""
