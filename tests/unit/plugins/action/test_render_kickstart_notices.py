# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the action tells about booting: the boot line in the result and the template, and the notices.

A notice (the %anaconda deprecation, a plain http:// base URL) is the same for
every host, so the action returns it in ``kickstart_result.notices`` and not as
a warning of the task; the role prints it once for all hosts (its integration
target readme_example checks that end to end).
"""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.action import render_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.action.test_render_kickstart import (
    HASHED,
    _RealModules,
    _run,
    recording_modules,
)

BASE = "http://ks.example.com/ks"
DEPRECATED = "RHEL 9 deprecated the %anaconda section"
WEAKEST_HTTP = ("web01: kickstart_base_url is plain http:// while the kickstart holds password hashes: they travel "
                "in clear to anyone on the path; serve it over HTTPS")


class _Acknowledging(_RealModules):
    """The real modules, with ``acknowledge`` given and the templates' boot lines kept."""

    def __init__(self, *args, **kwargs):
        self.acknowledge = kwargs.pop("acknowledge", [])
        super(_Acknowledging, self).__init__(*args, **kwargs)
        self.rendered = []

    def _own(self):
        own = super(_Acknowledging, self)._own()
        own["acknowledge"] = self.acknowledge
        return own

    def _render(self, own, plain, check, task_vars, hashes=None, scheme=None, boot_line=None):
        self.rendered.append(boot_line)
        return "# Boot the installer with: %s\n%s" % (boot_line, self.content)


@pytest.mark.parametrize("base_url, where", [(BASE, BASE + "/"), (None, "{dir}/")])
def test_inst_ks_and_boot_args_name_the_same_location(monkeypatch, capsys, tmp_path, base_url, where):
    dest, image = tmp_path / "web01.ks", tmp_path / "web01.updates.img"
    role = _run(monkeypatch, _RealModules(capsys, "RHEL10", dest, image, HASHED, base_url=base_url))["kickstart_result"]
    where = where.format(dir=tmp_path)
    assert role["inst_ks"] == "inst.ks=%sweb01.ks" % where
    assert role["inst_updates"] == "inst.updates=%sweb01.updates.img" % where
    assert role["boot_args"] == "%s %s inst.nosave=input_ks,output_ks" % (role["inst_ks"], role["inst_updates"])
    assert role["base_url"] == (BASE + "/" if base_url else None)


def test_the_template_gets_the_boot_line_it_writes_in_its_header(monkeypatch, capsys, tmp_path):
    dest = tmp_path / "web01.ks"
    action = _Acknowledging(capsys, "RHEL8", dest, None, HASHED, base_url=BASE)
    result = _run(monkeypatch, action)
    assert result["boot_args"] == "inst.ks=%s/web01.ks inst.nosave=input_ks,output_ks" % BASE
    # The pre-flight read no secret here, but the text holds a hash: rendered again with the line that keeps no copy.
    assert action.rendered == ["inst.ks=%s/web01.ks inst.nosave=output_ks" % BASE, result["boot_args"]]
    assert dest.read_text().startswith("# Boot the installer with: %s\n" % result["boot_args"])


def test_notices_are_in_the_result_and_not_warnings_of_the_task(monkeypatch, capsys, tmp_path):
    dest = tmp_path / "web01.ks"
    action = _Acknowledging(capsys, "RHEL9", dest, None, HASHED, base_url=BASE, warnings=[WEAKEST_HTTP])
    result = _run(monkeypatch, action)
    assert not result.get("failed"), result.get("msg")
    role = result["kickstart_result"]
    assert [notice["id"] for notice in role["notices"]] == ["anaconda_deprecated", "http_base_url"]
    assert not any(notice["acknowledged"] for notice in role["notices"])
    assert DEPRECATED in role["notices"][0]["text"] and "plain http://" in role["notices"][1]["text"]
    # Neither the module's deprecation nor the pre-flight's http:// warning is a warning of the task ...
    assert "warnings" not in result
    # ... but the result keeps each text once.
    assert sorted(role["warnings"]) == sorted(notice["text"] for notice in role["notices"])


def test_an_acknowledged_notice_is_kept_as_acknowledged_and_not_a_warning(monkeypatch, capsys, tmp_path):
    dest = tmp_path / "web01.ks"
    action = _Acknowledging(capsys, "RHEL9", dest, None, HASHED, base_url=BASE, acknowledge=["http_base_url"])
    role = _run(monkeypatch, action)["kickstart_result"]
    assert [(notice["id"], notice["acknowledged"]) for notice in role["notices"]] == [
        ("anaconda_deprecated", False), ("http_base_url", True)]
    assert len(role["warnings"]) == 1 and DEPRECATED in role["warnings"][0]


def test_no_notice_over_https_or_without_a_secret_or_a_section(monkeypatch, capsys, tmp_path):
    dest = tmp_path / "web01.ks"
    role = _run(monkeypatch, _RealModules(capsys, "RHEL8", dest, None, HASHED, base_url="https://ks.example.com/"))
    assert role["kickstart_result"]["notices"] == []
    locked = "lang en_US.UTF-8\nrootpw --lock\n"
    role = _run(monkeypatch, _RealModules(capsys, "RHEL8", dest, None, locked, base_url=BASE))
    assert role["kickstart_result"]["notices"] == []


def test_a_notice_recorded_for_the_task_is_taken_out_of_what_it_shows(monkeypatch, capsys, tmp_path):
    """ansible-core 2.19+ records a module's warnings for the task: the deprecation is taken out of them."""
    display_utils = pytest.importorskip("ansible._internal._display_utils")
    messages = pytest.importorskip("ansible.module_utils._internal._messages")

    recording = recording_modules(display_utils, messages, extra=["another warning"])

    with display_utils.DeferredWarningContext(variables={}) as context:
        role = _run(monkeypatch, recording(capsys, "RHEL9", tmp_path / "web01.ks", None, HASHED))["kickstart_result"]
        shown = [render_kickstart.warning_text(warning) for warning in context.get_warnings()]
    assert shown == ["another warning"]
    assert role["notices"][0]["id"] == "anaconda_deprecated"
    assert [text for text in role["warnings"] if DEPRECATED in text] == [role["notices"][0]["text"]]


def test_an_unknown_acknowledgement_names_the_valid_ids():
    assert render_kickstart.acknowledged(None) == [] and render_kickstart.acknowledged([]) == []
    assert render_kickstart.acknowledged(["http_base_url"]) == ["http_base_url"]
    for wrong in (["http"], "http_base_url", {"http_base_url": True}):
        with pytest.raises(PwpolicyError) as raised:
            render_kickstart.acknowledged(wrong)
        assert "anaconda_deprecated, http_base_url" in str(raised.value)
    with pytest.raises(PwpolicyError, match="names no notice as http; the valid ids"):
        render_kickstart.acknowledged(["http"])
