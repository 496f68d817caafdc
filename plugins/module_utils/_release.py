# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Installer release matrix: what each anaconda release does with password policies.

This is the single place that knows which installer release supports the
``%anaconda`` section and the ``pwpolicy`` command, what an omitted
``pwpolicy`` option means there, and which of several duplicate policies
wins.  Targets are named as pykickstart names them (``F22`` ... ``F46``,
``RHEL7`` ... ``RHEL11``, ``DEVEL``); this module does not import pykickstart so
that controller-side plugins can use it too.

History (see docs/docsite/rst/release_matrix.rst for sources):

* Fedora 22 introduced ``%anaconda`` and ``pwpolicy``; RHEL got them in 7.3.
* Fedora 26 (and the final RHEL 7 updates) relaxed the defaults of an omitted
  option from 8/50/strict to 6/1/not strict.
* Fedora 28 moved to argparse; until the fix of rhbz#1664704 (Fedora 33,
  RHEL 8 updates) an omitted empty flag meant ``--notempty``.
* Fedora 34 and RHEL 9 deprecated section and command (still applied; the
  last duplicate wins there because the policy moved to D-Bus).
* Fedora 35 removed ``pwpolicy`` (the section is only warned about, its
  content ignored); Fedora 36 and RHEL 10 removed ``%anaconda`` (a kickstart
  that still has it makes the installer stop).
* Fedora 35 (anaconda 35.18-1) and RHEL 10 hash the passwords the installer
  sets with yescrypt instead of SHA-512 crypt (see :data:`PASSWORD_HASH_BY_MAJOR`).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._names import shown_name

import re
from dataclasses import dataclass

# pykickstart's name for the development release.  DEVEL always sits past
# every release that had the section, so its exact number does not matter.
DEVEL = "DEVEL"
_DEVEL_FEDORA = 46

# Support states of the %anaconda section / pwpolicy command.
SUPPORTED = "supported"
DEPRECATED = "deprecated"          # F34, RHEL9: applied, with a warning
COMMAND_REMOVED = "command_removed"  # F35: section warned about, content ignored
SECTION_REMOVED = "section_removed"  # F36+, RHEL10+: installer terminates
UNSUPPORTED = "unsupported"        # before F22 / RHEL7: no such section

_TARGET_RE = re.compile(r"(F|RHEL)(\d+)")


class ReleaseError(PwpolicyError):
    """An installer release name we cannot use."""


# What each release does with %anaconda / pwpolicy: (last major release, state)
# in order; releases after the last entry have no section any more.
SUPPORT_BY_MAJOR = {
    "fedora": ((21, UNSUPPORTED), (33, SUPPORTED), (34, DEPRECATED), (35, COMMAND_REMOVED)),
    "rhel": ((6, UNSUPPORTED), (8, SUPPORTED), (9, DEPRECATED)),
}


# Commands other than pwpolicy that a release's %anaconda section accepted:
# {command: {family: ((first major, last major, state), ...)}}.  installclass
# moved into the section in Fedora 27 (a896cb42b6) and RHEL 7, and went with
# install classes in Fedora 30 (ba020fc8dd); RHEL 8.0 to 8.2 (anaconda 29.19)
# still had it, RHEL 8.3 (anaconda 33.16) no more.
# minlen/minquality travel over D-Bus as UInt16 from Fedora 34 / RHEL 9 on (the
# kickstart's pwpolicy on those two, anaconda configuration on every release
# that reads it): a value outside this range stops the installer.
DBUS_UINT16 = (0, 65535)

COMMAND_VALID = "valid"
COMMAND_SOME_UPDATES = "some_updates"
SECTION_COMMANDS = {
    "installclass": {"F": ((27, 29, COMMAND_VALID),),
                     "RHEL": ((7, 7, COMMAND_VALID), (8, 8, COMMAND_SOME_UPDATES))},
}


