#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: posture_info
version_added: 0.3.0
short_description: What a kickstart would make of a system, or what an installed host enforces, and how it deviates
  from a compliance profile
description:
  - Reads a kickstart, or an unrendered kickstart template (O(template)), as the target's installer will read it,
    into a posture, and with O(profile) judges it against the compliance profiles.
  - With O(source=host), reads the installed host it runs on (or the tree at O(root)) into the same posture, from
    the machine itself, and judges it the same way.
  - "The posture: the accounts (form, hashing scheme and cost), the encrypted devices (encryption, passphrase form,
    LUKS version, key derivation), the boot-loader password, the libpwquality settings and C(/etc/login.defs)
    lines that C(%post) scripts write (each with its file and line), the installer's password policies, how the
    target's installer hashes a password a person types, FIPS mode, the lines that keep a secret at rest, and what
    could not be read (C(%include), C(%ksappend))."
  - Options are read with the target release's own pykickstart parsers (a C(#) starts a comment, the last of two
    conflicting flags wins, an abbreviated option is what pykickstart makes of it), so the judge sees what the
    installer will do.
  - Each deviation names the rule id, what the profile expects, what was found and where, and what to do. A value
    a template fills in or an C(%include) brings is V(not_checked), never accepted or rejected.
  - Never returns, warns about or fails with a secret or a hash; never changes anything.
  - "An installed host's posture: libpwquality's settings in effect (C(pwquality.conf.d/*.conf), then
    C(pwquality.conf), which wins) with the file and line of each and the keys two files set differently; the
    password lines of the PAM stacks (pam_pwquality's options, pam_unix's hash and C(rounds=)) and authselect's
    profile; C(/etc/login.defs); each account of C(/etc/shadow) with its hash's scheme and cost, locked or empty
    (never the hash); each LUKS device's header (C(cryptsetup luksDump): LUKS version, cipher, key size, each
    active key slot's key derivation and its cost, the Clevis or TPM2 tokens bound); GRUB 2's superuser password
    (C(user.cfg), C(grub.cfg)) and its PBKDF2 iterations; the kickstarts and logs the installer left
    (C(/root/original-ks.cfg), C(/root/anaconda-ks.cfg), C(/var/log/anaconda)) with how many secrets each keeps;
    FIPS mode; and the release C(/etc/os-release) names."
  - Reading a host needs root (C(become)) for C(/etc/shadow) and the LUKS headers.
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
requirements:
  - pykickstart on the managed node, for the options as the installer reads them (without it storage, boot-loader
    and policy lines are listed under RV(posture.unknown)).
  - With O(source=host), C(cryptsetup) and C(blkid) (or C(lsblk)) on the host for its LUKS devices.
extends_documentation_fragment:
  - kickstart.pwpolicy.policy.info_module
  - kickstart.pwpolicy.policy.secret_source
attributes:
  platform:
    support: full
    platforms: posix
    description: Runs on any POSIX managed node.
