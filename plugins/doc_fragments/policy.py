# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):
    """Options shared by the plugins: password policies, installer releases, reading only."""

    DOCUMENTATION = r"""
options:
  policies:
    description:
      - The password policies, either a dict keyed by policy name or a list of dicts that each carry C(name).
      - Each policy takes the keys C(name), C(minlen), C(minquality), C(strict), C(emptyok) and C(changesok); any other
        key is an error that lists the valid ones.
      - C(name) is the password the policy governs, V(root) for the root password, V(user) for user passwords and
        V(luks) for the disk encryption passphrase.
      - C(minlen) is the minimum length, a whole number from 0 to 1024.
      - C(minquality) is the lowest libpwquality score considered good, a whole number from 0 to 100.
      - C(strict) decides what happens to a password that fails the policy, refused when true, allowed after a
        confirmation when false.
      - C(emptyok) allows an empty password, and C(changesok) lets the installer's user interface change a password
        the kickstart already set.
      - Flags accept Ansible's boolean words (V(yes), V(no), V(true), V(false), V(on), V(off)); numbers accept strings
        of digits, as templating may produce them. An error names the policy, the key, the bad value and what is
        allowed.
      - Fields you leave out come from the O(product) preset when O(product) is set, otherwise they mean what the
        target installer release made an omitted C(pwpolicy) option mean (for example C(minlen=8), C(minquality=50)
        and C(strict) on Fedora 22 to 25; each release is listed in the collection's release matrix guide).
    type: raw
  product:
    description:
      - Start from this product's preset for all three policies (C(root), C(user), C(luks)); values in O(policies)
        override the preset field by field.
      - The presets are this collection's documented choice; anaconda itself never shipped per-product policies.
    type: str
    choices: [server, cloud, workstation]
"""

    # The installer release of the kickstart modules (ks_pwpolicy, ks_pwpolicy_info), and where they run.
    KICKSTART_TARGET = r"""
attributes:
  platform:
    support: full
    platforms: posix
    description: Runs on any POSIX managed node that has pykickstart.
options:
  target:
    description:
      - The installer release, as pykickstart names it, for example V(F22) to V(F46), V(RHEL7) to V(RHEL10),
        or V(DEVEL).
      - It decides what an omitted C(pwpolicy) option or policy field means, which of several lines for one name is
        in effect, and what the installer does with the C(%anaconda) section (see the description).
      - Defaults to the release on the kickstart's C(#version=) line; without one the module fails and asks for
        O(target).
    type: str
"""

    # The installer release of the anaconda configuration modules (anaconda_conf, anaconda_conf_info).
    CONF_TARGET = r"""
options:
  target:
    description:
      - The installer release, as pykickstart names it (for example V(F40), V(RHEL10), V(DEVEL)).
      - It must read anaconda configuration, that is Fedora 34 or later or RHEL 9 or later; older releases take
        the C(%anaconda) C(pwpolicy) section instead (modules M(kickstart.pwpolicy.ks_pwpolicy) and
        M(kickstart.pwpolicy.ks_pwpolicy_info)).
      - It decides what an omitted field means (the installer's shipped configuration for that release).
    type: str
    default: DEVEL
"""

    # anaconda_conf_info: the target, by default the one the drop-in names.
    CONF_TARGET_READ = r"""
options:
  target:
    description:
      - The installer release whose rules read the drop-in, as pykickstart names it (for example V(F40), V(RHEL10),
        V(DEVEL)); Fedora 34 or later, or RHEL 9 or later.
      - It decides what an omitted field means (the installer's shipped configuration for that release).
      - By default, the release named in the drop-in's header, which M(kickstart.pwpolicy.anaconda_conf) writes
        (C(# Written for installer release RHEL10.)); V(DEVEL) for a drop-in without one. Given, it wins, with a
        warning when the header names another release.
    type: str
"""

    # The modules that only read (ks_pwpolicy_info, anaconda_conf_info).
    INFO_MODULE = r"""
attributes:
  check_mode:
    support: full
    description: The module only reads, so it runs the same way in check mode.
  diff_mode:
    support: none
    description: The module changes nothing, so there is no diff.
"""

    # path and content of the modules that read a kickstart or template that may hold secrets.
    SECRET_SOURCE = r"""
options:
  path:
    description:
      - The kickstart or template to read on the managed node. Anything but a regular file, a file over 16 MiB and a
        file that is not UTF-8 text are refused.
      - Exactly one of O(path) and O(content) is required.
    type: path
  content:
    description:
      - The kickstart or template text to read.
      - Exactly one of O(path) and O(content) is required.
      - "The text is never shown or logged (the option is C(no_log)): not in the result, its C(invocation), an
        error or the managed node's log. Text holding a NUL character is refused with the line it is on."
    type: str
"""
