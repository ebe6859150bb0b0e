#!/usr/bin/env python3
"""Hand lists of phases: files that name several phases where the registry should be read instead.

The registry (results/base/PhaseRegistry.def) is the one list of phases; every layer builds its
tables from it, and each phase's own pieces live in files of that phase. A source file outside the
registry and the phase folders (phases/NAME/, with its running half run/) that names LIST_SIZE or more
different phases is a hand list: adding a phase would mean editing it. A phase is named by its string
literal ("burn"), its constant (phase::burn) or a RunReport member of that name (report.burn, r.burn,
RunReport::burn). Comments are skipped.
Files not yet turned over to the registry are pinned in KNOWN_LISTS, which may only shrink: a new
list, or a pinned file that no longer is one (unpin it), fails.
  phase_lists.py [SOURCE_DIR]     prints every finding and exits 1 on any
"""
import os
import re
import sys

LIST_SIZE = 3
LAYERS = ("harness", "probes", "collectives", "workloads", "results", "judge", "launch", "phases")
SOURCE_SUFFIXES = (".hpp", ".cpp", ".cu", ".cuh", ".def", ".inl")
REGISTRY = "results/base/PhaseRegistry.def"
PHASE_FOLDERS = ("phases/",)
# Files that still list phases by hand, each with what it lists. Remove one when it reads the registry.
KNOWN_LISTS = {
}


def registered_phases(root):
    with open(os.path.join(root, REGISTRY), encoding="utf-8") as f:
        return re.findall(r"^GPUSCALE_PHASE\(([a-z0-9_]+)[,)]", f.read(), re.M)


def without_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def phases_named(text, phases):
    named = []
    for p in phases:
        ways = (r'"%s"' % p, r"\bphase::%s\b" % p, r"\b(?:report|r|run)\s*(?:\.|->)\s*%s\b" % p,
                r"\bRunReport::%s\b" % p)
        if any(re.search(w, text) for w in ways):
            named.append(p)
    return named


def hand_lists(root):
    phases = registered_phases(root)
    found = {}
    for layer in LAYERS:
        for folder, _, files in os.walk(os.path.join(root, layer)):
            for name in sorted(files):
                path = os.path.relpath(os.path.join(folder, name), root)
                if not name.endswith(SOURCE_SUFFIXES) or path == REGISTRY or path.startswith(PHASE_FOLDERS):
                    continue
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                    named = phases_named(without_comments(f.read()), phases)
                if len(named) >= LIST_SIZE:
                    found[path] = named
    return phases, found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    phases, found = hand_lists(root)
    problems = []
    if len(phases) < LIST_SIZE:
        problems.append("%s registers %d phases; a list needs %d" % (REGISTRY, len(phases), LIST_SIZE))
    for path, named in sorted(found.items()):
        if path not in KNOWN_LISTS:
            problems.append("%s lists phases by hand (%s): build it from %s" % (path, ", ".join(named), REGISTRY))
    for path in sorted(KNOWN_LISTS):
        if path not in found:
            problems.append("%s no longer lists phases: remove it from KNOWN_LISTS" % path)
    for p in problems:
        print(p)
    print("%d files list phases by hand, %d of them pinned" % (len(found), len(KNOWN_LISTS)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
