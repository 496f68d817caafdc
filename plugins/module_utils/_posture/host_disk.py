# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The disk side of an installed host's posture: its LUKS devices, its boot-loader password, the kickstarts left.

:func:`read_disk` reads, under ``root`` (``/``, or a mounted image or a test
tree), read-only:

* ``devices``: each LUKS device as ``cryptsetup luksDump`` describes its
  header (:func:`read_luks`): ``{command: "luks", name, encrypted: True,
  luks_version, cipher, key_size, keyslots: [{slot, kdf}], tokens: [{type,
  keyslots}], where: {file: device}}``.  ``kdf`` is ``{type, hash,
  iterations, time, memory, threads}`` in the kickstart reader's sense:
  ``iterations`` is PBKDF2's iteration count or Argon2's time cost (what
  ``cryptsetup --pbkdf-force-iterations`` and kickstart's
  ``--pbkdf-iterations`` set), ``memory`` Argon2's memory in KiB, ``threads``
  its parallel lanes, ``hash`` PBKDF2's hash; ``time`` (kickstart's
  ``--pbkdf-time``, milliseconds of unlocking the benchmark aimed at) is not
  kept in a header and is None.  ``key_size`` is the volume key's size in
  bits, ``cipher`` the data's (``aes-xts-plain64``).  Only the active key
  slots are listed; a token lists the key slots it opens (a Clevis binding is
  a token of type ``clevis``, a systemd TPM2 enrollment one of type
  ``systemd-tpm2``), never its data.
* ``bootloader``: GRUB 2's password, ``{form, scheme, cost, superusers,
  where}`` (:func:`read_bootloader`), or None where no GRUB 2 configuration
  is found.
* ``leftovers``: the kickstarts the installer leaves (``/root/original-ks.cfg``,
  ``/root/anaconda-ks.cfg``) and its logs, each with the number and the
  kinds of the secrets it keeps (:func:`read_leftovers`).

