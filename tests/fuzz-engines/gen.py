#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""gen.py -- seeded generator of random, valid C struct definitions for the
engine-agreement fuzzer (tests/fuzz-engines/fuzz.sh, docs/reliability.md).

  gen.py --seed S --count N --dir D [--only K] [--drop K:PATH,...]

writes into D:
  fz.c      N units u<K>: a top-level struct each (plus the named types it
            nests), annotated by attribute or, per unit, by sidecar entry;
            a batch-wide line-size prelude (SMP_CACHE_BYTES / L1_CACHE_BYTES)
  fz.ann    the sidecar entries of the sidecar-annotated units
  truth.c   a program printing GCC's own layout of every named type:
            "T TYPE SIZE ALIGN" and "F TYPE PATH OFFSET SIZE BITOFF BITS"
            (offsetof/sizeof; bit-fields found by setting their bits in a
            zeroed object; flexible arrays: SIZE is one element)
  units.txt "K FIRSTLINE LASTLINE TYPE..." per unit, for reporting
  skip.txt  flattened paths the truth cannot name (anonymous aggregates)

Same seed, same files (Python's Mersenne Twister with an integer seed).
--only K renders unit K alone (the reducer); --drop removes members of unit K
by their index path ("3", "3.1": member 1 of member 3's aggregate) before
rendering, which is how fuzz.sh reduces a failing struct.
Covered: bit-fields of every integer type and _Bool (named, unnamed, :0),
packed, #pragma pack(N), aligned (struct and member), vector_size, nested
named / anonymous structs and unions, typedefs, arrays (of aggregates too,
zero-length, flexible, and >= 2^28 bytes), CACHELINE_PADDING, hot groups,
enums of every size (values needing 1, 2, 4 or 8 bytes, signed or not):
plain, packed (after the body, before the tag, typedef'd), mode(M) on the
enum or on a member, aligned with and without packed; enum members,
enum bit-fields.
"""
import argparse
import os
import random

INTS = ["char", "signed char", "unsigned char", "short", "unsigned short", "int",
        "unsigned int", "long", "unsigned long", "long long", "unsigned long long"]
BITS = {"char": 8, "signed char": 8, "unsigned char": 8, "short": 16, "unsigned short": 16,
        "int": 32, "unsigned int": 32, "long": 64, "unsigned long": 64, "long long": 64,
        "unsigned long long": 64, "_Bool": 1}
SCALARS = INTS + ["_Bool", "void *", "double", "float", "u32_t", "ulong_t"]
CLASSES = ["hot", "read_mostly", "exclusive", "hotg"]
PRELUDES = [
    # (text, line size) -- the line size every engine must pick
    ("", 64),
    ("#define SMP_CACHE_BYTES 64\n", 64),
    ("#define L1_CACHE_SHIFT 7\n#define L1_CACHE_BYTES (1 << L1_CACHE_SHIFT)\n"
     "#define SMP_CACHE_BYTES L1_CACHE_BYTES\n", 128),
    ("#define SMP_CACHE_BYTES 128\n", 128),
    ("#define L1_CACHE_BYTES 32\n", 32),
]


class Field:
    def __init__(self, kind, name=None, ctype=None, agg=None, count=1, bits=0):
        self.kind = kind        # scalar bitfield anonbf vector array flex zero agg anonagg pad
        self.name = name
        self.ctype = ctype      # scalar/element type text
        self.agg = agg          # Agg for agg/anonagg and arrays of aggregates
        self.count = count
        self.bits = bits
        self.attrs = []         # member attributes (text)
        self.ann = None         # (class, group)


MODES = {1: ["QI", "byte", "__QI__", "__byte__"], 2: ["HI", "__HI__"], 4: ["SI", "__SI__"],
         8: ["DI", "word", "pointer", "__DI__"]}


def min_precision(v, signed):
    """Bits GCC needs for v (wi::min_precision)."""
    if signed:
        return (~v if v < 0 else v).bit_length() + 1
    return max(v.bit_length(), 1)


class Enum:
    def __init__(self, name, text, size, prec, signed):
        self.name = name        # the type as members spell it
        self.text = text        # its definition (file scope)
        self.size = size        # GCC's size in bytes
        self.prec = prec        # bits its values need
        self.signed = signed


class Agg:
    def __init__(self, tag, is_union):
        self.tag = tag          # struct tag, or None (anonymous / typedef'd)
        self.typedef = None     # typedef name of an anonymous struct
        self.is_union = is_union
        self.fields = []
        self.attrs = []         # packed, aligned(N)
        self.pack = 0           # #pragma pack(N) around a file-scope definition
        self.inline = False     # defined inside the member declaration
        self.big = False        # holds an array >= 2^28 bytes (no bit-fields)

    def cname(self):
        return self.typedef if self.typedef else "%s %s" % (
            "union" if self.is_union else "struct", self.tag)

    def sname(self):            # the name sidecar entries use
        return self.typedef or self.tag


class Gen:
    def __init__(self, rnd, unit):
        self.r = rnd
        self.unit = unit
        self.ntypes = 0
        self.nnames = 0
        self.named = []         # named types in definition order (file scope)
        self.sidecar = rnd.random() < 0.4
        self.enums = []         # enum types of the unit, rendered first
        self.mode_member = False  # a member of enum type with mode(M)

    def new_enum(self):
        """An enum whose values need 1, 2, 4 or 8 bytes, written in one of
        the forms GCC sizes differently: plain (int or 8 bytes), packed
        (smallest fitting type), mode(M) (the mode's type), aligned (no
        effect), packed and aligned (the first one written wins)."""
        r = self.r
        self.ntypes += 1
        tag = "u%d_e%d" % (self.unit, self.ntypes)
        need = r.choice([1, 2, 4, 8])
        signed = r.random() < 0.35
        bits = 8 * need
        if signed:
            lo = 1 if need == 1 else (1 << (bits - 9)) + 1
            v = -r.randint(lo, (1 << (bits - 1)) - 1 if need < 8 else (1 << 62))
        else:
            v = r.randint(0 if need == 1 else 1 << (bits - 8), (1 << bits) - 1)
        vals = [v] + [r.randint(0, 100) for _ in range(r.randint(0, 3))]
        prec = max(min_precision(x, signed) for x in vals)
        lit = "%d" % v if -(1 << 31) < v < (1 << 31) else \
            ("%dLL" % v if signed else "0x%xULL" % v)
        body = "{ " + ", ".join(["%s_v0 = %s" % (tag, lit)] + [
            "%s_v%d = %d" % (tag, i + 1, x) for i, x in enumerate(vals[1:])]) + " }"
        plain = 4 if prec <= 32 else 8
        small = next(b for b in (1, 2, 4, 8) if 8 * b >= prec)
        form = r.choice(["plain", "packed", "packed-before", "typedef-packed", "mode",
                         "typedef-mode", "aligned", "packed-aligned", "aligned-packed"])
        typedef = form.startswith("typedef")
        name = tag if typedef else "enum " + tag
        head = "typedef enum" if typedef else "enum " + tag
        pk = r.choice(["packed", "__packed__"])
        if form in ("packed", "typedef-packed"):
            text, size = "%s %s __attribute__((%s))" % (head, body, pk), small
        elif form == "packed-before":
            text, size = "enum __attribute__((%s)) %s %s" % (pk, tag, body), small
        elif form in ("mode", "typedef-mode"):
            size = r.choice([b for b in MODES if b >= small])
            m = r.choice(MODES[size])
            text = "%s %s __attribute__((%s(%s)))" % (
                head, body, r.choice(["mode", "__mode__"]), m)
        elif form == "aligned":
            text, size = "%s %s __attribute__((aligned(%d)))" % (
                head, body, r.choice([1, 2, 8, 16, 64])), plain
        elif form == "packed-aligned":      # GCC ignores the later aligned
            text, size = "%s %s __attribute__((%s, aligned(%d)))" % (
                head, body, pk, r.choice([2, 8, 16])), small
        elif form == "aligned-packed":      # GCC ignores the later packed
            text, size = "enum __attribute__((aligned(%d))) %s %s __attribute__((%s))" % (
                r.choice([2, 8, 16]), tag, body, pk), plain
        else:
            text, size = "%s %s" % (head, body), plain
        text += (" %s;" % tag) if typedef else ";"
        e = Enum(name, text, size, prec, signed)
        self.enums.append(e)
        return e

    def enum_member(self, parent):
        r = self.r
        e = r.choice(self.enums) if self.enums and r.random() < 0.4 else self.new_enum()
        x = r.random()
        if x < 0.3 and not parent.big:
            return Field("bitfield", self.fresh(), e.name, bits=r.randint(e.prec, 8 * e.size))
        f = Field("scalar", self.fresh(), e.name)
        if x < 0.4:
            b = r.choice([b for b in MODES if b * 8 >= e.prec])
            f.attrs.append("__attribute__((mode(%s)))" % r.choice(MODES[b]))
            self.mode_member = True
        elif x < 0.48:
            f.attrs.append("__attribute__((aligned(%d)))" % r.choice([1, 2, 4, 8, 16, 64]))
        return f

    def fresh(self):
        self.nnames += 1
        return "f%d" % self.nnames

    def new_agg(self, depth, top=False, big=False):
        r = self.r
        a = Agg(None, (not top) and r.random() < 0.25)
        a.big = big
        n = r.randint(1, 7 if depth == 0 else 4)
        for i in range(n):
            f = self.member(depth, a)
            if f:
                a.fields.append(f)
        if big:
            a.fields.insert(r.randint(0, len(a.fields)), Field(
                "array", self.fresh(), "char", count=r.choice([1 << 28, (1 << 29) + 8, 3 << 28])))
        if not a.fields:
            a.fields.append(Field("scalar", self.fresh(), "long"))
        if top and r.random() < 0.15 and not a.is_union and not big and \
                any(f.kind != "anonbf" for f in a.fields):
            a.fields.append(Field("flex", self.fresh(), r.choice(["long", "char", "int"])))
        x = r.random()
        if x < 0.12:
            a.attrs.append("__attribute__((packed))")
        elif x < 0.24:
            a.attrs.append("__attribute__((aligned(%d)))" % r.choice([8, 16, 32, 64, 128]))
        elif x < 0.32 and (top or r.random() < 0.5):
            a.pack = r.choice([1, 2, 4])
        return a

    def member(self, depth, parent):
        r = self.r
        if r.random() < 0.1:
            return self.enum_member(parent)
        k = r.random()
        if parent.big and (k < 0.2 or 0.4 <= k < 0.58):
            k = 0.9     # no bit-fields or aggregates beside a huge array
        if k < 0.2:
            t = r.choice(INTS + ["_Bool"])
            if r.random() < 0.15:
                return Field("anonbf", None, t, bits=r.choice([0, 1, 3]) if t != "_Bool" else 0)
            return Field("bitfield", self.fresh(), t, bits=r.randint(1, BITS[t]))
        if k < 0.26:
            f = Field("vector", self.fresh(), r.choice(["int", "long", "char", "float"]))
            f.count = r.choice([8, 16, 32])
            return f
        if k < 0.34:
            return Field("array", self.fresh(), r.choice(SCALARS[:-2]), count=r.randint(1, 24))
        if k < 0.37:
            return Field("zero", self.fresh(), r.choice(["long", "char", "int"]))
        if k < 0.40 and not parent.is_union:
            return Field("pad", self.fresh())
        if k < 0.58 and depth < 3:
            inner = self.new_agg(depth + 1)
            how = r.random()
            if how < 0.3:
                return Field("anonagg", None, agg=inner)
            if how < 0.55:
                self.ntypes += 1
                inner.tag = "u%d_t%d" % (self.unit, self.ntypes)
                self.named.append(inner)
            elif how < 0.7:
                self.ntypes += 1
                inner.typedef = "u%d_td%d" % (self.unit, self.ntypes)
                inner.pack = 0
                self.named.append(inner)
            elif how < 0.85:
                self.ntypes += 1
                inner.tag = "u%d_t%d" % (self.unit, self.ntypes)
                inner.inline = True
                inner.pack = 0
            else:
                inner.pack = 0
            f = Field("agg", self.fresh(), agg=inner)
            if r.random() < 0.25:
                f.count = r.randint(2, 4)
            return f
        f = Field("scalar", self.fresh(), r.choice(SCALARS))
        if r.random() < 0.1:
            f.attrs.append("__attribute__((aligned(%d)))" % r.choice([1, 2, 4, 8, 16, 64]))
        elif r.random() < 0.06 and parent.tag is not None:
            f.attrs.append("__attribute__((packed))")
        return f

    def annotate(self, a):
        """Give 1..5 annotatable leaves of a (anywhere inside) a class."""
        leaves = []

        def walk(agg):
            for f in agg.fields:
                if f.kind in ("scalar", "bitfield", "vector", "array", "flex"):
                    leaves.append(f)
                elif f.kind == "anonagg":
                    walk(f.agg)
                elif f.kind == "agg":
                    if self.r.random() < 0.2:
                        leaves.append(f)
                    elif f.agg.sname() or not self.sidecar:
                        walk(f.agg)     # a sidecar cannot name an untagged type
        walk(a)
        self.r.shuffle(leaves)
        for f in leaves[:self.r.randint(1, 5)]:
            c = self.r.choice(CLASSES)
            f.ann = ("hot", "g%d" % self.r.randint(1, 2)) if c == "hotg" else (c, None)


def attr_text(f, sidecar):
    parts = list(f.attrs)
    if f.ann and not sidecar:
        c, g = f.ann
        parts.append({"hot": "__cacheline_hot", "read_mostly": "__cacheline_read_mostly",
                      "exclusive": "__cacheline_exclusive"}[c] if not g
                     else "__cacheline_hot_group(%s)" % g)
    return (" " + " ".join(parts)) if parts else ""


def render_agg_body(a, ind, sidecar, out, drop, path):
    kw = "union" if a.is_union else "struct"
    for i, f in enumerate(a.fields):
        p = "%s.%d" % (path, i) if path else str(i)
        if p in drop:
            continue
        t = ind + "\t"
        at = attr_text(f, sidecar)
        if f.kind == "scalar":
            out.append("%s%s %s%s;" % (t, f.ctype, f.name, at))
        elif f.kind == "bitfield":
            out.append("%s%s %s : %d%s;" % (t, f.ctype, f.name, f.bits, at))
        elif f.kind == "anonbf":
            out.append("%s%s : %d;" % (t, f.ctype, f.bits))
        elif f.kind == "vector":
            out.append("%s%s __attribute__((vector_size(%d))) %s%s;" % (t, f.ctype, f.count, f.name, at))
        elif f.kind == "array":
            out.append("%s%s %s[%d]%s;" % (t, f.ctype, f.name, f.count, at))
        elif f.kind == "zero":
            out.append("%s%s %s[0]%s;" % (t, f.ctype, f.name, at))
        elif f.kind == "flex":
            out.append("%s%s %s[]%s;" % (t, f.ctype, f.name, at))
        elif f.kind == "pad":
            out.append("%sCACHELINE_PADDING(%s);" % (t, f.name))
        elif f.kind in ("agg", "anonagg"):
            g = f.agg
            dims = "[%d]" % f.count if f.count > 1 else ""
            if f.kind == "agg" and (g.tag and not g.inline or g.typedef):
                out.append("%s%s %s%s%s;" % (t, g.cname(), f.name, dims, at))
                continue
            head = "%s%s%s {" % (t, "union" if g.is_union else "struct",
                                 (" " + g.tag) if g.tag else "")
            out.append(head)
            render_agg_body(g, t, sidecar, out, drop, p)
            tail = "%s}%s" % (t, (" " + " ".join(g.attrs)) if g.attrs else "")
            if f.kind == "anonagg":
                out.append(tail + ";")
            else:
                out.append("%s %s%s%s;" % (tail, f.name, dims, at))
    return kw


def render_named(a, sidecar, out, drop, path):
    kw = "union" if a.is_union else "struct"
    if a.pack:
        out.append("#pragma pack(push, %d)" % a.pack)
    attrs = (" " + " ".join(a.attrs)) if a.attrs else ""
    if a.typedef:
        out.append("typedef %s {" % kw)
    else:
        out.append("%s %s {" % (kw, a.tag))
    render_agg_body(a, "", sidecar, out, drop, path)
    out.append("}%s%s;" % (attrs, (" " + a.typedef) if a.typedef else ""))
    if a.pack:
        out.append("#pragma pack(pop)")


def sidecar_entries(a, drop, path, owner, out):
    for i, f in enumerate(a.fields):
        p = "%s.%d" % (path, i) if path else str(i)
        if p in drop:
            continue
        if f.ann and f.name:
            c, g = f.ann
            out.append("%s.%s %s%s" % (owner, f.name, c, (":" + g) if g else ""))
        if f.kind in ("anonagg", "agg"):
            sidecar_entries(f.agg, drop, p, f.agg.sname() or owner, out)


def truth_paths(a, prefix, drop, path, out, skip):
    """(path, kind, ctype) of every named member reachable from a."""
    for i, f in enumerate(a.fields):
        p = "%s.%d" % (path, i) if path else str(i)
        if p in drop:
            continue
        if f.kind == "anonbf":
            continue
        if f.kind == "anonagg":
            skip.append(prefix[:-1] if prefix else "<anonymous>")
            truth_paths(f.agg, prefix, drop, p, out, skip)
            continue
        name = prefix + f.name
        out.append((name, f.kind, f.ctype))
        if f.kind == "agg":
            if f.count > 1:
                for e in range(f.count):
                    truth_paths(f.agg, "%s[%d]." % (name, e), drop, p, out, skip)
            else:
                truth_paths(f.agg, name + ".", drop, p, out, skip)


def unit_has_packed(a):
    for f in a.fields:
        if "packed" in " ".join(f.attrs):
            return True
        if f.agg and ("packed" in " ".join(f.agg.attrs) or f.agg.pack or unit_has_packed(f.agg)):
            return True
    return False


def member_paths(a, path, out):
    for i, f in enumerate(a.fields):
        p = "%s.%d" % (path, i) if path else str(i)
        out.append(p)
        if f.kind in ("agg", "anonagg"):
            member_paths(f.agg, p, out)


def named_types(a, drop, path, out):
    """Named aggregates reachable from a, with their index path."""
    for i, f in enumerate(a.fields):
        p = "%s.%d" % (path, i) if path else str(i)
        if p in drop:
            continue
        if f.kind in ("agg", "anonagg"):
            if f.agg.sname():
                out.append((f.agg, p))
            named_types(f.agg, drop, p, out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--only", type=int, default=-1)
    ap.add_argument("--drop", default="")
    o = ap.parse_args()
    r = random.Random(o.seed)
    prelude, _ = PRELUDES[r.randrange(len(PRELUDES))]
    units = []
    for k in range(o.count):
        g = Gen(random.Random(o.seed * 1000003 + k), k)
        top = g.new_agg(0, top=True, big=g.r.random() < 0.05)
        top.tag = "u%d_s" % k
        if g.r.random() < 0.1:
            top.typedef, top.tag = "u%d_s" % k, None
        g.annotate(top)
        units.append((g, top))
    drop = {}
    for d in filter(None, o.drop.split(",")):
        k, p = d.split(":", 1)
        drop.setdefault(int(k), set()).add(p)

    c = ['#include "cachehot.h"', "/* gen.py --seed %d --count %d */" % (o.seed, o.count)]
    c += prelude.rstrip("\n").split("\n") if prelude else []
    c += ["#ifndef SMP_CACHE_BYTES", "#define SMP_CACHE_BYTES 64", "#endif",
          "struct cacheline_padding { char x[0]; } __attribute__((__aligned__(SMP_CACHE_BYTES)));",
          "#define CACHELINE_PADDING(name) struct cacheline_padding name",
          "typedef unsigned int u32_t;", "typedef unsigned long ulong_t;"]
    ann, unitlines, truth, skips, members = [], [], [], [], []
    for k, (g, top) in enumerate(units):
        if o.only >= 0 and k != o.only:
            continue
        dk = drop.get(k, set())
        first = len(c) + 1
        c += [e.text for e in g.enums]
        # named nested types at file scope first (those not dropped), in order
        reach = []
        named_types(top, dk, "", reach)
        reach_set = {id(a): p for a, p in reach}
        # g.named is in creation order: inner types before the types using them
        for a in g.named:
            if id(a) in reach_set and not a.inline:
                render_named(a, g.sidecar, c, dk, reach_set[id(a)])
        render_named(top, g.sidecar, c, dk, "")
        c.append("%s v%d;" % (top.cname(), k))
        names = [top.cname()] + [a.cname() for a, _ in reach]
        packed = any("packed" in " ".join(a.attrs) or a.pack for a in [top] + [x for x, _ in reach]) \
            or unit_has_packed(top)
        # P: a packed type, M: mode(M) on an enum member (compare.py: DWARF
        # cannot say either)
        unitlines.append("%d %d %d %s%s%s" % (k, first, len(c), "P " if packed else "",
                                              "M " if g.mode_member else "", " ".join(
            n.replace(" ", "@") for n in names)))
        mp = []
        member_paths(top, "", mp)
        members += ["%d %s" % (k, p) for p in mp]
        if g.sidecar:
            sidecar_entries(top, dk, "", top.sname(), ann)
        for a, base in [(top, "")] + reach:
            paths, skip = [], []
            truth_paths(a, "", dk, base, paths, skip)
            tn = a.cname()
            skips += ["%s %s" % (tn.replace(" ", "@"), s) for s in skip]
            truth.append('\tprintf("T %s %%zu %%zu\\n", sizeof(%s), __alignof__(%s));'
                         % (tn.replace(" ", "@"), tn, tn))
            for p, kind, ctype in paths:
                tq = tn.replace(" ", "@")
                if kind == "bitfield":
                    truth.append('\tBF(%s, %s, "%s", "%s", %s);' % (
                        tn, p, tq, p, "1" if ctype == "_Bool" else "-1"))
                elif kind == "flex":
                    truth.append('\tprintf("F %s %s %%zu %%zu 0 0\\n", offsetof(%s, %s), '
                                 'sizeof(((%s *)0)->%s[0]));' % (tq, p, tn, p, tn, p))
                else:
                    truth.append('\tprintf("F %s %s %%zu %%zu 0 0\\n", offsetof(%s, %s), '
                                 'sizeof(((%s *)0)->%s));' % (tq, p, tn, p, tn, p))
    os.makedirs(o.dir, exist_ok=True)
    with open(os.path.join(o.dir, "fz.c"), "w") as fp:
        fp.write("\n".join(c) + "\n")
    with open(os.path.join(o.dir, "fz.ann"), "w") as fp:
        fp.write("# sidecar entries of gen.py --seed %d\n" % o.seed + "".join(a + "\n" for a in ann))
    with open(os.path.join(o.dir, "units.txt"), "w") as fp:
        fp.write("".join(u + "\n" for u in unitlines))
    with open(os.path.join(o.dir, "members.txt"), "w") as fp:
        fp.write("".join(m + "\n" for m in members))
    with open(os.path.join(o.dir, "skip.txt"), "w") as fp:
        fp.write("".join(s + "\n" for s in skips))
    with open(os.path.join(o.dir, "truth.c"), "w") as fp:
        fp.write('#include <stdio.h>\n#include <stdlib.h>\n#include <stddef.h>\n'
                 '#include "fz.c"\n'
                 '/* a bit-field: set its bits in a zeroed object, find them */\n'
                 '#define BF(T, P, TN, PN, ONES) do { unsigned char *b = calloc(1, sizeof(T)); '
                 'size_t i, lo = (size_t)-1, hi = 0; ((T *)b)->P = ONES; '
                 'for (i = 0; i < sizeof(T) * 8; i++) if (b[i / 8] >> (i % 8) & 1) '
                 '{ if (lo == (size_t)-1) lo = i; hi = i; } '
                 'printf("F %s %s %zu %zu %zu %zu\\n", TN, PN, lo / 8, hi / 8 - lo / 8 + 1, '
                 'lo % 8, hi - lo + 1); free(b); } while (0)\n'
                 'int main(void)\n{\n' + "\n".join(truth) + "\n\treturn 0;\n}\n")


if __name__ == "__main__":
    main()
