# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Deprecated: the old single home of the kickstart code, now split by job.

Import from the files that hold each job instead; this file only re-exports
their names for callers that have not moved yet, and will be removed:

* ``_ks_section``: the ``%anaconda`` section on pykickstart, ``HAS_PYKICKSTART``;
* ``_ks_parse``: ``parse_kickstart``;
* ``_ks_edit``: ``edit_kickstart``, ``read_policies``, ``render_section``, ``section_regions``;
* ``_ks_lines``: ``KickstartEditError``, ``release_for``, the input bounds;
* ``_redact``: ``redact_line``, ``redacted_text``, ``line_secrets``;
* ``_release``: ``support_message``, ``deprecation_message``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

# pylint: disable=unused-import
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import (  # noqa: F401
    EditResult,
    edit_kickstart,
    read_policies,
    render_section,
    section_regions,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import (  # noqa: F401
    MAX_COMMAND_LINES,
    MAX_COMMAND_WORDS,
    MAX_PACKAGE_LINES,
    KickstartEditError,
    release_for,
    version_line,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import (  # noqa: F401
    ParsedKickstart,
    parse_kickstart,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_section import (  # noqa: F401
    HAS_PYKICKSTART,
    PYKICKSTART_IMPORT_ERROR,
    PYKICKSTART_PACKAGE,
    MissingPykickstart,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import (  # noqa: F401
    line_secrets as _line_secrets,
    redact_line,
    redact_message as _redact,
    redacted_text,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import (  # noqa: F401
    deprecation_message,
    support_message,
)
