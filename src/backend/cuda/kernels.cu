// leafgrad's CUDA kernels, compiled by NVRTC at first use (one module per device architecture).
// `crate::cuda::source()` puts the macros of the declared ops (src/declared.rs) before this file.
//
// Every kernel walks a strided layout (`Strided`): up to 4 operands, each with its own strides
// and offset (in elements) over one logical shape of up to 8 dims, so views, broadcasts and
// transposes need no copy first. Names are `<family>_<op>_<dtype>`; the Rust side
// (src/cuda/backend.rs, `KERNELS`) holds the same list with each kernel's parameter count, and
// a test compiles this file and checks both against the PTX.
//
// dtypes: f32 float, f64 double, i64 long long, i32 int, u8 unsigned char, b8 bool; f16 and bf16
// (float16, bfloat16: the 16 bits in an unsigned short) are stored, moved and converted here,
// and computed in float32 (the host converts around the compute kernels, as PyTorch's CPU
// kernels compute half types in float32).

#define MAXD 8

struct Strided {
    long long n;
    int ndim;
    int pad;
    long long shape[MAXD];
    long long st[4][MAXD];
    long long off[4];
};

// Offsets of linear element i (row-major over `shape`) in the first `k` operands.
template <int K>
__device__ __forceinline__ void offsets(const Strided& L, long long i, long long* o) {
    if (L.ndim <= 1) {  // contiguous runs are coalesced to one dim on the host: no division
        #pragma unroll
        for (int j = 0; j < K; ++j) o[j] = L.off[j] + (L.ndim ? i * L.st[j][0] : 0);
        return;
    }
    #pragma unroll
    for (int j = 0; j < K; ++j) o[j] = L.off[j];
    for (int d = L.ndim - 1; d >= 0; --d) {
        long long s = L.shape[d];
        long long k = i % s;
        i /= s;
        #pragma unroll
        for (int j = 0; j < K; ++j) o[j] += k * L.st[j][d];
    }
}

#define GRID_LOOP(i, n) \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); \
         i += (long long)blockDim.x * gridDim.x)

// ---- dense launches ---------------------------------------------------------------------------
// When every operand (scalar operands aside) runs contiguously over one merged dim, a thread
// takes VEC consecutive elements with 32-bit indices, and moves them as one vector per operand
// when the pointers allow (a 16-byte load or store for float32). The host sizes these grids by
// VEC (`grid_dense` in gpu/launch.rs, which applies the same rule); either way every element
// is covered, since both paths are grid-stride loops.
#define VEC 4
template <typename T> struct alignas(sizeof(T) * VEC) Pack { T v[VEC]; };
__device__ __forceinline__ bool dense_ok(const Strided& L, int k, int skip) {
    if (L.ndim != 1 || L.n >= (1LL << 30)) return false;
    for (int j = 0; j < k; ++j)
        if (!((skip >> j) & 1) && L.st[j][0] != 1) return false;
    return true;
}
template <typename T> __device__ __forceinline__ bool vec_aligned(const T* p) {
    return ((unsigned long long)p) % (sizeof(T) * VEC) == 0;
}
#define DENSE_LOOP(i, n) \
    for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x) * VEC; i < (n); \
         i += (int)(gridDim.x * blockDim.x) * VEC)

// o[i] = f(x[i]) over n dense elements.
template <typename O, typename T, typename F>
__device__ __forceinline__ void dense1(int n, O* o, const T* x, F f) {
    bool vec = vec_aligned(o) && vec_aligned(x);
    DENSE_LOOP(i, n) {
        if (vec && i + VEC <= n) {
            Pack<T> p = *reinterpret_cast<const Pack<T>*>(x + i);
            Pack<O> q;
            #pragma unroll
            for (int k = 0; k < VEC; ++k) q.v[k] = f(p.v[k]);
            *reinterpret_cast<Pack<O>*>(o + i) = q;
        } else {
            for (int k = 0; k < VEC && i + k < n; ++k) o[i + k] = f(x[i + k]);
        }
    }
}

// o[i] = f(a[i], b[i]); `mode` bit 0/1: a/b is the scalar sa/sb.
template <typename R, typename T, typename F>
__device__ __forceinline__ void dense2(int n, R* o, const T* a, const T* b, T sa, T sb, int mode, F f) {
    bool vec = vec_aligned(o) && ((mode & 1) || vec_aligned(a)) && ((mode & 2) || vec_aligned(b));
    DENSE_LOOP(i, n) {
        if (vec && i + VEC <= n) {
            Pack<T> pa, pb;
            if (mode & 1) {
                #pragma unroll
                for (int k = 0; k < VEC; ++k) pa.v[k] = sa;
            } else {
                pa = *reinterpret_cast<const Pack<T>*>(a + i);
            }
            if (mode & 2) {
                #pragma unroll
                for (int k = 0; k < VEC; ++k) pb.v[k] = sb;
            } else {
                pb = *reinterpret_cast<const Pack<T>*>(b + i);
            }
            Pack<R> q;
            #pragma unroll
            for (int k = 0; k < VEC; ++k) q.v[k] = f(pa.v[k], pb.v[k]);
            *reinterpret_cast<Pack<R>*>(o + i) = q;
        } else {
            for (int k = 0; k < VEC && i + k < n; ++k)
                o[i + k] = f((mode & 1) ? sa : a[i + k], (mode & 2) ? sb : b[i + k]);
        }
    }
}

// ---- conversions --------------------------------------------------------------------------
template <typename D, typename S> __device__ __forceinline__ D cvt(S x) { return (D)x; }
template <> __device__ __forceinline__ bool cvt<bool, float>(float x) { return x != 0.0f; }
template <> __device__ __forceinline__ bool cvt<bool, double>(double x) { return x != 0.0; }
template <> __device__ __forceinline__ bool cvt<bool, long long>(long long x) { return x != 0; }
template <> __device__ __forceinline__ bool cvt<bool, int>(int x) { return x != 0; }
template <> __device__ __forceinline__ bool cvt<bool, unsigned char>(unsigned char x) { return x != 0; }
// Float to uint8 wraps like PyTorch's CPU cast (through int64), rather than C's undefined result.
template <> __device__ __forceinline__ unsigned char cvt<unsigned char, float>(float x) { return (unsigned char)(long long)x; }
template <> __device__ __forceinline__ unsigned char cvt<unsigned char, double>(double x) { return (unsigned char)(long long)x; }

// ---- fill and copy ------------------------------------------------------------------------
#define FILL(T, tn) \
    extern "C" __global__ void fill_##tn(Strided L, T* out, T v) { \
        if (dense_ok(L, 1, 0)) { \
            T* o = out + L.off[0]; int n = (int)L.n; \
            DENSE_LOOP(i, n) for (int k = 0; k < VEC && i + k < n; ++k) o[i + k] = v; \
            return; \
        } \
        GRID_LOOP(i, L.n) { long long o[1]; offsets<1>(L, i, o); out[o[0]] = v; } \
    }

