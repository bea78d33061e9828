/* SPDX-License-Identifier: GPL-2.0 */
/*
 * build.c -- the plugin's part of the build contract (docs/plugin.rst,
 * "Builds, caches and compile farms"): annotations travel with the
 * preprocessed source, results travel with the object.
 *
 * - The sidecar files are dependencies of the unit: added to the -MD/-MMD
 *   output (libcpp's deps_add_dep, the way the C front end adds every
 *   #include), so make, kbuild's fixdep (.o.cmd) and ccache's depend mode
 *   rebuild after a sidecar edit.
 * - "#pragma cachehot LINE" (LINE in sidecar syntax) annotates as a sidecar
 *   line does: a header given with -include carries them inside the
 *   preprocessed text that ccache hashes and a compile farm ships. Read at
 *   the preprocessor level (the def_pragma callback, tokens spelled by
 *   libcpp) because the C lexer refuses '@' ("STRUCT.@GROUP").
 * - The unit's records (access facts, manifest records) are written into
 *   the object (core/objsec-emit.c), which a ccache hit and a farm return.
 * - once=DIR: a finding about a header prints once per build (a marker file
 *   per distinct finding in DIR), not once per unit that includes it.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "cpplib.h"
#include "c-family/c-common.h"
#include "diagnostic-core.h"
#include "opts.h"
#include "options.h"
#include "toplev.h"
#include "output.h"
#include "input.h"
#include <string>
#include "cachehot-plugin.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

extern cpp_reader *parse_in __attribute__((weak));
/* libcpp, exported by cc1 (mkdeps.h is not among the plugin headers) */
class mkdeps;
extern void deps_add_dep(class mkdeps *, const char *);

static const char *sidecars;          /* the annotations= value, ':'-separated */
static const char *once_dir;          /* once=DIR, or NULL */
static bool records_on;               /* write the unit's records into the object */
static void (*prev_def_pragma)(cpp_reader *, location_t);
static char flags_hex[17];

/* ---- the unit's identity ------------------------------------------------- */

/* FNV-1a over the compile's options, without those that only name files
 * this compile writes (-o of cc1 is a temporary .s, -MF/-MD/-MMD a
 * dependency file, -dumpbase/-dumpdir) and without plugin options: one
 * source compiled with other flags (-DFOO, -m32, -O0) is another unit. */
const char *cachehot_unit_flags(void)
{
	unsigned long long h = 0xcbf29ce484222325ULL;
	unsigned i;
	if (flags_hex[0])
		return flags_hex;
	for (i = 1; i < save_decoded_options_count; i++) {
		const struct cl_decoded_option *o = &save_decoded_options[i];
		const char *t = o->orig_option_with_args_text;
		switch (o->opt_index) {
		case OPT_o: case OPT_MF: case OPT_MD: case OPT_MMD: case OPT_MT: case OPT_MQ:
		case OPT_dumpbase: case OPT_dumpbase_ext: case OPT_dumpdir:
		case OPT_fplugin_: case OPT_fplugin_arg_: case OPT_quiet:
		case OPT_SPECIAL_input_file:
			continue;
		default:
			break;
		}
		for (; t && *t; t++) {
			h ^= (unsigned char)*t;
			h *= 0x100000001b3ULL;
		}
		h ^= 0;
		h *= 0x100000001b3ULL;
	}
	snprintf(flags_hex, sizeof(flags_hex), "%016llx", h);
	return flags_hex;
}

/* A source file's name in the unit's records: its real path; for a file
 * that is not on this machine (preprocessed text compiled on a farm node)
 * a relative name is joined to the directory the text was preprocessed in
 * when the text names it (GCC's "# 1 \"DIR//\"" marker: -fworking-directory,
 * on by default with -g), "." and ".." folded by spelling; otherwise NULL
 * (the caller keeps the name as spelled). Caller frees. */
char *cachehot_source_path(const char *file)
{
	char *real, cwd[4096];
	const char *pwd;
	std::string out;
	if (!file)
		return NULL;
	if ((real = realpath(file, NULL)))
		return real;
	pwd = get_src_pwd();
	if (file[0] == '/' || !pwd || pwd[0] != '/' || !getcwd(cwd, sizeof(cwd)) || !strcmp(cwd, pwd))
		return NULL;
	std::string path = std::string(pwd) + "/" + file;
	size_t i = 0;
	while (i < path.size()) {
		size_t j = path.find('/', i);
		if (j == std::string::npos)
			j = path.size();
		std::string part = path.substr(i, j - i);
		i = j + 1;
		if (part.empty() || part == ".")
			continue;
		if (part == "..") {
			size_t k = out.rfind('/');
			out.erase(k == std::string::npos ? 0 : k);
			continue;
		}
		out += "/" + part;
	}
	return xstrdup(out.empty() ? "/" : out.c_str());
}

/* ---- #pragma cachehot ---------------------------------------------------- */

/* The pragma's tokens spelled back into one sidecar line: a space before a
 * word that follows a word, ')' or ']' ("udplite_getfrag() addressable",
 * "threads[64] per_thread"), none elsewhere ("page_counter.@grp hot:g"). */
