# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Print each product preset as the ``%anaconda`` section a kickstart would carry.

Imports the collection from ANSIBLE_COLLECTIONS_PATH (the installed copy that
``make`` builds), so the demo shows what a user of the tarball gets.
Usage: demo.py [OUTPUT_FILE]   (also writes the text there)
"""

import os
import sys

for path in reversed(os.environ.get("ANSIBLE_COLLECTIONS_PATH", "").split(os.pathsep)):
    if path:
        sys.path.insert(0, path)

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import policy  # noqa: E402

try:
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils.kickstart import render_section
except ImportError:  # kickstart.py (or pykickstart) not available: render from the policy model
    render_section = None


def section(product):
    if render_section is not None:
        return render_section(product=product)
    lines = policy.render_lines(policy.build_policies(product=product))
    return "%anaconda\n" + "".join(line + "\n" for line in lines) + "%end\n"


def main(argv):
    parts = []
    for product in policy.PRODUCTS:
        parts.append("# product: %s\n%s" % (product, section(product)))
    text = "\n".join(parts)
    sys.stdout.write(text)
    if len(argv) > 1:
        with open(argv[1], "w") as handle:
            handle.write(text)


if __name__ == "__main__":
    main(sys.argv)
