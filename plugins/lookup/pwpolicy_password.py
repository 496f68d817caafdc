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
  - The value is a secret. Without O(file), C(lookup) runs again each time the expression is templated, so a variable
    defined with it gives a new password at each use, and every run gives another. With O(file), the first run
    stores the value in an Ansible Vault file and every later use, in this run or the next, reads it back.
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
  file:
    description:
      - The path of an Ansible Vault file that keeps the value. When it does not exist, a value is generated (every
        other option applies), encrypted with a vault secret of the run (see O(vault_id)) and written there, mode
        C(0600), through a temporary file in the same directory that is synced and renamed over it. When it exists, it
        is decrypted and its value returned; it is never rewritten (see O(regenerate)).
      - The file holds the value alone, as C(ansible-vault encrypt) would write it; C(ansible-vault view) and the
        C(ansible.builtin.unvault) lookup read it.
      - A relative path is relative to the playbook's directory, as for C(ansible.builtin.password); C(~) and
        environment variables are expanded. The directory must exist (the lookup creates none); give each host a path
        of its own (for example with C(inventory_hostname)) for a value per host.
      - A path inside an inventory directory of the run (C(ansible_inventory_sources)) is an error; Ansible reads
        every file there as inventory, a vault file decrypted, and its value would show as a host name. Keep the
        vault files beside the inventory, not in it.
      - The audit playbook (C(kickstart.pwpolicy.audit)) only reads a stored value back; a file that does not exist
        there is an error for that secret, never a new value. Its playbook lies in the collection, so give it a path
        that does not depend on the playbook's directory (absolute, or built from C(inventory_dir)).
      - Generating and writing hold an exclusive lock on the file's directory, and the file is looked for again once
        the lock is held, so hosts and forks that ask for the same path at the same time get one value.
      - No vault secret in the run is an error (never a file in plaintext), as is a file that is not a vault file or
        that the run's vault secrets cannot decrypt. A stored value that the requested policy, profile or
        O(blocklist) no longer accepts (the policy was tightened) is an error that says O(regenerate=true) replaces
        it. O(kind), O(length), O(words) and O(separator) only shape new values; a stored value is not checked
        against them.
      - In check mode nothing is written; where a run would write the file, the lookup returns a new value that is
        not stored and warns that the run without C(--check) stores another. Check mode is the run's C(--check)
        (C(ansible_check_mode)); a task's C(check_mode) keyword does not reach a lookup.
    type: str
    version_added: 0.3.0
  vault_id:
    description:
      - With O(file), the vault id (as given with C(--vault-id ID@SOURCE)) whose secret encrypts a new file.
      - Defaults to C(DEFAULT_VAULT_ENCRYPT_IDENTITY) when that is set, else the first vault secret of the run.
        Reading tries every vault secret of the run, as Ansible does for vaulted files.
    type: str
    version_added: 0.3.0
  regenerate:
    description:
      - With O(file), replace the stored value by a new one, atomically, once per run; later uses in the same run
        (other hosts of the same path, the same variable templated again) read the new value back. The run is the
        controller's C(ansible-playbook) process; where its start time cannot be read (no C(/proc)), every use
        replaces the file, so set the value once with C(ansible.builtin.set_fact) there.
      - A system already installed with the old value keeps it until it is changed there; remove O(regenerate)
        after the run that rotates the value.
    type: bool
    default: false
    version_added: 0.3.0
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

# Generated once, vaulted once: the first run writes secrets/HOST-root.vault, encrypted with the run's vault
# secret (--vault-id, --vault-password-file or ANSIBLE_VAULT_PASSWORD_FILE); every later run reads it back,
# so running the play twice gives the same password.
- name: The root password of each host, kept in a vault file beside the playbook
  ansible.builtin.set_fact:
    kickstart_root_password: "{{ lookup('kickstart.pwpolicy.pwpolicy_password', policy='root',
                                        file='secrets/' ~ inventory_hostname ~ '-root.vault') }}"
  no_log: true

- name: Rotate it (once in this run); remove regenerate=true afterwards
  ansible.builtin.set_fact:
    kickstart_root_password: "{{ lookup('kickstart.pwpolicy.pwpolicy_password', policy='root', regenerate=true,
                                        file='secrets/' ~ inventory_hostname ~ '-root.vault') }}"
  no_log: true
"""

RETURN = r"""
_raw:
  description: One generated password or passphrase (a list of one string, as lookups return).
  type: list
  elements: str
"""

from ansible import constants as C
from ansible.errors import AnsibleError, AnsibleLookupError
from ansible.plugins.lookup import LookupBase
from ansible.utils.display import Display

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._generate import few_words, generate, prepare
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._options import unknown_options
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import OWN_MESSAGE
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._stored import (
    NOT_STORED, READ_ONLY_VARIABLE, stored_value)

display = Display()

OPTIONS = ("policy", "product", "profile", "target", "policy_name", "settings", "kind", "length", "words",
           "separator", "blocklist", "username", "file", "vault_id", "regenerate")
GENERATION = OPTIONS[:-3]


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
        if options["file"] is None and (options["vault_id"] is not None or options["regenerate"]):
            raise AnsibleLookupError("pwpolicy_password: vault_id and regenerate go with file (the vault file that "
                                     "keeps the value); give file as well")
        try:
            plan = prepare(**dict((name, options[name]) for name in GENERATION))
            if few_words(plan):
                display.warning("pwpolicy_password: %s" % few_words(plan))
            if options["file"] is None:
                return [generate(plan)]
            path = self._loader.path_dwim(options["file"])
            value, action = stored_value(
                path, plan, self._loader._vault.secrets, vault_id=options["vault_id"],
                regenerate=options["regenerate"], check_mode=bool((variables or {}).get("ansible_check_mode")),
                default_identity=C.DEFAULT_VAULT_ENCRYPT_IDENTITY,
                read_only=(variables or {}).get(READ_ONLY_VARIABLE) or None,
                inventory_sources=(variables or {}).get("ansible_inventory_sources") or ())
        except PwpolicyError as exc:
            message = "pwpolicy_password (%s): %s" % (kind, exc)
            error = AnsibleLookupError(message)
            # Its text names options and paths, never a value: a secret read from this lookup reports it.
            setattr(error, OWN_MESSAGE, message)
            raise error from None
        if action == NOT_STORED:
            display.warning("pwpolicy_password: check mode: %s was not written; the value returned is not stored, "
                            "and the run without --check stores another" % path)
        else:
            display.vvv("pwpolicy_password: file=%s: value %s" % (path, action))
        return [value]