static void read_pragma(cpp_reader *pfile, location_t loc)
{
	std::string line;
	enum cpp_ttype prev = CPP_EOF;
	const cpp_token *t;
	expanded_location x = expand_location(loc);
	while ((t = cpp_get_token(pfile))->type != CPP_EOF) {
		bool word = t->type == CPP_NAME || t->type == CPP_NUMBER;
		if (t->type == CPP_PADDING)
			continue;
		if (!line.empty() && word &&
		    (prev == CPP_NAME || prev == CPP_NUMBER || prev == CPP_CLOSE_PAREN ||
		     prev == CPP_CLOSE_SQUARE))
			line += ' ';
		line += (const char *)cpp_token_as_text(pfile, t);
		prev = t->type;
	}
	/* the sidecar's errors name FILE:LINE: the pragma's own place */
	const char *file = xstrdup(x.file ? x.file : "<command line>");
	int bad = ch_sidecar_load_line(cachehot_ctx, file, x.line > 0 ? x.line : 1, line.c_str());
	cachehot_sidecar_changed();
	if (bad) {
		/* GCC prints the place: the core's "FILE:LINE: " goes */
		const char *msg = ch_ctx_error(cachehot_ctx), *c = msg;
		size_t n = strlen(file);
		if (!strncmp(c, file, n) && c[n] == ':' && (c = strchr(c + n + 1, ':')) && c[1] == ' ')
			msg = c + 2;
		error_at(loc, "cachehot: %s", msg);
	}
}

static void def_pragma(cpp_reader *pfile, location_t loc)
{
	const cpp_token *t = cpp_get_token(pfile);
	if (t->type == CPP_NAME && !strcmp((const char *)cpp_token_as_text(pfile, t), "cachehot")) {
		read_pragma(pfile, loc);
		return;
	}
	_cpp_backup_tokens(pfile, 1);
	if (prev_def_pragma)
		prev_def_pragma(pfile, loc);
}

/* ---- dependencies --------------------------------------------------------- */

static void start_unit(void *, void *)
{
	class mkdeps *deps = &parse_in ? cpp_get_deps(parse_in) : NULL;
	if (!&parse_in || !parse_in)
		return;
	if (deps && sidecars) {
		char *list = xstrdup(sidecars), *save = NULL, *p;
		for (p = strtok_r(list, ":", &save); p; p = strtok_r(NULL, ":", &save))
			deps_add_dep(deps, p);
		free(list);
	}
	/* the C front end has installed its own by now (init_c_lex); -E
	 * prints pragmas through it: left alone there */
	if (!flag_preprocess_only) {
		struct cpp_callbacks *cb = cpp_get_callbacks(parse_in);
		if (cb->def_pragma != def_pragma) {
			prev_def_pragma = cb->def_pragma;
			cb->def_pragma = def_pragma;
		}
	}
}

/* ---- records in the object ------------------------------------------------- */

static void emit(const char *text)
{
	if (text && asm_out_file && ch_objsec_emit_asm(asm_out_file, text))
		error_at(UNKNOWN_LOCATION, "cachehot: cannot write the records of the unit to the "
			 "assembler output");
}

static void finish_unit(void *, void *)
{
	ch_access_facts *facts;
	if (seen_error() || !asm_out_file)
		return;
	if ((facts = cachehot_access_facts()) != NULL) {
		char *t = ch_access_text(facts);
		emit(t);
		free(t);
	}
	if (cachehot_opts.manifest) {
		char *t = ch_manifest_unit_text(cachehot_ctx);
		emit(t);
		free(t);
	}
}

/* ---- once per build ---------------------------------------------------------- */

bool cachehot_once_printed(unsigned loc, const char *msg)
{
	expanded_location x;
	unsigned long long h = 0xcbf29ce484222325ULL;
	const char *parts[3];
	char line[32], path[4096];
	int fd, i;
	if (!once_dir || loc <= BUILTINS_LOCATION)
		return false;
	x = expand_location(loc);
	/* findings in the unit's own source print every time */
	if (!x.file || (main_input_filename && !strcmp(x.file, main_input_filename)))
		return false;
	snprintf(line, sizeof(line), ":%d:%d:", x.line, x.column);
	parts[0] = x.file;
	parts[1] = line;
	parts[2] = msg;
	for (i = 0; i < 3; i++)
		for (const char *p = parts[i]; *p; p++) {
			h ^= (unsigned char)*p;
			h *= 0x100000001b3ULL;
		}
	snprintf(path, sizeof(path), "%s/%016llx", once_dir, h);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0) {
		close(fd);
		return false;
	}
	return errno == EEXIST;   /* another error: print (never lose a finding) */
}

static int mkdir_p(const char *dir)
{
	char *d = xstrdup(dir), *p;
	int rc = 0;
	for (p = d + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(d, 0755) && errno != EEXIST)
				rc = -1;
			*p = '/';
		}
	if (mkdir(d, 0755) && errno != EEXIST)
		rc = -1;
	free(d);
	return rc;
}

int cachehot_mkdir_p(const char *dir)
{
	struct stat st;
	if (mkdir_p(dir) && (stat(dir, &st) || !S_ISDIR(st.st_mode)))
		return -1;
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

void cachehot_build_init(const char *plugin_name, const char *annotations, const char *once,
			 bool records)
{
	sidecars = annotations;
	records_on = records;
	if (once) {
		if (cachehot_mkdir_p(once))
			error("cachehot: %<-fplugin-arg-%s-once=%s%>: cannot make the directory: %s",
			      plugin_name, once, xstrerror(errno));
		else
			once_dir = once;
	}
	register_callback(plugin_name, PLUGIN_START_UNIT, start_unit, NULL);
}

/* Called last from plugin_init: after every other FINISH_UNIT callback
 * (the manifest's and the access mode's), which complete the records. */
void cachehot_build_finish_init(const char *plugin_name)
{
	if (records_on)
		register_callback(plugin_name, PLUGIN_FINISH_UNIT, finish_unit, NULL);
}
