// SPDX-License-Identifier: GPL-2.0-only
/// Inline functions chosen through a local function pointer,
///   fp = E ? f : g; ... fp(args);
/// make the compiler emit an out-of-line copy of each (memcg numa_stat:
/// 406 bytes of text where direct calls cost 100). Call them directly:
/// (E ? f(args) : g(args)) inside expressions, if (E) f(args); else g(args);
/// as statements, and drop the pointer. The patch is made only when fp is a
/// local variable used for nothing but calls after the one selection (it
/// does not escape) and no variable of E is assigned after the selection;
/// E must be free of calls and side effects. Other selections of an inline
/// function (the pointer escapes, E changes) are reported, not patched.
///
// Confidence: Moderate
// Copyright: (C) 2026 The cachehot authors. GPL-2.0-only
// Comments: Which functions are inline is read from a list file, one name a
//  line ('#' comments), given by -D inline_list=FILE or the environment
//  variable CACHEHOT_INLINE_LIST; write it with
//  "cachehot-bloat --inline-list -o FILE OBJ...". Functions defined inline
//  in the file itself are known without the list. No --all-includes needed.
//  Aliasing is not tracked: E reading memory that a callee changes is not
//  seen as a change. See docs/bloat.rst.
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report
virtual cachehot_records

@initialize:python@
@@
import os

inline_names = set()   # from the list file
file_inline = set()    # (file, name): defined inline in the file
facts = {}             # key -> dict of what the rules below saw
modes = set()          # "report", "org", "records" (-D cachehot_records)

def cachehot_record(loc, check, msg, struct=None, function=None, field=None):
    # -D cachehot_records: the report as a record for "cachehot check"
    # (docs/findings.md), one JSON line written with one write(2); the
    # column 1-based as GCC prints it (spatch counts from 0)
    import json, os, sys
    if function in ("", "something_else"):
        function = None
    rec = json.dumps({"cachehot_finding": 1, "engine": "cocci", "check": check,
                      "severity": "warning", "file": loc.file, "line": int(loc.line),
                      "column": int(loc.column) + 1, "struct": struct,
                      "function": function, "field": field, "other": None,
                      "line_index": 0, "line_size": 0, "predicted": False,
                      "ident": None, "confidence": "possible", "evidence": None,
                      "message": msg}) + "\n"
    sys.stdout.flush()
    os.write(1, rec.encode())

def load_inline_list(path):
    try:
        with open(path) as fh:
            for line in fh:
                line = line.split('#', 1)[0].strip()
                if line:
                    inline_names.add(line)
    except OSError as e:
        raise SystemExit("inline_fnptr.cocci: cannot read inline list %s: %s" % (path, e))

if os.environ.get("CACHEHOT_INLINE_LIST"):
    load_inline_list(os.environ["CACHEHOT_INLINE_LIST"])

def key(p, fp):
    return (p[0].file, p[0].current_element, fp, int(p[0].line), int(p[0].column))

def fact(p, fp):
    return facts.setdefault(key(p, fp), {"uses": set(), "calls": set(),
        "decl": False, "mods": set(), "shadow": set(), "assigned": set()})

def is_inline(p, name):
    return name in inline_names or (p[0].file, name) in file_inline

def idents(e):
    # identifiers of E, without member names (after . or ->)
    out, i, n = set(), 0, len(e)
    while i < n:
        c = e[i]
        if c.isalpha() or c == '_':
            j = i
            while j < n and (e[j].isalnum() or e[j] == '_'):
                j += 1
            k = i - 1
            while k >= 0 and e[k] == ' ':
                k -= 1
            member = k >= 0 and (e[k] == '.' or (e[k] == '>' and k > 0 and e[k-1] == '-'))
            if not member and e[i:j] != "sizeof":
                out.add(e[i:j])
            i = j
        else:
            i += 1
    return out

def pure(e):
    # no calls, assignments, increments; sizeof is fine
    import re
    s = re.sub(r'\bsizeof\s*\(', '(', e)
    if re.search(r'[A-Za-z0-9_\]\)]\s*\(', s):
        return False
    if '++' in s or '--' in s or '<<=' in s or '>>=' in s:
        return False
    if re.search(r'(^|[^=!<>])=($|[^=])', s):
        return False
    return True

@script:python depends on patch || context || org || report@
lst << virtual.inline_list;
@@
load_inline_list(lst)

@script:python depends on report@
@@
modes.add("report")

