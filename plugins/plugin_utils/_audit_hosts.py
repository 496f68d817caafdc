# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every host's secrets checked by one task on the controller, over its cores (``audit_report`` with ``role_vars``).

A task per host costs Ansible its variables, a worker and the result's way
back, for every host; at a thousand hosts that was most of an audit's time.
Here one task reads each host's variables as the inventory gives them
(``HostVars.raw_get``: inventory, group and host variables and extra vars,
untemplated), makes of the kickstart role's variables the arguments the
``check_secrets`` action would get (:func:`host_arguments`), and runs the same
check (plugin_utils/_secrets_check.py) for a share of the hosts in each of a
few processes forked from the task's own.  Each secret is still templated,
and so decrypted, on its own, in the process that checks it, and a secret
that cannot be read is an error finding of its own, as before.

What comes back from a process is what the report needs of each host's check
(:data:`KEPT`): findings, the weakest link, warnings and the message; the
check puts no value in them.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import multiprocessing
import os

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._known_weak import usable_cores
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._renamed import announce_renamed
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_check import SecretsCheck
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import SecretReader
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._stored import READ_ONLY_VARIABLE
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._weakest import WARN_FLOOR, below_warn_floor

# What the report reads of each host's check result (the rest stays in the process that made it).
KEPT = ("findings", "weakest_link", "warnings", "failed", "msg")
# A host whose check raised something no check expects: said without Ansible's text (it may quote a value).
CRASHED = "%s: the check of this host stopped on an unexpected %s; run check_secrets on it alone to see where"
_MISSING = object()


def variable_getter(templar, task_vars):
    """``get(name)``: the host's variable ``name`` of ``task_vars`` templated with ``templar``, or ``_MISSING``."""
    def get(name):
        return templar.template(task_vars[name]) if name in task_vars else _MISSING
    return get


def host_arguments(get):
    """The ``check_secrets`` arguments the audit gives one host, from the kickstart role's variables.

    ``get(name)`` is the host's variable ``name`` templated, or ``_MISSING``.
    The defaults are the role's (and the earlier names are still read).
    """
    def first(names, default=None):
        for name in names:
            value = get(name)
            if value is not _MISSING:
                return value
        return default

    args = {"role_vars": True, "fail": False,
            "fail_on": first(("kickstart_fail_on", "kickstart_audit_fail_on"), "rejected")}
    for arg, var in (("profile", "kickstart_profile"), ("blocklist", "kickstart_blocklist")):
        value = get(var)
        if value is not _MISSING:
            args[arg] = value
    mode = first(("kickstart_weakest_link",), "auto")
    if mode != "never":
        args["weakest"] = {
            # The hash the role writes for the host's target (auto: the installer's scheme).
            "hash": first(("kickstart_password_hash",), "auto"),
            "rounds": first(("kickstart_password_hash_rounds",)),
            "cost": first(("kickstart_password_hash_cost",)),
            "hostname": first(("kickstart_host_id", "inventory_hostname")),
            "base_url": first(("kickstart_base_url",)),
            "estimate": first(("kickstart_estimate_options",)),
            "warn_seconds": first(("kickstart_warn_crack_seconds", "kickstart_crack_warn_seconds")),
            "min_seconds": first(("kickstart_min_crack_seconds",)),
            "require_estimates": mode == "required",
        }
    return args


