#!/usr/bin/env python3
"""kernel/groups-pahole.py GROUPS.json -- cross-check every group of
`cachehot-layout --groups --json` against pahole: the offsets of the
__cacheline_group_begin__G / __cacheline_group_end__G members pahole prints
for the same struct in the same input. Prints one line per struct and a
total; exit 1 on any difference."""
import json, re, subprocess, sys

rows = json.load(open(sys.argv[1]))
bad = total = 0
for s in rows:
    out = subprocess.run(["pahole", "-C", s["struct"], s["input"]], capture_output=True,
                         text=True).stdout
    marks = {}
    for m in re.finditer(r"__cacheline_group_(begin|end)__(\w+)\[\d*\][^;]*;\s*/\*\s*(\d+)\s+0\s*\*/", out):
        marks[(m.group(1), m.group(2))] = int(m.group(3))
    diffs = []
    for g in s["groups"]:
        total += 1
        pb, pe = marks.get(("begin", g["name"])), marks.get(("end", g["name"]))
        if (pb, pe) != (g["begin"], g["end"]):
            diffs.append("%s: cachehot %d..%d, pahole %s..%s" % (g["name"], g["begin"], g["end"], pb, pe))
    bad += len(diffs)
    print("%-14s %2d groups %s" % (s["struct"], len(s["groups"]),
                                   "agree with pahole" if not diffs else "DIFFER: " + "; ".join(diffs)))
print("%d groups, %d differ from pahole" % (total, bad))
sys.exit(1 if bad else 0)