# The input kickstart on the installed system.  Anaconda copies the kickstart
# it was booted with (inst.ks=) to /root/original-ks.cfg, secrets and all:
# from anaconda 24.7 (Fedora 24; commit 1c4af3b432, rhinstaller/anaconda PR 447)
# and 21.48.22.57 on rhel7-branch (23c5e43327, before RHEL 7.3, the first RHEL
# 7 with %anaconda); Fedora 22 and 23 (f22-branch, f23-branch) do not.  The boot
# option inst.nosave=input_ks stops the copy from anaconda 25.2 (Fedora 25;
# b7d699a547, rhbz#1285519) and 21.48.22.63 on rhel7-branch (21826174b8); RHEL 8,
# 9 and 10 and every later Fedora keep it (rhel-8, rhel-9, rhel-10 branches:
# pyanaconda/argument_parsing.py; from anaconda 36.3 the copy is a task of
# pyanaconda/modules/boss/installation.py that honours it).  So Fedora 24 is the
# one release that keeps the copy whatever the boot line says.
# {family: (first major that copies, first major that takes the option)}
INPUT_KS_COPY = {"F": (24, 25), "RHEL": (7, 7)}
NOSAVE_INPUT_KS = "inst.nosave=input_ks"
# The installer also writes the kickstart it generates from its own data to /root/anaconda-ks.cfg, with the
# accounts' and the boot loader's passwords as it was given them (hashes, or a typed password's hash) but never
# the LUKS passphrase; inst.nosave=output_ks stops it, from the same releases as input_ks (the option came with
# its values input_ks, output_ks, all_ks, logs and all).
ROOT_COPY = "/root/original-ks.cfg"

# The crypt scheme the installer itself writes for the passwords it sets:
# (last major release, scheme) in order; later releases take the last scheme.
# anaconda switched from SHA-512 crypt to yescrypt (libxcrypt's $y$, cost 5)
# in 35.18-1, Fedora 35 (https://github.com/rhinstaller/anaconda/pull/3431,
# https://fedoraproject.org/wiki/Changes/yescrypt_as_default_hashing_method_for_shadow);
# RHEL 10 branched from Fedora 40 and keeps it; RHEL 7, 8 and 9 write SHA-512 crypt.
SHA512CRYPT = "sha512crypt"
YESCRYPT = "yescrypt"
HASH_SCHEMES = (SHA512CRYPT, YESCRYPT)
PASSWORD_HASH_BY_MAJOR = {
    "fedora": ((34, SHA512CRYPT), (None, YESCRYPT)),
    "rhel": ((9, SHA512CRYPT), (None, YESCRYPT)),
}
# The first release whose libcrypt verifies yescrypt ($y$ needs libxcrypt 4.2.0
# or later): Fedora 29 (libxcrypt 4.4) and RHEL 9 (libxcrypt 4.4.18).  RHEL 7
# (glibc's crypt) and RHEL 8 (libxcrypt 4.1.1) cannot read a $y$ hash, so an
# account given one could never log in.
YESCRYPT_READABLE_FROM = {"fedora": 29, "rhel": 9}

# The installer's interfaces and what each does with a policy that is not strict, from anaconda's code:
# - GTK: a password a non-strict policy refuses is taken after a second "Done" (since Fedora 22);
# - TUI: one too short is refused either way; one too weak is taken after a confirmation unless strict;
# - the Web UI (every Fedora live medium since Fedora 43, rhinstaller/anaconda#6530, July 2025): it refused one too
#   short until anaconda-webui's change of 2026-06-01 (be532fab7), then takes it unless strict; since the same day
#   (e5eb5c19a) a policy with "empty" lets an empty user password through.  RHEL media have no Web UI.
WEBUI_FROM = 43
WEBUI_RELAXED_FROM = 45  # the first Fedora whose anaconda-webui has the changes of 2026-06-01


