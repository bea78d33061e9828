#!/usr/bin/env python3
# flatten.py ACCESS.json -- one line per (struct, path, function) with its
# nonzero counts and the addresses it passed ("passed:CALLEE/ARG=n"), one per
# function with its flags, and one per pointer parameter with what the
# function does through it ("param FN IDX kinds") and where it hands it on
# ("pass FN IDX TARGET=n,..."), sorted: the form the fixtures' "facts:"
# blocks are written in.
import json, sys
KINDS = ("load", "store", "rmw", "marked_load", "marked_store", "update", "unlikely_write", "unlikely_read")
d = json.load(open(sys.argv[1]))
out = []
for st, fields in d["structs"].items():
    for path, f in fields.items():
        for fn, c in f["functions"].items():
            ks = [("%s=%d" % (k, c[k])) for k in KINDS + ("owned", "owned_write", "owned_update") if c.get(k, 0)]
            ks += ["passed:%s=%d" % (t, n) for t, n in sorted(c.get("passed", {}).items())]
            ks += ["passed_unlikely:%s=%d" % (t, n) for t, n in sorted(c.get("passed_unlikely", {}).items())]
            out.append("%s %s %s %s" % (st, path, fn, ",".join(ks)))
        if f.get("owned_via"):
            out.append("%s %s owned-via %s" % (st, path, ",".join("%s=%d" % kv for kv in sorted(f["owned_via"].items()))))
for fn, f in d["functions"].items():
    if f.get("file") is None:
        continue
    extra = ""
    for k in ("slow_root",):
        if k in f:
            extra += " %s=%s" % (k, f[k])
    for k in ("address_taken", "creates_thread", "joins_thread"):
        if f.get(k):
            extra += " " + k
    if "main_calls" in f:
        extra += " main_calls=" + ",".join("%s:%d-%d" % (c, v[0], v[1]) for c, v in sorted(f["main_calls"].items()))
    out.append("fn %s static=%d inline=%d init=%d exit=%d cold=%d callers=%s%s%s" % (fn, f["static"], f["inline"], f["init"], f["exit"], f["cold"], ",".join(sorted(f["callers"])), (" unlikely_callers=" + ",".join(f["unlikely_callers"])) if f.get("unlikely_callers") else "", extra))
    for idx, c in f.get("params", {}).items():
        out.append("param %s %s %s" % (fn, idx, ",".join("%s=%d" % (k, c[k]) for k in KINDS if c[k])))
    for idx, t in f.get("passes", {}).items():
        out.append("pass %s %s %s" % (fn, idx, ",".join("%s=%d" % kv for kv in sorted(t.items()))))
print("\n".join(sorted(out)))
