#pragma once
// VOLLEY_HD marks a function that both the CPU backend and CUDA kernels call: __host__
// __device__ under nvcc, nothing for the host compiler.

#if defined(__CUDACC__)
#define VOLLEY_HD __host__ __device__
#else
#define VOLLEY_HD
#endif
