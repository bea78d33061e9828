// SPDX-License-Identifier: GPL-2.0
/*
 * reloc.c -- relocate only the debug sections the census reads (see
 * reloc.h).  The relocation types are those of the ELF psABIs: x86-64
 * (R_X86_64_64/32/32S: S + A), i386 (R_386_32: S + A, A in place, REL),
 * AArch64 (R_AARCH64_ABS64/ABS32: S + A), the only ones GCC and
 * binutils put in .rela.debug_info and .rela.debug_line of kernel objects.
 * Everything else makes the caller fall back to libdwfl.
 */
#include "reloc.h"

#include <elf.h>
#include <gelf.h>
#include <stdint.h>
#include <string.h>

/* Bytes written by relocation type t of machine m; 0 for a *_NONE
 * relocation (nothing to do); -1 when not handled here. */
static int reloc_width(unsigned m, unsigned t)
{
	switch (m) {
	case EM_X86_64:
		switch (t) {
		case R_X86_64_NONE: return 0;
		case R_X86_64_64: return 8;
		case R_X86_64_32: case R_X86_64_32S: return 4;
		}
		return -1;
	case EM_386:
		switch (t) {
		case R_386_NONE: return 0;
		case R_386_32: return 4;
		}
		return -1;
	case EM_AARCH64:
		switch (t) {
		case R_AARCH64_NONE: return 0;
		case R_AARCH64_ABS64: return 8;
		case R_AARCH64_ABS32: return 4;
		}
		return -1;
	}
	return -1;
}

static int host_data(void)
{
	const uint16_t one = 1;
	return *(const uint8_t *)&one ? ELFDATA2LSB : ELFDATA2MSB;
}

