# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The posture model: what a system would be or is, as plain data (dicts, lists, strings, numbers).

A posture never holds a secret or a hash: a password is described by its
form, its scheme and its cost.  Every source (a kickstart, an installed host,
later an image blueprint) is read into the same shape::

    source        "kickstart" or "host"
    target        the installer release the reading assumed (pykickstart's name), or None
    accounts      [{name, command, form, scheme, cost, where}]: rootpw and user lines, and what %pre and %post
                  scripts set (chpasswd, passwd --stdin, usermod/useradd -p)
                  form: plaintext | crypt | locked | template | unparsed
                  (unparsed: given as a hash that no scheme reads)
    devices       [{command, name, encrypted, passphrase, luks_version, kdf, members, where}]
                  encrypted: True | False | None (not known: a template or an unreadable line);
                  passphrase: plaintext | template | None (none given: the installer asks);
                  kdf: {type, iterations, time, memory, threads} with what the line states;
                  members: the physical volumes or RAID members a device is made of
    autopart      None, or {encrypted, passphrase, luks_version, kdf, where}
    bootloader    None (no bootloader line), or {form, scheme, cost, where}; a grub2-setpassword a script
                  feeds counts where the bootloader line has no password
                  form: plaintext | grub_pbkdf2 | template | unparsed | none (a line without a password)
    pwquality     {settings: {key: value}, origins: {key: where}, conflicts: [{key, values: [{value, where}]}]}:
                  libpwquality's settings in effect, as libpwquality reads its files (pwquality.conf.d/*.conf
                  in name order, then pwquality.conf: a later file wins), each with the file and line that
                  sets it, and each key that two files set to different values
    login_defs    {KEY: {value, where}}: what the kickstart writes into /etc/login.defs
    policies      {name: {minlen, minquality, strict, emptyok, changesok, where}}: the installer's
                  password policies (the %anaconda section), as the target reads them
    installer     {hashes_typed_as, uis}: how the target's installer hashes a password a person types, and its
                  interfaces ({ui, non_strict_blocks, empty_user_password}: what a policy that is not strict
                  still refuses there, and whether an "empty" policy lets an empty user password through)
    at_rest       [{command, form, where}]: every line that keeps a secret at rest in the text (a password,
                  a hash, a passphrase, a credential; not a locked account), for where the text may go
    fips          True when the kickstart turns FIPS mode on (fips=1 on the kernel command line)
    unknown       [{what, scope, where}]: what could not be read and so may change the posture; scope:
                  commands (an %include, %ksappend or unreadable command line: any command may be there),
                  script (a script's write the reader does not follow), section (the %anaconda section)

An installed host (``_posture/host.py``) fills the same keys from the
machine: ``accounts`` are ``/etc/shadow``'s (command ``shadow``; form crypt,
locked, empty or unparsed, and ``usable``: whether a password opens it),
``devices`` the LUKS headers (command ``luks``, with ``cipher``,
``key_size``, ``keyslots`` [{slot, kdf}] and ``tokens`` [{type,
keyslots}]), ``bootloader`` GRUB 2's password (form grub_pbkdf2, plaintext,
unparsed or none, with ``superusers``), and adds::

    os            {id, id_like, version_id, target, where}: what os-release names, or None
    pam           {stacks: {name: {pwquality, unix, where, link}}, authselect}: the password lines of
                  system-auth, password-auth and common-password (pam_pwquality's options, pam_unix's hash
                  and rounds), and authselect's profile and features
    fips_where    where the FIPS state was read
    leftovers     [{path, exists, secrets, plaintext, kinds}]: the kickstarts and logs the installer left,
                  with how many secrets each keeps (never one of them)

``where`` is ``{line}`` (1-based, in the text read) and, for what a script
writes, ``{line, file}`` with the file it writes; on a host, ``{file, line}``
with the host's path.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

ACCOUNT_FORMS = ("plaintext", "crypt", "locked", "template", "unparsed")
BOOTLOADER_FORMS = ("plaintext", "grub_pbkdf2", "template", "unparsed", "none")
PASSPHRASE_FORMS = ("plaintext", "template")


def new_posture(source, target=None):
    """An empty posture of ``source``: nothing known yet."""
    return {
        "source": source,
        "target": target,
        "accounts": [],
        "devices": [],
        "autopart": None,
        "bootloader": None,
        "pwquality": {"settings": {}, "origins": {}},
        "login_defs": {},
        "policies": {},
        "installer": {"hashes_typed_as": None, "uis": []},
        "at_rest": [],
        "fips": False,
        "unknown": [],
    }


def where(line, path=None):
    """The ``where`` of a line (and of the file a script writes there)."""
    found = {"line": line}
    if path is not None:
        found["file"] = path
    return found