// out (operand 0) = convert(in (operand 1)): contiguous(), casts, copy_, broadcasts.
#define COPY(S, sn, D, dn) \
    extern "C" __global__ void copy_##sn##_##dn(Strided L, D* out, const S* in) { \
        if (dense_ok(L, 2, 0)) { \
            dense1((int)L.n, out + L.off[0], in + L.off[1], [](S v) -> D { return cvt<D, S>(v); }); \
            return; \
        } \
        GRID_LOOP(i, L.n) { long long o[2]; offsets<2>(L, i, o); out[o[0]] = cvt<D, S>(in[o[1]]); } \
    }

#define COPY_FROM(S, sn) \
    COPY(S, sn, float, f32) COPY(S, sn, double, f64) COPY(S, sn, long long, i64) \
    COPY(S, sn, int, i32) COPY(S, sn, unsigned char, u8) COPY(S, sn, bool, b8)

#define ALL_TYPES(M) M(float, f32) M(double, f64) M(long long, i64) M(int, i32) M(unsigned char, u8) M(bool, b8)

ALL_TYPES(FILL)
ALL_TYPES(COPY_FROM)

// ---- math helpers (float and double overloads) ----------------------------------------------
#define MATH1(fn) \
    __device__ __forceinline__ float m_##fn(float x) { return fn##f(x); } \
    __device__ __forceinline__ double m_##fn(double x) { return fn(x); }
MATH1(exp) MATH1(log) MATH1(sqrt) MATH1(sin) MATH1(cos) MATH1(tanh) MATH1(floor) MATH1(ceil)
MATH1(rint) MATH1(erf) MATH1(fabs) MATH1(sinh) MATH1(cosh) MATH1(tan) MATH1(log1p) MATH1(expm1)
MATH1(log10) MATH1(log2) MATH1(trunc) MATH1(erfinv) MATH1(erfc) MATH1(exp2)
MATH1(asin) MATH1(acos) MATH1(atan) MATH1(asinh) MATH1(acosh) MATH1(atanh)
__device__ __forceinline__ float m_atan2(float y, float x) { return atan2f(y, x); }
__device__ __forceinline__ double m_atan2(double y, double x) { return atan2(y, x); }
__device__ __forceinline__ float m_hypot(float a, float b) { return hypotf(a, b); }
__device__ __forceinline__ double m_hypot(double a, double b) { return hypot(a, b); }
__device__ __forceinline__ float m_copysign(float a, float b) { return copysignf(a, b); }
__device__ __forceinline__ double m_copysign(double a, double b) { return copysign(a, b); }
// log(e^a + e^b) = max + log1p(e^-|a - b|); a itself when a = b = ±inf (PyTorch's kernel).
template <typename T> __device__ __forceinline__ T m_logaddexp(T a, T b) {
    if (isinf(a) && a == b) return a;
    T m = a < b ? b : a;
    return m + m_log1p(m_exp(-m_fabs(a - b)));
}
// a log b, NaN for a NaN b, then 0 for a = 0 (PyTorch's kernel).
template <typename T> __device__ __forceinline__ T m_xlogy(T a, T b) {
    if (isnan(b)) return b;
    if (a == (T)0) return (T)0;
    return a * m_log(b);
}
__device__ __forceinline__ float m_pow(float a, float b) { return powf(a, b); }
__device__ __forceinline__ double m_pow(double a, double b) { return pow(a, b); }

template <typename T> __device__ __forceinline__ bool is_nan(T v) { return v != v; }

// ---- unary --------------------------------------------------------------------------------
#define UNARY(name, T, tn, expr) \
    extern "C" __global__ void unary_##name##_##tn(Strided L, T* out, const T* in) { \
        if (dense_ok(L, 2, 0)) { \
            dense1((int)L.n, out + L.off[0], in + L.off[1], [](T v) -> T { return (expr); }); \
            return; \
        } \
        GRID_LOOP(i, L.n) { \
            long long o[2]; offsets<2>(L, i, o); \
            T v = in[o[1]]; \
            out[o[0]] = (expr); \
        } \
    }

// DECLARED_FLOAT_UNARY: the float and rounding functions declared in src/declared.rs
// (generated above).
#define UNARY_FLOAT(T, tn) \
    DECLARED_FLOAT_UNARY(T, tn) \
    UNARY(abs, T, tn, m_fabs(v)) UNARY(neg, T, tn, -v) \
    UNARY(relu, T, tn, (v > (T)0 || is_nan(v)) ? v : (T)0) \
    UNARY(sign, T, tn, is_nan(v) ? v : (T)((v > (T)0) - (v < (T)0)))

#define UNARY_INT(T, tn) \
    UNARY(neg, T, tn, (T)(-v)) UNARY(abs, T, tn, v < (T)0 ? (T)(-v) : v) \
    UNARY(relu, T, tn, v > (T)0 ? v : (T)0) UNARY(sign, T, tn, (T)((v > (T)0) - (v < (T)0)))

UNARY_FLOAT(float, f32)
UNARY_FLOAT(double, f64)
UNARY_INT(long long, i64)
UNARY_INT(int, i32)
UNARY(abs, unsigned char, u8, v)
UNARY(relu, unsigned char, u8, v)
UNARY(sign, unsigned char, u8, (unsigned char)(v > 0))
UNARY(not, bool, b8, !v)
UNARY(bnot, long long, i64, ~v)

// ---- binary: out (0) = a (1) op b (2); `mode` bit 0/1: a/b is the scalar sa/sb instead ------
#define BINARY(name, T, tn, R, expr) \
    extern "C" __global__ void binary_##name##_##tn(Strided L, R* out, const T* pa, const T* pb, \
                                                   T sa, T sb, int mode) { \
        if (dense_ok(L, 3, mode << 1)) { \
            dense2((int)L.n, out + L.off[0], (mode & 1) ? pa : pa + L.off[1], \
                   (mode & 2) ? pb : pb + L.off[2], sa, sb, mode, [](T a, T b) -> R { return (expr); }); \
            return; \
        } \
        GRID_LOOP(i, L.n) { \
            long long o[3]; offsets<3>(L, i, o); \
            T a = (mode & 1) ? sa : pa[o[1]]; \
            T b = (mode & 2) ? sb : pb[o[2]]; \
            out[o[0]] = (expr); \
        } \
    }

#define COMPARE(T, tn) \
    BINARY(eq, T, tn, bool, a == b) BINARY(ne, T, tn, bool, a != b) \
    BINARY(lt, T, tn, bool, a < b) BINARY(le, T, tn, bool, a <= b) \
    BINARY(gt, T, tn, bool, a > b) BINARY(ge, T, tn, bool, a >= b)

#define ARITH(T, tn) \
    BINARY(add, T, tn, T, a + b) BINARY(sub, T, tn, T, a - b) BINARY(mul, T, tn, T, a * b)

// maximum/minimum propagate NaN, as PyTorch's do.
// DECLARED_FLOAT_BINARY: the float functions of two tensors declared in src/declared.rs.
#define BINARY_FLOAT(T, tn) \
    DECLARED_FLOAT_BINARY(T, tn) ARITH(T, tn) BINARY(div, T, tn, T, a / b) BINARY(pow, T, tn, T, m_pow(a, b)) \
    BINARY(maximum, T, tn, T, (is_nan(a) || is_nan(b)) ? a + b : (a > b ? a : b)) \
    BINARY(minimum, T, tn, T, (is_nan(a) || is_nan(b)) ? a + b : (a < b ? a : b)) \
    COMPARE(T, tn)

