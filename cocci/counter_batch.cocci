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
// Options: --no-includes --include-headers
//
// Keywords: vmstat, memcg, lruvec, batching, false sharing
//

virtual report
virtual org
virtual context
virtual patch
virtual cachehot_records

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
