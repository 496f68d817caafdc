# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_errors.py: every error the collection raises shares one base."""

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf import ConfError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import PwcheckError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._updates_image import UpdatesImageError


def test_every_error_class_shares_one_base():
    for cls in (KickstartEditError, PwcheckError, UpdatesImageError, ConfError):
        assert issubclass(cls, PwpolicyError) and issubclass(cls, ValueError)
