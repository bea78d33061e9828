/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixits.c -- a finding's fix as GCC fix-its, which
 * -fdiagnostics-generate-patch prints as a unified diff: a private padding
 * macro renamed to CACHELINE_PADDING, a struct's members moved or given
 * their attribute. Edits only where the source says exactly where they go
 * (plugin/layout-check.h lists the layout check's parts).
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "diagnostic-core.h"
#include "input.h"
#include "cpplib.h"
#include <string>
#include <vector>
#include "layout-check.h"

/* A fix-it that replaces the name of the padding macro whose expansion
 * declares the member at loc (PC_PADDING(_pad1_) -> CACHELINE_PADDING(_pad1_));
 * -fdiagnostics-generate-patch prints it as a unified diff. */
static void add_macro_fixit(rich_location *rich, location_t loc, const char *replacement)
{
	const line_map *map;
	const line_map_macro *mm;
	location_t at;
	const char *name;

	if (!replacement || loc <= BUILTINS_LOCATION || !linemap_location_from_macro_expansion_p(line_table, loc))
		return;
	map = linemap_lookup(line_table, loc);
	if (!map || !linemap_macro_expansion_map_p(map))
		return;
	mm = linemap_check_macro(map);
	/* the outermost expansion: the macro the struct's author wrote */
	while (linemap_location_from_macro_expansion_p(line_table,
						       MACRO_MAP_EXPANSION_POINT_LOCATION(mm))) {
		map = linemap_lookup(line_table, MACRO_MAP_EXPANSION_POINT_LOCATION(mm));
		if (!map || !linemap_macro_expansion_map_p(map))
			return;
		mm = linemap_check_macro(map);
	}
	at = MACRO_MAP_EXPANSION_POINT_LOCATION(mm);
	name = (const char *)NODE_NAME(MACRO_MAP_MACRO(mm));
	if (!name || !strcmp(name, replacement))
		return;
	rich->add_fixit_replace(source_range::from_locations(at,
				linemap_position_for_loc_and_offset(line_table, at, strlen(name) - 1)),
				replacement);
	/* ZONE_PADDING-style macros carry their own ';' and are used without
	 * one: CACHELINE_PADDING(name) needs it after the ')' */
	{
		const unsigned char *def = parse_in ? cpp_macro_definition(parse_in, MACRO_MAP_MACRO(mm)) : NULL;
		size_t n = def ? strlen((const char *)def) : 0;
		expanded_location x = expand_location(at);
		while (n && ISSPACE(def[n - 1]))
			n--;
		if (n && def[n - 1] == ';' && x.file && x.line > 0 && x.column > 0) {
			char_span line = cachehot_source_line(x.file, x.line);
			int depth = 0;
			for (size_t c = x.column - 1; line && c < line.length(); c++) {
				if (line[c] == '(')
					depth++;
				else if (line[c] == ')' && --depth == 0) {
					rich->add_fixit_insert_after(
						linemap_position_for_loc_and_offset(line_table, at,
										    c - (x.column - 1)),
						";");
					break;
				}
			}
		}
	}
	/* kernel code: CACHELINE_PADDING comes from <linux/cache.h> */
	if (maybe_add_include_fixit && cachehot_macro_defined("__KERNEL__", NULL))
		maybe_add_include_fixit(rich, "<linux/cache.h>", false);
}

/* Where the declaration of the member named at loc starts: after the
 * previous ';' or '{' on its line, else at the line's first non-blank
 * column (*line_start then says so and *indent is the line's indentation).
 * false when the member comes from a macro, the line is unreadable, or a
 * '}' comes first (a member of a nested struct type written inline). */
static bool decl_start(location_t loc, location_t *at, location_t *bol, bool *line_start,
		       std::string *indent)
{
	expanded_location x;
	if (loc <= BUILTINS_LOCATION || linemap_location_from_macro_expansion_p(line_table, loc))
		return false;
	x = expand_location(loc);
	if (!x.file || x.line <= 0 || x.column <= 0)
		return false;
	char_span line = cachehot_source_line(x.file, x.line);
	if (!line || (size_t)x.column > line.length())
		return false;
	size_t c = 0, j = (size_t)x.column - 1, s;
	while (c < line.length() && (line[c] == ' ' || line[c] == '\t'))
		c++;
	if (c > j)
		return false;
	indent->assign(line.get_buffer(), c);
	*line_start = true;
	s = c;
	while (j > c) {
		char ch = line[j - 1];
		if (ch == '}')
			return false;
		if (ch == ';' || ch == '{') {
			s = j;
			while (s < (size_t)x.column - 1 && (line[s] == ' ' || line[s] == '\t'))
				s++;
			*line_start = false;
			break;
		}
		j--;
	}
	*at = linemap_position_for_loc_and_offset(line_table, loc, (int)s + 1 - x.column);
	*bol = linemap_position_for_loc_and_offset(line_table, loc, 1 - x.column);
	return *at != 0 && *bol != 0;
}

/* The declaration of members first..last written "SPEC a, b, c;" on one
 * line with plain names: *spec gets "SPEC ", *from and *to the columns (0-based)
 * of the declaration's start and of its ';'. false for any other shape
 * (pointers, arrays, bit-fields: no fix-it, the message says it). */
static bool simple_decl(const struct ch_member *first, const struct ch_member *last,
			std::string *spec, size_t *from, size_t *to)
{
	size_t len, b = 0, e, k;
	const char *s = ch_source_line(first->loc.file, first->loc.line, &len);
	const char *name = first->name;
	if (!s || !name)
		return false;
	while (b < len && (s[b] == ' ' || s[b] == '\t'))
		b++;
	const char *semi = (const char *)memchr(s + b, ';', len - b);
	if (!semi)
		return false;
	e = (size_t)(semi - s);
	/* the first declarator's name starts the list */
	size_t nl = strlen(name), at = std::string::npos;
	for (k = b; k + nl <= e; k++)
		if (!memcmp(s + k, name, nl) && (k == b || !(ISIDNUM(s[k - 1]))) &&
		    !ISIDNUM(s[k + nl])) {
			at = k;
			break;
		}
	if (at == std::string::npos || at == b)
		return false;
	for (k = at; k < e; k++)
		if (!(ISIDNUM(s[k]) || s[k] == ',' || s[k] == ' ' || s[k] == '\t'))
			return false;
	for (k = b; k < at; k++)
		if (s[k] == '*' || s[k] == '[' || s[k] == '(' || s[k] == ':' || s[k] == '{')
			return false;
	(void)last;
	spec->assign(s + b, at - b);
	*from = b;
	*to = e;
	return true;
}

/* decl_start for member m; a member whose struct or union type is defined
 * in its declaration ("struct body { ... } body;") starts at that type's
 * keyword. */
static bool member_decl_start(const struct ch_member *m, location_t *at, location_t *bol,
			      bool *line_start, std::string *indent)
{
	if (decl_start(cachehot_where((location_t)m->loc.fe_loc), at, bol, line_start, indent))
		return true;
	if (m->type && m->type->loc.fe_loc && m->type->loc.file && m->loc.file &&
	    !strcmp(m->type->loc.file, m->loc.file) && m->type->loc.line < m->loc.line)
		return decl_start((location_t)m->type->loc.fe_loc, at, bol, line_start, indent);
	return false;
}

/* A member declared alone on a line of its own ("\tT name; comment"): its
 * line's start, indentation, and the text from the declaration to the end
 * of the line. */
struct own_line {
	location_t bol, at;
	std::string indent, text;
	size_t from, len;   /* columns (0-based) of the declaration and the line's length */
	const char *file;
	unsigned line;
};

static bool member_own_line(const struct ch_type *t, const struct ch_member *m, own_line *o)
{
	bool ls;
	size_t len, k, a, b;
	const char *s;
	if (!m->name || !m->loc.file ||
	    !decl_start((location_t)m->loc.fe_loc, &o->at, &o->bol, &ls, &o->indent) || !ls ||
	    o->indent.empty())
		return false;
	ch_decl_group(t, (size_t)(m - t->members), &a, &b);
	if (a != b)
		return false;
	s = ch_source_line(m->loc.file, m->loc.line, &len);
	if (!s)
		return false;
	/* one ';', then nothing but a comment */
	const char *semi = (const char *)memchr(s, ';', len);
	if (!semi || memchr(s, '{', len) || memchr(s, '}', len))
		return false;
	for (k = (size_t)(semi - s) + 1; k < len && (s[k] == ' ' || s[k] == '\t'); k++)
		;
	if (k < len && !(s[k] == '/' && k + 1 < len && (s[k + 1] == '/' || s[k + 1] == '*')))
		return false;
	if (k < len && s[k + 1] == '*' && !strstr(s + k, "*/"))
		return false;
	o->from = o->indent.size();
	o->len = len;
	o->text.assign(s + o->from, len - o->from);
	o->file = m->loc.file;
	o->line = m->loc.line;
	return true;
}

/* Column 1 of the line after o's, in o's line map, or 0. */
static location_t next_line_start(const own_line *o)
{
	location_t sp = linemap_resolve_location(line_table, o->bol, LRK_SPELLING_LOCATION, NULL);
	const line_map *map = linemap_lookup(line_table, sp);
	if (!map || linemap_macro_expansion_map_p(map))
		return 0;
	const line_map_ordinary *ord = linemap_check_ordinary(map);
	location_t l = linemap_position_for_line_and_column(line_table, ord, o->line + 1, 1);
	expanded_location x = expand_location(l);
	if (!x.file || strcmp(x.file, o->file) || x.line != (int)o->line + 1 || x.column != 1)
		return 0;
	return l;
}

/* Where an attribute after member m's declarator goes on line s (len
 * bytes): after its name and any array bounds; 0 when not found. */
static size_t after_declarator(const char *s, size_t len, const char *name)
{
	size_t nl = strlen(name), k, e;
	for (k = 0; k + nl <= len; k++) {
		if (memcmp(s + k, name, nl) || (k && ISIDNUM(s[k - 1])) ||
		    (k + nl < len && ISIDNUM(s[k + nl])))
			continue;
		e = k + nl;
		while (e < len && (s[e] == '[' || s[e] == ' ' || s[e] == '\t')) {
			if (s[e] == '[') {
				while (e < len && s[e] != ']')
					e++;
				if (e >= len)
					return 0;
			}
			e++;
		}
		while (e > k + nl && (s[e - 1] == ' ' || s[e - 1] == '\t'))
			e--;
		return e;
	}
	return 0;
}

/* " TEXT" after member m's declarator, on its line. */
static bool add_suffix(rich_location *rich, const struct ch_member *m, const char *text)
{
	size_t len, c;
	const char *s;
	location_t at, bol;
	bool ls;
	std::string indent;
	if (!m->name || !m->loc.file || !decl_start((location_t)m->loc.fe_loc, &at, &bol, &ls, &indent))
		return false;
	s = ch_source_line(m->loc.file, m->loc.line, &len);
	if (!s || !(c = after_declarator(s, len, m->name)))
		return false;
	rich->add_fixit_insert_before(linemap_position_for_loc_and_offset(line_table, bol, (int)c),
				      (std::string(" ") + text).c_str());
	return true;
}

/* The struct's one fix as fix-its (-fdiagnostics-generate-patch,
 * -fdiagnostics-parseable-fixits), attached to the first finding of the
 * struct only, so that a patch applies each edit once. A break on a member
 * declared with others rewrites that declaration as one per field, the
 * edit in front of its member. A moved member's line is emptied and its
 * declaration inserted after the line of the member it now follows (or
 * before the first member's line); moves need every member involved
 * declared alone on a line of its own, else the fix is given as text. */
static void add_struct_fixits(rich_location *rich, const struct ch_fix *fx)
{
	size_t i, k, nm = fx->type ? fx->type->nmembers : 0;
	const struct ch_type *t = fx->type;
	bool moves = false;
	for (i = 0; i < fx->nedits; i++)
		if (fx->edits[i].after)
			moves = true;
	for (i = 0; i < fx->nedits; i++) {
		location_t at, bol;
		bool ls;
		std::string indent, spec;
		size_t a, b;
		const struct ch_fix_edit *e = &fx->edits[i];
		if (!member_decl_start(e->member, &at, &bol, &ls, &indent))
			return;
		if (e->decl_first && !simple_decl(e->decl_first, e->decl_last, &spec, &a, &b))
			return;
		if (fx->suffix && !e->after) {
			size_t len;
			const char *ln = e->member->name && e->member->loc.file
				? ch_source_line(e->member->loc.file, e->member->loc.line, &len) : NULL;
			if (!ln || !after_declarator(ln, len, e->member->name))
				return;
		}
	}
	if (moves) {
		/* new order: each member, whether it moved, its break's text */
		std::vector<const char *> pad(nm, (const char *)NULL);
		std::vector<char> moved(nm, 0);
		std::vector<own_line> ol(nm);
		std::vector<char> have(nm, 0);
		if (!t || !fx->order)
			return;
		for (i = 0; i < fx->nedits; i++) {
			size_t m = (size_t)(fx->edits[i].member - t->members);
			if (fx->edits[i].after)
				moved[m] = 1;
			else
				pad[m] = fx->edits[i].text;
			if (fx->edits[i].decl_first)
				return;
		}
		for (i = 0; i < nm; i++)
			if (moved[i]) {
				if (!member_own_line(t, &t->members[i], &ol[i]))
					return;
				have[i] = 1;
			}
		/* where each moved member goes: after the nearest earlier member
		 * (in the new order) that did not move, else before the first */
		std::vector<location_t> where(nm, 0);
		for (k = 0; k < nm; k++) {
			size_t m = fx->order[k], r;
			size_t q = k;
			if (!moved[m])
				continue;
			while (q > 0 && moved[fx->order[q - 1]])
				q--;
			if (q == 0) {
				own_line f;
				if (!member_own_line(t, &t->members[0], &f))
					return;
				where[m] = f.bol;
			} else {
				r = fx->order[q - 1];
				if (!have[r]) {
					if (!member_own_line(t, &t->members[r], &ol[r]))
						return;
					have[r] = 1;
				}
				if (!(where[m] = next_line_start(&ol[r])))
					return;
			}
		}
		for (k = 0; k < nm; k++) {
			size_t m = fx->order[k];
			if (moved[m]) {
				std::string text;
				std::string decl = ol[m].text;
				if (pad[m] && fx->suffix) {
					size_t c = after_declarator(decl.c_str(), decl.size(),
								    t->members[m].name);
					if (!c)
						return;
					decl.insert(c, std::string(" ") + pad[m]);
				}
				if (pad[m] && !fx->suffix)
					text = fx->insert ? ol[m].indent + pad[m] + ";\n" + ol[m].indent
							  : ol[m].indent + pad[m] + " ";
				else
					text = ol[m].indent;
				text += decl + "\n";
				rich->add_fixit_insert_before(where[m], text.c_str());
			} else if (pad[m]) {
				location_t at, bol;
				bool ls;
				std::string indent;
				member_decl_start(&t->members[m], &at, &bol, &ls, &indent);
				if (fx->suffix) {
					if (!add_suffix(rich, &t->members[m], pad[m]))
						return;
				} else if (fx->insert && ls)
					rich->add_fixit_insert_before(bol, (indent + pad[m] + ";\n").c_str());
				else if (fx->insert)
					rich->add_fixit_insert_before(at, (std::string(pad[m]) + "; ").c_str());
				else
					rich->add_fixit_insert_before(at, (std::string(pad[m]) + " ").c_str());
			}
		}
		for (i = 0; i < nm; i++)
			if (moved[i]) {
				location_t l0 = linemap_position_for_loc_and_offset(line_table, ol[i].bol,
										    (int)ol[i].from);
				location_t l1 = linemap_position_for_loc_and_offset(line_table, ol[i].bol,
										    (int)ol[i].len - 1);
				rich->add_fixit_remove(source_range::from_locations(l0, l1));
			}
		return;
	}
	for (i = 0; i < fx->nedits; i++) {
		const struct ch_fix_edit *e = &fx->edits[i];
		location_t at, bol;
		bool ls;
		std::string indent;
		member_decl_start(e->member, &at, &bol, &ls, &indent);
		if (fx->suffix) {
			if (!add_suffix(rich, e->member, e->text))
				return;
		} else if (e->decl_first) {
			std::string spec, text;
			size_t a, b;
			const struct ch_member *m;
			simple_decl(e->decl_first, e->decl_last, &spec, &a, &b);
			for (m = e->decl_first; m <= e->decl_last; m++) {
				if (m != e->decl_first)
					text += " ";
				if (m == e->member)
					text += std::string(e->text) + (fx->insert ? "; " : " ");
				text += spec + m->name + ";";
			}
			location_t l0 = linemap_position_for_loc_and_offset(line_table, bol, (int)a);
			location_t l1 = linemap_position_for_loc_and_offset(line_table, bol, (int)b);
			rich->add_fixit_replace(source_range::from_locations(l0, l1), text.c_str());
		} else if (fx->insert && ls)   /* a line of its own: GCC takes a newline
					 * only in an insertion at column 1 */
			rich->add_fixit_insert_before(bol, (indent + e->text + ";\n").c_str());
		else if (fx->insert)
			rich->add_fixit_insert_before(at, (std::string(e->text) + "; ").c_str());
		else
			rich->add_fixit_insert_before(at, (std::string(e->text) + " ").c_str());
	}
}

void cachehot_add_fixits(rich_location *rich, location_t loc, const struct ch_finding *f)
{
	add_macro_fixit(rich, loc, f->fix_macro);
	if (f->fix && f->fix_first)
		add_struct_fixits(rich, f->fix);
}
