// Merged by bench/cocci-merge.py from: counter_batch.cocci inline_fnptr.cocci unify_padding.cocci
// Options: --no-includes --include-headers
virtual report
virtual org
virtual context
virtual patch
virtual cachehot_records

// ---- cocci/counter_batch.cocci
// SPDX-License-Identifier: GPL-2.0
///
/// Report a statistics counter that is updated once per element inside a
/// loop although neither its target (zone, node, lruvec, memcg) nor its stat
/// item changes in the loop: accumulate the delta in a local and apply it
/// once after the loop. Each call is a read-modify-write: zone, node and
/// memcg counters add to a per-cpu diff that is folded into a shared atomic
/// (one cache line written by every CPU) each time it passes a threshold,
/// vm events bump a per-cpu counter; N calls cost N times one, and N/threshold
/// writes of the shared line where one would do.
/// Rule source: the multi-gen LRU aging batched its per-page memcg/node
/// statistics updates (accumulate locally, apply once), which measurably
/// helped memcached throughput; mm/page_alloc.c rmqueue_bulk() batches
/// NR_FREE_PAGES after its loop but still updates NR_FREE_CMA_PAGES per page.
/// If the item depends on the element (file vs anon, per-lru), the update is
/// reported with lower confidence as a keyed accumulator (one local per
/// item). If the target can change per element (another lruvec, memcg, zone
/// or page each time), nothing is reported: the updates cannot be merged.
///
// Confidence: Moderate (loop-invariant item); Low (keyed accumulator)
// Copyright: (C) 2026 The cachehot authors
// Comments: Updaters: see UPDATERS below. Extend the list with
//  -D counter_batch_updaters=NAME[:TARGET:ITEM],... (0-based argument
//  indexes; TARGET "-" for per-cpu event counters without a target; the
//  default is 0:1), e.g. under coccicheck SPFLAGS="-D counter_batch_updaters=
//  my_stat_add:0:1". A variable "changes in the loop" when the loop text
//  assigns it (=, +=, ...), increments it, declares it with an initializer,
//  takes its address or uses it as an iterator cursor; writes through
//  pointers or in callees are not seen. Not reported either: an update
//  followed by break/goto/return (once per loop run) and an item that is
//  the loop index (each item once). Only the innermost loop around the
//  call is judged; do-while loops are not recognised.
//  call is judged. Patch mode rewrites only the certain shape: a
//  three-argument updater (target, item, delta) called as a statement, the
//  delta free of calls and side effects, no return or goto in the loop; it
//  declares "long nr_<item> = 0;" at the top of the function, adds the
//  delta to it in the loop and applies it once after the loop when
//  non-zero. Keyed items and one-argument event counters are reported only.
//
// Keywords: vmstat, memcg, lruvec, batching, false sharing
//


@initialize:python@
@@
import re, sys
# name -> (index of the target argument or None, index of the item argument)
UPDATERS = {
    "__mod_lruvec_state": (0, 1), "mod_lruvec_state": (0, 1),
    "__mod_lruvec_page_state": (0, 1),
    "__mod_node_page_state": (0, 1), "mod_node_page_state": (0, 1),
    "__mod_zone_page_state": (0, 1), "mod_zone_page_state": (0, 1),
    "__count_vm_event": (None, 0), "count_vm_event": (None, 0),
    "__count_vm_events": (None, 0), "count_vm_events": (None, 0),
    "__mod_memcg_state": (0, 1), "mod_memcg_state": (0, 1),
    "__count_memcg_events": (0, 1),
}

def cb_add_updaters(spec):
    for ent in spec.replace(",", " ").split():
        parts = ent.split(":")
        if len(parts) == 1 and re.match(r"^\w+$", parts[0]):
            UPDATERS[parts[0]] = (0, 1)
        elif (len(parts) == 3 and re.match(r"^\w+$", parts[0]) and
              re.match(r"^(-|\d+)$", parts[1]) and parts[2].isdigit()):
            UPDATERS[parts[0]] = (None if parts[1] == "-" else int(parts[1]),
                                  int(parts[2]))
        else:
            sys.stderr.write("counter_batch.cocci: bad counter_batch_updaters "
                             "entry '%s' (want NAME or NAME:TARGET:ITEM)\n" % ent)
            sys.exit(2)

CB_BUILTIN = set(UPDATERS)

def cb_is_extra(name):
    return name in UPDATERS and name not in CB_BUILTIN

def cb_is_updater(name):
    return name in UPDATERS

# Per-file state, filled by the collecting rules below and emptied by
# cb_decide() at the end of each file.
cb_calls = []    # (call position, name, [args])
cb_loops = []    # (first offset, end offset, loop line, file, body offset)
cb_hits = {}     # (file, line, col) -> (position, message, updater), for the context/report rules

