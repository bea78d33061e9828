// SPDX-License-Identifier: GPL-2.0
/*
 * report-html.c -- "cachehot check --format=html" / "cachehot report --html":
 * one self-contained HTML page (no script, no external file) that shows each
 * judged struct as its cache lines: one row per 64-byte line (the unit's
 * line size), each member a box as wide as its bytes, colored by class
 * (hot, exclusive, read-mostly, none), the group named in the box; holes
 * (bytes no member covers) and padding members are boxes of their own.
 * Below each struct: its findings (with the profile's verdict) and, with
 * --profile, the recorded heat: per member reads/writes/RMWs and threads,
 * per line the false-sharing transfers of the member pairs on it.
 *
 * Layouts come from the plugin's manifest (a temporary one, written by this
 * run: profile_prepare), never from a layout model of this file's own.
 * DOM for tests: section.struct[data-struct], div.line[data-line],
 * div.box[data-field][data-offset][data-size][data-class], li.finding
 * [data-field][data-other][data-check].
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "driver.h"
#include "../core/cachehot-profile.h"

ch_profile *profile_get(void);
const char *profile_manifest(void);

static void esc(FILE *o, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", o); break;
		case '>': fputs("&gt;", o); break;
		case '&': fputs("&amp;", o); break;
		case '"': fputs("&quot;", o); break;
		case '\'': fputs("&#39;", o); break;
		default: fputc(*s, o);
		}
	}
}

static const char *css =
	"body{font:14px/1.4 sans-serif;margin:1.5em;color:#222}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin:1.5em 0 .4em}"
	".struct{border-top:1px solid #ccc;padding-top:.5em}"
	".line{display:flex;align-items:center;margin:2px 0}"
	".idx{width:4.5em;font:12px monospace;color:#555}"
	".bytes{position:relative;width:768px;height:34px;background:#fafafa;border:1px solid #999}"
	".box{position:absolute;top:0;height:32px;box-sizing:border-box;border:1px solid #333;"
	"overflow:hidden;font:11px/16px monospace;padding:0 2px;white-space:nowrap}"
	".c-hot{background:#f4a3a3}.c-exclusive{background:#f7c16b}.c-read_mostly{background:#9ec5f4}"
	".c-none{background:#e4e4e4}.c-hole{background:repeating-linear-gradient(45deg,#fff,#fff 4px,#ddd 4px,#ddd 8px);"
	"border-style:dashed;color:#777}.c-padding{background:#fff;border-style:dotted;color:#777}"
	".heat{margin-left:.8em;font:12px monospace;color:#a00}"
	".finding{margin:.2em 0;font:12px monospace}.confirmed{color:#a00}.legend span{padding:0 .5em;margin-right:.5em}"
	"table{border-collapse:collapse;font:12px monospace;margin:.4em 0}td,th{border:1px solid #ccc;padding:1px 6px;text-align:right}"
	"th:first-child,td:first-child{text-align:left}";

struct seg {
	const char *name, *cls, *group;
	unsigned off, size;     /* bytes */
	int hole, pad;
};

