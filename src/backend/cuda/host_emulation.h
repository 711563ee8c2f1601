// The CUDA built-ins kernels.cu uses, for compiling it as C++ on the host (g++): the CUDA host
// emulation (LEAFGRAD_CUDA_EMULATION=1, a test device) and tests/python/test_cuda_emulated.py.
//
// Blocks run one after another, each with one thread (blockDim 1): `emu_grid` sets the block
// index and grid size before each call. Grid-stride loops then cover every element, and the
// reductions' shared-memory trees have nothing to combine. Shared memory is static storage, so
// launches must not overlap (the Rust side holds a lock).
#define LEAFGRAD_HOST_EMULATION 1
#include <math.h>
#include <string.h>
#include <utility>
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
struct EmuDim3 { unsigned int x, y, z; };
static EmuDim3 blockIdx = {0, 0, 0}, threadIdx = {0, 0, 0}, blockDim = {1, 1, 1}, gridDim = {1, 1, 1};
extern "C" void emu_grid(unsigned int bx, unsigned int by, unsigned int gx, unsigned int gy) {
    blockIdx.x = bx; blockIdx.y = by; gridDim.x = gx; gridDim.y = gy;
}
static inline void __syncthreads() {}
// cuRAND's Box–Muller calls these device functions; the host's stand in (not bit for bit).
#define __sincosf emu_sincosf
#define sincospi emu_sincospi
static inline void emu_sincosf(float x, float* s, float* c) { *s = sinf(x); *c = cosf(x); }
static inline void emu_sincospi(double x, double* s, double* c) {
    *s = sin(3.141592653589793 * x);
    *c = cos(3.141592653589793 * x);
}
// Warp shuffles are never reached (blocks of one thread combine through shared memory).
template <typename T> static inline T __shfl_down_sync(unsigned, T v, int) { return v; }
static inline long long min(long long a, long long b) { return a < b ? a : b; }
static inline float atomicAdd(float* p, float v) { float o = *p; *p = o + v; return o; }
static inline double atomicAdd(double* p, double v) { double o = *p; *p = o + v; return o; }
static inline float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
static inline double __longlong_as_double(long long i) { double f; memcpy(&f, &i, 8); return f; }
static inline unsigned int __float_as_uint(float f) { unsigned int u; memcpy(&u, &f, 4); return u; }
static inline float __uint_as_float(unsigned int u) { float f; memcpy(&f, &u, 4); return f; }
static inline float h2f(unsigned short h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }
static inline unsigned short f2h(float f) { _Float16 x = (_Float16)f; unsigned short h; memcpy(&h, &x, 2); return h; }
static inline unsigned short d2h(double d) { _Float16 x = (_Float16)d; unsigned short h; memcpy(&h, &x, 2); return h; }
// CUDA's erfinv/erfinvf, which libm lacks: the CPU backend's algorithm (a rational first guess,
// then Halley steps on erf(x) - y, through erfc past 0.5), float through double.
static inline double erfinv(double y) {
    double a = fabs(y);
    if (a != a || a > 1.0) return NAN;
    if (a == 1.0) return copysign(INFINITY, y);
    if (a == 0.0) return y;
    double x;
    if (a <= 0.7) {
        double z = a * a;
        x = a * (((-0.140543331 * z + 0.914624893) * z - 1.645349621) * z + 0.886226899)
            / ((((0.012229801 * z - 0.329097515) * z + 1.442710462) * z - 2.118377725) * z + 1.0);
    } else {
        double z = sqrt(-log((1.0 - a) / 2.0));
        x = (((1.641345311 * z + 3.429567803) * z - 1.624906493) * z - 1.970840454)
            / ((1.637067800 * z + 3.543889200) * z + 1.0);
    }
    for (int i = 0; i < 4; i++) {
        double r = a <= 0.5 ? erf(x) - a : (1.0 - a) - erfc(x);
        if (r == 0.0) break;
        x -= r / (1.1283791670955126 * exp(-x * x) + r * x);
    }
    return copysign(x, y);
}
static inline float erfinvf(float y) { return (float)erfinv((double)y); }

// Calls kernel `f` with its arguments given as CUDA's launch does: an array of pointers, one to
// each argument's value.
template <typename... A, size_t... I>
static void emu_invoke(void (*f)(A...), void** p, std::index_sequence<I...>) { f(*static_cast<A*>(p[I])...); }
template <typename... A>
static void emu_call(void (*f)(A...), void** p) { emu_invoke(f, p, std::index_sequence_for<A...>{}); }
