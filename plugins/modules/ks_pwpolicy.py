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
  - Writes the installer password policies of a kickstart file, the C(pwpolicy) commands of its
    C(%anaconda) section, for the installer release you target, and returns the policies in effect before and
    after. To only read them, use M(kickstart.pwpolicy.ks_pwpolicy_info).
  - The whole kickstart is parsed with pykickstart for that release, with a real implementation of the
    C(%anaconda) section, so errors name the kickstart line and what is wrong.
  - Edits are surgical. Only C(pwpolicy) lines change (and a C(%anaconda) section that is added or left empty);
    every other byte of the file stays as it was, including comments, line endings, C(%include) and C(%ksappend)
    lines and a missing final newline.
  - A policy already in the file is replaced in place; a new one goes into the existing C(%anaconda) section in
    anaconda's order (root, user, luks); a file without the section gets one appended at the end. A line that
    already means the requested policy is left alone, so a second run reports no change.
  - The section exists from Fedora 22 and RHEL 7.3, is deprecated on Fedora 34 and RHEL 9 (the module warns) and
    is ignored or fatal from Fedora 35 and RHEL 10 on, where the module refuses to write policies and points to
    M(kickstart.pwpolicy.anaconda_conf); O(state=absent) is always allowed and removes a stale section. The
    collection's release matrix guide gives every release.
  - Several policies with one name are reported with a warning that names the one in effect for the target
    (the first before Fedora 34; on Fedora 34 and RHEL 9 the last, except C(changesok), which comes from the
    first); writing that name keeps only one line.
  - C(%include) and C(%ksappend) are never followed, because the files they name often exist only inside the
    installer; they do not break parsing or validation.
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
requirements:
  - pykickstart 3.x on the managed node (package C(pykickstart), or C(python3-kickstart) on Fedora and RHEL)
extends_documentation_fragment:
  - kickstart.pwpolicy.policy
  - kickstart.pwpolicy.policy.kickstart_target
  - ansible.builtin.files
attributes:
  check_mode:
    support: full
    description: Computes the result and the diff without writing anything.
  diff_mode:
    support: full
    description:
      - Shows the C(%anaconda) sections before and after the change (O(path) or O(content) alone), so that
        secrets elsewhere in the kickstart (for example C(rootpw)) never appear in the diff.
      - "With O(path) and O(content), shows the whole file, with every secret-bearing value masked on both sides
        (C(<hidden>)) - the values of secret-bearing commands, C(%pre) and C(%post) commands that set a
        password (whole), hashes and URL credentials anywhere. A secret that changed on a line that reads the
        same masked is shown as C(<hidden: changed>) on the new side."
