#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: anaconda_conf_info
short_description: Read the password policies of an anaconda configuration drop-in or an installer updates image
version_added: 0.2.0
description:
  - Reads the password policies that an anaconda configuration drop-in sets (section C([User Interface]), options
    C(password_policies), C(can_change_root) and C(can_change_users)), from a file, from an installer updates image
    that holds the drop-in, or from text.
  - Returns the policies in the same form as M(kickstart.pwpolicy.anaconda_conf) returns them, so that what one
    task wrote can be compared with what another reads.
  - The drop-in is parsed by the installer's rules for O(target). Text the installer would stop on is an error that
    names the line; what it accepts but probably is a mistake comes back as a warning.
  - Where releases differ, the target decides. From anaconda 38.2 (Fedora 38 and later, RHEL 10 and later) an
    attribute of only blanks between commas (C(root (quality 1, length 6, \))) is skipped; earlier releases stop on
    it (an empty one, as in C(length 6,\)), was always skipped). A C(quality) or C(length) outside the ranges the
    module writes (0-100, 0-1024) is read as given, with a warning; outside 0-65535 (a negative one) the installer
    stops, and it is an error. Only the first line of each of root, user and luks counts, as in the installer.
  - A file given by mistake (a kickstart, say) may hold secrets, so no error or warning repeats any text of the file;
    they name the file, the line number and what was expected.
  - Never changes anything.
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
options:
  path:
    description:
      - The file to read on the managed node, a drop-in or an updates image (a gzip-compressed or plain cpio archive
        in C(newc) format, as M(kickstart.pwpolicy.anaconda_conf) builds it).
      - Which of the two the file is, the module finds from its first bytes.
      - Exactly one of O(path) and O(content) is required.
    type: path
  content:
    description:
      - The drop-in text to read.
      - Exactly one of O(path) and O(content) is required.
    type: str
  conf_name:
    description:
      - File name of the drop-in inside an updates image, which holds it as C(etc/anaconda/conf.d/)O(conf_name).
      - Only used when O(path) is an updates image.
    type: str
    default: 90-kickstart-pwpolicy.conf
notes:
  - A drop-in's C(password_policies) replaces the installer's whole list, and a policy missing from it has no limits
    at all; the module warns about each missing name. A drop-in without C(password_policies) leaves the installer's
    own list in effect; RV(policies) is then empty and the module warns.
seealso:
  - module: kickstart.pwpolicy.anaconda_conf
  - module: kickstart.pwpolicy.ks_pwpolicy_info
extends_documentation_fragment:
  - kickstart.pwpolicy.policy.conf_target_read
  - kickstart.pwpolicy.policy.info_module
"""

EXAMPLES = r"""
- name: Read the policies an updates image holds (by the rules of the release it was built for)
  kickstart.pwpolicy.anaconda_conf_info:
    path: /var/www/html/ks/rhel10-updates.img
  register: image_policies

- name: The LUKS passphrase must be strict
  ansible.builtin.assert:
    that:
      - (image_policies.policies | selectattr('name', 'equalto', 'luks') | first).strict

- name: Read a drop-in in a prepared installer tree
  kickstart.pwpolicy.anaconda_conf_info:
    path: /srv/installer-root/etc/anaconda/conf.d/90-kickstart-pwpolicy.conf
    target: F42

- name: Read drop-in text, for example one fetched from a web server
  kickstart.pwpolicy.anaconda_conf_info:
    content: "{{ lookup('ansible.builtin.url', 'https://ks.example.com/90-pwpolicy.conf', split_lines=false) }}"
    target: F42
"""

RETURN = r"""
policies:
  description:
    - The policies the drop-in sets, one dict per name in the order root, user, luks, as the policies of
      M(kickstart.pwpolicy.anaconda_conf) are returned, each with every field (C(name), C(minlen), C(minquality),
      C(strict), C(emptyok), C(changesok)); an omitted one shows what it means for O(target).
    - C(changesok) is the drop-in's C(can_change_root) or C(can_change_users); C(luks) has no such option and gets the
      default of O(target).
    - Empty when the drop-in sets no C(password_policies).
  returned: always
  type: list
  elements: dict
  sample:
    - {name: user, minlen: 12, minquality: 40, strict: false, emptyok: false, changesok: true}
conf:
  description:
    - The drop-in text that was read, its password-policy lines as they are (the C([User Interface]) header,
      C(password_policies) and its lines for root, user and luks, C(can_change_root) and C(can_change_users) with a
      boolean, blank lines, the header comment M(kickstart.pwpolicy.anaconda_conf) writes).
    - Every other line, comments and other sections included, shows as C(<line N not shown>), so that no text of
      a file that is not a drop-in of password policies comes back.
  returned: always
  type: str
  sample: |
    [User Interface]
    can_change_users = True
    password_policies =
        user (quality 40, length 12)
