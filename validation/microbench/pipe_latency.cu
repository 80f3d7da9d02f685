// SM microbenchmark for GPU presets: dependent-issue latency of the FP32 FMA, special-function (MUFU) and conversion pipes.
//
// Build and run (CUDA toolkit only):  nvcc -O3 -arch=sm_90 -o pipe_latency pipe_latency.cu && ./pipe_latency
// Prints CSV lines "metric,value,unit,detail": clock64() cycles per instruction of one thread's
// dependent chain (inline PTX, so the compiler keeps every instruction), averaged over many
// steps; one thread on an otherwise idle GPU. Check the SASS with cuobjdump -sass.
#include <cuda_runtime.h>

#include <cstdio>

#include "cuda_check.h"

constexpr int kSteps = 1 << 16;

// x = fma(x, a, b): one FFMA per step.
__global__ void fma_chain(const float* in, double* out, float* sink) {
  float x = in[0];
  const float a = in[1], b = in[2];
  const long long t0 = clock64();
#pragma unroll 64
  for (int k = 0; k < kSteps; ++k) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b));
  const long long t1 = clock64();
  *out = static_cast<double>(t1 - t0) / kSteps;
  *sink = x;
}

// x = rcp.approx(x) (without .ftz: MUFU.RCP plus the denormal handling around it).
__global__ void rcp_chain(const float* in, double* out, float* sink) {
  float x = in[0];
  const long long t0 = clock64();
#pragma unroll 64
  for (int k = 0; k < kSteps; ++k) asm volatile("rcp.approx.f32 %0, %0;" : "+f"(x));
  const long long t1 = clock64();
  *out = static_cast<double>(t1 - t0) / kSteps;
  *sink = x;
}

// x = ex2.approx.ftz(x): one MUFU.EX2 per step, the special-function unit alone.
__global__ void ex2_chain(const float* in, double* out, float* sink) {
  float x = in[0];
  const long long t0 = clock64();
#pragma unroll 64
  for (int k = 0; k < kSteps; ++k) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x));
  const long long t1 = clock64();
  *out = static_cast<double>(t1 - t0) / kSteps;
  *sink = x;
}

// int -> float (I2FP.F32.S32), its bits masked back to an int (LOP3): a conversion and a logic op per step.
__global__ void i2f_chain(const float* in, double* out, float* sink) {
  int x = static_cast<int>(in[0]);
  float y = 0;
  const long long t0 = clock64();
#pragma unroll 64
  for (int k = 0; k < kSteps; ++k) {
    asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(y) : "r"(x));
    x = __float_as_int(y) & 255;
  }
  const long long t1 = clock64();
  *out = static_cast<double>(t1 - t0) / kSteps;
  *sink = static_cast<float>(x);
}

// float -> int (F2I.TRUNC), its bits ored back into a float (LOP3): a conversion and a logic op per step.
__global__ void f2i_chain(const float* in, double* out, float* sink) {
  float x = in[0];
  int y = 0;
  const long long t0 = clock64();
#pragma unroll 64
  for (int k = 0; k < kSteps; ++k) {
    asm volatile("cvt.rzi.s32.f32 %0, %1;" : "=r"(y) : "f"(x));
    x = __int_as_float(y | 0x3f800000);
  }
  const long long t1 = clock64();
  *out = static_cast<double>(t1 - t0) / kSteps;
  *sink = x;
}

int main() {
  double* out = nullptr;
  float* sink = nullptr;
  float* in = nullptr;
  CHECK(cudaMalloc(&out, sizeof(double)));
  CHECK(cudaMalloc(&sink, sizeof(float)));
  CHECK(cudaMalloc(&in, 3 * sizeof(float)));
  const float host_in[3] = {1.5f, 1.0000001f, 0.0f};
  CHECK(cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice));
  double v = 0;
  struct Chain {
    void (*kernel)(const float*, double*, float*);
    const char* line;
  };
  const Chain chains[] = {
      {fma_chain, "fma_cycles,%.2f,cycles,dependent fma.rn.f32 (FFMA) chain (one thread)\n"},
      {rcp_chain, "rcp_cycles,%.2f,cycles,dependent rcp.approx.f32 (MUFU.RCP with denormal handling) chain\n"},
      {ex2_chain, "sfu_ex2_cycles,%.2f,cycles,dependent ex2.approx.ftz.f32 (MUFU.EX2) chain (one thread)\n"},
      {i2f_chain, "i2f_lop3_cycles,%.2f,cycles,cvt.rn.f32.s32 (I2FP.F32.S32) then & 255 (LOP3) per step\n"},
      {f2i_chain, "f2i_lop3_cycles,%.2f,cycles,cvt.rzi.s32.f32 (F2I.TRUNC) then | 0x3f800000 (LOP3) per step\n"},
  };
  std::printf("metric,value,unit,detail\n");
  for (int rep = 0; rep < 2; ++rep) {  // the first of each is a warm-up
    for (const Chain& c : chains) {
      c.kernel<<<1, 1>>>(in, out, sink);
      CHECK(cudaMemcpy(&v, out, sizeof(double), cudaMemcpyDeviceToHost));
      if (rep) std::printf(c.line, v);
    }
  }
  CHECK(cudaGetLastError());
  return 0;
}
