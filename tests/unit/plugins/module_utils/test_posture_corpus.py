# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The posture reader against pykickstart, over anaconda's kickstart-tests corpus and the wild templates.

Every file is read without an error (or with the reader's own clean error naming a line), and where
pykickstart parses a file for its release, the posture says what pykickstart's handler holds of every
option it reads: the storage lines and their encryption, the boot-loader password, and root's password.
"""

import os
import warnings

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _ks_secrets
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.judge import judge
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.kickstart import read_kickstart
from ansible_collections.kickstart.pwpolicy.tests.unit import samples
from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import corpus_dir
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.module_utils.test_ks_edit_corpus import corpus_files

pykickstart = pytest.importorskip("pykickstart")
from pykickstart.parser import KickstartParser  # noqa: E402
from pykickstart.version import DEVEL, makeVersion, stringToVersion  # noqa: E402

CORPUS = corpus_dir("kickstart-tests") or ""
FILES = corpus_files()
needs_corpus = pytest.mark.skipif(not FILES, reason="kickstart-tests corpus not found at %s" % CORPUS)


def pykickstart_handler(text, release):
    """pykickstart's handler after parsing ``text`` for ``release``, or None where pykickstart refuses it."""
    try:
        version = stringToVersion(release) if release else DEVEL
    except Exception:  # pylint: disable=broad-except
        version = DEVEL
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        handler = makeVersion(version)
        parser = KickstartParser(handler, followIncludes=False, missingIncludeIsFatal=False)
        try:
            parser.readKickstartFromString(text)
        except Exception:  # pylint: disable=broad-except  # pykickstart refuses the file: nothing to compare
            return None
    return handler


def mount(data):
    return getattr(data, "mountpoint", None) or None


def compare(posture, handler):
    """What differs between the posture and pykickstart's handler, in words (empty: nothing)."""
    differ = []
    devices = posture["devices"]

    def of(command):
        return [(d["name"], bool(d["encrypted"])) for d in devices if d["command"] == command]
    expected = {
        "part": [(mount(p), bool(p.encrypted)) for p in getattr(handler.partition, "partitions", [])],
        "logvol": [(mount(lv), bool(lv.encrypted)) for lv in getattr(handler.logvol, "lvList", [])],
        "raid": [(mount(r), bool(r.encrypted)) for r in getattr(handler.raid, "raidList", [])],
    }
    for command, wanted in expected.items():
        if of(command) != wanted:
            differ.append("%s: posture %s, pykickstart %s" % (command, of(command), wanted))
    groups = [(vg.vgname, list(vg.physvols)) for vg in getattr(handler.volgroup, "vgList", [])]
    read = [(d["name"], d["members"]) for d in devices if d["command"] == "volgroup"]
    if read != groups:
        differ.append("volgroup: posture %s, pykickstart %s" % (read, groups))
    raids = [list(r.members) for r in getattr(handler.raid, "raidList", [])]
    if [d["members"] for d in devices if d["command"] == "raid"] != raids:
        differ.append("raid members differ")
    autopart = getattr(handler, "autopart", None)
    if autopart is not None and autopart.autopart:
        found = posture["autopart"]
        if found is None or found["encrypted"] != bool(autopart.encrypted) or \
                (found["luks_version"] or "") != (getattr(autopart, "luks_version", "") or ""):
            differ.append("autopart: posture %s, pykickstart encrypted=%s" % (found, autopart.encrypted))
    elif posture["autopart"] is not None:
        differ.append("autopart read where pykickstart has none")
    boot = getattr(handler, "bootloader", None)
    if boot is not None:
        has = bool(getattr(boot, "password", ""))
        found = posture["bootloader"]
        if has != bool(found and found["form"] not in ("none",)):
            differ.append("bootloader password: posture %s, pykickstart %s" % (found, has))
        elif has and (found["form"] == "plaintext") == bool(boot.isCrypted):
            differ.append("bootloader --iscrypted: posture %s, pykickstart %s" % (found["form"], boot.isCrypted))
    rootpw = getattr(handler, "rootpw", None)
    roots = [a for a in posture["accounts"] if a["command"] == "rootpw"]
    if rootpw is not None and rootpw.password:
        form = roots[-1]["form"] if roots else None
        if form is None or (form == "plaintext") == bool(rootpw.isCrypted):
            differ.append("rootpw: posture %s, pykickstart isCrypted=%s" % (form, rootpw.isCrypted))
    return differ


@needs_corpus
def test_every_corpus_kickstart_is_read_and_agrees_with_pykickstart():
    compared, differ = 0, {}
    for path in FILES:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8")
        try:
            posture = read_kickstart(text)
        except PwpolicyError as exc:  # the reader's own clean error, naming the line
            assert exc.lineno is not None and "Traceback" not in str(exc), path
            continue
        for profile in ("stig", "cis_server_l2", "anssi"):
            judge(posture, [profile], "RHEL9")  # never raises on what a file holds
        handler = pykickstart_handler(text, posture["target"])
        if handler is None:
            continue
        compared += 1
        found = compare(posture, handler)
        if found:
            differ[os.path.basename(path)] = found
    assert differ == {}
    assert compared >= 100  # most of the corpus parses with pykickstart: the comparison is not vacuous


@pytest.mark.parametrize("name", [name for name in dir(samples) if name.isupper()
                                  and isinstance(getattr(samples, name), str)])
def test_the_wild_templates_are_read_without_an_error(name):
    posture = read_kickstart(getattr(samples, name), "RHEL9", template=True)
    found = judge(posture, ["stig"], "RHEL9")
    assert set(found) == {"deviations", "waived", "not_checked"}


@needs_corpus
def test_no_corpus_kickstart_is_taken_for_an_unrendered_template():
    looked = {}
    for path in FILES:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8")
        try:
            read = _ks_secrets.read_lines(text, False, None)
        except PwpolicyError:
            continue
        look = _ks_secrets.template_look(read[3], read[4])
        if look:
            looked[os.path.basename(path)] = look
    assert looked == {}
    assert len(FILES) >= 100