def cb_pos(p, end=False):
    if end:
        return (int(p.line_end), int(p.column_end))
    return (int(p.line), int(p.column))

cb_text = {}

def cb_name_at(p):
    # The name of the callee, read back from the source at the position of
    # the call (a script-constrained identifier cannot be inherited).
    t = cb_source(p.file)
    m = re.match(r"\w+", t[cb_off(p):cb_off(p) + 200])
    return m.group(0) if m else ""

cb_starts = {}
SLASH2 = "/" + "/"   # (two slashes in a row start a comment for spatch)
QUOTE, APOS, BACKSLASH = chr(34), chr(39), chr(92)

def cb_source(fname):
    if fname not in cb_text:
        with open(fname, errors="replace") as f:
            cb_text[fname] = f.read()
        starts, off = [0], 0
        for line in cb_text[fname].split("\n"):
            off += len(line) + 1
            starts.append(off)
        cb_starts[fname] = starts
    return cb_text[fname]

def cb_off(p):
    # character offset of a position (line 1-based, column 0-based)
    cb_source(p.file)
    return cb_starts[p.file][int(p.line) - 1] + int(p.column)

def cb_skip(t, i):
    # skip blanks and comments
    while i < len(t):
        if t[i].isspace():
            i += 1
        elif t.startswith("/*", i):
            j = t.find("*/", i + 2)
            i = len(t) if j < 0 else j + 2
        elif t.startswith(SLASH2, i):
            j = t.find("\n", i)
            i = len(t) if j < 0 else j + 1
        else:
            break
    return i

