#!/usr/bin/env python3
# flatten.py ACCESS.json -- one line per (struct, path, function) with its
# nonzero counts, and one per function with its flags, sorted: the form the
# fixtures' "facts:" blocks are written in.
import json, sys
d = json.load(open(sys.argv[1]))
out = []
for st, fields in d["structs"].items():
    for path, f in fields.items():
        for fn, c in f["functions"].items():
            ks = ",".join("%s=%d" % (k, c[k]) for k in ("load", "store", "rmw", "marked_load", "marked_store") if c[k])
            out.append("%s %s %s %s" % (st, path, fn, ks))
for fn, f in d["functions"].items():
    if f.get("file") is None:
        continue
    out.append("fn %s static=%d inline=%d init=%d exit=%d cold=%d callers=%s" % (fn, f["static"], f["inline"], f["init"], f["exit"], f["cold"], ",".join(sorted(f["callers"]))))
print("\n".join(sorted(out)))
