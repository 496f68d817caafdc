# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``pwpolicy_password`` lookup: a thin wrapper over plugin_utils._generate."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
name: pwpolicy_password
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
version_added: 0.3.0
short_description: A random password or passphrase that a password policy or a compliance profile accepts
description:
  - Returns a random password or passphrase made with Python's C(secrets) module (the operating system's random
    generator) that the collection's verdict accepts (C(accepted), as the P(kickstart.pwpolicy.pwpolicy_check#filter)
    filter reports it) under a password policy or a compliance profile, and that no blocklist holds.
  - Every candidate is checked against the list of common passwords shipped with the collection and against
    O(blocklist); a refused candidate is drawn again, at most 100 times. After that the lookup fails, naming the
    policy, the reasons the candidates were refused and what to change; no error, warning or log line ever holds a
    generated value.
  - O(kind=password) draws characters from all four classes (lower-case and upper-case letters, digits, and the
    symbols C(!*+,-./:=?@^_~), which no shell, YAML, Jinja or kickstart line takes for syntax), at least one of
    each.
  - O(kind=passphrase) joins words with O(separator). The words are the English words of 4 to 8 lower-case letters
    in the frequency lists C(english_wikipedia) and C(us_tv_and_film) of the Python package C(zxcvbn) (MIT licence;
    29,357 words, 14.8 bits each). When the libpwquality settings ask for classes (credits, C(minclass)), one word is
    capitalised and a digit or symbol is added to a word. When they set C(maxclassrepeat), only words that short
    are used (1,119 words of 4 letters for the STIG).
  - The value is a secret. C(lookup) runs again each time the expression is templated, so a variable defined with it
    gives a new password at each use. Generate it once and store it (C(ansible.builtin.set_fact) with C(no_log)),
    or encrypt it once with C(ansible-vault encrypt_string) and keep the vaulted value (see the examples).
requirements:
  - libpwquality on the controller (see the collection's requirements).
  - The Python package C(zxcvbn) on the controller for O(kind=passphrase).
options:
  _terms:
    description: Not used; give the options as keywords.
    required: false
  policy:
    description:
      - The password policy, a dict of policy fields (C(name), C(minlen), C(minquality), C(strict), C(emptyok),
        C(changesok)) or a policy name, V(root), V(user) or V(luks); fields left out come from O(product)'s preset.
      - Without O(policy) and O(profile), the V(user) policy of O(product).
      - Give either O(policy) or O(profile).
    type: raw
  product:
    description: The product preset that fills the policy's omitted fields; ignored with O(profile).
    type: str
    choices: [server, cloud, workstation]
    default: server
  profile:
    description:
      - A compliance profile (V(stig), V(cis_server_l1), V(cis_server_l2), V(cis_workstation_l1),
        V(cis_workstation_l2), V(ospp), V(pci_dss), V(anssi), V(nist_800_63b)), as the
        P(kickstart.pwpolicy.compliance_profile#filter) filter gives it; its policy for O(policy_name) and its
        libpwquality settings apply.
    type: str
  target:
    description: The target release of O(profile), V(RHEL8), V(RHEL9) or V(RHEL10).
    type: str
  policy_name:
    description: The policy of O(profile) that applies, V(root), V(user) or V(luks).
    type: str
    choices: [root, user, luks]
    default: user
  settings:
    description:
      - Explicit libpwquality settings (as the P(kickstart.pwpolicy.pwpolicy_check#filter) filter takes them), on top
        of those of O(profile).
    type: dict
  kind:
    description: A V(password) of random characters or a V(passphrase) of words.
    type: str
    choices: [password, passphrase]
    default: password
  length:
    description:
      - The number of characters of a password (O(kind=password) only).
      - Defaults to the policy's C(minlen) plus 4, and at least 16. Below the policy's C(minlen) (or 6, libpwquality's
        least) or above 4096 is an error.
    type: int
  words:
    description:
      - The number of words of a passphrase (O(kind=passphrase) only), from 1 to 256.
      - Defaults to 6, or more when the settings leave fewer words to choose from, so that the words carry at least
        64 bits. Too few words to reach the policy's C(minlen) is an error; fewer words than carry 64 bits (2 or 3
        words, whose length may still meet C(minlen)) get a warning, as an attacker guesses words, not letters.
    type: int
  separator:
    description:
      - What joins the words of a passphrase (O(kind=passphrase) only), at most 8 characters; defaults to C(-).
    type: str
  blocklist:
    description:
      - Local breach corpora the value must not be in, besides the shipped list of common passwords, each the path
        of a Pwned Passwords range directory or of a sorted C(SHA1:COUNT) file (as the
        M(kickstart.pwpolicy.check_secrets) action takes them). Nothing is looked up over the network.
    type: list
    elements: raw
  username:
    description: The account name, which libpwquality's user-name check refuses in the value (O(policy=user)).
    type: str
notes:
  - Runs on the controller. Reasons and errors come from the same verdict as the
    P(kickstart.pwpolicy.pwpolicy_check#filter) filter and never repeat the generated value.
seealso:
  - plugin: kickstart.pwpolicy.pwpolicy_check
    plugin_type: filter
  - plugin: kickstart.pwpolicy.compliance_profile
    plugin_type: filter
"""

EXAMPLES = r"""
- name: A password the server preset's root policy accepts, generated once and kept out of the log
  ansible.builtin.set_fact:
    root_password: "{{ lookup('kickstart.pwpolicy.pwpolicy_password', policy='root') }}"
  no_log: true

- name: A passphrase for the LUKS volume that the STIG for RHEL 9 accepts
  ansible.builtin.set_fact:
    luks_passphrase: "{{ lookup('kickstart.pwpolicy.pwpolicy_password', profile='stig', target='RHEL9',
                                policy_name='luks', kind='passphrase') }}"
  no_log: true

- name: Check it with the same verdict
  ansible.builtin.assert:
    that: luks_passphrase is kickstart.pwpolicy.pwpolicy_compliant(stig.policies.luks, settings=settings)
    quiet: true
  vars:
    stig: "{{ 'stig' | kickstart.pwpolicy.compliance_profile('RHEL9') }}"
    settings: "{{ stig.pwquality | dict2items | rejectattr('key', 'in', ['minlen', 'enforce_for_root', 'retry'])
                  | items2dict }}"
  no_log: true