def cb_match(t, i, stop=None):
    # t[i] opens ( [ or {: return the offset after its partner. With stop
    # (a character), return the offset after the first stop at depth 0.
    depth = 0
    while i < len(t):
        c = t[i]
        if c == QUOTE or c == APOS:
            j = i + 1
            while j < len(t) and t[j] != c:
                j += 2 if t[j] == BACKSLASH else 1
            i = j + 1
            continue
        if t.startswith("/*", i) or t.startswith(SLASH2, i):
            i = cb_skip(t, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0 and stop is None:
                return i + 1
        elif c == stop and depth == 0:
            return i + 1
        i += 1
    return len(t)

def cb_statement_end(t, i):
    # end of the statement starting at i: a block, or up to its ";"
    # (if/else chains and nested loops without braces included)
    i = cb_skip(t, i)
    if t.startswith("{", i):
        return cb_match(t, i)
    m = re.match(r"(if|for|while|switch)\b", t[i:])
    if m:
        j = cb_skip(t, i + len(m.group(1)))
        j = cb_match(t, j)
        end = cb_statement_end(t, j)
        if m.group(1) == "if":
            k = cb_skip(t, end)
            if re.match(r"else\b", t[k:]):
                end = cb_statement_end(t, k + 4)
        return end
    return cb_match(t, i, ";")

def cb_loop_extent(p):
    # (start, end, line) of the loop whose keyword or iterator name is at p
    t = cb_source(p.file)
    i = cb_off(p)
    m = re.match(r"\w+", t[i:i + 200])
    if not m:
        return None
    j = cb_skip(t, i + len(m.group(0)))
    if not t.startswith("(", j):
        return None
    j = cb_match(t, j)
    return (i, cb_statement_end(t, j), int(p.line), p.file, j)

def cb_strip(t):
    # comments and literals blanked out (same length: offsets stay valid)
    out, i = [], 0
    while i < len(t):
        if t.startswith("/*", i) or t.startswith(SLASH2, i):
            j = cb_skip(t, i)
            out.append(" " * (j - i))
            i = j
        elif t[i] == QUOTE or t[i] == APOS:
            j = i + 1
            while j < len(t) and t[j] != t[i]:
                j += 2 if t[j] == BACKSLASH else 1
            j = min(j + 1, len(t))
            out.append(" " * (j - i))
            i = j
        else:
            out.append(t[i])
            i += 1
    return "".join(out)

def cb_written(text, x):
    # 1 if the loop text writes variable x: an assignment (=, +=, ...),
    # ++/--, a declaration with an initializer, an iterator cursor, or &x
    # passed on (conservative). Member writes (p->x = ...) do not count.
    X = re.escape(x)
    pats = (r"(?<![\w.>])" + X + r"\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)",
            r"(?<![\w.>])" + X + r"\s*(?:\+\+|--)",
            r"(?:\+\+|--)\s*" + X + r"\b",
            r"&\s*" + X + r"\b(?!\s*(?:->|\.|\[))",
            r"^\w+\s*\(\s*" + X + r"\s*,")   # iterator cursor: I(x, ...)
    return any(re.search(pat, text) for pat in pats)

def cb_exits_after(p):
    # 1 if the statement after the call leaves the loop (break, goto,
    # return): the update then runs at most once per loop run
    t = cb_source(p.file)
    i = cb_match(t, cb_off(p), ";")
    while True:
        i = cb_skip(t, i)
        if t.startswith("#", i):  # #endif and friends between the two
            j = t.find("\n", i)
            i = len(t) if j < 0 else j + 1
            continue
        break
    return re.match(r"(break\s*;|goto\s+\w+\s*;|return\b)", t[i:i + 100]) is not None

def cb_split_args(es):
    # es is the token-spaced text from spatch, "a , b ( c , d ) , e": split at commas
    # that are not inside brackets.
    args, depth, cur = [], 0, []
    for tok in es.split():
        if tok in ("(", "[", "{"):
            depth += 1
        elif tok in (")", "]", "}"):
            depth -= 1
        if tok == "," and depth == 0:
            args.append(" ".join(cur))
            cur = []
        else:
            cur.append(tok)
    if cur:
        args.append(" ".join(cur))
    return args

def cb_idents(expr):
    # Identifiers read by an expression, member names after -> and . left out.
    toks = expr.split()
    out = set()
    for i, t in enumerate(toks):
        if re.match(r"^[A-Za-z_]\w*$", t) and not (i > 0 and toks[i - 1] in ("->", ".")):
            out.add(t)
    return out

def cb_compact(expr):
    # Re-space the token-spaced expression text the way kernel code is written.
    out = []
    toks = expr.split()
    for i, t in enumerate(toks):
        prev = toks[i - 1] if i > 0 else None
        unary_prev = prev is not None and prev in ("-", "+", "!", "~", "*", "&") and \
            (i < 2 or toks[i - 2] in ("(", "[", ",", "?", ":", "=") or
             re.match(r"^[-+*/%<>=!&|^]+$", toks[i - 2]))
        if i == 0 or prev in ("(", "[", "->", ".") or t in (")", "]", ",", "->", ".", "(", "[") \
                and not (t == "(" and prev in ("+", "-", "*", "/", "<<", ">>", "?", ":", ",",
                                                "&&", "||", "|", "&", "==", "!=", "<", ">")) \
                or unary_prev or (i == 1 and prev in ("-", "+", "!", "~", "*", "&")):
            out.append(t)
        else:
            out.append(" " + t)
    return "".join(out)

def cb_decide():
    for (p, name, args) in cb_calls:
        if name not in UPDATERS:
            continue
        at = cb_off(p)
        # the innermost loop around the call: the one that starts last
        inner = None
        for lp in cb_loops:
            if lp[3] == p.file and lp[0] <= at < lp[1] and (inner is None or lp[0] > inner[0]):
                inner = lp
        if inner is None:
            continue
        tidx, iidx = UPDATERS[name]
        if iidx >= len(args) or (tidx is not None and tidx >= len(args)):
            continue
        t = cb_source(p.file)
        loop = cb_strip(t[inner[0]:inner[1]])
        head = loop[:inner[4] - inner[0]]
        def changed_in(text, names):
            return set(x for x in names if cb_written(text, x))
        if cb_exits_after(p):
            continue  # the loop ends right after the update: once per run
        target = args[tidx] if tidx is not None else None
        item = args[iidx]
        if target is not None and changed_in(loop, cb_idents(target)):
            continue  # another lruvec/memcg/zone/page per element: no batching
        shown = ", ".join(cb_compact(a) for a in ([target] if target is not None else []) + [item])
        if re.match(r"^\w+$", item.strip()) and changed_in(head, [item.strip()]):
            continue  # the item is the loop index: each item is updated once
        if changed_in(loop, cb_idents(item)):
            msg = ("%s(%s) in the loop at line %d: the item depends on the element; "
                   "keep one local accumulator per item and apply each once after the loop "
                   "(confidence: low)" % (name, shown, inner[2]))
        else:
            msg = ("%s(%s) in the loop at line %d: target and item do not change in the loop; "
                   "accumulate in a local and apply once after the loop" % (name, shown, inner[2]))
            if (tidx, iidx) == (0, 1) and len(args) == 3 and cb_pure(args[2]) and \
                    not re.search(r"\b(return|goto)\b", loop):
                cb_certain[(p.file, p.line, p.column)] = cb_acc_name(item, t)
        cb_hits[(p.file, p.line, p.column)] = (p, msg, name)

cb_mode = None
cb_records = False   # -D cachehot_records

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
cb_certain = {}  # (file, line, col) -> accumulator name, for patch mode

def cb_pure(expr):
    # no call, no assignment, no ++/--: evaluating it once per element into
    # an accumulator is the same as passing it to the updater
    toks = expr.split()
    for i, t in enumerate(toks):
        if t in ("++", "--") or (t.endswith("=") and t not in ("==", "!=", "<=", ">=")):
            return False
        if t == "(" and i > 0 and re.match(r"^[A-Za-z_]\w*$", toks[i - 1]) and \
                toks[i - 1] != "sizeof":
            return False
    return True

def cb_acc_name(item, text):
    # nr_free_cma_pages for NR_FREE_CMA_PAGES; another name if taken
    item = item.strip()
    if re.match(r"^[A-Z_][A-Z0-9_]*$", item):
        base = item.lower() if item.startswith("NR_") else "nr_" + item.lower()
    else:
        base = "nr_batched"
    name = base
    while re.search(r"\b" + name + r"\b", text):
        name += "_batched"
    return name

def cb_keep_certain(p):
    return (p.file, p.line, p.column) in cb_certain

def cb_print_hits():
    for key in sorted(cb_hits, key=lambda k: (k[0], int(k[1]), int(k[2]))):
        loc, msg, name = cb_hits[key]
        if cb_mode == "report":
            coccilib.report.print_report(loc, msg)
            if cb_records:
                cachehot_record(loc, "cachehot-counter_batch", msg,
                                function=loc.current_element, field=name)
        elif cb_mode == "org":
            coccilib.org.print_todo(loc, msg)

def cb_is_hit(p):
    return (p[0].file, p[0].line, p[0].column) in cb_hits

@script:python depends on report@
@@
cb_mode = "report"

@script:python depends on org@
@@
cb_mode = "org"

@script:python depends on cachehot_records@
@@
cb_records = True

@script:python batch_extra@
extra << virtual.counter_batch_updaters;
@@
cb_add_updaters(extra)

// The built-in updaters by a regular expression (checked by spatch itself,
// no Python call per function call); keep it equal to UPDATERS above.
@calls@
identifier upd =~ "^(__mod_lruvec_state|mod_lruvec_state|__mod_lruvec_page_state|__mod_node_page_state|mod_node_page_state|__mod_zone_page_state|mod_zone_page_state|__count_vm_events?|count_vm_events?|__mod_memcg_state|mod_memcg_state|__count_memcg_events)$";
expression list es;
position p;
@@
upd@p(es)

@script:python@
p << calls.p;
es << calls.es;
@@
cb_calls.append((p[0], cb_name_at(p[0]), [str(a) for a in es.elements]))

// Updaters added with -D counter_batch_updaters=...
@calls_extra depends on batch_extra@
identifier upd : script:python () { cb_is_extra(upd) };
expression list es;
position p;
@@
upd@p(es)

@script:python@
p << calls_extra.p;
es << calls_extra.es;
@@
cb_calls.append((p[0], cb_name_at(p[0]), [str(a) for a in es.elements]))

// Flat matches only (a nested <+... ...+> per loop timed out on
// mm/vmscan.c, and a rule per write cost a Python call per assignment): the
// calls above and the loop heads. Which call lies in which loop, and which
// variables a loop writes, is read from the source text of the loop
// (cb_loop_extent, cb_written).
@loops depends on calls || calls_extra@
iterator I;
statement S;
position pl;
@@
(
for@pl (...;...;...) S
|
while@pl (...) S
|
I@pl(...) S
)

@script:python@
pl << loops.pl;
@@
ext = cb_loop_extent(pl[0])
if ext:
    cb_loops.append(ext)

@script:python depends on calls || calls_extra@
@@
cb_decide()
cb_print_hits()

@depends on context && (calls || calls_extra)@
identifier upd : script:python () { cb_is_updater(upd) };
expression list es;
position p : script:python () { cb_is_hit(p) };
@@
* upd@p(es)

// Patch mode, only where the rewrite is certain (see Comments above): the
// update is a statement "UPD(TARGET, ITEM, DELTA);" of a loop body, target
// and item do not change in the loop, DELTA has no call and no side effect,
// and nothing in the loop returns or jumps out with goto (break and
// continue are fine: the batched update follows the loop).
// Only files with a certain rewrite go on (the nested matches below are
// slow on big files).
@script:python cb_any depends on patch@
@@
if not cb_certain:
    cocci.include_match(False)

@cb_find_for depends on patch && cb_any@
identifier upd;
expression T, I, D;
position p, pl;
position q : script:python () { cb_keep_certain(q[0]) };
@@
for@pl (...;...;...) { <+... upd@p@q(T, I, D) ...+> }

@script:python cb_name_for@
p << cb_find_for.p;
acc;
@@
if cb_keep_certain(p[0]):
    coccinelle.acc = cb_certain[(p[0].file, p[0].line, p[0].column)]
else:
    cocci.include_match(False)

@depends on patch@
identifier cb_find_for.upd;
expression cb_find_for.T, cb_find_for.I, cb_find_for.D;
position cb_find_for.p, cb_find_for.pl;
identifier cb_name_for.acc;
identifier f;
@@
f(...) {
+ long acc = 0;
...
for@pl (...;...;...) {
<...
- upd@p(T, I, D);
+ acc += D;
...>
}
+ if (acc)
+	upd(T, I, acc);
...
}

@cb_find_while depends on patch && cb_any@
identifier upd;
expression T, I, D;
position p, pl;
position q : script:python () { cb_keep_certain(q[0]) };
@@
while@pl (...) { <+... upd@p@q(T, I, D) ...+> }

@script:python cb_name_while@
p << cb_find_while.p;
acc;
@@
if cb_keep_certain(p[0]):
    coccinelle.acc = cb_certain[(p[0].file, p[0].line, p[0].column)]
else:
    cocci.include_match(False)

@depends on patch@
identifier cb_find_while.upd;
expression cb_find_while.T, cb_find_while.I, cb_find_while.D;
position cb_find_while.p, cb_find_while.pl;
identifier cb_name_while.acc;
identifier f;
@@
f(...) {
+ long acc = 0;
...
while@pl (...) {
<...
- upd@p(T, I, D);
+ acc += D;
...>
}
+ if (acc)
+	upd(T, I, acc);
...
}

@cb_find_iter depends on patch && cb_any@
identifier upd;
expression T, I, D;
iterator J;
position p, pl;
position q : script:python () { cb_keep_certain(q[0]) };
@@
J@pl(...) { <+... upd@p@q(T, I, D) ...+> }

@script:python cb_name_iter@
p << cb_find_iter.p;
acc;
@@
if cb_keep_certain(p[0]):
    coccinelle.acc = cb_certain[(p[0].file, p[0].line, p[0].column)]
else:
    cocci.include_match(False)

@depends on patch@
identifier cb_find_iter.upd;
expression cb_find_iter.T, cb_find_iter.I, cb_find_iter.D;
iterator cb_find_iter.J;
position cb_find_iter.p, cb_find_iter.pl;
identifier cb_name_iter.acc;
identifier f;
@@
f(...) {
+ long acc = 0;
...
J@pl(...) {
<...
- upd@p(T, I, D);
+ acc += D;
...>
}
+ if (acc)
+	upd(T, I, acc);
...
}

@script:python@
@@
cb_certain.clear()
del cb_calls[:]
del cb_loops[:]
cb_starts.clear()
cb_hits.clear()
cb_text.clear()

// ---- cocci/inline_fnptr.cocci
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

// ---- cocci/unify_padding.cocci
// SPDX-License-Identifier: GPL-2.0
///
/// Replace a private cache-line padding type and its wrapper macro (a
/// "struct X { char x[0]; } ____cacheline_internodealigned_in_smp;" with
/// "#define X_PADDING(name) struct X name", as ZONE_PADDING, MEMCG_PADDING
/// and PC_PADDING were) by the shared CACHELINE_PADDING(name) from
/// <linux/cache.h>: every use becomes CACHELINE_PADDING(name); and the
/// private definitions go away. The layout does not change: both are empty
/// structs aligned to the internode cache line, and both vanish on !SMP.
/// Rule source: linux-6.1 include/linux/cache.h, CACHELINE_PADDING ("Helper
/// to add padding within a struct to ensure data fall into separate
/// cachelines"), which replaced the private copies in mmzone.h,
/// memcontrol.h and page_counter.h after review asked for one shared macro
/// (the 2022 upstream change present in 6.1.y; subject not verified offline).
///
// Confidence: High (definitions and uses as written in the kernel);
//  direct "struct X_padding name;" fields: Moderate
// Copyright: (C) 2026 The cachehot authors
// Comments: SmPL finds the private padding types (a struct whose only member
//  is a zero-length char array, checked for an alignment attribute) and the
//  wrapper-macro uses that spatch parses as struct fields (a field
//  metavariable). Coccinelle 1.1.1 cannot write a macro call as a struct
//  member in + code, cannot parse "#define M(name) struct X name" bodies and
//  does not parse uses that lack a semicolon (ZONE_PADDING(_pad1_)). So in
//  patch mode the python part of this rule completes the edit on the text
//  of each file that SmPL flagged: it removes the "#if defined(CONFIG_SMP)
//  struct ... #define ... #else #define ... #endif" block, rewrites every
//  use of the macros defined or found there to "CACHELINE_PADDING(name);",
//  adds "#include <linux/cache.h>" after the last #include when the file
//  lacks it, and prints a unified diff ("--- a/FILE", "+++ b/FILE", apply
//  with patch -p1 from the directory spatch ran in); context mode prints
//  the flagged lines the same way. Only types aligned with
//  ____cacheline_internodealigned_in_smp (as CACHELINE_PADDING is) are
//  rewritten; others (____cacheline_aligned_in_smp: larger internode lines
//  differ, e.g. x86 VSMP) are reported with "not patched". Uses of a macro
//  defined in a file outside the run are reported only. docs/cocci.rst
//  describes both paths. Messages end in [cachehot-padding-macro].
//
// Keywords: CACHELINE_PADDING, ZONE_PADDING, MEMCG_PADDING, PC_PADDING
//


@initialize:python@
@@
import re, sys, difflib

UP_ID = "[cachehot-padding-macro]"
# An alignment attribute after the closing brace of a padding type.
UP_ALIGN = re.compile(r"cacheline|aligned|__attribute__")
# The whole private definition block, as the kernel wrote it (optionally
# without the CONFIG_SMP guard). Groups: tag, macro.
UP_BLOCK = re.compile(
    r"(?:^[ \t]*#[ \t]*if(?:[ \t]+defined[ \t]*\(?[ \t]*CONFIG_SMP[ \t]*\)?|def[ \t]+CONFIG_SMP)[ \t]*\n)?"
    r"^[ \t]*struct[ \t]+(?P<tag>\w+)[ \t]*\{\s*char[ \t]+\w+[ \t]*\[[ \t]*0[ \t]*\][ \t]*;\s*\}"
    r"[^;{}]*;[ \t]*\n"
    r"^[ \t]*#[ \t]*define[ \t]+(?P<macro>\w+)[ \t]*\([ \t]*(?P<arg>\w+)[ \t]*\)[ \t]+"
    r"struct[ \t]+(?P=tag)[ \t]+(?P=arg)[ \t]*;?[ \t]*\n"
    r"(?:^[ \t]*#[ \t]*else[^\n]*\n"
    r"^[ \t]*#[ \t]*define[ \t]+(?P=macro)[ \t]*\([ \t]*\w+[ \t]*\)[ \t]*\n"
    r"^[ \t]*#[ \t]*endif[^\n]*\n)?", re.M)
# A padding type definition. Groups: tag, attr (the text after the brace).
UP_DEF = re.compile(
    r"^[ \t]*struct[ \t]+(?P<tag>\w+)[ \t]*\{\s*char[ \t]+\w+[ \t]*\[[ \t]*0[ \t]*\][ \t]*;\s*\}"
    r"(?P<attr>[^;{}]*);[ \t]*\n", re.M)
# CACHELINE_PADDING aligns to the internode line; a type aligned otherwise
# (____cacheline_aligned_in_smp: SMP_CACHE_BYTES) is the same only where
# INTERNODE_CACHE_SHIFT == L1_CACHE_SHIFT, so it is reported, not rewritten.
UP_SAME_ALIGN = "____cacheline_internodealigned_in_smp"
UP_FIELD = re.compile(r"^\s*(\w+)\s*\(\s*(\w+)\s*\)\s*;\s*$")
UP_DIRECT = re.compile(r"^\s*struct\s+(\w+)\s+(\w+)\s*;\s*$")

up_text = {}      # file -> text
up_types = {}     # file -> {tag: (Location, has alignment)}
up_macros = {}    # file -> {macro name: tag}
up_hits = []      # (Location, message) for this file
up_files = []     # files flagged by SmPL, in order
up_about = {}     # (file, line, col) of a hit -> (struct, member) it is about
up_records = False   # -D cachehot_records

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

def up_hit(loc, msg, struct, member):
    up_hits.append((loc, msg))
    up_about[(loc.file, int(loc.line), int(loc.column))] = (struct, member)

def up_struct_around(text, at):
    # the struct whose body holds offset at (a use found in the text)
    best = None
    for m in re.finditer(r"\bstruct[ \t]+(\w+)[ \t\n]*\{", text[:at]):
        if "}" not in text[m.end():at].replace("{}", ""):
            best = m.group(1)
    return best

def up_read(fname):
    if fname not in up_text:
        with open(fname, errors="replace") as f:
            up_text[fname] = f.read()
    return up_text[fname]

def up_line_offset(text, line):
    off = 0
    for _ in range(int(line) - 1):
        off = text.index("\n", off) + 1
    return off

def up_private_macro(name):
    # A wrapper macro of a private padding type: defined next to one in a
    # file seen here, or named like the kernel ones (X_PADDING).
    for macros in up_macros.values():
        if name in macros:
            return True
    return name != "CACHELINE_PADDING" and name.endswith("_PADDING")

def up_private_tag(tag):
    for types in up_types.values():
        if tag in types:
            return True
    return tag != "cacheline_padding" and tag.endswith("_padding")

def up_macro_tag(name):
    for macros in up_macros.values():
        if name in macros:
            return macros[name]
    return None

def up_tag_aligned_otherwise(tag):
    # 1 when the type is known here and aligned unlike CACHELINE_PADDING
    for types in up_types.values():
        if tag in types:
            return UP_SAME_ALIGN not in types[tag][1]
    return False

def up_flag(fname):
    if fname not in up_files:
        up_files.append(fname)

def up_remove(out, start, end):
    # Remove out[start:end] with the comment right above it (it describes
    # the removed definition) and without leaving two blank lines behind.
    cm = re.search(r"(?:^[ \t]*/\*(?:(?!\*/).)*\*/[ \t]*\n)$", out[:start], re.S | re.M)
    if cm:
        start = cm.start()
    if (start == 0 or out[:start].endswith("\n\n")) and out[end:].startswith("\n"):
        end += 1
    return out[:start] + out[end:]

def up_convertible_tags(text):
    tags = set(m.group("tag") for m in UP_DEF.finditer(text)
               if UP_SAME_ALIGN in m.group("attr") and m.group("tag") != "cacheline_padding")
    for types in up_types.values():
        tags.update(t for (t, (loc, attr)) in types.items() if UP_SAME_ALIGN in attr)
    return tags

def up_rewrite(text):
    # The completion of the SmPL part: returns the converted text.
    tags = up_convertible_tags(text)
    macros = set()
    for fm in up_macros.values():
        macros.update(mn for (mn, tag) in fm.items() if tag in tags)
    out = text
    for m in reversed(list(UP_BLOCK.finditer(text))):
        if m.group("tag") in tags:
            macros.add(m.group("macro"))
            out = up_remove(out, m.start(), m.end())
    for name in sorted(macros):
        # a use inside a struct body: "NAME(x);" or "NAME(x)" on its own line
        out = re.sub(r"^([ \t]*)" + name + r"[ \t]*\([ \t]*(\w+)[ \t]*\)[ \t]*;?",
                     r"\1CACHELINE_PADDING(\2);", out, flags=re.M)
    for tag in sorted(tags):
        out = re.sub(r"^([ \t]*)struct[ \t]+" + tag + r"[ \t]+(\w+)[ \t]*;",
                     r"\1CACHELINE_PADDING(\2);", out, flags=re.M)
    # a definition left without a wrapper macro goes once nothing names it
    for m in reversed(list(UP_DEF.finditer(out))):
        tag = m.group("tag")
        if tag in tags and not re.search(r"\b" + tag + r"\b", out[:m.start()] + out[m.end():]):
            out = up_remove(out, m.start(), m.end())
    if out != text and not re.search(r"^[ \t]*#[ \t]*include[ \t]*<linux/cache\.h>", out, re.M):
        incs = list(re.finditer(r"^[ \t]*#[ \t]*include[^\n]*\n", out, re.M))
        if incs:
            at = incs[-1].end()
            out = out[:at] + "#include <linux/cache.h>\n" + out[at:]
        else:
            guard = re.search(r"^#define[ \t]+\w+[ \t]*\n", out, re.M)
            at = guard.end() if guard else 0
            out = out[:at] + "\n#include <linux/cache.h>\n" + out[at:]
    return out

def up_text_uses():
    # Uses of the private macros of this file that spatch did not parse (no
    # semicolon: ZONE_PADDING(_pad1_)) are found in the text.
    for fname in list(up_files):
        text = up_read(fname)
        seen = set(int(loc.line) for (loc, msg) in up_hits if loc.file == fname)
        for mname in up_macros.get(fname, {}):
            for m in re.finditer(r"^([ \t]*)" + mname + r"[ \t]*\([ \t]*(\w+)[ \t]*\)", text, re.M):
                line = text.count("\n", 0, m.start()) + 1
                if line in seen:
                    continue
                col = len(m.group(1))
                loc = coccilib.elems.Location(fname, "", line, col, line, col,
                                              line, col, line, col + len(m.group(0)) - len(m.group(1)))
                up_hit(loc, "%s(%s) uses a private cache-line padding type: use "
                       "CACHELINE_PADDING(%s) from <linux/cache.h> %s"
                       % (mname, m.group(2), m.group(2), UP_ID),
                       up_struct_around(text, m.start()), m.group(2))

def up_print_context(fname):
    # Context mode: the flagged lines shown as removed, in the form spatch
    # itself uses for context output (a SmPL "*" rule loses struct members
    # next to comments in Coccinelle 1.1.1, and cannot see uses without a
    # semicolon).
    text = up_read(fname)
    lines = text.splitlines(True)
    drop = set()
    for (loc, msg) in up_hits:
        if loc.file != fname:
            continue
        first = int(loc.line) - 1
        last = first
        if msg.startswith("private cache-line padding type"):
            while last < len(lines) - 1 and "}" not in lines[last]:
                last += 1
        drop.update(range(first, last + 1))
    new = [l for (i, l) in enumerate(lines) if i not in drop]
    name = fname[2:] if fname.startswith("./") else fname
    diff = difflib.unified_diff(lines, new, name, "/tmp/nothing/" + name)
    sys.stdout.write("".join(diff))

def up_print_patch(fname):
    text = up_read(fname)
    new = up_rewrite(text)
    if new == text:
        return
    name = fname[2:] if fname.startswith("./") else fname
    diff = difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                "a/" + name, "b/" + name)
    sys.stdout.write("".join(diff))