// (Integer `/` is true division: it runs in float, so there is no integer div kernel.)
#define BINARY_INT(T, tn) \
    ARITH(T, tn) \
    BINARY(maximum, T, tn, T, a > b ? a : b) BINARY(minimum, T, tn, T, a < b ? a : b) \
    COMPARE(T, tn)

BINARY_FLOAT(float, f32)
BINARY_FLOAT(double, f64)
BINARY_INT(long long, i64)

// Floor division (Python's //): integers round toward -inf (a zero divisor is refused on the
// host; floats below, after fmod). Integer ops on int64: the host converts narrower types.
// (b == -1 is negation, wrapping at the smallest int64 like the CPU kernel, where C's division
// would overflow.)
__device__ __forceinline__ long long floordiv_i64(long long a, long long b) {
    if (b == -1) return (long long)(0ull - (unsigned long long)a);
    long long q = a / b;
    return q - (((a % b) != 0) && ((a < 0) != (b < 0)));
}
BINARY(floordiv, long long, i64, long long, floordiv_i64(a, b))
// remainder: the sign of the divisor (Python's %); fmod: the sign of the dividend (C's fmod).
template <typename T> __device__ __forceinline__ T python_mod(T m, T b) {
    return (m != (T)0 && ((m < (T)0) != (b < (T)0))) ? m + b : m;
}
__device__ __forceinline__ float m_fmod(float a, float b) { return fmodf(a, b); }
__device__ __forceinline__ double m_fmod(double a, double b) { return fmod(a, b); }
__device__ __forceinline__ long long m_fmod(long long a, long long b) { return b == -1 ? 0 : a % b; }
// PyTorch's div_floor_floating: the quotient of a - fmod(a, b), corrected to the floor (so
// 1 // 0.1 is 9, as Python says, not floor(10.000000000000002))
template <typename T> __device__ __forceinline__ T floordiv_float(T a, T b) {
    if (b == (T)0) return a / b;
    T mod = m_fmod(a, b);
    T div = (a - mod) / b;
    if (mod != (T)0 && (b < (T)0) != (mod < (T)0)) div -= (T)1;
    if (div == (T)0) return m_copysign((T)0, a / b);
    T fl = m_floor(div);
    if (div - fl > (T)0.5) fl += (T)1;
    return fl;
}
BINARY(floordiv, float, f32, float, floordiv_float(a, b))
BINARY(floordiv, double, f64, double, floordiv_float(a, b))
#define MODULO(T, tn) \
    BINARY(fmod, T, tn, T, m_fmod(a, b)) BINARY(remainder, T, tn, T, python_mod(m_fmod(a, b), b))
MODULO(float, f32) MODULO(double, f64) MODULO(long long, i64)
// a ** b for integers (b >= 0, checked on the host), wrapping like the CPU kernel.
__device__ __forceinline__ long long ipow_i64(long long base, long long e) {
    long long acc = 1;
    unsigned long long u = (unsigned long long)(e < 0 ? 0 : e);
    while (u) { if (u & 1ull) acc *= base; base *= base; u >>= 1; }
    return acc;
}
BINARY(ipow, long long, i64, long long, ipow_i64(a, b))
BINARY(band, long long, i64, long long, a & b)
BINARY(bor, long long, i64, long long, a | b)
BINARY(bxor, long long, i64, long long, a ^ b)
BINARY_INT(int, i32)
BINARY_INT(unsigned char, u8)
BINARY(or, bool, b8, bool, a || b)
BINARY(and, bool, b8, bool, a && b)
BINARY(xor, bool, b8, bool, a != b)
COMPARE(bool, b8)

// ---- where: out (0) = cond (1) ? a (2) : b (3) ------------------------------------------------
#define WHERE(T, tn) \
    extern "C" __global__ void where_##tn(Strided L, T* out, const bool* c, const T* a, const T* b) { \
        GRID_LOOP(i, L.n) { long long o[4]; offsets<4>(L, i, o); out[o[0]] = c[o[1]] ? a[o[2]] : b[o[3]]; } \
    }
ALL_TYPES(WHERE)

// ---- reductions -----------------------------------------------------------------------------
// One block per output element (grid-stride over outputs). `K` maps an output index to the
// output offset (operand 0) and the input's offset (operand 1) over the kept dims; `R` walks
// the reduced dims of the input (operand 1). Accumulation in `A`. With gridDim.y = P > 1 the
// reduced elements are split in chunks of `chunk`: block (j, p) writes the partial result of
// chunk p to out[offset(j) + p] (the host reduces the P partials in a second launch).
#define RED_THREADS 256

// A warp's values moved down by `s` lanes (complex values part by part, further below).
__device__ __forceinline__ float shfl_down(float v, int s) { return __shfl_down_sync(0xffffffffu, v, s); }
__device__ __forceinline__ double shfl_down(double v, int s) { return __shfl_down_sync(0xffffffffu, v, s); }
__device__ __forceinline__ long long shfl_down(long long v, int s) { return __shfl_down_sync(0xffffffffu, v, s); }
__device__ __forceinline__ int shfl_down(int v, int s) { return __shfl_down_sync(0xffffffffu, v, s); }
__device__ __forceinline__ unsigned char shfl_down(unsigned char v, int s) { return (unsigned char)__shfl_down_sync(0xffffffffu, (int)v, s); }
__device__ __forceinline__ bool shfl_down(bool v, int s) { return __shfl_down_sync(0xffffffffu, (int)v, s) != 0; }

// The block's values combined (valid in thread 0): within each warp by shuffles, then the
// warps' results by the first warp. Blocks of fewer than 32 threads (the host emulation runs
// one) combine through shared memory. `part` holds one value per thread.
#define BLOCK_COMBINE(A, acc, part, combine) \
    if (blockDim.x >= 32) { \
        for (int s = 16; s > 0; s >>= 1) { A a = acc, v = shfl_down(acc, s); acc = (combine); } \
        int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5; \
        if (lane == 0) part[warp] = acc; \
        __syncthreads(); \
        if (warp == 0) { \
            acc = part[lane < nw ? lane : 0]; \
            for (int s = 16; s > 0; s >>= 1) { \
                A a = acc, v = shfl_down(acc, s); \
                if (lane + s < nw) acc = (combine); \
            } \
        } \
    } else { \
        part[threadIdx.x] = acc; \
        __syncthreads(); \
        for (int s = blockDim.x / 2; s > 0; s >>= 1) { \
            if (threadIdx.x < s) { A a = part[threadIdx.x], v = part[threadIdx.x + s]; part[threadIdx.x] = (combine); } \
            __syncthreads(); \
        } \
        acc = part[0]; \
    }

