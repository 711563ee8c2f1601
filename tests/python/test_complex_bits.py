"""Complex arithmetic and functions give PyTorch's bits.

- `*` and `/`: PyTorch's loop computes an element in one of three ways (its vector code over
  whole blocks, the compiler's two-at-a-time vectorisation of the scalar loop, and the scalar
  code for an odd last element), which round differently (src/backend/cpu/complex_loop.rs).
- `sigmoid`: c10's (Smith's) complex division of 1 by `1 + exp(-z)`; `angle`: SLEEF's `atan2` in
  the vector blocks, the C library's elsewhere; complex128 `abs` and `sgn`: SLEEF's `hypot` in
  the vector blocks, the C library's elsewhere; `sgn` is +0 + 0j wherever |z| is 0.
- `log`, `log1p`, `expm1`, `tan`, `tanh` and the inverse functions: the C library's C99
  functions, and c10's formulas over them (src/backend/cpu/clibm.rs). `log1p(-2 - 0j)` keeps the
  sign of the zero: its imaginary part is -π.

Digests recorded from torch 2.15 on x86-64 (AVX2); with LEAFGRAD_TEST_TORCH=1 the same tests run
against torch."""
import math

import pytest

import leafgrad as torch
from support import digest, spread

UNARY = ["angle", "abs", "sgn", "sigmoid", "log", "log1p", "log2", "log10", "expm1", "tan", "tanh", "asin", "acos", "atan", "asinh",
         "acosh", "atanh"]

RECORDED = {
    'angle-complex64': '309ce960333445c1',
    'angle-complex128': '527a7800c9569cb7',
    'abs-complex64': '8d3cbaba0da26385',
    'abs-complex128': 'defd5088598be248',
    'sgn-complex64': '102b45c3fddf0f31',
    'sgn-complex128': 'f508a6d0104bdd96',
    'sigmoid-complex64': '0e11057c36caed1a',
    'sigmoid-complex128': '7349f92afca29409',
    'log-complex64': 'f4b011f931fd2353',
    'log-complex128': '5e227aaeb72bf06e',
    'log1p-complex64': '70be65bf2fd7e562',
    'log1p-complex128': 'f77c172231aaafd8',
    'log2-complex64': '9c864b5031619625',
    'log2-complex128': 'a8be6d07045cc3fc',
    'log10-complex64': 'ade640cb29272377',
    'log10-complex128': 'afb98dec61ef9bf5',
    'expm1-complex64': '412d09355ce18898',
    'expm1-complex128': '9b909c5ccb8031e9',
    'tan-complex64': '120fc57e0382fb51',
    'tan-complex128': '5b20a8dfa27de23e',
    'tanh-complex64': '88e8e4a20ab43c55',
    'tanh-complex128': '6c96fe03964e3a29',
    'asin-complex64': '9a68cce56c9ee792',
    'asin-complex128': '80017404f3930481',
    'acos-complex64': '728f2d86296cb6b7',
    'acos-complex128': '2487aecaee09a4a6',
    'atan-complex64': '5c1035c28a59c9e9',
    'atan-complex128': '30d6083bc00043d3',
    'asinh-complex64': 'c95b1720eb727d05',
    'asinh-complex128': 'ef350bcfb45c4bbe',
    'acosh-complex64': 'b94027c9244d7d56',
    'acosh-complex128': '792636e20e34dacf',
    'atanh-complex64': '8f7d69aef9050612',
    'atanh-complex128': '948be52202d07fb9',
    'mul-complex64': 'a8c598137f544294',
    'mul-complex128': '3ceb5ab3458c386b',
    'div-complex64': 'bf90d200c8986273',
    'div-complex128': '25386a226d16931e',
}


def _z(n, scale, shift, dtype):
    re = spread(n, scale, shift=shift, dtype=torch.float64)
    im = spread(n, scale, shift=shift + 17, dtype=torch.float64)
    return torch.complex(re, im).to(dtype)


