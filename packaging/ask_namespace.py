# SPDX-License-Identifier: GPL-3.0-or-later
"""The password agents' system directory, private: the calling script runs itself again in a mount namespace of its
own with a fresh tmpfs on DIRECTORY, so that no other agent sees its requests, no other program's request reaches
it, and the machine's directory is never written. Used by packaging/agent-check.py and Benchmarks/agent.py. Needs
root (unshare, mount)."""
import os
import subprocess
import sys


def enter(directory, mark, label, size):
    """Returns inside the namespace, DIRECTORY a fresh tmpfs; outside it, runs the script again there and exits with
    its status (DIRECTORY made for the mount point when missing, and removed after)."""
    if os.environ.get(mark) != "1":
        created = not os.path.isdir(directory)
        if created:
            os.makedirs(directory, mode=0o755)
        status = subprocess.run(["unshare", "--mount", "--propagation", "private", sys.executable, *sys.argv],
                                env=dict(os.environ, **{mark: "1"})).returncode
        if created:
            os.rmdir(directory)
        sys.exit(status)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"mode=0755,size={size}", label, directory], check=True)