// A contiguous run of reduced elements (R one dim of stride 1) is read VEC at a time, as one
// vector load, after a head of up to VEC - 1 elements that reaches the vector alignment.
#define REDUCE(name, T, tn, A, init, step, combine) \
    extern "C" __global__ void reduce_##name##_##tn(Strided K, Strided R, A* out, const T* in, long long chunk) { \
        __shared__ A part[RED_THREADS]; \
        long long r0 = blockIdx.y * chunk; \
        long long r1 = min(r0 + chunk, R.n); \
        bool dense = R.ndim == 1 && R.st[1][0] == 1 && R.off[1] == 0; \
        for (long long j = blockIdx.x; j < K.n; j += gridDim.x) { \
            long long ko[2]; offsets<2>(K, j, ko); \
            A acc = (init); \
            if (dense) { \
                const T* p = in + ko[1]; \
                long long h = 0; \
                while (h < VEC && r0 + h < r1 && !vec_aligned(p + r0 + h)) ++h; \
                for (long long r = r0 + threadIdx.x; r < r0 + h; r += blockDim.x) { A v = (A)p[r]; acc = (step); } \
                long long a0 = r0 + h, nv = (r1 - a0) / VEC; \
                for (long long q = threadIdx.x; q < nv; q += blockDim.x) { \
                    Pack<T> pk = *reinterpret_cast<const Pack<T>*>(p + a0 + q * VEC); \
                    _Pragma("unroll") \
                    for (int k = 0; k < VEC; ++k) { A v = (A)pk.v[k]; acc = (step); } \
                } \
                for (long long r = a0 + nv * VEC + threadIdx.x; r < r1; r += blockDim.x) { A v = (A)p[r]; acc = (step); } \
            } else { \
                for (long long r = r0 + threadIdx.x; r < r1; r += blockDim.x) { \
                    long long ro[2]; offsets<2>(R, r, ro); \
                    A v = (A)in[ko[1] + ro[1]]; \
                    acc = (step); \
                } \
            } \
            BLOCK_COMBINE(A, acc, part, combine) \
            if (threadIdx.x == 0) out[ko[0] + blockIdx.y] = acc; \
            __syncthreads(); \
        } \
    }

#define MAXSTEP(acc, v) (is_nan(acc) ? acc : (is_nan(v) || v > acc) ? v : acc)
#define MINSTEP(acc, v) (is_nan(acc) ? acc : (is_nan(v) || v < acc) ? v : acc)

#define REDUCE_FLOAT(T, tn, LOWEST, HIGHEST) \
    REDUCE(sum, T, tn, T, (T)0, acc + v, a + v) \
    REDUCE(prod, T, tn, T, (T)1, acc * v, a * v) \
    REDUCE(amax, T, tn, T, LOWEST, MAXSTEP(acc, v), MAXSTEP(a, v)) \
    REDUCE(amin, T, tn, T, HIGHEST, MINSTEP(acc, v), MINSTEP(a, v))

// (prod of integers runs on int64: the op converts first.)
#define REDUCE_INT(T, tn, LOWEST, HIGHEST) \
    REDUCE(sum, T, tn, long long, 0, acc + v, a + v) \
    REDUCE(amax, T, tn, T, LOWEST, v > acc ? v : acc, v > a ? v : a) \
    REDUCE(amin, T, tn, T, HIGHEST, v < acc ? v : acc, v < a ? v : a)

REDUCE_FLOAT(float, f32, -__int_as_float(0x7f800000), __int_as_float(0x7f800000))
REDUCE_FLOAT(double, f64, -__longlong_as_double(0x7ff0000000000000LL), __longlong_as_double(0x7ff0000000000000LL))
REDUCE_INT(long long, i64, (long long)(-9223372036854775807LL - 1), 9223372036854775807LL)
REDUCE(prod, long long, i64, long long, 1, acc * v, a * v)
REDUCE_INT(int, i32, (int)(-2147483647 - 1), 2147483647)
REDUCE_INT(unsigned char, u8, (unsigned char)0, (unsigned char)255)
REDUCE(sum, bool, b8, long long, 0, acc + v, a + v)
REDUCE(amax, bool, b8, bool, false, acc || v, a || v)
REDUCE(amin, bool, b8, bool, true, acc && v, a && v)

// ---- gather / scatter by a flat index plan (indexing, gather, embedding, im2col, nll_loss) ----
// take: out[i] = src[idx[i]]; put: out[idx[i]] = vals[i]; put_add: out[idx[i]] += vals[i]
// (atomically: an index may repeat).
#define TAKE_PUT(T, tn) \
    extern "C" __global__ void take_##tn(long long n, T* out, const T* src, const long long* idx) { \
        GRID_LOOP(i, n) out[i] = src[idx[i]]; \
    } \
    extern "C" __global__ void put_##tn(long long n, T* out, const long long* idx, const T* vals) { \
        GRID_LOOP(i, n) out[idx[i]] = vals[i]; \
    }
ALL_TYPES(TAKE_PUT)

extern "C" __global__ void put_add_f32(long long n, float* out, const long long* idx, const float* vals) {
    GRID_LOOP(i, n) atomicAdd(out + idx[i], vals[i]);
}
extern "C" __global__ void put_add_f64(long long n, double* out, const long long* idx, const double* vals) {
    GRID_LOOP(i, n) atomicAdd(out + idx[i], vals[i]);
}

// ---- index plans built on the device (convolution and max pooling) ---------------------------
// im2col: for each element of cols [N, C·kh·kw, Ho·Wo], the flat index of the element of the
// padded input [N, C, Hp, Wp] it reads (the host's `im2col_plan` in src/ops/nn.rs, same order).
extern "C" __global__ void im2col_index(long long total, long long* idx, long long hp, long long wp,
                                        long long kh, long long kw, long long ho, long long wo,
                                        long long sh, long long sw, long long dh, long long dw) {
    GRID_LOOP(t, total) {
        long long ox = t % wo, r = t / wo;
        long long oy = r % ho; r /= ho;
        long long j = r % kw; r /= kw;
        long long i = r % kh; r /= kh;  // r: batch · C + channel
        idx[t] = (r * hp + oy * sh + i * dh) * wp + ox * sw + j * dw;
    }
}

// max pooling: for each output of [N·C, Ho, Wo], the flat index in contiguous x [N·C, H, W] of
// its window's maximum (the first one; a NaN wins, the last NaN among several), as the CPU's.
#define MAX_POOL_INDEX(T, tn) \
    extern "C" __global__ void max_pool_index_##tn(long long total, long long* idx, const T* x, \
            long long h, long long w, long long ho, long long wo, long long kh, long long kw, \
            long long sh, long long sw, long long ph, long long pw, long long dh, long long dw) { \
        GRID_LOOP(t, total) { \
            long long ox = t % wo, r = t / wo; \
            long long oy = r % ho, plane = (r / ho) * h * w; \
            long long best = -1; T bv = (T)0; \
            for (long long i = 0; i < kh; ++i) { \
                long long y = oy * sh + i * dh - ph; \
                if (y < 0 || y >= h) continue; \
                for (long long j = 0; j < kw; ++j) { \
                    long long xx = ox * sw + j * dw - pw; \
                    if (xx < 0 || xx >= w) continue; \
                    long long k = plane + y * w + xx; \
                    T v = x[k]; \
                    if (best < 0 || v > bv || is_nan(v)) { best = k; bv = v; } \
                } \
            } \
            idx[t] = best < 0 ? plane : best; \
        } \
    }
