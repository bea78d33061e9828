#!/usr/bin/env python3
"""Apply GCC's parseable fix-its (-fdiagnostics-parseable-fixits) to the files
they name, in place, from the diagnostics on stdin.

    fix-it:"FILE":{L1:C1-L2:C2}:"TEXT"

Lines and columns are 1-based, the range half-open (an insertion has C1 ==
C2), TEXT is C-escaped. Fix-its at one position keep the order GCC printed
them in. GCC 12's -fdiagnostics-generate-patch garbles a hunk where a line
inserted at a line's start (a moved member) is followed by an edit on the
next line, so the fix suite applies the fix-its themselves.
Exit status: 0, or 1 with a message when a fix-it does not fit its file."""
import re
import sys

FIXIT = re.compile(r'^fix-it:"((?:[^"\\]|\\.)*)":\{(\d+):(\d+)-(\d+):(\d+)\}:"((?:[^"\\]|\\.)*)"$')


def unescape(s):
    out, i = bytearray(), 0
    b = s.encode()
    simple = {ord('n'): 10, ord('t'): 9, ord('"'): 34, ord('\\'): 92, ord('r'): 13,
              ord('a'): 7, ord('b'): 8, ord('f'): 12, ord('v'): 11, ord("'"): 39}
    while i < len(b):
        c = b[i]
        if c != 92:
            out.append(c)
            i += 1
            continue
        n = b[i + 1]
        if n in simple:
            out.append(simple[n])
            i += 2
        elif 48 <= n <= 55:
            j = i + 1
            while j < len(b) and j < i + 4 and 48 <= b[j] <= 55:
                j += 1
            out.append(int(b[i + 1:j], 8))
            i = j
        else:
            out.append(n)
            i += 2
    return bytes(out)


def main():
    edits = {}
    for n, line in enumerate(sys.stdin):
        m = FIXIT.match(line.rstrip('\n'))
        if m:
            f = unescape(m.group(1)).decode()
            edits.setdefault(f, []).append((int(m.group(2)), int(m.group(3)), int(m.group(4)),
                                            int(m.group(5)), unescape(m.group(6)), n))
    for f, ev in edits.items():
        data = open(f, 'rb').read()
        starts = [0]
        for k, ch in enumerate(data):
            if ch == 10:
                starts.append(k + 1)

        def off(l, c):
            if l - 1 >= len(starts):
                sys.exit('apply-fixits: %s: line %d past the end' % (f, l))
            return starts[l - 1] + c - 1
        spans = sorted(((off(a, b), off(c, d), t, n) for a, b, c, d, t, n in ev),
                       key=lambda x: (x[0], x[3]), reverse=True)
        for lo, hi, t, _ in spans:
            if hi < lo or hi > len(data):
                sys.exit('apply-fixits: %s: bad range' % f)
            data = data[:lo] + t + data[hi:]
        open(f, 'wb').write(data)
        print('%s: %d fix-its applied' % (f, len(ev)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
