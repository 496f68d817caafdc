# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The argument-spec pieces the modules share, built from the policy model's constants.

Each function returns a new dict, so a module may extend what it gets.  The
options are documented once, in the doc fragment ``kickstart.pwpolicy.policy``
(``policies``/``product``, and the ``kickstart_target``, ``conf_target`` and
``info_module`` fragments).

``policies`` stays ``type=raw``: it is a dict keyed by policy name or a list
of dicts with a ``name``, and ``_policy.normalize_policies`` checks its
fields (``FIELDS``) with messages that name the policy.

:class:`TextModule` is the ``AnsibleModule`` of the modules that take
kickstart or configuration text as ``content``: the text (a kickstart holds
its secrets) never shows in a failed result's ``invocation``, argument
errors included, which Ansible reports before a module's own code runs.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf import DEFAULT_CONF_NAME
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import read_text
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import PRODUCTS

# anaconda_conf and anaconda_conf_info: the newest release the collection knows.
CONF_DEFAULT_TARGET = "DEVEL"


def policy_options():
    """``policies`` and ``product``, as the writer modules take them."""
    return dict(
        policies=dict(type="raw"),
        product=dict(type="str", choices=list(PRODUCTS)),
    )


def kickstart_target_option():
    """``target`` of the kickstart modules: no default, the ``#version=`` line decides."""
    return dict(target=dict(type="str"))


def conf_target_option():
    """``target`` of the anaconda configuration modules."""
    return dict(target=dict(type="str", default=CONF_DEFAULT_TARGET))


def conf_name_option():
    """``conf_name``: the drop-in's file name inside an updates image."""
    return dict(conf_name=dict(type="str", default=DEFAULT_CONF_NAME))


def read_source_options(secret_content=False):
    """``path`` and ``content`` of the ``_info`` modules; use with :func:`read_source_rules`.

    ``secret_content``: the module never returns the content, so it is
    ``no_log`` (kept out of the invocation, every log and every error, and
    a NUL in it cannot break the node's logging).
    """
    content = dict(type="str", no_log=True) if secret_content else dict(type="str")
    return dict(path=dict(type="path"), content=content)


def source_text(params):
    """``(text, where)`` of :func:`read_source_options`: the text to read, and how errors name it (empty for
    ``content``, `` (PATH)`` for a file).  Raises ``_files.FileError``."""
    if params["content"] is not None:
        return params["content"], ""
    text, path = read_text(params["path"])
    return text, " (%s)" % path


def read_source_rules():
    """``AnsibleModule`` keyword arguments: exactly one of ``path`` and ``content``."""
    return dict(
        mutually_exclusive=[("path", "content")],
        required_one_of=[("path", "content")],
    )


def spec(*pieces, **options):
    """One argument spec from ``pieces`` (dicts of options) and more ``options``."""
    merged = {}
    for piece in pieces + (options,):
        for name, value in piece.items():
            if name in merged:
                raise ValueError("option %s is given twice" % name)
            merged[name] = value
    return merged


# What stands for the text in a failed result's invocation (Ansible's own word for a no_log value).
HIDDEN_TEXT = "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"


class TextModule(AnsibleModule):
    """An ``AnsibleModule`` whose ``content`` argument is never shown in a failed result.

    Ansible puts the module's arguments in a result's ``invocation`` (every
    result up to ansible-core 2.20, on request from 2.21), unmasked when the
    arguments themselves are wrong (an unknown option, a bad type, two
    exclusive options), because that is reported before any value is marked
    ``no_log``.  ``content`` cannot be ``no_log`` in the argument spec: its
    text would then be masked inside the module's own output too.
    """

    # Content shorter than this cannot hold a secret-bearing kickstart line (and
    # Ansible masks every occurrence of a value: a tiny one would mask pieces of
    # unrelated output).
    MIN_MASKED = 16

    def hide_content(self):
        """Keep ``content`` (it may hold the kickstart's secrets) out of every result's invocation."""
        content = self.params.get("content")
        if content is not None and len(content) >= self.MIN_MASKED:
            self.no_log_values.add(content)

    def fail_json(self, msg, **kwargs):
        params = getattr(self, "params", None)
        if "invocation" not in kwargs and isinstance(params, dict) and params.get("content") is not None:
            shown = dict(params)
            shown["content"] = HIDDEN_TEXT
            kwargs["invocation"] = {"module_args": shown}
        super(TextModule, self).fail_json(msg, **kwargs)
