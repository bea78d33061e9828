#!/usr/bin/env python3
# kernel/annotate-compare.py TRUTH INFERRED [VERDICTS] -- compare a cachehot
# annotate sidecar with the kernel's own placements
# (kernel/annotate-truth-6.1.txt): agreements, misses, disagreements, and the
# extra suggestions in the truth's structs; precision and recall over those
# structs. With VERDICTS (kernel/annotate-verdicts-6.1.txt: each extra
# suggestion judged by reading the source, per class), every extra carries its
# verdict and precision is (agree + true extras) / suggestions; an extra
# without a verdict is listed as "unjudged" and counted as false. Markdown on
# stdout.
import sys
def load(path, truth):
    d = {}
    for line in open(path):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        if truth:
            entry, rest = line.split(" ", 1)
            cls, why = (rest.split("\t", 1) + [""])[:2]
        else:
            body, _, why = line.partition("#")
            entry, cls = body.split()
            why = why.strip()
        d[entry] = (cls.split(":")[0].replace("exclusive", "hot"), cls, why)
    return d
truth, inf = load(sys.argv[1], True), load(sys.argv[2], False)
verdicts = {}
if len(sys.argv) > 3:
    for line in open(sys.argv[3]):
        if not line.strip() or line.startswith("#"):
            continue
        head, _, why = line.rstrip("\n").partition("\t")
        entry, cls, v = head.split()
        verdicts[(entry, cls)] = (v, why)
structs = sorted({e.split(".")[0] for e in truth})
agree = [e for e in truth if e in inf and inf[e][0] == truth[e][0]]
wrong = [e for e in truth if e in inf and inf[e][0] != truth[e][0]]
miss = [e for e in truth if e not in inf]
extra = sorted(e for e in inf if e.split(".")[0] in structs and e not in truth)
print("| struct.field | kernel | inferred | |")
print("|---|---|---|---|")
for e in sorted(truth, key=lambda x: (x.split(".")[0], list(truth).index(x))):
    got = inf[e][1] if e in inf else "-"
    v = "agree" if e in agree else ("**disagree**" if e in wrong else "miss")
    print("| %s | %s | %s | %s |" % (e, truth[e][1], got, v))
print()
print("Extra suggestions in these structs:")
print()
tp = fp = unjudged = 0
for e in extra:
    v = verdicts.get((e, inf[e][0]))
    if verdicts:
        tp += bool(v and v[0] == "TP")
        fp += bool(v and v[0] == "FP")
        unjudged += not v
    print("- `%s %s`%s: %s" % (e, inf[e][1], (" **%s** (%s)" % v) if v else
                                (" **unjudged**" if verdicts else ""), inf[e][2]))
n_sugg = len(agree) + len(wrong) + len(extra)
print()
print("agree %d, disagree %d, miss %d, extra %d (of %d kernel entries, %d suggestions in %d structs)"
      % (len(agree), len(wrong), len(miss), len(extra), len(truth), n_sugg, len(structs)))
print("recall %.2f (agree / kernel entries); precision before verdicts %.2f (agree / suggestions)"
      % (len(agree) / len(truth), len(agree) / n_sugg if n_sugg else 0))
if verdicts:
    print()
    print("| struct | kernel entries | agree / disagree / miss | extra TP / FP | recall | precision |")
    print("|---|---|---|---|---|---|")
    for st in structs:
        t = [e for e in truth if e.startswith(st + ".")]
        a = [e for e in agree if e.startswith(st + ".")]
        w = [e for e in wrong if e.startswith(st + ".")]
        x = [e for e in extra if e.startswith(st + ".")]
        xt = [e for e in x if verdicts.get((e, inf[e][0]), ("",))[0] == "TP"]
        n = len(a) + len(w) + len(x)
        print("| %s | %d | %d / %d / %d | %d / %d | %.2f | %s |"
              % (st, len(t), len(a), len(w), len(t) - len(a) - len(w), len(xt), len(x) - len(xt),
                 len(a) / len(t), "%.2f (%d/%d)" % ((len(a) + len(xt)) / n, len(a) + len(xt), n) if n else "-"))
    print()
    print("extra TP %d, FP %d, unjudged %d; precision %.2f ((agree + TP) / suggestions, %d/%d)"
          % (tp, fp, unjudged, (len(agree) + tp) / n_sugg if n_sugg else 0, len(agree) + tp, n_sugg))
