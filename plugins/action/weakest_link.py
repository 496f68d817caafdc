# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``weakest_link`` action: one host's weakest secret against the attacks it is exposed to, on the controller.

Documentation: plugins/modules/weakest_link.py.  The model lives in
plugin_utils/_exposure.py and _weakest.py; the secrets are read as
``check_secrets`` reads them (each on its own, never repeating Ansible's
error text), by plugin_utils/_secrets_reader.py.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.module_utils.common.text.converters import to_text
from ansible.module_utils.parsing.convert_bool import boolean

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._action import ActionModuleBase
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preload import preload
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import (
    ROLE_VARS,
    SECRET_VARS,
    SecretReader,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._weakest import (
    WARN_SECONDS,
    host_weakest,
    model_options,
    seconds_arg,
)

# Imported once by Ansible's main process, before any host's worker: what each worker would import again.
preload()

MODEL_ARGS = ("rounds", "product", "hostname")
# The secrets read: those estimated, and the boot loader's password, only compared with them (one value used twice).
READ_VARS = SECRET_VARS + tuple((arg, var) for arg, var in ROLE_VARS if arg == "bootloader_password")
# The arguments, in the order the messages give them; every value is templated and converted here (raw).
ARGUMENT_SPEC = dict(
    [(name, dict(type="raw", no_log=True)) for name, _var in READ_VARS]
    + [(name, dict(type="raw")) for name in MODEL_ARGS + ("role_vars", "estimate", "base_url", "warn_seconds",
                                                          "min_seconds", "require_estimates", "fail", "host_label")])


class ActionModule(ActionModuleBase):
    """Estimate one host's secrets; no module, no connection."""

    NAME = "weakest_link"
    ARGUMENT_SPEC = ARGUMENT_SPEC
    _requires_connection = False

    def _model_options(self, args, task_vars):
        given = dict((name, self._template(args.get(name)) if args.get(name) is not None else None)
                     for name in MODEL_ARGS)
        return model_options(self._template(args.get("estimate")), given,
                             to_text(task_vars.get("inventory_hostname", "localhost")))

    def _read_secrets(self, args, task_vars):
        reader = SecretReader(self._template, self._templar)
        raw, names = reader.role_values(args, task_vars, READ_VARS)
        # Unreadable secrets and account problems are check_secrets' to report: only readable ones are estimated.
        return [item for item in reader.secrets(raw, names, []) if item["value"] and not item["error"]]

    def _run(self, result, args, task_vars):
        try:
            host = to_text(self._template(args.get("host_label", task_vars.get("inventory_hostname", "localhost"))))
            options = self._model_options(args, task_vars)
            floors = (seconds_arg(self._template(args.get("warn_seconds", WARN_SECONDS)), "warn_seconds"),
                      seconds_arg(self._template(args.get("min_seconds", 0)), "min_seconds"))
            require = boolean(self._template(args.get("require_estimates", False)), strict=False)
            fail = boolean(self._template(args.get("fail", True)), strict=False)
            items = self._read_secrets(args, task_vars)
            base_url = to_text(self._template(args.get("base_url")) or "")
            fields, warnings, failed = host_weakest(host, items, options, base_url, floors, require)
        except PwpolicyError as exc:
            result.update(failed=True, msg=str(exc))
            return result
        result.update(changed=False, **fields)
        if warnings:
            result["warnings"] = warnings
        if failed and fail:
            result["failed"] = True
        return result
