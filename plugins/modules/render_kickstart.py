#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

# Documentation only: the work is done by the action plugin
# plugins/action/render_kickstart.py, which runs the modules it names.  It is
# the kickstart role's internal step: its interface follows the role.

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: render_kickstart
short_description: The kickstart role's internal step (not for playbooks; its interface may change)
version_added: 0.3.0
description:
  - The P(kickstart.pwpolicy.kickstart#role) role's internal step, its one task per host. Use the role, not this
    action; it is documented for what it does and returns. Its arguments follow the role's variables (it reads some
    of them itself, O(role_vars)) and may change with the role in any release; it is in no action group.
  - "In order, each step only when the one before passed, so that a failure leaves the files as they were: (1) the
    pre-flight, exactly as M(kickstart.pwpolicy.check_secrets) with the same options, on the controller; (2) the
    template O(template), rendered on the controller with the variables C(kickstart_policies) (the effective
    policies) and C(kickstart_anaconda_section) (the section, or an empty string where the policies do not go in
    one); (3) the directories of the files, looked for (C(ansible.builtin.stat)) or created (O(create_dirs),
    C(ansible.builtin.file)), when an updates image is built too or O(create_dirs) is true; (4) with an updates image,
    the kickstart's write run in check mode (the same module and arguments: the directory, what is at O(dest),
    pykickstart; nothing written), then the image built by M(kickstart.pwpolicy.anaconda_conf); (5) the
    kickstart written by M(kickstart.pwpolicy.ks_pwpolicy) (the section for the target, pykickstart validation,
    O(mode), atomic replacement, only when it differs)."
  - "Returns C(boot_args), the installer's boot line for the files: C(inst.ks=), C(inst.updates=) when an updates
    image is built, and C(inst.nosave=input_ks,output_ks) whenever the kickstart holds a plain-text secret or a hash
    and the release takes that option (C(inst.nosave=output_ks) otherwise, as the installer's own generated
    C(/root/anaconda-ks.cfg) keeps the accounts' hashes, typed ones included). The installer copies the kickstart
    it was booted with to C(/root/original-ks.cfg) on the installed system (Fedora 24 and later, RHEL 7.3 and
    later); that option stops the copy on every one of those releases but Fedora 24, for which a warning says so."
  - The accounts' crypt hashes are made on the controller through the system's libxcrypt (passlib where libxcrypt is
    missing, SHA-512 crypt only), the same bytes on every ansible-core, and given to the template as
    C(__kickstart_hashes) (keyed by V(root) and C(user:NAME)), which the role's C(accounts.j2) writes as
    C(kickstart_account_commands). The boot-loader password's GRUB 2 hash (C(grub.pbkdf2.sha512.ITER.SALT.HASH))
    is made there too, with Python's C(hashlib), as C(__kickstart_hashes.bootloader).
  - A failed step fails the task with a message that names it (rendering the template, hashing the passwords,
    validation with the kickstart line, writing) and says that the kickstart was not changed.
  - The rendered text goes to the modules only. No result, message, warning or error holds a secret; a cause quoted
    from Ansible or a module has every secret the pre-flight read replaced by C(<hidden>). So the task needs no
    C(no_log), and its warnings show on every ansible-core version.
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
requirements:
  - On the controller, what M(kickstart.pwpolicy.check_secrets) needs (libpwquality), and libxcrypt
    (C(libcrypt.so.1)) to hash, or passlib where libxcrypt is missing (SHA-512 crypt only).
  - On the host, what M(kickstart.pwpolicy.ks_pwpolicy) needs (pykickstart).
options:
  template:
    description:
      - The kickstart template, found as C(ansible.builtin.template) finds one (the role's C(templates/), then the
        playbook's). Empty or omitted for the role's own C(kickstart.ks.j2).
    type: str
  template_label:
    description: How messages name the template; defaults to O(template).
    type: str
  hash:
    description:
      - The crypt scheme of the accounts' password hashes. V(auto) is what the O(target) installer itself writes
        (SHA-512 crypt up to Fedora 34 and RHEL 9, yescrypt from Fedora 35 and in RHEL 10); a scheme the installed
        system cannot verify (yescrypt on RHEL 7 and 8) is refused before anything is read or written.
    type: str
    choices: [auto, sha512crypt, yescrypt]
    default: auto
    version_added: 0.3.0
  hash_rounds:
    description:
      - The SHA-512 crypt rounds, 1000 to 999999999; any other value is refused before anything is read or written.
    type: int
    default: 656000
  hash_cost:
    description:
      - The yescrypt cost, libxcrypt's scale of 1 to 11 (5, the default, is 16 MiB per hash, as the installer
        writes); any other value is refused before anything is read or written.
    type: int
    default: 5
    version_added: 0.3.0
  salt_seed:
    description:
      - Mixed into every salt. A salt is the first 16 hexadecimal digits of the SHA-512 of C(SEED|HOST|ACCOUNT),
        where ACCOUNT is V(root) or C(user:NAME); yescrypt takes those 16 characters as its salt bytes.
    type: str
    default: kickstart.pwpolicy
    version_added: 0.3.0
  host_id:
    description: The machine the kickstart is for, in every salt; the inventory host name by default.
    type: str
    version_added: 0.3.0
  create_dirs:
    description: Create the directories of the kickstart and the updates image (with O(dir_mode)) instead of stopping
      when one is missing.
    type: bool
    default: false
  dir_mode:
    description: The mode of the directories O(create_dirs) creates (a directory that exists keeps its mode and owner),
      a string as for O(mode).
    type: raw
  mode:
    description: The mode of the kickstart and the updates image, as C(ansible.builtin.file) takes it, but only as a
      string (V('0600')); a number is refused, because YAML reads C(600) as decimal.
    type: raw
  owner:
    description: The owner of the files (and of the directories O(create_dirs) creates).
    type: str
  group:
    description: The group of the files (and of the directories O(create_dirs) creates).
    type: str
  setype:
    description: The SELinux type of the files.
    type: str
  base_url:
    description:
      - The URL under which the directory of O(dest) (and of O(updates_image)) is served, for example
        V(http://ks.example.com/ks/), used in C(boot_args). Empty or omitted gives the paths as written.
      - The template gets the boot line as C(kickstart_boot_args) (the role's writes it in the kickstart's header).
      - A URL with credentials (a user part before C(@)) is refused, without showing it.
    type: str
  acknowledge:
    description:
      - The role's C(kickstart_acknowledge), the ids of the notices accepted (V(anaconda_deprecated),
        V(http_base_url)). The notices are never warnings of this task; they are in C(kickstart_result.notices), and
        those not acknowledged in C(kickstart_result.warnings) too. An unknown id fails the task, naming the valid
        ones.
    type: list
    elements: str
    version_added: 0.3.0
  profile:
    description:
      - The role's C(kickstart_profile), as the M(kickstart.pwpolicy.check_secrets) option of that name, with the
        role's check by profile (O(profile_exceptions)). It narrows O(hash) (a scheme it does not allow is refused,
        naming its rules), the hashes' cost must meet its minimum, and the template gets C(kickstart_pwquality) (every
        libpwquality setting, for the C(%post) drop-in) and C(kickstart_login_defs) (the C(/etc/login.defs) lines it
        asks for, as C([KEY, value]) pairs).
    type: raw
    version_added: 0.3.0
  blocklist:
    description: The role's C(kickstart_blocklist), as the M(kickstart.pwpolicy.check_secrets) option of that name.
    type: raw
    version_added: 0.3.0
  bootloader_iterations:
    description:
      - PBKDF2 iterations of the boot loader's GRUB 2 hash, 1000 to 10000000; any other value is refused before
        anything is read or written. The hash is given to the template as C(__kickstart_hashes.bootloader).
    type: int
    default: 10000
    version_added: 0.3.0
