#!/usr/bin/env python3
"""Sums the fixed sleeps written in the tests and their harnesses.

A fixed sleep is a pause of a set length outside any loop: the test waits for time
instead of for an event. A sleep inside a `while`/`repeat` body is a poll
interval of an event wait (it ends when the event comes) and is counted apart; one in a `for` loop
over keys paces typing and is fixed. `waitPastTheGrace()` and the login harness's
`reactionTime` (the program's type-ahead grace, a rule of the program rather than a guess) are
counted apart too.
Each sleep is counted once, where it is written (a helper called ten times counts once).

    scripts/fixed-sleeps.py [--list]
"""
import re
import sys
from pathlib import Path

ROOTS = ["Tests", "Sources/OTCPromptTestSupport"]
SLEEP = re.compile(
    r"\b(?:usleep\((?P<us>[0-9_]+)\)"
    r"|(?:pause|ShellAfterPrompt\.pause)\(\.(?P<unit>milliseconds|seconds)\((?P<n>[0-9_.]+)\)\)"
    r"|(?:pause)\((?P<named>[A-Za-z.]+)\))"
)
# A `while` or `repeat` loop ends on its condition: a sleep in it is the poll interval of an event wait.
# A `for` loop over keys paces them: its sleep is fixed, counted once where it is written.
LOOP = re.compile(r"^\s*(?:\}\s*)?(?:while|repeat)\b|\brepeat\s*\{|\bwhile\b.*\{|\bfor _ in 0\.\.<.*\bwhere\b")
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
NAMED = re.compile(r"static let (\w+)\s*(?::\s*Duration)?\s*=\s*Duration\.milliseconds\(([0-9_]+)\)|static let (\w+)\s*(?::\s*Duration)?\s*=\s*\.milliseconds\(([0-9_]+)\)")


def seconds(match, constants):
    if match.group("us"):
        return int(match.group("us").replace("_", "")) / 1e6
    if match.group("unit"):
        n = float(match.group("n").replace("_", ""))
        return n / 1000 if match.group("unit") == "milliseconds" else n
    return constants.get(match.group("named").split(".")[-1])


def main():
    files = [p for root in ROOTS for p in sorted(Path(root).rglob("*.swift"))]
    constants = {}
    for path in files:
        for m in NAMED.finditer(path.read_text()):
            name, value = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            constants[name] = int(value.replace("_", "")) / 1000
    fixed, polls, unknown, graces, windows = [], [], [], [], []
    for path in files:
        stack = []  # True for a loop body
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = STRING.sub('""', line.split("//")[0])
            if line.rstrip().endswith("// measured interval"):
                # A window in which nothing may happen (an idle program's wakes counted): what the test measures,
                # not a wait for an event that could come sooner.
                windows.append(f"{path}:{number}")
                continue
            if ("waitPastTheGrace()" in code or "pause(ClientRun.reactionTime)" in code
                    or "pause(Self.reactionTime)" in code) and "func " not in code:
                graces.append(f"{path}:{number}")
            for m in SLEEP.finditer(code):
                if "func pause" in code or "reactionTime" in m.group(0):
                    continue
                inside = any(stack) or bool(LOOP.search(code))
                value = seconds(m, constants)
                entry = (f"{path}:{number}", value, line.strip())
                if value is None:
                    unknown.append(entry)
                else:
                    (polls if inside else fixed).append(entry)
            opens_loop = bool(LOOP.search(code))
            for ch in code:
                if ch == "{":
                    stack.append(opens_loop)
                    opens_loop = False
                elif ch == "}" and stack:
                    stack.pop()
    if "--list" in sys.argv:
        for where, value, text in fixed:
            print(f"fixed {value:6.3f}s  {where}  {text}")
        for where, value, text in polls:
            print(f"poll  {value:6.3f}s  {where}  {text}")
        for where, value, text in unknown:
            print(f"?              {where}  {text}")
    print(f"fixed sleeps: {len(fixed)} totalling {sum(v for _, v, _ in fixed):.2f} s")
    print(f"poll intervals inside event waits: {len(polls)}")
    print(f"waits for the type-ahead grace (300 ms each, a rule of the program): {len(graces)}")
    if windows:
        print(f"measured intervals (a window in which nothing may happen): {len(windows)}: {', '.join(windows)}")
    if unknown:
        print(f"sleeps of a computed length (not summed): {len(unknown)}")


if __name__ == "__main__":
    main()
