# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``verify_secrets`` action: whether an installed host's hashes still match the vaulted values.

Documentation: plugins/modules/verify_secrets.py.  The host's files are
fetched with ``ansible.builtin.slurp`` run as for a ``no_log`` task; the
vaulted values are read as ``check_secrets`` reads them with ``role_vars``
(plugin_utils/_secrets_reader.py); the comparison is
plugin_utils/_installed_secrets.py.  The files' text is dropped once compared.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import base64
import binascii

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._action import ActionModuleBase
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._installed_secrets import (
    FILES,
    compare_secrets,
    host_path,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import ROLE_VARS, SecretReader

# The secrets compared, read from the kickstart role's variables (the LUKS passphrase has no hash on the host).
READ_VARS = tuple((arg, var) for arg, var in ROLE_VARS if arg in ("root_password", "users", "bootloader_password"))
ARGUMENT_SPEC = {"root": dict(type="raw")}


class ActionModule(ActionModuleBase):
    """Compare one host's installed hashes with its vaulted values; reads the host's files with slurp."""

    NAME = "verify_secrets"
    ARGUMENT_SPEC = ARGUMENT_SPEC

    def _slurp(self, path, task_vars):
        """The text of the host file ``path``, or None where it cannot be read (missing, unreadable).

        Run as for a ``no_log`` task, so that the module neither logs its
        result nor is shown; its result is dropped here.
        """
        no_log = self._task.no_log
        try:
            self._task.no_log = True
            done = self._execute_module(module_name="ansible.builtin.slurp", module_args={"src": path},
                                        task_vars=task_vars)
        finally:
            self._task.no_log = no_log
        if not isinstance(done, dict) or done.get("failed") or not isinstance(done.get("content"), str):
            return None
        try:
            data = base64.b64decode(done.pop("content"), validate=True)
        except (binascii.Error, ValueError):
            return None
        return data.decode("utf-8", "replace")

    def _run(self, result, args, task_vars):
        root = self._template(args.get("root", "/"))
        if root in (None, ""):
            root = "/"
        if not isinstance(root, str) or not root.startswith("/"):
            result.update(failed=True, msg="verify_secrets: root must be an absolute path (the host's / by default)")
            return result
        reader = SecretReader(self._template, self._templar)
        raw, names = reader.role_values({"role_vars": True}, task_vars, READ_VARS)
        raw["luks_passphrase"] = None
        texts = {}
        try:
            items = reader.secrets(raw, names, [])
            for path in FILES:
                texts[path] = self._slurp(host_path(root, path), task_vars)
            secrets = compare_secrets(items, texts, names)
        except PwpolicyError as exc:
            result.update(failed=True, msg="verify_secrets: %s" % to_text(exc))
            return result
        finally:
            texts.clear()
        result.update(changed=False, secrets=secrets)
        return result
