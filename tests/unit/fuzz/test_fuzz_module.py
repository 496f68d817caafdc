# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzz the ks_pwpolicy module in path mode: never a traceback, never a partial write.

Bytes enter the collection where the module reads the kickstart file, so the
inputs here are files: mutated kickstarts (see test_fuzz_kickstart.py) encoded
with ``surrogateescape`` (so lone surrogates become invalid UTF-8), with more
invalid UTF-8 sequences and NUL bytes spliced in at the byte level.  Some runs
make the final move fail on purpose.

Each run must end in ``failed=true`` with a message (the file byte-identical,
nothing else left in its directory, no secret in the result), or succeed with
the file holding the reported policies (and unchanged in check mode).

Size: a share of ``KSPW_FUZZ_EXAMPLES`` (default 10000); see docs/fuzzing.md.
"""

import json
import os
from unittest import mock

import pytest


from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.modules import ks_pwpolicy as module

from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz import _ksfuzz as fz
from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import run_module
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

INVALID_UTF8 = (b"\xff", b"\xfe", b"\xc3", b"\xc3(", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                b"\xc0\xaf", b"\x80", b"\x00", b"\x00\x00")
CORPUS = fz.corpus_texts()


def run(capsys, args, fail_move=False):
    patches = ()
    if fail_move:
        patches = (mock.patch.object(os, "rename", side_effect=OSError(28, "No space left on device")),)
    return run_module(module.main, capsys, args, patches=patches)


def file_bytes(rng):
    seeds = [text for _name, text in CORPUS] or list(fz.SYNTHETIC_SEEDS)
    text, used = fz.mutate(rng.choice(seeds + list(fz.SYNTHETIC_SEEDS)), rng)
    data = text.encode("utf-8", "surrogateescape") if all(
        not ("\ud800" <= c <= "\udfff") or "\udc80" <= c <= "\udcff" for c in text) \
        else text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.3:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + rng.choice(INVALID_UTF8) + data[at:]
        used.append("invalid-utf8-bytes")
    return data, used


@pytest.mark.parametrize("shard", range(2))
def test_module_path_mode(shard, tmp_path, capsys):
    count = fz.budget("module", 2)
    failures = []
    for index in range(shard, count, 2):
        rng = fz.rng_for("module", index)
        data, used = file_bytes(rng)
        directory = tmp_path / ("run%d" % index)
        directory.mkdir()
        path = directory / "ks.cfg"
        path.write_bytes(data)
        os.chmod(str(path), 0o640)
        args = dict(path=str(path), state="present" if rng.random() < 0.8 else "absent",
                    target=rng.choice(fz.TARGETS), validate=rng.random() < 0.5,
                    exclusive=rng.random() < 0.2, _ansible_check_mode=rng.random() < 0.2,
                    _ansible_diff=rng.random() < 0.5)
        if rng.random() < 0.9:
            policies = fz.random_policies(rng, valid=rng.random() < 0.9)
            try:  # module arguments arrive as JSON
                args["policies"] = json.loads(json.dumps(policies))
            except TypeError:
                args["policies"] = str(policies)
        if args["target"] is None:
            del args["target"]
        fail_move = rng.random() < 0.15
        context = fz.describe("module", index, " (%s%s)" % ("+".join(used), ", move fails" if fail_move else ""))
        result = run(capsys, args, fail_move)
        left = sorted(os.listdir(str(directory)))
        try:
            assert_no_leak(fz.MARKER, result)
            assert left == ["ks.cfg"], "%s: files left in the directory: %s" % (context, left)
            after = path.read_bytes()
            if result.get("failed"):
                assert result.get("msg", "").strip(), "%s: failed without a message" % context
                assert "Traceback" not in result["msg"], context
                assert "exception" not in result, "%s: %s" % (context, result.get("exception"))
                assert after == data, "%s: a failed run changed the file" % context
                try:
                    data.decode("utf-8")
                except UnicodeDecodeError:
                    assert "is not UTF-8" in result["msg"], "%s: %s" % (context, result["msg"])
                continue
            assert not fail_move or not result["changed"] or args["_ansible_check_mode"], \
                "%s: the move failed but the run succeeded" % context
            if args["_ansible_check_mode"] or not result["changed"]:
                assert after == data, "%s: the file changed (check mode or changed=false)" % context
            else:
                parsed = parse_kickstart(after.decode("utf-8"), result["target"], validate=False)
                got = [p.to_dict() for p in parsed.policies.values()]
                assert got == result["policies"], "%s: the file does not hold the reported policies" % context
        except AssertionError as exc:
            failures.append(str(exc))
    assert not failures, "%d failures:\n%s" % (len(failures), "\n".join(failures[:5]))