kind:
  description: What was read, V(dropin) (O(path) is a drop-in, or O(content) was given) or V(updates_image).
  returned: always
  type: str
  sample: updates_image
dropin:
  description: Path of the drop-in inside the updates image.
  returned: when O(path) is an updates image
  type: str
  sample: etc/anaconda/conf.d/90-kickstart-pwpolicy.conf
target:
  description:
    - The installer release the drop-in was read for (O(target), else the release its header names, else V(DEVEL)).
  returned: always
  type: str
  sample: RHEL10
warnings:
  description:
    - Policy names the installer does not use, names given twice, values outside the ranges the module writes,
      names missing from C(password_policies), and a drop-in that sets no C(password_policies). Ansible also shows
      these as warnings.
  returned: when there is something to warn about
  type: list
  elements: str
  sample: ["content: password_policies has no line for luks, so the installer applies no limits to it"]
"""

import os

from ansible.module_utils.common.text.converters import to_native

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf import (
    OPTION,
    SECTION,
    check_conf_name,
    conf_release,
    dropin_path,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf_parse import parse_conf, policy_text_only
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf_render import written_for
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._argspec import (
    CONF_DEFAULT_TARGET,
    TextModule,
    conf_name_option,
    read_source_options,
    read_source_rules,
    spec,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import FileError, decode_text, read_bytes
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._updates_image import (
    UpdatesImageError,
    is_image,
    member_text,
    read_image,
)


def _image_text(path, data, member):
    """The drop-in ``member`` of the updates image ``data`` read from ``path``."""
    try:
        text = member_text(read_image(data), member)
    except UpdatesImageError as exc:
        raise UpdatesImageError("path %s: cannot read it as an updates image: %s" % (path, exc))
    if text is None:
        raise UpdatesImageError("path %s is an updates image that holds no %s; set conf_name to the "
                                "drop-in's file name" % (path, member))
    return text


def _read_path(path, member, result):
    """``(text, source)`` of the drop-in at ``path``, or inside the updates image at ``path``."""
    data = read_bytes(path, what="path")
    if data is None:
        raise FileError("path %s does not exist" % path)
    if is_image(data):
        result.update(kind="updates_image", dropin=member)
        return _image_text(path, data, member), "%s:%s" % (path, member)
    result["kind"] = "dropin"
    return decode_text(data, path, what="path"), path


def _coverage_warnings(parsed, source):
    """What the installer does about the names a drop-in leaves out."""
    if not parsed.has_policies:
        return ["%s sets no %s in [%s]; the installer keeps the policies it had"
                % (source, OPTION, SECTION)]
    return ["%s: %s has no line for %s, so the installer applies no limits to it" % (source, OPTION, name)
            for name in NAMES if name not in parsed.policies]


def _release(module, text, source):
    """The release to read ``text`` by: ``target``, else the one its header names, else the newest."""
    given, written = module.params["target"], written_for(text)
    release = conf_release(given if given is not None else written or CONF_DEFAULT_TARGET)
    if given is not None and written is not None and written != release.name:
        module.warn("%s was written for %s; it is read by the rules of %s, as target says"
                    % (source, written, release.name))
    return release


def _read(module, result):
    params = module.params
    if params["target"] is not None:
        conf_release(params["target"])  # a target that reads no drop-in is refused before any file is read
    if params["path"] is not None:
        member = dropin_path(check_conf_name(params["conf_name"]))
        text, source = _read_path(os.path.abspath(params["path"]), member, result)
    else:
        text, source = params["content"], "content"
        result["kind"] = "dropin"
    release = _release(module, text, source)
    result["target"] = release.name
    parsed = parse_conf(text, release.name, source)
    for warning in parsed.warnings + _coverage_warnings(parsed, source):
        module.warn(warning)
    result.update(policies=[parsed.policies[name].to_dict() for name in NAMES if name in parsed.policies],
                  conf=policy_text_only(text, release.name))


def main():
    module = TextModule(
        argument_spec=spec(read_source_options(), conf_name_option(), target=dict(type="str")),
        supports_check_mode=True,
        **read_source_rules()
    )
    result = dict(changed=False)
    try:
        _read(module, result)
    except PwpolicyError as exc:
        module.fail_json(msg=to_native(exc))
    module.exit_json(**result)


if __name__ == "__main__":
    main()