@script:python depends on org@
@@
modes.add("org")

@script:python depends on cachehot_records@
@@
modes.add("records")

// ---- candidates: a pointer set to one of two functions --------------------
@sel depends on patch || context || org || report@
identifier fp, f, g;
expression E;
position p;
@@
fp@p = E ? f : g

// static inline definitions in this file
@indef@
identifier sel.f;
type T;
position pi;
@@
inline T f@pi(...) { ... }

@script:python@
f << sel.f; pi << indef.pi;
@@
file_inline.add((pi[0].file, f))

@indefg@
identifier sel.g;
type T;
position pi;
@@
inline T g@pi(...) { ... }

@script:python@
g << sel.g; pi << indefg.pi;
@@
file_inline.add((pi[0].file, g))

// keep selections of at least one inline function
@script:python filt@
fp << sel.fp; f << sel.f; g << sel.g; p << sel.p;
@@
if not (is_inline(p, f) or is_inline(p, g)):
    cocci.include_match(False)
else:
    fact(p, fp)

// ---- what happens to fp and E in the function ----------------------------
@use depends on filt@
identifier sel.fp;
position pu;
@@
fp@pu

@script:python@
fp << sel.fp; p << sel.p; pu << use.pu;
@@
if pu[0].current_element == p[0].current_element and pu[0].file == p[0].file:
    fact(p, fp)["uses"].add((int(pu[0].line), int(pu[0].column)))

@call depends on filt@
identifier sel.fp;
expression list es;
position pc;
@@
fp@pc(es)

@script:python@
fp << sel.fp; p << sel.p; pc << call.pc;
@@
if pc[0].current_element == p[0].current_element and pc[0].file == p[0].file:
    fact(p, fp)["calls"].add((int(pc[0].line), int(pc[0].column)))

@asg depends on filt@
identifier sel.fp;
expression X;
position pa;
@@
fp@pa = X

@script:python@
fp << sel.fp; p << sel.p; pa << asg.pa;
@@
if pa[0].current_element == p[0].current_element and pa[0].file == p[0].file:
    fact(p, fp)["assigned"].add((int(pa[0].line), int(pa[0].column)))

// a local declaration of the pointer (plain or with the selection as initializer)
@decl depends on filt@
identifier sel.fp;
type T;
position pd;
@@
(
T fp@pd;
|
T fp@pd = ...;
)

@script:python@
fp << sel.fp; p << sel.p; pd << decl.pd;
@@
if pd[0].current_element == p[0].current_element and pd[0].file == p[0].file:
    fact(p, fp)["decl"] = True

// assignments after the selection (plain-assignment form)
@mod depends on filt@
identifier sel.fp, sel.f, sel.g;
expression sel.E;
position sel.p;
identifier x;
expression X;
position pm;
type T;
@@
(
fp@p = E ? f : g;
|
T fp@p = E ? f : g;
)
<...
(
 x@pm = X
|
 x@pm += X
|
 x@pm -= X
|
 x@pm |= X
|
 x@pm &= X
|
 x@pm ^= X
|
 x@pm *= X
|
 x@pm /= X
|
 x@pm <<= X
|
 x@pm >>= X
|
 x@pm++
|
 x@pm--
|
 ++x@pm
|
 --x@pm
|
 &x@pm
)
...>

@script:python@
fp << sel.fp; p << sel.p; x << mod.x;
@@
fact(p, fp)["mods"].add(x)

// f or g declared as a parameter or local of the function: that name is
// not the inline function there
@shl depends on filt@
identifier sel.f;
type T;
position ps;
@@
(
T f@ps;
|
T f@ps = ...;
)

@script:python@
fp << sel.fp; p << sel.p; f << sel.f; ps << shl.ps;
@@
if ps[0].current_element == p[0].current_element and ps[0].file == p[0].file:
    fact(p, fp)["shadow"].add(f)

@shlg depends on filt@
identifier sel.g;
type T;
position ps;
@@
(
T g@ps;
|
T g@ps = ...;
)

@script:python@
fp << sel.fp; p << sel.p; g << sel.g; ps << shlg.ps;
@@
if ps[0].current_element == p[0].current_element and ps[0].file == p[0].file:
    fact(p, fp)["shadow"].add(g)

@shp depends on filt@
identifier sel.f, fn;
type T, T2;
position ps;
@@
T2 fn(..., T f@ps, ...) { ... }

