// read_packed_misaligned: reads 32-bit integers out of a byte buffer at offsets 1, 5, 9, 13,
// as a parser of a packed record format might.
//
// Source: fencelab catalogue.
// Teaches: "Any address of a variable residing in global memory ... is always aligned to at
// least 256 bytes", and a 4-byte access must be 4-byte aligned ("Device Memory Accesses",
// CUDA C++ Programming Guide: accesses to misaligned addresses give undefined results; on
// hardware the kernel faults with "misaligned address"). Copy the bytes out with memcpy or
// byte loads instead.
// Status: BUGGY (misaligned access).
// Launch: one block of 4 threads over 17 bytes.
//
// Weak models: the same in every model: the first misaligned load ends the execution.
//
//@ launch grid=1 block=4
//@ arg bytes: char[17] = zeros
//@ arg out: int[4] = zeros
//@ expect all: diagnostic misaligned

__global__ void read_packed_misaligned(const char* bytes, int* out) {
    const int* field = (const int*)(bytes + 1 + 4 * threadIdx.x);
    out[threadIdx.x] = *field;
}
