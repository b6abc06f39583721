#define BLOCK 256
#define ARCH 700
#if BLOCK > 128 && (ARCH >= 700 || defined(FORCE))
#define MODE 1
#elif BLOCK == 64
#define MODE 2
#else
#define MODE 3
#endif
#if !defined NOPE && UNKNOWN == 0 && (1 << 4) % 5 == 1 && -3 / 2 == -1 && 'a' == 97 ? 1 : 0
#define OK 1
#endif
//@ observe out
__device__ int out;
__global__ void k() { out = MODE * 10 + OK; }