@script:python@
fp << sel.fp; p << sel.p; f << sel.f; fn << shp.fn;
@@
if fn == p[0].current_element:
    fact(p, fp)["shadow"].add(f)

@shpg depends on filt@
identifier sel.g, fn;
type T, T2;
position ps;
@@
T2 fn(..., T g@ps, ...) { ... }

@script:python@
fp << sel.fp; p << sel.p; g << sel.g; fn << shpg.fn;
@@
if fn == p[0].current_element:
    fact(p, fp)["shadow"].add(g)

// drop selections whose inline names are all shadowed
@script:python shfilt@
fp << sel.fp; f << sel.f; g << sel.g; p << sel.p;
@@
d = fact(p, fp)
d["inl"] = [h for h in (f, g) if is_inline(p, h) and h not in d["shadow"]]
if not d["inl"]:
    cocci.include_match(False)

@ctx depends on context && !patch@
identifier sel.fp, sel.f, sel.g;
expression sel.E;
position sel.p;
@@
* fp@p = E ? f : g

// ---- verdict ---------------------------------------------------------------
// Fixable: fp is a local, used only by this selection and calls, E pure and
// none of its variables assigned after the selection. fn carries the
// enclosing function to the patch rules (positions cannot cross rules that
// change code).
@script:python verdict@
fp << sel.fp; f << sel.f; g << sel.g; E << sel.E; p << sel.p;
fn;
@@
d = fact(p, fp)
inl = d["inl"]
here = (int(p[0].line), int(p[0].column))
other = d["uses"] - d["calls"] - set([here])
why = None
if not d["decl"]:
    why = "%s is not a local variable" % fp
elif other & d["assigned"]:
    why = "%s is assigned again (line %d)" % (fp, sorted(other & d["assigned"])[0][0])
elif other:
    why = "%s escapes: used as a value at line %d" % (fp, sorted(other)[0][0])
elif not d["calls"]:
    why = "%s is never called" % fp
elif not pure(E):
    why = "the condition has side effects"
elif idents(E) & d["mods"]:
    why = "%s changes after the selection" % sorted(idents(E) & d["mods"])[0]
names = "/".join(inl)
if "report" in modes:
    if why is None:
        msg = "inline %s selected through local pointer %s: call %s directly (out-of-line copies)" % (names, fp, names)
    else:
        msg = "inline %s selected through pointer %s keeps an out-of-line copy; not fixable here: %s" % (names, fp, why)
    coccilib.report.print_report(p[0], msg)
    if "records" in modes:
        cachehot_record(p[0], "cachehot-inline_fnptr", msg,
                        function=p[0].current_element, field=names)
if "org" in modes:
    cocci.print_main("inline %s selected through %s%s" % (names, fp, "" if why is None else " (" + why + ")"), p)
if why is not None:
    cocci.include_match(False)
else:
    coccinelle.fn = p[0].current_element

// ---- patch ---------------------------------------------------------------
// a call that is the whole body of a loop or if gets braces around its if/else
@fix_body depends on patch@
identifier verdict.fn, sel.fp, sel.f, sel.g;
expression sel.E;
expression list es;
expression c;
statement S;
@@
fn(...) {
<...
(
for (...;...;...)
- fp(es);
+ {
+	if (E)
+		f(es);
+	else
+		g(es);
+ }
|
while (c)
- fp(es);
+ {
+	if (E)
+		f(es);
+	else
+		g(es);
+ }
|
if (c)
- fp(es);
+ {
+	if (E)
+		f(es);
+	else
+		g(es);
+ }
else S
)
...>
}

@fix_stmt depends on patch@
identifier verdict.fn, sel.fp, sel.f, sel.g;
expression sel.E;
expression list es;
@@
fn(...) {
<...
- fp(es);
+ if (E)
+	f(es);
+ else
+	g(es);
...>
}

@fix_expr depends on patch@
identifier verdict.fn, sel.fp, sel.f, sel.g;
expression sel.E;
expression list es;
@@
fn(...) {
<...
- fp(es)
+ (E ? f(es) : g(es))
...>
}

@fix_sel depends on patch@
identifier verdict.fn, sel.fp, sel.f, sel.g;
expression sel.E;
type T;
@@
fn(...) {
<...
(
- fp = E ? f : g;
|
- T fp = E ? f : g;
)
...>
}

@fix_decl depends on patch@
identifier verdict.fn, sel.fp;
type T;
@@
fn(...) {
<...
- T fp;
...>
}
