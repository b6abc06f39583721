// atomicAddFloat / atomicAddDouble / atomicMaxFloat: read-modify-write operations built from
// an atomicCAS retry loop.
//
// Source: [004] "Synchronization Complete Guide", "Atomic Operations" > "Basic Atomic
// Operations" >
// "Custom Atomic Operations".
// Teaches: the CAS loop: read, compute, atomicCAS; retry with the value the CAS returned
// until no other thread changed the word in between (the Guide's atomicAdd-for-double
// pattern, 10.14).
// Status: correct. The first read `old = *address_as_uint` is a plain load racing with other
// threads' atomicCAS; it is only a guess that the CAS validates, so the race is benign
// (fencelab's race detector will still see a plain read against atomics).
// Added: the launcher (marked): the document defines the helpers but no kernel calls them.
// Launch: 3 threads; thread t adds t + 1 to fsum and dsum, and maxes t into fmax (from -1):
// fsum = dsum = 1 + 2 + 3 = 6, fmax = 2.
//
// Weak models: tso and gpu give the same sums (20,000 random runs; exploration does not
// finish). Under gpu the initial plain read may return a stale value (nothing synchronizes the
// threads); the atomicCAS then fails, returns the newest value, and the loop retries with it.
//
//@ launch grid=1 block=3
//@ arg fsum: float[1] = zeros
//@ arg dsum: double[1] = zeros
//@ arg fmax: float[1] = -1
//@ observe fsum[0] dsum[0] fmax[0]
//@ expect sc: exactly fsum[0]=6 dsum[0]=6 fmax[0]=2
//@ expect tso,gpu: always fsum[0] == 6 && dsum[0] == 6 && fmax[0] == 2
//@ expect all: diagnostic data-race

// Implement custom atomic operations using atomicCAS
__device__ float atomicAddFloat(float* address, float val) {
    unsigned int* address_as_uint = (unsigned int*)address;
    unsigned int old = *address_as_uint, assumed;

    do {
        assumed = old;
        old = atomicCAS(address_as_uint, assumed,
                       __float_as_int(val + __int_as_float(assumed)));
    } while (assumed != old);

    return __int_as_float(old);
}

__device__ double atomicAddDouble(double* address, double val) {
    unsigned long long int* address_as_ull = (unsigned long long int*)address;
    unsigned long long int old = *address_as_ull, assumed;

    do {
        assumed = old;
        old = atomicCAS(address_as_ull, assumed,
                       __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);

    return __longlong_as_double(old);
}

// Atomic maximum for floating-point
__device__ float atomicMaxFloat(float* address, float val) {
    int* address_as_int = (int*)address;
    int old = *address_as_int, assumed;

    do {
        assumed = old;
        float current = __int_as_float(assumed);
        float new_val = fmaxf(current, val);
        old = atomicCAS(address_as_int, assumed, __float_as_int(new_val));
    } while (assumed != old);

    return __int_as_float(old);
}

// Added by fencelab: a launcher for the three helpers above.
__global__ void custom_atomics_launcher(float* fsum, double* dsum, float* fmax) {
    atomicAddFloat(fsum, threadIdx.x + 1.0f);
    atomicAddDouble(dsum, threadIdx.x + 1.0);
    atomicMaxFloat(fmax, (float)threadIdx.x);
}