@dataclass(frozen=True, repr=False)
class Release:
    """One installer release, as a pykickstart version name (``F34``, ``RHEL9``, ``DEVEL``).

    Equal and hashed by its fields; ``name`` alone determines the others.
    """

    name: str
    family: str
    major: int

    def __repr__(self):
        return "Release(%r)" % self.name

    @property
    def is_fedora(self):
        return self.family == "F"

    @property
    def label(self):
        """Human name, e.g. ``Fedora 34`` or ``RHEL 9``."""
        if self.name == DEVEL:
            return "Fedora development (DEVEL)"
        return ("Fedora %d" if self.is_fedora else "RHEL %d") % self.major

    @property
    def support(self):
        """How this release treats ``%anaconda`` / ``pwpolicy`` (a state constant)."""
        for last, state in SUPPORT_BY_MAJOR["fedora" if self.is_fedora else "rhel"]:
            if self.major <= last:
                return state
        return SECTION_REMOVED

    @property
    def can_write_section(self):
        """True when a ``%anaconda`` ``pwpolicy`` section has an effect (the installer applies it)."""
        return self.support in (SUPPORTED, DEPRECATED)

    @property
    def reads_anaconda_conf(self):
        """True when the installer reads ``password_policies`` from its configuration."""
        if self.is_fedora:
            return self.major >= 34
        return self.major >= 9

    @property
    def last_duplicate_wins(self):
        """Which of several policies with one name is in effect.

        Anaconda up to Fedora 33 / RHEL 8 looked policies up by name and took the
        first; Fedora 34 and RHEL 9 copied them into a mapping, so the last one
        written wins.
        """
        return self.support == DEPRECATED

    @property
    def optparse_era(self):
        """True when anaconda read ``pwpolicy`` options with optparse (pykickstart 1.x/2.x).

        Fedora 22 to 27 and RHEL 7; see :func:`read_int` for what that changes.
        """
        return (self.major <= 27) if self.is_fedora else self.major == 7

    @property
    def changesok_from_first(self):
        """Fedora 34 / RHEL 9: ``changesok`` of a duplicated name comes from its first line.

        ``apply_password_policy_from_kickstart`` took the other fields from a
        mapping (the last line wins) but looked ``changesok`` up by name.
        """
        return self.support == DEPRECATED

    @property
    def dbus_range(self):
        """Fedora 34 / RHEL 9 carry minlen/minquality over D-Bus as unsigned 16-bit
        integers: a value outside this range stops the installer.  None elsewhere."""
        return DBUS_UINT16 if self.support == DEPRECATED else None

    @property
    def conf_skips_blank_attributes(self):
        """anaconda 38.2 (Fedora 38, RHEL 10) strips ``password_policies`` attributes
        before dropping empty ones; before, an attribute of only blanks was an
        invalid attribute (an empty one, as in ``a,,b``, was always dropped)."""
        return self.major >= 38 if self.is_fedora else self.major >= 10

    @property
    def installer_python(self):
        """The Python version the release's anaconda ran on, as far as integer reading differs.

        Python 2.7 for Fedora 22 and RHEL 7, 3.4 for Fedora 23, 3.5 for
        Fedora 24 and 25, 3.6 or later for every later release.
        """
        if not self.is_fedora:
            return (2, 7) if self.major == 7 else (3, 6)
        return {22: (2, 7), 23: (3, 4), 24: (3, 5), 25: (3, 5)}.get(self.major, (3, 6))

    @property
    def copies_input_kickstart(self):
        """True when the installer copies the kickstart it was given to :data:`ROOT_COPY` on the installed system."""
        return self.major >= INPUT_KS_COPY[self.family][0]

    @property
    def takes_nosave_input_ks(self):
        """True when the boot option ``inst.nosave=input_ks`` stops that copy (see :data:`INPUT_KS_COPY`)."""
        return self.major >= INPUT_KS_COPY[self.family][1]

    @property
    def password_hash(self):
        """The crypt scheme the release's installer writes (:data:`PASSWORD_HASH_BY_MAJOR`)."""
        for last, scheme in PASSWORD_HASH_BY_MAJOR["fedora" if self.is_fedora else "rhel"]:
            if last is None or self.major <= last:
                return scheme
        return SHA512CRYPT  # not reached: the last entry has no bound

    @property
    def installer_uis(self):
        """``[{ui, non_strict_blocks, empty_user_password}]``: the release's interfaces, what a policy that is not
        strict still refuses in each (``nothing``, ``too_short``), and whether an ``empty`` policy lets an empty
        user password through (:data:`WEBUI_FROM`)."""
        uis = [{"ui": "gtk", "non_strict_blocks": "nothing", "empty_user_password": True},
               {"ui": "tui", "non_strict_blocks": "too_short", "empty_user_password": True}]
        if self.is_fedora and self.major >= WEBUI_FROM:
            relaxed = self.major >= WEBUI_RELAXED_FROM
            uis.append({"ui": "webui", "non_strict_blocks": "nothing" if relaxed else "too_short",
                        "empty_user_password": relaxed})
        return uis

    @property
    def hash_schemes(self):
        """The crypt schemes the installed system can verify, SHA-512 crypt first."""
        if self.major >= YESCRYPT_READABLE_FROM["fedora" if self.is_fedora else "rhel"]:
            return (SHA512CRYPT, YESCRYPT)
        return (SHA512CRYPT,)

    def section_command(self, word):
        """How the installer takes command ``word`` (other than pwpolicy) inside ``%anaconda``.

        :data:`COMMAND_VALID` when it accepts it, :data:`COMMAND_SOME_UPDATES`
        when only some updates of the release do, None when it stops with
        "Unknown command".  See :data:`SECTION_COMMANDS`.
        """
        for first, last, state in SECTION_COMMANDS.get(word, {}).get(self.family, ()):
            if first <= self.major <= last:
                return state
        return None

    def read_int(self, text):
        """The integer ``--minlen``/``--minquality`` text means to this release's parser.

        optparse (:attr:`optparse_era`) read ``0x10`` as 16, ``0b11`` as 3 and
        ``010`` as 8 (octal, so ``08`` is an error); argparse reads decimal.
        Python 3.6 (Fedora 26, RHEL 8) and later also read ``1_0`` as 10;
        Python 2 (Fedora 22, RHEL 7) read no digits but ASCII ones.
        Raises ValueError like those parsers.
        """
        python = self.installer_python
        if ("_" in text and python < (3, 6)) or (python < (3,) and any(ord(c) > 127 for c in text)):
            raise ValueError(text)
        if not self.optparse_era:
            return int(text)
        head = text.lower()
        if head[:2] == "0x":
            return int(text, 16)
        if head[:2] == "0b":
            return int(text[2:] or "0", 2)
        if head[:1] == "0":
            return int(text, 8)
        return int(text)

    def omitted_defaults(self, name):
        """Field values an omitted ``pwpolicy`` option (or policy field) takes.

        Returns a dict with ``minlen``, ``minquality``, ``strict``, ``emptyok`` and
        ``changesok``.  For releases that only read anaconda configuration, these
        are the values anaconda's shipped configuration gives each name.
        """
        if self.is_fedora and self.major <= 25:
            return dict(minlen=8, minquality=50, strict=True, emptyok=True, changesok=False)
        base = dict(minlen=6, minquality=1, strict=False, emptyok=True, changesok=False)
        if self.is_fedora and 28 <= self.major <= 32:
            # argparse gave --emptyok/--notempty a False default (rhbz#1664704).
            base["emptyok"] = False
        elif self.support in (SECTION_REMOVED, COMMAND_REMOVED):
            # anaconda.conf: only "user" carries the "empty" attribute.
            base["emptyok"] = name == "user"
        return base


