#include "alloc_counter.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *ptr);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread int counting;
static __thread unsigned long events;

void alloc_counter_start(void) {
    events = 0;
    counting = 1;
}

unsigned long alloc_counter_stop(void) {
    counting = 0;
    return events;
}

#define COUNT() \
    do {                       \
        if (counting) ++events; \
    } while (0)

void *malloc(size_t size) {
    COUNT();
    return __libc_malloc(size);
}

void free(void *ptr) {
    if (ptr) COUNT();
    __libc_free(ptr);
}

void *calloc(size_t count, size_t size) {
    COUNT();
    return __libc_calloc(count, size);
}

void *realloc(void *ptr, size_t size) {
    COUNT();
    return __libc_realloc(ptr, size);
}

void *memalign(size_t alignment, size_t size) {
    COUNT();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    COUNT();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    COUNT();
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (!p && size) return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t size) {
    COUNT();
    return __libc_memalign(4096, size);
}

void *pvalloc(size_t size) {
    COUNT();
    return __libc_memalign(4096, (size + 4095) & ~(size_t)4095);
}
