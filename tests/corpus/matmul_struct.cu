// Matrix multiplication with shared memory, as the CUDA C++ Programming Guide gives it: a
// Matrix struct (int sizes, a float* to the elements) passed by value, GetSubMatrix returning
// a Matrix, and 2 x 2 tiles staged in shared memory between two __syncthreads().
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// Matrices are stored in row-major order: M(row, col) = *(M.elements + row * M.stride + col)
typedef struct {
  int width;
  int height;
  int stride;
  float* elements;
} Matrix;

// Thread block size
#define BLOCK_SIZE 2

//@ launch grid=(2,2) block=(2,2)
//@ arg A.width = 4
//@ arg A.height = 4
//@ arg A.stride = 4
//@ arg A.elements: float[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
//@ arg B.width = 4
//@ arg B.height = 4
//@ arg B.stride = 4
//@ arg B.elements: float[16] = {1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
//@ arg C.width = 4
//@ arg C.height = 4
//@ arg C.stride = 4
//@ arg C.elements: float[16] = zeros
//@ observe C.elements
//@ expect all: exactly C.elements[0]=1 C.elements[1]=4 C.elements[2]=3 C.elements[3]=4 \
//@   C.elements[4]=5 C.elements[5]=12 C.elements[6]=7 C.elements[7]=8 \
//@   C.elements[8]=9 C.elements[9]=20 C.elements[10]=11 C.elements[11]=12 \
//@   C.elements[12]=13 C.elements[13]=28 C.elements[14]=15 C.elements[15]=16

// Get a matrix element
__device__ float GetElement(const Matrix A, int row, int col) {
  return A.elements[row * A.stride + col];
}

// Set a matrix element
__device__ void SetElement(Matrix A, int row, int col, float value) {
  A.elements[row * A.stride + col] = value;
}

// Get the BLOCK_SIZExBLOCK_SIZE sub-matrix Asub of A that is located col sub-matrices to the
// right and row sub-matrices down from the upper-left corner of A
__device__ Matrix GetSubMatrix(Matrix A, int row, int col) {
  Matrix Asub;
  Asub.width = BLOCK_SIZE;
  Asub.height = BLOCK_SIZE;
  Asub.stride = A.stride;
  Asub.elements = &A.elements[A.stride * BLOCK_SIZE * row + BLOCK_SIZE * col];
  return Asub;
}

// Matrix multiplication kernel called by MatMul()
__global__ void MatMulKernel(Matrix A, Matrix B, Matrix C) {
  // Block row and column
  int blockRow = blockIdx.y;
  int blockCol = blockIdx.x;
  // Each thread block computes one sub-matrix Csub of C
  Matrix Csub = GetSubMatrix(C, blockRow, blockCol);
  // Each thread computes one element of Csub by accumulating results into Cvalue
  float Cvalue = 0;
  int row = threadIdx.y;
  int col = threadIdx.x;
  for (int m = 0; m < (A.width / BLOCK_SIZE); ++m) {
    Matrix Asub = GetSubMatrix(A, blockRow, m);
    Matrix Bsub = GetSubMatrix(B, m, blockCol);
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[row][col] = GetElement(Asub, row, col);
    Bs[row][col] = GetElement(Bsub, row, col);
    // Synchronize to make sure the sub-matrices are loaded before starting the computation
    __syncthreads();
    for (int e = 0; e < BLOCK_SIZE; ++e) Cvalue += As[row][e] * Bs[e][col];
    // Synchronize to make sure that the preceding computation is done before loading two new
    // sub-matrices of A and B in the next iteration
    __syncthreads();
  }
  SetElement(Csub, row, col, Cvalue);
}

// Matrix dimensions are assumed to be multiples of BLOCK_SIZE
void MatMul(const Matrix A, const Matrix B, Matrix C) {
  Matrix d_A;
  d_A.width = d_A.stride = A.width;
  d_A.height = A.height;
  size_t size = A.width * A.height * sizeof(float);
  cudaMalloc(&d_A.elements, size);
  cudaMemcpy(d_A.elements, A.elements, size, cudaMemcpyHostToDevice);
  Matrix d_B;
  d_B.width = d_B.stride = B.width;
  d_B.height = B.height;
  size = B.width * B.height * sizeof(float);
  cudaMalloc(&d_B.elements, size);
  cudaMemcpy(d_B.elements, B.elements, size, cudaMemcpyHostToDevice);
  Matrix d_C;
  d_C.width = d_C.stride = C.width;
  d_C.height = C.height;
  size = C.width * C.height * sizeof(float);
  cudaMalloc(&d_C.elements, size);
  dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
  dim3 dimGrid(B.width / dimBlock.x, A.height / dimBlock.y);
  MatMulKernel<<<dimGrid, dimBlock>>>(d_A, d_B, d_C);
  cudaMemcpy(C.elements, d_C.elements, size, cudaMemcpyDeviceToHost);
  cudaFree(d_A.elements);
  cudaFree(d_B.elements);
  cudaFree(d_C.elements);
}

int main() {
  Matrix A, B, C;
  A.width = A.height = A.stride = B.width = B.height = B.stride = C.width = C.height = C.stride = 4;
  A.elements = (float*)malloc(16 * sizeof(float));
  B.elements = (float*)malloc(16 * sizeof(float));
  C.elements = (float*)malloc(16 * sizeof(float));
  for (int i = 0; i < 16; ++i) {
    A.elements[i] = i + 1;
    B.elements[i] = i % 5 == 0 ? (i == 5 ? 2 : 1) : 0;
  }
  MatMul(A, B, C);
  for (int i = 0; i < 16; ++i) printf("%g ", C.elements[i]);
  printf("\n");
  return 0;
}
