# SPDX-License-Identifier: GPL-3.0-or-later
"""The kernel the boot tests build their initrds for, and the private view of the machine they build them in.

The kernel is Debian's linux-image-amd64 fetched with `apt-get download` and unpacked into a cache, never installed
(its postinst would write an initramfs into the host's /boot). Initrd builders (mkinitramfs, dracut) read the kernel
they build for at fixed paths: /lib/modules/VERSION and /boot/config-VERSION. `run_private` runs a builder in a mount
namespace of its own where those paths show the unpacked package and nothing of the host's: the host's /boot and
/lib/modules are covered by empty tmpfs mounts, whether or not a kernel package was ever installed there. Where
/lib/modules does not exist (a machine that never had a kernel), the directory above it gets a private overlay with
an empty upper layer, so that the mount point can be made without writing to the host and without hiding the
libraries the builders need. The host's /etc/crypttab, which the initramfs hooks read, is seen empty. Nothing of
the host's /boot, /lib/modules or /etc is created, changed or removed. Needs root (unshare, mount)."""
import os
import shutil
import subprocess
import tempfile

# The shell that runs inside the namespace: $1 the version, $2 the unpacked tree, $3 a scratch directory of the
# caller's for the overlay's layers; then the command. /lib is usr/lib on Debian 12 (merged /usr).
PRIVATE_KERNEL_PATHS = r'''
set -eu
version=$1 tree=$2 scratch=$3
shift 3
modules=$(readlink -f /lib)/modules
mount -t tmpfs -o mode=0755,size=1m boot-test-scratch "$scratch"
if [ ! -d "$modules" ]; then
    mkdir "$scratch/upper" "$scratch/work"
    mount -t overlay boot-test-lib -o "lowerdir=${modules%/*},upperdir=$scratch/upper,workdir=$scratch/work" \
        "${modules%/*}"
    mkdir "$modules"
fi
mount -t tmpfs -o mode=0755 boot-test-modules "$modules"
mkdir "$modules/$version"
mount --bind "$tree/lib/modules/$version" "$modules/$version"
[ -d /boot ] || { echo "boot-test: no /boot on this machine (Debian's base-files makes it)" >&2; exit 1; }
mount -t tmpfs -o mode=0755 boot-test-boot /boot
for file in "$tree/boot/"*; do
    : >"/boot/${file##*/}"
    mount --bind "$file" "/boot/${file##*/}"
done
# The host's own disks are none of the image's business: mkinitramfs's cryptroot hook and the project's hook read
# /etc/crypttab, which holds the machine's volumes, not the test's.
if [ -e /etc/crypttab ]; then
    : >"$scratch/crypttab"
    mount --bind "$scratch/crypttab" /etc/crypttab
fi
exec "$@"
'''


def run(*command, **options):
    return subprocess.run(command, check=True, **options)


def fetch(cache):
    """The version linux-image-amd64 names and the directory it is unpacked in (with its module index), made once
    under CACHE."""
    # Asked of apt's lists, not of dpkg: the metapackage is never installed here.
    shown = subprocess.run(["apt-cache", "show", "--no-all-versions", "linux-image-amd64"],
                           check=True, capture_output=True, text=True).stdout
    depends = next(line for line in shown.splitlines() if line.startswith("Depends:"))
    package = depends.removeprefix("Depends:").split()[0].rstrip(",")
    version = package.removeprefix("linux-image-")
    tree = os.path.join(cache, "kernel-" + version)
    if not os.path.exists(os.path.join(tree, "lib/modules", version, "modules.dep")):
        downloads = os.path.join(cache, "cache")
        os.makedirs(downloads, exist_ok=True)
        debs = [f for f in os.listdir(downloads) if f.startswith(package + "_")]
        if not debs:
            run("apt-get", "download", package, cwd=downloads)
            debs = [f for f in os.listdir(downloads) if f.startswith(package + "_")]
        shutil.rmtree(tree, ignore_errors=True)
        run("dpkg-deb", "-x", os.path.join(downloads, debs[0]), tree)
        run("depmod", "-b", tree, version)
    return version, tree


def run_private(version, tree, command, **options):
    """Runs COMMAND where /lib/modules/VERSION and /boot hold the unpacked kernel's files, and nothing else of
    either is seen."""
    scratch = tempfile.mkdtemp(prefix="otc-boot-kernel.")
    try:
        return run("unshare", "--mount", "--propagation", "private", "sh", "-c", PRIVATE_KERNEL_PATHS, "sh",
                   version, tree, scratch, *command, **options)
    finally:
        os.rmdir(scratch)
