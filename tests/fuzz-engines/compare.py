#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""compare.py DIR -- the verdict of one fuzz batch (tests/fuzz-engines/fuzz.sh).

DIR holds gen.py's files and the engines' outputs:
  plugin.txt sparse.txt layout.txt   diagnostics of each engine
  plugin.json sparse.json            manifests (the layout each engine computed)
  truth.txt                          GCC's layout from offsetof/sizeof
Prints one line "DIFF UNIT WHAT" per difference (UNIT: the unit number, or
-1 for a batch-wide one) and exits 1 if there is any, else 0.
Compared: the findings of the three engines line for line (position, kind,
message) per unit; each manifest's struct size, alignment and every flattened
field's offset, size and bit position with GCC's; the layout tool's
binary-vs-manifest report (DWARF against the plugin) must be empty.
"""
import json
import os
import re
import sys

D = sys.argv[1]
diffs = []


def diff(unit, what):
    diffs.append((unit, what))


units, packed_units, mode_units = [], set(), set()
for line in open(D + "/units.txt"):
    k, a, b, *names = line.split()
    if names and names[0] == "P":     # a packed type in the unit
        packed_units.add(int(k))
        names = names[1:]
    if names and names[0] == "M":     # mode(M) on a member of enum type
        mode_units.add(int(k))
        names = names[1:]
    units.append((int(k), int(a), int(b), [n.replace("@", " ") for n in names]))


def unit_of_line(n):
    for k, a, b, _ in units:
        if a <= n <= b:
            return k
    return -1


def unit_of_type(t):
    m = re.match(r"(?:struct |union )?u(\d+)_", t)
    return int(m.group(1)) if m else -1


POS = re.compile(r"^(?:.*/)?fz\.c:(\d+):(\d+): (warning|note|error): (.*)$")


def diags(name):
    out = {}
    try:
        text = open("%s/%s.txt" % (D, name), errors="replace").read()
    except OSError:
        diff(-1, "%s: no output" % name)
        return out
    for line in text.splitlines():
        line = line.replace("\u2018", "'").replace("\u2019", "'")
        m = POS.match(line)
        if m and "[cachehot" not in line:
            continue     # the compiler's or sparse's own diagnostics
        if m:
            if re.search(r"note: in (definition|expansion) of macro", line):
                continue
            out.setdefault(unit_of_line(int(m.group(1))), set()).add(
                "%s:%s: %s: %s" % m.groups())
        elif re.search(r"(error|warning|internal compiler|Segmentation|signal|differs|not in the|matched no struct|names no member)",
                       line) and "fz.c:" not in line:
            diff(-1, "%s: %s" % (name, line))
    return out


P, S, L = diags("plugin"), diags("sparse"), diags("layout")
# Documented exceptions (docs/sparse.rst): a struct the sparse checker says
# it cannot lay out as GCC does is judged by the plugin and cachehot-layout
# only. Its findings are left out of the sparse comparison.
NOLAYOUT = re.compile(r"note: '((?:struct |union )?[A-Za-z_0-9]+)' has annotated fields, but "
                      r"sparse lays it out unlike GCC \(([^)]*)")
sparse_skip, skip_units = {}, set()
for k, lines in S.items():
    for x in list(lines):
        m = NOLAYOUT.search(x)
        if m:
            sparse_skip[m.group(1)] = m.group(2)
            skip_units.add(k)
            lines.discard(x)


def about_skipped(x, k):
    # padding-macro findings name the member, not the struct
    return any(("'%s'" % t) in x for t in sparse_skip) or \
        (k in skip_units and "[cachehot-padding-macro]" in x)


layout_exceptions = set()
for k in sorted(set(P) | set(S) | set(L)):
    p, s, l = P.get(k, set()), S.get(k, set()), L.get(k, set())
    if sparse_skip:
        s = {x for x in s if not about_skipped(x, k)}
        ps = {x for x in p if not about_skipped(x, k)}
    else:
        ps = p
    for x in sorted(ps - s):
        diff(k, "plugin only (not sparse): " + x)
    for x in sorted(s - ps):
        diff(k, "sparse only (not plugin): " + x)
    if k in packed_units and p != l:
        # documented (docs/layout.rst): DWARF records no 'packed', so the
        # alignment of a packed type whose members sit at natural offsets
        # (and what depends on it) is inferred wrong unless the manifest
        # has that struct
        layout_exceptions.add((k, "packed type, alignment not in DWARF"))
        continue
    if k in mode_units and p != l:
        # documented (docs/layout.rst): GCC's DWARF gives a member declared
        # 'enum e f __attribute__((mode(M)))' the enum's type and size
        layout_exceptions.add((k, "mode(M) on an enum member, its size not in DWARF"))
        continue
    for x in sorted(p - l):
        diff(k, "plugin only (not layout): " + x)
    for x in sorted(l - p):
        diff(k, "layout only (not plugin): " + x)

with open(D + "/exceptions.txt", "w") as fp:
    for t, why in sorted(sparse_skip.items()):
        fp.write("sparse: %s: %s\n" % (t, why.split(":")[0]))
    for k, why in sorted(layout_exceptions):
        fp.write("layout: unit %d: %s\n" % (k, why))

truth_t, truth_f = {}, {}
for line in open(D + "/truth.txt"):
    w = line.split()
    if w[0] == "T":
        truth_t[w[1].replace("@", " ")] = (int(w[2]), int(w[3]))
    else:
        truth_f[(w[1].replace("@", " "), w[2])] = tuple(int(x) for x in w[3:7])
skip = set()
for line in open(D + "/skip.txt"):
    t, p = line.split(" ", 1)
    skip.add((t.replace("@", " "), p.strip()))


def ctype_of(key):
    for cand in ("struct " + key, "union " + key, key):
        if cand in truth_t:
            return cand
    return None


mans = {}
for eng in ("plugin", "sparse"):
    try:
        mans[eng] = json.load(open("%s/%s.json" % (D, eng)))["structs"]
    except (OSError, ValueError, KeyError) as e:
        mans[eng] = {}
        if any(True for _ in open(D + "/units.txt")):
            diff(-1, "%s manifest unreadable: %s" % (eng, e))
for key in sorted(set(mans["plugin"]) ^ set(mans["sparse"])):
    if ctype_of(key) in sparse_skip:
        continue
    diff(unit_of_type(key), "struct %s in the %s manifest only" % (
        key, "plugin" if key in mans["plugin"] else "sparse"))
for eng, man in mans.items():
    for key, st in sorted(man.items()):
        t = ctype_of(key)
        k = unit_of_type(key)
        if not t:
            diff(k, "%s: manifest struct %s is no generated type" % (eng, key))
            continue
        size, align = truth_t[t]
        if st.get("size") != size or st.get("align") != align:
            diff(k, "%s: %s size %s align %s, gcc: size %d align %d" % (
                eng, t, st.get("size"), st.get("align"), size, align))
        for f in st.get("fields", []):
            name = f.get("name")
            got = (f.get("offset"), f.get("size"), f.get("bit_offset", 0), f.get("bit_size", 0))
            if (t, name) in skip:
                continue
            if (t, name) not in truth_f:
                diff(k, "%s: %s: field %s (offset %s, size %s) is no member" % (
                    eng, t, name, got[0], got[1]))
                continue
            want = truth_f[(t, name)]
            if got != want:
                diff(k, "%s: %s.%s at offset %s size %s bit %s:%s, gcc: offset %d size %d bit %d:%d"
                     % ((eng, t, name) + got + want))

try:
    for k, what in diffs:
        print("DIFF %d %s" % (k, what))
    sys.stdout.flush()
except BrokenPipeError:      # a reader that wanted the first line only
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
sys.exit(1 if diffs else 0)
