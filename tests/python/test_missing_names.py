"""PyTorch names leafgrad lacked, added in Python on its existing ops: `nn.functional.embedding_bag`
and `nn.EmbeddingBag`; `igamma`/`igammac` (`special.gammainc`/`gammaincc`, Tensor methods and
in-place forms); `Tensor.pin_memory`/`is_pinned`/`share_memory_`/`is_shared`; `renorm`,
`cholesky_solve` and `cholesky_inverse`. Values (recorded from PyTorch 2.15), grad_fn names,
gradients (`gradcheck` in float64), errors and messages as PyTorch gives them (these expectations
run against it with LEAFGRAD_TEST_TORCH=1)."""
import math
import os
import re
import warnings

import pytest
from support import exact, grad_fn_name, leafgrad_only

import leafgrad as torch

F = torch.nn.functional
nan, inf = math.nan, math.inf


# ------------------------------------------------------------------------------------------------
# igamma / igammac

GAMMA_A = [0.0, 0.5, 1.0, 2.5, 25.0, 150.0, 300.0, inf, nan, -1.0]
GAMMA_X = [0.0, 0.1, 1.0, 2.0, 30.0, 140.0, 310.0, inf, nan, -1.0]
# torch.igamma / igammac(tensor(GAMMA_A).unsqueeze(1), tensor(GAMMA_X)) from PyTorch 2.15
P64 = [[nan, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, nan, nan], [0.0, 0.345279153981423, 0.8427007929497151, 0.9544997361036415, 0.9999999999999906, 1.0, 1.0, 1.0, nan, nan], [0.0, 0.09516258196404044, 0.6321205588285577, 0.8646647167633873, 0.9999999999999064, 1.0, 1.0, 1.0, nan, nan], [0.0, 0.0008861387888124438, 0.15085496391539038, 0.4505840486472198, 0.9999999999878454, 1.0, 1.0, 1.0, nan, nan], [0.0, 5.85596155960031e-51, 2.4664231717319608e-26, 3.1707866758025193e-19, 0.8427579725344967, 1.0, 1.0, 1.0, nan, nan], [0.0, 0.0, 6.4818304762487295e-264, 3.4261560452059366e-219, 7.55923034648433e-55, 0.20954362381019084, 1.0, 1.0, nan, nan], [0.0, 0.0, 0.0, 0.0, 4.64856089144402e-185, 6.638227252803933e-32, 0.7224887540818496, 1.0, nan, nan], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, nan, 0.0, nan], [0.0, nan, nan, nan, nan, nan, nan, 1.0, nan, nan], [nan, nan, nan, nan, nan, nan, nan, nan, nan, nan]]
Q64 = [[nan, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, nan, nan], [1.0, 0.6547208460185769, 0.15729920705028505, 0.045500263896358445, 9.485737571073854e-15, 7.50924265373513e-63, 7.477512608969501e-137, 0.0, nan, nan], [1.0, 0.9048374180359595, 0.36787944117144245, 0.1353352832366127, 9.357622968840163e-14, 1.580420060273615e-61, 2.3372792850071602e-135, 0.0, nan, nan], [1.0, 0.9991138612111875, 0.8491450360846096, 0.5494159513527803, 1.2154569777183006e-11, 1.9905503867156856e-58, 9.643100118698709e-132, 0.0, nan, nan], [1.0, 1.0, 1.0, 1.0, 0.15724202746550328, 9.863962408849304e-34, 2.5325311618130073e-99, 0.0, nan, nan], [1.0, 1.0, 1.0, 1.0, 1.0, 0.7904563761898091, 1.918245195359815e-24, 0.0, nan, nan], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.2775112459181503, 0.0, nan, nan], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, nan, 1.0, nan], [1.0, nan, nan, nan, nan, nan, nan, 0.0, nan, nan], [nan, nan, nan, nan, nan, nan, nan, nan, nan, nan]]
P32 = [[nan, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, nan, nan], [0.0, 0.34527915716171265, 0.8427008390426636, 0.9544997215270996, 1.0, 1.0, 1.0, 1.0, nan, nan], [0.0, 0.09516258537769318, 0.6321204304695129, 0.8646647334098816, 1.0, 1.0, 1.0, 1.0, nan, nan], [0.0, 0.0008861387032084167, 0.1508549600839615, 0.4505840241909027, 1.0, 1.0, 1.0, 1.0, nan, nan], [0.0, 0.0, 2.4664243106496297e-26, 3.1707957699356046e-19, 0.8427579402923584, 1.0, 1.0, 1.0, nan, nan], [0.0, 0.0, 0.0, 0.0, 0.0, 0.20954358577728271, 1.0, 1.0, nan, nan], [0.0, 0.0, 0.0, 0.0, 0.0, 6.638161184898609e-32, 0.722489058971405, 1.0, nan, nan], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, nan, 0.0, nan], [0.0, nan, nan, nan, nan, nan, nan, 1.0, nan, nan], [nan, nan, nan, nan, nan, nan, nan, nan, nan, nan]]
Q32 = [[nan, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, nan, nan], [1.0, 0.6547208428382874, 0.1572992354631424, 0.0455002635717392, 9.48574918157967e-15, 0.0, 0.0, 0.0, nan, nan], [1.0, 0.904837429523468, 0.36787939071655273, 0.1353352814912796, 9.357623589846195e-14, 0.0, 0.0, 0.0, nan, nan], [1.0, 0.9991138577461243, 0.8491450548171997, 0.5494158864021301, 1.2154578558909446e-11, 0.0, 0.0, 0.0, nan, nan], [1.0, 1.0, 1.0, 1.0, 0.1572420299053192, 9.863975337222986e-34, 0.0, 0.0, nan, nan], [1.0, 1.0, 1.0, 1.0, 1.0, 0.7904564142227173, 1.918255313855567e-24, 0.0, nan, nan], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.2775109112262726, 0.0, nan, nan], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, nan, 1.0, nan], [1.0, nan, nan, nan, nan, nan, nan, 0.0, nan, nan], [nan, nan, nan, nan, nan, nan, nan, nan, nan, nan]]


def approx(expected, rel=1e-12, abs=0.0):
    """pytest.approx for nested lists (complex numbers too)."""
    if isinstance(expected, (list, tuple)):
        return [approx(e, rel, abs) for e in expected]
    return pytest.approx(expected, rel=rel, abs=abs)


def assert_values(got, expected, rtol):
    for row_got, row_expected in zip(got, expected):
        for g, e in zip(row_got, row_expected):
            if math.isnan(e):
                assert math.isnan(g), (g, e)
            else:
                assert g == pytest.approx(e, rel=rtol, abs=0), (g, e)


@pytest.mark.parametrize("dtype, p, q, rtol", [("float64", P64, Q64, 1e-12), ("float32", P32, Q32, 2e-5)])
def test_igamma_values_on_a_grid_with_pytorchs_boundaries(dtype, p, q, rtol):
    dt = getattr(torch, dtype)
    a, x = torch.tensor(GAMMA_A, dtype=dt).unsqueeze(1), torch.tensor(GAMMA_X, dtype=dt)
    for fn, expected in ((torch.igamma, p), (torch.special.gammainc, p), (torch.igammac, q),
                         (torch.special.gammaincc, q)):
        r = fn(a, x)
        assert r.dtype == dt and r.shape == (10, 10)
        assert_values(r.tolist(), expected, rtol)


