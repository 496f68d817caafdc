#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: ks_pwpolicy
short_description: Manage the C(%anaconda) C(pwpolicy) lines of a kickstart
version_added: 0.1.0
description:
  - Reads and writes the installer password policies of a kickstart file, the C(pwpolicy) commands of its
    C(%anaconda) section, for the installer release you target.
  - The whole kickstart is parsed with pykickstart for that release, with a real implementation of the
    C(%anaconda) section, so errors name the kickstart line and what is wrong.
  - Edits are surgical. Only C(pwpolicy) lines change (and a C(%anaconda) section that is added or left empty);
    every other byte of the file stays as it was, including comments, line endings, C(%include) and C(%ksappend)
    lines and a missing final newline.
  - A policy already in the file is replaced in place; a new one goes into the existing C(%anaconda) section in
    anaconda's order (root, user, luks); a file without the section gets one appended at the end. A line that
    already means the requested policy is left alone, so a second run reports no change.
  - "Release matrix: the section exists from Fedora 22 and RHEL 7.3. Fedora 34 and RHEL 9 deprecated it (the
    policy is still applied; the module warns). Fedora 35 removed C(pwpolicy) and Fedora 36 and RHEL 10 removed
    C(%anaconda) (the installer stops on a kickstart that has it). For those targets the module refuses to write
    policies and points to the replacement, anaconda configuration C(password_policies) written by
    M(kickstart.pwpolicy.anaconda_conf); O(state=absent) is always allowed and removes a stale section."
  - Several policies with one name are reported with a warning that names the one in effect for the target
    (the first before Fedora 34, the last on Fedora 34 and RHEL 9); writing that name keeps only one line.
  - C(%include) and C(%ksappend) are never followed, because the files they name often exist only inside the
    installer; they do not break parsing or validation.
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
requirements:
  - pykickstart 3.x on the managed node (package C(pykickstart), or C(python3-kickstart) on Fedora and RHEL)
extends_documentation_fragment:
  - kickstart.pwpolicy.policy
  - ansible.builtin.files
attributes:
  check_mode:
    support: full
    description: Computes the result and the diff without writing anything.
  diff_mode:
    support: full
    description:
      - Shows the C(%anaconda) sections before and after the change.
      - Only those sections are shown, so that secrets elsewhere in the kickstart (for example C(rootpw))
        never appear in the diff.
  platform:
    support: full
    platforms: posix
    description: Runs on any POSIX managed node that has pykickstart.
options:
  path:
    description:
      - The kickstart file to change in place.
      - A missing file is created (mode C(0600) unless O(mode) says otherwise) when there is something to write.
      - Exactly one of O(path) and O(content) is required.
    type: path
    aliases: [dest]
  content:
    description:
      - Kickstart text to change; the result is returned as RV(kickstart) and nothing is written.
      - Exactly one of O(path) and O(content) is required.
      - The text may hold secrets (for example C(rootpw)); set C(no_log) on the task in that case, because
        Ansible shows module arguments at high verbosity.
    type: str
  state:
    description:
      - V(present) writes the policies of O(policies) and O(product).
      - V(absent) removes the C(pwpolicy) lines of the policies named in O(policies) (their fields are ignored), of
        all three names when O(product) is given, and of every name when neither is given. An empty O(policies)
        (V({})) names nothing, which reads the kickstart without changing it. A C(%anaconda) section left without
        commands is removed as a whole.
    type: str
    choices: [present, absent]
    default: present
  exclusive:
    description:
      - With O(state=present), also remove the C(pwpolicy) lines of every name that O(policies) and O(product) do
        not give.
    type: bool
    default: false
  target:
    description:
      - The installer release, as pykickstart names it, for example V(F22) to V(F46), V(RHEL7) to V(RHEL10),
        or V(DEVEL).
      - It decides what an omitted C(pwpolicy) option or policy field means, which duplicate is in effect, and
        whether the section may be written at all (see the description).
      - Defaults to the release on the kickstart's C(#version=) line; without one the module fails and asks for
        O(target).
    type: str
  validate:
    description:
      - When true, the kickstart before and after the change must parse with pykickstart for O(target), and
        for Fedora 36 and later and RHEL 10 the result must not keep a C(%anaconda) section.
      - When false, only the C(%anaconda) sections must parse; what pykickstart says about the rest of the file
        comes back as warnings.
    type: bool
    default: true
  backup:
    description:
      - Keep a timestamped copy of the original file next to it when the file changes (O(path) only).
    type: bool
    default: false