@padtype@
identifier P, x;
position p;
@@
struct P@p { char x[0]; };

@script:python@
P << padtype.P;
p << padtype.p;
@@
text = up_read(p[0].file)
d = UP_DEF.search(text, up_line_offset(text, p[0].line))
attr = d.group("attr").strip() if d and d.group("tag") == P else ""
if P != "cacheline_padding" and UP_ALIGN.search(attr):
    up_types.setdefault(p[0].file, {})[P] = (p[0], attr)
    macros = [m.group("macro") for m in UP_BLOCK.finditer(text) if m.group("tag") == P]
    for mname in macros:
        up_macros.setdefault(p[0].file, {})[mname] = P
    shown = "struct %s" % P + (" (%s)" % ", ".join(macros) if macros else "")
    if UP_SAME_ALIGN in attr:
        msg = "private cache-line padding type %s: use CACHELINE_PADDING() from <linux/cache.h> %s" % (shown, UP_ID)
    else:
        msg = ("private padding type %s is aligned by %s, not %s as CACHELINE_PADDING() is: "
               "converting it changes the layout where the two differ; not patched %s"
               % (shown, attr, UP_SAME_ALIGN, UP_ID))
    up_hit(p[0], msg, P, None)
    up_flag(p[0].file)

@paduse@
identifier s;
field F;
position p;
@@
struct s { ... F@p ... };

