/*
 * A test-only allocation counter. Linked into the test executable, it replaces malloc and friends
 * (glibc supports this by ELF symbol interposition) and forwards every call to glibc's own
 * __libc_* functions. Counting is per thread and off until alloc_counter_start() is called, so tests
 * running in parallel on other threads do not disturb a measurement.
 */
#ifndef ALLOC_COUNTER_H
#define ALLOC_COUNTER_H

/**
 * 1 when malloc and friends are replaced and counting works; 0 in a sanitizer build (ASan/TSan own
 * malloc there), where start/stop do nothing and stop returns 0.
 */
int alloc_counter_available(void);
/** Starts counting allocations and frees made by the calling thread (resets the counts). */
void alloc_counter_start(void);
/** Stops counting on the calling thread and returns how many allocations and frees it saw. */
unsigned long alloc_counter_stop(void);

#endif