MAX_POOL_INDEX(float, f32)
MAX_POOL_INDEX(double, f64)

// ---- normal draws: PyTorch's `normal_kernel` (distribution_nullary_kernel over curand) ------
// Logical thread `idx` of `threads` (PyTorch's grid: blocks of 256) starts Philox4x32-10 at
// counter (offset / 4 + pass, idx) with the seed as key; each pass draws four words, which
// become `UNROLL` normals (float32: `curand_normal4`, two Box–Muller pairs; float64:
// `curand_normal2_double`) for elements base + k·threads + idx. The loop over logical threads
// also lets the host emulation run it with one thread per block.
__device__ __forceinline__ void philox_draw(unsigned long long seed, unsigned long long ctr_lo,
                                            unsigned long long idx, unsigned int* w) {
    unsigned int c0 = (unsigned int)ctr_lo, c1 = (unsigned int)(ctr_lo >> 32);
    unsigned int c2 = (unsigned int)idx, c3 = (unsigned int)(idx >> 32);
    unsigned int k0 = (unsigned int)seed, k1 = (unsigned int)(seed >> 32);
    for (int r = 0; r < 10; ++r) {
        unsigned long long p0 = 0xD2511F53ull * c0, p1 = 0xCD9E8D57ull * c2;
        unsigned int n0 = (unsigned int)(p1 >> 32) ^ c1 ^ k0, n2 = (unsigned int)(p0 >> 32) ^ c3 ^ k1;
        c1 = (unsigned int)p1; c3 = (unsigned int)p0; c0 = n0; c2 = n2;
        k0 += 0x9E3779B9u; k1 += 0xBB67AE85u;
    }
    w[0] = c0; w[1] = c1; w[2] = c2; w[3] = c3;
}
// cuRAND's Box–Muller (its device branch: logf, sqrtf, __sincosf; float64: log, sqrt, sincospi).
__device__ __forceinline__ void box_muller(unsigned int x, unsigned int y, float* z) {
    const float inv = 2.3283064e-10f, inv2pi = 2.3283064e-10f * 6.2831855f;
    float u = fmaf((float)x, inv, inv / 2.0f);
    float v = fmaf((float)y, inv2pi, inv2pi / 2.0f);
    float s = sqrtf(-2.0f * logf(u));
    float sn, cs;
    __sincosf(v, &sn, &cs);
    z[0] = sn * s;
    z[1] = cs * s;
}
__device__ __forceinline__ void box_muller(const unsigned int* w, double* z) {
    const double inv53 = 1.1102230246251565e-16;
    unsigned long long zx = (unsigned long long)w[0] ^ ((unsigned long long)w[1] << 21);
    unsigned long long zy = (unsigned long long)w[2] ^ ((unsigned long long)w[3] << 21);
    double u = fma((double)zx, inv53, inv53 / 2.0);
    double v = fma((double)zy, inv53 * 2.0, inv53);
    double s = sqrt(-2.0 * log(u));
    double sn, cs;
    sincospi(v, &sn, &cs);
    z[0] = sn * s;
    z[1] = cs * s;
}
__device__ __forceinline__ void normals(const unsigned int* w, float* z) {
    box_muller(w[0], w[1], z);
    box_muller(w[2], w[3], z + 2);
}
__device__ __forceinline__ void normals(const unsigned int* w, double* z) { box_muller(w, z); }
#define NORMAL(T, tn, UNROLL, FMA) \
    extern "C" __global__ void normal_##tn(long long n, T* out, long long threads, \
            unsigned long long seed, unsigned long long offset, T mean, T std) { \
        for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < threads; \
             idx += (long long)blockDim.x * gridDim.x) { \
            for (long long pass = 0, base = 0; base < n; ++pass, base += threads * UNROLL) { \
                if (base + idx >= n) break; \
                unsigned int w[4]; \
                philox_draw(seed, offset / 4 + pass, idx, w); \
                T z[4]; \
                normals(w, z); \
                for (int k = 0; k < UNROLL; ++k) { \
                    long long li = base + k * threads + idx; \
                    if (li < n) out[li] = FMA(z[k], std, mean); \
                } \
            } \
        } \
    }
NORMAL(float, f32, 4, fmaf)
NORMAL(double, f64, 2, fma)

// ---- argmax / argmin along one dim: NaN wins, then the first index among equals --------------
#define BETTER_MAX(v, c, vi, ci) (is_nan(v) ? (!is_nan(c) || (vi) < (ci)) : (!is_nan(c) && ((v) > (c) || ((v) == (c) && (vi) < (ci)))))
#define BETTER_MIN(v, c, vi, ci) (is_nan(v) ? (!is_nan(c) || (vi) < (ci)) : (!is_nan(c) && ((v) < (c) || ((v) == (c) && (vi) < (ci)))))

#define ARGREDUCE(name, T, tn, BETTER) \
    extern "C" __global__ void argreduce_##name##_##tn(Strided K, Strided R, long long* out, const T* in) { \
        __shared__ T pv[RED_THREADS]; \
        __shared__ long long pi[RED_THREADS]; \
        for (long long j = blockIdx.x; j < K.n; j += gridDim.x) { \
            long long ko[2]; offsets<2>(K, j, ko); \
            T best = (T)0; long long bi = -1; \
            for (long long r = threadIdx.x; r < R.n; r += blockDim.x) { \
                long long ro[2]; offsets<2>(R, r, ro); \
                T v = in[ko[1] + ro[1]]; \
                if (bi < 0 || BETTER(v, best, r, bi)) { best = v; bi = r; } \
            } \
            pv[threadIdx.x] = best; pi[threadIdx.x] = bi; \
            __syncthreads(); \
            for (int s = blockDim.x / 2; s > 0; s >>= 1) { \
                if (threadIdx.x < s) { \
                    T v = pv[threadIdx.x + s]; long long vi = pi[threadIdx.x + s]; \
                    if (vi >= 0 && (pi[threadIdx.x] < 0 || BETTER(v, pv[threadIdx.x], vi, pi[threadIdx.x]))) { \
                        pv[threadIdx.x] = v; pi[threadIdx.x] = vi; \
                    } \
                } \
                __syncthreads(); \
            } \
            if (threadIdx.x == 0) out[ko[0]] = pi[0]; \
            __syncthreads(); \
        } \
    }
#define ARGREDUCE_BOTH(T, tn) ARGREDUCE(max, T, tn, BETTER_MAX) ARGREDUCE(min, T, tn, BETTER_MIN)
ALL_TYPES(ARGREDUCE_BOTH)

