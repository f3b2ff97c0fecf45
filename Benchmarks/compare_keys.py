#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Two builds' key figures side by side in one run: `whole_process.keys` (KEYS keys) and
`whole_process.first_hearings` (6 fresh prompts) on BEFORE, then AFTER, ROUNDS times, so that both
see the same machine (docs/performance.md, "A key heard before is replayed").

Usage: compare_keys.py BEFORE AFTER [KEYS [ROUNDS]]   (PULSE_SERVER: a null sink, as for whole_process.py)
"""
import os
import sys

if len(sys.argv) < 3:
    raise SystemExit(__doc__.strip().splitlines()[-1])
before, after = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 2
sys.argv = [sys.argv[0], before]  # whole_process reads its binary from argv at import
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import whole_process  # noqa: E402

for round_number in range(1, rounds + 1):
    for name, binary in (("before", before), ("after", after)):
        whole_process.keys(count, binary, f" [{name}, round {round_number}]")
        whole_process.first_hearings(6, binary, f" [{name}, round {round_number}]")
