#!/usr/bin/env python3
"""Counts what a feature cost: every existing file its branch edited, over every commit that landed it.

A feature is named by the merge that brought it into main. Its commits are its branch's own (MERGE^1..MERGE^2,
merges left out), and a merge of another branch into it counts for what its resolution changed by hand (a file
unlike both its parents, `git diff-tree --cc`). A file the branch added is its own, counted apart. Edited files
are sorted into source (Sources/, Package.swift), tests, build (the Makefile, packaging/, Benchmarks/, CI),
generated (the man page, the completions, the .pot and the compiled catalogs) and docs (Markdown, po/).
Follow-ups that land on main after the merge are not counted: name their commits apart.

    scripts/feature-cost.py NAME=MERGE ...      e.g. scripts/feature-cost.py polkit=8fa32c4 touchwatch=48b02eb
"""
import re
import subprocess
import sys

GENERATED = re.compile(
    r"^(docs/otc-prompt\.1|docs/completions/|packaging/link-order\.txt|po/.*\.pot$"
    r"|Sources/OTCPromptCore/Wording/Catalogs?(\+\w+)?\.swift)"
)


def git(*arguments):
    return subprocess.run(["git", *arguments], capture_output=True, text=True, check=True).stdout


def kind(path):
    if GENERATED.search(path):
        return "generated"
    if path.endswith(".md") or path.startswith("docs/") or path.startswith("po/"):
        return "docs"
    if path.startswith("Tests/"):
        return "tests"
    if path.startswith("Sources/") or path == "Package.swift":
        return "source"
    return "build"


def landing(merge):
    added, touched, commits = set(), {}, 0
    for line in git("log", "--no-merges", "--format=format:@", "--name-status", f"{merge}^1..{merge}^2").splitlines():
        if line == "@":
            commits += 1
            continue
        if not line.strip():
            continue
        fields = line.split("\t")
        if fields[0].startswith("R"):
            added.add(fields[2])
            touched.setdefault(fields[1], "D")
            continue
        if fields[0] == "A":
            added.add(fields[1])
        touched.setdefault(fields[1], fields[0])
    for other in git("log", "--merges", "--format=%H", f"{merge}^1..{merge}^2").split():
        for path in git("diff-tree", "--cc", "--name-only", "-r", "--no-commit-id", other).split():
            touched.setdefault(path, "M")
    edited = sorted(path for path in touched if path not in added and touched[path] in ("M", "D"))
    return commits, edited, sorted(added)


def main():
    for argument in sys.argv[1:]:
        name, merge = argument.split("=", 1)
        commits, edited, added = landing(merge)
        groups = {}
        for path in edited:
            groups.setdefault(kind(path), []).append(path)
        counts = ", ".join(f"{group} {len(paths)}" for group, paths in sorted(groups.items()))
        print(f"{name} ({merge}, {commits} commits): {len(edited)} edited ({counts}); {len(added)} new files")
        for group, paths in sorted(groups.items()):
            print(f"  {group}: " + " ".join(paths))


if __name__ == "__main__":
    main()