// ---- scans along one dim (cumsum; the products of the others for prod's gradient) ------------
// One thread per line: `K` maps a line index to its output (operand 0) and input (operand 1)
// start; the line has `len` elements `stride` apart (in elements, the same in both, which are
// contiguous copies). flags bit 0: from the end; bit 1: exclusive (element k not included).
#define SCAN(name, T, tn, OP, INIT) \
    extern "C" __global__ void scan_##name##_##tn(Strided K, long long len, long long stride, T* out, const T* in, int flags) { \
        GRID_LOOP(j, K.n) { \
            long long ko[2]; offsets<2>(K, j, ko); \
            T acc = (INIT); \
            for (long long t = 0; t < len; ++t) { \
                long long k = (flags & 1) ? len - 1 - t : t; \
                T v = in[ko[1] + k * stride]; \
                if (flags & 2) { out[ko[0] + k * stride] = acc; acc = acc OP v; } \
                else { acc = acc OP v; out[ko[0] + k * stride] = acc; } \
            } \
        } \
    }
SCAN(sum, float, f32, +, 0.0f)
SCAN(sum, double, f64, +, 0.0)
SCAN(sum, long long, i64, +, 0LL)
SCAN(prod, float, f32, *, 1.0f)
SCAN(prod, double, f64, *, 1.0)


// ---- float16 / bfloat16 storage: fill, copy (conversions), take / put, where ------------------
struct h16 { unsigned short x; };
struct b16 { unsigned short x; };

// (The host emulation used by the tests, LEAFGRAD_HOST_EMULATION, supplies these three.)
#ifndef LEAFGRAD_HOST_EMULATION
__device__ __forceinline__ float h2f(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ __forceinline__ unsigned short f2h(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
__device__ __forceinline__ unsigned short d2h(double d) { unsigned short h; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d)); return h; }
#endif
__device__ __forceinline__ float b2f(unsigned short b) { return __uint_as_float(((unsigned int)b) << 16); }
// float to bfloat16, rounding to nearest even; NaN stays a (quiet) NaN.
__device__ __forceinline__ unsigned short f2b(float f) {
    unsigned int u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (unsigned short)(u >> 16);
}

// Every dtype to and from double, exactly (double holds every value of the others).
__device__ __forceinline__ double todbl(float v) { return v; }
__device__ __forceinline__ double todbl(double v) { return v; }
__device__ __forceinline__ double todbl(long long v) { return (double)v; }
__device__ __forceinline__ double todbl(int v) { return v; }
__device__ __forceinline__ double todbl(unsigned char v) { return v; }
__device__ __forceinline__ double todbl(bool v) { return v ? 1.0 : 0.0; }
__device__ __forceinline__ double todbl(h16 v) { return h2f(v.x); }
__device__ __forceinline__ double todbl(b16 v) { return b2f(v.x); }
template <typename D> __device__ __forceinline__ D fromdbl(double v);
template <> __device__ __forceinline__ float fromdbl<float>(double v) { return (float)v; }
template <> __device__ __forceinline__ double fromdbl<double>(double v) { return v; }
template <> __device__ __forceinline__ long long fromdbl<long long>(double v) { return (long long)v; }
template <> __device__ __forceinline__ int fromdbl<int>(double v) { return (int)(long long)v; }
template <> __device__ __forceinline__ unsigned char fromdbl<unsigned char>(double v) { return (unsigned char)(long long)v; }
template <> __device__ __forceinline__ bool fromdbl<bool>(double v) { return v != 0.0; }
template <> __device__ __forceinline__ h16 fromdbl<h16>(double v) { h16 r; r.x = d2h(v); return r; }
// (double to bfloat16 rounds through float: the one conversion that can round twice.)
template <> __device__ __forceinline__ b16 fromdbl<b16>(double v) { b16 r; r.x = f2b((float)v); return r; }

#define COPY_VIA_DOUBLE(S, sn, D, dn) \
    extern "C" __global__ void copy_##sn##_##dn(Strided L, D* out, const S* in) { \
        GRID_LOOP(i, L.n) { long long o[2]; offsets<2>(L, i, o); out[o[0]] = fromdbl<D>(todbl(in[o[1]])); } \
    }
// float32 to half types converts in one rounding (the compute kernels' results).
extern "C" __global__ void copy_f32_f16(Strided L, h16* out, const float* in) {
    GRID_LOOP(i, L.n) { long long o[2]; offsets<2>(L, i, o); out[o[0]].x = f2h(in[o[1]]); }
}
extern "C" __global__ void copy_f32_bf16(Strided L, b16* out, const float* in) {
    GRID_LOOP(i, L.n) { long long o[2]; offsets<2>(L, i, o); out[o[0]].x = f2b(in[o[1]]); }
}
#define HALF_PAIRS(S, sn) \
    COPY_VIA_DOUBLE(S, sn, h16, f16) COPY_VIA_DOUBLE(S, sn, b16, bf16) \
    COPY_VIA_DOUBLE(h16, f16, S, sn) COPY_VIA_DOUBLE(b16, bf16, S, sn)
HALF_PAIRS(double, f64) HALF_PAIRS(long long, i64) HALF_PAIRS(int, i32)
HALF_PAIRS(unsigned char, u8) HALF_PAIRS(bool, b8)
COPY_VIA_DOUBLE(h16, f16, float, f32) COPY_VIA_DOUBLE(b16, bf16, float, f32)
COPY_VIA_DOUBLE(h16, f16, b16, bf16) COPY_VIA_DOUBLE(b16, bf16, h16, f16)
COPY_VIA_DOUBLE(h16, f16, h16, f16) COPY_VIA_DOUBLE(b16, bf16, b16, bf16)

// Data movement needs only the 16 bits.
FILL(unsigned short, f16) FILL(unsigned short, bf16)
TAKE_PUT(unsigned short, f16) TAKE_PUT(unsigned short, bf16)
WHERE(unsigned short, f16) WHERE(unsigned short, bf16)


// ---- complex64 / complex128 -------------------------------------------------------------------
// `cx<R>`: a complex number as two R (float: complex64 "c64", double: complex128 "c128"), the
// layout of std::complex and of PyTorch's complex tensors. A plain struct (no constructors), so
// it may live in shared memory; `mkc` builds one. Conversions to and from the other dtypes go
// through the real part, as the CPU backend's (complex to bool: either part non-zero).
template <typename R> struct cx { R re, im; };
typedef cx<float> c64;
typedef cx<double> c128;


