# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):
    """Attributes of the actions that run on the controller only (no module, no connection).

    Use it after ansible.builtin.action_common_attributes (with .conn and
    .flow), which describe the attributes.
    """

    DOCUMENTATION = r"""
attributes:
  action:
    support: full
  async:
    support: none
  become:
    support: none
  bypass_host_loop:
    support: none
  check_mode:
    support: full
  connection:
    support: none
  delegation:
    support: none
  diff_mode:
    support: none
  platform:
    support: full
    platforms: all
"""
