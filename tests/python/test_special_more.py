"""torch.special's ndtr, ndtri, i0e, i1, i1e, entr and xlog1py: PyTorch's values bit for bit
(digests recorded from torch 2.15 on x86-64, float32/float64/float16/bfloat16 where PyTorch has
a kernel), their nodes, gradients (finite differences, and values recorded from torch) and
errors. With LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import pytest

import leafgrad as torch
from support import digest, mismatched, spread

SPECIAL_VALUES = [0.0, -0.0, 1e-30, 1e-8, 0.5, 1.0, 2.0, 7.99, 8.0, 8.01, 20.0, 100.0, 700.0, -3.0,
                  float("inf"), float("-inf"), float("nan")]
PROBS = [0.0, 1e-30, 1e-20, 1e-10, 0.01, 0.1, 0.13, 0.14, 0.3, 0.5, 0.7, 0.86, 0.87, 0.99, 1.0, 1.5, -0.1,
         float("nan")]
DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16, "bfloat16": torch.bfloat16}


def _nan_fixed(t):
    """`t` with every NaN replaced by a number: the bits of a NaN (PyTorch's vectorised
    conversion to bfloat16 makes 0xFFFF) are not what these tests compare."""
    return torch.where(t.isnan(), torch.full_like(t, 12345.0), t)


def _cases():
    cases = []
    for dname, dt in DTYPES.items():
        x = torch.cat([torch.tensor(SPECIAL_VALUES, dtype=torch.float64), spread(500, 30.0, dtype=torch.float64)])
        x = x.to(dt)
        for f in ("i0e", "i1", "i1e", "ndtr", "entr"):
            r = getattr(torch.special, f)(x)
            assert r.dtype == dt
            if f == "ndtr" and dname == "float64":
                continue  # PyTorch's float64 erf is MKL's on long tensors: compared to a tolerance below
            cases.append((f"{f}-{dname}", _nan_fixed(r.float() if dname in ("float16", "bfloat16") else r)))
        if dname in ("float32", "float64"):
            p = torch.cat([torch.tensor(PROBS, dtype=torch.float64), (spread(500, dtype=torch.float64) + 1) / 2])
            cases.append((f"ndtri-{dname}", _nan_fixed(torch.special.ndtri(p.to(dt)))))
            y = spread(517, 3.0, shift=7, dtype=dt)
            cases.append((f"xlog1py-{dname}", _nan_fixed(torch.special.xlog1py(x.to(dt), y))))
    # the scalar loop alone (a strided input), and the vectorised blocks with a tail
    xs = spread(100, 12.0, dtype=torch.float64)
    for dname in ("float16", "bfloat16"):
        x16 = xs.to(DTYPES[dname])
        cases.append((f"i0e-strided-{dname}", torch.special.i0e(x16[::2]).float()))
        cases.append((f"i0e-blocks-{dname}", torch.special.i0e(x16[:70]).float()))
    return cases


RECORDED = {
    'i0e-float32': '9e47e5342752b15f',
    'i1-float32': '5570c880cb43a67e',
    'i1e-float32': 'c6c8e1719b7a66d7',
    'ndtr-float32': 'eb071098dcbddaa1',
    'entr-float32': '6652fb505083c64e',
    'ndtri-float32': '92b26dbac646246b',
    'xlog1py-float32': 'baf4d9e45b823987',
    'i0e-float64': '189d14e1055e6e1a',
    'i1-float64': '79beef7a0ae51645',
    'i1e-float64': 'b6af2e5edfedbc11',
    'entr-float64': 'b4ccd7049ca4a38d',
    'ndtri-float64': '8fb0b905723b89cc',
    'xlog1py-float64': 'db1f66e1a2002a3c',
    'i0e-float16': '4dfed93aa7e5d586',
    'i1-float16': 'fc7287eaf51f4657',
    'i1e-float16': '07569d655cc264b1',
    'ndtr-float16': 'd4b6531bf707bf7a',
    'entr-float16': '2fe7aa606926d54f',
    'i0e-bfloat16': '464afc5de752e873',
    'i1-bfloat16': 'ed9edc0a6e7ee58d',
    'i1e-bfloat16': '3e54a185edf57c17',
    'ndtr-bfloat16': '4d1594f7d8f86823',
    'entr-bfloat16': '3329f07a893bf7ad',
    'i0e-strided-float16': '5d73f04d879e990f',
    'i0e-blocks-float16': '364c67fb6edc1af0',
    'i0e-strided-bfloat16': 'a673b6347522e6e5',
    'i0e-blocks-bfloat16': 'ea1a80ab3b95bce8',
}


def test_ndtr_float64_to_erfs_precision():
    x = torch.cat([torch.tensor(SPECIAL_VALUES, dtype=torch.float64), spread(500, 30.0, dtype=torch.float64)])
    got = torch.special.ndtr(x)
    want = (1 + torch.erf(x * 0.70710678118654752440)) * 0.5
    assert torch.allclose(got, want, rtol=0, atol=2e-16, equal_nan=True)
    assert torch.special.ndtr(torch.tensor([1.0], dtype=torch.float64)).item() == 0.841344746068543


def test_values_are_pytorchs_bits():
    cases = _cases()
    assert not [n for n, _ in cases if n not in RECORDED]
    assert mismatched(cases, RECORDED) == []


@pytest.mark.parametrize("f, node", [("i0e", "SpecialI0EBackward0"), ("i1", "SpecialI1Backward0"),
                                     ("i1e", "SpecialI1EBackward0"), ("ndtri", "SpecialNdtriBackward0"),
                                     ("entr", "SpecialEntrBackward0"), ("ndtr", "MulBackward1")])
def test_node_names_and_gradcheck(f, node):
    x = torch.tensor([0.1, 0.35, 0.6, 0.9], dtype=torch.float64, requires_grad=True)
    if f in ("i0e", "i1", "i1e", "ndtr"):
        x = torch.tensor([-9.5, -1.5, 0.3, 2.0, 8.5], dtype=torch.float64, requires_grad=True)
    fn = getattr(torch.special, f)
    assert fn(x).grad_fn.name() == node
    assert torch.autograd.gradcheck(fn, (x,))
    assert torch.autograd.gradgradcheck(fn, (x,))


def test_gradients_at_edges_are_pytorchs():
    x = torch.tensor([0.0, 0.5, -1.5, 9.0], dtype=torch.float64, requires_grad=True)
    got = {}
    for f in ("i0e", "i1", "i1e", "entr"):
        g, = torch.autograd.grad(getattr(torch.special, f)(x).sum(), x)
        got[f] = [round(v, 12) for v in g.tolist()]
    entr = got.pop("entr")
    assert entr[0] == float("inf") and entr[2] != entr[2] and entr[1::2] == [-0.30685281944, -3.197224577336]
    assert got == {
        "i0e": [0.0, -0.488614467264, 0.148394221633, -0.007734540646],
        "i1": [0.5, 0.54769475996, 0.992278904054, 979.042274231713],
        "i1e": [0.5, 0.175772860895, 0.002367963353, -0.00640156868],
    }


def test_xlog1py_zero_and_nan_rules_and_gradients():
    a = torch.tensor([[0.0, 1.0], [2.0, 0.0]], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([-1.0, 0.5], dtype=torch.float64, requires_grad=True)
    y = torch.special.xlog1py(a, b)
    assert y.grad_fn.name() == "SpecialXlog1PyBackward0"
    y.sum().backward()
    assert a.grad.tolist()[0][0] == 0.0 and a.grad.tolist()[1][1] == pytest.approx(0.4054651081081644)
    # d/db at b = -1 sums 0 / 0 (NaN) and 2 / 0 (inf): NaN, as PyTorch's formula gives
    gb = b.grad.tolist()
    assert gb[0] != gb[0] and gb[1] == pytest.approx(1 / 1.5)
    assert str(torch.special.xlog1py(torch.tensor([0.0, 1.0, 2.0, 0.0]),
                                     torch.tensor([-1.0, float("nan"), 3.0, float("nan")]))) == \
        "tensor([0.0000,    nan, 2.7726,    nan])"
    assert torch.special.xlog1py(2, torch.tensor([1, 2])).tolist() == pytest.approx([1.3862943, 2.1972246])
    assert torch.special.xlog1py(torch.tensor([1, 2]), 3).dtype == torch.float32
    assert torch.autograd.gradcheck(torch.special.xlog1py,
                                    (torch.tensor([0.5, 2.0], dtype=torch.float64, requires_grad=True),
                                     torch.tensor([[0.3], [1.5]], dtype=torch.float64, requires_grad=True)))


def test_integer_inputs_and_out():
    assert str(torch.special.i1(torch.tensor([1, 2]))) == "tensor([0.5652, 1.5906])"
    assert str(torch.special.ndtr(torch.tensor([1, 2]))) == "tensor([0.8413, 0.9772])"
    assert str(torch.special.entr(torch.tensor([1, 2]))) == "tensor([-0.0000, -1.3863])"
    out = torch.empty(2)
    r = torch.special.i0e(torch.tensor([1.0, 2.0]), out=out)
    assert r is out and str(out) == "tensor([0.4658, 0.3085])"


@pytest.mark.parametrize("f, kernel", [("ndtri", "ndtri"), ("i0e", "i0e"), ("i1e", "i1e"), ("entr", "entr"),
                                       ("ndtr", "erf_vml"), ("i1", "i1")])
def test_complex_is_not_implemented(f, kernel):
    with pytest.raises(NotImplementedError, match=f'^"{kernel}_cpu" not implemented for \'ComplexFloat\'$'):
        getattr(torch.special, f)(torch.tensor([1j]))


@pytest.mark.parametrize("dt, name", [(torch.float16, "Half"), (torch.bfloat16, "BFloat16")])
def test_ndtri_has_no_16_bit_kernel(dt, name):
    with pytest.raises(NotImplementedError, match=f'^"ndtri_cpu" not implemented for \'{name}\'$'):
        torch.special.ndtri(torch.tensor([0.5], dtype=dt))
