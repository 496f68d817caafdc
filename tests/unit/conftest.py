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
