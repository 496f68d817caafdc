#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: anaconda_conf
short_description: Password policies as anaconda configuration and installer updates images
version_added: 0.1.0
description:
  - Renders password policies as an anaconda configuration drop-in (section C([User Interface]), options
    C(password_policies), C(can_change_root) and C(can_change_users)), the form in which Fedora 34 and later and
    RHEL 9 and later installers read them. Fedora 36 and RHEL 10 removed the C(%anaconda) kickstart section, so for
    those installers this is the only way to set a password policy.
  - Writes the drop-in to a file (O(path)), builds an installer updates image holding it (O(updates_image), to boot
    with C(inst.updates=URL)), or both; with neither, or with O(content), it only returns the text.
  - To read the policies a drop-in or an updates image holds, use M(kickstart.pwpolicy.anaconda_conf_info).
    Called without O(policies) and O(product), this module still reads instead of writing (the policies that
    O(path), O(updates_image) or O(content) holds, the first given); that is deprecated and will be removed in
    version 1.0.0. To write the installer's shipped defaults, give an empty O(policies) (V({})).
  - A drop-in's C(password_policies) replaces the installer's whole list, and a policy missing from it has no limits
    at all, so the drop-in always holds C(root), C(user) and C(luks); a policy you do not give is written with the
    O(product) preset, else with the installer's shipped default for O(target) (quality 1, length 6, and only
    C(user) allows an empty password).
  - C(changesok) of C(root) becomes C(can_change_root) and of C(user) C(can_change_users). The installer has no
    such option for C(luks); C(changesok=true) there is reported with a warning and not written.
author:
  - kickstart.pwpolicy contributors (@kickstart-pwpolicy)
extends_documentation_fragment:
  - kickstart.pwpolicy.policy
  - kickstart.pwpolicy.policy.conf_target
  - ansible.builtin.files
attributes:
  check_mode:
    support: full
    description: Reports what would change, writes nothing.
  diff_mode:
    support: full
    description:
      - Shows the drop-in text before and after, for O(path) and for the drop-in inside O(updates_image) (or for
        O(content)).
      - Before, only its password-policy lines are shown as they are; every other line shows as
        C(<line N not shown>), so that nothing of a file given by mistake (a kickstart, say) is shown.