def test_igamma_dtypes_broadcasting_and_methods():
    one_two = [1.0, 2.0]
    half = torch.tensor(one_two, dtype=torch.float16)
    assert torch.igamma(half, half).tolist() == [0.63232421875, 0.59423828125]
    assert torch.igamma(torch.tensor(one_two, dtype=torch.bfloat16),
                        torch.tensor(one_two, dtype=torch.bfloat16)).tolist() == [0.6328125, 0.59375]
    r = torch.igamma(torch.tensor([1, 2]), torch.tensor(one_two, dtype=torch.float64))
    assert r.dtype == torch.float64 and r.tolist() == pytest.approx([0.6321205588285577, 0.5939941502901619])
    assert torch.igamma(torch.tensor(2), torch.tensor([2.0])).dtype == torch.float32
    assert torch.igamma(torch.tensor(one_two), torch.tensor(2.0, dtype=torch.float64)).dtype == torch.float32
    assert torch.igamma(torch.tensor([[1.0], [2.0]]), torch.tensor([1.0, 2.0, 3.0])).shape == (2, 3)
    assert torch.igamma(torch.empty(0), torch.empty(0)).shape == (0,)
    a, x = torch.tensor([2.0]), torch.tensor([1.0])
    assert a.igamma(x).tolist() == pytest.approx([0.26424111765711533])
    assert a.igammac(x).tolist() == pytest.approx([0.7357588823428847])
    y = torch.tensor(one_two)
    assert y.igamma_(torch.tensor([1.0, 1.0])) is y and y.tolist() == pytest.approx([0.6321205588, 0.2642411177])
    y = torch.tensor(one_two)
    assert y.igammac_(torch.tensor([1.0, 1.0])) is y and y.tolist() == pytest.approx([0.3678794412, 0.7357588823])
    y = torch.tensor(one_two)
    y.igamma_(torch.tensor([1.0, 1.0], dtype=torch.float64))
    assert y.dtype == torch.float32


def test_igamma_errors():
    with pytest.raises(NotImplementedError, match=exact("\"igamma_cpu\" not implemented for 'Long'")):
        torch.igamma(torch.tensor([1, 2]), torch.tensor([1, 2]))
    with pytest.raises(NotImplementedError, match=exact("\"igammac_cpu\" not implemented for 'Long'")):
        torch.igammac(torch.tensor([1, 2]), torch.tensor([1, 2]))
    with pytest.raises(NotImplementedError, match=exact("\"igamma_cpu\" not implemented for 'Bool'")):
        torch.igamma(torch.tensor([True]), torch.tensor([True]))
    with pytest.raises(NotImplementedError, match=exact("\"igamma_cpu\" not implemented for 'ComplexFloat'")):
        torch.igamma(torch.tensor([1.0], dtype=torch.complex64), torch.tensor([1.0]))
    with pytest.raises(TypeError, match=exact("igamma(): argument 'other' (position 2) must be Tensor, not float")):
        torch.igamma(torch.tensor([1.0]), 2.0)
    with pytest.raises(TypeError, match=exact("igamma(): argument 'input' (position 1) must be Tensor, not float")):
        torch.igamma(2.0, torch.tensor([1.0]))
    with pytest.raises(TypeError, match=exact("special_gammainc(): argument 'other' (position 2) must be Tensor, "
                                              "not float")):
        torch.special.gammainc(torch.tensor([1.0]), 2.0)
    with pytest.raises(TypeError, match=exact("igamma(): argument 'other' (position 1) must be Tensor, not float")):
        torch.tensor([1.0]).igamma(2.0)
    with pytest.raises(TypeError, match=exact("igamma_(): argument 'other' (position 1) must be Tensor, not float")):
        torch.tensor([1.0]).igamma_(2.0)
    with pytest.raises(RuntimeError, match=exact("result type Float can't be cast to the desired output type Long")):
        torch.tensor([1, 2]).igamma_(torch.tensor([1.0, 2.0]))
    with pytest.raises(RuntimeError, match=exact("output with shape [1] doesn't match the broadcast shape [2]")):
        torch.tensor([1.0]).igammac_(torch.tensor([1.0, 2.0]))


def test_igamma_has_no_forward_ad():
    import leafgrad.autograd.forward_ad as fwAD

    x = torch.tensor([0.5, 1.0, 2.0])
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, torch.ones(3))
        for fn in (torch.igamma, torch.igammac):
            with pytest.raises(NotImplementedError, match=r"Trying to use forward AD with igamma.? that does not support it"):
                fn(dual, x)
            with pytest.raises(NotImplementedError, match="does not support it because it has not been implemented yet"):
                fn(x, dual)


