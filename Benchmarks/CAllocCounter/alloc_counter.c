// Interposes glibc's malloc family to count allocations (see the header).
//
// Why not dlsym(RTLD_NEXT, "malloc"): dlsym itself may allocate, which would
// recurse into a wrapper that does not have its target yet. glibc exports
// its implementation under __libc_* names (GLIBC_2.2.5 and later), which
// need no lookup at all.
//
// All of it is glibc's (__libc_malloc, mallinfo2, <malloc.h>, SYS_mmap):
// elsewhere (Apple platforms, musl) the file compiles to the stubs at its
// end, which count nothing and say so (termbench_alloc_counter_active is 0).

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "CAllocCounter.h"

#if defined(__linux__)
#include <features.h>  // defines __GLIBC__ under glibc, not under musl
#endif

#if defined(__linux__) && defined(__GLIBC__)

#include <errno.h>
#include <malloc.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static uint64_t allocation_count;
static uint64_t allocated_bytes;
static uint64_t free_count;

static inline void count_allocation(size_t size) {
    __atomic_fetch_add(&allocation_count, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&allocated_bytes, (uint64_t)size, __ATOMIC_RELAXED);
}

void *malloc(size_t size) {
    count_allocation(size);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_allocation(count * size);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    // realloc may move the block: it is an allocation whatever it does.
    count_allocation(size);
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    if (pointer) __atomic_fetch_add(&free_count, 1, __ATOMIC_RELAXED);
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    count_allocation(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_allocation(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_allocation(size);
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}

void *valloc(size_t size) {
    count_allocation(size);
    return __libc_memalign((size_t)sysconf(_SC_PAGESIZE), size);
}

void *pvalloc(size_t size) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t rounded = (size + page - 1) & ~(page - 1);
    count_allocation(rounded);
    return __libc_memalign(page, rounded);
}

// Anonymous memory mapped with mmap() directly (TermEngine maps grids of
// 4 MiB or more itself on Linux): counted as allocations, and its bytes
// added to the heap in use. glibc's malloc maps its large blocks with an
// internal call that does not come through here (mallinfo2's hblkhd has
// them), so nothing is counted twice. The regions are kept in a small table
// so that munmap, which may unmap any part of any mapping, subtracts only
// what was counted; a process with more live regions than the table holds
// stops counting new ones (`mapped_overflow`) rather than guess.

enum { mapped_capacity = 256 };
static struct { uintptr_t start, end; } mapped_regions[mapped_capacity];
static size_t mapped_count;
static int64_t mapped_bytes;
static int mapped_overflow;
static int mapped_lock;

static void lock_mapped(void) {
    while (__atomic_exchange_n(&mapped_lock, 1, __ATOMIC_ACQUIRE)) {}
}

static void unlock_mapped(void) { __atomic_store_n(&mapped_lock, 0, __ATOMIC_RELEASE); }

static uintptr_t page_round_up(uintptr_t value) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    return (value + page - 1) & ~(page - 1);
}

void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    void *result = (void *)syscall(SYS_mmap, address, length, protection, flags, fd, offset);
    if (result != MAP_FAILED && (flags & MAP_ANONYMOUS) && !(flags & MAP_SHARED) && length > 0) {
        count_allocation(length);
        lock_mapped();
        if (mapped_count < mapped_capacity) {
            uintptr_t start = (uintptr_t)result;
            mapped_regions[mapped_count].start = start;
            mapped_regions[mapped_count].end = start + page_round_up(length);
            mapped_count += 1;
            mapped_bytes += (int64_t)page_round_up(length);
        } else {
            mapped_overflow = 1;
        }
        unlock_mapped();
    }
    return result;
}

void *mmap64(void *address, size_t length, int protection, int flags, int fd, off_t offset)
    __attribute__((alias("mmap")));

int munmap(void *address, size_t length) {
    int result = (int)syscall(SYS_munmap, address, length);
    if (result != 0 || length == 0) return result;
    uintptr_t start = (uintptr_t)address;
    uintptr_t end = start + page_round_up(length);
    lock_mapped();
    for (size_t index = 0; index < mapped_count; index++) {
        uintptr_t low = mapped_regions[index].start, high = mapped_regions[index].end;
        if (end <= low || start >= high) continue;
        uintptr_t cut_low = start > low ? start : low;
        uintptr_t cut_high = end < high ? end : high;
        mapped_bytes -= (int64_t)(cut_high - cut_low);
        if (cut_low == low && cut_high == high) {
            // Gone: the last region takes its place and is looked at next.
            mapped_regions[index] = mapped_regions[mapped_count - 1];
            mapped_count -= 1;
            index -= 1;
        } else if (cut_low == low) {
            mapped_regions[index].start = cut_high;
        } else if (cut_high == high) {
            mapped_regions[index].end = cut_low;
        } else if (mapped_count < mapped_capacity) {
            // A hole in the middle: two regions.
            mapped_regions[mapped_count].start = cut_high;
            mapped_regions[mapped_count].end = high;
            mapped_count += 1;
            mapped_regions[index].end = cut_low;
        } else {
            // No room to split: forget the part after the hole.
            mapped_bytes -= (int64_t)(high - cut_high);
            mapped_regions[index].end = cut_low;
            mapped_overflow = 1;
        }
    }
    unlock_mapped();
    return result;
}

termbench_alloc_counts termbench_alloc_counts_now(void) {
    termbench_alloc_counts counts;
    counts.allocations = __atomic_load_n(&allocation_count, __ATOMIC_RELAXED);
    counts.bytes = __atomic_load_n(&allocated_bytes, __ATOMIC_RELAXED);
    counts.frees = __atomic_load_n(&free_count, __ATOMIC_RELAXED);
    return counts;
}

int termbench_alloc_counter_active(void) {
    // Let a shared library allocate: glibc's strdup calls malloc through
    // its PLT precisely so that replacements like this one see the call.
    // If the counter moves, libraries bind to these wrappers.
    uint64_t before = __atomic_load_n(&allocation_count, __ATOMIC_RELAXED);
    char *probe = strdup("termbench");
    free(probe);
    return __atomic_load_n(&allocation_count, __ATOMIC_RELAXED) != before;
}

size_t termbench_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd + (size_t)__atomic_load_n(&mapped_bytes, __ATOMIC_RELAXED);
}

int termbench_mapped_overflow(void) { return __atomic_load_n(&mapped_overflow, __ATOMIC_RELAXED); }

#else  // not glibc on Linux: nothing is interposed, nothing is counted

termbench_alloc_counts termbench_alloc_counts_now(void) {
    termbench_alloc_counts counts = {0, 0, 0};
    return counts;
}

int termbench_alloc_counter_active(void) { return 0; }

size_t termbench_heap_in_use(void) { return 0; }

int termbench_mapped_overflow(void) { return 0; }

#endif