options:
  path:
    description:
      - The drop-in file to write, for example C(/etc/anaconda/conf.d/90-kickstart-pwpolicy.conf) on an installer
        image being prepared, or a file you serve or package yourself.
      - The module owns the whole file; its previous content is replaced. A file that is not INI text at all (a
        kickstart given by mistake, say) is refused and left as it is; one that is INI but no valid drop-in is
        replaced, with a warning that names the line (errors and warnings never repeat the file's text).
      - The parent directory must exist. A new file gets mode C(0644) unless O(mode) says otherwise.
      - Named O(path) as in M(kickstart.pwpolicy.ks_pwpolicy) since 0.3.0; the earlier name C(dest) is an alias.
    type: path
    aliases: [dest]
  content:
    description:
      - Content mode. The drop-in text to start from (may be empty); its policies are returned as RV(previous) and
        the diff is computed against it. Nothing is written; the new text is returned as RV(conf).
      - Content mode is also what happens when neither O(path) nor O(updates_image) is given.
      - Mutually exclusive with O(path) and O(updates_image).
    type: str
  updates_image:
    description:
      - Path of an installer updates image to build (a gzip-compressed cpio archive in C(newc) format) that holds
        the drop-in as C(etc/anaconda/conf.d/)O(conf_name) with its parent directories.
      - Boot the installer with C(inst.updates=) pointing at this file served over HTTP, HTTPS, FTP or NFS.
      - The image holds only the drop-in; an existing file is replaced when its content differs. A file that is
        neither gzip data nor a cpio archive is refused and left as it is.
      - Builds are reproducible (owner 0, fixed times, fixed inode numbers, no name or time in the gzip header), so
        the same policies always give the same bytes. A new image gets mode C(0644) unless O(mode) says otherwise.
    type: path
  conf_name:
    description:
      - File name of the drop-in inside O(updates_image). The installer reads C(/etc/anaconda/conf.d/*.conf) in
        name order and a later file overrides an earlier one, so a high number makes this one win.
    type: str
    default: 90-kickstart-pwpolicy.conf
  image_mtime:
    description:
      - Modification time (seconds since 1970) of every member of O(updates_image), as C(SOURCE_DATE_EPOCH) does for
        reproducible builds.
    type: int
    default: 0
  backup:
    description:
      - Keep a time-stamped copy of O(path) and of O(updates_image) before replacing them.
    type: bool
    default: false
notes:
  - File attributes (O(mode), O(owner), O(group), SELinux context) apply to both O(path) and O(updates_image).
  - O(mode) must be a string (V('0644'), V('u=rw,go=r')); a number is refused, because YAML reads C(644) as decimal
    (octal 1204) and C(0644) as 420, so the number does not say which mode was meant.
  - O(path) and O(updates_image) are never written through a symbolic link; a link is refused, with where it points
    (give the real path).
  - A written file belongs to the user the module runs as unless O(owner) and O(group) say otherwise; the owner of an
    existing file is never copied. An existing file of that user keeps its mode and group; one of another user is
    replaced like a new file (mode C(0644)).
  - Idempotent. The updates image is compared by content (members, modes, owners, times, data), not by the file's
    own time stamps.
  - Fedora 34, Fedora 35 and RHEL 9 also read the deprecated C(%anaconda) section (Fedora 35 ignores it); use one
    form per installer.
seealso:
  - module: kickstart.pwpolicy.anaconda_conf_info
  - module: kickstart.pwpolicy.ks_pwpolicy
  - name: Anaconda configuration files
    description: How the installer reads its configuration and drop-ins.
    link: https://anaconda-installer.readthedocs.io/en/latest/configuration-files.html
  - name: Anaconda boot options (inst.updates)
    description: How to give the installer an updates image.
    link: https://anaconda-installer.readthedocs.io/en/latest/boot-options.html#inst-updates
"""

EXAMPLES = r"""
- name: Server policies for a RHEL 10 install, as an updates image to boot with inst.updates=
  kickstart.pwpolicy.anaconda_conf:
    product: server
    target: RHEL10
    updates_image: /var/www/html/ks/rhel10-updates.img
  register: pwconf

- name: Raise the LUKS length and write the drop-in into a prepared installer tree
  kickstart.pwpolicy.anaconda_conf:
    target: F40
    policies:
      luks:
        minlen: 24
        strict: true
    path: /srv/installer-root/etc/anaconda/conf.d/90-kickstart-pwpolicy.conf

- name: Only render the text
  kickstart.pwpolicy.anaconda_conf:
    product: workstation
    target: F42
  register: rendered

# To read the policies an existing drop-in or updates image holds, use kickstart.pwpolicy.anaconda_conf_info.
"""

RETURN = r"""
policies:
  description:
    - The policies the drop-in holds afterwards, in the order root, user, luks.
    - In the deprecated read mode, the policies found.
  returned: always
  type: list
  elements: dict
  sample:
    - {name: root, minlen: 15, minquality: 30, strict: true, emptyok: false, changesok: false}
previous:
  description:
    - The policies the drop-in held before (empty when there was none), read by the installer's rules for O(target)
      as M(kickstart.pwpolicy.anaconda_conf_info) reads them (a value outside the ranges the module writes shows as
      given).
  returned: always
  type: list
  elements: dict
  sample: []
conf:
  description:
    - The drop-in text (afterwards).
    - In the deprecated read mode the text that was read, every line but its password-policy lines shown as
      C(<line N not shown>), as M(kickstart.pwpolicy.anaconda_conf_info) returns it.
  returned: always
  type: str
  sample: |
    [User Interface]
    can_change_root = False
    can_change_users = False
    password_policies =
        root (quality 30, length 15, strict)
        user (quality 30, length 15, strict)
        luks (quality 30, length 20, strict)
path:
  description: The drop-in file, when O(path) was given.
  returned: when O(path) is given
  type: str
  sample: /srv/installer-root/etc/anaconda/conf.d/90-kickstart-pwpolicy.conf
  version_added: 0.3.0
dest:
  description: The same as RV(path), under its earlier name; kept for playbooks that read it.
  returned: when O(path) is given
  type: str
  sample: /srv/installer-root/etc/anaconda/conf.d/90-kickstart-pwpolicy.conf
updates_image:
  description: Path of the updates image, when O(updates_image) was given.
  returned: when O(updates_image) is given
  type: str
  sample: /var/www/html/ks/rhel10-updates.img
dropin:
  description: Path of the drop-in inside the installer (and inside the updates image).
  returned: always
  type: str
  sample: etc/anaconda/conf.d/90-kickstart-pwpolicy.conf
backup_file:
  description: The backup of O(path), when one was made.
  returned: when O(backup=true) and O(path) changed
  type: str
backup_image:
  description: The backup of O(updates_image), when one was made.
  returned: when O(backup=true) and O(updates_image) changed
  type: str
"""

import os

from ansible.module_utils.common.text.converters import to_bytes, to_native

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf import (
    ConfError,
    NotConfError,
    check_conf_name,
    conf_policies,
    conf_release,
    dropin_path,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf_parse import parse_conf, policy_text_only
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf_render import render_conf
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._argspec import (
    TextModule,
    conf_name_option,
    conf_target_option,
    policy_options,
    spec,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._updates_image import (
    UpdatesImageError,
    build_image,
    is_image,
    member_text,
    read_image,
    same_content,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import (
    FileError,
    backup,
    decode_text,
    mode_error,
    read_bytes,
    refuse_link,
    write_atomic,
)

NEW_FILE_MODE = 0o644
READ_DEPRECATION = (
    "Calling kickstart.pwpolicy.anaconda_conf without policies and product to read a drop-in or an "
    "updates image is deprecated; read with kickstart.pwpolicy.anaconda_conf_info (path or content) "
    "instead, or give policies: {} to write the installer's shipped defaults")


def _dicts(policies):
    return [policies[name].to_dict() for name in NAMES if name in policies]


def _read_text(module, path):
    try:
        data = read_bytes(path, what="path")
        return None if data is None else decode_text(data, path, what="path")
    except FileError as exc:
        module.fail_json(msg=str(exc))


def _check_writable_path(module, path, option):
    try:
        refuse_link(path, option)
    except FileError as exc:
        module.fail_json(msg=str(exc))
    if os.path.isdir(path):
        module.fail_json(msg="%s %s is a directory; give the path of a file" % (option, path))
    parent = os.path.dirname(os.path.abspath(path))
    # In check mode an earlier task may not have created the directory yet.
    if not os.path.isdir(parent) and not module.check_mode:
        module.fail_json(msg="%s: directory %s does not exist; create it first" % (option, parent))


def _write(module, path, data, make_backup, original=None):
    """Write ``data`` to ``path`` atomically; returns the backup file name or None."""
    backup_file = None
    file_args = module.load_file_common_arguments(module.params, path=path)
    if make_backup and os.path.exists(path):
        try:
            previous = original if original is not None else read_bytes(path)
            backup_file = backup(path, previous, os.stat(path).st_mode)
        except (FileError, OSError) as exc:
            module.fail_json(msg=str(exc))
    write_atomic(module, path, data, new_mode=NEW_FILE_MODE, file_args=file_args)
    return backup_file


def _set_attributes(module, path, existed, changed):
    args = module.load_file_common_arguments(module.params, path=path)
    if args.get("mode") is None and not existed:
        args["mode"] = NEW_FILE_MODE
    return module.set_fs_attributes_if_different(args, changed)


def _read_image_dropin(module, path, member, required):
    """``(text or None, members or None)`` of the drop-in inside the image at ``path``.

    A file that does not even start like an updates image is another file given by mistake: it is
    never replaced (nor quoted).
    """
    try:
        data = read_bytes(path, what="updates_image")
        if data and not is_image(data):
            message = "updates_image %s: cannot read it as an updates image: it is neither gzip data nor a newc " \
                      "cpio archive" % path
            module.fail_json(msg=message if required else message + "; it is not replaced: point updates_image at "
                             "the image to build, or remove this file first")
        members = read_image(data)
    except FileError as exc:
        module.fail_json(msg=str(exc))
    except UpdatesImageError as exc:
        if required:
            module.fail_json(msg="updates_image %s: cannot read it as an updates image: %s" % (path, to_native(exc)))
        module.warn("updates_image %s is not a readable updates image (%s); it will be replaced"
                    % (path, to_native(exc)))
        return None, None
    try:
        text = member_text(members, member)
    except UpdatesImageError as exc:
        if required:
            module.fail_json(msg="updates_image %s: %s" % (path, to_native(exc)))
        return None, members
    if text is None and required:
        module.fail_json(msg="updates_image %s holds no %s; set conf_name to the drop-in's file name"
                         % (path, member))
    return text, members


def _parse_previous(module, text, target, source, required, option=None):
    """The policies ``text`` holds; a ``text`` that is not even INI fails for ``option`` (a file not replaced)."""
    if text is None:
        return {}
    try:
        parsed = parse_conf(text, target, source)
    except ConfError as exc:
        if required:
            module.fail_json(msg=to_native(exc))
        if option and isinstance(exc, NotConfError):
            module.fail_json(msg="%s; it is not replaced: point %s at the drop-in to write, or remove this file "
                                 "first" % (to_native(exc), option))
        module.warn("%s; it will be replaced" % to_native(exc))
        return {}
    for warning in parsed.warnings:
        module.warn(warning)
    return parsed.policies


def _check_arguments(module, dest, image, read_mode):
    """The drop-in's path inside an image, once every argument is known to be usable."""
    params = module.params
    try:
        conf_release(params["target"])
        member = dropin_path(check_conf_name(params["conf_name"]))
    except ConfError as exc:
        module.fail_json(msg=to_native(exc))
    mtime = params["image_mtime"]
    if not 0 <= mtime <= 0xFFFFFFFF:
        module.fail_json(msg="image_mtime must be from 0 to 4294967295 (seconds since 1970), got %d" % mtime)
    for option, path in (("path", dest), ("updates_image", image)):
        if path is not None and not read_mode:
            _check_writable_path(module, path, option)
    return member


def _source(dest, image, member, dest_text, image_text, content_text):
    """``(text, source)`` of what there is now: ``dest``, else the image, else ``content``."""
    if dest is not None:
        return dest_text, dest
    if image is not None:
        return image_text, "%s:%s" % (image, member)
    return content_text, "content"


def _read(module, result, text, source, path):
    """The deprecated read mode: return the policies ``text`` holds, change nothing."""
    module.deprecate(READ_DEPRECATION, version="1.0.0", collection_name="kickstart.pwpolicy")
    if text is None and path is not None:
        module.fail_json(msg="%s does not exist; give policies or product to create it" % path)
    policies = _parse_previous(module, text or "", module.params["target"], source, required=True)
    result.update(policies=_dicts(policies), previous=_dicts(policies),
                  conf=policy_text_only(text or "", module.params["target"]))
    module.exit_json(**result)


def _render(module):
    """``(conf, policies)``: the drop-in text and the policies it holds."""
    params = module.params
    try:
        policies = conf_policies(params["policies"], params["product"], params["target"])
        conf, warnings = render_conf(policies, conf_release(params["target"]).name)
        check = parse_conf(conf, params["target"], "rendered configuration").policies
    except PwpolicyError as exc:
        module.fail_json(msg=to_native(exc))
    for warning in warnings:
        module.warn(warning)
    expected = dict(policies)
    if "luks" in expected:
        expected["luks"] = expected["luks"].replace(changesok=check["luks"].changesok)
    if check != expected:  # pragma: no cover - a rendering bug, not a user error
        module.fail_json(msg="internal error: the rendered configuration does not read back as the same policies")
    return conf, check


def _before(module, text):
    """What a diff shows of the text there was: its password-policy lines, no other text."""
    return policy_text_only(text or "", module.params["target"])


def _update_dest(module, result, diffs, dest, dest_text, conf):
    if dest_text != conf:
        diffs.append(dict(before_header=dest, after_header=dest, before=_before(module, dest_text), after=conf))
        result["changed"] = True
        if not module.check_mode:
            backup_file = _write(module, dest, to_bytes(conf), module.params["backup"],
                                 None if dest_text is None else to_bytes(dest_text))
            if backup_file:
                result["backup_file"] = backup_file
    if not module.check_mode:
        result["changed"] = _set_attributes(module, dest, dest_text is not None, result["changed"])
    elif os.path.exists(dest):
        result["changed"] = _set_attributes(module, dest, True, result["changed"])


def _update_image(module, result, diffs, image, current, member, conf):
    """Rebuild ``image`` unless it holds ``conf`` already; ``current`` is ``(text, members)``."""
    image_text, image_members = current
    mtime = module.params["image_mtime"]
    files = {member: conf}
    image_existed = os.path.exists(image)
    if image_members is None or not same_content(image_members, files, mtime):
        header = "%s:%s" % (image, member)
        diffs.append(dict(before_header=header, after_header=header, before=_before(module, image_text), after=conf))
        result["changed"] = True
        if not module.check_mode:
            try:
                data = build_image(files, mtime)
            except UpdatesImageError as exc:
                module.fail_json(msg="updates_image: %s" % to_native(exc))
            backup_image = _write(module, image, data, module.params["backup"])
            if backup_image:
                result["backup_image"] = backup_image
    if not module.check_mode:
        result["changed"] = _set_attributes(module, image, image_existed, result["changed"])
    elif image_existed:
        result["changed"] = _set_attributes(module, image, True, result["changed"])


def _compare_content(module, result, diffs, content_text, conf):
    """Content mode: "changed" says the given text differs from the result.

    Rendering alone (no content, no files) changes nothing.
    """
    if content_text is not None and content_text != conf:
        diffs.append(dict(before_header="content", after_header="content", before=_before(module, content_text),
                          after=conf))
        result["changed"] = True


def main():
    module = TextModule(
        argument_spec=spec(
            policy_options(), conf_target_option(), conf_name_option(),
            path=dict(type="path", aliases=["dest"]),
            content=dict(type="str"),
            updates_image=dict(type="path"),
            image_mtime=dict(type="int", default=0),
            backup=dict(type="bool", default=False),
        ),
        mutually_exclusive=[("content", "path"), ("content", "updates_image")],
        add_file_common_args=True,
        supports_check_mode=True,
    )
    params = module.params
    if mode_error(params["mode"]):
        module.fail_json(msg=mode_error(params["mode"]))
    # Relative paths are relative to where the module runs; make them absolute
    # once so every later step (backup, temp file, atomic move) agrees.
    dest, image = (None if params[option] is None else os.path.abspath(params[option])
                   for option in ("path", "updates_image"))
    read_mode = params["policies"] is None and params["product"] is None
    member = _check_arguments(module, dest, image, read_mode)
    result = dict(changed=False, dropin=member)
    result.update((key, path) for key, path in (("path", dest), ("dest", dest), ("updates_image", image))
                  if path is not None)

    # What is there now.
    dest_text = _read_text(module, dest) if dest is not None and os.path.exists(dest) else None
    image_text, image_members = None, None
    if image is not None and os.path.exists(image):
        image_text, image_members = _read_image_dropin(module, image, member, required=read_mode)
    content_text = params["content"]
    previous_text, previous_source = _source(dest, image, member, dest_text, image_text, content_text)
    if read_mode:
        _read(module, result, previous_text, previous_source, dest or image)

    # What it should be.
    conf, policies = _render(module)
    previous = _parse_previous(module, previous_text, params["target"], previous_source, required=False,
                               option="path" if dest is not None else None)
    result.update(policies=_dicts(policies), previous=_dicts(previous), conf=conf)

    diffs = []
    if dest is not None:
        _update_dest(module, result, diffs, dest, dest_text, conf)
    if image is not None:
        _update_image(module, result, diffs, image, (image_text, image_members), member, conf)
    if dest is None and image is None:
        _compare_content(module, result, diffs, content_text, conf)

    if module._diff and diffs:
        result["diff"] = diffs if len(diffs) > 1 else diffs[0]
    module.exit_json(**result)


if __name__ == "__main__":
    main()
