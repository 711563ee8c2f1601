"""Every CUDA kernel, run on the host against the CPU backend.

No GPU is needed: the kernels (`_core._cuda_source()`: kernels.cu and the declared ops) are compiled as C++ for this machine (g++) with a small
shim for the CUDA built-ins (thread and block indices, `__syncthreads`, `atomicAdd`, the half
conversions), and each kernel of the launch table (`_core._cuda_kernels()`) is called through
ctypes on NumPy buffers, with strided layouts like the ones the Rust launch sites build. Its
result is compared with what leafgrad's CPU backend computes for the same op (NumPy for the
data movement kernels: take/put/scan/argreduce).

Blocks run one after another, each with one thread (blockDim 1), so this checks every kernel's
arithmetic, conversions, index walks, grid-stride loops and the split reductions (several
blocks along y); the in-block tree reduction with 256 threads and the atomics under contention
need a GPU (`test_cuda.py::test_every_kernel_runs_against_the_cpu`).
"""
import ctypes
import math
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from support import USING_TORCH

import leafgrad as torch

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(USING_TORCH, reason="leafgrad's own kernels")

SHIM = (ROOT / "src" / "backend" / "cuda" / "host_emulation.h").read_text()


class Strided(ctypes.Structure):
    _fields_ = [
        ("n", ctypes.c_longlong),
        ("ndim", ctypes.c_int),
        ("pad", ctypes.c_int),
        ("shape", ctypes.c_longlong * 8),
        ("st", (ctypes.c_longlong * 8) * 4),
        ("off", ctypes.c_longlong * 4),
    ]


def layout(shape, *ops):
    """A `Strided` over `shape` with operands given as (strides, offset), in elements."""
    s = Strided()
    s.n = math.prod(shape)
    s.ndim = len(shape)
    for d, size in enumerate(shape):
        s.shape[d] = size
    for j, (st, off) in enumerate(ops):
        for d, v in enumerate(st):
            s.st[j][d] = v
        s.off[j] = off
    return s


class C64(ctypes.Structure):
    _fields_ = [("re", ctypes.c_float), ("im", ctypes.c_float)]


class C128(ctypes.Structure):
    _fields_ = [("re", ctypes.c_double), ("im", ctypes.c_double)]


# kernel suffix: (leafgrad dtype name, NumPy storage dtype, ctypes scalar type)
TYPES = {
    "f32": ("float32", np.float32, ctypes.c_float),
    "f64": ("float64", np.float64, ctypes.c_double),
    "i64": ("int64", np.int64, ctypes.c_longlong),
    "i32": ("int32", np.int32, ctypes.c_int),
    "u8": ("uint8", np.uint8, ctypes.c_ubyte),
    "b8": ("bool", np.bool_, ctypes.c_bool),
    "f16": ("float16", np.float16, ctypes.c_ushort),
    "bf16": ("bfloat16", np.uint16, ctypes.c_ushort),
    "c64": ("complex64", np.complex64, C64),
    "c128": ("complex128", np.complex128, C128),
}
REAL_OF = {"c64": "f32", "c128": "f64"}

# Values of each dtype, [2, 3]; OTHER: a second operand (no zeros: it divides).
FLOATS = [[0.5, -1.5, 2.25], [3.0, 0.0, -0.75]]
VALUES = {
    "f32": FLOATS,
    "f64": FLOATS,
    "f16": FLOATS,
    "bf16": FLOATS,
    "i64": [[5, -3, 2], [0, 7, -1]],
    "i32": [[5, -3, 2], [0, 7, -1]],
    "u8": [[5, 3, 2], [0, 7, 1]],
    "b8": [[True, False, True], [False, True, True]],
    "c64": [[1 + 2j, -0.5 + 1j, 3 - 1j], [0.25 - 2j, 2 + 0j, 0j]],
    "c128": [[1 + 2j, -0.5 + 1j, 3 - 1j], [0.25 - 2j, 2 + 0j, 0j]],
}
OTHER = {t: [[1, -2, 1], [2, -1, 3]] for t in VALUES}  # negative divisors too
OTHER["u8"] = [[1, 2, 1], [2, 1, 3]]
OTHER["b8"] = [[True, True, False], [False, True, False]]
OTHER["c64"] = OTHER["c128"] = [[0.5 + 1j, 1 - 1j, 2 + 0.5j], [1 + 1j, -1 + 2j, 0.5 - 0.5j]]


