/* SPDX-License-Identifier: GPL-2.0 */
/*
 * messages.c -- the texts that are not layout findings but that every engine
 * must print alike: inline-addr findings, misused annotations, sidecar
 * diagnostics. Layout findings are formatted in rules.c.
 */
#include <stdio.h>
#include <string.h>
#include "internal.h"

#define BLOAT_HINT "`cachehot-bloat OBJ` gives its size in bytes from the symbol table"

int ch_inline_use_fixable(enum ch_inline_use use)
{
	return use == CH_USE_SELECTOR;
}

static const char *or_q(const char *s)
{
	return s ? s : "?";
}

const char *ch_inline_addr_message(ch_ctx *ctx, const struct ch_inline_finding *f)
{
	const char *what, *how;
	const char *tag = ch_check_id(CH_CHECK_INLINE_ADDR);
	const char *emitted = "so an out-of-line copy is emitted";

	if (f->use == CH_USE_VALUE)
		return ch_printf(ctx, "inline function '%s' is used as a value (its address is "
				 "taken); %s cannot tell whether the compiler emits an out-of-line "
				 "copy: the GCC plugin (call graph) or `cachehot-bloat OBJ` (symbol "
				 "table) can [%s]", or_q(f->function), f->engine ? f->engine : "this engine",
				 tag);
	what = f->def_file && f->def_line
		? ch_printf(ctx, "inline function '%s' (defined at %s:%u)", or_q(f->function),
			    f->def_file, f->def_line)
		: ch_printf(ctx, "inline function '%s'", or_q(f->function));
	if (f->extern_def)
		/* C99 6.7.4 / GNU89 inline: a definition with external linkage
		 * (neither static nor extern inline) is always emitted; the kernel's
		 * "inline" is gnu_inline, so "inline T f() {}" in a .c file is one
		 * (6.12 blk_op_str, touch_buffer, next to their EXPORT_SYMBOL) */
		return ch_printf(ctx, "%s is a non-static inline definition: with external "
				 "linkage its out-of-line copy is always emitted, whatever takes its "
				 "address (here it %s); make it static inline in a header, or drop "
				 "'inline' [%s]", what,
				 f->use == CH_USE_TABLE && f->var
				 ? ch_printf(ctx, "is stored in the initializer of '%s'", f->var)
				 : "is used as a value", tag);
	switch (f->use) {
	case CH_USE_SELECTOR:
		how = ch_printf(ctx, "is chosen through the local function pointer '%s', %s; "
				"call %s directly", or_q(f->var), emitted,
				f->alternatives ? f->alternatives : or_q(f->function));
		break;
	case CH_USE_LOCAL_ARG:
		how = ch_printf(ctx, "is assigned to the local function pointer '%s', which is passed "
				"to '%s' (argument %d), %s", or_q(f->var),
				f->callee ? f->callee : "an indirect call", f->argno, emitted);
		break;
	case CH_USE_LOCAL:
		how = ch_printf(ctx, "is assigned to the local function pointer '%s', %s",
				or_q(f->var), emitted);
		break;
	case CH_USE_TABLE:
		how = f->var ? ch_printf(ctx, "is stored in the initializer of '%s' (ops table), %s",
					 f->var, emitted)
			     : ch_printf(ctx, "is stored in an initializer (ops table), %s", emitted);
		break;
	case CH_USE_FIELD:
		how = ch_printf(ctx, "is stored through a pointer or structure field (callback "
				"registration), %s", emitted);
		break;
	case CH_USE_ARG:
		how = ch_printf(ctx, "is passed to '%s' (argument %d), %s",
				f->callee ? f->callee : "an indirect call", f->argno, emitted);
		break;
	case CH_USE_GLOBAL:
		how = ch_printf(ctx, "is stored in '%s', %s", or_q(f->var), emitted);
		break;
	case CH_USE_RETURN:
		how = ch_printf(ctx, "is returned as a function pointer, %s", emitted);
		break;
	case CH_USE_COMPARE:
		how = ch_printf(ctx, "has its address compared, %s", emitted);
		break;
	case CH_USE_ASM:
		how = ch_printf(ctx, "is an asm operand, %s", emitted);
		break;
	default:
		how = ch_printf(ctx, "has its address taken, %s", emitted);
		break;
	}
	return ch_printf(ctx, "%s %s; " BLOAT_HINT " [%s]", what, how, tag);
}

