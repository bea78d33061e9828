#!/usr/bin/env python3
"""summary.py PROFILE: a profile as sorted text lines for tests/record/run.sh.
member S.M reads writes rmws reader_threads writer_threads rmw_threads
share64|share128 A B one|two false true   (the member pairs over every line;
                                          one or two objects)"""
import json, sys
d = json.load(open(sys.argv[1]))
out = []
for m in d["members"]:
    out.append("member %s.%s %d %d %d %d %d %d" % (m["struct"], m["member"], m["reads"], m["writes"],
               m["rmws"], m["reader_threads"], m["writer_threads"], m["rmw_threads"]))
for key, name in (("line64", "share64"), ("line128", "share128")):
    for s in d[key]["sharing"]:
        out.append("%s %s %s %s %d %d" % (name, s["a"], s["b"], s["objects"], s["false_sharing"],
                                          s["true_sharing"]))
print("\n".join(sorted(out)))