# A target that names no release is shown in the error only when it reads as a release name (a family and a
# number, such as 'F99x', 'rhel 9.4' or 'fedora40') or is a typo of one (distance 2 at most): any other value
# could be a secret given in the wrong variable, and is shown as '<hidden>'.
_RELEASE_LIKE_RE = re.compile(r"(?i)(f|fc|fedora|rhel|el|centos|devel|rawhide)[ ._-]?[0-9]{0,3}(\.[0-9]{1,2})?[a-z]?")
_KNOWN_NAMES = tuple([DEVEL] + ["F%d" % number for number in range(22, _DEVEL_FEDORA + 1)]
                     + ["RHEL%d" % number for number in range(7, 11)])


def shown_target(name):
    """``name`` as an error may show it (see :data:`_RELEASE_LIKE_RE`)."""
    return shown_name(name, _KNOWN_NAMES, _RELEASE_LIKE_RE)


def parse_release(name):
    """Return the :class:`Release` for a pykickstart version name.

    Raises :class:`ReleaseError` with the accepted forms when the name is not one.
    """
    if not isinstance(name, str) or not name.strip():
        raise ReleaseError(
            "target must be an installer release as pykickstart names it "
            "(for example F40, RHEL9 or DEVEL), got %s" % (shown_target(name),))
    text = name.strip().upper()
    if text == DEVEL:
        return Release(DEVEL, "F", _DEVEL_FEDORA)
    match = _TARGET_RE.fullmatch(text)
    if not match:
        raise ReleaseError(
            "unknown target %s: use a pykickstart release name such as F22 to F46, "
            "RHEL7 to RHEL10, or DEVEL" % (shown_target(name),))
    release = Release(text, match.group(1), int(match.group(2)))
    if release.support == UNSUPPORTED:
        raise ReleaseError(
            "target %s predates password policies in kickstart: the %%anaconda section "
            "exists from Fedora 22 and RHEL 7.3 on" % release.name)
    return release


