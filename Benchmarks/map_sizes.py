#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a statically linked otc-prompt is made of, from the linker's map (-Xlinker -Map=FILE):
the bytes of every input section kept in the binary, grouped by library or module, and the bytes
the linker makes itself (dynamic symbols, relocations, PLT). Sections that strip removes (debug
information, symbol tables) are not counted, so the total is close to the stripped binary.

Usage: map_sizes.py MAP   (docs/performance.md, "What the static binary is made of", shows how to make MAP)
"""
import collections
import os
import re
import sys

# Output sections that are not loaded and that strip removes.
UNLOADED = re.compile(r"^\.(debug|comment|note\.gnu\.gold|symtab|strtab|shstrtab|swift_modhash|bss|tbss)")


def group(path):
    """A library or module name for an input file."""
    if "(" in path:  # an archive member: /path/libswiftCore.a(Swift.o)
        archive = os.path.basename(path.split("(")[0])
        return re.sub(r"^lib|\.a$", "", archive)
    match = re.search(r"/([^/]+)\.build/", path)
    if match:
        return match.group(1)
    return os.path.basename(path)


def sizes(lines):
    """Bytes per group; `(linker: .section)` for what the linker makes itself (`** ...` entries)."""
    totals = collections.Counter()
    in_map = False
    output = None
    pending = ""
    for line in lines:
        if line.startswith("Memory map"):
            in_map = True
            continue
        if not in_map or not line.strip():
            continue
        if not line.startswith(" "):
            output = line.split()[0]
            continue
        line = pending + line.rstrip("\n")
        fields = line.split()
        numbers = [field for field in fields if field.startswith("0x")]
        if not numbers:  # a long name: its address, size and file are on the next line
            pending = line + " "
            continue
        pending = ""
        if UNLOADED.match(output or "") or len(numbers) < 2:
            continue  # a symbol's address line, or a section strip removes
        if fields[0] == "**":
            totals[f"(linker: {output})"] += int(numbers[1], 16)
        elif len(fields) >= 4 and fields[1] == numbers[0] and fields[2] == numbers[1]:
            totals[group(" ".join(fields[3:]))] += int(numbers[1], 16)
    return totals


if __name__ == "__main__":
    with open(sys.argv[1], errors="replace") as file:
        totals = sizes(file)
    whole = sum(totals.values())
    print("| part | bytes | MB | share |\n| --- | ---: | ---: | ---: |")
    for name, size in totals.most_common():
        if size >= 20_000:
            print(f"| {name} | {size:,} | {size / 1e6:.2f} | {100 * size / whole:.1f} % |")
    rest = sum(size for size in totals.values() if size < 20_000)
    print(f"| everything under 20 kB | {rest:,} | {rest / 1e6:.2f} | {100 * rest / whole:.1f} % |")
    print(f"| **total** | {whole:,} | {whole / 1e6:.2f} | |")
