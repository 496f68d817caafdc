# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sample inputs shared by the unit tests and benchmarks/bench.py: seeded passwords, tagged values."""

import random
import string


def passwords(count=2000, seed=20151):
    """``count`` passwords of four kinds (random, passphrase, word+digits, lowercase), the same for a seed."""
    rng = random.Random(seed)
    words = ["river", "otter", "maple", "lantern", "quartz", "falcon", "amber", "password", "summer", "dragon"]
    alphabet = string.ascii_letters + string.digits + "!#%&*+-=?@^_"
    result = []
    for index in range(count):
        kind = index % 4
        if kind == 0:
            result.append("".join(rng.choice(alphabet) for dummy in range(rng.randint(6, 24))))
        elif kind == 1:
            result.append("-".join(rng.choice(words) for dummy in range(rng.randint(2, 5))))
        elif kind == 2:
            result.append(rng.choice(words) + str(rng.randint(0, 9999)))
        else:
            result.append("".join(rng.choice(string.ascii_lowercase) for dummy in range(rng.randint(4, 12))))
    return result


def tagged(value):
    """``value`` as ansible-core 2.19 and later hand it over from YAML (``_AnsibleTaggedInt``...), else as it is."""
    try:
        from ansible.module_utils._internal._datatag import AnsibleTagHelper
        from ansible._internal._datatag._tags import Origin
    except ImportError:
        return value
    return AnsibleTagHelper.tag(value, [Origin(path="/inventory/host_vars/web01.yml", line_num=3)])


# Unrendered kickstart templates in the shapes the provisioning tools ship them (written for these tests).
# Foreman: ERB, a multi-line <% %> block, sections ended by <%= section_end -%> (which renders "%end", or
# nothing for RHEL 5), a section inside <% if %>, the root and GRUB passwords filled in by the template.
FOREMAN_ERB = """<%#
kind: provision
name: Site kickstart
oses:
- RedHat
%>
<%
  os_major = @host.operatingsystem.major.to_i
  section_end = os_major <= 5 ? '' : '%end'
%>
<%= @mediapath %>
lang <%= host_param('lang') || 'en_US.UTF-8' %>
network --bootproto dhcp --hostname <%= @host %>
rootpw --iscrypted <%= root_pass %>
<% if host_param_true?('lab') -%>
user --name=lab --password=<%= host_param('lab_pass') %> --iscrypted
<% end -%>
bootloader --location=mbr --append="<%= host_param('append') %>" <%= grub_pass %>
<% if @dynamic -%>
%include /tmp/diskpart.cfg
<% else -%>
<%= @host.diskLayout %>
<% end -%>
%packages
@core
<%= section_end -%>

<% if @dynamic -%>
%pre
<%= @host.diskLayout %>
<%= section_end -%>
<% end -%>

%post
<%= snippet 'site_register' %>
<%= section_end -%>
"""

# Cobbler: Cheetah, $SNIPPET lines outside and inside sections, #if/#else/#end if around secret lines.
COBBLER_CHEETAH = """#platform=x86, AMD64, or Intel EM64T
auth --useshadow --enablemd5
url --url=$tree
$yum_repo_stanza
$SNIPPET('network_config')
#if $getVar('root_hash', '') != ''
rootpw --iscrypted $root_hash
#else
rootpw --iscrypted $default_password_crypted
#end if
#if $getVar('luks', '') != ''
autopart --encrypted --passphrase=$luks
#end if
%pre
$SNIPPET('log_ks_pre')
$SNIPPET('pre_install_network_config')
%end
%packages
$SNIPPET('func_install_if_enabled')
%end
%post
$SNIPPET('log_ks_post')
$yum_config_stanza
%end
"""
