# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Make this checkout importable as the collection (checkout.py) before any test module is collected."""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import checkout  # noqa: E402  (sets sys.path and ANSIBLE_COLLECTIONS_PATH)

COLLECTIONS_DIR = checkout.COLLECTIONS_DIR


def pytest_collection_finish(session):
    """Build the pykickstart handler of every release once, before the first test.

    The parsers keep one pristine handler per release and copy it for each
    parse.  ``ansible-test units`` runs each test in a forked child, which
    starts from what this process holds and throws away what it builds: without
    this, every test pays again for the handlers it uses (tens of milliseconds
    each).  Nothing here is checked; the tests still build and copy handlers as
    before.
    """
    try:
        from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_commands import handler_for
        from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
    except ImportError:  # pragma: no cover - the tests that need them report it
        return
    names = ["F%d" % major for major in range(22, 47)] + ["RHEL%d" % major for major in range(7, 11)] + ["DEVEL"]
    for name in names:
        try:
            parse_kickstart("%anaconda\n%end\n", name, validate=False)
            handler_for(name)
        except Exception:  # pylint: disable=broad-except  # a release this pykickstart lacks: built when a test asks
            pass