class HostsCheck(object):
    """The check of each host of ``hosts`` (in the play's order), with ``templar`` (the task's) and ``hostvars``."""

    def __init__(self, templar, hostvars, hosts):
        # ansible-core 2.16 to 2.18 give a lookup the variables of the templar a copy was made from (its
        # environment's globals stay bound to it), so the read-only mark goes on that templar too.
        templar.available_variables = dict(templar.available_variables, **{READ_ONLY_VARIABLE: "the audit"})
        self.templar = templar
        self.hostvars = hostvars
        self.hosts = [to_text(host) for host in hosts]

    def variables(self, host):
        """The host's variables, untemplated, as a task of the audit's play would see them."""
        if host not in self.hostvars:
            raise PwpolicyError("not a host of the inventory")
        # A pwpolicy_password lookup with file= only reads its stored value back: an audit writes nothing.
        return dict(self.hostvars.raw_get(host), ansible_play_hosts=self.hosts, ansible_play_hosts_all=self.hosts,
                    **{READ_ONLY_VARIABLE: "the audit"})

    def check(self, host):
        """What the report keeps of one host's check (:data:`KEPT`)."""
        try:
            task_vars = self.variables(host)
            templar = self.templar.copy_with_new_env(available_variables=task_vars)
            reader = SecretReader(templar.template, templar)
            result = SecretsCheck(reader, host_arguments(variable_getter(templar, task_vars))).run(
                {}, task_vars, announce=False)[0]
        except PwpolicyError as exc:
            result = {"failed": True, "msg": "%s: %s" % (host, exc)}
        return dict((key, result[key]) for key in KEPT if key in result)

    def share(self, hosts):
        """``{host: kept}`` over ``hosts``; a host whose check crashed gets a message and no findings."""
        done = {}
        for host in hosts:
            try:
                done[host] = self.check(host)
            # One host's crash must not lose the others' findings; Ansible's text may quote a value.
            except Exception as exc:  # pylint: disable=broad-except
                done[host] = {"failed": True, "msg": CRASHED % (host, type(exc).__name__)}
        return done

    def announce(self):
        """The deprecated variable names the first host still sets, said once (as the first host's task did)."""
        try:
            announce_renamed(self.variables(self.hosts[0]) if self.hosts else {})
        except PwpolicyError:  # the first host is not in the inventory: its check says so
            pass

    def run(self, processes):
        """``{host: kept}`` for every host, over ``processes`` forked processes (1: in this one)."""
        self.announce()
        processes = max(1, min(processes, len(self.hosts)))
        if processes == 1:
            return self.share(self.hosts)
        context = multiprocessing.get_context("fork")
        workers = []
        for index in range(processes):
            reader, writer = context.Pipe(duplex=False)
            worker = context.Process(target=self._child, args=(self.hosts[index::processes], writer))
            worker.start()
            writer.close()
            workers.append((worker, reader))
        done, stopped = {}, []
        for worker, reader in workers:  # every process is waited for, even after one stopped
            try:
                share = reader.recv()
            except EOFError:
                share = None
            reader.close()
            worker.join()
            if isinstance(share, dict):
                done.update(share)
            else:
                stopped.append(str(worker.exitcode))
        if stopped:
            raise PwpolicyError("audit_report: a process checking the hosts stopped (exit code %s)"
                                % ", ".join(stopped))
        return done

    def _child(self, hosts, writer):
        """A forked process: check ``hosts``, send what the report keeps, and leave without Ansible's exit code."""
        status = 0
        try:
            writer.send(self.share(hosts))
        # Nothing of it is printed (it may quote a value): the parent says the process stopped.
        except Exception:  # pylint: disable=broad-except
            status = 1
        finally:
            writer.close()
            os._exit(status)  # pylint: disable=protected-access


# How many hosts a grouped warning names before it counts the rest.
NAMED_HOSTS = 8


def _named(hosts):
    """``a, b, c`` or ``a, b, ... and 12 more``."""
    shown = ", ".join(hosts[:NAMED_HOSTS])
    return shown if len(hosts) <= NAMED_HOSTS else "%s and %d more" % (shown, len(hosts) - NAMED_HOSTS)


def audit_warnings(hosts, results):
    """The warnings of every host's check, each said once for all the hosts it concerns.

    A warning that several hosts give word for word (a plain ``http://``
    base URL, say) is one line naming them; the warnings that a host's secret
    is below ``kickstart_warn_crack_seconds`` (a sentence per host, with its
    time) are one line counting those hosts, since the audit's table of
    weakest links shows each of them.  Hosts stay in the order given.
    """
    by_text, warned = {}, []
    for host in hosts:
        prefix = "%s: " % host
        for warning in (results.get(host) or {}).get("warnings") or []:
            warning = to_text(warning)
            if warning.startswith(prefix) and below_warn_floor(warning):
                if host not in warned:
                    warned.append(host)
                continue
            text = warning[len(prefix):] if warning.startswith(prefix) else warning
            named = by_text.setdefault(text, [])
            if warning.startswith(prefix) and host not in named:
                named.append(host)
    found = ["%s: %s" % (_named(named), text) if named else text for text, named in by_text.items()]
    if warned:
        found.append("%d of %d hosts keep a secret below %s (%s): the weakest links table above gives each host's "
                     "weakest link and how long it would hold" % (len(warned), len(hosts), WARN_FLOOR, _named(warned)))
    return found


def processes_for(forks):
    """How many processes check the hosts: the cores this process may use, at most ``forks``."""
    cores = usable_cores()
    return max(1, min(cores, forks or cores))