# What replaces the section on the releases that dropped it.
REPLACEMENT = ("anaconda configuration (option password_policies of section [User Interface], "
               "written by the module kickstart.pwpolicy.anaconda_conf)")


HASH_CHOICES = ("auto",) + HASH_SCHEMES


def hash_scheme(name, wanted="auto", allowed=None):
    """The crypt scheme of the password hashes in a kickstart for the release ``name``.

    ``wanted``: ``auto`` (what the release's installer writes), ``sha512crypt``
    or ``yescrypt``.  ``allowed``: the schemes a compliance profile permits
    (None: every scheme); ``auto`` then takes the installer's scheme when it is
    allowed, else the first allowed scheme the release can verify.  A
    :class:`ReleaseError` says why when the release cannot verify the scheme
    or nothing allowed fits.
    """
    release = parse_release(name)
    if wanted not in HASH_CHOICES:
        raise ReleaseError("kickstart_password_hash must be one of %s, got %r" % (", ".join(HASH_CHOICES), wanted))
    allowed = HASH_SCHEMES if allowed is None else tuple(allowed)
    readable = release.hash_schemes
    if wanted == "auto":
        for scheme in (release.password_hash,) + HASH_SCHEMES:
            if scheme in allowed and scheme in readable:
                return scheme
        raise ReleaseError("target %s: no hashing scheme fits: the selected compliance profile allows %s, "
                           "%s verifies %s" % (release.name, ", ".join(allowed) or "none", release.label,
                                               ", ".join(readable)))
    if wanted not in readable:
        raise ReleaseError("target %s: %s cannot verify %s password hashes (yescrypt needs libxcrypt 4.2.0 or "
                           "later; RHEL 7 and RHEL 8 do not have it): use kickstart_password_hash: sha512crypt "
                           "or auto" % (release.name, release.label, wanted))
    if wanted not in allowed:
        raise ReleaseError("target %s: the selected compliance profile does not allow %s password hashes; "
                           "use %s" % (release.name, wanted, " or ".join(allowed)))
    return wanted


