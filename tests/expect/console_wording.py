#!/usr/bin/env python3
"""Counts wording errors in console texts a person reads; prints each and exits 1 when there is any.

Usage: console_wording.py [--tables] [--recorded REGEX] FILE...
A FILE ending in .cpp is a test source: its raw-string golden consoles (`kConsole... = R"(...)"`) are
checked. --tables: the files are the full view, whose per-rank tables may be wide, so the line-length
rule applies only to the check and verdict lines there. --recorded: lines matching REGEX show text a
saved run recorded in its JSON (older wording); they are not judged.
"""
import re
import sys

MAX_LINE = 160  # results/base/Format.hpp, kConsoleLineChars
NOUNS = ("rank|node|GPU|check|pair|round|figure|size|task|iteration|op|error|link|NVLink|measurement|device|"
         "run|time|process|step|sample|second|shape|sweep|launch|pass|other|phase|byte|communicator")
RULES = [
    ("plural after 1", re.compile(r"(?<![\d.])\b1 (?:more )?(?:%s)s\b" % NOUNS)),
    ("plural in parentheses", re.compile(r"[A-Za-z]\((?:s|es)\)")),
    ("doubled word", re.compile(r"\b([A-Za-z]{2,}) \1\b", re.IGNORECASE)),
    ("typographic quote", re.compile("[\u2018\u2019\u201c\u201d]")),
    ("rule that passes what it did not judge", re.compile(r"^\s+PASS\s.*\(not judged")),
]


def texts(path):
    """(name, text) of each console in `path`."""
    content = open(path, encoding="utf-8").read()
    if not path.endswith(".cpp"):
        return [(path, content)]
    found = re.findall(r'(kConsole\w*)\s*=\s*R"\((.*?)\)"', content, re.DOTALL)
    if not found:
        sys.exit(f"{path}: no golden console (kConsole... = R\"(...)\") found")
    return [(f"{path}:{name}", text) for name, text in found]


def errors(name, text, tables, recorded):
    section = ""
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("== "):
            section = line
        if recorded and recorded.search(line):
            continue
        for what, pattern in RULES:
            if pattern.search(line):
                yield f"{name}:{number}: {what}: {line.strip()[:120]}"
        judged_lines = section.startswith(("== Checks", "== Verdict")) or not tables
        if judged_lines and len(line) > MAX_LINE:
            yield f"{name}:{number}: line of {len(line)} characters (at most {MAX_LINE}): {line[:80]}..."


def main(argv):
    tables = "--tables" in argv
    argv = [a for a in argv if a != "--tables"]
    recorded = None
    if "--recorded" in argv:
        at = argv.index("--recorded")
        recorded = re.compile(argv[at + 1])
        del argv[at:at + 2]
    paths = argv
    if not paths:
        sys.exit(__doc__)
    found = [e for p in paths for name, text in texts(p) for e in errors(name, text, tables, recorded)]
    for e in found:
        print(e)
    print(f"console wording: {len(found)} errors in {len(paths)} files")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