def lg(values, t):
    return torch.tensor(values, dtype=getattr(torch, TYPES[t][0]))


def storage(values, t):
    """A flat NumPy buffer of `values` as the kernels store dtype `t`."""
    flat = np.array(values).reshape(-1)
    if t == "bf16":
        return (flat.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return flat.astype(TYPES[t][1])


def empty(n, t):
    return np.zeros(n, dtype=TYPES[t][1])


def readback(buf, t):
    if t == "bf16":
        return (buf.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return buf


def scalar(v, t):
    ctype = TYPES[t][2]
    if t in ("c64", "c128"):
        return ctype(complex(v).real, complex(v).imag)
    if t == "f16":
        return ctype(int(np.float16(v).view(np.uint16)))
    if t == "bf16":
        return ctype(int(storage([v], "bf16")[0]))
    return ctype(v)


def p(a):
    return ctypes.c_void_p(a.ctypes.data)


TOL = {"f32": 1e-5, "f64": 1e-12, "f16": 1e-2, "bf16": 1e-2, "c64": 1e-5, "c128": 1e-12}


def check(got, expected, t, what):
    """`got` (a kernel's buffer, dtype `t`) against `expected` (any nested list or array)."""
    g = np.asarray(readback(got, t)).reshape(-1)
    e = np.asarray(expected).reshape(-1)
    assert g.shape == e.shape, (what, g, e)
    if t in TOL:
        tol = TOL[t]
        ok = np.isclose(g.astype(np.complex128), e.astype(np.complex128), rtol=tol, atol=tol, equal_nan=True)
        assert ok.all(), (what, g, e)
    else:
        assert g.tolist() == e.astype(g.dtype).tolist(), (what, g, e)


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    cxx = shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        if os.environ.get("LEAFGRAD_REQUIRE_NVRTC") == "1":  # the test command: must run
            pytest.fail("no C++ compiler (g++ or clang++) to compile the kernels for the host")
        pytest.skip("no C++ compiler")
    d = tmp_path_factory.mktemp("emu")
    src = d / "kernels_host.cpp"
    src.write_text(SHIM + torch._core._cuda_source())
    so = d / "kernels_host.so"
    r = subprocess.run(
        [cxx, "-std=c++17", "-O0", "-shared", "-fPIC", "-w", str(src), "-o", str(so)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr[-4000:]
    return ctypes.CDLL(str(so))


class Runner:
    """Calls kernels by name and records which ran."""

    def __init__(self, lib):
        self.lib = lib
        self.table = dict(torch._core._cuda_kernels())
        self.ran = set()

    def __call__(self, name, *args, blocks=(1, 1)):
        assert name in self.table, f"{name} is not in the launch table"
        assert len(args) == self.table[name], (name, len(args), self.table[name])
        f = getattr(self.lib, name)
        f.restype = None
        gx, gy = blocks
        for by in range(gy):
            for bx in range(gx):
                self.lib.emu_grid(bx, by, gx, gy)
                f(*args)
        self.lib.emu_grid(0, 0, 1, 1)
        self.ran.add(name)

    def names(self, prefix):
        return sorted(k for k in self.table if k.startswith(prefix))


@pytest.fixture(scope="module")
def run(lib):
    return Runner(lib)


def suffix(name, prefix):
    return name[len(prefix):]


# The input is stored transposed ([3, 2] contiguous) and read as [2, 3] with strides (1, 2),
# so the kernels' multi-dim index walk runs; outputs are contiguous [2, 3].
SHAPE = (2, 3)
T_IN = ((1, 2), 0)
OUT = ((3, 1), 0)


def transposed(values, t):
    return storage(np.array(values, dtype=object).T.tolist(), t)


def test_fill_copy_where_take_put(run):
    for name in run.names("fill_"):
        t = suffix(name, "fill_")
        v = VALUES[t][0][1]
        out = empty(6, t)
        run(name, layout((6,), ((1,), 0)), p(out), scalar(v, t))
        check(out, [lg([v], t).tolist()[0]] * 6, t, name)
    for name in run.names("copy_"):
        s, d = name.split("_")[1:]
        src = transposed(VALUES[s], s)
        out = empty(6, d)
        run(name, layout(SHAPE, OUT, T_IN), p(out), p(src))
        expected = lg(VALUES[s], s).to(getattr(torch, TYPES[d][0])).tolist()
        check(out, expected, d, name)
    cond = [[True, False, True], [False, False, True]]
    for name in run.names("where_"):
        t = suffix(name, "where_")
        a, b = transposed(VALUES[t], t), storage(OTHER[t], t)
        c = storage(cond, "b8")
        out = empty(6, t)
        # cond broadcast along dim 0 of a [2, 3] view: stride 0 in the first dim
        run(name, layout(SHAPE, OUT, ((0, 1), 0), T_IN, ((3, 1), 0)), p(out), p(c), p(a), p(b))
        expected = torch.where(torch.tensor([cond[0]] * 2), lg(VALUES[t], t), lg(OTHER[t], t))
        check(out, _values(expected, t), t, name)
    idx = np.array([4, 0, 2, 2, 5], dtype=np.int64)
    for name in run.names("take_"):
        t = suffix(name, "take_")
        src = storage(VALUES[t], t)
        out = empty(len(idx), t)
        run(name, ctypes.c_longlong(len(idx)), p(out), p(src), p(idx))
        assert out.tolist() == src[idx].tolist(), name
    for name in run.names("put_"):
        add = name.startswith("put_add_")
        t = suffix(name, "put_add_" if add else "put_")
        vals = storage(VALUES[t], t)[:5]
        where = idx if add else np.array([4, 0, 2, 1, 5], dtype=np.int64)
        out = storage(OTHER[t], t)
        expected = out.copy()
        if add:
            np.add.at(expected, where, vals)
        else:
            expected[where] = vals
        run(name, ctypes.c_longlong(len(where)), p(out), p(where), p(vals))
        check(out, readback(expected, t), t, name)


def _values(x, t):
    """A leafgrad tensor's values, as `check` compares them for dtype `t`."""
    return x.double().tolist() if t == "bf16" else x.tolist()


UNARY_REF = {
    "not": lambda x: ~x,
    "bnot": lambda x: ~x,
    "conj": lambda x: x.conj(),
    "neg": lambda x: -x,
}


def test_unary(run):
    for name in run.names("unary_"):
        _, op, t = name.split("_")
        x = lg(VALUES[t], t)
        f = UNARY_REF.get(op) or (lambda x, op=op: getattr(x, op)())
        expected = f(x)
        out_t = REAL_OF[t] if op in ("abs", "angle") and t in REAL_OF else t
        out = empty(6, out_t)
        run(name, layout(SHAPE, OUT, T_IN), p(out), p(transposed(VALUES[t], t)))
        check(out, _values(expected, out_t), out_t, name)


BINARY_REF = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "pow": lambda a, b: a**b,
    "ipow": lambda a, b: a**b,
    "floordiv": lambda a, b: a // b,
    "remainder": torch.remainder,
    "fmod": torch.fmod,
    "maximum": torch.maximum,
    "minimum": torch.minimum,
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "band": lambda a, b: a & b,
    "bor": lambda a, b: a | b,
    "bxor": lambda a, b: a ^ b,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
}


def test_binary(run):
    for name in run.names("binary_"):
        _, op, t = name.split("_")
        a_vals, b_vals = VALUES[t], OTHER[t]
        if op == "pow" and t not in REAL_OF:
            a_vals = np.abs(np.array(a_vals)).tolist()  # real powers of negatives are NaN
        if op == "ipow":
            b_vals = np.abs(np.array(b_vals)).tolist()  # the host refuses negative exponents
        a, b = lg(a_vals, t), lg(b_vals, t)
        ref = BINARY_REF.get(op) or getattr(torch, op)
        expected = ref(a, b)
        out_t = "b8" if expected.dtype == torch.bool else t
        # both operands from memory, a transposed
        out = empty(6, out_t)
        zero = scalar(0, t)
        pa, pb = transposed(a_vals, t), storage(b_vals, t)
        run(name, layout(SHAPE, OUT, T_IN, ((3, 1), 0)), p(out), p(pa), p(pb), zero, zero, ctypes.c_int(0))
        check(out, _values(expected, out_t), out_t, name)
        # b a scalar argument (mode 2): a CPU 0-d tensor or a Python number
        s = b_vals[0][1]
        expected = ref(a, lg(s, t))
        out = empty(6, out_t)
        run(name, layout(SHAPE, OUT, T_IN, ((0, 0), 0)), p(out), p(pa), ctypes.c_void_p(0), zero, scalar(s, t), ctypes.c_int(2))
        check(out, _values(expected, out_t), out_t, name + " (scalar b)")


def test_reductions(run):
    for name in run.names("reduce_"):
        _, op, t = name.split("_")
        x = lg(VALUES[t], t)
        if op in ("sum", "prod"):
            expected = getattr(x, op)(1)
        elif t == "b8":
            expected = x.any(1) if op == "amax" else x.all(1)
        else:
            expected = getattr(x, op)(1)
        out_t = "i64" if expected.dtype == torch.int64 else t
        src = transposed(VALUES[t], t)
        # [2, 3] read with strides (1, 2): 2 outputs, 3 reduced elements each
        k = layout((2,), ((1,), 0), ((1,), 0))
        r = layout((3,), ((0,), 0), ((2,), 0))
        out = empty(2, out_t)
        run(name, k, r, p(out), p(src), ctypes.c_longlong(3))
        check(out, _values(expected, out_t), out_t, name)
        # split in chunks of 2 over 2 blocks along y: partials at out[2 j + part]
        k2 = layout((2,), ((2,), 0), ((1,), 0))
        parts = empty(4, out_t)
        run(name, k2, r, p(parts), p(src), ctypes.c_longlong(2), blocks=(2, 2))
        combined = [_combine(op, parts[2 * j: 2 * j + 2], out_t) for j in range(2)]
        check(np.array(combined, dtype=parts.dtype), _values(expected, out_t), out_t, name + " (split)")


def _combine(op, pair, t):
    v = readback(pair, t)
    a, b = v[0], v[1]
    if op == "sum":
        r = a + b
    elif op == "prod":
        r = a * b
    elif op == "amax":
        r = max(a, b)
    else:
        r = min(a, b)
    return storage([r], t)[0] if t == "bf16" else r


def test_argreductions(run):
    for name in run.names("argreduce_"):
        _, op, t = name.split("_")
        vals = np.array(VALUES[t]).astype(np.float64 if t not in ("b8",) else np.int64)
        expected = (vals.argmax(1) if op == "max" else vals.argmin(1)).astype(np.int64)
        k = layout((2,), ((1,), 0), ((1,), 0))
        r = layout((3,), ((0,), 0), ((2,), 0))
        out = empty(2, "i64")
        run(name, k, r, p(out), p(transposed(VALUES[t], t)))
        assert out.tolist() == expected.tolist(), (name, out, expected)


def test_scans(run):
    for name in run.names("scan_"):
        _, op, t = name.split("_")
        vals = np.array(VALUES[t], dtype=TYPES[t][1] if t != "bf16" else np.float32)
        src = storage(VALUES[t], t)
        for flags in range(4):
            reverse, exclusive = flags & 1, flags & 2
            v = vals[:, ::-1] if reverse else vals
            acc = np.cumsum(v, 1) if op == "sum" else np.cumprod(v, 1)
            if exclusive:
                first = np.zeros_like(acc[:, :1]) if op == "sum" else np.ones_like(acc[:, :1])
                acc = np.concatenate([first, acc[:, :-1]], 1)
            expected = acc[:, ::-1] if reverse else acc
            if op == "sum" and t == "i64":
                assert lg(VALUES[t], t).cumsum(1).tolist() == np.cumsum(vals, 1).tolist()
            out = empty(6, t)
            # 2 lines (dim 0) of 3 elements, stride 1
            k = layout((2,), ((3,), 0), ((3,), 0))
            run(name, k, ctypes.c_longlong(3), ctypes.c_longlong(1), p(out), p(src), ctypes.c_int(flags))
            check(out, expected, t, f"{name} flags={flags}")


def _ll(*vs):
    return [ctypes.c_longlong(v) for v in vs]


def test_device_index_plans(run):
    # im2col: [N, C·kh·kw, Ho·Wo] over a padded [N, C, Hp, Wp] input (src/ops/nn.rs's order)
    n, c, hp, wp, kh, kw, ho, wo, sh, sw, dh, dw = 2, 3, 5, 6, 2, 3, 3, 2, 1, 2, 2, 1
    expected = [((b * c + ch) * hp + oy * sh + i * dh) * wp + ox * sw + j * dw
                for b in range(n) for ch in range(c) for i in range(kh) for j in range(kw)
                for oy in range(ho) for ox in range(wo)]
    out = np.full(len(expected), -1, dtype=np.int64)
    run("im2col_index", *_ll(len(expected)), p(out), *_ll(hp, wp, kh, kw, ho, wo, sh, sw, dh, dw),
        blocks=(3, 1))
    assert out.tolist() == expected
    # max pooling: the first maximum of each window, a NaN winning (the last of several)
    h, w, k, st, pad, ho, wo = 5, 6, 2, 2, 1, 3, 4
    rng = np.random.default_rng(0)
    for t in ("f32", "f64"):
        x = rng.integers(0, 4, size=(4, h, w)).astype(TYPES[t][1])
        x[1, 2, 3] = x[1, 2, 4] = np.nan
        expected = []
        for plane in range(4):
            for oy in range(ho):
                for ox in range(wo):
                    best = None
                    for i in range(k):
                        for j in range(k):
                            y, xx = oy * st + i - pad, ox * st + j - pad
                            if 0 <= y < h and 0 <= xx < w:
                                v = x[plane, y, xx]
                                if best is None or v > x.flat[best] or np.isnan(v):
                                    best = (plane * h + y) * w + xx
                    expected.append(best)
        out = np.full(len(expected), -1, dtype=np.int64)
        run(f"max_pool_index_{t}", *_ll(len(expected)), p(out), p(x),
            *_ll(h, w, ho, wo, k, k, st, st, pad, pad, 1, 1), blocks=(5, 1))
        assert out.tolist() == expected, t


def _philox(ctr, key):
    m = 0xFFFFFFFF
    c, k = list(ctr), list(key)
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & m, (p0 >> 32) ^ c[3] ^ k[1], p0 & m]
        k = [(k[0] + 0x9E3779B9) & m, (k[1] + 0xBB67AE85) & m]
    return c


def test_normal_draws(run):
    """normal_f32/f64: PyTorch's layout (element base + k·threads + idx of pass `base`) over
    Philox words, Box–Muller (float32: two pairs per draw; float64: one), then std·z + mean."""
    seed, offset, mean, std, threads = 0x1234567890AB, 8, 1.5, 2.0, 256
    inv, two_pi = float(np.float32(2.3283064e-10)), float(np.float32(2.3283064e-10) * np.float32(6.2831855))
    for t, unroll, n in (("f32", 4, 1500), ("f64", 2, 700)):
        out = empty(n, t)
        ctype = TYPES[t][2]
        run(f"normal_{t}", *_ll(n), p(out), *_ll(threads), ctypes.c_ulonglong(seed),
            ctypes.c_ulonglong(offset), ctype(mean), ctype(std), blocks=(3, 1))
        expected = []
        for li in range(n):
            pss, r = divmod(li, threads * unroll)
            k, idx = divmod(r, threads)
            lo = offset // 4 + pss
            w = _philox([lo & 0xFFFFFFFF, lo >> 32, idx, 0], [seed & 0xFFFFFFFF, seed >> 32])
            if t == "f32":
                x, y = w[2 * (k // 2)], w[2 * (k // 2) + 1]
                u, v = x * inv + inv / 2, y * two_pi + two_pi / 2
                z = math.sqrt(-2 * math.log(u)) * (math.sin(v) if k % 2 == 0 else math.cos(v))
            else:
                u = ((w[0] ^ (w[1] << 21)) + 0.5) * 2.0**-53
                v = ((w[2] ^ (w[3] << 21)) * 2 + 1) * 2.0**-53
                z = math.sqrt(-2 * math.log(u)) * (math.sin(math.pi * v) if k == 0 else math.cos(math.pi * v))
            expected.append(z * std + mean)
        np.testing.assert_allclose(out, expected, rtol=1e-4 if t == "f32" else 1e-12, atol=1e-4 if t == "f32" else 1e-12)


def test_zz_every_kernel_ran(run):
    """Runs last in this module: every kernel of the launch table was called above."""
    missing = sorted(set(run.table) - run.ran)
    assert not missing, f"kernels the emulation did not run: {missing}"
