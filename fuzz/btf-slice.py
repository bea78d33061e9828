#!/usr/bin/env python3
"""btf-slice.py VMLINUX_BTF STRUCT OUT -- a small raw BTF file holding STRUCT
and every type its layout needs (members, typedefs, arrays, nested
aggregates), cut at pointers (their targets become void): a fuzzing seed
from the running kernel's BTF (/sys/kernel/btf/vmlinux)."""
import struct, sys

EXTRA = {1: lambda v: 4, 3: lambda v: 12, 4: lambda v: 12 * v, 5: lambda v: 12 * v,
         6: lambda v: 8 * v, 13: lambda v: 8 * v, 14: lambda v: 4, 15: lambda v: 12 * v,
         17: lambda v: 4, 19: lambda v: 12 * v}

def parse(raw):
    magic, ver, flags, hlen, toff, tlen, soff, slen = struct.unpack_from("<HBBIIIII", raw)
    tsec = raw[hlen + toff:hlen + toff + tlen]
    strs = raw[hlen + soff:hlen + soff + slen]
    types, off = [None], 0
    while off < len(tsec):
        name, info, st = struct.unpack_from("<III", tsec, off)
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        n = 12 + EXTRA.get(kind, lambda v: 0)(vlen)
        types.append((name, info, st, tsec[off + 12:off + n]))
        off += n
    return types, strs

def cstr(strs, off):
    return strs[off:strs.index(b"\0", off)].decode()

def main():
    types, strs = parse(open(sys.argv[1], "rb").read())
    root = next(i for i, t in enumerate(types) if t and (t[1] >> 24) & 0x1f in (4, 5)
                and cstr(strs, t[0]) == sys.argv[2])
    newid, order, queue = {0: 0}, [], [root]
    while queue:
        i = queue.pop(0)
        if i in newid:
            continue
        newid[i] = len(order) + 1
        order.append(i)
        name, info, st, extra = types[i]
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        if kind in (8, 9, 10, 11, 18):
            queue.append(st)
        elif kind == 3:
            queue += list(struct.unpack_from("<II", extra)[:2])
        elif kind in (4, 5):
            queue += [struct.unpack_from("<III", extra, 12 * k)[1] for k in range(vlen)]
    out_strs, names = b"\0", {}
    def s(off):
        nonlocal out_strs
        if not off:
            return 0
        n = cstr(strs, off)
        if n not in names:
            names[n] = len(out_strs)
            out_strs += n.encode() + b"\0"
        return names[n]
    tsec = b""
    for i in order:
        name, info, st, extra = types[i]
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        if kind == 2:
            st = 0
        elif kind in (8, 9, 10, 11, 18):
            st = newid[st]
        if kind == 3:
            t, idx, nel = struct.unpack_from("<III", extra)
            extra = struct.pack("<III", newid[t], newid[idx], nel)
        elif kind in (4, 5):
            extra = b"".join(struct.pack("<III", s(m[0]), newid[m[1]], m[2]) for m in
                             (struct.unpack_from("<III", extra, 12 * k) for k in range(vlen)))
        elif kind in (6, 19):
            w = 8 if kind == 6 else 12
            extra = b"".join(struct.pack("<I", s(struct.unpack_from("<I", extra, w * k)[0])) +
                             extra[w * k + 4:w * k + w] for k in range(vlen))
        elif kind not in (1, 2, 7, 8, 9, 10, 11, 16, 18):
            sys.exit("unexpected kind %d in the slice" % kind)
        tsec += struct.pack("<III", s(name), info, st) + extra
    hdr = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, len(tsec), len(tsec), len(out_strs))
    open(sys.argv[3], "wb").write(hdr + tsec + out_strs)

main()
