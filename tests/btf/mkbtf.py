#!/usr/bin/env python3
"""mkbtf.py CASE OUT -- write a crafted raw BTF file.

Raw BTF: a 24-byte header, the type section, the string section
(include/uapi/linux/btf.h). Cases are built here, never committed.
"""
import struct, sys

INT, PTR, ARRAY, STRUCT, UNION, TYPEDEF, VAR, DATASEC = 1, 2, 3, 4, 5, 8, 14, 15

class B:
    def __init__(self):
        self.strs = bytearray(b"\0")   # appended in place: linear
        self.types = []          # bytes per type, id = index + 1
    def s(self, name):
        if not name:
            return 0
        off = len(self.strs)
        self.strs += name.encode() + b"\0"
        return off
    def t(self, name, kind, vlen, size_or_type, extra=b"", kflag=0):
        info = (kflag << 31) | (kind << 24) | vlen
        self.types.append(struct.pack("<III", self.s(name), info, size_or_type) + extra)
        return len(self.types)
    def int_(self, name, size, bits=None):
        bits = size * 8 if bits is None else bits
        return self.t(name, INT, 0, size, struct.pack("<I", bits))
    def struct_(self, name, size, members, kind=STRUCT):
        """members: (name, type id, bit offset)"""
        extra = b"".join(struct.pack("<III", self.s(n), ty, off) for n, ty, off in members)
        return self.t(name, kind, len(members), size, extra)
    def reserve(self):
        self.types.append(None)
        return len(self.types)
    def set(self, id_, name, kind, vlen, size_or_type, extra=b""):
        info = (kind << 24) | vlen
        self.types[id_ - 1] = struct.pack("<III", self.s(name), info, size_or_type) + extra
    def raw(self):
        tsec = b"".join(self.types)
        hdr = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, len(tsec), len(tsec), len(self.strs))
        return hdr + tsec + bytes(self.strs)

def case(name):
    b = B()
    if name == "self-zero":          # struct s { struct s x; } of size 0
        sid = b.reserve()
        b.set(sid, "s", STRUCT, 1, 0, struct.pack("<III", b.s("x"), sid, 0))
    elif name == "self-array":       # struct s { struct s x[0]; } of size 0
        sid = b.reserve()
        i = b.int_("int", 4)
        aid = b.reserve()
        b.set(sid, "s", STRUCT, 1, 0, struct.pack("<III", b.s("x"), aid, 0))
        b.set(aid, "", ARRAY, 0, 0, struct.pack("<III", sid, i, 0))
    elif name == "ptr-cycle":        # two pointers to each other, used by a struct
        i = b.int_("long", 8)
        p1 = b.reserve()
        p2 = b.t("", PTR, 0, p1)
        b.set(p1, "", PTR, 0, p2)
        b.struct_("pc", 16, [("usage", i, 0), ("next", p1, 64)])
    elif name == "ptr-self":         # a pointer to itself
        i = b.int_("long", 8)
        p = b.reserve()
        b.set(p, "", PTR, 0, p)
        b.struct_("pc", 16, [("usage", i, 0), ("next", p, 64)])
    elif name == "int-size-0":       # an int of size 0 inside an anonymous struct
        i = b.int_("long", 8)
        z = b.int_("zero", 0, 0)
        anon = b.struct_("", 8, [("a", z, 0), ("b", z, 32)])
        b.struct_("pc", 16, [("usage", i, 0), ("", anon, 64)])
    elif name == "member-void":      # a member of type void inside an anonymous struct
        i = b.int_("long", 8)
        anon = b.struct_("", 8, [("a", 0, 0)])
        b.struct_("pc", 16, [("usage", i, 0), ("", anon, 64)])
    elif name == "member-fwd":       # a member of a forward-declared struct
        i = b.int_("long", 8)
        fwd = b.t("later", 7, 0, 0)
        b.struct_("pc", 16, [("usage", i, 0), ("x", fwd, 64)])
    elif name == "typedef-chain":    # 200000 typedefs, each of the next
        n = 200000
        i = b.int_("long", 8)
        first = len(b.types) + 1
        for k in range(n):
            nxt = first + k + 1 if k + 1 < n else i
            b.t("t%d" % k, TYPEDEF, 0, nxt)
        b.struct_("pc", 16, [("usage", first, 0), ("max", first + n - 1, 64)])
    elif name == "huge-hole":        # a member aligned to 1 << 28
        i = b.int_("long", 8)
        b.struct_("pc", (1 << 28) + 8, [("usage", i, 0), ("max", i, (1 << 28) * 8)])
    elif name == "many-fields":      # N members (argument), for bench/scale
        n = int(sys.argv[3])
        i = b.int_("long", 8)
        b.struct_("wide", 8 * n, [("f%d" % k, i, 64 * k) for k in range(n)])
    elif name == "many-structs":     # N structs of 4 members (argument)
        n = int(sys.argv[3])
        i = b.int_("long", 8)
        for k in range(n):
            b.struct_("s%d" % k, 32, [("f%d" % j, i, 64 * j) for j in range(4)])
    elif name == "per-thread-vars":  # VARs of a DATASEC, as in vmlinux BTF
        i = b.int_("int", 4)
        l = b.int_("long", 8)
        arr = lambda ty, n: b.t("", ARRAY, 0, 0, struct.pack("<III", ty, i, n))
        w = b.struct_("worker", 72, [("fd", i, 0), ("handled", l, 64), ("spare", arr(l, 7), 128)])
        a4 = arr(w, 4)
        var = lambda n, ty, linkage: b.t(n, VAR, 0, ty, struct.pack("<I", linkage))
        v1 = var("workers", a4, 1)              # struct worker workers[4]
        v2 = var("heap_workers", b.t("", PTR, 0, w), 1)   # struct worker *heap_workers
        v3 = var("other_workers", a4, 0)        # static, not marked
        var("ext_workers", a4, 2)               # extern: judged where defined
        b.t(".bss", DATASEC, 3, 600, struct.pack("<III", v1, 0, 288) +
            struct.pack("<III", v2, 288, 8) + struct.pack("<III", v3, 296, 288))
    else:
        sys.exit("unknown case " + name)
    return b.raw()

if __name__ == "__main__":
    open(sys.argv[2], "wb").write(case(sys.argv[1]))
