#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: ks_pwpolicy_info
version_added: 0.2.0
short_description: Read the C(%anaconda) C(pwpolicy) lines of a kickstart
description:
  - Reads the installer password policies of a kickstart, the C(pwpolicy) commands of its C(%anaconda) section, and
    returns the policy in effect for each name for the installer release you target.
  - Returns the policies in the same form as M(kickstart.pwpolicy.ks_pwpolicy) returns them, every field filled (an
    omitted C(pwpolicy) option shows what it means for the target).
  - The kickstart is parsed with pykickstart for that release, so errors name the kickstart line and what is wrong.
  - The kickstart is read as the target's installer read it, with the same rules as
    M(kickstart.pwpolicy.ks_pwpolicy) (see its notes), that is the integer spellings of the release, policy names and
    values the installer took as given (with a warning; a name other than root, user and luks is never in
    RV(policies)), and other commands inside the section as errors where the installer stopped on them.
  - Several policies with one name are reported with a warning that names the one in effect for the target (the
    first before Fedora 34; on Fedora 34 and RHEL 9 the last, except C(changesok), which comes from the first).
  - For targets that deprecated the section (Fedora 34, RHEL 9) or stop on it (Fedora 36 and RHEL 10 on), the
    policies found are still returned, with a warning that says what the installer does with them. Fedora 35
    ignored the section's content, so RV(policies) is empty there and a malformed line is only a warning.
  - C(%include) and C(%ksappend) are never followed.
  - Never changes anything, and never returns the kickstart's text.
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
requirements:
  - pykickstart 3.x on the managed node (package C(pykickstart), or C(python3-kickstart) on Fedora and RHEL)
extends_documentation_fragment:
  - kickstart.pwpolicy.policy.kickstart_target
  - kickstart.pwpolicy.policy.info_module
options:
  path:
    description:
      - The kickstart file to read on the managed node. Anything but a regular file, and a file over 16 MiB, is
        refused.
      - Exactly one of O(path) and O(content) is required.
    type: path
  content:
    description:
      - The kickstart text to read.
      - Exactly one of O(path) and O(content) is required.
      - The module keeps the text out of its result, but Ansible shows module arguments at high verbosity; set
        C(no_log) on the task when the text holds secrets (for example C(rootpw)).
    type: str
  validate:
    description:
      - When true, the whole kickstart must parse with pykickstart for O(target).
      - When false, only the C(%anaconda) sections are read and must parse; every other line is opaque text, so
        unrendered templates of other tools (ERB, Terraform, Cheetah, Jinja) can be read.
      - A section also ends at a template expression naming a section end, as Foreman's templates end theirs with
        C(<%= section_end -%>); a template line inside C(%anaconda) (Cobbler's C($SNIPPET(...)), C(<%= ... %>))
        is kept as it is, with a warning.
    type: bool
    default: true
seealso:
  - module: kickstart.pwpolicy.ks_pwpolicy
  - module: kickstart.pwpolicy.anaconda_conf_info
"""

EXAMPLES = r"""
- name: Read the policies of a Fedora 33 kickstart
  kickstart.pwpolicy.ks_pwpolicy_info:
    path: /srv/ks/server.ks
    target: F33
  register: current

- name: Show the minimum length of each policy the kickstart sets
  ansible.builtin.debug:
    msg: "{{ current.policies | items2dict(key_name='name', value_name='minlen') }}"

- name: Read a rendered template, release from its #version= line, tolerating unknown commands
  kickstart.pwpolicy.ks_pwpolicy_info:
    content: "{{ lookup('ansible.builtin.template', 'server.ks.j2') }}"
    validate: false
  no_log: true  # the kickstart holds password hashes; the result does not, but the arguments do
  register: rendered
"""

RETURN = r"""
policies:
  description:
    - The policy in effect for each name the kickstart sets, in anaconda's order (root, user, luks), as the
      policies of M(kickstart.pwpolicy.ks_pwpolicy) are returned, each with every field (C(name), C(minlen),
      C(minquality), C(strict), C(emptyok), C(changesok)); an omitted option shows what it means for the target.
    - Empty when the kickstart has no C(pwpolicy) line.
  returned: always
  type: list
  elements: dict
  sample:
    - {name: root, minlen: 8, minquality: 50, strict: true, emptyok: true, changesok: false}
target:
  description: The installer release the kickstart was read for.
  returned: always
  type: str
  sample: F33
lineno:
  description: When reading fails because of one line of the kickstart, that line's number.
  returned: on failure
  type: int
  sample: 12
warnings:
  description:
    - Duplicate policies and which one is in effect, policy names and values the installer took as given, other
      commands found inside C(%anaconda), what the target release does with the section, and what pykickstart
      reported. Ansible also shows these as warnings.
  returned: when there is something to warn about
  type: list
  elements: str
  sample: ["pwpolicy root is given 2 times (kickstart lines 4, 6): the first one, on line 4, is in effect for F33"]
"""


from ansible.module_utils.basic import missing_required_lib

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._argspec import (
    TextModule,
    kickstart_target_option,
    read_source_options,
    read_source_rules,
    source_text,
    spec,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import FileError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import read_policies
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_section import (
    HAS_PYKICKSTART,
    PYKICKSTART_IMPORT_ERROR,
    PYKICKSTART_PACKAGE,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES


def main():
    module = TextModule(
        argument_spec=spec(read_source_options(), kickstart_target_option(),
                           validate=dict(type="bool", default=True)),
        supports_check_mode=True,
        **read_source_rules()
    )
    if not HAS_PYKICKSTART:
        module.fail_json(msg=missing_required_lib(PYKICKSTART_PACKAGE),
                         exception=PYKICKSTART_IMPORT_ERROR)
    params = module.params
    module.hide_content()
    where = ""
    try:
        text, where = source_text(params)
        found = read_policies(text, target=params["target"], validate=params["validate"])
    except FileError as exc:
        module.fail_json(msg=str(exc))
    except PwpolicyError as exc:
        module.fail_json(msg="%s%s" % (exc, where), lineno=exc.lineno)
    for message in found.warnings:
        module.warn(message)
    module.exit_json(changed=False, target=found.release.name,
                     policies=[found.policies[name].to_dict() for name in NAMES if name in found.policies])


if __name__ == "__main__":
    main()
