"""frac, logit (with eps) and nan_to_num: values, nodes and gradients at the edges (0, 1, the
clamp bounds, ±inf, NaN) as PyTorch 2.15 gives them (these expectations run against it with
LEAFGRAD_TEST_TORCH=1), finite-difference checks, in-place forms and dtypes."""
import math

import pytest

import leafgrad as torch

INF, NAN = math.inf, math.nan


def same(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert (math.isnan(g) and math.isnan(e)) or (g == pytest.approx(e, rel=1e-4) and math.copysign(1, g) == math.copysign(1, e)), (got, expected)


def test_frac():
    x = torch.tensor([-2.5, -0.5, 0.0, -0.0, 0.5, 1.0, 1.5, INF, -INF, NAN], requires_grad=True)
    y = torch.frac(x)
    assert y.grad_fn.name() == "FracBackward0"
    same(y.tolist(), [-0.5, -0.5, 0.0, 0.0, 0.5, 0.0, 0.5, NAN, NAN, NAN])
    y.sum().backward()
    assert x.grad.tolist() == [1.0] * 10
    with pytest.raises(NotImplementedError, match="^\"frac_cpu\" not implemented for 'Long'$"):
        torch.frac(torch.tensor([1, 2]))
    with pytest.raises(NotImplementedError, match="^\"frac_cpu\" not implemented for 'ComplexFloat'$"):
        torch.frac(torch.tensor([1j]))
    h = torch.tensor([1.5], dtype=torch.float16).frac()
    assert h.dtype == torch.float16 and h.tolist() == [0.5]
    x = torch.tensor([1.25])
    assert x.frac_() is x and x.tolist() == [0.25]


P = [-0.5, 0.0, 0.1, 0.5, 0.9, 1.0, 1.5, NAN]
LOGIT = {
    None: ([NAN, -INF, -2.1972, 0.0, 2.1972, INF, NAN, NAN], [NAN, INF, 11.1111, 4.0, 11.1111, INF, NAN, NAN]),
    0.2: ([-1.3863, -1.3863, -1.3863, 0.0, 1.3863, 1.3863, 1.3863, NAN], [0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, NAN]),
    0.0: ([-INF, -INF, -2.1972, 0.0, 2.1972, INF, INF, NAN], [0.0, INF, 11.1111, 4.0, 11.1111, INF, 0.0, NAN]),
}


@pytest.mark.parametrize("eps", [None, 0.2, 0.0])
def test_logit_values_and_gradients(eps):
    p = torch.tensor(P, requires_grad=True)
    y = torch.logit(p) if eps is None else torch.logit(p, eps)
    assert y.grad_fn.name() == "LogitBackward0"
    y.sum().backward()
    values, grads = LOGIT[eps]
    same(y.tolist(), values)
    same(p.grad.tolist(), grads)


def test_logit_dtypes_inplace_and_gradcheck():
    assert torch.logit(torch.tensor([0, 1])).tolist() == [-INF, INF]
    with pytest.raises(NotImplementedError, match="^\"logit_cpu\" not implemented for 'ComplexFloat'$"):
        torch.logit(torch.tensor([0.5j]))
    x = torch.tensor([0.25])
    assert x.logit_() is x and x.tolist() == pytest.approx([-1.0986123])
    assert torch.logit(torch.tensor([0.3], dtype=torch.float16), eps=0.4).tolist() == pytest.approx([-0.4055], abs=1e-3)
    r = torch.tensor([0.2, 0.45, 0.7], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(torch.logit, (r,))
    assert torch.autograd.gradgradcheck(lambda t: torch.logit(t, 0.1), (r,))


def test_nan_to_num():
    z = torch.tensor([NAN, INF, -INF, 1.5, -0.0], requires_grad=True)
    y = torch.nan_to_num(z)
    assert y.grad_fn.name() == "NanToNumBackward0"
    same(y.tolist(), [0.0, 3.4028234663852886e38, -3.4028234663852886e38, 1.5, -0.0])
    y.sum().backward()
    assert z.grad.tolist() == [0.0, 0.0, 0.0, 1.0, 1.0]
    same(torch.nan_to_num(z, nan=1.0, posinf=2.0, neginf=-3.0).tolist(), [1.0, 2.0, -3.0, 1.5, -0.0])
    assert torch.nan_to_num(torch.tensor([NAN, INF], dtype=torch.float16)).tolist() == [0.0, 65504.0]
    i = torch.tensor([1, 2])
    r = torch.nan_to_num(i)
    assert r.tolist() == [1, 2] and r.dtype == torch.int64 and r.data_ptr() != i.data_ptr()
    assert torch.nan_to_num(torch.tensor([INF]), posinf=1e300).tolist() == [INF]  # rounds in float32
    w = torch.tensor([NAN, 2.0])
    assert w.nan_to_num_() is w and w.tolist() == [0.0, 2.0]


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA (or LEAFGRAD_CUDA_EMULATION=1)")
def test_cuda_matches_cpu():
    x = torch.tensor([0.1, 0.5, NAN, INF, 1.25])
    for f in (torch.frac, lambda t: torch.logit(t, 0.2), torch.nan_to_num):
        c, g = f(x), f(x.cuda())
        assert g.device.type == "cuda"
        same(g.cpu().tolist(), c.tolist())


def test_nan_to_num_of_complex_tensors_fixes_each_part():
    big = 3.4028234663852886e38
    z = torch.tensor([complex(math.nan, math.inf), complex(1, -math.inf)])
    r = torch.nan_to_num(z)
    assert r.dtype == torch.complex64
    assert [(v.real, v.imag) for v in r.tolist()] == [(0.0, big), (1.0, -big)]
    r = torch.nan_to_num(z, nan=1.0, posinf=2.0, neginf=-2.0)
    assert [(v.real, v.imag) for v in r.tolist()] == [(1.0, 2.0), (1.0, -2.0)]
    x = torch.tensor([complex(1, math.nan), complex(2, 3)], requires_grad=True)
    y = torch.nan_to_num(x)
    assert type(y.grad_fn).__name__ == "NanToNumBackward0"
    y.abs().sum().backward()
    assert x.grad[0].item() == 0