- name: A 24-character password for user alice, not in a local Pwned Passwords download
  ansible.builtin.set_fact:
    alice_password: "{{ lookup('kickstart.pwpolicy.pwpolicy_password', policy='user', username='alice', length=24,
                               blocklist=['/srv/pwned-passwords']) }}"
  no_log: true

# Generate once, encrypt once, keep the vaulted value: lookup() runs again at every templating, so
# a variable set to the lookup expression itself would be a new password at every use.
- name: Encrypt the generated password with ansible-vault (on stdin, never on a command line)
  ansible.builtin.command:
    cmd: ansible-vault encrypt_string --vault-password-file ~/.vault_pass --stdin-name kickstart_root_password
    stdin: "{{ root_password }}"
    stdin_add_newline: false
  delegate_to: localhost
  register: vaulted
  changed_when: true
  no_log: true

- name: Keep it in the host's variables, where the kickstart role reads it
  ansible.builtin.copy:
    dest: "host_vars/{{ inventory_hostname }}/kickstart_root_password.yml"
    content: "{{ vaulted.stdout }}\n"
    mode: "0600"
  delegate_to: localhost
"""

RETURN = r"""
_raw:
  description: One generated password or passphrase (a list of one string, as lookups return).
  type: list
  elements: str
"""

from ansible.errors import AnsibleError, AnsibleLookupError
from ansible.plugins.lookup import LookupBase
from ansible.utils.display import Display

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._generate import few_words, generate, prepare
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._options import unknown_options

display = Display()

OPTIONS = ("policy", "product", "profile", "target", "policy_name", "settings", "kind", "length", "words",
           "separator", "blocklist", "username")


class LookupModule(LookupBase):
    """A random password or passphrase that a policy or a compliance profile accepts."""

    def run(self, terms, variables=None, **kwargs):
        if terms:
            raise AnsibleLookupError("pwpolicy_password: takes no terms; give the options as keywords, "
                                     "for example policy='root' or profile='stig', target='RHEL9'")
        message = unknown_options("pwpolicy_password", kwargs, OPTIONS)
        if message:
            raise AnsibleLookupError(message)
        try:
            self.set_options(var_options=variables, direct=kwargs)
            options = dict((name, self.get_option(name)) for name in OPTIONS)
        except AnsibleError as exc:  # an option of the wrong type or not among the choices
            raise AnsibleLookupError("pwpolicy_password: %s" % exc)
        kind = options["kind"]
        if options["profile"] is not None:
            options["product"] = None
        try:
            plan = prepare(**options)
            value = generate(plan)
            if few_words(plan):
                display.warning("pwpolicy_password: %s" % few_words(plan))
        except PwpolicyError as exc:
            raise AnsibleLookupError("pwpolicy_password (%s): %s" % (kind, exc))
        return [value]
