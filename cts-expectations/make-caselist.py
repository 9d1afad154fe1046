#!/usr/bin/env python3
"""Writes a caselist (one test name per line) of the tests under given group prefixes.

Sources are text files in any of the forms the CTS produces:
  - a mustpass list: one test name per line (external/vulkancts/mustpass/main/vk-default/*.txt);
  - a mustpass index whose lines name other lists (vk-default.txt), read relative to the index;
  - deqp-vk's own dump, `deqp-vk --deqp-runmode=txt-caselist` (`TEST: name` / `GROUP: name` lines).
Tests keep the order of the sources; duplicates are dropped. The output can be given to
run-cts.py --caselist, or to deqp-vk --deqp-caselist-file directly.

A dump lists every test of the binary, including those the mustpass leaves out: pass the mustpass
exclusion lists (external/vulkancts/mustpass/main/src/{excluded-tests,test-issues,android-tests}.txt,
names or '*' globs) with --exclude to get the mustpass selection.

Example:
  make-caselist.py /path/to/vk-default.txt -p dEQP-VK.info dEQP-VK.api.smoke -o caselists/x.txt
"""

import argparse
import fnmatch
import sys
from pathlib import Path


def tests_in(source, seen_files=()):
    """Yields the test names of one source file, following index lines that name .txt files."""
    source = Path(source)
    if source.resolve() in seen_files:
        raise ValueError(f"{source} includes itself")
    if not source.is_file():
        raise ValueError(f"{source} does not exist" +
                         (f" (listed in {seen_files[-1]})" if seen_files else ""))
    for line in source.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("GROUP: "):
            continue
        if line.startswith("TEST: "):
            yield line[len("TEST: "):].strip()
        elif line.endswith(".txt"):
            yield from tests_in(source.parent / line, seen_files + (source.resolve(),))
        else:
            yield line


def read_exclusions(paths):
    """The name globs of mustpass exclusion files ('#' comments, '*' matches anything)."""
    globs = []
    for path in paths:
        for line in Path(path).read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                globs.append(line)
    return globs


def group_of(test, groups):
    """The first of `groups` containing `test`, or None. Groups are given as 'a.b', 'a.b.' or
    'a.b.*', all meaning the group a.b (and a test named exactly a.b), never a sibling like a.bc."""
    for group in groups:
        name = group.rstrip("*").rstrip(".")
        if test == name or test.startswith(name + "."):
            return group
    return None


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sources", nargs="+", type=Path, help="mustpass lists, indexes or dumps")
    parser.add_argument("-p", "--prefix", nargs="+", required=True, dest="prefixes",
                        help="test groups to keep, e.g. dEQP-VK.api.smoke")
    parser.add_argument("-x", "--exclude", type=Path, action="append", default=[],
                        help="mustpass exclusion list (names or '*' globs); repeatable")
    parser.add_argument("-o", "--output", type=Path, help="caselist to write (default: stdout)")
    args = parser.parse_args(argv)

    selected = {}
    counts = dict.fromkeys(args.prefixes, 0)
    try:
        excluded = read_exclusions(args.exclude)
        for source in args.sources:
            for test in tests_in(source):
                group = group_of(test, args.prefixes)
                if group is None or test in selected:
                    continue
                if any(fnmatch.fnmatchcase(test, glob) for glob in excluded):
                    continue
                selected[test] = None
                counts[group] += 1
    except (OSError, ValueError) as error:
        print(f"make-caselist: {error}", file=sys.stderr)
        return 2
    for group, count in counts.items():
        print(f"{group}: {count} tests", file=sys.stderr)
    empty = [group for group, count in counts.items() if count == 0]
    if empty:
        # Usually a typo or a source that lacks the group: better no caselist than a silent hole.
        print(f"make-caselist: no test in {' '.join(empty)}; nothing written", file=sys.stderr)
        return 1
    text = "".join(f"{test}\n" for test in selected)
    if args.output:
        args.output.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