def test_igamma_out():
    a, x = torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0])
    o = torch.empty(0)
    assert torch.igamma(a, x, out=o) is o and o.tolist() == pytest.approx([0.6321205588, 0.5939941503])
    o = torch.empty(0, dtype=torch.float64)
    torch.special.gammaincc(a, x, out=o)
    assert o.dtype == torch.float64 and o.tolist() == pytest.approx([0.3678794412, 0.4060058497], rel=1e-6)
    with pytest.raises(RuntimeError, match=exact("result type Float can't be cast to the desired output type Long")):
        torch.igamma(a, x, out=torch.empty(0, dtype=torch.long))
    with pytest.raises(RuntimeError, match=exact("igammac(): functions with out=... arguments don't support automatic "
                                                 "differentiation, but one of the arguments requires grad.")):
        torch.igammac(a, x.clone().requires_grad_(), out=torch.empty(2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.igamma(a, x, out=torch.empty(3))
    assert [str(w.message).startswith("An output with one or more elements was resized") for w in caught] == [True]


def test_igamma_gradient_is_pytorchs_for_other_only():
    a = torch.tensor([0.5, 1.5, 2.0, 30.0], dtype=torch.float64)
    x = torch.tensor([0.3, 2.0, 5.0, 28.0], dtype=torch.float64, requires_grad=True)
    p, q = torch.igamma(a, x), torch.igammac(a, x)
    assert grad_fn_name(p) == "IgammaBackward0" and grad_fn_name(q) == "IgammacBackward0"
    assert grad_fn_name(torch.special.gammainc(a, x)) == "IgammaBackward0"
    assert grad_fn_name(torch.special.gammaincc(a, x)) == "IgammacBackward0"
    gp, = torch.autograd.grad(p.sum(), x)
    gq, = torch.autograd.grad(q.sum(), x)
    want = [0.763090578768186, 0.21596386605275222, 0.03368973499542734, 0.07257693030180869]
    assert gp.tolist() == pytest.approx(want, rel=1e-12)
    assert gq.tolist() == pytest.approx([-g for g in want], rel=1e-12)
    for fn in (torch.igamma, torch.igammac):
        assert torch.autograd.gradcheck(lambda t: fn(a, t), (x,))
        assert torch.autograd.gradgradcheck(lambda t: fn(a, t), (x,))
    # broadcast: the gradient is summed to x's shape
    xb = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    torch.igamma(torch.tensor([[1.0], [2.0]], dtype=torch.float64), xb).sum().backward()
    assert xb.grad.tolist() == pytest.approx([0.7357588823428847, 0.4060058497098381])
    # in place on a non-leaf: the tensor's node is IgammaBackward0
    y = torch.tensor([1.0, 2.0], requires_grad=True).clone()
    assert grad_fn_name(y.igamma_(torch.tensor([1.0, 2.0]))) == "IgammaBackward0"


def test_igamma_derivative_for_input_is_not_implemented():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    x = torch.tensor([0.5, 3.0], requires_grad=True)
    p = torch.igamma(a, x)
    gx, = torch.autograd.grad(p.sum(), x, retain_graph=True)  # only x's gradient: no error
    assert gx.tolist() == pytest.approx([0.6065306597, 0.1493612051])
    with pytest.raises(NotImplementedError, match=exact("the derivative for 'igamma: input' is not implemented.")):
        p.sum().backward()
    with pytest.raises(NotImplementedError, match=exact("the derivative for 'igammac: input' is not implemented.")):
        torch.autograd.grad(torch.igammac(a, x).sum(), a)


# ------------------------------------------------------------------------------------------------
# embedding_bag / EmbeddingBag

W = [[1., 5., 2.], [3., 0., 7.], [2., 5., 1.], [0., -1., 0.5], [4., 4., -2.]]
INPUT = [0, 1, 2, 3, 1, 1, 4, 0]
OFFSETS = [0, 3, 3, 5]
CASES = {
    "sum": dict(mode="sum"), "mean": dict(mode="mean"), "max": dict(mode="max"),
    "sum_pad": dict(mode="sum", padding_idx=1), "mean_pad": dict(mode="mean", padding_idx=1),
    "max_pad": dict(mode="max", padding_idx=1), "mean_sgf": dict(mode="mean", scale_grad_by_freq=True),
    "sum_neg_pad_sgf": dict(mode="sum", padding_idx=-5, scale_grad_by_freq=True),
    "psw": dict(mode="sum", psw=[1., 2., -1., .5, 3., 1., 2., -2.], padding_idx=1),
    "ilo": dict(mode="mean", offsets=[0, 3, 3, 5, 8], include_last_offset=True),
    "2d_max": dict(mode="max", input=[[0, 1, 2], [3, 1, 1], [4, 0, 0]], offsets=None),
    "2d_psw": dict(mode="sum", input=[[0, 1], [2, 3]], offsets=None, psw=[[1., 2.], [-1., .5]]),
    "ties": dict(mode="max", input=[0, 4, 2], offsets=[0]),
}
# (result, weight.grad, per_sample_weights.grad) for the gradient arange(1, numel + 1), from PyTorch 2.15
EB = {
    'sum': ([[6.0, 10.0, 10.0], [0.0, 0.0, 0.0], [3.0, -1.0, 7.5], [8.0, 9.0, 7.0]], [[11.0, 13.0, 15.0], [18.0, 21.0, 24.0], [1.0, 2.0, 3.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]], None),
    'mean': ([[2.0, 3.3333333333333335, 3.3333333333333335], [0.0, 0.0, 0.0], [1.5, -0.5, 3.75], [2.6666666666666665, 3.0, 2.3333333333333335]], [[3.6666666666666665, 4.333333333333333, 5.0], [7.166666666666667, 8.333333333333334, 9.5], [0.3333333333333333, 0.6666666666666666, 1.0], [3.5, 4.0, 4.5], [3.333333333333333, 3.6666666666666665, 4.0]], None),
    'max': ([[3.0, 5.0, 7.0], [0.0, 0.0, 0.0], [3.0, 0.0, 7.0], [4.0, 5.0, 7.0]], [[0.0, 13.0, 0.0], [8.0, 8.0, 24.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [10.0, 0.0, 0.0]], None),
    'sum_pad': ([[3.0, 10.0, 3.0], [0.0, 0.0, 0.0], [0.0, -1.0, 0.5], [5.0, 9.0, 0.0]], [[11.0, 13.0, 15.0], [0.0, 0.0, 0.0], [1.0, 2.0, 3.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]], None),
    'mean_pad': ([[1.5, 5.0, 1.5], [0.0, 0.0, 0.0], [0.0, -1.0, 0.5], [2.5, 4.5, 0.0]], [[5.5, 6.5, 7.5], [0.0, 0.0, 0.0], [0.5, 1.0, 1.5], [7.0, 8.0, 9.0], [5.0, 5.5, 6.0]], None),
    'max_pad': ([[2.0, 5.0, 2.0], [0.0, 0.0, 0.0], [0.0, -1.0, 0.5], [4.0, 5.0, 2.0]], [[0.0, 13.0, 15.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [7.0, 8.0, 9.0], [10.0, 0.0, 0.0]], None),
    'mean_sgf': ([[2.0, 3.3333333333333335, 3.3333333333333335], [0.0, 0.0, 0.0], [1.5, -0.5, 3.75], [2.6666666666666665, 3.0, 2.3333333333333335]], [[1.8333333333333333, 2.1666666666666665, 2.5], [2.388888888888889, 2.7777777777777777, 3.1666666666666665], [0.3333333333333333, 0.6666666666666666, 1.0], [3.5, 4.0, 4.5], [3.333333333333333, 3.6666666666666665, 4.0]], None),
    'sum_neg_pad_sgf': ([[5.0, 5.0, 8.0], [0.0, 0.0, 0.0], [3.0, -1.0, 7.5], [7.0, 4.0, 5.0]], [[0.0, 0.0, 0.0], [6.0, 6.999999999999999, 8.0], [1.0, 2.0, 3.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]], None),
    'psw': ([[-1.0, 0.0, 1.0], [0.0, 0.0, 0.0], [0.0, -0.5, 0.25], [6.0, -2.0, -8.0]], [[-19.0, -20.0, -21.0], [0.0, 0.0, 0.0], [-1.0, -2.0, -3.0], [3.5, 4.0, 4.5], [20.0, 22.0, 24.0]], [17.0, 0.0, 15.0, -3.5, 0.0, 0.0, 60.0, 89.0]),
    'ilo': ([[2.0, 3.3333333333333335, 3.3333333333333335], [0.0, 0.0, 0.0], [1.5, -0.5, 3.75], [2.6666666666666665, 3.0, 2.3333333333333335]], [[3.6666666666666665, 4.333333333333333, 5.0], [7.166666666666667, 8.333333333333334, 9.5], [0.3333333333333333, 0.6666666666666666, 1.0], [3.5, 4.0, 4.5], [3.333333333333333, 3.6666666666666665, 4.0]], None),
    '2d_max': ([[3.0, 5.0, 7.0], [3.0, 0.0, 7.0], [4.0, 5.0, 2.0]], [[0.0, 10.0, 9.0], [5.0, 5.0, 9.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [7.0, 0.0, 0.0]], None),
    '2d_psw': ([[7.0, 5.0, 16.0], [-2.0, -5.5, -0.75]], [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [-4.0, -5.0, -6.0], [2.0, 2.5, 3.0], [0.0, 0.0, 0.0]], [[17.0, 24.0], [39.0, -2.0]]),
    'ties': ([[4.0, 5.0, 2.0]], [[0.0, 2.0, 3.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]], None),
}


def run_bag(mode, **kw):
    w = torch.tensor(W, dtype=torch.float64, requires_grad=True)
    psw = kw.pop("psw", None)
    p = None if psw is None else torch.tensor(psw, dtype=torch.float64, requires_grad=True)
    offsets = kw.pop("offsets", OFFSETS)
    r = F.embedding_bag(torch.tensor(kw.pop("input", INPUT)), w, None if offsets is None else torch.tensor(offsets),
                        mode=mode, per_sample_weights=p, **kw)
    assert grad_fn_name(r) == "EmbeddingBagBackward0"
    r.backward(torch.arange(1., 1 + r.numel(), dtype=torch.float64).reshape(r.shape))
    return r.tolist(), w.grad.tolist(), None if p is None else p.grad.tolist()


@pytest.mark.parametrize("case", sorted(CASES))
def test_embedding_bag_values_and_gradients(case):
    result, grad_w, grad_p = run_bag(**dict(CASES[case]))
    want_result, want_w, want_p = EB[case]
    assert result == approx(want_result, rel=1e-12)
    assert grad_w == approx(want_w, rel=1e-12)
    assert grad_p == (None if want_p is None else approx(want_p, rel=1e-12))


def test_embedding_bag_special_inputs():
    w = torch.tensor(W)
    # empty bags and an empty input give zeros; float32, int32 indices and offsets
    r = F.embedding_bag(torch.tensor([], dtype=torch.long), w, torch.tensor([0, 0]), mode="max")
    assert r.tolist() == [[0.0] * 3] * 2
    r = F.embedding_bag(torch.tensor([1, 2], dtype=torch.int32), w, torch.tensor([0, 2], dtype=torch.int32))
    assert r.tolist() == [[2.5, 2.5, 4.0], [0.0, 0.0, 0.0]]
    assert F.embedding_bag(torch.tensor([0, 1]), w, torch.tensor([], dtype=torch.long)).shape == (0, 3)
    assert F.embedding_bag(torch.zeros(0, 2, dtype=torch.long), w).shape == (0, 3)
    # max keeps a NaN that comes first, skips one that comes later
    nan_w = torch.tensor([[nan, 1.0], [2.0, 3.0], [1.0, nan]])
    r = F.embedding_bag(torch.tensor([0, 1, 2]), nan_w, torch.tensor([0]), mode="max").tolist()
    assert math.isnan(r[0][0]) and r[0][1] == 3.0
    r = F.embedding_bag(torch.tensor([1, 0]), nan_w, torch.tensor([0]), mode="max")
    assert r.tolist() == [[2.0, 3.0]]
    for dtype in (torch.float16, torch.bfloat16):
        r = F.embedding_bag(torch.tensor([0, 1]), torch.tensor([[1., 2.], [3., 4.]], dtype=dtype), torch.tensor([0]))
        assert r.dtype == dtype and r.tolist() == [[2.0, 3.0]]
    # max_norm renormalises the rows it picks, in place
    w = torch.tensor([[3., 4.], [0.3, 0.4], [6., 8.]])
    r = F.embedding_bag(torch.tensor([0, 1, 0]), w, torch.tensor([0, 2]), max_norm=1.0)
    assert r.tolist() == approx([[0.45, 0.6], [0.6, 0.8]], rel=1e-6)
    assert w[0].tolist() == pytest.approx([0.6, 0.8], rel=1e-6) and w[2].tolist() == [6.0, 8.0]
    # the old argument order warns and swaps
    with pytest.warns(UserWarning, match="Argument order of nn.functional.embedding_bag was changed"):
        r = F.embedding_bag(torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([[0, 1]]))
    assert r.tolist() == [[2.0, 3.0]]


def test_embedding_bag_gradcheck():
    torch.manual_seed(0)
    w = torch.randn(6, 3, dtype=torch.float64, requires_grad=True)
    psw = torch.randn(7, dtype=torch.float64, requires_grad=True)
    inp, offs = torch.tensor([0, 2, 5, 1, 2, 2, 4]), torch.tensor([0, 2, 2, 5])
    for mode in ("sum", "mean", "max"):
        for pad in (None, 2):
            assert torch.autograd.gradcheck(lambda t: F.embedding_bag(inp, t, offs, mode=mode, padding_idx=pad), (w,))
    assert torch.autograd.gradcheck(
        lambda t, p: F.embedding_bag(inp, t, offs, mode="sum", per_sample_weights=p, padding_idx=2), (w, psw))


def test_embedding_bag_is_not_twice_differentiable():
    w = torch.tensor(W, dtype=torch.float64, requires_grad=True)
    inp, offs = torch.tensor(INPUT), torch.tensor(OFFSETS)
    for mode in ("sum", "mean", "max"):
        r = F.embedding_bag(inp, w, offs, mode=mode)
        go = torch.ones_like(r, requires_grad=True)
        g, = torch.autograd.grad(r, w, go, create_graph=True)
        assert grad_fn_name(g) == "EmbeddingBagBackwardBackward0"
        with pytest.raises(NotImplementedError,
                           match=exact("the derivative for '_embedding_bag_backward' is not implemented.")):
            g.sum().backward()
        g, = torch.autograd.grad(r, w, torch.ones_like(r), create_graph=True)
        assert not g.requires_grad
    psw = torch.ones(8, dtype=torch.float64, requires_grad=True)
    r = F.embedding_bag(inp, w, offs, mode="sum", per_sample_weights=psw)
    go = torch.ones_like(r, requires_grad=True)
    _, gp = torch.autograd.grad(r, (w, psw), go, create_graph=True)
    message = "derivative for aten::_embedding_bag_per_sample_weights_backward is not implemented"
    with pytest.raises(RuntimeError, match=exact(message)):
        torch.autograd.grad(gp.sum(), go)


BAG_ERRORS = [
    (dict(input=[0], offsets=[0], padding_idx=5), RuntimeError,
     "padding_idx must be within the number of embeddings, -5 through 4, but got 5"),
    (dict(input=[0], offsets=[0], padding_idx=-6), RuntimeError,
     "padding_idx must be within the number of embeddings, -5 through 4, but got -6"),
    (dict(input=[0], offsets=[0], psw=[1.0]), NotImplementedError,
     "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum' (got "
     "mode='mean'). Please open a feature request on GitHub."),
    (dict(input=[0], offsets=[0], psw=[1.0, 2.0], mode="sum"), ValueError,
     "embedding_bag: If per_sample_weights (torch.Size([2])) is not None, then it must have the same shape as the "
     "input (torch.Size([1]))"),
    (dict(input=[0], offsets=[0], mode="min"), ValueError, "mode has to be one of sum, mean or max"),
    (dict(input=[0], offsets=[0], mode="max", scale_grad_by_freq=True), ValueError,
     "max mode does not support scaling the gradient by the frequency"),
    (dict(input=[0], offsets=[0], mode="max", sparse=True), ValueError, "max mode does not support sparse weights"),
    (dict(input=[0], offsets=[], include_last_offset=True), RuntimeError,
     "include_last_offset: number of offset should be at least 1"),
    (dict(input=[[[0]]], offsets=None), ValueError, "input has to be 1D or 2D Tensor, but got Tensor of dimension 3"),
    (dict(input=[0], offsets=None), ValueError, "offsets has to be a 1D Tensor but got None"),
    (dict(input=[[0]], offsets=[0]), ValueError,
     "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length sequences. "
     "However, found offsets of type <class 'torch.Tensor'>"),
    (dict(input=[0, 1, 2], offsets=[1, 2]), RuntimeError,
     "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. However, got "
     "1\n[ torch.LongTensor{} ]"),
    (dict(input=[0, 1, 2], offsets=[0, 7]), RuntimeError,
     "offsets[-1] can not be greater than input's length 3 but got offsets[-1] of 7"),
    (dict(input=[0, 7], offsets=[0], mode="sum", dtype="float32"), RuntimeError,
     "Index 1 of input takes value 7 which is not in the valid range [0, 5)"),
    (dict(input=[0, -7], offsets=[0], mode="mean", dtype="float32"), RuntimeError,
     "Index 1 of input takes value -7 which is not in the valid range [0, 5)"),
    (dict(input=[0, 7], offsets=[0], mode="sum"), RuntimeError,
     "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 7"),
    (dict(input=[0, 7], offsets=[0], mode="max", dtype="float32"), RuntimeError,
     "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 7"),
    (dict(input=[0, 7], offsets=[0], mode="sum", padding_idx=0, dtype="float32"), RuntimeError,
     "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 7"),
    (dict(input=[0, 1, 2], offsets=[0, 2, 1], mode="sum", dtype="float32"), RuntimeError,
     "Expected i < index_size to be true, but got false.  (Could this error message be improved?  If so, please "
     "report an enhancement request to PyTorch.)"),
    (dict(input=[0, 1, 2], offsets=[0, 2, 1], mode="mean", include_last_offset=True, dtype="float32"), RuntimeError,
     "Your input appears to be incorrect: the last offset value should be the size of the indices tensor, but it "
     "seems not to be the case."),
    (dict(input=[0, 1, 2], offsets=[0, 5, 2], mode="max"), IndexError, "index out of range in self"),
]


@pytest.mark.parametrize("kw, exc, message", BAG_ERRORS)
def test_embedding_bag_errors(kw, exc, message):
    kw = dict(kw)
    dt = getattr(torch, kw.pop("dtype", "float64"))
    psw = kw.pop("psw", None)
    offsets = kw.pop("offsets")
    with pytest.raises(exc, match=exact(message)):
        F.embedding_bag(torch.tensor(kw.pop("input")), torch.tensor(W, dtype=dt),
                        None if offsets is None else torch.tensor(offsets, dtype=torch.long),
                        per_sample_weights=None if psw is None else torch.tensor(psw, dtype=dt), **kw)


def test_embedding_bag_dtype_errors():
    w = torch.ones(2, 2)

    def refused(message, *args, **kw):
        with pytest.raises(RuntimeError, match=exact(message)):
            F.embedding_bag(*args, **kw)

    got = ("Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got "
           "{} instead (while checking arguments for embedding_bag)")
    refused(got.format("torch.FloatTensor"), torch.tensor([0]), w, torch.tensor([0.0]))
    refused(got.format("CPUBoolType"), torch.tensor([True]), w, torch.tensor([False]))
    refused("Expected tensor for argument #1 'weight' to have one of the following scalar types: Half, BFloat16, "
            "Float, Double; but got torch.IntTensor instead (while checking arguments for embedding_bag)",
            torch.tensor([0]), torch.ones(2, 2, dtype=torch.int32), torch.tensor([0]))
    refused("Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
            "'per_sample_weights'; but type torch.FloatTensor does not equal torch.DoubleTensor (while checking "
            "arguments for embedding_bag)", torch.tensor([0]), w, torch.tensor([0]), mode="sum",
            per_sample_weights=torch.ones(1, dtype=torch.float64))
    with pytest.raises(ValueError, match=exact("weight has to be a 2D Tensor, but got Tensor of dimension 1")):
        F.embedding_bag(torch.tensor([0]), torch.ones(2), torch.tensor([0]))
    with pytest.raises(ValueError, match=exact("offsets has to be a 1D Tensor")):
        F.embedding_bag(torch.tensor([0]), w, torch.tensor([[0]]))
    # bool + long indices promote to long
    assert F.embedding_bag(torch.tensor([True]), w, torch.tensor([0])).tolist() == [[1.0, 1.0]]


@leafgrad_only
def test_embedding_bag_sparse_gradients_are_refused():
    with pytest.raises(RuntimeError, match=exact("embedding_bag: sparse gradients are not supported by leafgrad")):
        F.embedding_bag(torch.tensor([0]), torch.ones(2, 2), torch.tensor([0]), sparse=True)
    with pytest.raises(RuntimeError, match="sparse gradients are not supported by leafgrad"):
        torch.nn.EmbeddingBag(3, 2, sparse=True)(torch.tensor([0]), torch.tensor([0]))


def test_embedding_bag_module():
    bag = torch.nn.EmbeddingBag(10, 3)
    assert repr(bag) == "EmbeddingBag(10, 3, mode='mean')"
    assert bag.weight.shape == (10, 3) and bag.weight.requires_grad and list(bag.state_dict()) == ["weight"]
    bag = torch.nn.EmbeddingBag(10, 3, max_norm=1.0, norm_type=1., scale_grad_by_freq=True, mode="sum", sparse=True,
                                include_last_offset=True, padding_idx=-2)
    assert repr(bag) == ("EmbeddingBag(10, 3, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, mode='sum', "
                         "padding_idx=8)")
    assert bag.padding_idx == 8 and bag.weight[8].tolist() == [0.0, 0.0, 0.0]
    bag.weight.data.fill_(1.0)
    bag.reset_parameters()
    assert bag.weight[8].tolist() == [0.0, 0.0, 0.0] and bag.weight[0].tolist() != [1.0, 1.0, 1.0]
    assert torch.nn.EmbeddingBag(4, 2, dtype=torch.float64).weight.dtype == torch.float64
    frozen = torch.nn.EmbeddingBag.from_pretrained(torch.tensor([[1., 2.], [3., 4.]]))
    assert repr(frozen) == "EmbeddingBag(2, 2, mode='mean')" and not frozen.weight.requires_grad
    trained = torch.nn.EmbeddingBag.from_pretrained(torch.tensor([[1., 2.], [3., 4.]]), freeze=False, mode="max")
    r = trained(torch.tensor([[0, 1]]))
    assert trained.weight.requires_grad and r.tolist() == [[3.0, 4.0]] and grad_fn_name(r) == "EmbeddingBagBackward0"
    r = frozen(torch.tensor([0, 1, 1]), torch.tensor([0, 1]), None)
    assert r.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    with pytest.raises(AssertionError, match=exact("padding_idx must be within num_embeddings")):
        torch.nn.EmbeddingBag(10, 3, padding_idx=10)
    with pytest.raises(AssertionError, match=exact("Shape of weight does not match num_embeddings and embedding_dim")):
        torch.nn.EmbeddingBag(2, 3, _weight=torch.ones(3, 3))
    with pytest.raises(AssertionError, match=exact("Embeddings parameter is expected to be 2-dimensional")):
        torch.nn.EmbeddingBag.from_pretrained(torch.ones(3))


def test_embedding_bag_text_classification_model_trains_as_in_pytorch():
    # pytorch/tutorials' text classification model, a few SGD steps from a seed
    class TextClassificationModel(torch.nn.Module):
        def __init__(self, vocab_size, embed_dim, num_class):
            super().__init__()
            self.embedding = torch.nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
            self.fc = torch.nn.Linear(embed_dim, num_class)
            self.embedding.weight.data.uniform_(-0.5, 0.5)
            self.fc.weight.data.uniform_(-0.5, 0.5)
            self.fc.bias.data.zero_()

        def forward(self, text, offsets):
            return self.fc(self.embedding(text, offsets))

    torch.manual_seed(0)
    model = TextClassificationModel(20, 4, 3)
    opt = torch.optim.SGD(model.parameters(), lr=5)
    text, offsets, label = torch.tensor([1, 5, 7, 2, 19, 3, 3, 0]), torch.tensor([0, 3, 5]), torch.tensor([0, 2, 1])
    for _ in range(5):
        opt.zero_grad()
        loss = F.cross_entropy(model(text, offsets), label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        opt.step()
    assert loss.item() == pytest.approx(0.45627, abs=5e-5)


# ------------------------------------------------------------------------------------------------
# cholesky_solve / cholesky_inverse

L = [[2.0, 0.0, 0.0], [1.0, 2.0, 0.0], [0.3, 0.35, 1.6695807857064]]
B = [[1., 2.], [0., -1.], [3., 0.5]]
G = [[0.3, -1.], [2., 0.5], [1., 1.]]
GI = [[0.3, -1., 2.], [0.5, 1., 1.], [-2., 0.25, 1.]]
# (X, B.grad, factor.grad) and (inverse, factor.grad) for the gradients G and GI, from PyTorch 2.15
SOLVE = {False: ([[0.24663677130044845, 0.7376681614349776], [-0.3094170403587444, -0.5345291479820627], [1.053811659192825, 0.1973094170403588]], [[-0.1704035874439462, -0.39686098654708524], [0.4228699551569507, 0.18878923766816144], [0.22645739910313906, 0.34977578475336324]], [[0.81390134529148, -1.0364349775784754, -0.09348564615816667], [-0.6210762331838565, 0.847982062780269, -0.37705821327819666], [-0.5224215246636772, -0.6670403587443947, -1.027318113411292]]),
         True: ([[0.24663677130044845, 0.7376681614349776], [-0.3094170403587444, -0.5345291479820627], [1.053811659192825, 0.1973094170403588]], [[-0.1704035874439462, -0.39686098654708524], [0.4228699551569507, 0.18878923766816144], [0.22645739910313906, 0.34977578475336324]], [[0.81390134529148, -0.6210762331838565, -0.5224215246636772], [-1.0364349775784754, 0.847982062780269, -0.6670403587443947], [-0.09348564615816667, -0.37705821327819666, -1.027318113411292]])}
INVERSE = {False: ([[0.31390134529147984, -0.1210762331838565, -0.022421524663677125], [-0.1210762331838565, 0.2609865470852018, -0.06278026905829596], [-0.022421524663677125, -0.06278026905829596, 0.3587443946188341]], [[-0.12443946188340811, 0.27578475336322866, 0.08205384062149736], [0.10156950672645743, -0.3028026905829596, -0.07496645692460782], [-0.008968609865470878, -0.16255605381165922, -0.34705014341424645]]),
           True: ([[0.31390134529147984, -0.1210762331838565, -0.022421524663677132], [-0.1210762331838565, 0.2609865470852018, -0.06278026905829596], [-0.022421524663677132, -0.06278026905829596, 0.3587443946188341]], [[-0.12443946188340814, 0.10156950672645738, -0.008968609865470864], [0.2757847533632287, -0.3028026905829596, -0.16255605381165925], [0.08205384062149737, -0.0749664569246078, -0.34705014341424645]])}


def factor(upper, **kw):
    f = torch.tensor(L, dtype=torch.float64)
    return (f.mT.contiguous() if upper else f).requires_grad_(kw.get("requires_grad", True))


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve_values_and_gradients(upper):
    f, b = factor(upper), torch.tensor(B, dtype=torch.float64, requires_grad=True)
    x = torch.cholesky_solve(b, f, upper)
    assert grad_fn_name(x) == "CholeskySolveBackward0"
    x.backward(torch.tensor(G, dtype=torch.float64))
    want_x, want_b, want_f = SOLVE[upper]
    assert x.tolist() == approx(want_x, rel=1e-12)
    assert b.grad.tolist() == approx(want_b, rel=1e-12)
    assert f.grad.tolist() == approx(want_f, rel=1e-12)  # the whole matrix, as PyTorch's
    assert torch.tensor(B).cholesky_solve(f.detach().float(), upper).tolist() == approx(want_x, rel=1e-5)
    # the factor's other triangle is not read
    junk = f.detach() + (torch.ones(3, 3, dtype=torch.float64).tril(-1) if upper else
                         torch.ones(3, 3, dtype=torch.float64).triu(1)) * 5
    assert torch.cholesky_solve(b.detach(), junk, upper).tolist() == approx(want_x, rel=1e-12)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_inverse_values_and_gradients(upper):
    f = factor(upper)
    x = torch.cholesky_inverse(f, upper)
    assert grad_fn_name(x) == "CholeskyInverseBackward0"
    x.backward(torch.tensor(GI, dtype=torch.float64))
    want_x, want_f = INVERSE[upper]
    assert x.tolist() == approx(want_x, rel=1e-12)
    assert x.tolist() == [list(r) for r in zip(*x.tolist())]  # exactly symmetric
    assert f.grad.tolist() == approx(want_f, rel=1e-12)
    assert f.detach().cholesky_inverse(upper).tolist() == approx(want_x, rel=1e-12)


def test_cholesky_batches_broadcast_and_gradcheck():
    f = torch.tensor(L, dtype=torch.float64)
    fs = torch.stack([f, 2 * f])
    b = torch.tensor(B, dtype=torch.float64)
    x = torch.cholesky_solve(b.expand(4, 1, 3, 2), fs, True)
    assert x.shape == (4, 2, 3, 2)
    assert x[1, 1].tolist() == approx(torch.cholesky_solve(b, 2 * f, True).tolist(), rel=1e-12)
    assert torch.cholesky_inverse(fs).shape == (2, 3, 3)
    assert torch.cholesky_inverse(fs)[1].tolist() == approx((torch.cholesky_inverse(f) / 4).tolist())
    # gradcheck through the triangle the functions read
    bb = b.clone().requires_grad_()
    m = f.clone().requires_grad_()
    for upper in (False, True):
        tri = (lambda t: t.mT.triu()) if upper else (lambda t: t.tril())
        assert torch.autograd.gradcheck(lambda x, t: torch.cholesky_solve(x, tri(t), upper), (bb, m))
        assert torch.autograd.gradgradcheck(lambda x, t: torch.cholesky_solve(x, tri(t), upper), (bb, m))
        assert torch.autograd.gradcheck(lambda t: torch.cholesky_inverse(tri(t), upper), (m,))
        assert torch.autograd.gradgradcheck(lambda t: torch.cholesky_inverse(tri(t), upper), (m,))
    fb = fs.clone().requires_grad_()
    torch.cholesky_solve(b, fb).sum().backward()  # b broadcast against the batch of factors
    assert fb.grad.shape == (2, 3, 3)
    cf = torch.tensor([[2., 0.], [1 + 1j, 3.]], dtype=torch.complex128)
    assert torch.cholesky_solve(torch.tensor([[1.], [1j]], dtype=torch.complex128), cf).tolist() == [
        [pytest.approx(0.25 - 0.05555555555555555j)], [pytest.approx(-0.05555555555555555 + 0.05555555555555555j)]]


def test_cholesky_errors_and_out():
    f, b = torch.tensor([[2., 0.], [1., 3.]]), torch.tensor([[1., 2., 3.], [4., 5., 6.]])

    def refused(exc, message, fn, *args, **kw):
        with pytest.raises(exc, match=exact(message)):
            fn(*args, **kw)

    solve, inverse = torch.cholesky_solve, torch.cholesky_inverse
    refused(RuntimeError, "b should have at least 2 dimensions, but has 1 dimensions instead", solve, torch.ones(2), f)
    refused(RuntimeError, "u should have at least 2 dimensions, but has 1 dimensions instead", solve, b, torch.ones(2))
    refused(RuntimeError, "Expected b and A to have the same dtype, but found b of type Double and A of type Float "
            "instead.", solve, b.double(), torch.ones(2, 3))
    refused(RuntimeError, "A must be batches of square matrices, but they are 2 by 3 matrices", solve, b,
            torch.ones(2, 3))
    refused(RuntimeError, "Incompatible matrix sizes for cholesky_solve: each A matrix is 2 by 2 but each b matrix is "
            "3 by 1", solve, torch.ones(3, 1), f)
    refused(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0",
            solve, torch.ones(3, 2, 1), torch.ones(2, 2, 2))
    refused(NotImplementedError, "\"cholesky_solve_cpu\" not implemented for 'Long'", solve, b.long(), f.long())
    refused(TypeError, "cholesky_solve(): argument 'input2' (position 2) must be Tensor, not float", solve, b, 2.0)
    refused(TypeError, "cholesky_solve(): argument 'input2' (position 1) must be Tensor, not float", b.cholesky_solve,
            2.0)
    refused(RuntimeError, "cholesky_solve: Expected result to be safely castable from Float dtype, but got result with "
            "dtype Long", solve, b, f, out=torch.empty(0, dtype=torch.long))
    refused(RuntimeError, "cholesky_solve(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.", solve, b, f.clone().requires_grad_(),
            out=torch.empty(0))
    refused(RuntimeError, "cholesky_inverse: The input tensor A must have at least 2 dimensions.", inverse,
            torch.ones(2))
    refused(RuntimeError, "cholesky_inverse: A must be batches of square matrices, but they are 2 by 3 matrices",
            inverse, torch.ones(2, 3))
    refused(NotImplementedError, "\"cholesky_inverse_out_cpu\" not implemented for 'Long'", inverse,
            torch.ones(2, 2, dtype=torch.long))
    refused(torch.linalg.LinAlgError, "cholesky_inverse: The diagonal element 1 is zero, the inversion could not be "
            "completed because the input matrix is singular.", inverse, torch.zeros(2, 2))
    refused(torch.linalg.LinAlgError, "cholesky_inverse: (Batch element 1): The diagonal element 1 is zero, the "
            "inversion could not be completed because the input matrix is singular.", inverse,
            torch.stack([torch.eye(2), torch.zeros(2, 2)]))
    refused(torch.linalg.LinAlgError, "cholesky_inverse: The diagonal element 2 is zero, the inversion could not be "
            "completed because the input matrix is singular.", inverse, torch.tensor([[1., 5.], [0., 0.]]), True)
    refused(RuntimeError, "cholesky_inverse: Expected result to be safely castable from Float dtype, but got result "
            "with dtype Long", inverse, f, out=torch.empty(0, dtype=torch.long))
    o = torch.empty(0, dtype=torch.float64)
    assert solve(b, f, out=o) is o and o.dtype == torch.float64 and o.shape == (2, 3)
    o = torch.empty(0)
    assert inverse(f, out=o) is o and o.tolist() == approx([[0.2777778, -0.0555556], [-0.0555556, 0.1111111]], rel=1e-6)
    assert all(math.isnan(v) or math.isinf(v) for v in solve(b, torch.zeros(2, 2)).flatten().tolist())
    assert solve(torch.ones(0, 3), torch.ones(0, 0)).shape == (0, 3) and inverse(torch.ones(0, 0)).shape == (0, 0)


# ------------------------------------------------------------------------------------------------
# renorm

X = [[1., 2., 3.], [0.1, 0.2, 0.2], [4., 0., -3.]]
GR = [[1., -1., 2.], [0.5, 0.5, 0.5], [3., 1., 0.]]
# renorm(X, p, dim, maxnorm) and X.grad for the gradient GR, from PyTorch 2.15
RENORM = {
    (2, 0, 1.0): ([[0.2672612347695674, 0.5345224695391348, 0.8017837043087023], [0.1, 0.2, 0.2], [0.7999999840000003, 0.0, -0.5999999880000002]], [[0.1718107963314565, -0.4581621116457893, 0.248171154224802], [0.5, 0.5, 0.5], [0.21600000335999972, 0.19999999600000007, 0.2879999884800003]]),
    (1, 1, 2.0): ([[0.39215685505574793, 1.8181817355371939, 0.9677419198751303], [0.0392156855055748, 0.1818181735537194, 0.06451612799167536], [1.5686274202229917, 0.0, -0.9677419198751303]], [[-0.6113033132053293, -0.12396697220134943, 0.32778355862508807], [-0.8073817407332032, 1.239669329451546, -0.1560874013124771], [0.17301039690616665, 0.9090908677685969, 0.31737772129166547]]),
    (inf, -1, 1.5): ([[0.3749999906250002, 1.4999999250000038, 1.4999999500000016], [0.037499999062500025, 0.14999999250000037, 0.09999999666666678], [1.499999962500001, 0.0, -1.4999999500000016]], [[0.3749999906250002, -0.03750003374999647, 0.4916666672222217], [0.1874999953125001, 0.374999981250001, 0.24999999166666698], [-0.0984374669531266, 0.749999962500002, 0.5083332994444462]]),
    (3, 0, 2.5): ([[0.7571335574166753, 1.5142671148333506, 2.271400672250026], [0.1, 0.2, 0.2], [2.2232392082782586, 0.0, -1.667429406208694]], [[0.6519761220713105, -1.1777632987981346, 0.5678501967250674], [0.5, 0.5, 0.5], [0.4947318279140129, 0.5558098020695647, 0.6596423877907581]]),
}


@pytest.mark.parametrize("key", sorted(RENORM, key=str))
def test_renorm_values_and_gradients(key):
    p, dim, maxnorm = key
    x = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    r = torch.renorm(x, p, dim, maxnorm)
    assert grad_fn_name(r) == "RenormBackward0"
    r.backward(torch.tensor(GR, dtype=torch.float64))
    want, want_grad = RENORM[key]
    assert r.tolist() == approx(want, rel=1e-12)
    assert x.grad.tolist() == approx(want_grad, rel=1e-12)


def test_renorm_float32_methods_and_in_place():
    want = [[0.26726123690605164, 0.5345224738121033, 0.8017836809158325],
            [0.10000000149011612, 0.20000000298023224, 0.20000000298023224],
            [0.800000011920929, 0.0, -0.6000000238418579]]
    assert torch.renorm(torch.tensor(X), 2, 0, 1.0).tolist() == approx(want, rel=1e-6)
    assert torch.tensor(X).renorm(p=2, dim=0, maxnorm=1.0).tolist() == approx(want, rel=1e-6)
    y = torch.tensor(X)
    assert y.renorm_(2, 0, 1.0) is y and y.tolist() == approx(want, rel=1e-6)
    a = torch.tensor(X, requires_grad=True)
    y = a * 1
    y.renorm_(2, 0, 1.0)
    assert grad_fn_name(y) == "RenormBackward0"
    h = torch.renorm(torch.tensor(X, dtype=torch.float16), 2, 0, 1.0)
    assert h.dtype == torch.float16 and h[0].tolist() == [0.267333984375, 0.53466796875, 0.8017578125]
    c = torch.renorm(torch.tensor([[3 + 4j, 1j], [0.1, 0.2j]]), 2, 0, 1.0)
    assert c[0].tolist() == [pytest.approx(0.5883484 + 0.7844645j), pytest.approx(0.1961161j)]
    assert torch.renorm(torch.zeros(0, 3), 2, 0, 1.0).shape == (0, 3)
    r = torch.renorm(torch.tensor([[nan, 1.0], [inf, 1.0], [1.0, 1.0]]), 2, 0, 1.0).tolist()
    assert math.isnan(r[0][0]) and r[0][1] == 1.0 and math.isnan(r[1][0]) and r[1][1] == 0.0
    o = torch.empty(0)
    assert torch.renorm(torch.tensor(X), 2, 0, 1.0, out=o) is o and o.tolist() == approx(want, rel=1e-6)


def test_renorm_gradcheck():
    x = torch.tensor([[1., 2., 3.], [0.1, 0.2, 0.25], [4., 0.5, -3.]], dtype=torch.float64, requires_grad=True)
    for p in (0.5, 1, 1.5, 2, 3):
        assert torch.autograd.gradcheck(lambda t: torch.renorm(t, p, 1, 1.0), (x,))
        assert torch.autograd.gradgradcheck(lambda t: torch.renorm(t, p, 1, 1.0), (x,))
    assert torch.autograd.gradcheck(lambda t: torch.renorm(t, inf, 0, 1.0), (x,))
    # second derivatives at a zero entry, as PyTorch's norm_backward gives them
    z = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad((torch.renorm(z, 2, 0, 1.0) * torch.tensor(GR, dtype=torch.float64)).sum(), z,
                             create_graph=True)
    h, = torch.autograd.grad((g * g).sum(), z)
    assert h[2].tolist() == pytest.approx([-0.09574399508480019, -0.038399998464000024, -0.014592000230399915])


def test_renorm_errors():
    x = torch.ones(2, 3)
    cases = [
        ((x, 0, 0, 1.0), RuntimeError, "renorm: non-positive-norm not supported"),
        ((x, nan, 0, 1.0), RuntimeError, "renorm: non-positive-norm not supported"),
        ((x, 0, 0, -1.0), RuntimeError, "renorm: non-positive-norm not supported"),
        ((x, 1j, 0, 1.0), RuntimeError, "renorm: p must be real-valued"),
        ((x, 2, 0, -1.0), RuntimeError, "renorm: expected maxnorm to be >= 0 but got -1"),
        ((x, 2, 0, -1.5), RuntimeError, "renorm: expected maxnorm to be >= 0 but got -1.5"),
        ((x, 2, 0, -123456789.0), RuntimeError, "renorm: expected maxnorm to be >= 0 but got -1.23457e+08"),
        ((torch.ones(3), 1, 5, 1.0), RuntimeError, "renorm: input needs at least 2 dimensions, got 1 dimensions"),
        ((torch.tensor(3.), 1, 0, 1.0), RuntimeError, "renorm: input needs at least 2 dimensions, got 0 dimensions"),
        ((torch.ones(2, 2, dtype=torch.long), 1, 5, 1.0), IndexError,
         "Dimension out of range (expected to be in range of [-2, 1], but got 5)"),
        ((torch.ones(2, 2, dtype=torch.long), 2, 0, 1.0), NotImplementedError,
         "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"),
        ((x, "a", 0, 1.0), TypeError, "renorm(): argument 'p' (position 2) must be Number, not str"),
        ((x, 2, 0.5, 1.0), TypeError, "renorm(): argument 'dim' (position 3) must be int, not float"),
    ]
    for args, exc, message in cases:
        with pytest.raises(exc, match=exact(message)):
            torch.renorm(*args)
    with pytest.raises(RuntimeError, match=exact("Expected out tensor to have dtype float, but got long int instead")):
        torch.renorm(x, 2, 0, 1.0, out=torch.empty(0, dtype=torch.long))
    with pytest.raises(RuntimeError, match=exact("renorm(): functions with out=... arguments don't support automatic "
                                                 "differentiation, but one of the arguments requires grad.")):
        torch.renorm(x.clone().requires_grad_(), 2, 0, 1.0, out=torch.empty(0))
    with pytest.raises(RuntimeError, match=exact("a leaf Variable that requires grad is being used in an in-place "
                                                 "operation.")):
        torch.ones(2, 2, requires_grad=True).renorm_(2, 0, 1.0)
    assert torch.renorm(x, 2, 0, torch.tensor(1.0)).tolist() == approx([[0.5773503] * 3] * 2, rel=1e-6)


# ------------------------------------------------------------------------------------------------
# pin_memory, is_pinned, share_memory_, is_shared

NO_DRIVER = ("Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver "
             "from http://www.nvidia.com/Download/index.aspx")


def deprecation(method):
    return re.escape(f"The argument 'device' of Tensor.{method}() is deprecated. Please do not pass this argument.")


@pytest.mark.skipif(torch.cuda.is_available(), reason="PyTorch's behaviour on a machine without a usable GPU")
def test_pinned_memory_without_a_gpu():
    x = torch.tensor([1.0, 2.0])
    assert x.is_pinned() is False
    with pytest.raises(RuntimeError, match=exact(NO_DRIVER)):
        x.pin_memory()
    with pytest.warns(DeprecationWarning, match=deprecation("is_pinned")):
        assert x.is_pinned("cuda") is False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match=exact("CPU device type not an accelerator.")):
            x.pin_memory("cpu")
    assert [(w.category, re.match(deprecation(m), str(w.message)) is not None, os.path.basename(w.filename))
            for w, m in zip(caught, ("pin_memory", "is_pinned"))] == [
        (DeprecationWarning, True, "test_missing_names.py")] * 2 and len(caught) == 2
    meta = torch.empty(2, device="meta")
    assert meta.is_pinned() is False
    with pytest.raises(RuntimeError, match=exact("cannot pin 'MetaFloatType' only dense CPU tensors can be pinned")):
        meta.pin_memory()
    with pytest.raises(RuntimeError, match=exact("cannot pin 'MetaLongType' only dense CPU tensors can be pinned")):
        torch.empty(2, device="meta", dtype=torch.long).pin_memory()


def test_share_memory():
    x = torch.tensor([1.0, 2.0])
    assert x.is_shared() is False
    assert x.share_memory_() is x and x.is_shared() is True and x.tolist() == [1.0, 2.0]
    assert x.share_memory_() is x and x.is_shared() and x.is_pinned() is False
    assert x.clone().is_shared() is False
    assert x.untyped_storage().is_shared() and not torch.tensor([1.0]).untyped_storage().is_shared()
    y = torch.tensor([1.0, 2.0], requires_grad=True)
    assert y.share_memory_() is y and y.is_shared() and y.is_leaf and y.requires_grad
    z = (y * 2).share_memory_()
    assert z.is_shared() and grad_fn_name(z) == "MulBackward0"
    base = torch.tensor([1.0, 2.0, 3.0])
    view = base[1:]
    view.share_memory_()
    assert view.is_shared() and base.is_shared()
    view[0] = 7.0
    assert base.tolist() == [1.0, 7.0, 3.0]  # still the same memory
    assert torch.empty(0).share_memory_().is_shared()
    assert torch.tensor([1, 2]).share_memory_().is_shared()
    meta = torch.empty(2, device="meta")
    assert meta.is_shared() is False
    with pytest.raises(RuntimeError, match=exact("_share_fd_: only available on CPU")):
        meta.share_memory_()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_shared_memory_is_seen_by_a_forked_process():
    shared, private = torch.zeros(3).share_memory_(), torch.zeros(3)
    pid = os.fork()
    if pid == 0:
        shared.add_(5)
        private.add_(5)
        os._exit(0)
    os.waitpid(pid, 0)
    assert shared.tolist() == [5.0, 5.0, 5.0] and private.tolist() == [0.0, 0.0, 0.0]


def test_module_share_memory_moves_parameters_buffers_and_grads():
    torch.manual_seed(0)
    m = torch.nn.Linear(3, 2)
    w0 = m.weight.detach().clone()
    m(torch.ones(1, 3)).sum().backward()
    assert m.share_memory() is m
    assert m.weight.is_shared() and m.bias.is_shared() and m.weight.grad.is_shared()
    assert torch.equal(m.weight.detach(), w0) and m.weight.is_leaf and m.weight.requires_grad
    m(torch.ones(1, 3)).sum().backward()
    assert m.weight.grad.tolist() == [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]
    bn = torch.nn.BatchNorm1d(2).share_memory()
    assert bn.running_mean.is_shared() and bn.num_batches_tracked.is_shared()


def test_special_aliases_are_the_torch_ops():
    # torch.special.logit/i0/sinc are torch.logit/i0/sinc: values and nodes from PyTorch 2.15
    x = torch.tensor([0.25, 0.5, 2.0], requires_grad=True)
    for y, node, values, grads in [
        (torch.special.logit(x, eps=0.3), "LogitBackward0", [-0.8473, 0.0, 0.8473], [0.0, 4.0, 0.0]),
        (torch.special.i0(x), "I0Backward0", [1.0157, 1.0635, 2.2796], [0.1260, 0.2579, 1.5906]),
        (torch.special.sinc(x), "SincBackward0", [0.9003, 0.6366, 0.0], [-0.7728, -1.2732, 0.5]),
    ]:
        assert grad_fn_name(y) == node
        assert y.tolist() == pytest.approx(values, abs=1e-4)
        assert torch.autograd.grad(y.sum(), x)[0].tolist() == pytest.approx(grads, abs=1e-4)
    out = torch.empty(3)
    assert torch.special.i0(x.detach(), out=out) is out