@script:python@
F << paduse.F;
s << paduse.s;
p << paduse.p;
@@
m = UP_FIELD.match(F)
d = UP_DIRECT.match(F)
if m and up_private_macro(m.group(1)):
    if up_tag_aligned_otherwise(up_macro_tag(m.group(1))):
        msg = ("%s(%s) uses a private padding type aligned otherwise than "
               "CACHELINE_PADDING(); not patched %s" % (m.group(1), m.group(2), UP_ID))
    else:
        msg = ("%s(%s) uses a private cache-line padding type: use "
               "CACHELINE_PADDING(%s) from <linux/cache.h> %s"
               % (m.group(1), m.group(2), m.group(2), UP_ID))
    up_hit(p[0], msg, s, m.group(2))
    up_flag(p[0].file)
elif d and up_private_tag(d.group(1)):
    if up_tag_aligned_otherwise(d.group(1)):
        msg = ("member '%s' of private padding type struct %s, aligned otherwise than "
               "CACHELINE_PADDING(); not patched %s" % (d.group(2), d.group(1), UP_ID))
    else:
        msg = ("member '%s' of private padding type struct %s: use "
               "CACHELINE_PADDING(%s) from <linux/cache.h> %s"
               % (d.group(2), d.group(1), d.group(2), UP_ID))
    up_hit(p[0], msg, s, d.group(2))
    up_flag(p[0].file)

@script:python@
@@
up_text_uses()

@script:python depends on cachehot_records@
@@
up_records = True

@script:python depends on report@
@@
for (loc, msg) in sorted(up_hits, key=lambda h: (h[0].file, int(h[0].line), int(h[0].column))):
    coccilib.report.print_report(loc, msg)
    if up_records:
        struct, member = up_about.get((loc.file, int(loc.line), int(loc.column)), (None, None))
        cachehot_record(loc, "cachehot-padding-macro", msg.replace(" " + UP_ID, ""),
                        struct=struct, field=member)

@script:python depends on org@
@@
for (loc, msg) in sorted(up_hits, key=lambda h: (h[0].file, int(h[0].line), int(h[0].column))):
    coccilib.org.print_todo(loc, msg)

@script:python depends on patch@
@@
for fname in up_files:
    up_print_patch(fname)

@script:python depends on context@
@@
for fname in up_files:
    up_print_context(fname)

@script:python@
@@
del up_hits[:]
del up_files[:]
up_about.clear()
up_text.clear()
