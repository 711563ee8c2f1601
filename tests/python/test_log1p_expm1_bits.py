"""`log1p`, `expm1` and `atan2` give PyTorch's bits: PyTorch computes them with SLEEF's
vector functions (`Sleef_log1pd4_u10`, `Sleef_expm1f8_u10`, `Sleef_atan2f8_u10`, ... on AVX2),
which round about 1 result in 25 differently from the C library (`atan2`: the vector blocks of
its loop only); leafgrad carries SLEEF's algorithms (src/backend/cpu/sleef*.rs).
Digests recorded from torch 2.15 on x86-64; with LEAFGRAD_TEST_TORCH=1 the same tests run
against torch."""
import pytest

import leafgrad as torch
from support import digest, spread

CASES = {
    ("log1p", "float32"): None, ("log1p", "float64"): None, ("expm1", "float32"): None,
    ("expm1", "float64"): None, ("log1p", "float16"): None, ("expm1", "bfloat16"): None,
}

RECORDED = {
    "log1p-float32": '39555273038d5df8',
    "log1p-float64": '7e23baadb6b07fdb',
    "expm1-float32": '028fec6392288c56',
    "expm1-float64": 'b448b49567581557',
    "log1p-float16": 'ddb5cb3501695398',
    "expm1-bfloat16": '2e6096f2480fc90f',
}


def _inputs(dtype):
    wide = spread(4000, 12.0, dtype=torch.float64)
    small = spread(1000, 1e-3, shift=3, dtype=torch.float64)
    near = spread(1000, 0.25, shift=5, dtype=torch.float64) - 0.75  # near -1 for log1p
    specials = torch.tensor([0.0, -0.0, -1.0, -2.0, 1e-300, 1e-30, 1e-8, 700.0, -40.0, 1e38, float("inf"),
                             float("-inf")], dtype=torch.float64)
    return torch.cat([wide, small, near, specials]).to(dtype)


def _case(op, dname):
    dt = getattr(torch, dname)
    y = getattr(torch, op)(_inputs(dt))
    y = y.float() if dname in ("float16", "bfloat16") else y
    return torch.where(y.isnan(), torch.full_like(y, 12345.0), y)


@pytest.mark.parametrize("op, dname", list(CASES))
def test_bits_are_pytorchs(op, dname):
    assert digest(_case(op, dname)) == RECORDED[f"{op}-{dname}"]


def test_pytorchs_float64_log1p_of_two():
    # the C library rounds this one to 1.0986122886681096 (floor(exp(log1p(2.))) is 2 then)
    assert torch.log1p(torch.tensor([2.0], dtype=torch.float64)).item() == 1.0986122886681098
    assert torch.floor(torch.exp(torch.log1p(torch.tensor(2.0, dtype=torch.float64)))).item() == 3.0


def test_in_place_and_gradients_use_the_same_values():
    x = torch.linspace(-0.9, 5.0, 101, dtype=torch.float64)
    y = x.clone().log1p_()
    assert torch.equal(y, torch.log1p(x))
    z = x.clone().expm1_()
    assert torch.equal(z, torch.expm1(x))
    w = x.clone().requires_grad_()
    torch.expm1(w).sum().backward()
    assert torch.allclose(w.grad, torch.exp(x))


def _atan2_cases(dt=torch.float32):
    import math

    vals = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 1e-39, -1e-39, 3e-39, 1e30, -2.5, 0.5, 7.0, 1e-45]
    if dt == torch.float64:
        vals += [1e-310, -4e-320, 5e-324, 1e300]
    y = torch.tensor([a for a in vals for b in vals], dtype=dt)
    x = torch.tensor([b for a in vals for b in vals], dtype=dt)
    out = [torch.atan2(y, x)]
    for n in (1, 3, 7, 15, 17, 33):
        a = torch.linspace(-3, 3, n * 5, dtype=dt).reshape(5, n)
        b = torch.linspace(2, -4, n, dtype=dt)
        out += [torch.atan2(a, b), torch.atan2(a.t(), b[:, None]), torch.atan2(a, torch.tensor(0.7)),
                a.clone().atan2_(b)]
    wide = spread(4000, 9.0, dtype=dt)
    out.append(torch.atan2(wide, spread(4000, 3.0, shift=11, dtype=dt)))
    return torch.cat([t.flatten() for t in out])


def test_float32_atan2_is_pytorchs():
    # SLEEF's atan2f_u10 in the vector blocks of PyTorch's loop, the C library's atan2f in the
    # rest (special values and NaN bits included); recorded from torch 2.15 (AVX2)
    assert digest(_atan2_cases().view(torch.int32)) == "68c310230f34e038"


def test_float64_atan2_is_pytorchs():
    # SLEEF's atan2_u10 in the vector blocks (8 float64 a step on AVX2), the C library's atan2
    # in the rest; recorded from torch 2.15 (AVX2)
    assert digest(_atan2_cases(torch.float64).view(torch.int64)) == "64834cd0ac8eafa3"