def support_message(release):
    """Why ``release`` cannot take a ``%anaconda`` pwpolicy section, or None if it can."""
    if release.support == COMMAND_REMOVED:
        return ("target %s: Fedora 35 removed the pwpolicy command (its %%anaconda section is "
                "only warned about and the policies are ignored), and Fedora 36 and RHEL 10 "
                "removed the section altogether. Set the policies through %s instead. "
                "state=absent removes a stale section" % (release.name, REPLACEMENT))
    if release.support == SECTION_REMOVED:
        return ("target %s: %s has no %%anaconda section (removed in Fedora 36 and RHEL 10, "
                "pwpolicy already in Fedora 35): a kickstart that still has one makes the "
                "installer stop. Set the policies through %s instead. state=absent removes a "
                "stale section" % (release.name, release.label, REPLACEMENT))
    return None


def deprecation_message(release):
    """The warning for a release that still applies the section but deprecated it, or None."""
    if release.support == DEPRECATED:
        return ("target %s: %s deprecated the %%anaconda section and pwpolicy; the installer "
                "still applies the policies but warns. The replacement is %s"
                % (release.name, release.label, REPLACEMENT))
    return None


def boot_args(name, kickstart, updates=None, secrets=False):
    """``(line, warning)``: the installer boot arguments for release ``name`` (a pykickstart name).

    ``kickstart`` and ``updates`` are where the installer fetches the
    kickstart and the updates image (a URL or a path; ``updates`` None when
    there is no image).  Where the release takes ``inst.nosave``, it gets
    ``output_ks`` (the installer's generated kickstart keeps the accounts'
    password hashes, typed ones included) and, with ``secrets`` (the
    kickstart holds a plain-text secret or a hash), ``input_ks`` before it:
    ``inst.nosave=input_ks,output_ks``.  ``warning`` says where a release
    copies the kickstart and takes no such option (Fedora 24), else None.
    """
    release = parse_release(name)
    args = ["inst.ks=%s" % kickstart]
    if updates:
        args.append("inst.updates=%s" % updates)
    warning = None
    if release.takes_nosave_input_ks:
        args.append("inst.nosave=%s" % ("input_ks,output_ks" if secrets and release.copies_input_kickstart
                                        else "output_ks"))
    if secrets and release.copies_input_kickstart:
        if not release.takes_nosave_input_ks:
            warning = ("target %s: %s copies the kickstart it was booted with to %s on the installed system and "
                       "has no boot option to stop it (%s came with Fedora 25), so the secrets of this kickstart "
                       "(password hashes, a LUKS passphrase) stay in that file: delete it once the system is "
                       "installed, or install Fedora 25 or later" % (release.name, release.label, ROOT_COPY, NOSAVE_INPUT_KS))
    return " ".join(args), warning


# The release whose meaning applies when a caller names none (for example a
# policy given to the filter without a target): the newest installer.
NEWEST = DEVEL


def release_info(name):
    """What the installer release ``name`` does with password policies, as a plain dict.

    ``family``: ``fedora`` (DEVEL included) or ``rhel``.

    ``section``: it applies a ``%anaconda`` ``pwpolicy`` section; ``deprecated``:
    it warns about the section (Fedora 34 and RHEL 9 still apply it, Fedora 35
    ignores it); ``anaconda_conf``: it reads ``password_policies`` from anaconda
    configuration; ``delivery``: what carries the policies to it (``section``,
    else ``updates_image``); ``copies_input_kickstart``: it keeps a copy of
    the kickstart in ``/root`` of the installed system; ``nosave_input_ks``:
    ``inst.nosave=input_ks`` stops that copy.  Raises :class:`ReleaseError` for an unknown name.
    """
    release = parse_release(name)
    section = release.can_write_section
    return {
        "name": release.name,
        "label": release.label,
        "family": "fedora" if release.is_fedora else "rhel",
        "section": section,
        "deprecated": release.support in (DEPRECATED, COMMAND_REMOVED),
        "anaconda_conf": release.reads_anaconda_conf,
        "delivery": "section" if section else "updates_image",
        "copies_input_kickstart": release.copies_input_kickstart,
        "nosave_input_ks": release.takes_nosave_input_ks,
        "password_hash": release.password_hash,
    }
