# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A failed rendering is named by what failed (the code and the exceptions), never by the words of a message.

The templates are rendered by ansible-core's own template lookup, as the
action renders them, on every ansible-core the tests run on.
"""

from unittest import mock

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.action import render_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.action.render_kickstart import ActionModule, RenderError
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.action.test_render_kickstart import resolved


class _Task(object):
    no_log = False
    check_mode = False
    diff = False
    args = {}


class _Templating(ActionModule):
    """The action with a real loader and templar, and nothing else."""

    def __init__(self):  # pylint: disable=super-init-not-called
        from ansible.parsing.dataloader import DataLoader
        from ansible.template import Templar

        self._task = _Task()
        self._loader = DataLoader()
        self._templar = Templar(loader=self._loader, variables={})


class _Lookups(object):
    """The template lookup, loaded as the action loads it, without the plugin loader's collection finder."""

    @staticmethod
    def get(name, loader=None, templar=None):
        assert name == "ansible.builtin.template"
        from ansible.plugins.loader import lookup_loader

        return lookup_loader.get("template", loader=loader, templar=templar)


def render(tmp_path, text, section=False, policies=None):
    template = tmp_path / "site.ks.j2"
    template.write_text(text)
    own = dict((name, None) for name in render_kickstart.OWN_ARGS)
    own.update(template=str(template), template_label="site.ks.j2")
    plain = {"product": "server", "pwpolicies": None, "target": "RHEL8"}
    check = {"policies": policies or resolved(), "delivery": {"section": section}}
    with mock.patch.object(render_kickstart, "lookup_loader", _Lookups()):
        return _Templating()._render(own, plain, check, {"inventory_hostname": "web01"}, {})


def failure(tmp_path, text):
    with pytest.raises(RenderError) as raised:
        render(tmp_path, text)
    return str(raised.value), raised.value.cause


def test_an_undefined_variable_is_a_template_error_whatever_its_name(tmp_path):
    # The names hold words a message-matching rule took for hashing.
    what, cause = failure(tmp_path, "network --hostname={{ site_password_hash_passlib }}\n")
    assert what == "rendering the template site.ks.j2 failed"
    assert cause == "'site_password_hash_passlib' is undefined"


def test_a_failing_password_hash_is_a_hashing_error(tmp_path):
    what, cause = failure(tmp_path, "rootpw --iscrypted {{ 'Quartz-Lantern' | password_hash('nosuchhash') }}\n")
    assert what == "hashing in the template site.ks.j2 (ansible.builtin.password_hash) failed"
    assert "nosuchhash" in cause and "Quartz-Lantern" not in cause


def test_a_password_hash_without_passlib_says_what_to_install(tmp_path, monkeypatch):
    from ansible.utils import encrypt

    # What ansible-core records when passlib (and, on 2.21, libxcrypt) cannot be imported.
    monkeypatch.setattr(encrypt, "PASSLIB_AVAILABLE", False)
    monkeypatch.setattr(encrypt, "PASSLIB_E", ImportError("no module named passlib"), raising=False)
    for name in ("HAS_CRYPT", "CRYPT_E"):
        if hasattr(encrypt, name):
            monkeypatch.setattr(encrypt, name, False if name == "HAS_CRYPT" else ImportError("no crypt"))
    what, cause = failure(tmp_path, "rootpw --iscrypted {{ 'Quartz-Lantern' | password_hash('sha512') }}\n")
    assert what.startswith("the template site.ks.j2 calls ansible.builtin.password_hash, which needs passlib")
    assert "pip install passlib" in what and cause is None


def test_the_cause_is_the_innermost_exceptions_own_message():
    def chained():
        try:
            try:
                raise ValueError("rounds must be at least 1000\nsecond line")
            except ValueError as inner:
                raise RuntimeError("Could not hash the secret.") from inner
        except RuntimeError as middle:
            raise KeyError("outer") from middle

    with pytest.raises(KeyError) as raised:
        chained()
    assert render_kickstart.innermost_cause(raised.value) == "rounds must be at least 1000"
    assert [type(cause) for cause in render_kickstart.causes(raised.value)] == [KeyError, RuntimeError, ValueError]


def test_a_cause_chained_as_ansible_core_2_16_does_is_followed():
    class OldStyle(Exception):
        def __init__(self, message, orig_exc=None):
            super(OldStyle, self).__init__(message)
            self.orig_exc = orig_exc

    error = OldStyle("Could not hash the secret.. boom. boom", orig_exc=ValueError("boom"))
    assert render_kickstart.innermost_cause(error) == "boom"


def test_the_section_is_rendered_from_the_pre_flights_policies(tmp_path):
    # Policies the product's preset does not hold: only the pre-flight's resolution gives them.
    policies = resolved({"root": {"minlen": 18}})
    text = render(tmp_path, "{{ kickstart_anaconda_section }}", section=True, policies=policies)
    assert "pwpolicy root --minlen=18 " in text
    assert "pwpolicy root --minlen=15 " not in text
