# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The action returns the role's ``kickstart_result`` whole, and gives the modules the pre-flight's policies.

The role's set_fact copies ``kickstart_result``; its integration targets
(role_kickstart_releases, role_own_template) check the same values end to end.
"""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.action import render_kickstart
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.action.test_render_kickstart import (
    HASHED,
    _RealModules,
    _run,
    recording_modules,
    resolved,
)

KEYS = {"path", "product", "target", "changed", "policies", "delivery", "warnings", "notices", "base_url", "inst_ks",
        "updates_image", "inst_updates", "boot_args", "profile"}
WEAK = "web01: root: accepted by a policy that is not strict, but weak"


def test_with_an_updates_image(monkeypatch, capsys, tmp_path):
    dest, image = tmp_path / "web01.ks", tmp_path / "web01.updates.img"
    action = _RealModules(capsys, "RHEL10", dest, image, HASHED, base_url="http://ks.example.com/ks")
    result = _run(monkeypatch, action)
    assert not result.get("failed"), result.get("msg")
    role = result["kickstart_result"]
    assert set(role) == KEYS
    http = role["notices"][0]["text"]
    assert http.startswith("kickstart_base_url is plain http:// while the kickstart holds password hashes")
    assert role == {
        "path": str(dest), "product": "server", "target": "RHEL10", "changed": True, "policies": resolved(),
        "delivery": ["updates_image"], "warnings": [http],
        "notices": [{"id": "http_base_url", "text": http, "acknowledged": False}],
        "base_url": "http://ks.example.com/ks/",
        "inst_ks": "inst.ks=http://ks.example.com/ks/web01.ks",
        "updates_image": str(image),
        "inst_updates": "inst.updates=http://ks.example.com/ks/web01.updates.img",
        "boot_args": result["boot_args"], "profile": None,
    }
    # A second run changes nothing.
    again = _run(monkeypatch, _RealModules(capsys, "RHEL10", dest, image, HASHED, base_url="http://ks.example.com/ks"))
    assert again["kickstart_result"]["changed"] is False


def test_with_the_section_the_image_keys_are_null_and_every_warning_is_text(monkeypatch, capsys, tmp_path):
    dest = tmp_path / "web01.ks"
    action = _RealModules(capsys, "RHEL9", dest, None, HASHED, warnings=[WEAK])
    role = _run(monkeypatch, action)["kickstart_result"]
    assert role["delivery"] == ["section"]
    assert role["updates_image"] is None and role["inst_updates"] is None
    # No base_url: the path as written, in inst_ks as in boot_args, and base_url null says so.
    assert role["inst_ks"] == "inst.ks=%s" % dest and role["boot_args"].startswith(role["inst_ks"] + " ")
    assert role["base_url"] is None
    # The pre-flight's warnings, then the module's (the validation pass and the write give it once).
    assert role["warnings"][0] == WEAK
    assert [text for text in role["warnings"] if "RHEL 9 deprecated the %anaconda section" in text] == role["warnings"][1:]
    assert len(role["warnings"]) == 2 and all(isinstance(text, str) for text in role["warnings"])
    # Built from the paths, the policies and the warnings: the rendered text (here a hash) is not in it.
    assert "x" * 86 not in str(role) and "rootpw" not in str(role)


def test_check_mode_with_a_directory_to_create_reports_the_change(monkeypatch, capsys, tmp_path):
    dest, image = tmp_path / "new" / "web01.ks", tmp_path / "new" / "web01.updates.img"

    class _Creating(_RealModules):
        def _execute_module(self, module_name=None, module_args=None, task_vars=None, **kwargs):
            if module_name == "ansible.builtin.file":
                return {"changed": True}  # in check mode: it would create the directory
            return super(_Creating, self)._execute_module(module_name, module_args, task_vars, **kwargs)

    action = _Creating(capsys, "F40", dest, image, HASHED)
    action._task.check_mode = True
    own = action._own

    def creating():
        values = own()
        values["create_dirs"] = True
        return values

    action._own = creating
    role = _run(monkeypatch, action)["kickstart_result"]
    assert role["changed"] is True and role["delivery"] == ["updates_image"]
    assert role["updates_image"] == str(image) and not (tmp_path / "new").exists()


def test_a_failed_run_returns_no_kickstart_result(monkeypatch, capsys, tmp_path):
    dest = tmp_path / "web01.ks"
    dest.mkdir()
    result = _run(monkeypatch, _RealModules(capsys, "RHEL9", dest, None, HASHED))
    assert result["failed"] and "kickstart_result" not in result


def test_warnings_recorded_for_the_task_while_a_module_ran_are_in_the_result(monkeypatch, capsys, tmp_path):
    """ansible-core 2.21 records a module's warnings for the task and leaves them out of the module's result."""
    display_utils = pytest.importorskip("ansible._internal._display_utils")
    messages = pytest.importorskip("ansible.module_utils._internal._messages")

    recording = recording_modules(display_utils, messages)

    dest = tmp_path / "web01.ks"
    with display_utils.DeferredWarningContext(variables={}):
        role = _run(monkeypatch, recording(capsys, "RHEL9", dest, None, HASHED))["kickstart_result"]
    assert len(role["warnings"]) == 1 and "RHEL 9 deprecated the %anaconda section" in role["warnings"][0]


def test_the_modules_get_the_pre_flights_policies_and_no_product(monkeypatch, capsys, tmp_path):
    # Policies the product's preset does not hold: only the pre-flight's resolution gives them.
    policies = resolved({"root": {"minlen": 18}, "luks": {"minquality": 60}})
    dest, image = tmp_path / "web01.ks", tmp_path / "web01.updates.img"
    calls = []

    class _Seen(_RealModules):
        def _execute_module(self, module_name=None, module_args=None, task_vars=None, **kwargs):
            calls.append((module_name, dict(module_args)))
            return super(_Seen, self)._execute_module(module_name, module_args, task_vars, **kwargs)

    flags = {"section": True, "updates_image": True}
    result = _run(monkeypatch, _Seen(capsys, "RHEL9", dest, image, HASHED, flags=flags, policies=policies))
    assert not result.get("failed"), result.get("msg")
    given = [args for name, args in calls if name != "ansible.builtin.stat"]
    assert len(given) == 3  # the write checked, the image, the write
    assert all(args["policies"] == policies and "product" not in args for args in given)
    text = dest.read_text()
    assert "pwpolicy root --minlen=18 " in text and "pwpolicy luks --minlen=20 --minquality=60 " in text
    assert result["kickstart_result"]["policies"] == policies


def test_inst_ks_takes_the_file_name_at_the_base_url():
    own = dict((name, None) for name in render_kickstart.OWN_ARGS)
    for base, expected in [(None, ""), ("", ""), ("http://h/ks", "http://h/ks/"), ("http://h/ks/", "http://h/ks/")]:
        own["base_url"] = base
        assert render_kickstart.ActionModule._base_url(own) == expected