template <typename R> __device__ __forceinline__ cx<R> mkc(R re, R im) { cx<R> z; z.re = re; z.im = im; return z; }
template <typename R> __device__ __forceinline__ cx<R> operator+(cx<R> a, cx<R> b) { return mkc(a.re + b.re, a.im + b.im); }
template <typename R> __device__ __forceinline__ cx<R> operator-(cx<R> a, cx<R> b) { return mkc(a.re - b.re, a.im - b.im); }
template <typename R> __device__ __forceinline__ cx<R> operator-(cx<R> a) { return mkc(-a.re, -a.im); }
template <typename R> __device__ __forceinline__ cx<R> operator*(cx<R> a, cx<R> b) {
    return mkc(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
template <typename R> __device__ __forceinline__ bool operator==(cx<R> a, cx<R> b) { return a.re == b.re && a.im == b.im; }
template <typename R> __device__ __forceinline__ bool operator!=(cx<R> a, cx<R> b) { return !(a == b); }
// Division scaled by the larger part of the divisor (Smith's method, as PyTorch's c10::complex):
// no overflow in |b|², and a zero divisor divides each part by zero ((1+1j)/0 = inf+infj).
template <typename R> __device__ __forceinline__ cx<R> operator/(cx<R> a, cx<R> b) {
    R c = b.re, d = b.im;
    if (c == (R)0 && d == (R)0) return mkc(a.re / m_fabs(c), a.im / m_fabs(d));
    if (m_fabs(c) >= m_fabs(d)) {
        R rat = d / c, scl = (R)1 / (c + d * rat);
        return mkc((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
    }
    R rat = c / d, scl = (R)1 / (d + c * rat);
    return mkc((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
}

template <typename R> __device__ __forceinline__ R c_abs(cx<R> z) { return m_hypot(z.re, z.im); }
template <typename R> __device__ __forceinline__ cx<R> c_exp(cx<R> z) {
    R e = m_exp(z.re);
    if (z.im == (R)0) return mkc(e, z.im);  // exp of a real number stays real (and exact)
    return mkc(e * m_cos(z.im), e * m_sin(z.im));
}
template <typename R> __device__ __forceinline__ cx<R> c_log(cx<R> z) {
    return mkc(m_log(c_abs(z)), m_atan2(z.im, z.re));
}
// The principal square root, without cancellation: t = sqrt((|re| + |z|) / 2).
// log(z) / log(10) and log(z) / log(2), as C++'s complex log10 (and numpy's log2)
template <typename R> __device__ __forceinline__ cx<R> c_log10(cx<R> z) {
    cx<R> l = c_log(z); R d = m_log((R)10); return mkc(l.re / d, l.im / d);
}
template <typename R> __device__ __forceinline__ cx<R> c_log2(cx<R> z) {
    cx<R> l = c_log(z); R d = m_log((R)2); return mkc(l.re / d, l.im / d);
}
template <typename R> __device__ __forceinline__ cx<R> c_sqrt(cx<R> z) {
    if (z.re == (R)0 && z.im == (R)0) return mkc((R)0, z.im);
    R t = m_sqrt((m_fabs(z.re) + c_abs(z)) / (R)2);
    if (z.re >= (R)0) return mkc(t, z.im / ((R)2 * t));
    return mkc(m_fabs(z.im) / ((R)2 * t), m_copysign(t, z.im));
}
template <typename R> __device__ __forceinline__ cx<R> c_sin(cx<R> z) {
    return mkc(m_sin(z.re) * m_cosh(z.im), m_cos(z.re) * m_sinh(z.im));
}
template <typename R> __device__ __forceinline__ cx<R> c_cos(cx<R> z) {
    return mkc(m_cos(z.re) * m_cosh(z.im), -(m_sin(z.re) * m_sinh(z.im)));
}
// log(1 + z) without cancellation for small z (PyTorch's CUDA formula): log|1 + z| from log1p
// of |1 + z|² - 1 below |z| = 1/2.
template <typename R> __device__ __forceinline__ cx<R> c_log1p(cx<R> z) {
    R x = z.re, y = z.im, theta = m_atan2(y, x + (R)1);
    if (c_abs(z) < (R)0.5) {
        R r = x * ((R)2 + x) + y * y;
        return r == (R)0 ? mkc(x, theta) : mkc((R)0.5 * m_log1p(r), theta);
    }
    return mkc(m_log(m_hypot(x + (R)1, y)), theta);
}
// e^z - 1 = expm1(x) cos(y) - 2 sin²(y/2) + i e^x sin(y): no cancellation for small z.
template <typename R> __device__ __forceinline__ cx<R> c_expm1(cx<R> z) {
    R a = m_sin(z.im / (R)2);
    return mkc(m_expm1(z.re) * m_cos(z.im) - (R)2 * a * a, m_exp(z.re) * m_sin(z.im));
}
template <typename R> __device__ __forceinline__ cx<R> c_sinh(cx<R> z) {
    return mkc(m_sinh(z.re) * m_cos(z.im), m_cosh(z.re) * m_sin(z.im));
}
template <typename R> __device__ __forceinline__ cx<R> c_cosh(cx<R> z) {
    return mkc(m_cosh(z.re) * m_cos(z.im), m_sinh(z.re) * m_sin(z.im));
}
// Kahan's tanh: stable for large |re| (where sinh and cosh overflow).
template <typename R> __device__ __forceinline__ cx<R> c_tanh(cx<R> z) {
    if (m_fabs(z.re) > (R)22) {
        R e = m_exp((R)-2 * m_fabs(z.re));
        return mkc(m_copysign((R)1, z.re), (R)4 * m_sin(z.im) * m_cos(z.im) * e);
    }
    R t = m_tan(z.im), beta = (R)1 + t * t, s = m_sinh(z.re), rho = m_sqrt((R)1 + s * s);
    R den = (R)1 + beta * s * s;
    return mkc(beta * rho * s / den, t / den);
}
// The inverse functions with C99's branch cuts and signed zeros, as the CPU kernels
// (CInverse in src/backend/cpu/elementwise.rs): Kahan's formulas, the odd ones in the first
// quadrant given the signs of z's parts; acos is PyTorch's pi/2 - asin(z).
template <typename R> __device__ __forceinline__ cx<R> c_asin(cx<R> z) {
    R ax = m_fabs(z.re), ay = m_fabs(z.im);
    cx<R> m = c_sqrt(mkc((R)1 - ax, -ay)), p = c_sqrt(mkc((R)1 + ax, ay));
    R re = m_atan(ax / (m.re * p.re - m.im * p.im)), im = m_asinh(m.re * p.im - m.im * p.re);
    return mkc(m_copysign(re, z.re), m_copysign(im, z.im));
}
template <typename R> __device__ __forceinline__ cx<R> c_acos(cx<R> z) {
    cx<R> w = c_asin(z);
    return mkc((R)1.5707963267948966 - w.re, (R)0 - w.im);
}
template <typename R> __device__ __forceinline__ cx<R> c_asinh(cx<R> z) {
    cx<R> w = c_asin(mkc(m_fabs(z.im), m_fabs(z.re)));
    return mkc(m_copysign(w.im, z.re), m_copysign(w.re, z.im));
}
template <typename R> __device__ __forceinline__ cx<R> c_atanh(cx<R> z) {
    R ax = m_fabs(z.re), ay = m_fabs(z.im);
    R d = ((R)1 - ax) * ((R)1 - ax) + ay * ay;
    R re = (R)0.25 * m_log1p((R)4 * ax / d);
    R im = (R)0.5 * m_atan2((R)2 * ay, ((R)1 - ax) * ((R)1 + ax) - ay * ay);
    return mkc(m_copysign(re, z.re), m_copysign(im, z.im));
}
// tan(z) = -i tanh(iz)
template <typename R> __device__ __forceinline__ cx<R> c_tan(cx<R> z) {
    cx<R> t = c_tanh(mkc(-z.im, z.re));
    return mkc(t.im, -t.re);
}
template <typename R> __device__ __forceinline__ cx<R> c_atan(cx<R> z) {
    cx<R> w = c_atanh(mkc(m_fabs(z.im), m_fabs(z.re)));
    return mkc(m_copysign(w.im, z.re), m_copysign(w.re, z.im));
}
template <typename R> __device__ __forceinline__ cx<R> c_acosh(cx<R> z) {
    cx<R> m = c_sqrt(mkc(z.re - (R)1, z.im)), p = c_sqrt(mkc(z.re + (R)1, z.im));
    return mkc(m_asinh(m.re * p.re + m.im * p.im), (R)2 * m_atan(m.im / p.re));
}
template <typename R> __device__ __forceinline__ cx<R> c_one() { return mkc((R)1, (R)0); }
template <typename R> __device__ __forceinline__ cx<R> c_sigmoid(cx<R> z) { return c_one<R>() / (c_one<R>() + c_exp(-z)); }
// z ** w = exp(w log z); 0 ** 0 = 1 and 0 ** w = 0 otherwise, as the CPU backend.
template <typename R> __device__ __forceinline__ cx<R> c_pow(cx<R> z, cx<R> w) {
    if (z.re == (R)0 && z.im == (R)0) return (w.re == (R)0 && w.im == (R)0) ? c_one<R>() : z;
    return c_exp(w * c_log(z));
}
template <typename R> __device__ __forceinline__ cx<R> c_sgn(cx<R> z) {
    R n = c_abs(z);
    return n == (R)0 ? z : mkc(z.re / n, z.im / n);
}

// Conversions. To complex: the value as the real part. From complex: the real part (bool: either
// part non-zero). Between complex types: each part.
template <typename R, typename S> __device__ __forceinline__ cx<R> to_cx(S x) { return mkc((R)todbl(x), (R)0); }
template <> __device__ __forceinline__ c64 to_cx<float, c64>(c64 x) { return x; }
template <> __device__ __forceinline__ c64 to_cx<float, c128>(c128 x) { return mkc((float)x.re, (float)x.im); }
template <> __device__ __forceinline__ c128 to_cx<double, c64>(c64 x) { return mkc((double)x.re, (double)x.im); }
template <> __device__ __forceinline__ c128 to_cx<double, c128>(c128 x) { return x; }
template <typename D, typename R> __device__ __forceinline__ D from_cx(cx<R> z) { return fromdbl<D>((double)z.re); }
template <> __device__ __forceinline__ bool from_cx<bool, float>(c64 z) { return z.re != 0.0f || z.im != 0.0f; }
template <> __device__ __forceinline__ bool from_cx<bool, double>(c128 z) { return z.re != 0.0 || z.im != 0.0; }

#define COPY_TO_CX(S, sn) \
    extern "C" __global__ void copy_##sn##_c64(Strided L, c64* out, const S* in) { \
        GRID_LOOP(i, L.n) { long long o[2]; offsets<2>(L, i, o); out[o[0]] = to_cx<float, S>(in[o[1]]); } \
    } \
    extern "C" __global__ void copy_##sn##_c128(Strided L, c128* out, const S* in) { \
        GRID_LOOP(i, L.n) { long long o[2]; offsets<2>(L, i, o); out[o[0]] = to_cx<double, S>(in[o[1]]); } \
    }
#define COPY_FROM_CX(D, dn) \
    extern "C" __global__ void copy_c64_##dn(Strided L, D* out, const c64* in) { \
        GRID_LOOP(i, L.n) { long long o[2]; offsets<2>(L, i, o); out[o[0]] = from_cx<D, float>(in[o[1]]); } \
    } \
    extern "C" __global__ void copy_c128_##dn(Strided L, D* out, const c128* in) { \
        GRID_LOOP(i, L.n) { long long o[2]; offsets<2>(L, i, o); out[o[0]] = from_cx<D, double>(in[o[1]]); } \
    }
#define REAL_STORAGE(M) ALL_TYPES(M) M(h16, f16) M(b16, bf16)
REAL_STORAGE(COPY_TO_CX)
REAL_STORAGE(COPY_FROM_CX)
COPY_TO_CX(c64, c64)
COPY_TO_CX(c128, c128)

#define CX_TYPES(M) M(c64, c64, float) M(c128, c128, double)
#define CX_STORAGE(T, tn, R) FILL(T, tn) WHERE(T, tn) TAKE_PUT(T, tn)
CX_TYPES(CX_STORAGE)

// Accumulating scatter: each part atomically (an index may repeat).
#define CX_PUT_ADD(T, tn, R) \
    extern "C" __global__ void put_add_##tn(long long n, T* out, const long long* idx, const T* vals) { \
        GRID_LOOP(i, n) { atomicAdd(&out[idx[i]].re, vals[i].re); atomicAdd(&out[idx[i]].im, vals[i].im); } \
    }
CX_TYPES(CX_PUT_ADD)

// Unary: same dtype, except abs and angle (the real dtype). Real angle: 0, π below 0, NaN kept.
#define UNARY_TO(name, T, tn, O, expr) \
    extern "C" __global__ void unary_##name##_##tn(Strided L, O* out, const T* in) { \
        GRID_LOOP(i, L.n) { long long o[2]; offsets<2>(L, i, o); T v = in[o[1]]; out[o[0]] = (expr); } \
    }