options:
  source:
    description:
      - What to read. V(kickstart) is O(path) or O(content); V(host) is the installed host the module runs on, or
        the tree at O(root) (O(path) and O(content) are then not given).
    type: str
    choices: [kickstart, host]
    default: kickstart
  root:
    description:
      - With O(source=host), the directory the host's files are read under (a mounted image, a test tree); links
        are followed inside it, and every path in the result is the host's.
      - Under a O(root) other than V(/) the LUKS devices are those of O(devices) only (the block devices the
        system lists are the running system's).
    type: path
    default: /
  devices:
    description:
      - With O(source=host), the LUKS devices (or header files) to read; by default every device C(blkid) finds
        with a LUKS header.
    type: list
    elements: path
  template:
    description:
      - Read an unrendered ERB (Foreman), Cheetah (Cobbler), Jinja or Terraform template, as
        M(kickstart.pwpolicy.ks_secrets_info) reads one. A value the template fills in is V(template) and is not
        judged.
      - With V(false), a file that looks like an unrendered template gets a warning naming its first template line,
        as M(kickstart.pwpolicy.ks_secrets_info) gives.
    type: bool
    default: false
  target:
    description:
      - The installer release, as pykickstart names it (for example V(RHEL9)). Defaults to the kickstart's
        C(#version=) line, or for a host to the release C(/etc/os-release) names.
      - With O(profile) it must be V(RHEL8), V(RHEL9) or V(RHEL10), or the C(#version=) line must name one of them.
    type: str
  profile:
    description:
      - Compliance profiles to judge the posture against, as the P(kickstart.pwpolicy.compliance_profile#filter)
        filter names them. Without one, only the posture is returned.
      - V(stig), V(cis_server_l1), V(cis_server_l2), V(cis_workstation_l1), V(cis_workstation_l2), V(ospp),
        V(pci_dss), V(anssi) or V(nist_800_63b), in any case.
    type: list
    elements: str
  policies:
    description:
      - Password policies the kickstart's C(%anaconda) section must ask at least as much as, a dict keyed by
        policy name (V(root), V(user), V(luks)) or a list of dicts with C(name), with the fields of
        M(kickstart.pwpolicy.ks_pwpolicy); a field left out is what O(target)'s installer makes of an omitted
        option.
      - Each field of a written C(pwpolicy) line that asks less, and each name the section does not set, is a
        deviation named C(policies.NAME.FIELD) (or C(policies.NAME)), which O(exceptions) can waive like a
        profile's rule. Where the target takes its policies from anaconda configuration, they are
        RV(not_checked).
    type: raw
  exceptions:
    description:
      - Rule ids waived; a deviation is waived when every rule that asks for its value is listed, and is then
        returned under RV(waived), not RV(deviations).
    type: list
    elements: str
    default: []
seealso:
  - module: kickstart.pwpolicy.ks_secrets_info
  - plugin: kickstart.pwpolicy.compliance_profile
    plugin_type: filter
  - ref: ansible_collections.kickstart.pwpolicy.docsite.judge
    description: The posture, the judge's rules and what the installers do with the policies.
"""

EXAMPLES = r"""
- name: Judge a kickstart on the install server against the STIG
  kickstart.pwpolicy.posture_info:
    path: /srv/ks/web01.ks
    profile: [stig]
  register: judged

- name: Fail with every deviation, its rule and its line
  ansible.builtin.assert:
    that: judged.deviations == []
    fail_msg: "{{ judged.deviations | map(attribute='rule') | join(', ') }}"

- name: What the installed host enforces, against the STIG of its release
  kickstart.pwpolicy.posture_info:
    source: host
    profile: [stig]
  become: true
  register: installed

- name: A Foreman template, with the placeholders left unjudged
  kickstart.pwpolicy.posture_info:
    path: /srv/foreman/templates/provision.erb
    template: true
    target: RHEL9
    profile: [cis_server_l2]
"""

RETURN = r"""
posture:
  description:
    - What the kickstart would make of the system; never a secret or a hash. The keys are described in the
      collection's docs (posture and judge).
  returned: success
  type: dict
  contains:
    source:
      description: V(kickstart) or V(host).
      type: str
    target:
      description: The installer release read for, or null.
      type: str
    accounts:
      description: Each C(rootpw) and C(user) line, with C(name), C(command), C(form) (V(plaintext), V(crypt),
        V(locked), V(template), V(unparsed)), C(scheme), C(cost) and C(where).
      type: list
      elements: dict
    devices:
      description: Each C(part), C(raid), C(volgroup) and C(logvol) line, with C(command), C(name), C(encrypted),
        C(passphrase), C(luks_version), C(kdf), C(members) and C(where).
      type: list
      elements: dict
    autopart:
      description: The C(autopart) line, or null.
      type: dict
    bootloader:
      description: The boot-loader password (C(form), C(scheme), C(cost), C(where)), or null without a
        C(bootloader) line.
      type: dict
    pwquality:
      description: C(settings) and, for each, its C(origins) (file and line).
      type: dict
    login_defs:
      description: Each C(/etc/login.defs) key written, with C(value) and C(where).
      type: dict
    policies:
      description: The C(%anaconda) section's policies in effect, with C(where).
      type: dict
    installer:
      description: C(hashes_typed_as), how the target's installer hashes a password a person types.
      type: dict
    at_rest:
      description: Each line that keeps a secret at rest (C(command), C(form), C(where)).
      type: list
      elements: dict
    fips:
      description: Whether the kernel command line turns FIPS mode on.
      type: bool
    unknown:
      description: "What could not be read (C(what), C(scope), C(where)); C(scope) V(commands) (an C(%include), an
        unreadable command line: storage may be there), V(script), V(section), or V(host) (a host's file or
        command that could not be read)."
      type: list
      elements: dict
    os:
      description: With O(source=host), C(id), C(id_like), C(version_id), C(target) and C(where) of
        C(/etc/os-release), or null.
      type: dict
      returned: with O(source=host)
    pam:
      description: With O(source=host), C(stacks) (each PAM stack's C(pwquality) and C(unix) password lines with
        their options, C(where) and the C(link) authselect made) and C(authselect) (C(profile), C(features),
        C(linked)), or null without authselect.
      type: dict
      returned: with O(source=host)
    leftovers:
      description: With O(source=host), each kickstart or log the installer left (C(path), C(exists), C(secrets),
        C(plaintext), C(kinds)); the secrets are counted, never shown.
      type: list
      elements: dict
      returned: with O(source=host)
    fips_where:
      description: With O(source=host), where the FIPS state was read.
      type: dict
      returned: with O(source=host)
deviations:
  description:
    - With O(profile) or O(policies), each deviation no exception waives, with C(rule), C(rules), C(profile)
      (null for a deviation from O(policies)), C(what), C(expected), C(found), C(where) and C(fix).
  returned: success
  type: list
  elements: dict
  sample:
    - rule: RHEL-09-231190
      rules: [RHEL-09-231190]
      profile: stig (RHEL9)
      what: encryption
      expected: encrypted disks
      found: autopart without --encrypted
      where: {line: 14}
      fix: add --encrypted to the autopart line
waived:
  description: With O(profile), the deviations O(exceptions) waives.
  returned: success
  type: list
  elements: dict
not_checked:
  description: With O(profile), what the judge could not check (C(rule), C(rules), C(profile), C(what), C(reason),
    C(where)).
  returned: success
  type: list
  elements: dict
target:
  description: The installer release the file was read for; null without one.
  returned: always
  type: str
  sample: RHEL9
lineno:
  description: When reading fails because of one line of the file, that line's number.
  returned: on failure
  type: int
"""

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._argspec import (
    TextModule,
    read_source_options,
    read_source_rules,
    source_text,
    spec,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import FileError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_secrets import (
    read_lines, template_look, template_look_message)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import build_policies
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host import read_host
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.judge import judge, judge_policies
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.kickstart import read_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._profiles import TARGETS, profile_names


# The commands a host's LUKS devices are read with, and where a system keeps them beside PATH.
SYSTEM_DIRS = ["/usr/sbin", "/sbin"]


def runner(module):
    """``run(argv) -> (rc, stdout, stderr)`` for ``host_disk``: the command found on the host, in the C locale;
    127 where it is not installed."""
    def run(argv):
        path = module.get_bin_path(argv[0], opt_dirs=SYSTEM_DIRS)
        if path is None:
            return 127, "", "%s is not installed" % argv[0]
        return module.run_command([path] + list(argv[1:]), environ_update={"LC_ALL": "C", "LANG": "C"})
    return run


def read_posture(module, params):
    """``(posture, read, where)``: the posture of what ``source`` names, the kickstart reader's lines (None for a
    host) and how errors name the file."""
    if params["source"] == "host":
        if params["path"] is not None or params["content"] is not None:
            module.fail_json(msg="source=host reads the host itself (or root): give no path or content")
        posture = read_host(params["root"], runner(module), params["devices"])
        if params["target"]:
            posture["target"] = params["target"]
        return posture, None, " (the host%s)" % ("" if params["root"] == "/" else " under %s" % params["root"])
    text, where = source_text(params)
    read = read_lines(text, params["template"], params["target"])
    return read_kickstart(text, params["target"], template=params["template"], read=read), read, where


def main():
    rules = read_source_rules()
    rules["required_if"] = [("source", "kickstart", rules.pop("required_one_of")[0], True)]
    module = TextModule(
        argument_spec=spec(read_source_options(secret_content=True),
                           source=dict(type="str", choices=["kickstart", "host"], default="kickstart"),
                           root=dict(type="path", default="/"),
                           devices=dict(type="list", elements="path"),
                           template=dict(type="bool", default=False),
                           target=dict(type="str"),
                           profile=dict(type="list", elements="str"),
                           policies=dict(type="raw"),
                           exceptions=dict(type="list", elements="str", default=[])),
        supports_check_mode=True,
        **rules
    )
    params = module.params
    if params["profile"]:
        try:  # any case; an unknown name is shown only when it is a typo of one
            params["profile"] = profile_names(params["profile"], "profile")
        except PwpolicyError as exc:
            module.fail_json(msg=str(exc))
    where = ""
    try:
        posture, read, where = read_posture(module, params)
    except FileError as exc:
        module.fail_json(msg=str(exc))
    except PwpolicyError as exc:
        module.fail_json(msg="%s%s" % (exc, where), lineno=exc.lineno)
    result = dict(changed=False, target=posture["target"], posture=posture, deviations=[], waived=[],
                  not_checked=[])
    look = None if params["template"] or read is None else template_look(read[3], read[4])
    if look:
        module.warn(template_look_message(look, "set template: true to read it as a template"))
    if params["policies"] is not None:
        try:
            wanted = build_policies(params["policies"], target=posture["target"])
        except PwpolicyError as exc:
            module.fail_json(msg="policies: %s" % exc)
        found = judge_policies(posture, wanted)
        for deviation in found["deviations"]:
            waived = all(rule in params["exceptions"] for rule in deviation["rules"])
            result["waived" if waived else "deviations"].append(deviation)
        result["not_checked"].extend(found["not_checked"])
    if params["profile"]:
        if posture["target"] not in TARGETS:
            read_what = "the kickstart%s" % where if read is not None else where.strip(" ()")
            module.fail_json(msg="profile: the compliance profiles are for %s; give target (%s is for %s)" % (
                ", ".join(TARGETS), read_what, posture["target"] or "no release it names"))
        try:
            judged = judge(posture, params["profile"], posture["target"], params["exceptions"])
        except PwpolicyError as exc:
            module.fail_json(msg=str(exc))
        for key in ("deviations", "waived", "not_checked"):
            result[key].extend(judged[key])
    module.exit_json(**result)


if __name__ == "__main__":
    main()