options:
  path:
    description:
      - The kickstart file to write. Alone, the file is changed in place; with O(content), the file is made to hold
        O(content) with the policies applied (for example a rendered template), and is only rewritten when that
        differs from what it holds, so a second run reports no change.
      - A missing file is created (mode C(0600) unless O(mode) says otherwise) when there is something to write
        and O(create=true). Given alone (without O(content)), a missing file becomes a file that holds only the
        C(%anaconda) section, which no installer can run as a kickstart, so the module warns when it does that.
      - The file is written atomically through a temporary file that has its final mode, owner and SELinux
        context before it is renamed into place, and edits of files in one directory are serialised with a lock
        (a lock another process holds for more than 120 seconds is an error naming the directory).
        Anything but a regular file, and a file over 16 MiB, is refused.
      - The written file belongs to the user the module runs as unless O(owner) and O(group) say otherwise; the
        owner of an existing file is never copied. An existing file of that user keeps its mode and group; one of
        another user (for example planted in a shared directory) is replaced like a new file (mode C(0600)).
      - A symbolic link is refused, with where it points; give the real path. The module never writes through a
        link (replacing the link would leave the file it points to unchanged).
      - At least one of O(path) and O(content) is required.
    type: path
    aliases: [dest]
  create:
    description:
      - Whether a missing O(path) is created.
      - With V(false), a missing O(path) is an error, so that a mistyped path does not become a new file that holds
        only the C(%anaconda) section.
    type: bool
    default: true
    version_added: 0.3.0
  content:
    description:
      - Kickstart text to change. Alone, the result is returned as RV(kickstart) and nothing is written; with
        O(path), the result is written to O(path) and not returned (the argument is then also kept out of the
        result, so a registered variable does not hold it).
      - At least one of O(path) and O(content) is required.
      - The text may hold secrets (for example C(rootpw)); set C(no_log) on the task in that case, because
        Ansible shows module arguments at high verbosity.
    type: str
  state:
    description:
      - V(present) writes the policies of O(policies) and O(product).
      - V(absent) removes the C(pwpolicy) lines of the policies named in O(policies) (their fields are ignored), of
        all three names when O(product) is given, and of every name when neither is given. A C(%anaconda) section
        left without commands is removed as a whole.
      - An empty O(policies) (V({})) with V(absent) names nothing and only reads the kickstart. That spelling is
        deprecated and will be removed in version 1.0.0; read with M(kickstart.pwpolicy.ks_pwpolicy_info).
    type: str
    choices: [present, absent]
    default: present
  exclusive:
    description:
      - With O(state=present), also remove the C(pwpolicy) lines of every name that O(policies) and O(product) do
        not give.
    type: bool
    default: false
  validate:
    description:
      - When true, the kickstart before and after the change must parse with pykickstart for O(target), and
        for Fedora 36 and later and RHEL 10 the result must not keep a C(%anaconda) section.
      - When false, only the C(%anaconda) sections are read and must parse. Every other line is opaque text, kept
        byte for byte, so unrendered templates of other tools work (Foreman ERB, Terraform C(templatefile), Cobbler
        Cheetah, Jinja), whose lines such as C(%>) or C(%{ if }) pykickstart would take for section headers.
      - A section also ends at a template expression naming a section end, as Foreman's templates end theirs with
        C(<%= section_end -%>); a template line inside C(%anaconda) (Cobbler's C($SNIPPET(...)), C(<%= ... %>))
        is kept as it is, with a warning.
    type: bool
    default: true
  backup:
    description:
      - Keep a copy of the original file next to it when the file changes (O(path) only).
      - The copy gets a new random name (C(NAME.TIMESTAMP.RANDOM~)), is created without following links and has
        mode C(0600), or the original's mode if narrower, from its first byte; an incomplete copy is removed.
    type: bool
    default: false
notes:
  - O(mode) must be a string (V('0600'), V('u=rw,go=')); a number is refused, because YAML reads C(600) as decimal
    (octal 1130) and C(0600) as 384, so the number does not say which mode was meant.
  - The rendered line is anaconda's own format, always explicit, for example
    C(pwpolicy root --minlen=8 --minquality=50 --strict --nochanges --emptyok).
  - On Fedora 28 to 32 an omitted C(--emptyok)/C(--notempty) meant C(--notempty) (rhbz#1664704); the module reads
    and fills policies the same way for those targets.
  - Anaconda applies these policies to passwords typed in its user interface only; passwords the kickstart itself
    sets are not checked by the installer. Use the filter P(kickstart.pwpolicy.pwpolicy_check#filter) for those.
  - A kickstart is read as the target's installer read it. Every spelling it accepted is read, C(--minlen N) as well
    as C(--minlen=N), either flag of a pair in any order (the last one wins), options before or after the name,
    unambiguous prefixes such as C(--nochange), and several C(%anaconda) sections; what it rejected is an error
    naming the line. C(--noempty) and C(--nostrict), which appear in early anaconda commit messages and the RHEL 7
    guide but never worked, are errors.
  - Where releases differed, the target decides. Up to Fedora 27 and on RHEL 7 C(--minlen=010) is 8 (octal),
    C(0x10) is 16, C(08) is an error and C(--) before the name is allowed; later releases read decimal. Any other
    policy name than root, user and luks (C(admin), a quoted C('root user')) is kept with a warning, as the
    installer stored and ignored it; it is never in RV(policies) or RV(previous), and O(exclusive) removes it.
    Values outside 0-1024 (C(minlen)) and 0-100 (C(minquality)) are read as given, with a warning, except on
    Fedora 34 and RHEL 9, where a value outside 0-65535 (a negative one) stopped the installer and is an error.
    A command other than C(pwpolicy) inside the section is an error where the installer stopped on it (only
    C(installclass) on Fedora 27 to 29, RHEL 7 and RHEL 8.0 to 8.2 is kept, with a warning). Fedora 35 ignored the
    section's content, so nothing is in effect there and a malformed line is only a warning. The release matrix
    guide gives the sources.
  - What the module writes is always within 0-1024 (C(minlen)) and 0-100 (C(minquality)), with a name from root,
    user and luks.
  - Errors about lines that may hold secrets (C(rootpw), C(user), C(bootloader), disk passphrases) show the line
    without its values.
seealso:
  - ref: ansible_collections.kickstart.pwpolicy.docsite.release_matrix
    description: Which installer release reads the C(%anaconda) section, and what an omitted option means for each.
  - module: kickstart.pwpolicy.ks_pwpolicy_info
  - module: kickstart.pwpolicy.anaconda_conf
  - name: Anaconda kickstart documentation, pwpolicy
    description: The upstream reference for the C(%anaconda) section and the C(pwpolicy) command.
    link: https://anaconda-installer.readthedocs.io/en/latest/kickstart.html
"""

EXAMPLES = r"""
- name: Give a Foreman provisioning template (ERB, unrendered) the Server policies for RHEL 8
  kickstart.pwpolicy.ks_pwpolicy:
    path: /srv/foreman/templates/kickstart_site.erb
    product: server
    target: RHEL8
    validate: false  # read only the %anaconda section; the ERB lines stay as they are

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

# To read the policies a kickstart holds, use kickstart.pwpolicy.ks_pwpolicy_info.
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
  returned: when O(content) is given without O(path)
  type: str
  sample: "#version=F33\nlang en_US.UTF-8\n\n%anaconda\npwpolicy root --minlen=8 --minquality=50 --strict --nochanges --emptyok\n%end\n"
target:
  description: The installer release the kickstart was parsed and written for.
  returned: always
  type: str
  sample: F33
diff:
  description: The C(%anaconda) sections before and after, in diff mode; with O(path) and O(content), the whole
    file, masked (see the diff mode attribute).
  returned: in diff mode
  type: dict
  sample:
    before: ""
    after: "%anaconda\npwpolicy root --minlen=8 --minquality=50 --strict --nochanges --emptyok\n%end\n"
backup_file:
  description: The copy of the original file made by O(backup).
  returned: when O(backup=true) and the file changed
  type: str
  sample: /srv/ks/server.ks.2026-01-01@10:00:00.k3j2x9a_~
lineno:
  description: The kickstart line an error is about, when the module fails and the error has a line.
  returned: on failure
  type: int
  sample: 12
warnings:
  description:
    - Duplicate policies and which one is in effect, policy names and values the installer took as given, other
      commands found inside C(%anaconda), deprecation of the section on the target, and what pykickstart
      reported. Ansible also shows these as warnings.
  returned: always
  type: list
  elements: str
  sample: ["pwpolicy root is given 2 times (kickstart lines 4, 6): the first one, on line 4, is in effect for F33"]
"""

import os

from ansible.module_utils.basic import missing_required_lib

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._argspec import (
    TextModule,
    kickstart_target_option,
    policy_options,
    spec,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import (
    DirectoryLock,
    FileError,
    backup,
    decode_text,
    mode_error,
    read_bytes,
    refuse_link,
    write_atomic,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart, section_regions
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_section import (
    HAS_PYKICKSTART,
    PYKICKSTART_IMPORT_ERROR,
    PYKICKSTART_PACKAGE,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import masked_diff

READ_DEPRECATION = (
    "Reading a kickstart's policies with kickstart.pwpolicy.ks_pwpolicy (state=absent with an empty "
    "policies and no product) is deprecated; use kickstart.pwpolicy.ks_pwpolicy_info (path or content) instead")


def _reads_only(params):
    """True for the read-only spelling: state=absent naming no policy at all."""
    policies = params["policies"]
    return (params["state"] == "absent" and params["product"] is None
            and isinstance(policies, (dict, list)) and not policies)


def _policy_dicts(policies):
    return [policy.to_dict() for policy in policies.values()]


def _read(path):
    """The kickstart's text, or None when the file does not exist."""
    data = read_bytes(path, what="path")
    return None if data is None else decode_text(data, path, what="path")


def _diff(result, path, whole, before):
    label = path or "content"
    if whole:
        # The whole file changes (path and content): show it, both sides masked.
        shown_before, shown_after = masked_diff(before or "", result.text)
        return dict(before=shown_before, after=shown_after, before_header=label, after_header=label)
    return dict(before=section_regions(result.parsed_before), after=section_regions(result.parsed_after),
                before_header="%s (%%anaconda sections)" % label,
                after_header="%s (%%anaconda sections)" % label)


def _edit(module, text, path):
    params = module.params
    try:
        return edit_kickstart(
            text, policies=params["policies"], product=params["product"], state=params["state"],
            exclusive=params["exclusive"], target=params["target"], validate=params["validate"])
    except PwpolicyError as exc:
        where = " (%s)" % path if path else ""
        module.fail_json(msg="%s%s" % (exc, where), lineno=exc.lineno)


def _write_file(module, path, original, text, output):
    """Write ``text`` to ``path`` unless it holds it already (check mode: only say so); apply attributes."""
    params = module.params
    created = original is None
    file_args = module.load_file_common_arguments(params)
    if created and file_args.get("mode") is None:
        file_args["mode"] = "0600"
    if text == original or (created and not text):
        # Nothing to write (and no empty kickstart is created); attributes
        # still apply to an existing file (set_fs_attributes honours check mode).
        return False if created else module.set_fs_attributes_if_different(file_args, False)
    if created and params["content"] is None:
        module.warn("path %s does not exist: it is created holding only the %%anaconda section, which is not a "
                    "kickstart an installer can run; give the rest of the kickstart as content, or set create "
                    "to false to make a missing path an error" % path)
    if module.check_mode:
        return True
    if params["backup"] and not created:
        try:
            output["backup_file"] = backup(path, original.encode("utf-8"), os.stat(path).st_mode)
        except (FileError, OSError) as exc:
            module.fail_json(msg=str(exc))
    write_atomic(module, path, text.encode("utf-8"), new_mode=0o600, file_args=file_args)
    return True


def _run_path(module, path, output):
    params = module.params
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        module.fail_json(msg="directory %s of path does not exist; create it first" % directory)
    try:
        with DirectoryLock(directory):
            refuse_link(path)
            original = _read(path)
            with_content = params["content"] is not None
            if original is None and not with_content:
                _missing(module, path)
            result = _edit(module, params["content"] if with_content else (original or ""), path)
            _fill(module, output, result, path, whole=with_content, before=original)
            output["changed"] = _write_file(module, path, original, result.text, output)
    except FileError as exc:
        module.fail_json(msg=str(exc))
    return output


def _missing(module, path):
    """A missing ``path`` given without content is an error with ``create=false``."""
    if not module.params["create"]:
        module.fail_json(msg="path %s does not exist (create is false); give the path of an existing "
                             "kickstart, or set create to true" % path)


def _fill(module, output, result, path, whole, before=None):
    output.update(policies=_policy_dicts(result.policies), previous=_policy_dicts(result.previous),
                  target=result.release.name)
    for message in result.warnings:
        module.warn(message)
    if module._diff:
        output["diff"] = _diff(result, path, whole, before)


def main():
    module = TextModule(
        argument_spec=spec(
            policy_options(), kickstart_target_option(),
            path=dict(type="path", aliases=["dest"]),
            content=dict(type="str"),
            state=dict(type="str", choices=["present", "absent"], default="present"),
            exclusive=dict(type="bool", default=False),
            validate=dict(type="bool", default=True),
            backup=dict(type="bool", default=False),
            create=dict(type="bool", default=True),
        ),
        required_one_of=[("path", "content")],
        add_file_common_args=True,
        supports_check_mode=True,
    )
    if not HAS_PYKICKSTART:
        module.fail_json(msg=missing_required_lib(PYKICKSTART_PACKAGE),
                         exception=PYKICKSTART_IMPORT_ERROR)
    params = module.params
    if mode_error(params["mode"]):
        module.fail_json(msg=mode_error(params["mode"]))
    if _reads_only(params):
        module.deprecate(READ_DEPRECATION, version="1.0.0", collection_name="kickstart.pwpolicy")
    output = dict(changed=False)
    if params["path"] is not None:
        # The text to write holds the kickstart's secrets: keep it out of
        # the result's invocation (and so out of registered variables).
        module.hide_content()
        module.exit_json(**_run_path(module, os.path.abspath(params["path"]), output))
    result = _edit(module, params["content"], None)
    _fill(module, output, result, None, whole=False)
    output.update(changed=result.changed, kickstart=result.text)
    module.exit_json(**output)


if __name__ == "__main__":
    main()
