# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Stand-in for the pip bootstrap script ansible-test downloads.

``ansible-test sanity`` creates a virtualenv per test and fills it with pip
by running ``get-pip-<version>.py`` from ci-files.testing.ansible.com, cached
as ``~/.ansible/test/cache/get_pip_<version>.py``.  Where that host is out of
reach, ``tools/seed-get-pip.sh`` puts this file in the cache instead: it
bootstraps pip with the interpreter's own ``ensurepip`` and then lets that pip
install what ansible-test asked for (for example ``pip==24.2``) from the
configured package index.  get-pip.py's own flags that pip does not know
(``--no-setuptools``, ``--no-wheel``) are dropped.
"""

import subprocess
import sys

GET_PIP_ONLY = {"--no-setuptools", "--no-wheel"}


def main(argv):
    subprocess.check_call([sys.executable, "-m", "ensurepip", "--upgrade", "--default-pip"],
                          stdout=subprocess.DEVNULL)
    args = [arg for arg in argv if arg not in GET_PIP_ONLY]
    if any(not arg.startswith("-") for arg in args):
        subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet"] + args)


if __name__ == "__main__":
    main(sys.argv[1:])
