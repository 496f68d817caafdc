#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tools/build-docsite.sh DEST
#
# Builds the collection's docs site (plugin pages, docs/docsite/rst guides and
# links) into DEST/build/html from the collection installed under
# $ANSIBLE_COLLECTIONS_PATH, with the tools of the virtualenv first on PATH:
# `antsibull-docs sphinx-init` writes the Sphinx project, then its build.sh
# runs `antsibull-docs collection` and `sphinx-build -W --keep-going`, so any
# warning fails the build.
#
# Offline: the generated conf.py fetches intersphinx inventories from the
# Python, Jinja and Ansible sites.  They are replaced by a small local
# inventory of the Ansible documentation labels antsibull-docs' own pages
# point to (below), so those links still resolve to docs.ansible.com and any
# other unresolved reference is a warning.
set -euo pipefail
dest=${1:?usage: build-docsite.sh DEST}
ansible_docs=https://docs.ansible.com/projects/ansible/devel/

rm -rf "$dest"
mkdir -p "$dest"
chmod 755 "$dest"   # antsibull-docs wants a directory only its owner can write
antsibull-docs sphinx-init --use-current --squash-hierarchy --fail-on-error \
    --dest-dir "$dest" --project kickstart.pwpolicy \
    --copyright "kickstart.pwpolicy contributors" \
    --title "kickstart.pwpolicy" kickstart.pwpolicy

# name, page#anchor, title: the labels of the Ansible documentation that
# antsibull-docs' generated pages refer to.
python3 - "$dest/ansible_devel.inv" <<'EOF'
import sys
import zlib

labels = [
    ("action_plugins", "plugins/action.html#action-plugins", "Action plugins"),
    ("ansible_configuration_settings", "reference_appendices/config.html#ansible-configuration-settings",
     "Ansible Configuration Settings"),
    ("common_return_values", "reference_appendices/common_return_values.html#common-return-values",
     "Return Values"),
]
body = "".join("%s std:label -1 %s %s\n" % label for label in labels)
with open(sys.argv[1], "wb") as out:
    out.write(b"# Sphinx inventory version 2\n# Project: Ansible\n# Version: devel\n"
              b"# The remainder of this file is compressed using zlib.\n")
    out.write(zlib.compress(body.encode("utf-8")))
EOF
cat >> "$dest/conf.py" <<EOF

# Offline build (tools/build-docsite.sh): only the local inventory above.
intersphinx_mapping = {'ansible_devel': ('$ansible_docs', '../ansible_devel.inv')}
EOF

"$dest/build.sh"
