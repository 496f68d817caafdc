#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: ks_secrets_info
version_added: 0.3.0
short_description: Find the plaintext, legacy, cheap and known-weak secrets a kickstart keeps at rest
description:
  - Reads a kickstart, or an unrendered kickstart template (O(template)), and returns every line that carries a
    secret, with what is wrong with it. Kickstarts kept in repositories and on install servers often carry their
    passwords in the clear or as crypt hashes of a tool's default password; this module finds them.
  - "The lines read: C(rootpw), C(user --password), C(sshpw), C(bootloader --password) and C(--md5pass),
    C(part)/C(partition)/C(logvol)/C(raid)/C(autopart --passphrase) (and C(--hw-passphrase)), and credentials:
    C(rhsm --activation-key), C(iscsi --password) and C(--reverse-password), C(vnc) and C(rdp --password),
    C(network --wpakey), C(realm --one-time-password), and credentials in a URL of C(url), C(repo),
    C(liveimg), C(ostreesetup), C(ostreecontainer) or C(rhsm --proxy) (C(user:password@), C(TOKEN@), C(TOKEN:@),
    C(TOKEN:x-oauth-basic@))."
  - "Lines are read as the installer reads them: of C(--iscrypted) and C(--plaintext) the last one given wins (with
    pykickstart installed, its parser for O(target) decides), and a C(#) starts a comment."
  - "Each secret gets findings: V(plaintext) (a password, passphrase or credential anyone with the file can read),
    V(legacy_scheme) (DES, MD5 crypt and the other schemes libxcrypt no longer counts as strong), V(low_cost)
    (rounds or cost below the minimum of O(profile), or below the scheme's default without one), V(known_weak)
    (the hash is of a password from the candidate list) and V(policy) (a password in the clear that is a common
    password, a tool's default or a word of the file, or shorter than O(profile) asks; a hash in a scheme
    O(profile) does not allow)."
  - "The known-weak check tries the candidates most likely first: the documented defaults of installers and
    provisioning tools (Vagrant, Cobbler, Packer...), the account and host names and the product and OS words of
    the file, O(wordlist), zxcvbn's 30,000 most common passwords, and the usual variations of them (a capital,
    appended digits and years, letters swapped for digits or symbols). It hashes them with the node's libxcrypt,
    on every core, within O(budget), and tries identical hashes once. RV(secrets[].tried) says how many
    candidates a hash was tried against: not found among them is not strong."
  - "V(policy) findings do not include libpwquality's checks (dictionary words, character classes, a profile's
    pwquality settings), which need the controller's libpwquality: check the passwords you keep in a vault with
    the P(kickstart.pwpolicy.pwpolicy_check#filter) filter or M(kickstart.pwpolicy.check_secrets)."
  - Never returns, warns about or fails with a secret, a hash, or which candidate matched; never changes anything.
  - C(%include) and C(%ksappend) are never followed.
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
requirements:
  - libxcrypt (C(libcrypt.so.1)) on the managed node for the known-weak check of crypt hashes (package C(libcrypt1)
    on Debian and Ubuntu, C(libxcrypt) on Fedora and RHEL); without it crypt hashes are not tried, with a warning.
  - pykickstart on the managed node is optional; where it is installed, abbreviated options (C(--iscr) for
    C(--iscrypted)) are read as the installer reads them, else options must be written in full.
extends_documentation_fragment:
  - kickstart.pwpolicy.policy.info_module
  - kickstart.pwpolicy.policy.secret_source
attributes:
  platform:
    support: full
    platforms: posix
    description: Runs on any POSIX managed node.
options:
  template:
    description:
      - Read an unrendered ERB (Foreman), Cheetah (Cobbler), Jinja or Terraform template, as
        M(kickstart.pwpolicy.ks_pwpolicy) reads one with C(validate=false).
      - A value the template fills in (C(<%= root_pass %>), C($default_password_crypted), C({{ pw }}), C(${pw})) is
        of form V(template), without findings; the template's own lines (C(<% if %>), C(#if), C($SNIPPET(...))) are
        kept, and a section ends at C(%end) or at an expression naming a section end (Foreman's
        C(<%= section_end -%>)).
      - With V(false), a file holding a line only an unrendered template has (an ERB tag, a Cheetah directive or
        C($SNIPPET(...)), a Jinja expression on a command line) gets a warning naming that line, as its
        placeholders would be judged as values.
    type: bool
    default: false
  target:
    description:
      - The installer release, as pykickstart names it (for example V(RHEL9)). Defaults to the kickstart's
        C(#version=) line.
      - With O(profile) it must be V(RHEL8), V(RHEL9) or V(RHEL10); without one the release only picks the option
        parsers abbreviations are resolved with.
    type: str
  profile:
    description:
      - A compliance profile, as the P(kickstart.pwpolicy.compliance_profile#filter) filter names them, whose hashing
        schemes, rounds and minimum length the secrets are held to, for O(target).
      - Without one, V(low_cost) is below the scheme's default (5,000 rounds for SHA-256 and SHA-512 crypt, cost 5
        for yescrypt, 10 for bcrypt, 10,000 iterations for GRUB 2's PBKDF2).
      - V(stig), V(cis_server_l1), V(cis_server_l2), V(cis_workstation_l1), V(cis_workstation_l2), V(ospp),
        V(pci_dss), V(anssi) or V(nist_800_63b), in any case.
    type: str
  wordlist:
    description:
      - A file of your own candidate passwords on the managed node, one a line (UTF-8, at most 16 MiB), tried after
        the tool defaults, the words of the file and their most usual variations, before the common passwords.
      - A password in the clear that is on it gets a V(policy) finding.
    type: path
  budget:
    description:
      - Seconds of hashing each distinct hash gets, counted on each core the check uses (on two cores a hash takes
        at most half of it in wall time). A slow scheme (yescrypt, bcrypt) gets fewer candidates than a fast one.
      - V(0) skips the known-weak check. At most 3600.
      - "A hash whose stated cost makes one guess take longer than the budget (C(rounds=999999999), bcrypt's cost
        31, a yescrypt with a large C(t)), or whose memory is over 256 MiB a thread (yescrypt, scrypt), is never
        hashed: its RV(secrets[].tried) is 0 and a warning names the line and why."
    type: float
    default: 2.0
seealso:
  - module: kickstart.pwpolicy.ks_pwpolicy_info
  - module: kickstart.pwpolicy.check_secrets
  - plugin: kickstart.pwpolicy.compliance_profile
    plugin_type: filter
"""

EXAMPLES = r"""
- name: Find the weak and plaintext secrets of a kickstart
  kickstart.pwpolicy.ks_secrets_info:
    path: /srv/ks/server.ks
  register: at_rest

- name: Fail when a secret has a finding
  ansible.builtin.assert:
    that: at_rest.secrets | map(attribute='findings') | flatten | length == 0
    fail_msg: "{{ at_rest.secrets | selectattr('findings') | map(attribute='line') | list }}"

- name: A Foreman template, against the STIG for RHEL 9, with a site's own word list
  kickstart.pwpolicy.ks_secrets_info:
    path: /srv/foreman/kickstart_site.erb
    template: true
    profile: stig
    target: RHEL9
    wordlist: /srv/audit/site-words.txt
    budget: 5
  register: foreman
"""

RETURN = r"""
secrets:
  description:
    - Every secret of the file, in file order; a line with two secrets (C(iscsi) with both passwords) gives two.
  returned: always
  type: list
  elements: dict
  contains:
    line:
      description: The line number in the file.
      type: int
    command:
      description: The kickstart command of the line (C(rootpw), C(user), C(bootloader), C(part), C(url)...).
      type: str
    account:
      description:
        - The account the secret opens (C(root) for C(rootpw) and GRUB's superuser, C(--name) of C(user),
          C(--username) of C(sshpw), the user of C(iscsi), the user part of a URL); null where there is none or the
          template fills it in.
        - A URL's user part is the account only when it reads as a plain account name beside a real password (1 to
          20 letters, digits, C(.), C(_), C(-), starting with a letter, fewer than 4 digits, no digit with an
          upper-case letter, no more than 2 upper-case letters among lower-case ones, no known token prefix such as
          C(ghp_) or C(glpat-)); else it may be a token, and the account is null (the finding says
          C(url credentials)).
      type: str
    form:
      description:
        - V(plaintext), V(crypt) (a crypt(3) hash), V(grub_pbkdf2) (a GRUB 2 hash), V(passphrase) (a LUKS
          passphrase, always in the clear), V(locked) (C(--lock) without a password, or a hash field no password
          opens) or V(template) (a value the template fills in).
      type: str
    scheme:
      description:
        - The hashing scheme of a hash (V(des), V(bsdicrypt), V(md5crypt), V(sha256crypt), V(sha512crypt),
          V(yescrypt), V(gost_yescrypt), V(bcrypt), V(scrypt), V(pbkdf2_sha512), ...); null for other forms and
          for a value that is no hash of a scheme known here.
      type: str
    cost:
      description: The hash's rounds, cost or iterations as its scheme counts them; null where the scheme has none.
      type: int
    tried:
      description:
        - How many candidate passwords the hash was tried against without a match; 0 where it could not be tried
          (no libxcrypt, a scheme it cannot compute, O(budget) 0); null for other forms and for a hash found weak.
      type: int
    findings:
      description: What is wrong with the secret, in the order V(plaintext), V(legacy_scheme), V(low_cost),
        V(known_weak), V(policy); empty when nothing is.
      type: list
      elements: dict
      contains:
        id:
          description: V(plaintext), V(legacy_scheme), V(low_cost), V(known_weak) or V(policy).
          type: str
        reason:
          description: Why, in words; never the secret, the hash or the matching candidate.
          type: str
        hint:
          description: What to do about it.
          type: str
  sample:
    - line: 7
      command: rootpw
      account: root
      form: crypt
      scheme: md5crypt
      cost: null
      tried: null
      findings:
        - {id: legacy_scheme, reason: "MD5 crypt: a fixed 1,000 rounds of MD5 is a legacy scheme: ...",
           hint: "choose a new password and hash it with yescrypt ..."}
        - {id: known_weak, reason: "the hash is of a password from the list of likely ones ...",
           hint: "choose a new, random password ..."}
deviations:
  description:
    - "With O(profile), what the kickstart, read as the installer will read it, does not meet of the profile: each
      with C(rule), C(rules), C(profile), C(what), C(expected), C(found), C(where) and C(fix), as
      M(kickstart.pwpolicy.posture_info) returns them (the same judge)."
  returned: when O(profile) is given
  type: list
  elements: dict
  version_added: 0.3.0
not_checked:
  description: With O(profile), what the judge could not check (a value a template fills in, an C(%include)).
  returned: when O(profile) is given
  type: list
  elements: dict
  version_added: 0.3.0
target:
  description: The installer release the file was read for (O(target) or the C(#version=) line); null without one.
  returned: always
  type: str
  sample: RHEL9
lineno:
  description: When reading fails because of one line of the file, that line's number.
  returned: on failure
  type: int
  sample: 12
"""


from ansible_collections.kickstart.pwpolicy.plugins.module_utils._argspec import (
    TextModule,
    read_source_options,
    read_source_rules,
    source_text,
    spec,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._candidates import wordlist_words
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import FileError, read_text
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._known_weak import DEFAULT_BUDGET, check_budget
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_secrets import (
    read_secrets, template_look, template_look_message)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.judge import judge
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.kickstart import read_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._profiles import profile_names


def _wordlist(path):
    if path is None:
        return []
    text, path = read_text(path, "wordlist")
    if "\0" in text:
        raise FileError("wordlist %s holds a NUL character: give a text file of passwords, one a line" % path)
    return list(wordlist_words(text))


def main():
    module = TextModule(
        argument_spec=spec(read_source_options(secret_content=True),
                           template=dict(type="bool", default=False),
                           target=dict(type="str"),
                           profile=dict(type="str"),
                           wordlist=dict(type="path"),
                           budget=dict(type="float", default=DEFAULT_BUDGET)),
        supports_check_mode=True,
        **read_source_rules()
    )
    params = module.params
    try:
        check_budget(params["budget"])
        if params["profile"]:  # any case; an unknown name is shown only when it is a typo of one
            params["profile"] = profile_names([params["profile"]], "profile")[0]
    except PwpolicyError as exc:
        module.fail_json(msg=str(exc))
    where = ""
    try:
        text, where = source_text(params)
        words = _wordlist(params["wordlist"])
        report = read_secrets(text, template=params["template"], target=params["target"],
                              profile=params["profile"], wordlist=words, budget=params["budget"])
    except FileError as exc:
        module.fail_json(msg=str(exc))
    except PwpolicyError as exc:
        module.fail_json(msg="%s%s" % (exc, where), lineno=exc.lineno)
    result = dict(changed=False, target=report.release, secrets=report.to_list())
    if params["profile"]:
        # The one judge (module_utils/_posture), as posture_info, the role and the audit run it.
        try:
            judged = judge(read_kickstart(text, params["target"], template=params["template"], read=report.read),
                           [params["profile"]], report.release)
        except PwpolicyError as exc:
            module.fail_json(msg="profile: %s%s" % (exc, where))
        result.update(deviations=judged["deviations"], not_checked=judged["not_checked"])
    for message in report.warnings:
        module.warn(message)
    look = None if params["template"] else template_look(report.read[3], report.read[4])
    if look:
        module.warn(template_look_message(look, "set template: true to read it as a template"))
    module.exit_json(**result)


if __name__ == "__main__":
    main()
