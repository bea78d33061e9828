/* SPDX-License-Identifier: GPL-2.0 */
/*
 * allregs.h -- the register-preserving entry points of libcachehot-rt on
 * x86-64 (runtime/allregs.c; also bench/record/floor.c's stand-ins).
 *
 * A recording build for x86-64 reaches the runtime from its cold block
 * through an asm (plugin/record.c, allregs_asm):
 *	lea -128(%rsp), %rsp; call *NAME@GOTPCREL(%rip); lea 128(%rsp), %rsp
 * (through the GOT, bound at load: the first call through a lazy PLT entry
 * runs the dynamic linker's resolver, which clobbers r10 and r11) with the
 * address in rdi and the site in rsi, which declares only the
 * flags, the vector registers and the countdown clobbered. So NAME must
 * preserve every general register (rax, rcx, rdx, rsi, rdi, r8-r11 too:
 * the ABI lets a C function clobber those) and may be entered with any
 * stack alignment. ALLREGS_ENTRY(NAME, TARGET) defines NAME (exported) as:
 * save the 9 caller-saved general registers, align the stack to 16 bytes,
 * call TARGET (a C function void TARGET(const void *addr, const char *site),
 * hidden), restore, return. With call frame information, so that a
 * debugger or unwinder can walk out of TARGET, and an endbr64 (a no-op
 * where indirect branch tracking is off): the asm calls it indirectly,
 * through the GOT.
 */
#ifndef CACHEHOT_RT_ALLREGS_H
#define CACHEHOT_RT_ALLREGS_H
#if defined(__x86_64__) && !defined(__ILP32__)
#define ALLREGS_PUSH(r) "pushq %" r "\n\t.cfi_adjust_cfa_offset 8\n\t.cfi_rel_offset " r ", 0\n\t"
#define ALLREGS_POP(r)  "popq %" r "\n\t.cfi_adjust_cfa_offset -8\n\t.cfi_restore " r "\n\t"
#define ALLREGS_ENTRY(name, target)                                                       \
	__asm__(".text\n\t.p2align 4\n\t.globl " name "\n\t.type " name ", @function\n"  \
		name ":\n\t.cfi_startproc\n\tendbr64\n\t"                               \
		ALLREGS_PUSH("rax") ALLREGS_PUSH("rcx") ALLREGS_PUSH("rdx")              \
		ALLREGS_PUSH("rsi") ALLREGS_PUSH("rdi") ALLREGS_PUSH("r8")               \
		ALLREGS_PUSH("r9") ALLREGS_PUSH("r10") ALLREGS_PUSH("r11")               \
		ALLREGS_PUSH("rbp")                                                       \
		"movq %rsp, %rbp\n\t.cfi_def_cfa_register rbp\n\t"                        \
		"andq $-16, %rsp\n\t"                                                     \
		"call " target "\n\t"                                                     \
		"movq %rbp, %rsp\n\t.cfi_def_cfa_register rsp\n\t"                        \
		ALLREGS_POP("rbp")                                                        \
		ALLREGS_POP("r11") ALLREGS_POP("r10") ALLREGS_POP("r9")                  \
		ALLREGS_POP("r8") ALLREGS_POP("rdi") ALLREGS_POP("rsi")                  \
		ALLREGS_POP("rdx") ALLREGS_POP("rcx") ALLREGS_POP("rax")                 \
		"ret\n\t.cfi_endproc\n\t.size " name ", .-" name "\n\t.previous")
#endif
#endif
