# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The posture of an installed host: what the machine enforces, read from the machine itself.

:func:`read_host` puts side by side, in the posture of ``model`` (source
``host``), what ``host_auth`` reads (libpwquality's settings in effect, the
PAM stacks, ``login.defs``, the accounts of ``/etc/shadow``, FIPS mode) and
what ``host_disk`` reads (the LUKS headers, the boot loader's password, the
kickstarts and logs the installer left), under ``root`` (``/``, or a mounted
image or a test tree), read-only.  The release is the one ``os-release``
names, in pykickstart's words (``RHEL9``, ``F42``), so that the judge can
take the profile of that release.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host_auth import read_auth
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host_disk import read_disk
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host_files import HostFiles
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.model import new_posture

# Where os-release(5) is: /etc first, then /usr/lib.
OS_RELEASE = ("/etc/os-release", "/usr/lib/os-release")
# The IDs of the rebuilds of RHEL (os-release ID and ID_LIKE), whose major version is RHEL's.
RHEL_IDS = ("rhel", "centos", "almalinux", "rocky", "ol", "circle", "eurolinux")
_ASSIGNMENT = re.compile(r"^([A-Z][A-Z0-9_]*)=(.*)$")


def _value(text):
    """An os-release value: quoted in single or double quotes, or bare (no expansion, as the format says)."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return re.sub(r"\\(.)", r"\1", text)


def read_os(files):
    """``{id, id_like, version_id, target, where}`` from os-release, or None where there is none."""
    for path in OS_RELEASE:
        text = files.read_text(path, 64 * 1024)
        if text is None:
            continue
        fields = {}
        for line in text.splitlines():
            match = _ASSIGNMENT.match(line.strip())
            if match:
                fields[match.group(1)] = _value(match.group(2))
        found = {"id": fields.get("ID", "").lower(), "id_like": fields.get("ID_LIKE", "").lower().split(),
                 "version_id": fields.get("VERSION_ID", ""), "target": None, "where": {"file": path}}
        major = re.match(r"^([0-9]{1,3})", found["version_id"])
        if major:
            if found["id"] == "fedora":
                found["target"] = "F%d" % int(major.group(1))
            elif found["id"] in RHEL_IDS or "rhel" in found["id_like"]:
                found["target"] = "RHEL%d" % int(major.group(1))
        return found
    return None


def read_host(root="/", run=None, devices=None):
    """The posture of the host under ``root`` (see the module's docstring); ``run`` and ``devices`` are
    ``host_disk.read_disk``'s (the LUKS headers are read only with a command runner)."""
    unknown = []
    system = read_os(HostFiles(root, unknown))
    auth = read_auth(root)
    disk = read_disk(root, run, devices)
    posture = new_posture("host", system["target"] if system else None)
    posture.update(
        os=system,
        accounts=auth["accounts"],
        pwquality=auth["pwquality"],
        login_defs=auth["login_defs"],
        pam=auth["pam"],
        fips=auth["fips"],
        fips_where=auth["fips_where"],
        devices=disk["devices"],
        bootloader=disk["bootloader"],
        leftovers=disk["leftovers"],
    )
    posture["unknown"] = unknown + auth["unknown"] + disk["unknown"]
    return posture
