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

Budget: the fuzz profile (docs/fuzzing.md).
"""

import json
import os
import tempfile
from unittest import mock

from hypothesis import HealthCheck, event, example, given
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.modules import ks_pwpolicy as module

from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz import strategies as fs
from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import run_module
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

INVALID_UTF8 = (b"\xff", b"\xfe", b"\xc3", b"\xc3(", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                b"\xc0\xaf", b"\x80", b"\x00", b"\x00\x00")


def run(capsys, args, check_mode, diff, fail_move):
    patches = ()
    if fail_move:
        patches = (mock.patch.object(os, "rename", side_effect=OSError(28, "No space left on device")),)
    return run_module(module.main, capsys, args, check_mode=check_mode, diff=diff, patches=patches)


@st.composite
def file_bytes(draw):
    """A mutated kickstart as file content, sometimes with invalid UTF-8 spliced in."""
    text = draw(fs.mutated_kickstarts((fs.CORPUS or fs.BUILTIN_KICKSTARTS) + fs.BUILTIN_KICKSTARTS), label="text")
    data = text.encode("utf-8", "surrogateescape") if all(
        not ("\ud800" <= c <= "\udfff") or "\udc80" <= c <= "\udcff" for c in text) \
        else text.encode("utf-8", "surrogatepass")
    if draw(fs.chance(30)):
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from(INVALID_UTF8)) + data[at:]
    return data


@st.composite
def module_args(draw):
    args = dict(state="absent" if draw(fs.chance(20)) else "present",
                target=draw(st.sampled_from(fs.TARGETS)), validate=draw(st.booleans()),
                exclusive=draw(fs.chance(20)))
    if draw(fs.chance(90)):
        policies = draw(fs.user_policies()) if draw(fs.chance(90)) else draw(fs.bad_policies())
        try:  # module arguments arrive as JSON
            args["policies"] = json.loads(json.dumps(policies))
        except TypeError:
            args["policies"] = str(policies)
    if args["target"] is None:
        del args["target"]
    return args


# capsys is read (and so emptied) by every run; each example gets its own directory.
@given(data=file_bytes(), args=module_args(), check_mode=fs.chance(20), diff=st.booleans(), fail_move=fs.chance(15))
@example(  # check mode once never reached the module (the runner's own flag won): a write here is a bug
    data=b"", args=dict(state="present", target="F33", validate=False, exclusive=False, policies={"root": {}}),
    check_mode=True, diff=False, fail_move=False)
@fs.fuzz_settings(1.5, suppress_health_check=fs.PROFILE.suppress_health_check + (HealthCheck.function_scoped_fixture,))
def test_module_path_mode(tmp_path, capsys, data, args, check_mode, diff, fail_move):
    directory = tempfile.mkdtemp(dir=str(tmp_path))
    path = os.path.join(directory, "ks.cfg")
    with open(path, "wb") as handle:
        handle.write(data)
    os.chmod(path, 0o640)
    args = dict(args, path=path)
    result = run(capsys, args, check_mode, diff, fail_move)
    event("failed" if result.get("failed") else "changed" if result.get("changed") else "unchanged")
    assert_no_leak(fs.MARKER, result)
    left = sorted(os.listdir(directory))
    assert left == ["ks.cfg"], "files left in the directory: %s" % left
    with open(path, "rb") as handle:
        after = handle.read()
    if result.get("failed"):
        assert result.get("msg", "").strip(), "failed without a message"
        assert "Traceback" not in result["msg"], result["msg"]
        assert "exception" not in result, result.get("exception")
        assert after == data, "a failed run changed the file"
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            assert "is not UTF-8" in result["msg"], result["msg"]
        return
    assert not fail_move or not result["changed"] or check_mode, "the move failed but the run succeeded"
    if check_mode or not result["changed"]:
        assert after == data, "the file changed (check mode or changed=false)"
    else:
        parsed = parse_kickstart(after.decode("utf-8"), result["target"], validate=False)
        got = [p.to_dict() for p in parsed.policies.values()]
        assert got == result["policies"], "the file does not hold the reported policies"
