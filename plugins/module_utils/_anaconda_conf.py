# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Password policies as an anaconda configuration drop-in: the format, the targets, the file name.

Fedora 34+ and RHEL 9+ installers read their password policies from anaconda
configuration files (INI files read with Python's ``configparser``), section
``[User Interface]``:

* ``password_policies``: one policy per line, ``NAME (ATTR, ATTR, ...)``.
  The name ends at the first whitespace; the rest loses its surrounding
  parentheses and is cut at commas; items that are empty strings are skipped;
  each item is an attribute name, optionally followed by whitespace and a
  value.  ``quality N`` and ``length N`` are required integers; ``strict`` and
  ``empty`` are flags written without a value (absent means false).  Anything
  else is an error that stops the installer.  When a name appears twice the
  installer uses the first line.
* ``can_change_root`` / ``can_change_users``: booleans; whether the installer
  UI may change a root account / user accounts that the kickstart already
  configured.  They are the configuration form of ``changesok``.

How our model maps onto that:

* ``minquality`` -> ``quality``, ``minlen`` -> ``length``, ``strict`` ->
  ``strict``, ``emptyok`` -> ``empty``.
* ``changesok`` of ``root`` -> ``can_change_root``, of ``user`` ->
  ``can_change_users``.  The ``luks`` policy has no such option (a LUKS
  passphrase is not an account the UI re-edits), so its ``changesok`` cannot
  be expressed: rendering reports a warning when it is true, and parsing gives
  ``luks`` the release's default (false).
* A drop-in's ``password_policies`` replaces the whole list the installer
  read before, and a name missing from the list gets no limits at all (length
  0, quality 0, empty allowed).  So the drop-in always carries all three names:
  a name the user did not give is written with the shipped default of the
  target release (or the product preset), never left out.

This module does not import anything from anaconda: the grammar above is
implemented here from its documented behaviour, and ``configparser`` (the same
standard parser the installer uses) reads the INI layer so that a file we
accept is a file the installer accepts.

Rendering is in ``_anaconda_conf_render``, parsing in ``_anaconda_conf_parse``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError

import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import build_policies
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import (
    COMMAND_REMOVED,
    NEWEST,
    SECTION_REMOVED,
    ReleaseError,
    parse_release,
)

SECTION = "User Interface"
OPTION = "password_policies"
# policy name -> configuration option holding its changesok
CHANGE_OPTIONS = {"root": "can_change_root", "user": "can_change_users"}
# Where an updates image puts drop-ins, relative to the installer's root.
CONF_DIR = "etc/anaconda/conf.d"
DEFAULT_CONF_NAME = "90-kickstart-pwpolicy.conf"

_CONF_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*\.conf")


class ConfError(PwpolicyError):
    """Invalid anaconda configuration text or an unusable target.

    The message names the line (when there is one) and what to do, never the
    line's text: a file given by mistake (a kickstart) may hold secrets.
    """


class NotConfError(ConfError):
    """The text is not INI at all: not anaconda configuration but another kind of file."""


def conf_release(target=None):
    """The :class:`Release` for ``target`` if it reads anaconda configuration.

    Raises :class:`ConfError` for older releases, pointing to ``ks_pwpolicy``.
    """
    try:
        release = parse_release(NEWEST if target is None else target)
    except ReleaseError as exc:
        raise ConfError(str(exc))
    if not release.reads_anaconda_conf:
        raise ConfError(
            "target %s does not read password policies from anaconda configuration "
            "(that starts with Fedora 34 and RHEL 9); for %s use the %%anaconda pwpolicy "
            "section instead (module kickstart.pwpolicy.ks_pwpolicy)" % (release.name, release.label))
    return release


def defaults_target(release):
    """The release whose omitted defaults are ``release``'s shipped configuration.

    The ``[User Interface]`` block of anaconda.conf is the same from Fedora 34
    and RHEL 9 on; release.py models it as the omitted defaults of the releases
    without ``pwpolicy``.  Fedora 34 and RHEL 9 still had the kickstart command,
    whose omitted options meant something else (empty allowed for every name),
    so their configuration defaults are read from the next release.
    """
    if release.support in (SECTION_REMOVED, COMMAND_REMOVED):
        return release.name
    return "F36" if release.is_fedora else "RHEL10"


def conf_policies(policies=None, product=None, target=None):
    """``{name: Policy}`` for all three names, ready to render for ``target``.

    User fields override the ``product`` preset (when given) field by field,
    else the target's shipped configuration defaults.  Names the user left out
    are filled too (see the module docstring for why).
    """
    return build_policies(policies, product=product, target=defaults_target(conf_release(target)), every_name=True)


def check_conf_name(name):
    """Validate a drop-in file name (``NN-name.conf``); returns it."""
    if not isinstance(name, str) or not _CONF_NAME_RE.fullmatch(name):
        raise ConfError(
            "conf_name %r is not a usable drop-in file name: the installer reads only files "
            "named *.conf in %s; use letters, digits, '.', '_', '+' or '-', no '/', "
            "for example %s" % (name, CONF_DIR, DEFAULT_CONF_NAME))
    return name


def dropin_path(conf_name=DEFAULT_CONF_NAME):
    """Path of the drop-in inside the installer's root (and an updates image)."""
    return "%s/%s" % (CONF_DIR, check_conf_name(conf_name))