const char *ch_msg_attr_not_member(ch_ctx *ctx, const char *attr)
{
	return ch_printf(ctx, "'%s' attribute applies only to struct or union members and to "
			 "variables of static storage [cachehot]", attr);
}

const char *ch_msg_attr_group_not_string(ch_ctx *ctx, const char *attr)
{
	return ch_printf(ctx, "'%s' attribute takes a string literal group name, as in "
			 "'__cacheline_hot_group(name)' [cachehot]", attr);
}

const char *ch_msg_attr_group_empty(ch_ctx *ctx, const char *attr)
{
	return ch_printf(ctx, "'%s' attribute: the group name is empty [cachehot]", attr);
}

int ch_group_name_valid(const char *s, size_t len)
{
	size_t i;
	if (!len || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* s[0..len) as C escapes, at most 64 bytes of it (then "..."). */
static const char *shown(ch_ctx *ctx, const char *s, size_t len)
{
	char buf[64 * 4 + 8];
	size_t i, o = 0;
	for (i = 0; i < len && i < 64; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n') { buf[o++] = '\\'; buf[o++] = 'n'; }
		else if (c == '\t') { buf[o++] = '\\'; buf[o++] = 't'; }
		else if (c == '\\' || c == '\'') { buf[o++] = '\\'; buf[o++] = (char)c; }
		else if (c < 32 || c >= 127)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	if (i < len) { buf[o++] = '.'; buf[o++] = '.'; buf[o++] = '.'; }
	buf[o] = 0;
	return ch_printf(ctx, "%s", buf);
}

const char *ch_msg_attr_group_not_identifier(ch_ctx *ctx, const char *attr, const char *name,
					     size_t len)
{
	return ch_printf(ctx, "'%s' attribute: the group name '%s' is not a C identifier (letters, "
			 "digits and '_', as sidecar groups are) [cachehot]", attr,
			 shown(ctx, name, len));
}

const char *ch_msg_attr_conflict_groups(ch_ctx *ctx, const char *attr, const char *group,
				       const char *other, const char *other_group)
{
	const char *a = group ? ch_printf(ctx, "'%s' (group '%s')", attr, group)
			      : ch_printf(ctx, "'%s'", attr);
	const char *b = other_group ? ch_printf(ctx, "'%s' (group '%s')", other, other_group)
				    : ch_printf(ctx, "'%s'", other);
	return ch_printf(ctx, "%s conflicts with %s on the same member: one class and group "
			 "per field [cachehot]", a, b);
}

const char *ch_msg_attr_conflict(ch_ctx *ctx, const char *attr, const char *other)
{
	return ch_msg_attr_conflict_groups(ctx, attr, NULL, other, NULL);
}

const char *ch_msg_addressable_not_function(ch_ctx *ctx, const char *what)
{
	return ch_printf(ctx, "attribute 'cachehot_addressable' applies only to functions, "
			 "not to '%s' [%s]", what, ch_check_id(CH_CHECK_INLINE_ADDR));
}

const char *ch_msg_addressable_args(ch_ctx *ctx)
{
	return ch_printf(ctx, "attribute 'cachehot_addressable' takes no arguments [%s]",
			 ch_check_id(CH_CHECK_INLINE_ADDR));
}

const char *ch_msg_sidecar_no_member(ch_ctx *ctx, const char *entry, const char *file,
				     unsigned line, const char *type_name)
{
	if (strstr(entry, ".@"))   /* STRUCT.@GROUP */
		return ch_printf(ctx, "sidecar entry '%s' (%s:%u) names no cacheline group of '%s' "
				 "(no __cacheline_group_begin(%s) in it) [cachehot]",
				 entry, file, line, type_name, strstr(entry, ".@") + 2);
	return ch_printf(ctx, "sidecar entry '%s' (%s:%u) names no member of '%s' [cachehot]",
			 entry, file, line, type_name);
}

const char *ch_msg_sidecar_typedef(ch_ctx *ctx, const char *entry, const char *file,
				   unsigned line, const char *typedef_name, const char *tag,
				   int is_union)
{
	const char *rest = strchr(entry, '.');
	return ch_printf(ctx, "sidecar entry '%s' (%s:%u) names typedef '%s' of '%s %s': "
			 "a sidecar names the struct tag; write '%s%s' [cachehot]",
			 entry, file, line, typedef_name, is_union ? "union" : "struct", tag,
			 tag, rest ? rest : "");
}

/* A per_thread entry ("NAME[]", "STRUCT.FIELD[]"; core/sidecar.c) names an
 * array, not a struct: "matched no struct" would be wrong for an entry
 * whose struct exists but whose member is no array or pointer. */
static int per_thread_entry(const char *entry)
{
	size_t l = strlen(entry);
	return l > 2 && !strcmp(entry + l - 2, "[]");
}

/* What a per_thread entry names (docs/annotations.rst) */
#define PER_THREAD_NAMES "a per_thread entry names an array variable (or a pointer to a heap " \
	"array) or a struct tag (every array of that type), STRUCT.FIELD an array or pointer " \
	"member"

/* A FUNCTION() addressable entry matches where [cachehot-inline-addr] would
 * report the function: an inline function whose address is taken. */
static int function_entry(const char *entry)
{
	size_t l = strlen(entry);
	return l > 2 && !strcmp(entry + l - 2, "()");
}

const char *ch_msg_sidecar_unmatched(ch_ctx *ctx, const char *entry, const char *file,
				     unsigned line)
{
	if (function_entry(entry))
		return ch_printf(ctx, "sidecar entry '%s' (%s:%u) " CH_MSG_UNMATCHED_FUNC_TAIL
				 " [cachehot]", entry, file, line);
	if (per_thread_entry(entry))
		return ch_printf(ctx, "sidecar entry '%s' (%s:%u) " CH_MSG_UNMATCHED_ARRAY_TAIL
				 ": " PER_THREAD_NAMES " [cachehot]", entry, file, line);
	return ch_printf(ctx, "sidecar entry '%s' (%s:%u) matched no struct in this "
			 "translation unit [cachehot]", entry, file, line);
}

const char *ch_msg_sidecar_unmatched_input(ch_ctx *ctx, const char *entry, const char *file,
					   unsigned line)
{
	if (per_thread_entry(entry))
		return ch_printf(ctx, "sidecar entry '%s' (%s:%u) matched no array in the input: "
				 PER_THREAD_NAMES " [cachehot]", entry, file, line);
	return ch_printf(ctx, "sidecar entry '%s' (%s:%u) matched no struct in the input "
			 "[cachehot]", entry, file, line);
}

const char *ch_msg_sidecar_stale(ch_ctx *ctx, const char *entry, const char *file,
				 unsigned line, unsigned long units)
{
	if (function_entry(entry))
		return ch_printf(ctx, "sidecar entry '%s' (%s:%u) matched no inline function whose "
				 "address is taken in any of the %lu units checked: it silences "
				 "nothing (a stale or misspelt entry); delete or correct it [cachehot]",
				 entry, file, line, units);
	if (per_thread_entry(entry))
		return ch_printf(ctx, "sidecar entry '%s' (%s:%u) matched no array in any of the "
				 "%lu units checked: the tree has no such array variable, struct or "
				 "array or pointer member (a stale or misspelt entry, a typedef name "
				 "where the struct tag is needed, or a member that is neither an "
				 "array nor a pointer); delete or correct it [cachehot]", entry, file,
				 line, units);
	return ch_printf(ctx, "sidecar entry '%s' (%s:%u) matched no struct in any of the %lu "
			 "units checked: the tree has no such struct (a stale or misspelt entry, "
			 "or a typedef name where the struct tag is needed); delete or correct it "
			 "[cachehot]", entry, file, line, units);
}

const char *ch_msg_nothing_judged(ch_ctx *ctx)
{
	return ch_printf(ctx, "no annotated struct judged: DWARF and BTF do not carry cachehot's "
			 "attributes; give the plugin's manifest (--manifest FILE, from "
			 "-fplugin-arg-cachehot-manifest=FILE) or a sidecar (--annotations FILE)");
}

const char *ch_msg_no_layout(ch_ctx *ctx, const char *type_name, int is_union)
{
	return ch_printf(ctx, "'%s %s' has annotated fields but no fixed layout (a variable-length "
			 "member or a C++ template): it is not judged [%s]",
			 is_union ? "union" : "struct", type_name ? type_name : "<anonymous>",
			 ch_check_id(CH_CHECK_FALSE_SHARING));
}

const char *ch_msg_line_size_fallback(ch_ctx *ctx, const char *macro, const char *why)
{
	return ch_printf(ctx, "cannot take the cache line size from '%s' (%s): using the default, "
			 "%u bytes; give the line size explicitly to choose another [cachehot]",
			 macro, why, CH_DEFAULT_LINE_SIZE);
}

const char *ch_msg_sparse_no_layout(ch_ctx *ctx, const char *type_name, int is_union,
				    int name_is_typedef, const char *why)
{
	return ch_printf(ctx, "'%s%s' has annotated fields, but sparse lays it out unlike GCC "
			 "(%s): the sparse checker does not judge it; the GCC plugin and "
			 "cachehot-layout do [%s]",
			 name_is_typedef && type_name ? "" : is_union ? "union " : "struct ",
			 type_name ? type_name : "<anonymous>", why,
			 ch_check_id(CH_CHECK_FALSE_SHARING));
}

const char *ch_predict_problem(ch_ctx *ctx, unsigned line_size, unsigned predict)
{
	unsigned L = line_size ? line_size : CH_DEFAULT_LINE_SIZE;
	if (predict && predict <= L)
		return ch_printf(ctx, "predict=%u must be larger than the line size (%u bytes)",
				 predict, L);
	return NULL;
}

const char *ch_config_problem(ch_ctx *ctx, const struct ch_config *cfg)
{
	return ch_predict_problem(ctx, ch_config_line_size(cfg), cfg->predict);
}

const char *ch_inline_addr_sized(ch_ctx *ctx, const char *message,
				 unsigned long long bytes, const char *object)
{
	const char *at = message ? strstr(message, BLOAT_HINT) : NULL;
	if (!at)
		return message;
	return ch_printf(ctx, "%.*sits out-of-line copy is %llu bytes in %s (symbol table)%s",
			 (int)(at - message), message, bytes, object,
			 at + strlen(BLOAT_HINT));
}

const char *ch_msg_attr_per_thread(ch_ctx *ctx, const char *attr)
{
	return ch_printf(ctx, "'%s' attribute applies only to variables, struct members and "
			 "struct types (an array of per-thread elements, or its element type) "
			 "[%s]", attr, ch_check_id(CH_CHECK_ARRAY_SHARING));
}

/* ---- [cachehot-global-sharing] ------------------------------------------- */

static const char *class_phrase(ch_ctx *ctx, const struct ch_global *g)
{
	switch (g->cls) {
	case CH_CLASS_HOT:
		return g->group ? ch_printf(ctx, "hot, group '%s', ", g->group) : "hot, ";
	case CH_CLASS_EXCLUSIVE: return "exclusive, ";
	case CH_CLASS_READ_MOSTLY: return "read-mostly, ";
	default: return "";
	}
}

static const char *bytes(ch_ctx *ctx, uint64_t n)
{
	return ch_printf(ctx, "%llu byte%s", (unsigned long long)n, n == 1 ? "" : "s");
}

/* Where a symbol is: "8 bytes at offset 16 of '.bss'" in an object; "8
 * bytes at 0x4030, offset 24 of '.bss'" in a linked file. in: the section
 * the sentence is about (not repeated for symbols in it). */
static const char *place(ch_ctx *ctx, const struct ch_global *g, int relocatable, const char *in)
{
	const char *sec = in && g->section && !strcmp(in, g->section) ? ""
			  : ch_printf(ctx, " of '%s'", g->section ? g->section : "?");
	if (relocatable)
		return ch_printf(ctx, "%s at offset %llu%s", bytes(ctx, g->size),
				 (unsigned long long)(g->addr - g->section_addr), sec);
	return ch_printf(ctx, "%s at 0x%llx, offset %llu%s", bytes(ctx, g->size),
			 (unsigned long long)g->addr,
			 (unsigned long long)(g->addr - g->section_addr), sec);
}

/* The name a fix is written in: the source name of a symbol ("calls" for
 * GCC's "calls.0", a function's static; "x" for LTO's "x.lto_priv.0"): C
 * identifiers have no '.', and the fix is applied to the declaration. A
 * demangled C++ name is declared as its last component: "nshot" of
 * "ns::nshot", "calls" of "f(int)::calls". */
const char *ch_declared_name(ch_ctx *ctx, const char *sym)
{
	const char *dot, *p, *last = sym;
	int depth = 0;
	for (p = sym; *p; p++) {
		if (*p == '(' || *p == '<')
			depth++;
		else if ((*p == ')' || *p == '>') && depth)
			depth--;
		else if (!depth && p[0] == ':' && p[1] == ':')
			last = p + 2;
	}
	dot = strchr(last, '.');
	return dot && dot > last ? ch_printf(ctx, "%.*s", (int)(dot - last), last) : last;
}

const char *ch_msg_global_sharing(ch_ctx *ctx, const struct ch_global *h, int relocatable,
				  uint64_t first, uint64_t last, const struct ch_global_nb *nb,
				  size_t n, size_t more, const struct ch_global *next, uint64_t pad,
				  const struct ch_config *cfg)
{
	unsigned L = ch_config_line_size(cfg);
	const char *sec = h->section ? h->section : "?";
	const char *with = "", *fix, *note = "", *span = "";
	size_t i, nrm = 0;

	for (i = 0; i < n; i++) {
		const struct ch_global *o = nb[i].g;
		with = ch_printf(ctx, "%s%s'%s' (%s%s, line %llu)", with,
				 i == 0 ? "" : i + 1 == n && !more ? " and " : ", ", o->name,
				 class_phrase(ctx, o), place(ctx, o, relocatable, sec),
				 (unsigned long long)nb[i].line);
		/* readers __read_mostly could move away (not those already there) */
		nrm += o->cls == CH_CLASS_READ_MOSTLY &&
		       !(o->section && !strcmp(o->section, ".data..read_mostly"));
	}
	if (more)
		with = ch_printf(ctx, "%s and %zu more", with, more);
	if (!relocatable)
		span = ch_printf(ctx, ", 0x%llx-0x%llx", (unsigned long long)(h->addr / L * L),
				 (unsigned long long)((h->addr + h->size - 1) / L * L + L - 1));
	else if (h->section_align < L)
		note = ch_printf(ctx, " (lines counted as if '%s' started on a line: in this "
				 "relocatable object it is aligned to %s and the link decides where "
				 "it starts, so judge the linked file)", sec,
				 bytes(ctx, h->section_align));
	if (cfg->kernel == 1) {
		uint64_t round = (h->size + L - 1) / L * L;
		fix = ch_printf(ctx, "%smark '%s' __cacheline_aligned_in_smp (it moves to "
				".data..cacheline_aligned, where every variable starts a line of its "
				"own)%s; this costs %llu bytes (its %s take %llu)",
				h->section && !strcmp(h->section, ".data..read_mostly")
				? ch_printf(ctx, "drop __read_mostly from '%s' (a written variable), "
					    "and ", ch_declared_name(ctx, h->name)) : "",
				ch_declared_name(ctx, h->name),
				nrm == n && !more
				? ch_printf(ctx, ", or mark %s __read_mostly (moved to "
					    ".data..read_mostly)", n == 1 ? "that reader" : "those readers")
				: "",
				(unsigned long long)(round - h->size), bytes(ctx, h->size),
				(unsigned long long)round);
	} else {
		const char *as = CH_ALIGNAS(cfg->kernel);
		fix = ch_printf(ctx, "declare '%s' %s(%u)%s; at this placement that costs %s of "
				"padding", ch_declared_name(ctx, h->name), as, L,
				next ? ch_printf(ctx, ", and '%s', the first variable after it on "
						 "its line, %s(%u) too", ch_declared_name(ctx, next->name), as,
						 L) : "",
				bytes(ctx, pad));
	}
	return ch_printf(ctx, "%s global '%s' (%s) shares cache %s of '%s' (%u-byte lines%s) with "
			 "%s: every write to '%s' takes the line from the CPUs using %s; %s%s [%s]",
			 h->cls == CH_CLASS_EXCLUSIVE ? "exclusive" : "hot", h->name,
			 place(ctx, h, relocatable, NULL),
			 first == last ? ch_printf(ctx, "line %llu", (unsigned long long)first)
				       : ch_printf(ctx, "lines %llu-%llu", (unsigned long long)first,
						   (unsigned long long)last),
			 sec, L, span, with, ch_declared_name(ctx, h->name), n == 1 && !more ? "it" : "them",
			 fix, note,
			 ch_check_id(CH_CHECK_GLOBAL_SHARING));
}

const char *ch_msg_global_open(ch_ctx *ctx, const struct ch_global *h, int open_start,
			       int open_end, const struct ch_config *cfg)
{
	unsigned L = ch_config_line_size(cfg);
	const char *sec = h->section ? h->section : "?", *why = "", *fix;
	if (open_start)
		why = ch_printf(ctx, "'%s' is aligned to %s, so data before it may share the "
				"first line", sec, bytes(ctx, h->section_align));
	if (open_end)
		why = ch_printf(ctx, "%s%s'%s' ends at byte %llu, inside the variable's last line, "
				"so data after it may share that line", why, *why ? "; " : "",
				sec, (unsigned long long)h->section_size);
	fix = cfg->kernel == 1
		? ch_printf(ctx, "mark '%s' __cacheline_aligned_in_smp (.data..cacheline_aligned "
			    "starts every variable on a line and is followed by an aligned section)",
			    ch_declared_name(ctx, h->name))
		: ch_printf(ctx, "declare '%s' %s(%u) and pad it to a multiple of %u bytes",
			    ch_declared_name(ctx, h->name), CH_ALIGNAS(cfg->kernel), L, L);
	return ch_printf(ctx, "%s global '%s' (%s at offset %llu of '%s') has its cache lines to "
			 "itself in this relocatable object, but the link decides what else shares "
			 "them: %s; judge the linked file, or %s [%s]",
			 h->cls == CH_CLASS_EXCLUSIVE ? "exclusive" : "hot", h->name,
			 bytes(ctx, h->size), (unsigned long long)(h->addr - h->section_addr), sec,
			 why, fix, ch_check_id(CH_CHECK_GLOBAL_SHARING));
}

const char *ch_msg_global_read_only(ch_ctx *ctx, const struct ch_global *h)
{
	const char *cls = h->cls == CH_CLASS_EXCLUSIVE ? "exclusive" : "hot";
	return ch_printf(ctx, "%s global '%s' (%s in '%s') is in a read-only section: it is "
			 "never written (a const), so no write takes its cache line from other "
			 "CPUs and the %s annotation is wrong; annotate '%s' read-mostly or drop "
			 "the annotation [%s]", cls, h->name, bytes(ctx, h->size),
			 h->section ? h->section : "?", cls, ch_declared_name(ctx, h->name),
			 ch_check_id(CH_CHECK_GLOBAL_SHARING));
}

const char *ch_msg_global_common(ch_ctx *ctx, const char *name, const char *input)
{
	return ch_printf(ctx, "hot global '%s' is a common symbol in %s (-fcommon): the link "
			 "decides where it goes, so its neighbours are not known here; build "
			 "with -fno-common or judge the linked file [%s]", name, input,
			 ch_check_id(CH_CHECK_GLOBAL_SHARING));
}

/* "; did you mean 'T.M'? ('T' has a member 'M': a field is written
 * STRUCT.FIELD)" for hint "T.M", "" without one. */
static const char *variable_hint(ch_ctx *ctx, const char *hint)
{
	const char *dot = hint ? strchr(hint, '.') : NULL;
	if (!dot)
		return "";
	return ch_printf(ctx, "; did you mean '%s'? ('%.*s' has a member '%s': a field is "
			 "written STRUCT.FIELD)", hint, (int)(dot - hint), hint, dot + 1);
}

const char *ch_msg_manifest_global_no_symbol(ch_ctx *ctx, const char *name, const char *file,
					     unsigned line)
{
	return ch_printf(ctx, "annotated variable '%s' (%s:%u, manifest \"globals\") matched no data "
			 "symbol of the input: it was not judged (a variable the compiler removed, "
			 "an input that does not hold it, or a symbol name the manifest does not "
			 "know) [cachehot]", name, file ? file : "?", line);
}

const char *ch_msg_sidecar_no_symbol(ch_ctx *ctx, const char *name, const char *file,
				     unsigned line, const char *hint)
{
	return ch_printf(ctx, "sidecar entry '%s' (%s:%u) names no variable of the input: "
			 "no variable or data symbol has that name (a stale or misspelt entry, "
			 "or a variable the compiler removed)%s [cachehot]", name, file, line,
			 variable_hint(ctx, hint));
}

const char *ch_msg_sidecar_no_variable_unit(ch_ctx *ctx, const char *name, const char *file,
					    unsigned line, const char *hint)
{
	return ch_printf(ctx, "sidecar entry '%s' (%s:%u) %s%s [cachehot]", name, file, line,
			 CH_MSG_UNMATCHED_VAR_TAIL, variable_hint(ctx, hint));
}

/* ---- how types and members are named in messages ---------------------- */

const char *ch_type_phrase(ch_ctx *ctx, const struct ch_type *t)
{
	if (!t->name)
		return t->is_union ? "anonymous union" : "anonymous struct";
	if (t->name_is_typedef)
		return ch_printf(ctx, "'%s'", t->name);
	return ch_printf(ctx, "'%s %s'", t->is_union ? "union" : "struct", t->name);
}

/* How a member is named in a fix: its name, or which anonymous aggregate. */
const char *ch_member_ref(ch_ctx *ctx, const struct ch_member *m)
{
	if (m->name)
		return ch_printf(ctx, "'%s'", m->name);
	if (m->type)
		return ch_printf(ctx, "the anonymous %s at line %u",
				 m->type->is_union ? "union" : "struct", m->loc.line);
	return "the unnamed bit-field";
}

const char *ch_leaf_class_phrase(ch_ctx *ctx, const struct ch_leaf *l)
{
	switch (l->cls) {
	case CH_CLASS_HOT:
		return l->group ? ch_printf(ctx, "hot field (group '%s')", l->group) : "hot field";
	case CH_CLASS_EXCLUSIVE: return "exclusive field";
	case CH_CLASS_READ_MOSTLY: return "read-mostly field";
	default: return "field";
	}
}

/* "offset 8, size 8" or "offset 4, bits 3..7" for a bit-field. */
const char *ch_leaf_where_phrase(ch_ctx *ctx, const struct ch_leaf *l)
{
	if (l->bit_size)
		return ch_printf(ctx, "offset %llu, bit-field of %u bits at bit %u",
				 (unsigned long long)l->offset, l->bit_size, l->bit_offset);
	if (l->member && l->member->flexible)
		return ch_printf(ctx, "offset %llu, flexible array of %llu-byte elements",
				 (unsigned long long)l->offset, (unsigned long long)l->size);
	return ch_printf(ctx, "offset %llu, size %llu", (unsigned long long)l->offset,
			 (unsigned long long)l->size);
}

const char *ch_lines_phrase(ch_ctx *ctx, unsigned L, int predicted)
{
	return predicted ? ch_printf(ctx, "(predicted at %u-byte lines)", L)
			 : ch_printf(ctx, "(%u-byte lines)", L);
}
