#include "alloc_counter.h"

#include <errno.h>
#include <stddef.h>

/*
 * Under AddressSanitizer or ThreadSanitizer (`make sanitize`) the sanitizer owns malloc: replacing it
 * here would hand the sanitizer's free() memory it never allocated. The counter is then compiled
 * without its replacements and says so through alloc_counter_available().
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ALLOC_COUNTER_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ALLOC_COUNTER_OFF 1
#endif
#endif

#ifdef ALLOC_COUNTER_OFF

int alloc_counter_available(void) { return 0; }
void alloc_counter_start(void) {}
unsigned long alloc_counter_stop(void) { return 0; }

#else

int alloc_counter_available(void) { return 1; }

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

#endif /* ALLOC_COUNTER_OFF */
