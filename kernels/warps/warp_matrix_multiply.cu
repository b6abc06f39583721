// warp_matrix_multiply: warp w computes row w of C = A * B, lane l column l (+32k).
//
// Source: [004] "Synchronization Complete Guide", "Warp-Level Synchronization" > "Warp
// Cooperative Algorithms" >
// "Warp-Level Matrix Operations".
// Teaches: no synchronization is needed when every thread reads shared inputs and writes its
// own output element ("Broadcast across warp" is just every lane loading the same address).
// Status: correct. Uses no warp intrinsics, so it runs now.
// Launch: 2 warps (64 threads) for M = 2 rows; N = 3, K = 2.
// A = [1 2; 3 4], B = [1 2 3; 4 5 6]: C = [9 12 15; 19 26 33].
//
//@ launch grid=1 block=64
//@ arg A: float[4] = {1, 2, 3, 4}
//@ arg B: float[6] = {1, 2, 3, 4, 5, 6}
//@ arg C: float[6] = zeros
//@ arg M = 2
//@ arg N = 3
//@ arg K = 2
//@ observe C
//@ expect sc: exactly C[0]=9 C[1]=12 C[2]=15 C[3]=19 C[4]=26 C[5]=33
//@ expect all: no diagnostics

// Cooperative matrix multiplication within warp
__global__ void warp_matrix_multiply(float* A, float* B, float* C,
                                    int M, int N, int K) {
    int tid = threadIdx.x;
    int warp_id = tid / 32;
    int lane_id = tid % 32;

    // Each warp computes one row of result matrix
    int row = warp_id;

    if (row < M) {
        // Each thread in warp handles multiple columns
        for (int col_base = 0; col_base < N; col_base += 32) {
            int col = col_base + lane_id;

            if (col < N) {
                float result = 0.0f;

                // Dot product computation
                for (int k = 0; k < K; k++) {
                    float a_val = A[row * K + k];  // Broadcast across warp
                    float b_val = B[k * N + col];  // Unique per thread
                    result += a_val * b_val;
                }

                C[row * N + col] = result;
            }
        }
    }
}
