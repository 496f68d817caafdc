# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``check_secrets`` action: every secret of one host against its policy, on the controller.

Documentation: plugins/modules/check_secrets.py.  The rules live in
plugin_utils/_preflight.py, the check in plugin_utils/_secrets_check.py, and
the secrets are read (each templated on its own, an unreadable one an error
finding of its own) by plugin_utils/_secrets_reader.py.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._action import ActionModuleBase
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preload import preload
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_check import (
    CHECK_ARGUMENT_SPEC,
    PROFILE_ARGUMENT_SPEC,
    SecretsCheck,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import SecretReader

# Imported once by Ansible's main process, before any host's worker: what each worker would import again.
preload()


class ActionModule(ActionModuleBase):
    """Check one host's secrets; no module, no connection."""

    NAME = "check_secrets"
    ARGUMENT_SPEC = dict(CHECK_ARGUMENT_SPEC, **PROFILE_ARGUMENT_SPEC)
    _requires_connection = False

    def _run(self, result, args, task_vars):
        reader = SecretReader(self._template, self._templar)
        return SecretsCheck(reader, args).run(result, task_vars)[0]