static int cmp_off(const void *a, const void *b)
{
	const struct seg *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

static void box(FILE *o, const struct seg *s, unsigned from, unsigned to, unsigned ls, ch_profile *p,
		const char *sname)
{
	const char *cls = s->hole ? "hole" : s->pad ? "padding" : s->cls ? s->cls : "none";
	struct ch_profile_field c;
	int heat = !s->hole && p && sname && s->name && !ch_profile_field(p, sname, s->name, &c);
	fprintf(o, "<div class=\"box c-%s\" data-class=\"%s\" data-offset=\"%u\" data-size=\"%u\"", cls, cls,
		from, to - from);
	if (s->name) {
		fputs(" data-field=\"", o);
		esc(o, s->name);
		fputc('"', o);
	}
	if (s->group) {
		fputs(" data-group=\"", o);
		esc(o, s->group);
		fputc('"', o);
	}
	if (heat)
		fprintf(o, " data-writes=\"%llu\" data-reads=\"%llu\" data-rmws=\"%llu\"",
			(unsigned long long)c.writes, (unsigned long long)c.reads, (unsigned long long)c.rmws);
	fprintf(o, " style=\"left:%.4f%%;width:%.4f%%\" title=\"", 100.0 * (from % ls) / ls,
		100.0 * (to - from) / ls);
	if (s->hole)
		fprintf(o, "hole: %u bytes at offset %u", s->size, s->off);
	else {
		esc(o, s->name);
		fprintf(o, ": offset %u, size %u, %s", s->off, s->size, cls);
		if (s->group) {
			fputs(", group ", o);
			esc(o, s->group);
		}
		if (heat)
			fprintf(o, "; recorded: reads %llu by %u threads, writes %llu by %u, RMWs %llu by %u",
				(unsigned long long)c.reads, c.reader_threads, (unsigned long long)c.writes,
				c.writer_threads, (unsigned long long)c.rmws, c.rmw_threads);
	}
	fputs("\">", o);
	if (s->hole)
		fprintf(o, "hole %u", to - from);
	else {
		esc(o, s->name);
		if (s->group) {
			fputc(':', o);
			esc(o, s->group);
		}
	}
	fputs("</div>", o);
}

static void one_struct(FILE *o, const char *name, json_t *st, const struct findings *fs, ch_profile *p)
{
	json_t *fields = json_object_get(st, "fields"), *f;
	unsigned size = (unsigned)json_integer_value(json_object_get(st, "size"));
	unsigned ls = (unsigned)json_integer_value(json_object_get(st, "line_size"));
	size_t n = 0, i, nsegs = 0;
	struct seg *segs;
	unsigned nlines, at = 0;
	if (!ls)
		ls = 64;
	nlines = size ? (size + ls - 1) / ls : 1;
	segs = xmalloc((json_array_size(fields) * 2 + 2) * sizeof(*segs));
	json_array_foreach(fields, i, f) {
		struct seg s = { 0 };
		const char *pad = json_string_value(json_object_get(f, "padding"));
		s.name = json_string_value(json_object_get(f, "name"));
		s.cls = json_string_value(json_object_get(f, "class"));
		s.group = json_string_value(json_object_get(f, "group"));
		s.off = (unsigned)json_integer_value(json_object_get(f, "offset"));
		s.size = (unsigned)json_integer_value(json_object_get(f, "size"));
		s.pad = pad && strcmp(pad, "none");
		if (!s.size && json_integer_value(json_object_get(f, "bit_size")))
			s.size = 1;
		if (s.size)
			segs[n++] = s;
	}
	qsort(segs, n, sizeof(*segs), cmp_off);
	/* holes between members (a union's members overlap: no hole there) */
	nsegs = n;
	for (i = 0; i <= n; i++) {
		unsigned next = i < n ? segs[i].off : size;
		if (next > at) {
			struct seg h = { 0 };
			h.hole = 1;
			h.off = at;
			h.size = next - at;
			segs[nsegs++] = h;
		}
		if (i < n && segs[i].off + segs[i].size > at)
			at = segs[i].off + segs[i].size;
	}
	qsort(segs, nsegs, sizeof(*segs), cmp_off);

	fprintf(o, "<section class=\"struct\" id=\"struct-");
	esc(o, name);
	fprintf(o, "\" data-struct=\"");
	esc(o, name);
	fprintf(o, "\" data-size=\"%u\" data-line-size=\"%u\"><h2>struct ", size, ls);
	esc(o, name);
	fprintf(o, " <small>(%u bytes, %u line%s of %u bytes, aligned to %lld)</small></h2>\n", size, nlines,
		nlines == 1 ? "" : "s", ls, (long long)json_integer_value(json_object_get(st, "align")));
	for (unsigned l = 0; l < nlines; l++) {
		unsigned lo = l * ls, hi = lo + ls;
		uint64_t xfer = 0;
		fprintf(o, "<div class=\"line\" data-line=\"%u\"><span class=\"idx\">line %u<br>+%u</span>"
			"<div class=\"bytes\">", l, l, lo);
		for (i = 0; i < nsegs; i++) {
			unsigned from = segs[i].off, to = segs[i].off + segs[i].size;
			if (to <= lo || from >= hi)
				continue;
			box(o, &segs[i], from < lo ? lo : from, to > hi ? hi : to, ls, p, name);
		}
		/* transfers of the member pairs that both lie on this line */
		if (p)
			for (i = 0; i < nsegs; i++)
				for (size_t j = i; j < nsegs; j++) {
					uint64_t nf, nt;
					if (segs[i].hole || segs[j].hole || segs[i].off / ls != l ||
					    segs[j].off / ls != l)
						continue;
					ch_profile_pair(p, name, segs[i].name, segs[j].name, ls, &nf, &nt);
					xfer += nf;
				}
		fputs("</div>", o);
		if (p)
			fprintf(o, "<span class=\"heat\" data-transfers=\"%llu\">%llu false-sharing transfers</span>",
				(unsigned long long)xfer, (unsigned long long)xfer);
		fputs("</div>\n", o);
	}
	fputs("<ul class=\"findings\">\n", o);
	for (i = 0; i < fs->n; i++) {
		const struct finding *x = &fs->v[i];
		if (!x->scope || strcmp(x->scope, name))
			continue;
		fprintf(o, "<li class=\"finding%s\" data-check=\"", strstr(x->message, "(confirmed: ") ? " confirmed" : "");
		esc(o, x->check);
		fputs("\" data-field=\"", o);
		esc(o, x->field ? x->field : "");
		fputs("\" data-other=\"", o);
		esc(o, x->other ? x->other : "");
		fputs("\">", o);
		esc(o, x->file);
		fprintf(o, ":%u:%u: %s: ", x->line, x->col,
			x->sev == SEV_ERROR ? "error" : x->sev == SEV_WARNING ? "warning" : "note");
		esc(o, x->message);
		fputs(" [", o);
		esc(o, x->check);
		fputs("]</li>\n", o);
	}
	fputs("</ul>\n", o);
	if (p) {
		fputs("<table class=\"heat\"><tr><th>member</th><th>reads</th><th>threads</th><th>writes</th>"
		      "<th>threads</th><th>RMWs</th><th>threads</th></tr>\n", o);
		for (i = 0; i < nsegs; i++) {
			struct ch_profile_field c;
			if (segs[i].hole || ch_profile_field(p, name, segs[i].name, &c))
				continue;
			fputs("<tr><td>", o);
			esc(o, segs[i].name);
			fprintf(o, "</td><td>%llu</td><td>%u</td><td>%llu</td><td>%u</td><td>%llu</td><td>%u</td></tr>\n",
				(unsigned long long)c.reads, c.reader_threads, (unsigned long long)c.writes,
				c.writer_threads, (unsigned long long)c.rmws, c.rmw_threads);
		}
		fputs("</table>\n", o);
	}
	fputs("</section>\n", o);
	free(segs);
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int report_html_write(FILE *o, const struct findings *fs)
{
	const char *mpath = profile_manifest();
	ch_profile *p = profile_get();
	json_error_t je;
	json_t *root = mpath ? json_load_file(mpath, 0, &je) : NULL, *structs, *st;
	const char *key, **names;
	size_t n = 0;
	int e, w, nn;
	structs = json_object_get(root, "structs");
	findings_count(fs, &e, &w, &nn);
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>cachehot report</title><style>", o);
	fputs(css, o);
	fputs("</style></head><body>\n<h1>cachehot: cache-line layout</h1>\n", o);
	fprintf(o, "<p class=\"summary\">%zu struct%s judged; %d error%s, %d warning%s, %d note%s",
		json_object_size(structs), json_object_size(structs) == 1 ? "" : "s", e, e == 1 ? "" : "s",
		w, w == 1 ? "" : "s", nn, nn == 1 ? "" : "s");
	if (p)
		fprintf(o, "; recorded heat from %u profile%s (%.2f s)", ch_profile_count(p),
			ch_profile_count(p) == 1 ? "" : "s", ch_profile_seconds(p));
	fputs("</p>\n<p class=\"legend\"><span class=\"c-hot\">hot</span><span class=\"c-exclusive\">exclusive</span>"
	      "<span class=\"c-read_mostly\">read-mostly</span><span class=\"c-none\">other</span>"
	      "<span class=\"c-padding\">padding</span><span class=\"c-hole\">hole</span></p>\n", o);
	names = xmalloc((json_object_size(structs) + 1) * sizeof(*names));
	json_object_foreach(structs, key, st)
		names[n++] = key;
	qsort(names, n, sizeof(*names), cmp_strp);
	for (size_t i = 0; i < n; i++)
		one_struct(o, names[i], json_object_get(structs, names[i]), fs, p);
	/* findings on no struct of the manifest */
	fputs("<h2>Other findings</h2><ul class=\"findings other\">\n", o);
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *x = &fs->v[i];
		if (x->scope && json_object_get(structs, x->scope))
			continue;
		fputs("<li class=\"finding\" data-check=\"", o);
		esc(o, x->check);
		fputs("\">", o);
		esc(o, x->file);
		fprintf(o, ":%u:%u: ", x->line, x->col);
		esc(o, x->message);
		fputs("</li>\n", o);
	}
	fputs("</ul>\n</body></html>\n", o);
	free(names);
	json_decref(root);
	return ferror(o) ? -1 : 0;
}
