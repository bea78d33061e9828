#!/usr/bin/env python3
# bench/cocci-merge.py OUT RULE.cocci... -- merge Coccinelle rules into one
# semantic patch so that spatch parses each C file once for all of them
# (used by bench/cocci and "make cocci-kernel"). The "virtual" lines of all
# rules are merged into one header; everything else is copied in order.
# Errors: exit 1 with a message when two files name the same rule (spatch
# would refuse the merged file) or a file cannot be read; OUT is written to
# a temporary name and renamed, never left half-written. The rules' "//
# Options:" lines (spatch options, which coccicheck reads with grep) must
# agree: the merged file carries the one line once, at its top, and exit 1
# names the files whose options differ. cocci/all/cachehot.cocci is this
# script's output over cocci/*.cocci (make cocci-merged; tests/cocci checks
# that it is current).
import os, re, sys

def main():
    if len(sys.argv) < 3:
        sys.exit("usage: cocci-merge.py OUT RULE.cocci...")
    out, rules = sys.argv[1], sys.argv[2:]
    virtuals, bodies, names, options = [], [], {}, {}
    for path in rules:
        try:
            text = open(path).read()
        except OSError as e:
            sys.exit("cocci-merge.py: %s" % e)
        body = []
        for line in text.splitlines(True):
            o = re.match(r"^// Options:(.*)$", line)
            if o:
                options[path] = o.group(1).strip()
                continue
            m = re.match(r"^virtual\s+(.*)$", line)
            if m:
                for v in re.split(r"[\s,]+", m.group(1).strip()):
                    if v and v not in virtuals:
                        virtuals.append(v)
                continue
            body.append(line)
        # rule names: @name ...@ and @script:python name ...@
        for m in re.finditer(r"(?m)^@([^@\n]*)@", text):
            toks = m.group(1).split()
            if toks and re.match(r"^(script|initialize|finalize):", toks[0]):
                toks = toks[1:]
            if not toks or toks[0] == "depends":
                continue
            n = toks[0]
            if n in names and names[n] != path:
                sys.exit("cocci-merge.py: rule name '%s' is used by %s and %s" % (n, names[n], path))
            names[n] = path
        bodies.append("// ---- %s\n" % path + "".join(body))
    if len(set(options.values())) > 1:
        sys.exit("cocci-merge.py: the rules' // Options: lines differ: %s" %
                 "; ".join("%s: '%s'" % (p, o) for p, o in options.items()))
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write("// Merged by bench/cocci-merge.py from: %s\n" % " ".join(os.path.basename(r) for r in rules))
        if options:
            f.write("// Options: %s\n" % list(options.values())[0])
        for v in virtuals:
            f.write("virtual %s\n" % v)
        f.write("\n")
        f.write("\n".join(bodies))
    os.rename(tmp, out)

main()