The parsers (:func:`luks2_from_json`, :func:`luks1_from_dump`,
:func:`luks2_from_dump`) take a command's output text and never raise on odd
input: what they cannot read is an entry of ``unknown`` (``{what, scope:
"host", where: {file}}``).  Commands run through the ``run(argv) -> (rc,
stdout, stderr)`` the caller gives (a module: ``AnsibleModule.run_command``
with the command's path found by ``get_bin_path``); a command that is not
installed is an ``rc`` of 127 or an ``OSError`` from ``run``.  Paths in
``where`` are the host's (``/boot/grub2/user.cfg``), without ``root``; a
symbolic link under ``root`` is followed inside ``root``.  Nothing returned
holds a secret, a hash, a salt or a token's data.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import errno
import json
import os
import re
import shlex

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _ks_secrets
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._hash_schemes import identify
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host_files import HostFiles, unknown_entry

# A LUKS2 header's JSON area is 4 MiB at most (the LUKS2 on-disk format); a luksDump text far smaller.
MAX_DUMP_CHARS = 8 * 1024 * 1024
# More key slots or tokens than LUKS2 allows (32) are not read.
MAX_SLOTS = 32
# The configuration files read at most, and their size.
MAX_CONFIG_BYTES = 4 * 1024 * 1024
MAX_GRUB_D_FILES = 64
MAX_EFI_DIRS = 32
MAX_LOG_FILES = 64
MAX_LEFTOVER_BYTES = 16 * 1024 * 1024
MAX_DEVICES = 256

USER_CFG = "/boot/grub2/user.cfg"
GRUB_CFGS = ("/boot/grub2/grub.cfg", "/boot/efi/EFI/*/grub.cfg", "/boot/grub/grub.cfg")
GRUB_D = "/etc/grub.d"
KICKSTARTS = ("/root/original-ks.cfg", "/root/anaconda-ks.cfg")
ANACONDA_LOGS = "/var/log/anaconda"

# What kind of secret each kickstart command keeps (a LUKS passphrase and a URL's credentials by their form).
_KINDS = {"rootpw": "rootpw", "user": "user", "sshpw": "sshpw", "bootloader": "bootloader", "iscsi": "iscsi",
          "vnc": "vnc", "rdp": "rdp", "network": "wifi key", "realm": "realm", "rhsm": "rhsm activation key",
          "chpasswd": "user", "passwd": "user", "usermod": "user", "useradd": "user"}
# The forms of a secret kept at rest (a locked account keeps none).
_AT_REST = ("plaintext", "crypt", "grub_pbkdf2", "passphrase", "template")
_KEY_SLOT_RE = re.compile(r"Key Slot ([0-9]{1,2}): *(ENABLED|DISABLED)\s*$")
_ITEM_RE = re.compile(r"  ([0-9]{1,3}): *(\S+)\s*$")
_BITS_RE = re.compile(r"([0-9]{1,6}) *bits")
_VARIABLE_RE = re.compile(r"^\$\{?[A-Za-z_]")
# The lines of a GRUB configuration that set a password or the superusers.
_GRUB_HEADS = ("password ", "password\t", "password_pbkdf2", "set superusers", "GRUB2_PASSWORD=",
               "export GRUB2_PASSWORD=")


def _int(value):
    """``value`` as an int (a JSON number or a string of digits), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 20:
        return int(value.strip())
    return None


def _text(value):
    return value if isinstance(value, str) and value and len(value) <= 256 else None


def _kdf(kdf_type=None, hash_name=None, iterations=None, memory=None, threads=None):
    return {"type": kdf_type, "hash": hash_name, "iterations": iterations, "time": None, "memory": memory,
            "threads": threads}


def _device(name, version, cipher, key_size, keyslots, tokens):
    return {"command": "luks", "name": name, "encrypted": True, "luks_version": version, "cipher": cipher,
            "key_size": key_size, "keyslots": keyslots, "tokens": tokens, "where": {"file": name}}


def _slot_numbers(values):
    """The key-slot numbers of a token's ``keyslots`` (strings in LUKS2's JSON), those that read as numbers."""
    if not isinstance(values, list):
        return []
    numbers = [_int(value) for value in values[:MAX_SLOTS]]
    return sorted(number for number in numbers if number is not None)


# ---------------------------------------------------------------------------
# LUKS headers
# ---------------------------------------------------------------------------

def _json_kdf(kdf):
    kdf_type = _text(kdf.get("type"))
    if kdf_type == "pbkdf2":
        return _kdf("pbkdf2", _text(kdf.get("hash")), _int(kdf.get("iterations")))
    if kdf_type in ("argon2i", "argon2id"):
        return _kdf(kdf_type, None, _int(kdf.get("time")), _int(kdf.get("memory")), _int(kdf.get("cpus")))
    return _kdf(kdf_type)


def _sorted_items(mapping):
    """``(number, value)`` of a LUKS2 object keyed by numbers, in number order (other keys left out)."""
    items = []
    for key, value in mapping.items():
        number = _int(key)
        if number is not None:
            items.append((number, value))
    items.sort(key=lambda item: item[0])
    return items[:MAX_SLOTS]


def _segment_cipher(segments):
    """The cipher of the first ``crypt`` segment, or None."""
    if not isinstance(segments, dict):
        return None
    for dummy, segment in _sorted_items(segments):
        if isinstance(segment, dict) and segment.get("type") == "crypt":
            return _text(segment.get("encryption"))
    return None


def luks2_from_json(text, device):
    """``(device entry or None, unknown entries)`` of ``cryptsetup luksDump --dump-json-metadata DEVICE``'s output.

    The key slots of type ``luks2`` (a reencryption's own slot opens nothing)
    with their KDF; the cipher of the first ``crypt`` segment; the volume
    key's size from the first key slot; every token's type and key slots.
    """
    if not isinstance(text, str) or len(text) > MAX_DUMP_CHARS:
        return None, [unknown_entry("the LUKS2 metadata of %s is not text of at most %d characters"
                                    % (device, MAX_DUMP_CHARS), device)]
    try:
        metadata = json.loads(text)
    except RecursionError:
        return None, [unknown_entry("the LUKS2 metadata of %s is nested too deeply" % device, device)]
    except ValueError as exc:
        return None, [unknown_entry("the LUKS2 metadata of %s is not JSON (line %d)"
                                    % (device, getattr(exc, "lineno", 0)), device)]
    if not isinstance(metadata, dict) or not isinstance(metadata.get("keyslots"), dict):
        return None, [unknown_entry("the LUKS2 metadata of %s has no key slots object" % device, device)]
    unknown, keyslots, key_size = [], [], None
    for number, slot in _sorted_items(metadata["keyslots"]):
        if not isinstance(slot, dict) or not isinstance(slot.get("kdf"), dict):
            unknown.append(unknown_entry("key slot %d of %s could not be read" % (number, device), device))
            continue
        if slot.get("type") != "luks2":
            continue
        if key_size is None and _int(slot.get("key_size")) is not None:
            key_size = _int(slot.get("key_size")) * 8
        keyslots.append({"slot": number, "kdf": _json_kdf(slot["kdf"])})
    tokens = []
    raw_tokens = metadata.get("tokens")
    for number, token in _sorted_items(raw_tokens) if isinstance(raw_tokens, dict) else ():
        if not isinstance(token, dict):
            unknown.append(unknown_entry("token %d of %s could not be read" % (number, device), device))
            continue
        tokens.append({"type": _text(token.get("type")), "keyslots": _slot_numbers(token.get("keyslots"))})
    return _device(device, 2, _segment_cipher(metadata.get("segments")), key_size, keyslots, tokens), unknown


def _field(line):
    """``(key, value)`` of a ``Key:   value`` line of a luksDump text, or None."""
    key, colon, value = line.partition(":")
    if not colon:
        return None
    return key.strip(), value.strip()


def _dump_version(lines):
    for line in lines:
        field = _field(line)
        if field and field[0] == "Version" and not line[:1].isspace():
            return _int(field[1])
    return None


def _dump_lines(text, device, version):
    """The lines of a luksDump text of LUKS ``version``, or ``(None, unknown entry)``."""
    if not isinstance(text, str) or len(text) > MAX_DUMP_CHARS:
        return None, unknown_entry("the LUKS header dump of %s is not text of at most %d characters"
                                   % (device, MAX_DUMP_CHARS), device)
    lines = text.splitlines()
    found = _dump_version(lines)
    if found != version:
        return None, unknown_entry("the LUKS header dump of %s is not one of a LUKS%d header (version %s)"
                                   % (device, version, found if found is not None else "not given"), device)
    return lines, None


def luks1_from_dump(text, device):
    """``(device entry or None, unknown entries)`` of ``cryptsetup luksDump DEVICE``'s text for a LUKS1 header.

    The cipher is ``Cipher name``-``Cipher mode``, the key size ``MK bits``;
    each ``Key Slot N: ENABLED`` is a PBKDF2 key slot with the ``Hash spec``
    and its own ``Iterations``.
    """
    lines, problem = _dump_lines(text, device, 1)
    if lines is None:
        return None, [problem]
    header, keyslots, current = {}, [], None
    for line in lines:
        slot = _KEY_SLOT_RE.match(line)
        if slot:
            current = None
            if slot.group(2) == "ENABLED":
                current = {"slot": int(slot.group(1)), "kdf": _kdf("pbkdf2")}
                keyslots.append(current)
            continue
        field = _field(line)
        if field is None:
            continue
        if line[:1].isspace():
            if current is not None and field[0] == "Iterations":
                current["kdf"]["iterations"] = _int(field[1])
        else:
            current = None
            header.setdefault(field[0], field[1])
    hash_name = _text(header.get("Hash spec"))
    for slot in keyslots:
        slot["kdf"]["hash"] = hash_name
    name, mode = _text(header.get("Cipher name")), _text(header.get("Cipher mode"))
    cipher = "%s-%s" % (name, mode) if name and mode else name
    unknown = []
    if not name or not header.get("MK bits"):
        unknown.append(unknown_entry("the LUKS1 header dump of %s names no cipher or key size" % device, device))
    return _device(device, 1, cipher, _int(header.get("MK bits")), keyslots[:MAX_SLOTS], []), unknown


def luks2_from_dump(text, device):
    """``(device entry or None, unknown entries)`` of ``cryptsetup luksDump DEVICE``'s text for a LUKS2 header.

    For a ``cryptsetup`` older than 2.4, which has no ``--dump-json-metadata``:
    the ``Data segments``, ``Keyslots`` and ``Tokens`` sections, each item
    ``  N: type`` followed by its tab-indented fields.
    """
    lines, problem = _dump_lines(text, device, 2)
    if lines is None:
        return None, [problem]
    section, item, cipher, key_size = None, None, None, None
    keyslots, tokens = [], []
    for line in lines:
        if line and not line[:1].isspace():
            section, item = line.strip().rstrip(":"), None
            continue
        match = _ITEM_RE.match(line)
        if match:
            number, kind = int(match.group(1)), match.group(2)
            item = {"section": section, "number": number, "type": kind}
            if section == "Keyslots" and kind == "luks2" and len(keyslots) < MAX_SLOTS:
                item["slot"] = {"slot": number, "kdf": _kdf()}
                keyslots.append(item["slot"])
            elif section == "Tokens" and len(tokens) < MAX_SLOTS:
                item["token"] = {"type": _text(kind), "keyslots": []}
                tokens.append(item["token"])
            continue
        field = _field(line)
        if item is None or field is None:
            continue
        key, value = field
        if section == "Data segments" and key == "cipher" and item["type"] == "crypt" and cipher is None:
            cipher = _text(value)
        elif "slot" in item:
            _dump_slot_field(item["slot"], key, value)
            bits = _BITS_RE.match(value)
            if key == "Key" and bits and key_size is None:
                key_size = int(bits.group(1))
        elif "token" in item and key == "Keyslot" and _int(value) is not None:
            item["token"]["keyslots"].append(_int(value))
    for token in tokens:
        token["keyslots"].sort()
    return _device(device, 2, cipher, key_size, keyslots, tokens), []


_DUMP_KDF_FIELDS = {"Hash": "hash", "Iterations": "iterations", "Time cost": "iterations", "Memory": "memory",
                    "Threads": "threads"}


def _dump_slot_field(slot, key, value):
    kdf = slot["kdf"]
    if key == "PBKDF":
        kdf["type"] = _text(value)
    elif key in _DUMP_KDF_FIELDS:
        name = _DUMP_KDF_FIELDS[key]
        kdf[name] = _text(value) if name == "hash" else _int(value)


class _Missing(Exception):
    """A command that is not installed."""


def _run(run, argv):
    """``(rc, stdout)`` of ``run(argv)``; raises _Missing when the command is not installed."""
    try:
        rc, out, dummy = run(argv)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.EACCES, errno.ENOEXEC):
            raise _Missing(argv[0])
        return 1, ""
    if rc == 127:
        raise _Missing(argv[0])
    return rc, out if isinstance(out, str) else ""


def _lsblk_devices(nodes, found):
    for node in nodes if isinstance(nodes, list) else ():
        if not isinstance(node, dict):
            continue
        if node.get("fstype") == "crypto_LUKS":
            path = _text(node.get("path")) or (_text(node.get("name")) and "/dev/" + node["name"])
            if path:
                found.append(path)
        _lsblk_devices(node.get("children"), found)


def list_luks(run):
    """``(device paths, unknown entries)``: the LUKS devices ``blkid`` finds, else those of ``lsblk``."""
    try:
        rc, out = _run(run, ["blkid", "-t", "TYPE=crypto_LUKS", "-o", "device"])
        if rc in (0, 2):  # 2: no device matches
            return sorted(set(line.strip() for line in out.splitlines() if line.strip()))[:MAX_DEVICES], []
    except _Missing:
        pass
    try:
        rc, out = _run(run, ["lsblk", "-J", "-o", "NAME,PATH,FSTYPE"])
    except _Missing:
        rc = None
    if rc == 0:
        try:
            found = []
            _lsblk_devices(json.loads(out).get("blockdevices"), found)
            return sorted(set(found))[:MAX_DEVICES], []
        except (ValueError, AttributeError, RecursionError):
            pass
    return [], [unknown_entry("the block devices could not be listed (neither blkid nor lsblk answered): the LUKS "
                              "devices are not known", "/dev")]


def _read_device(run, device):
    """``(device entry or None, unknown entries)`` of one LUKS device, through ``cryptsetup``."""
    rc, dummy = _run(run, ["cryptsetup", "isLuks", "--type", "luks2", device])
    if rc == 0:
        rc, out = _run(run, ["cryptsetup", "luksDump", "--dump-json-metadata", device])
        if rc == 0:
            return luks2_from_json(out, device)
    rc, out = _run(run, ["cryptsetup", "luksDump", device])
    if rc != 0:
        return None, [unknown_entry("cryptsetup cannot read a LUKS header on %s (exit %d)" % (device, rc), device)]
    lines = out.splitlines() if isinstance(out, str) and len(out) <= MAX_DUMP_CHARS else []
    if _dump_version(lines) == 2:
        return luks2_from_dump(out, device)
    return luks1_from_dump(out, device)


def read_luks(run, devices=None):
    """``(device entries, unknown entries)``: every LUKS device of ``devices`` (else those :func:`list_luks`
    finds) as ``cryptsetup`` reads its header, LUKS2 from its JSON metadata, LUKS1 from its text dump."""
    unknown = []
    if devices is None:
        devices, unknown = list_luks(run)
    found = []
    for index, device in enumerate(devices):
        try:
            entry, problems = _read_device(run, device)
        except _Missing:
            unknown.extend(unknown_entry("cryptsetup is not installed: the LUKS header of %s is not read" % name,
                                         name) for name in devices[index:])
            break
        unknown.extend(problems)
        if entry is not None:
            found.append(entry)
    return found, unknown


# ---------------------------------------------------------------------------
# The boot loader
# ---------------------------------------------------------------------------

def _uncommented(line):
    """``line`` up to its comment: a ``#`` that begins a word outside quotes, as sh and GRUB's script read it
    (``shlex``'s own comments also cut at a ``#`` inside a word: ``pass#word``)."""
    quote, escaped, start = None, False, True
    for index, char in enumerate(line):
        boundary, start = start, False
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote is not None:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char.isspace():
            start = True
        elif char == "#" and boundary:
            return line[:index]
    return line


def _words(line):
    try:
        return shlex.split(_uncommented(line))
    except ValueError:
        return None


def grub_lines(text, path):
    """The lines of a GRUB configuration (or of a ``/etc/grub.d`` script that prints one) that set a password or
    the superusers, each as ``(kind, where, user, value)``:

    * ``("superusers", where, [names], None)``: ``set superusers=``;
    * ``("password", where, user, password)``: ``password USER PASSWORD``, a password in the clear;
    * ``("password_pbkdf2", where, user, hash)``: ``password_pbkdf2 USER HASH``, and ``GRUB2_PASSWORD=HASH``
      (``user.cfg``, which ``grub2-setpassword`` writes for the superuser ``root``) with ``user`` None;
    * ``("unparsed", where, None, None)``: such a line whose words cannot be read.

    ``where`` is ``{file: path, line}``.  A password given as a variable (``${GRUB2_PASSWORD}``: what
    ``user.cfg`` sets, read there) is left out.  ``value`` is the file's own: the caller keeps it to itself.
    """
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped.startswith(_GRUB_HEADS):
            continue
        where = {"file": path, "line": number}
        words = _words(stripped)
        if words and words[0] == "export":
            words = words[1:]
        if not words:
            if stripped.startswith(("password ", "password_pbkdf2 ", "GRUB2_PASSWORD=")):
                yield "unparsed", where, None, None
            continue
        if words[0].startswith("GRUB2_PASSWORD="):
            value = words[0].partition("=")[2]
            if not _VARIABLE_RE.match(value):
                yield "password_pbkdf2", where, None, value
        elif len(words) >= 2 and words[0] == "set" and words[1].startswith("superusers="):
            names = [name[:64] for name in re.split(r"[\s,;|]+", words[1].partition("=")[2])
                     if name and not name.startswith("$")]
            yield "superusers", where, names, None
        elif len(words) >= 3 and words[0] in ("password", "password_pbkdf2"):
            if not _VARIABLE_RE.match(words[2]):
                yield words[0], where, words[1], words[2]
        elif words[0] in ("password", "password_pbkdf2"):
            yield "unparsed", where, None, None


def _grub_passwords(text, path, found, superusers):
    """Collect the passwords (described, never their values) and the superusers of a GRUB configuration into
    ``found`` and ``superusers``."""
    for kind, where, user, value in grub_lines(text, path):
        if kind == "superusers":
            for name in user:
                if name not in superusers:
                    superusers.append(name)
        elif kind == "unparsed":
            found.append(_entry("unparsed", None, where))
        else:
            _password(found, value, kind == "password_pbkdf2", where)


def _entry(form, hash_form, where):
    return {"form": form, "scheme": hash_form.scheme if hash_form else None,
            "cost": hash_form.cost if hash_form else None, "where": where}


def _password(found, value, hashed, where):
    if not hashed:
        found.append(_entry("plaintext", None, where))
        return
    hash_form = identify(value)
    if hash_form is not None and hash_form.is_grub:
        found.append(_entry("grub_pbkdf2", hash_form, where))
    else:
        found.append(_entry("unparsed", None, where))


_WEAKNESS = {"plaintext": 0, "unparsed": 1, "grub_pbkdf2": 2}


def read_bootloader(root="/"):
    """``(bootloader or None, unknown entries)``: GRUB 2's password as the host keeps it.

    Read from ``/boot/grub2/user.cfg`` (``GRUB2_PASSWORD=``, which
    ``grub2-setpassword`` writes for the superuser ``root``), the
    ``grub.cfg`` files (``/boot/grub2/grub.cfg``, ``/boot/efi/EFI/*/grub.cfg``,
    ``/boot/grub/grub.cfg``) and the ``/etc/grub.d`` scripts that make them:
    ``set superusers=``, ``password_pbkdf2 USER HASH`` and ``password USER
    PASSWORD``.  Of several passwords the weakest is the one shown (a
    password in the clear, then one no scheme reads, then the PBKDF2 hash of
    the fewest iterations), with its file and line; form ``none`` where the
    files are there but hold no password, None where there are none.
    """
    host = HostFiles(root)
    found, superusers, files = [], [], 0
    paths = [USER_CFG]
    for pattern in GRUB_CFGS:
        if "*" not in pattern:
            paths.append(pattern)
            continue
        parent, rest = pattern.split("/*/", 1)
        for name in host.list_dir(parent, MAX_EFI_DIRS):
            paths.append("%s/%s/%s" % (parent, name, rest))
    paths.extend("%s/%s" % (GRUB_D, name) for name in host.list_dir(GRUB_D, MAX_GRUB_D_FILES))
    for path in paths:
        if not host.is_file(path):
            continue
        text = host.read_text(path, MAX_CONFIG_BYTES)
        if text is None:
            continue
        files += 1
        _grub_passwords(text, path, found, superusers)
    if not files:
        return None, host.unknowns
    if any(entry["where"]["file"] == USER_CFG for entry in found) and "root" not in superusers:
        superusers.insert(0, "root")
    if not found:
        return {"form": "none", "scheme": None, "cost": None, "superusers": superusers, "where": None}, host.unknowns
    weakest = min(found, key=lambda entry: (_WEAKNESS[entry["form"]], entry["cost"] or 0))
    return {"form": weakest["form"], "scheme": weakest["scheme"], "cost": weakest["cost"],
            "superusers": superusers, "where": weakest["where"]}, host.unknowns


# ---------------------------------------------------------------------------
# Leftover kickstarts and logs
# ---------------------------------------------------------------------------

def _kind(secret):
    if secret.in_url:
        return "url credential"
    if secret.form == "passphrase":
        return "luks passphrase"
    return _KINDS.get(secret.command, secret.command)


def _log_lines(text):
    """The lines of a log that read as a kickstart command that keeps a secret; every other line blank (so
    that a log of any length stays within a kickstart's bounds and keeps its line numbers)."""
    kept = []
    for line in text.splitlines():
        head = line.lstrip()[:32].split(None, 1)
        if head and head[0] in _ks_secrets.OPTIONS and "\0" not in line:
            kept.append(line)
        else:
            kept.append("")
    return "\n".join(kept) + "\n"


def _secrets_of(text, path, unknown):
    """``(number of secrets, plaintext ones, kinds)`` that the kickstart reader finds in ``text``."""
    try:
        secrets = _ks_secrets.read_lines(text, False, None)[0]
    except PwpolicyError as exc:
        unknown.append(unknown_entry("%s could not be read as a kickstart: %s" % (path, exc), path))
        return None
    kept = [secret for secret in secrets if secret.form in _AT_REST]
    kinds = []
    for secret in kept:
        kind = _kind(secret)
        if kind not in kinds:
            kinds.append(kind)
    return len(kept), sum(1 for secret in kept if secret.form in ("plaintext", "passphrase")), kinds


def read_leftovers(root="/"):
    """``(leftovers, unknown entries)``: ``/root/original-ks.cfg`` and ``/root/anaconda-ks.cfg`` (each listed,
    ``exists`` False when missing), then the files of ``/var/log/anaconda`` (at most :data:`MAX_LOG_FILES`,
    each :data:`MAX_LEFTOVER_BYTES` at most), each ``{path, exists, secrets, plaintext, kinds}``: how many
    secrets it keeps (a password or passphrase in the clear, a hash, a credential), how many of them in the
    clear, and their kinds (rootpw, user, luks passphrase, bootloader, url credential...), as
    ``ks_secrets_info`` reads them; a log's lines are read as kickstart command lines."""
    host, leftovers = HostFiles(root), []
    paths = [(path, False) for path in KICKSTARTS]
    paths.extend(("%s/%s" % (ANACONDA_LOGS, name), True) for name in host.list_dir(ANACONDA_LOGS, MAX_LOG_FILES))
    for path, is_log in paths:
        entry = {"path": path, "exists": False, "secrets": 0, "plaintext": 0, "kinds": []}
        if is_log and not host.is_file(path):
            continue  # a directory or a link out of the tree's files in the log directory
        text = host.read_text(path, MAX_LEFTOVER_BYTES)
        if text is None:
            if host.exists(path):
                entry["exists"] = True
                entry["secrets"] = None
                leftovers.append(entry)
            elif not is_log:
                leftovers.append(entry)
            continue
        entry["exists"] = True
        counted = _secrets_of(_log_lines(text) if is_log else text, path, host.unknowns)
        if counted is None:
            entry["secrets"] = entry["plaintext"] = None
        else:
            entry["secrets"], entry["plaintext"], entry["kinds"] = counted
        leftovers.append(entry)
    return leftovers, host.unknowns


# ---------------------------------------------------------------------------
# All of it
# ---------------------------------------------------------------------------

def read_disk(root="/", run=None, devices=None):
    """``{devices, bootloader, leftovers, unknown}`` of the host under ``root``.

    The LUKS devices are read with ``run`` (none given: not read, an unknown
    entry says so).  Under a ``root`` other than ``/`` the devices are only
    those given in ``devices``: the block devices ``blkid`` lists are the
    running system's, not those of the tree at ``root``.
    """
    unknown = []
    found = []
    if run is None:
        unknown.append(unknown_entry("the LUKS devices are not read (no command runner given)", "/dev"))
    elif devices is None and os.path.abspath(root) != "/":
        unknown.append(unknown_entry("the LUKS devices of a tree at %s are not listed (the block devices are the "
                                     "running system's): give the devices to read" % root, "/dev"))
    else:
        found, problems = read_luks(run, devices)
        unknown.extend(problems)
    bootloader, problems = read_bootloader(root)
    unknown.extend(problems)
    leftovers, problems = read_leftovers(root)
    unknown.extend(problems)
    return {"devices": found, "bootloader": bootloader, "leftovers": leftovers, "unknown": unknown}
