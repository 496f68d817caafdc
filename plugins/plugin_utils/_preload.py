# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What every host's pre-flight imports, imported once per run by the controller's main process.

Ansible runs each host's task in a worker process forked from its main
process.  A module the worker imports is imported again by the next host's
worker: the pre-flight's pykickstart commands (every kickstart command's
option parser, to read the secret-carrying options as the installer does)
and zxcvbn (the weakest link's estimates) cost about a quarter of a second
of CPU per host that way.  The main process imports each action plugin once
(to read its class) before the hosts' workers start, so the actions import
this module and it imports those libraries there, once, and every worker
finds them loaded.

ansible-core's own filter and test plugins are loaded the same way: a worker
loads all of them the first time it templates a filter or a test, and each of
the role's tasks after its argument check is a new worker for every host
(about 20 ms of CPU each time).  Loaded in the main process, they are
inherited with the fork.

Nothing here is required: whatever fails to load is loaded (and reported) by
the worker that needs it, as before.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import importlib

# Each is imported if it can be; the first is every kickstart command's module (pykickstart's handlers
# import them all), the second the weakest link's estimator.
MODULES = ("pykickstart.handlers.control", "zxcvbn")


def preload(modules=MODULES):
    """Import each of ``modules`` that can be, then ansible-core's Jinja plugins; returns the names imported."""
    done = []
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # pylint: disable=broad-except
            continue  # not installed, or broken: the worker that needs it says so
        done.append(name)
    jinja_plugins()
    return done


def jinja_plugins():
    """Load every filter and test plugin the way a worker's first template would; returns how many there are."""
    try:
        from ansible.plugins.loader import filter_loader, test_loader
        return sum(len(list(loader.all())) for loader in (filter_loader, test_loader))
    except Exception:  # pylint: disable=broad-except
        return 0  # a plugin that cannot load: the worker that templates it reports it, as before