static int wanted(const char *name, const char *const *names, size_t n)
{
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

/* Apply one relocation section rs (header rsh) to the data of its target. */
static int apply(Elf *elf, unsigned machine, Elf_Scn *rs, const GElf_Shdr *rsh,
		 Elf_Data *target)
{
	Elf_Scn *symscn = elf_getscn(elf, rsh->sh_link);
	GElf_Shdr ssh;
	Elf_Data *rd = elf_getdata(rs, NULL), *sd;
	size_t nrel, nsym;
	int rela = rsh->sh_type == SHT_RELA;

	if (!rd || !symscn || !gelf_getshdr(symscn, &ssh) ||
	    (ssh.sh_type != SHT_SYMTAB && ssh.sh_type != SHT_DYNSYM) ||
	    !ssh.sh_entsize || !(sd = elf_getdata(symscn, NULL)))
		return 1;
	if (!rsh->sh_entsize)
		return 1;
	nrel = rsh->sh_size / rsh->sh_entsize;
	nsym = ssh.sh_size / ssh.sh_entsize;
	/* ELFCLASS64 in host order: libelf's memory representation is the
	 * Elf64 arrays themselves; read them directly (gelf_getrela and
	 * gelf_getsym per entry were a third of this file's time) */
	const Elf64_Rela *r64 = NULL;
	const Elf64_Sym *s64 = NULL;
	if (gelf_getclass(elf) == ELFCLASS64 && rela && rd->d_type == ELF_T_RELA &&
	    sd->d_type == ELF_T_SYM && rd->d_size >= nrel * sizeof(Elf64_Rela) &&
	    sd->d_size >= nsym * sizeof(Elf64_Sym) &&
	    rsh->sh_entsize == sizeof(Elf64_Rela) && ssh.sh_entsize == sizeof(Elf64_Sym)) {
		r64 = rd->d_buf;
		s64 = sd->d_buf;
	}
	if (r64 && nsym && target->d_size >= 8 &&
	    (machine == EM_X86_64 || machine == EM_AARCH64)) {
		/* the common case, kept tight: ~600k relocations over 6.1
		 * mm/ (42 instructions each as first written, with a call to
		 * reloc_width and a variable width): the machine's absolute
		 * types are constants here, each with its own store, and any
		 * other type goes through reloc_width() as before */
		unsigned char *base = target->d_buf;
		const uint64_t lim4 = target->d_size - 4, lim8 = target->d_size - 8;
		const unsigned t8 = machine == EM_AARCH64 ? R_AARCH64_ABS64 : R_X86_64_64;
		const unsigned t4 = machine == EM_AARCH64 ? R_AARCH64_ABS32 : R_X86_64_32;
		const unsigned t4s = machine == EM_AARCH64 ? R_AARCH64_ABS32 : R_X86_64_32S;
		for (size_t i = 0; i < nrel; i++) {
			const Elf64_Rela *r = &r64[i];
			const uint64_t info = r->r_info, off = r->r_offset;
			const size_t si = ELF64_R_SYM(info);
			const unsigned t = (unsigned)ELF64_R_TYPE(info);
			const Elf64_Sym *sym;
			uint64_t v;
			if (t - t4 <= t4s - t4) {   /* t4 or t4s (adjacent, or one) */
				if (si >= nsym || off > lim4)
					return 1;
				sym = &s64[si];
				if (sym->st_shndx == SHN_XINDEX)
					return 1;
				/* sections sit at address 0 in an ET_REL object */
				uint32_t v32 = (uint32_t)((sym->st_shndx == SHN_UNDEF ? 0 : sym->st_value) +
							  (uint64_t)r->r_addend);
				memcpy(base + off, &v32, 4);
			} else if (t == t8) {
				if (si >= nsym || off > lim8)
					return 1;
				sym = &s64[si];
				if (sym->st_shndx == SHN_XINDEX)
					return 1;
				v = (sym->st_shndx == SHN_UNDEF ? 0 : sym->st_value) + (uint64_t)r->r_addend;
				memcpy(base + off, &v, 8);
			} else if (reloc_width(machine, t))
				return 1;   /* (0: a *_NONE relocation) */
		}
		return 0;
	}
	for (size_t i = 0; i < nrel; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		uint64_t s = 0, a, v;
		size_t symndx;
		int w;

		if (rela) {
			if (!gelf_getrela(rd, (int)i, &r))
				return 1;
		} else {
			GElf_Rel rel;
			if (!gelf_getrel(rd, (int)i, &rel))
				return 1;
			r.r_offset = rel.r_offset;
			r.r_info = rel.r_info;
			r.r_addend = 0;
		}
		w = reloc_width(machine, (unsigned)GELF_R_TYPE(r.r_info));
		if (w < 0)
			return 1;
		if (w == 0)
			continue;
		if (r.r_offset > target->d_size || target->d_size - r.r_offset < (size_t)w)
			return 1;
		symndx = GELF_R_SYM(r.r_info);
		if (symndx) {
			if (symndx >= nsym)
				return 1;
			if (!gelf_getsym(sd, (int)symndx, &sym))
				return 1;
			if (sym.st_shndx == SHN_XINDEX)
				return 1;
			/* sections sit at address 0 in an ET_REL object */
			s = sym.st_shndx == SHN_UNDEF ? 0 : sym.st_value;
		}
		unsigned char *p = (unsigned char *)target->d_buf + r.r_offset;
		if (rela)
			a = (uint64_t)r.r_addend;
		else if (w == 8)
			memcpy(&a, p, 8);
		else {
			uint32_t a32;
			memcpy(&a32, p, 4);
			a = a32;
		}
		v = s + a;
		if (w == 8)
			memcpy(p, &v, 8);
		else {
			uint32_t v32 = (uint32_t)v;
			memcpy(p, &v32, 4);
		}
	}
	return 0;
}

static int ranges_overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return alen && blen && a < b + blen && b < a + alen &&
	       a + alen >= a && b + blen >= b;
}

/* The relocations are written into libelf's image of the file: a target
 * section whose bytes are also the ELF header, the program or section
 * header table, or a section libelf or this file reads (relocations,
 * symbols, strings) would corrupt what is read next. A crafted object (a
 * .debug_line placed inside the section header table, found by fuzzing)
 * made libelf's elf_strptr() fault. Such an object is left to libdwfl. */