#define UNARY_CX(T, tn, R) \
    DECLARED_COMPLEX_UNARY(T, tn, R) UNARY(neg, T, tn, -v) UNARY(conj, T, tn, mkc(v.re, -v.im)) UNARY(sgn, T, tn, c_sgn(v)) \
    UNARY_TO(abs, T, tn, R, c_abs(v)) UNARY_TO(angle, T, tn, R, m_atan2(v.im, v.re))
CX_TYPES(UNARY_CX)
UNARY(angle, float, f32, v < 0.0f ? 3.14159265358979323846f : (is_nan(v) ? v : 0.0f))
UNARY(angle, double, f64, v < 0.0 ? 3.14159265358979323846 : (is_nan(v) ? v : 0.0))

#define BINARY_CX(T, tn, R) \
    ARITH(T, tn) BINARY(div, T, tn, T, a / b) BINARY(pow, T, tn, T, c_pow(a, b)) \
    BINARY(eq, T, tn, bool, a == b) BINARY(ne, T, tn, bool, a != b)
CX_TYPES(BINARY_CX)

template <typename R> __device__ __forceinline__ cx<R> shfl_down(cx<R> v, int s) { return mkc(shfl_down(v.re, s), shfl_down(v.im, s)); }
#define REDUCE_CX(T, tn, R) \
    REDUCE(sum, T, tn, T, mkc((R)0, (R)0), acc + v, a + v) \
    REDUCE(prod, T, tn, T, c_one<R>(), acc * v, a * v)
CX_TYPES(REDUCE_CX)

SCAN(sum, c64, c64, +, mkc(0.0f, 0.0f))
SCAN(sum, c128, c128, +, mkc(0.0, 0.0))
SCAN(prod, c64, c64, *, c_one<float>())
SCAN(prod, c128, c128, *, c_one<double>())