def _inputs(dtype):
    parts = [_z(700, s, k, dtype) for k, s in enumerate((0.01, 0.6, 1.0, 3.0, 40.0))]
    specials = torch.tensor([0j, complex(-0.0, 0.0), complex(-2.0, -0.0), complex(-2.0, 0.0), -1 + 0j,
                             1 + 0j, 1e-8 + 1e-8j, complex(0.0, -1.0), complex(math.inf, 1.0),
                             complex(-math.inf, 0.5), complex(1.0, math.inf)], dtype=dtype)
    return torch.cat(parts + [specials])


def _clean(y):
    r = torch.view_as_real(y) if y.is_complex() else y
    return torch.where(r.isnan(), torch.full_like(r, 12345.0), r)


def _unary(op, dname):
    return _clean(getattr(torch, op)(_inputs(getattr(torch, dname))))


def _arith(op, dname):
    """`*` or `/` at every position of rows of 1 to 20 elements, contiguous, strided, broadcast,
    by a 0-dim tensor and in place."""
    dt = getattr(torch, dname)
    f = (lambda a, b: a * b) if op == "mul" else (lambda a, b: a / b)
    out = []
    for n in range(1, 21):
        a, b = _z(3 * n, 2.0, n, dt).reshape(n, 3), _z(3 * n, 1.5, 50 + n, dt).reshape(n, 3)
        out += [f(a[:, 0].contiguous(), b[:, 0].contiguous()), f(a[:, 1], b[:, 1]),
                f(a[:, :1], b[0]).flatten(), f(a[:, 2].contiguous(), b[0, 0]), f(a, a).flatten()]
        c = a[:, 0].contiguous()
        out.append(c.div_(b[:, 0]) if op == "div" else c.mul_(b[:, 0]))
    return _clean(torch.cat(out))


CASES = [(f"{op}-{d}", op, d) for op in UNARY for d in ("complex64", "complex128")]
CASES += [(f"{op}-{d}", op, d) for op in ("mul", "div") for d in ("complex64", "complex128")]


def _case(op, dname):
    return _arith(op, dname) if op in ("mul", "div") else _unary(op, dname)


@pytest.mark.parametrize("name, op, dname", CASES, ids=[c[0] for c in CASES])
def test_bits_are_pytorchs(name, op, dname):
    assert digest(_case(op, dname)) == RECORDED[name]


def test_log1p_keeps_the_sign_of_a_zero_imaginary_part():
    y = torch.log1p(torch.tensor([complex(-2.0, -0.0), complex(-2.0, 0.0)], dtype=torch.complex64))
    assert y.imag.tolist() == pytest.approx([-math.pi, math.pi])


def test_sgn_of_a_signed_zero_is_positive_zero():
    for dt in (torch.complex64, torch.complex128):
        y = torch.sgn(torch.tensor([complex(-0.0, -0.0), complex(-0.0, 0.0), 3 - 4j], dtype=dt))
        assert [math.copysign(1, v) for v in torch.view_as_real(y).flatten().tolist()[:4]] == [1, 1, 1, 1]
        assert y[2].item() == pytest.approx(0.6 - 0.8j)


def test_a_quotient_of_equal_numbers_at_an_odd_last_position():
    # PyTorch's scalar code rounds z / z of the third element to 1 + 4.94e-09j (the vectorised
    # pairs before it to 1 + 6.9e-09j and 1 + 0j)
    a = torch.tensor([-2.028 + 0.883j, 1.126j, -2.998 + 0.219j], dtype=torch.complex64)
    q = a / a
    assert q.imag.tolist() == [float.fromhex("0x1.db3e7ap-28"), 0.0, float.fromhex("0x1.53bf84p-28")]


if __name__ == "__main__":  # prints the RECORDED table (run under torch)
    for name, op, d in CASES:
        print(f"    {name!r}: {digest(_case(op, d))!r},")