notes:
  - O(dest) and O(delivery) are required here. O(updates_image) is built only when the delivery includes one, and is
    required then.
  - In check mode, when a directory would be created, nothing can be validated in it; the task reports a change.
  - "In diff mode the kickstart's diff is shown whole, with every secret-bearing value masked on both sides (the file
    it replaces and the new text): the values of secret-bearing commands such as C(rootpw), C(user), C(bootloader),
    C(part --passphrase) or C(url) as C(<hidden>), every C(%pre) and C(%post) command that sets a password, here-documents
    included, whole, and hashes and URL credentials anywhere. A secret that changed on a line that reads the same
    masked (a new root password's hash) shows as C(<hidden: changed>); with the same O(salt_seed) an unchanged password
    gives the same hash, so its line reads unchanged. Only the kickstart's diff is shown, not the updates image's."
seealso:
  - module: kickstart.pwpolicy.check_secrets
  - module: kickstart.pwpolicy.ks_pwpolicy
  - module: kickstart.pwpolicy.anaconda_conf
extends_documentation_fragment:
  - kickstart.pwpolicy.preflight
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
    support: full
  platform:
    support: full
    platforms: posix
"""

EXAMPLES = r"""
# What the kickstart role runs for each host (tasks/render.yml), shortened: playbooks use the role.
- name: Check the secrets, render the template, validate and write the kickstart
  kickstart.pwpolicy.render_kickstart:
    role_vars: true
    dest: "/srv/ks/{{ inventory_hostname }}.ks"
    delivery: auto
    template: site.ks.j2
    mode: "0600"
    base_url: http://ks.example.com/ks/
  register: written

- name: Show the installer's boot line
  ansible.builtin.debug:
    msg: "{{ written.boot_args }}"
  # inst.ks=http://ks.example.com/ks/web01.ks inst.nosave=input_ks,output_ks
"""

RETURN = r"""
kickstart:
  description: The kickstart written (its path, and whether it changed).
  returned: success
  type: dict
  sample: {path: /srv/ks/web01.ks, changed: true}
boot_args:
  description:
    - The installer's boot line for the files, at O(base_url) when given, else at their paths.
    - C(inst.nosave=input_ks,output_ks) is there whenever the kickstart holds a plain-text secret or a hash (a
      password hash, a LUKS passphrase) and the release takes it (every release that copies the kickstart to the
      installed system but Fedora 24); C(inst.nosave=output_ks) otherwise.
  returned: when the template was rendered
  type: str
  sample: inst.ks=http://ks.example.com/ks/web01.ks inst.updates=http://ks.example.com/ks/web01.updates.img inst.nosave=input_ks,output_ks
updates_image:
  description: The updates image built (its path, and whether it changed).
  returned: when the delivery includes an updates image and the task succeeded
  type: dict
  sample: {path: /srv/ks/web01.updates.img, changed: false}
findings:
  description:
    - One finding per secret and per value that cannot go on a kickstart line, with the keys
      M(kickstart.pwpolicy.check_secrets) returns (C(host), C(secret), C(verdict), C(ok), C(score), C(strength),
      C(reasons), C(hints), C(policy)). Never holds a secret.
  returned: always
  type: list
  elements: dict
  contains:
    stops:
      description: Present and V(true) when the value cannot go on a kickstart line; such a finding always fails the task.
      type: bool
      returned: when true
policies:
  description: The effective policies, keyed by name, as M(kickstart.pwpolicy.check_secrets) returns them.
  returned: always
  type: dict
release:
  description: What the O(target) release does with password policies, as M(kickstart.pwpolicy.check_secrets) returns it.
  returned: always
  type: dict
delivery:
  description: What carries the policies to the installer (C(section), C(updates_image)), as M(kickstart.pwpolicy.check_secrets) returns it.
  returned: always
  type: dict
summary:
  description: How many findings have each verdict.
  returned: always
  type: dict
msg:
  description: The pre-flight's message; on a failed step, which step failed and why, with every secret hidden.
  returned: always
  type: str
warnings:
  description: The pre-flight's warnings (weak secrets, the weakest link), then those of the modules (deprecations of the target).
  returned: when there are any
  type: list
  elements: str
weakest_link:
  description: With O(weakest), the host's weakest link, as M(kickstart.pwpolicy.check_secrets) returns it.
  returned: when O(weakest) is given
  type: dict
profile:
  description:
    - The compliance profiles checked by, the rule ids waived and the deviations, as
      M(kickstart.pwpolicy.check_secrets) returns them with O(profile_exceptions).
    - C(read_back) is what the judge found in the rendered text, read back as the installer will read it before
      it was written, each a dict with C(rule), C(rules), C(profile), C(what), C(expected), C(found), C(where)
      (C(line), and C(file) for what a C(%post) script writes) and C(fix). C(deviations) is empty in a run that
      wrote (a deviation stops it), C(waived) lists those O(profile_exceptions) waives, C(not_checked) what a
      template or an C(%include) leaves open (with C(reason) instead of C(expected), C(found) and C(fix)). A rule
      the pre-flight reported from the values given is not repeated here.
  returned: when O(profile) is given
  type: dict
  version_added: 0.3.0
conflicts:
  description: Where the selected profiles disagree, as M(kickstart.pwpolicy.check_secrets) returns it.
  returned: when O(profile) is given
  type: list
  elements: str
  version_added: 0.3.0
kickstart_result:
  description:
    - The P(kickstart.pwpolicy.kickstart#role) role's fact C(kickstart_result), whole (the role copies it; its
      argument specs describe each key). C(warnings) holds every warning of the task as text, the pre-flight's
      first, and each notice not acknowledged.
  returned: success
  type: dict
  contains:
    path:
      description: The kickstart written (O(dest)).
      type: str
    product:
      description: The product (O(product)).
      type: str
    target:
      description: The installer release (O(target)).
      type: str
    changed:
      description: Whether the kickstart, the updates image or a directory changed.
      type: bool
    policies:
      description: The effective policies, as RV(policies).
      type: dict
    delivery:
      description: What carries the policies to the installer, a list of V(section), V(updates_image) or both.
      type: list
      elements: str
    warnings:
      description: Every warning of the task, as text, and the text of each notice not acknowledged.
      type: list
      elements: str
    notices:
      description:
        - The warnings that are the same for every host, which the role prints once for all its hosts, each a dict
          with C(id) (V(anaconda_deprecated) or V(http_base_url)), C(text) and C(acknowledged) (listed in
          O(acknowledge)).
      type: list
      elements: dict
      version_added: 0.3.0
    base_url:
      description: O(base_url) ending in C(/); null without one (the boot arguments then hold the paths as written).
      type: str
      version_added: 0.3.0
    inst_ks:
      description: The C(inst.ks=) boot argument, at the same location as in RV(boot_args).
      type: str
    updates_image:
      description: The updates image's path; null when none is built.
      type: str
    inst_updates:
      description: The C(inst.updates=) boot argument; null when no updates image is built.
      type: str
    boot_args:
      description: As RV(boot_args).
      type: str
    profile:
      description: The compliance profile met, as the pre-flight's C(profile) (M(kickstart.pwpolicy.check_secrets));
        null without O(profile).
      type: dict
      version_added: 0.3.0
  sample:
    path: /srv/ks/web01.ks
    product: server
    target: RHEL9
    changed: true
    policies: {}
    delivery: [section]
    warnings: []
    notices: []
    base_url: http://ks.example.com/ks/
    inst_ks: inst.ks=http://ks.example.com/ks/web01.ks
    updates_image: null
    inst_updates: null
    boot_args: inst.ks=http://ks.example.com/ks/web01.ks inst.nosave=input_ks,output_ks
    profile: null
"""
