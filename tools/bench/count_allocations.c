/* Counts heap allocations (malloc, calloc, realloc, and through them C++'s operator new) of a
 * process it is preloaded into, and writes the count to the file named by
 * FENCELAB_ALLOCATIONS_FILE when the process exits. Used by tools/bench/run for issue 12's
 * "no heap allocation per visible event in the steady state":
 *   cc -O2 -shared -fPIC -o count_allocations.so count_allocations.c -ldl
 *   FENCELAB_ALLOCATIONS_FILE=out LD_PRELOAD=./count_allocations.so fencelab run ...
 * Not thread-safe beyond an atomic count, which is all it needs. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_ulong allocations;
static void* (*real_malloc)(size_t);
static void* (*real_calloc)(size_t, size_t);
static void* (*real_realloc)(void*, size_t);

/* dlsym itself may calloc before real_calloc is known: served from a small static area. */
static char bootstrap[4096];
static size_t bootstrap_used;

void* malloc(size_t size) {
  if (!real_malloc) real_malloc = (void* (*)(size_t))dlsym(RTLD_NEXT, "malloc");
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return real_malloc(size);
}

void* calloc(size_t count, size_t size) {
  if (!real_calloc) {
    if (bootstrap_used + count * size > sizeof bootstrap) return NULL;
    void* p = bootstrap + bootstrap_used;
    bootstrap_used += (count * size + 15) & ~(size_t)15;
    return p; /* static storage is zeroed */
  }
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return real_calloc(count, size);
}

void* realloc(void* pointer, size_t size) {
  if (!real_realloc) real_realloc = (void* (*)(void*, size_t))dlsym(RTLD_NEXT, "realloc");
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return real_realloc(pointer, size);
}

void free(void* pointer) {
  static void (*real_free)(void*);
  if ((char*)pointer >= bootstrap && (char*)pointer < bootstrap + sizeof bootstrap) return;
  if (!real_free) real_free = (void (*)(void*))dlsym(RTLD_NEXT, "free");
  real_free(pointer);
}

__attribute__((constructor)) static void find_calloc(void) {
  real_calloc = (void* (*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
}

__attribute__((destructor)) static void report(void) {
  const char* path = getenv("FENCELAB_ALLOCATIONS_FILE");
  if (!path) return;
  FILE* out = fopen(path, "w");
  if (!out) return;
  fprintf(out, "%lu\n", (unsigned long)atomic_load(&allocations));
  fclose(out);
}
