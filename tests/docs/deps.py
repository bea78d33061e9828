#!/usr/bin/env python3
# tests/docs/deps.py OBJ... -- which file of a folder uses which (a function
# or variable one object defines and another names, from nm), and the
# circles among them: one line "a b c" per circle (files that use each
# other, directly or through the others of the line); nothing when the files
# can be read in an order where each uses only those before it.
# --order: print that order instead, one level a line.
import subprocess
import sys

args = sys.argv[1:]
order = bool(args) and args[0] == '--order'
if order:
    args = args[1:]
defs, undef = {}, {}
for o in args:
    name = o.rsplit('/', 1)[-1][:-2]
    out = subprocess.run(['nm', o], capture_output=True, text=True, check=True).stdout
    undef[name] = set()
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'TDBRCV':
            defs.setdefault(p[2], name)
        elif len(p) == 2 and p[0] == 'U':
            undef[name].add(p[1])
uses = {n: {defs[s] for s in u if s in defs and defs[s] != n} for n, u in undef.items()}
done, left = [], set(uses)
while left:
    level = sorted(n for n in left if uses[n] <= set(done))
    if not level:
        break
    if order:
        print(' '.join(level))
    done += level
    left -= set(level)
if order or not left:
    sys.exit(0)
# the circles: strongly connected components of what is left (Tarjan)
index, low, stack, on, comps = {}, {}, [], set(), []
sys.setrecursionlimit(10000)


def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    for w in sorted(uses[v] & left):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            comps.append(' '.join(sorted(comp)))


for v in sorted(left):
    if v not in index:
        visit(v)
print('\n'.join(sorted(comps)))
