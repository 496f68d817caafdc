# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The compliance profiles' old import path, for the controller code that still uses it.

The profile model lives in ``module_utils/_profiles.py``, where the node
reads it too (``ks_secrets_info`` takes a profile's hashing minimums); this
module only re-exports what the ``compliance_profile`` filter imports from
here; new code imports ``module_utils._profiles``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._profiles import profile  # noqa: F401 pylint: disable=unused-import
