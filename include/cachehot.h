/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * cachehot.h -- annotate cache-line-hot and read-mostly struct members.
 *
 * Needs no libc or kernel header. Where the cachehot GCC plugin or the
 * cachehot-sparse checker is loaded, the attributes are registered and
 * __has_attribute() sees them; everywhere else the macros expand to nothing,
 * so annotated code builds with any compiler.
 *
 *   __cacheline_hot             written often from many CPUs. Must not share a
 *                               cache line with a read-mostly field, nor with a
 *                               hot field of another group (each ungrouped hot
 *                               field is its own group).
 *   __cacheline_hot_group(name) hot, member of group 'name': members of one
 *                               group may share lines.
 *   __cacheline_exclusive       hot, and shares its line(s) with no other field
 *                               (zero-size padding members excepted).
 *   __cacheline_read_mostly     read on fast paths, rarely written. Must not
 *                               share a line with any hot field.
 *   __cacheline_per_thread      on an array variable or member (or on a struct
 *                               type: every array of it): its elements are each
 *                               written by their own thread/CPU; neighbours must
 *                               not share a line ([cachehot-array-sharing]).
 *   __cachehot_addressable      on an inline function: its address is meant to
 *                               be taken (ops table, callback); silences
 *                               [cachehot-inline-addr].
 *
 * Example (reduced from include/linux/page_counter.h, v6.0):
 *   struct page_counter {
 *           atomic_long_t usage __cacheline_exclusive;
 *           CACHELINE_PADDING(_pad1_);
 *           ...
 *           unsigned long max __cacheline_read_mostly;
 *   };
 * Docs: docs/annotations.rst.
 */
#ifndef CACHEHOT_H
#define CACHEHOT_H

#if defined(__has_attribute)
# if __has_attribute(cacheline_hot)
#  define __cacheline_hot                __attribute__((cacheline_hot))
#  define __cacheline_hot_group(name)    __attribute__((cacheline_hot(#name)))
#  define __cacheline_exclusive          __attribute__((cacheline_exclusive))
#  define __cacheline_read_mostly        __attribute__((cacheline_read_mostly))
# endif
# if __has_attribute(cacheline_per_thread)
#  define __cacheline_per_thread         __attribute__((cacheline_per_thread))
# endif
# if __has_attribute(cachehot_addressable)
#  define __cachehot_addressable         __attribute__((cachehot_addressable))
# endif
#endif

#ifndef __cacheline_hot
# define __cacheline_hot
# define __cacheline_hot_group(name)
# define __cacheline_exclusive
# define __cacheline_read_mostly
#endif
#ifndef __cacheline_per_thread
# define __cacheline_per_thread
#endif
#ifndef __cachehot_addressable
# define __cachehot_addressable
#endif

#endif /* CACHEHOT_H */
