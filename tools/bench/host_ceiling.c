/* Reference loops for tools/bench/jobs: what a host gives N copies of a program that shares
 * nothing, beside fencelab's --jobs N. Neither allocates after its start nor makes a system call.
 *
 *   host_ceiling registers N   N rounds of four integer chains in registers (no memory)
 *   host_ceiling cache N KIB   N random reads within a table of KIB kibibytes
 *
 * Prints a checksum, so that the compiler keeps the work. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t xorshift(uint64_t x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

int main(int argc, char** argv) {
  const int registers = argc == 3 && strcmp(argv[1], "registers") == 0;
  if (!registers && !(argc == 4 && strcmp(argv[1], "cache") == 0)) {
    fprintf(stderr, "usage: host_ceiling registers ROUNDS | host_ceiling cache READS KIB\n");
    return 2;
  }
  const long rounds = atol(argv[2]);
  uint64_t sum = 0;
  if (registers) {
    uint64_t a = 1, b = 2, c = 3, d = 4;
    for (long i = 0; i < rounds; ++i) {
      a = a * 6364136223846793005ull + 1;
      b = xorshift(b);
      c += a >> 3;
      d ^= c + b;
    }
    sum = a ^ b ^ c ^ d;
  } else {
    const size_t words = (size_t)atol(argv[3]) * 1024 / sizeof(uint64_t);
    uint64_t* table = malloc(words * sizeof(uint64_t));
    if (table == NULL || words == 0) return 1;
    for (size_t i = 0; i < words; ++i) table[i] = i * 0x9E3779B97F4A7C15ull;
    uint64_t x = 1;
    for (long i = 0; i < rounds; ++i) {
      x = xorshift(x);
      sum += table[x % words];
    }
    free(table);
  }
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
