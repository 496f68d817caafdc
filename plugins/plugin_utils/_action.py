# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The base of the collection's actions: the task's arguments checked against an argument spec.

Each action declares ``NAME`` (for its messages) and ``ARGUMENT_SPEC``, and
implements ``_run(result, args, task_vars)``; :meth:`ActionModuleBase.run`
calls ``ActionBase.run``, checks the arguments and calls it.

The values are the action's own to template and convert, one by one, as it
always did (a secret that cannot be decrypted is an error of that secret, not
of the task): the spec's arguments are ``type: raw``, and a ``raw`` or
``no_log`` argument's value is never given to the validator, so that no value
is converted, copied, decrypted or quoted here.  A message names arguments
only.  ``no_log`` arguments are the secrets: ansible-core 2.19+ leaves them
untemplated for the action (``finalize_task_arg``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleError
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator
from ansible.module_utils.errors import UnsupportedError
from ansible.plugins.action import ActionBase

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError


class ArgumentError(PwpolicyError):
    """The task's arguments do not fit the action's argument spec (the message names no value)."""


def secret_names(spec):
    """The arguments of ``spec`` that are secrets (``no_log``)."""
    return frozenset(name for name, option in spec.items() if option.get("no_log"))


def check_arguments(name, spec, args):
    """Raise :class:`ArgumentError` unless ``args`` fit ``spec``; ``name`` is the action's, for the message.

    Only the values of typed arguments that are not secrets are validated; the
    others are given to the validator as None.
    """
    blind = secret_names(spec) | frozenset(arg for arg, option in spec.items() if option.get("type", "raw") == "raw")
    shown = dict((key, None if key in blind or key not in spec else value) for key, value in args.items())
    result = ArgumentSpecValidator(spec).validate(shown)
    errors = list(result.errors)
    if any(isinstance(error, UnsupportedError) for error in errors):
        unknown = sorted(str(key) for key in args if key not in spec)
        raise ArgumentError("%s: unknown argument(s) %s; valid arguments are %s"
                            % (name, ", ".join(unknown), ", ".join(spec)))
    if errors:
        raise ArgumentError("%s: %s" % (name, "; ".join(str(error) for error in errors)))


class ActionModuleBase(ActionBase):
    """An action that runs on the controller with its task's arguments checked against ``ARGUMENT_SPEC``."""

    NAME = None
    ARGUMENT_SPEC = {}
    TRANSFERS_FILES = False

    @classmethod
    def finalize_task_arg(cls, name, value, templar, context):
        """ansible-core 2.19+: leave the secrets untemplated, the action templates each on its own."""
        if name in secret_names(cls.ARGUMENT_SPEC):
            return value
        return super(ActionModuleBase, cls).finalize_task_arg(name, value, templar, context)

    def _template(self, value):
        return self._templar.template(value)

    def _checked_args(self):
        """The task's arguments, as they are, once they fit the argument spec."""
        args = dict(self._task.args)
        check_arguments(self.NAME, self.ARGUMENT_SPEC, args)
        return args

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModuleBase, self).run(tmp, task_vars)
        del tmp
        try:
            args = self._checked_args()
        except ArgumentError as exc:
            result.update(failed=True, msg=str(exc))
            return result
        return self._run(result, args, task_vars or {})

    def _run(self, result, args, task_vars):
        """The action's work on ``result`` (``ActionBase.run``'s), with the checked ``args``."""
        raise AnsibleError("%s does not implement _run" % type(self).__name__)
