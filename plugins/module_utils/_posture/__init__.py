# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The posture of a system: what it would be (a kickstart) or is, as plain data, and one judge of it.

``model``: the shape of a posture, the same for every source.  ``kickstart``:
the reader of a kickstart (or an unrendered template) into it.  ``judge``: a
posture against compliance profiles, into deviations.  Readers know nothing
of profiles; the judge knows nothing of where a posture came from.
"""