static int target_overlaps(Elf *elf, const GElf_Ehdr *eh, size_t shnum, const GElf_Shdr *tsh)
{
	Elf_Scn *s = NULL;
	uint64_t off = tsh->sh_offset, len = tsh->sh_size;
	/* libelf reads headers of its own size whatever e_shentsize says (a
	 * mutated e_shentsize of 38 hid the overlap: found by fuzzing) */
	uint64_t shsz = gelf_fsize(elf, ELF_T_SHDR, 1, EV_CURRENT);
	uint64_t phsz = gelf_fsize(elf, ELF_T_PHDR, 1, EV_CURRENT);
	uint64_t ehsz = gelf_fsize(elf, ELF_T_EHDR, 1, EV_CURRENT);
	if (eh->e_shentsize > shsz)
		shsz = eh->e_shentsize;
	if (eh->e_phentsize > phsz)
		phsz = eh->e_phentsize;
	if (eh->e_ehsize > ehsz)
		ehsz = eh->e_ehsize;
	if (off + len < off)
		return 1;
	if (ranges_overlap(off, len, 0, ehsz) ||
	    ranges_overlap(off, len, eh->e_phoff, (uint64_t)eh->e_phnum * phsz) ||
	    ranges_overlap(off, len, eh->e_shoff, (uint64_t)shnum * shsz))
		return 1;
	while ((s = elf_nextscn(elf, s))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh))
			return 1;
		if ((sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL || sh.sh_type == SHT_SYMTAB ||
		     sh.sh_type == SHT_STRTAB || sh.sh_type == SHT_DYNSYM) &&
		    ranges_overlap(off, len, sh.sh_offset, sh.sh_size))
			return 1;
	}
	return 0;
}

int bl_reloc_debug_sections(Elf *elf, const char *const *names, size_t n)
{
	GElf_Ehdr eh;
	size_t shstrndx, shnum;
	Elf_Scn *rs = NULL;

	/* reloc_width(m, 0): type 0 is *_NONE on every machine handled */
	if (!gelf_getehdr(elf, &eh) || eh.e_type != ET_REL ||
	    eh.e_ident[EI_DATA] != host_data() ||
	    reloc_width(eh.e_machine, 0) != 0 ||
	    elf_getshdrstrndx(elf, &shstrndx) < 0 || elf_getshdrnum(elf, &shnum) < 0)
		return 1;
	while ((rs = elf_nextscn(elf, rs))) {
		GElf_Shdr rsh, tsh;
		Elf_Scn *ts;
		Elf_Data *td;

		if (!gelf_getshdr(rs, &rsh))
			return 1;
		if (rsh.sh_type != SHT_RELA && rsh.sh_type != SHT_REL)
			continue;
		if (rsh.sh_info == 0 || rsh.sh_info >= shnum ||
		    !(ts = elf_getscn(elf, rsh.sh_info)) || !gelf_getshdr(ts, &tsh))
			return 1;
		if (!wanted(elf_strptr(elf, shstrndx, tsh.sh_name), names, n))
			continue;
		/* -gz objects (CONFIG_DEBUG_INFO_COMPRESSED): decompress the
		 * target in place, as libdw would when it opens the section */
		if ((tsh.sh_flags & SHF_COMPRESSED) &&
		    (elf_compress(ts, 0, 0) < 0 || !gelf_getshdr(ts, &tsh)))
			return 1;
		if ((rsh.sh_flags | tsh.sh_flags) & SHF_COMPRESSED || tsh.sh_type != SHT_PROGBITS ||
		    target_overlaps(elf, &eh, shnum, &tsh))
			return 1;
		td = elf_getdata(ts, NULL);
		if (!td || !td->d_buf || td->d_size != tsh.sh_size)
			return 1;
		if (apply(elf, eh.e_machine, rs, &rsh, td))
			return 1;
	}
	return 0;
}
