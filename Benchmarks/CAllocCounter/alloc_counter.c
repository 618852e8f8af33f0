// Interposes glibc's malloc family to count allocations (see the header).
//
// Why not dlsym(RTLD_NEXT, "malloc"): dlsym itself may allocate, which would
// recurse into a wrapper that does not have its target yet. glibc exports
// its implementation under __libc_* names (GLIBC_2.2.5 and later), which
// need no lookup at all.

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "CAllocCounter.h"

#include <errno.h>
#include <malloc.h>
#include <string.h>
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
    return info.uordblks + info.hblkhd;
}
