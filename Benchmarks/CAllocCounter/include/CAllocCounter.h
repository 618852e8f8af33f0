#ifndef TERMBENCH_ALLOC_COUNTER_H
#define TERMBENCH_ALLOC_COUNTER_H

// Counts every heap allocation the process makes, whoever makes it (the
// Swift runtime, Foundation, the engine), and anonymous memory mapped with
// mmap() directly. Linking alloc_counter.c into an
// executable replaces glibc's malloc family with thin wrappers that bump
// counters and forward to glibc's own implementation (__libc_malloc & co.),
// so the heap itself, and mallinfo2(), are unchanged.
//
// glibc on Linux only. Elsewhere (Apple platforms, musl) the functions below
// are stubs: no allocation is counted, termbench_alloc_counter_active()
// returns 0 and termbench_heap_in_use() 0.

#include <stddef.h>
#include <stdint.h>

typedef struct {
    /// malloc, calloc, realloc and the aligned variants (each call).
    uint64_t allocations;
    /// Bytes requested by those calls.
    uint64_t bytes;
    /// free calls with a non-null pointer.
    uint64_t frees;
} termbench_alloc_counts;

/// The counters so far (relaxed atomic reads).
termbench_alloc_counts termbench_alloc_counts_now(void);

/// True once the wrappers have seen a call: false means the interposition
/// did not take and the counts must not be trusted.
int termbench_alloc_counter_active(void);

/// Heap bytes in use: according to glibc, small chunks in the arenas
/// (mallinfo2 uordblks) plus mmapped blocks (hblkhd); plus anonymous private
/// memory mapped with mmap() directly and not yet unmapped (TermEngine maps
/// grids of 4 MiB or more itself on Linux), which the wrappers also count as
/// allocations.
size_t termbench_heap_in_use(void);

/// True when more anonymous mappings were live at once than the wrappers
/// keep track of (256), so the mapped bytes are an undercount.
int termbench_mapped_overflow(void);

#endif