notes:
  - The rendered line is anaconda's own format, always explicit, for example
    C(pwpolicy root --minlen=8 --minquality=50 --strict --nochanges --emptyok).
  - On Fedora 28 to 32 an omitted C(--emptyok)/C(--notempty) meant C(--notempty) (rhbz#1664704); the module reads
    and fills policies the same way for those targets.
  - Anaconda applies these policies to passwords typed in its user interface only; passwords the kickstart itself
    sets are not checked by the installer. Use the filter P(kickstart.pwpolicy.pwpolicy_check#filter) for those.
seealso:
  - module: kickstart.pwpolicy.anaconda_conf
  - name: Anaconda kickstart documentation, pwpolicy
    description: The upstream reference for the C(%anaconda) section and the C(pwpolicy) command.
    link: https://anaconda-installer.readthedocs.io/en/latest/kickstart.html
"""

EXAMPLES = r"""
- name: Strict policies for root and LUKS in a Fedora 33 kickstart
  kickstart.pwpolicy.ks_pwpolicy:
    path: /srv/ks/server.ks
    target: F33
    policies:
      root:
        minlen: 15
        minquality: 50
        strict: true
        emptyok: false
      luks:
        minlen: 20
        minquality: 60
        strict: true
        emptyok: false

- name: The server product's preset for all three names, nothing else, release from the #version= line
  kickstart.pwpolicy.ks_pwpolicy:
    path: /srv/ks/server.ks
    product: server
    exclusive: true

- name: The workstation preset with a longer user minimum, given as a list
  kickstart.pwpolicy.ks_pwpolicy:
    path: /srv/ks/workstation.ks
    target: RHEL8
    product: workstation
    policies:
      - name: user
        minlen: 10

- name: Remove the stale %anaconda section before moving a kickstart to Fedora 40
  kickstart.pwpolicy.ks_pwpolicy:
    path: /srv/ks/server.ks
    target: F40
    state: absent

- name: Text in, text out
  kickstart.pwpolicy.ks_pwpolicy:
    content: "{{ lookup('ansible.builtin.file', 'base.ks') }}"
    target: RHEL8
    policies:
      root: {minlen: 12}
  register: rendered
  no_log: true

- name: Read the policies a kickstart holds, without changing it
  kickstart.pwpolicy.ks_pwpolicy:
    path: /srv/ks/server.ks
    target: F33
    policies: {}
    state: absent
  check_mode: true
  register: current
"""

RETURN = r"""
changed:
  description: Whether the kickstart changed (or would change, in check mode).
  returned: always
  type: bool
  sample: true
policies:
  description:
    - The policies in effect in the kickstart afterwards, one dict per name in anaconda's order (root, user, luks),
      every field filled (an omitted option shows what it means for the target release).
  returned: always
  type: list
  elements: dict
  sample:
    - {name: root, minlen: 8, minquality: 50, strict: true, emptyok: true, changesok: false}
previous:
  description: The policies in effect before the change, in the same form as RV(policies).
  returned: always
  type: list
  elements: dict
  sample: []
kickstart:
  description: The resulting kickstart text.
  returned: when O(content) is given
  type: str
  sample: "#version=F33\nlang en_US.UTF-8\n\n%anaconda\npwpolicy root --minlen=8 --minquality=50 --strict --nochanges --emptyok\n%end\n"
target:
  description: The installer release the kickstart was parsed and written for.
  returned: always
  type: str
  sample: F33
diff:
  description: The C(%anaconda) sections before and after, in diff mode.
  returned: in diff mode
  type: dict
  sample:
    before: ""
    after: "%anaconda\npwpolicy root --minlen=8 --minquality=50 --strict --nochanges --emptyok\n%end\n"
backup_file:
  description: The copy of the original file made by O(backup).
  returned: when O(backup=true) and the file changed
  type: str
  sample: /srv/ks/server.ks.12345.2026-01-01@10:00:00~
lineno:
  description: The kickstart line an error is about, when the module fails and the error has a line.
  returned: on failure
  type: int
  sample: 12
warnings:
  description:
    - Duplicate policies and which one is in effect, other commands found inside C(%anaconda), deprecation of the
      section on the target, and what pykickstart reported. Ansible also shows these as warnings.
  returned: always
  type: list
  elements: str
  sample: ["pwpolicy root is given 2 times (kickstart lines 4, 6): the first one, on line 4, is in effect for F33"]
"""

import os
import tempfile

from ansible.module_utils.basic import AnsibleModule, missing_required_lib
from ansible.module_utils.common.text.converters import to_bytes, to_native

from ansible_collections.kickstart.pwpolicy.plugins.module_utils.kickstart import (
    HAS_PYKICKSTART,
    PYKICKSTART_IMPORT_ERROR,
    PYKICKSTART_PACKAGE,
    KickstartEditError,
    edit_kickstart,
    section_regions,
)


def _policy_dicts(policies):
    return [policy.to_dict() for policy in policies.values()]


def _read(module, path):
    if os.path.isdir(path):
        module.fail_json(msg="path %s is a directory, not a kickstart file" % path)
    if not os.path.exists(path):
        return None
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except (IOError, OSError) as exc:
        module.fail_json(msg="cannot read %s: %s" % (path, to_native(exc)))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        module.fail_json(msg="%s is not UTF-8 text (byte %d): a kickstart must be UTF-8" % (path, exc.start))


def _write(module, path, text, created):
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        module.fail_json(msg="directory %s of path does not exist" % directory)
    placeholder = False
    if created:
        # An empty 0600 file first, so the real content never sits in a
        # file with umask permissions (atomic_move keeps existing attributes).
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            placeholder = True
        except OSError as exc:
            module.fail_json(msg="cannot create %s: %s" % (path, to_native(exc)))
    handle, tmp = tempfile.mkstemp(prefix=".ks_pwpolicy.", dir=directory)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(to_bytes(text, encoding="utf-8"))
        module.atomic_move(tmp, path, unsafe_writes=module.params["unsafe_writes"])
    except Exception as exc:  # leave nothing behind, then report
        if os.path.exists(tmp):
            os.unlink(tmp)
        if placeholder and os.path.exists(path) and os.path.getsize(path) == 0:
            os.unlink(path)
        module.fail_json(msg="cannot write %s: %s" % (path, to_native(exc)))


def main():
    module = AnsibleModule(
        argument_spec=dict(
            path=dict(type="path", aliases=["dest"]),
            content=dict(type="str"),
            policies=dict(type="raw"),
            product=dict(type="str", choices=["server", "cloud", "workstation"]),
            state=dict(type="str", choices=["present", "absent"], default="present"),
            exclusive=dict(type="bool", default=False),
            target=dict(type="str"),
            validate=dict(type="bool", default=True),
            backup=dict(type="bool", default=False),
        ),
        mutually_exclusive=[("path", "content")],
        required_one_of=[("path", "content")],
        add_file_common_args=True,
        supports_check_mode=True,
    )
    if not HAS_PYKICKSTART:
        module.fail_json(msg=missing_required_lib(PYKICKSTART_PACKAGE),
                         exception=PYKICKSTART_IMPORT_ERROR)

    params = module.params
    path = params["path"]
    if path is not None:
        original = _read(module, path)
        created = original is None
        text = original if original is not None else ""
    else:
        created = False
        text = params["content"]

    try:
        result = edit_kickstart(
            text, policies=params["policies"], product=params["product"], state=params["state"],
            exclusive=params["exclusive"], target=params["target"], validate=params["validate"])
    except KickstartEditError as exc:
        where = " (%s)" % path if path else ""
        module.fail_json(msg="%s%s" % (exc, where), lineno=exc.lineno)

    changed = result.changed
    output = dict(changed=changed, policies=_policy_dicts(result.policies),
                  previous=_policy_dicts(result.previous), target=result.release.name)
    for message in result.warnings:
        module.warn(message)
    if module._diff:
        before = section_regions(result.parsed_before)
        after = section_regions(result.parsed_after)
        label = path or "content"
        output["diff"] = dict(before=before, after=after,
                              before_header="%s (%%anaconda sections)" % label,
                              after_header="%s (%%anaconda sections)" % label)

    if path is None:
        output["kickstart"] = result.text
        module.exit_json(**output)

    if created and not changed:
        # Nothing to write: do not create an empty kickstart.
        module.exit_json(**output)

    if changed and not module.check_mode:
        if params["backup"] and not created:
            output["backup_file"] = module.backup_local(path)
        _write(module, path, result.text, created)

    file_args = module.load_file_common_arguments(params)
    if created and file_args.get("mode") is None:
        file_args["mode"] = "0600"
    if not module.check_mode or not created:
        output["changed"] = module.set_fs_attributes_if_different(file_args, changed)
    module.exit_json(**output)


if __name__ == "__main__":
    main()
