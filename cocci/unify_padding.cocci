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
// Options: --no-includes --include-headers
//
// Keywords: CACHELINE_PADDING, ZONE_PADDING, MEMCG_PADDING, PC_PADDING
//

virtual report
virtual org
virtual context
virtual patch
virtual cachehot_records

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
