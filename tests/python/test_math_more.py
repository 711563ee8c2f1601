"""PyTorch's aliases and in-place forms (multiply, subtract, divide with rounding_mode, abs_,
cumsum_, tril_, logical_and_, greater_, ...) and the math of leafgrad's _math_* modules (float_power,
copysign, fmax/fmin, gcd/lcm, heaviside, logaddexp2, ldexp, frexp, nextafter, i0, sinc,
nansum/nanmean, dist, inner, vdot, ger, addmv, addr, baddbmm, addbmm, addmm, diagflat,
fliplr/flipud, cov/corrcoef, the trapezoid rules, block_diag, combinations, unravel_index, range,
scalar_tensor, rsub, polar): values, dtypes, nodes, gradients and errors as PyTorch 2.15 gives
them (these expectations run against it with LEAFGRAD_TEST_TORCH=1)."""
import doctest
import importlib
import math
import struct
import warnings

import pytest
from support import with_real_leafgrad

import leafgrad as torch

nan, inf = math.nan, math.inf


def same(a, b):
    """Nested lists equal, NaN equal to NaN, and zeros of the same sign."""
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    if isinstance(a, float) and a == 0 and isinstance(b, float):
        return b == 0 and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def bits(t):
    """The float64 bit patterns of a float tensor's values (NaN's sign kept)."""
    return [struct.pack(">d", v).hex() for v in t.double().reshape(-1).tolist()]


def grads(f, *inputs):
    """`f(*inputs)` and the gradients of its sum."""
    r = f(*inputs)
    return r, torch.autograd.grad(r.sum(), [x for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad])


def f64(values, grad=True):
    return torch.tensor(values, dtype=torch.float64, requires_grad=grad)


def nonleaf(values, dtype=None):
    return torch.tensor(values, dtype=dtype, requires_grad=True).clone()


# ------------------------------------------------------------------------------------------------
# Aliases and in-place forms


def test_multiply_subtract_aliases():
    x = torch.tensor([1., 2.], requires_grad=True)
    r = torch.multiply(x, torch.tensor([3., 4.]))
    assert r.tolist() == [3.0, 8.0] and r.grad_fn.name() == "MulBackward0"
    assert x.multiply(2).tolist() == [2.0, 4.0]
    r = torch.subtract(x, torch.tensor([1., 2.]), alpha=2)
    assert r.tolist() == [-1.0, -2.0] and r.grad_fn.name() == "SubBackward0"
    assert torch.tensor([5, 6]).subtract(1, alpha=2).tolist() == [3, 4]
    y = nonleaf([1., 2.])
    v = y._version
    assert y.multiply_(torch.tensor(3.)) is y and y.tolist() == [3.0, 6.0] and y.grad_fn.name() == "MulBackward0"
    y.subtract_(torch.tensor([1., 2.]), alpha=3)
    assert y.tolist() == [0.0, 0.0] and y.grad_fn.name() == "SubBackward0" and y._version == v + 2
    with pytest.raises(TypeError, match=r"multiply\(\) received an invalid combination of arguments - got "
                                        r"\(Tensor, str\)"):
        torch.multiply(x, "a")
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating point"):
        torch.tensor([5, 6]).subtract(1, alpha=2.5)
    with pytest.raises(RuntimeError, match="output with shape \\[1\\] doesn't match the broadcast shape \\[2\\]"):
        torch.tensor([5.]).multiply_(torch.tensor([1., 2.]))


def test_divide_rounding_modes_are_pytorchs():
    a = torch.tensor([7., -7., 0., -0., 5.3, -5.3, 1., -1., inf, nan])
    b = torch.tensor([2., 2., 3., -3., 0.1, 0.1, 0., 0., 2., 1.])
    r = torch.divide(a, b, rounding_mode="floor")
    assert r.dtype == torch.float32
    assert same(r.tolist(), [3.0, -4.0, 0.0, 0.0, 53.0, -54.0, inf, -inf, nan, nan])
    assert same(torch.divide(a, b, rounding_mode="trunc").tolist(),
                [3.0, -3.0, 0.0, 0.0, 53.0, -53.0, inf, -inf, inf, nan])
    assert same(torch.divide(torch.tensor([-0.5, 0.5]), 3., rounding_mode="floor").tolist(), [-1.0, 0.0])
    assert same(torch.divide(torch.tensor([0., -0.]), -3., rounding_mode="floor").tolist(), [-0.0, 0.0])
    assert torch.divide(torch.tensor([5.3, -5.3], dtype=torch.float64), 0.1, rounding_mode="floor").tolist() == \
        [52.0, -53.0]
    # the 16-bit floats: each step of PyTorch's floor division rounded to the dtype
    r = torch.tensor([-34.375, -79.75, 5., -0.], dtype=torch.float16).divide(
        torch.tensor([-0.0243682861328125, 0.095703125, 0.3, 3.], dtype=torch.float16), rounding_mode="floor")
    assert r.dtype == torch.float16 and same(r.tolist(), [1409.0, -835.0, 16.0, -0.0])
    r = torch.divide(torch.tensor([58.25, 152.0, 75.0], dtype=torch.bfloat16),
                     torch.tensor([0.1767578125, 0.095703125, -0.71875], dtype=torch.bfloat16), rounding_mode="floor")
    assert r.tolist() == [330.0, 1592.0, -106.0]
    i, j = torch.tensor([7, -7, 0, 5, -128], dtype=torch.int8), torch.tensor([2, 2, 3, -2, -1], dtype=torch.int8)
    r = i.divide(j, rounding_mode="trunc")
    assert r.dtype == torch.int8 and r.tolist() == [3, -3, 0, -2, -128]
    assert torch.divide(i, j, rounding_mode="floor").tolist() == [3, -4, 0, -3, -128]
    assert torch.divide(torch.tensor([5, 251], dtype=torch.uint8), 2, rounding_mode="floor").tolist() == [2, 125]
    r = torch.divide(torch.tensor([5, -5]), 2.5, rounding_mode="floor")
    assert r.dtype == torch.float32 and r.tolist() == [2.0, -2.0]
    r = torch.divide(torch.tensor([7, -7]), 2)
    assert r.dtype == torch.float32 and r.tolist() == [3.5, -3.5]
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        torch.divide(torch.tensor([5, -5]), torch.tensor([0, 2]), rounding_mode="trunc")
    with pytest.raises(NotImplementedError, match="\"div_floor_cpu\" not implemented for 'Bool'"):
        torch.divide(torch.tensor([True]), True, rounding_mode="floor")
    with pytest.raises(NotImplementedError, match="\"div_trunc_cpu\" not implemented for 'ComplexFloat'"):
        torch.divide(torch.tensor([1 + 1j]), 2, rounding_mode="trunc")
    with pytest.raises(RuntimeError, match="div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                                           "found 'bad'"):
        torch.divide(torch.tensor([1.]), 2, rounding_mode="bad")
    with pytest.raises(TypeError, match=r"divide\(\) received an invalid combination of arguments - got "
                                        r"\(int, str\)"):
        torch.tensor([1.]).divide(2, "floor")


def test_divide_gradients_and_in_place():
    x = torch.tensor([5., -3.], requires_grad=True)
    y = torch.tensor([2.], requires_grad=True)
    r = x.divide(y, rounding_mode="trunc")
    assert r.grad_fn.name() == "DivBackward2"
    gx, gy = torch.autograd.grad(r.sum(), (x, y))
    assert gx.tolist() == [0.0, 0.0] and gy.tolist() == [0.0]
    assert torch.divide(x, y).grad_fn.name() == "DivBackward0"
    z = nonleaf([5., -3.])
    assert z.divide_(torch.tensor(2.), rounding_mode="floor") is z
    assert z.tolist() == [2.0, -2.0] and z.grad_fn.name() == "DivBackward2"
    z = nonleaf([5., -3.])
    z.divide_(2)
    assert z.tolist() == [2.5, -1.5] and z.grad_fn.name() == "DivBackward0"
    z = nonleaf([5., -3.])
    z.true_divide_(2)
    assert z.tolist() == [2.5, -1.5] and z.grad_fn.name() == "DivBackward0"
    assert torch.tensor([5, -5]).divide_(2, rounding_mode="trunc").tolist() == [2, -2]
    for f in (lambda t: t.divide_(2), lambda t: t.true_divide_(2)):
        with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
            f(torch.tensor([5, -5]))


def test_floor_divide_in_place():
    z = nonleaf([5., -3., 5.3, inf])
    z.floor_divide_(torch.tensor([2., 2., 0.1, 2.]))
    assert same(z.tolist(), [2.0, -2.0, 53.0, nan]) and z.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::floor_divide_ is not implemented"):
        z.sum().backward()
    assert torch.tensor([5, -5]).floor_divide_(2).tolist() == [2, -3]
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        torch.tensor([5, -5]).floor_divide_(0)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.tensor([5, -5]).floor_divide_(2.5)


def test_negative_absolute_and_unary_in_place_forms():
    x = torch.tensor([1., -2.], requires_grad=True)
    assert torch.negative(x).grad_fn.name() == "NegBackward0" and x.negative().tolist() == [-1.0, 2.0]
    assert torch.absolute(x).grad_fn.name() == "AbsBackward0" and x.absolute().tolist() == [1.0, 2.0]
    out = torch.empty(2)
    assert torch.absolute(torch.tensor([1., -2.]), out=out) is out and out.tolist() == [1.0, 2.0]
    cases = [
        (lambda t: torch.negative_(t), [1., -2.], [-1.0, 2.0], "NegBackward0"),
        (lambda t: torch.abs_(t), [1., -2.], [1.0, 2.0], "AbsBackward0"),
        (lambda t: t.absolute_(), [1., -2.], [1.0, 2.0], "AbsBackward0"),
        (lambda t: t.sign_(), [1., -0., nan, -2.], [1.0, 0.0, 0.0, -1.0], "SignBackward0"),
        (lambda t: t.sgn_(), [1., -0., -2.], [1.0, 0.0, -1.0], "SgnBackward0"),
        (lambda t: torch.square_(t), [3., -2.], [9.0, 4.0], "PowBackward0"),
        (lambda t: torch.deg2rad_(t), [180., 90.], [3.1415927410125732, 1.5707963705062866], "Deg2RadBackward0"),
        (lambda t: t.rad2deg_(), [math.pi, 1.], [180.0, 57.295780181884766], "Rad2DegBackward0"),
    ]
    for f, values, expected, node in cases:
        t = nonleaf(values)
        v = t._version
        assert f(t) is t and same(t.tolist(), expected) and t.grad_fn.name() == node and t._version == v + 1
    t = torch.tensor([3 + 4j, 0j], requires_grad=True).clone()
    t.sgn_()
    assert t.tolist() == [(0.6000000238418579 + 0.800000011920929j), 0j] and t.grad_fn.name() == "SgnBackward0"
    assert torch.abs_(torch.tensor([-1, 2], dtype=torch.int8)).tolist() == [1, 2]
    assert torch.square_(torch.tensor([3, -2])).tolist() == [9, 4]
    with pytest.raises(NotImplementedError, match="\"abs_cpu\" not implemented for 'Bool'"):
        torch.tensor([True]).abs_()
    with pytest.raises(NotImplementedError, match="Negation, the `-` operator, on a bool tensor is not supported"):
        torch.negative(torch.tensor([True]))
    with pytest.raises(NotImplementedError, match="Unlike NumPy, torch.sign is not intended to support complex"):
        torch.tensor([1 + 1j]).sign_()
    with pytest.raises(RuntimeError, match="result type Long can't be cast to the desired output type Bool"):
        torch.tensor([True]).square_()
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.deg2rad_(torch.tensor([180, 90]))
    with pytest.raises(NotImplementedError, match="rad2deg is not supported for complex tensors."):
        torch.tensor([1 + 1j]).rad2deg_()
    with pytest.raises(TypeError, match=r"negative\(\): argument 'input' \(position 1\) must be Tensor, not int"):
        torch.negative(1)


def test_scans_and_triangles_in_place():
    t = nonleaf([1., 2., 3.])
    assert t.cumsum_(0) is t and t.tolist() == [1.0, 3.0, 6.0] and t.grad_fn.name() == "CumsumBackward0"
    t = nonleaf([1., 2., 3.])
    t.cumprod_(-1)
    assert t.tolist() == [1.0, 2.0, 6.0] and t.grad_fn.name() == "CumprodBackward0"
    r = torch.tensor([1, 2], dtype=torch.int32).cumsum_(0)
    assert r.dtype == torch.int32 and r.tolist() == [1, 3]
    with pytest.raises(NotImplementedError, match="\"cumsum_out_cpu\" not implemented for 'Bool'"):
        torch.tensor([True, True]).cumsum_(0)
    with pytest.raises(RuntimeError, match="Bad in-place call: input tensor dtype float and output tensor dtype "
                                           "double should match"):
        torch.tensor([1., 2.]).cumsum_(0, dtype=torch.float64)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got 1\)"):
        torch.tensor([1., 2.]).cumprod_(1)
    m = nonleaf([[1., 1., 1.], [1., 1., 1.]])
    assert m.tril_() is m and m.tolist() == [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0]] and m.grad_fn.name() == "TrilBackward0"
    m = nonleaf([[1., 1., 1.], [1., 1., 1.]])
    m.triu_(1)
    assert m.tolist() == [[0.0, 1.0, 1.0], [0.0, 0.0, 1.0]] and m.grad_fn.name() == "TriuBackward0"
    assert torch.ones(2, 3).tril_(diagonal=-1).tolist() == [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]
    with pytest.raises(RuntimeError, match="tril: input tensor must have at least 2 dimensions"):
        torch.tensor([1.]).tril_()


def test_in_place_through_a_view_rebases_its_base():
    base = torch.tensor([[-1., 2.], [3., -4.]], requires_grad=True).clone()
    row = base[0]
    row.abs_()
    assert base.tolist() == [[1.0, 2.0], [3.0, -4.0]]
    assert row.grad_fn.name() == "AsStridedBackward0" and base.grad_fn.name() == "torch::autograd::CopySlices"
    leaf = torch.tensor([1., 2.], requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place "
                                           "operation."):
        leaf.cumsum_(0)


def test_logical_and_comparison_in_place():
    t = nonleaf([1., 0., 2.])
    v = t._version
    assert t.logical_and_(torch.tensor([1, 1, 0])) is t and t.tolist() == [1.0, 0.0, 0.0]
    # not differentiable: the history is kept, the version moves on
    assert t.grad_fn.name() == "CloneBackward0" and t._version == v + 1
    assert torch.tensor([1., 0., 0.]).logical_or_(torch.tensor([0, 1, 0])).tolist() == [1.0, 1.0, 0.0]
    assert torch.tensor([1, 0, 2]).logical_xor_(torch.tensor(True)).tolist() == [0, 1, 0]
    assert torch.tensor([1, 0, 2]).logical_not_().tolist() == [0, 1, 0]
    assert torch.tensor([True, False]).logical_not_().tolist() == [False, True]
    with pytest.raises(TypeError, match=r"logical_or_\(\): argument 'other' \(position 1\) must be Tensor, not int"):
        torch.tensor([1., 0.]).logical_or_(0)
    t = nonleaf([1., 2., 3.])
    t.greater_(2)
    assert t.tolist() == [0.0, 0.0, 1.0] and t.grad_fn.name() == "GtBackward0"
    t = nonleaf([1., 2., 3.])
    t.greater_equal_(torch.tensor([2., 2., 2.]))
    assert t.tolist() == [0.0, 1.0, 1.0] and t.grad_fn.name() == "GeBackward1"
    assert torch.tensor([1, 2, 3]).less_(2.5).tolist() == [1, 1, 0]
    assert torch.tensor([1, 2, 3]).less_equal_(torch.tensor(2)).tolist() == [1, 1, 0]
    assert torch.tensor([1., 2., 3.]).not_equal_(2).tolist() == [1.0, 0.0, 1.0]


def test_remainder_and_fmod_in_place():
    t = nonleaf([-3., 3.])
    t.remainder_(2)
    assert t.tolist() == [1.0, 1.0] and t.grad_fn.name() == "RemainderBackward0"
    t = nonleaf([-3., 3.])
    t.remainder_(torch.tensor([2., -2.]))
    assert t.tolist() == [1.0, -1.0] and t.grad_fn.name() == "RemainderBackward1"
    t = nonleaf([-3., 3.])
    t.fmod_(2)
    assert t.tolist() == [-1.0, 1.0] and t.grad_fn.name() == "FmodBackward0"
    t = nonleaf([-3., 3.])
    t.fmod_(torch.tensor([2., -2.]))
    assert t.tolist() == [-1.0, 1.0] and t.grad_fn.name() == "FmodBackward1"
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.tensor([5, -5]).remainder_(2.5)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        torch.tensor([5, -5]).fmod_(0)


# ------------------------------------------------------------------------------------------------
# Elementwise math


def test_float_power():
    r = torch.float_power(torch.tensor([4, -6, 0]), 2)
    assert r.dtype == torch.float64 and r.tolist() == [16.0, 36.0, 0.0]
    r = torch.float_power(2, torch.tensor([4, -6, 0]))
    assert r.tolist() == [16.0, 0.015625, 1.0]
    r = torch.float_power(torch.tensor([4.]), 1j)
    assert r.dtype == torch.complex128
    x = torch.tensor([1.5, 2.], requires_grad=True)
    assert torch.float_power(x, torch.tensor([2., 0.5])).grad_fn.name() == "PowBackward1"
    assert x.float_power(2).grad_fn.name() == "PowBackward0"
    assert torch.float_power(3, x).grad_fn.name() == "PowBackward2"
    t = torch.tensor([1.5, -2.], dtype=torch.float64, requires_grad=True).clone()
    t.float_power_(torch.tensor(2))
    assert t.tolist() == [2.25, 4.0] and t.grad_fn.name() == "PowBackward1"
    with pytest.raises(RuntimeError, match="the base given to float_power_ has dtype Float but the operation's "
                                           "result requires dtype Double"):
        torch.tensor([1.5]).float_power_(2)
    with pytest.raises(RuntimeError, match="the output given to float_power has dtype Float but the operation's "
                                           "result requires dtype Double"):
        torch.float_power(torch.tensor([2.]), 2, out=torch.empty(1))
    assert torch.autograd.gradcheck(lambda a, b: torch.float_power(a, b), (f64([1.5, 2.]), f64([2., 0.5])))


def test_copysign_values_nodes_and_gradients():
    r = torch.copysign(torch.tensor([4, -6, 0]), torch.tensor([-0., 0., -1.]))
    assert r.dtype == torch.float32 and same(r.tolist(), [-4.0, 6.0, -0.0])
    r = torch.copysign(torch.tensor([1.5, -2., nan, inf]), torch.tensor([-nan, -0., -1., -inf]))
    assert bits(r) == ["bff8000000000000", "c000000000000000", "fff8000000000000",
                       "fff0000000000000"]
    assert torch.copysign(torch.tensor([1.], dtype=torch.float16), -1).dtype == torch.float16
    assert torch.copysign(torch.tensor([1, 2], dtype=torch.int8), torch.tensor([-1, 1], dtype=torch.int8)).tolist() == \
        [-1.0, 2.0]
    x, y = f64([0., -0., 2., -3., 1.]), f64([-1., 1., -0., 2., nan])
    r, (gx, gy) = grads(torch.copysign, x, y)
    assert r.grad_fn.name() == "CopysignBackward0" and same(r.tolist(), [-0.0, 0.0, -2.0, 3.0, 1.0])
    assert gx.tolist() == [0.0, 0.0, -1.0, -1.0, 1.0] and gy.tolist() == [0.0] * 5
    r = f64([2., -3.]).copysign(-2)
    assert r.grad_fn.name() == "CopysignBackward1" and r.tolist() == [-2.0, -3.0]
    t = nonleaf([1., -2.])
    t.copysign_(torch.tensor([-1., 1.]))
    assert t.tolist() == [-1.0, 2.0] and t.grad_fn.name() == "CopysignBackward0"
    with pytest.raises(NotImplementedError, match="\"copysign_cpu\" not implemented for 'ComplexFloat'"):
        torch.copysign(torch.tensor([1 + 1j]), -1)
    with pytest.raises(TypeError, match=r"copysign\(\) received an invalid combination of arguments - got "
                                        r"\(int, Tensor\)"):
        torch.copysign(1, torch.tensor([1.]))
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.tensor([4, -6]).copysign_(-1)
    assert torch.autograd.gradcheck(torch.copysign, (f64([[1., -2.]]), f64([[1.5], [-1.]])))


def test_fmax_fmin_ignore_nan():
    a = torch.tensor([1.5, -2., 3., nan, nan, -0., 0.])
    b = torch.tensor([nan, -3., 4., 1., nan, 0., -0.])
    assert same(torch.fmax(a, b).tolist(), [1.5, -2.0, 4.0, 1.0, nan, -0.0, 0.0])
    assert same(torch.fmin(a, b).tolist(), [1.5, -3.0, 3.0, 1.0, nan, -0.0, 0.0])
    r = torch.fmax(torch.tensor([4, -6, 0]), torch.tensor([1.5, -2., 3.]))
    assert r.dtype == torch.float32 and r.tolist() == [4.0, -2.0, 3.0]
    r = torch.fmin(torch.tensor([True, False]), torch.tensor([False, False]))
    assert r.dtype == torch.bool and r.tolist() == [False, False]
    x = f64([nan, 1., -0., 0., 2., 1., 3.])
    y = f64([nan, 1., 0., -0., 2., nan, 5.])
    r, (gx, gy) = grads(torch.fmax, x, y)
    assert r.grad_fn.name() == "FmaxBackward0"
    assert gx.tolist() == [1.0, 0.5, 0.5, 0.5, 0.5, 1.0, 0.0] and gy.tolist() == [0.0, 0.5, 0.5, 0.5, 0.5, 0.0, 1.0]
    r, (gx, gy) = grads(torch.fmin, x, y)
    assert r.grad_fn.name() == "FminBackward0"
    assert gx.tolist() == [1.0, 0.5, 0.5, 0.5, 0.5, 1.0, 1.0] and gy.tolist() == [0.0, 0.5, 0.5, 0.5, 0.5, 0.0, 0.0]
    with pytest.raises(TypeError, match=r"fmax\(\): argument 'other' \(position 2\) must be Tensor, not int"):
        torch.fmax(torch.tensor([1]), 2)
    with pytest.raises(TypeError, match="fmax not implemented for complex tensors."):
        torch.fmax(torch.tensor([1 + 1j]), torch.tensor([1 + 1j]))
    assert torch.autograd.gradcheck(torch.fmax, (f64([1., 2., 5.]), f64([1.5, 0.5, 7.])))
    assert torch.autograd.gradcheck(torch.fmin, (f64([[1., 2.]]), f64([1.5])))


def test_gcd_lcm():
    r = torch.gcd(torch.tensor([4, -6, 0, 0, -9]), torch.tensor([6, 9, 0, -5, 0]))
    assert r.dtype == torch.int64 and r.tolist() == [2, 3, 0, 5, 9]
    r = torch.gcd(torch.tensor([-128, 12, 7], dtype=torch.int8), torch.tensor([0, -18, 0], dtype=torch.int8))
    assert r.dtype == torch.int8 and r.tolist() == [-128, 6, 7]
    assert torch.gcd(torch.tensor([200, 12], dtype=torch.uint8), torch.tensor([150, 18], dtype=torch.uint8)).tolist() \
        == [50, 6]
    assert torch.gcd(torch.tensor([4], dtype=torch.int8), torch.tensor([6])).dtype == torch.int64
    assert torch.lcm(torch.tensor([4, -6, 0, 0, -9]), torch.tensor([6, 9, 0, -5, 3])).tolist() == [12, 18, 0, 0, 9]
    # wraps around in the dtype, as PyTorch's
    assert torch.lcm(torch.tensor([100, -100], dtype=torch.int8), torch.tensor([3, 3], dtype=torch.int8)).tolist() == \
        [44, 44]
    assert torch.lcm(torch.tensor([[4], [6]]), torch.tensor([6, 10])).tolist() == [[12, 20], [6, 30]]
    x = torch.tensor([4, 6])
    assert torch.gcd_(x, torch.tensor([6])) is x and x.tolist() == [2, 6]
    x = torch.tensor([4, 6], dtype=torch.int32)
    assert x.lcm_(torch.tensor([6, 4])).tolist() == [12, 12] and x.dtype == torch.int32
    with pytest.raises(NotImplementedError, match="\"gcd_cpu\" not implemented for 'Float'"):
        torch.gcd(torch.tensor([4.]), torch.tensor([2.]))
    with pytest.raises(NotImplementedError, match="\"lcm_cpu\" not implemented for 'Bool'"):
        torch.lcm(torch.tensor([True]), torch.tensor([True]))
    with pytest.raises(TypeError, match=r"gcd\(\): argument 'other' \(position 2\) must be Tensor, not int"):
        torch.gcd(torch.tensor([4]), 2)
    with pytest.raises(RuntimeError, match="output with shape \\[1\\] doesn't match the broadcast shape \\[2\\]"):
        torch.lcm_(torch.tensor([4]), torch.tensor([6, 4]))


def test_heaviside():
    r = torch.heaviside(torch.tensor([-1., 0., 2., nan, -0.]), torch.tensor([0.5]))
    assert r.tolist() == [0.0, 0.5, 1.0, 0.0, 0.5]
    r = torch.heaviside(torch.tensor([-1, 0, 2]), torch.tensor([7]))
    assert r.dtype == torch.int64 and r.tolist() == [0, 7, 1]
    assert torch.heaviside(torch.tensor([True, False]), torch.tensor([True])).tolist() == [True, True]
    assert torch.tensor([-1., 0.]).heaviside_(torch.tensor([3.])).tolist() == [0.0, 3.0]
    x = torch.tensor([-1., 0.], requires_grad=True)
    r = torch.heaviside(x, torch.tensor([3.]))
    assert r.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::heaviside is not implemented"):
        r.sum().backward()
    with pytest.raises(RuntimeError, match="heaviside is not yet implemented for tensors with different dtypes."):
        torch.heaviside(torch.tensor([-1, 0, 2]), torch.tensor([0.5]))
    with pytest.raises(NotImplementedError, match="heaviside is not yet implemented for complex tensors."):
        torch.heaviside(torch.tensor([1 + 1j]), torch.tensor([1 + 1j]))
    with pytest.raises(TypeError, match=r"heaviside\(\): argument 'values' \(position 2\) must be Tensor, not float"):
        torch.heaviside(torch.tensor([-1.]), 0.5)


def test_logaddexp2():
    r = torch.logaddexp2(torch.tensor([1., inf, -inf, nan, 3., -inf, 100.]),
                         torch.tensor([2., inf, -inf, 0., 3., 5., -100.]))
    assert same(r.tolist(), [2.5849623680114746, inf, -inf, nan, 4.0, 5.0, 100.0])
    assert torch.logaddexp2(torch.tensor([1.]), torch.tensor([2.5], dtype=torch.float64)).dtype == torch.float64
    x, y = f64([1., 2., inf, 1000.]), f64([3., 2., inf, 1001.])
    r, (gx, gy) = grads(torch.logaddexp2, x, y)
    assert r.grad_fn.name() == "Logaddexp2Backward0"
    assert same(gx.tolist(), [0.2, 0.5, nan, 1 / 3]) and same(gy.tolist(), [0.8, 0.5, nan, 2 / 3])
    with pytest.raises(NotImplementedError, match="\"logaddexp2_cpu\" not implemented for 'Long'"):
        torch.logaddexp2(torch.tensor([1, 2]), torch.tensor([3, 4]))
    with pytest.raises(TypeError, match=r"logaddexp2\(\): argument 'other' \(position 2\) must be Tensor, not int"):
        torch.logaddexp2(torch.tensor([1.]), 2)
    assert torch.autograd.gradcheck(torch.logaddexp2, (f64([1., -2., 30.]), f64([[0.5], [3.]])))


def test_ldexp():
    r = torch.ldexp(torch.tensor([1, 2]), torch.tensor([3, -1]))
    assert r.dtype == torch.float32 and r.tolist() == [8.0, 1.0]
    # an integer exponent scales exactly; a floating one multiplies by exp2(e)
    assert torch.ldexp(torch.tensor([1e-30, 5., 3.]), torch.tensor([200, -200, -149])).tolist() == \
        [1.6069380493547143e+30, 0.0, 4.203895392974451e-45]
    assert torch.ldexp(torch.tensor([1e-30, 5.]), torch.tensor([200., -200.])).tolist() == [inf, 0.0]
    assert torch.ldexp(torch.tensor([1., 2.], dtype=torch.float16), torch.tensor([20, 1])).tolist() == [inf, 4.0]
    assert torch.ldexp(torch.tensor([3], dtype=torch.int32), torch.tensor([2.], dtype=torch.float64)).dtype == \
        torch.float64
    assert torch.ldexp(torch.tensor([1 + 1j]), torch.tensor([2])).tolist() == [4 + 4j]
    x, e = f64([1., 2.]), f64([3., 0.5])
    r, (gx, ge) = grads(torch.ldexp, x, e)
    assert r.grad_fn.name() == "LdexpBackward0"
    assert gx.tolist() == [8.0, 1.4142135623730951] and ge.tolist() == [5.545177444479562, 1.9605162869370945]
    t = nonleaf([1., 2.])
    assert torch.ldexp_(t, torch.tensor([1, 2])) is t and t.tolist() == [2.0, 8.0]
    assert t.grad_fn.name() == "LdexpBackward0"
    with pytest.raises(RuntimeError, match="ldexp can't be cast to the desired output type Long"):
        torch.tensor([1, 2]).ldexp_(torch.tensor([3, -1]))
    with pytest.raises(TypeError, match=r"ldexp\(\): argument 'other' \(position 2\) must be Tensor, not int"):
        torch.ldexp(torch.tensor([1.]), 2)
    assert torch.autograd.gradcheck(torch.ldexp, (f64([1., -2.]), f64([[1.5], [-0.5]])))
    assert torch.autograd.gradcheck(lambda a: torch.ldexp(a, torch.tensor([3, -1])), (f64([1., -2.]),))


def test_frexp():
    m, e = torch.frexp(torch.tensor([8., -0.3, 0., -0., inf, nan, 1e-40, 5e-324], dtype=torch.float64))
    assert same(m.tolist(), [0.5, -0.6, 0.0, -0.0, inf, nan, 0.5444517870735015, 0.5])
    assert e.dtype == torch.int32 and e.tolist() == [4, -1, 0, 0, 0, 0, -132, -1073]
    r = torch.frexp(torch.tensor([8., -0.3, 1e-40]))
    assert type(r).__name__ == "frexp" and r.mantissa.tolist() == [0.5, -0.6000000238418579, 0.5444488525390625]
    assert r.exponent.tolist() == [4, -1, -132]
    m, e = torch.frexp(torch.tensor([8., -0.3], dtype=torch.bfloat16))
    assert m.dtype == torch.bfloat16 and m.tolist() == [0.5, -0.6015625] and e.tolist() == [4, -1]
    x = f64([0., 3., -5.])
    m, e = x.frexp()
    assert m.grad_fn.name() == "FrexpBackward0" and e.grad_fn is None
    assert torch.autograd.grad(m.sum(), x)[0].tolist() == [1.0, 0.25, 0.125]
    outs = (torch.empty(2), torch.empty(2, dtype=torch.int32))
    r = torch.frexp(torch.tensor([8., 0.25]), out=outs)
    assert type(r).__name__ == "frexp_out" and r.mantissa is outs[0] and outs[1].tolist() == [4, -1]
    with pytest.raises(RuntimeError, match=r"torch.frexp\(\) only supports floating-point dtypes"):
        torch.frexp(torch.tensor([8, 3]))
    with pytest.raises(RuntimeError, match=r"torch.frexp\(\) expects exponent to have int dtype but got long int"):
        torch.frexp(torch.tensor([8.]), out=(torch.empty(1), torch.empty(1, dtype=torch.int64)))
    assert torch.autograd.gradcheck(lambda a: torch.frexp(a).mantissa, (f64([0.3, 3., -5.]),))


def test_nextafter():
    r = torch.nextafter(torch.tensor([1., 1., 0., nan, inf, 0., -0.]), torch.tensor([2., 0., -1., 1., 0., -0., 0.]))
    assert same(r.tolist(), [1.0000001192092896, 0.9999999403953552, -1.401298464324817e-45, nan,
                             3.4028234663852886e+38, -0.0, 0.0])
    r = torch.nextafter(torch.tensor([1., 0.], dtype=torch.float64), torch.tensor([2., -1.], dtype=torch.float64))
    assert r.tolist() == [1.0000000000000002, -5e-324]
    r = torch.nextafter(torch.tensor([1., 0., -1., 65504., 0.], dtype=torch.float16),
                        torch.tensor([2., -1., -2., inf, 1.], dtype=torch.float16))
    assert r.tolist() == [1.0009765625, -5.960464477539063e-08, -1.0009765625, inf, 5.960464477539063e-08]
    r = torch.nextafter(torch.tensor([1., 0., -1., 3e38, 0.], dtype=torch.bfloat16),
                        torch.tensor([2., -1., -2., inf, 1.], dtype=torch.bfloat16))
    assert r.tolist() == [1.0078125, -9.183549615799121e-41, -1.0078125, 3.017347550431759e+38, 9.183549615799121e-41]
    assert torch.nextafter(torch.tensor([1.]), torch.tensor([2.], dtype=torch.float64)).dtype == torch.float64
    x, y = f64([1., 2.]), f64([3., 0.5])
    r, (gx, gy) = grads(torch.nextafter, x, y)
    assert r.grad_fn.name() == "NextafterBackward0" and gx.tolist() == [1.0, 1.0] and gy.tolist() == [0.0, 0.0]
    t = torch.tensor([1.], dtype=torch.float64)
    assert t.nextafter_(torch.tensor([0.], dtype=torch.float64)) is t and t.tolist() == [0.9999999999999999]
    with pytest.raises(NotImplementedError, match="\"nextafter_cpu\" not implemented for 'Long'"):
        torch.nextafter(torch.tensor([1, 0]), torch.tensor([2, -1]))
    with pytest.raises(TypeError, match=r"nextafter\(\): argument 'other' \(position 2\) must be Tensor, not float"):
        torch.nextafter(torch.tensor([1.]), 2.)


def test_i0_is_pytorchs_cephes_expansion():
    r = torch.i0(torch.tensor([0., 1., -2., 10., 100., 8., -8., 7.5, inf, nan]))
    assert same(r.tolist(), [0.9999999403953552, 1.2660659551620483, 2.279585123062134, 2815.71630859375, inf,
                             427.564208984375, 427.564208984375, 268.1613464355469, nan, nan])
    r = torch.i0(torch.tensor([0., 1., -2., 10., 700., 720., 8.], dtype=torch.float64))
    assert r.tolist() == [1.0, 1.2660658777520082, 2.279585302336067, 2815.716628466254, 1.5295933476718735e+302,
                          inf, 427.56411572180474]
    r = torch.i0(torch.tensor([3, 4]))
    assert r.dtype == torch.float32 and r.tolist() == [4.880792617797852, 11.301920890808105]
    assert torch.i0(torch.tensor([1., 2.], dtype=torch.float16)).tolist() == [1.265625, 2.279296875]
    x = f64([0., 1., -2., 30.])
    r, (g,) = grads(torch.i0, x)
    assert r.grad_fn.name() == "I0Backward0"
    assert g.tolist() == [0.0, 0.5651591039924851, -1.5906368546373295, 768532038938.9569]
    t = nonleaf([0., 1.])
    assert torch.i0_(t) is t and t.grad_fn.name() == "I0Backward0"
    with pytest.raises(NotImplementedError, match="\"i0_vml_cpu\" not implemented for 'ComplexFloat'"):
        torch.i0(torch.tensor([1 + 1j]))
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.i0_(torch.tensor([1, 2]))
    assert torch.autograd.gradcheck(torch.i0, (f64([0.5, -2., 9.5, 0.]),))
    assert torch.autograd.gradgradcheck(torch.i0, (f64([0.5, -2., 9.5]),))


def test_sinc():
    r = torch.sinc(torch.tensor([0., 0.5, 1., -2.5, inf, nan, 1e-20, 3.3]))
    assert same(r.tolist(), [1.0, 0.6366197466850281, -2.7827534054836178e-08, 0.1273239552974701, nan, nan, 1.0,
                             -0.07803580909967422])
    assert torch.sinc(torch.tensor([0., 0.5, 1., -2.5, 3.3], dtype=torch.float64)).tolist() == \
        [1.0, 0.6366197723675814, 3.8981718325193755e-17, 0.12732395447351627, -0.07803579012128542]
    assert torch.sinc(torch.tensor([0, 1, 2])).dtype == torch.float32
    x = f64([0., 0.5, 1.])
    r, (g,) = grads(torch.sinc, x)
    assert r.grad_fn.name() == "SincBackward0" and g.tolist() == [0.0, -1.2732395447351625, -1.0]
    t = nonleaf([0., 0.5])
    assert torch.sinc_(t) is t and t.tolist() == [1.0, 0.6366197466850281] and t.grad_fn.name() == "SincBackward0"
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.tensor([0, 1]).sinc_()
    assert torch.autograd.gradcheck(torch.sinc, (f64([0.3, -1.7, 2.5]),))


# ------------------------------------------------------------------------------------------------
# Reductions and products


def test_nansum_nanmean():
    x = torch.tensor([[1., nan], [2., 3.]])
    assert torch.nansum(torch.tensor([1., nan, 2.])).tolist() == 3.0
    assert torch.nansum(x, 1).tolist() == [1.0, 5.0] and x.nansum(dim=(0, 1), keepdim=True).tolist() == [[6.0]]
    assert torch.nansum(x, keepdim=True).shape == (1, 1)
    r = torch.nansum(torch.tensor([1, 2], dtype=torch.int32))
    assert r.dtype == torch.int64 and r.tolist() == 3
    assert torch.nansum(torch.tensor([1., 2.]), dtype=torch.float64).dtype == torch.float64
    assert torch.nanmean(torch.tensor([1., nan, 2.])).tolist() == 1.5
    assert math.isnan(torch.nanmean(torch.tensor([nan, nan])).item())
    assert torch.nanmean(x, 1, keepdim=True).tolist() == [[1.0], [2.5]]
    w = f64([[1., nan], [2., 3.]])
    r, (g,) = grads(lambda t: t.nansum(0), w)
    assert r.grad_fn.name() == "NansumBackward0" and g.tolist() == [[1.0, 0.0], [1.0, 1.0]]
    r, (g,) = grads(lambda t: t.nanmean(), w)
    assert r.grad_fn.name() == "DivBackward0" and g.tolist() == [[1 / 3, 0.0], [1 / 3, 1 / 3]]
    with pytest.raises(NotImplementedError, match="nansum on CPU does not support complex inputs"):
        torch.nansum(torch.tensor([1 + 1j]))
    with pytest.raises(NotImplementedError, match="nanmean\\(\\): expected input to have floating point or complex "
                                                  "dtype but got Long"):
        torch.nanmean(torch.tensor([1, 2]))
    with pytest.raises(RuntimeError, match="nanmean\\(\\): could not infer output dtype. Optional dtype must be "
                                           "either a floating point or complex dtype. Got: Long"):
        torch.nanmean(torch.tensor([1., 2.]), dtype=torch.int64)
    assert torch.autograd.gradcheck(lambda t: torch.nansum(t, 1), (f64([[1., 2.], [3., 4.]]),))
    assert torch.autograd.gradcheck(lambda t: torch.nanmean(t, 0), (f64([[1., 2.], [3., 4.]]),))


def test_dist():
    a = torch.tensor([1.5, -2., 3.])
    assert torch.dist(a, torch.tensor([0., 0., 0.])).tolist() == 3.9051249027252197
    assert torch.dist(a, torch.tensor([0., 0., 0.]), 1).tolist() == 6.5
    assert torch.dist(a, torch.tensor(1.), 0).tolist() == 3.0
    assert torch.dist(a, torch.tensor([0.]), inf).tolist() == 3.0
    assert torch.dist(a, torch.tensor([0.]), -inf).tolist() == 1.5
    assert torch.dist(a, torch.tensor([0.], dtype=torch.float64)).dtype == torch.float64
    x, y = f64([1., 2.]), f64([1., 2.])
    r, (gx, gy) = grads(torch.dist, x, y)
    assert r.grad_fn.name() == "DistBackward0" and gx.tolist() == [0.0, 0.0] and gy.tolist() == [0.0, 0.0]
    r, (gx, gy) = grads(lambda p, q: torch.dist(p, q, 3), f64([1., 2.]), f64([0., 4.]))
    assert r.tolist() == 2.080083823051904
    assert gx.tolist() == [0.2311204247835449, -0.9244816991341795]
    with pytest.raises(NotImplementedError, match="norm\\(\\): input dtype should be either floating point or "
                                                  "complex. Got Long instead."):
        torch.dist(torch.tensor([1, 2]), torch.tensor([0, 0]))
    with pytest.raises(RuntimeError, match="The size of tensor a \\(3\\) must match the size of tensor b \\(2\\) at "
                                           "non-singleton dimension 0"):
        torch.dist(a, torch.tensor([1., 2.]))
    with pytest.raises(TypeError, match=r"dist\(\): argument 'other' \(position 2\) must be Tensor, not float"):
        torch.dist(a, 1.)
    assert torch.autograd.gradcheck(lambda p, q: torch.dist(p, q, 2.5), (f64([1., 2., -1.]), f64([[0.5], [3.]])))


def test_inner_vdot_ger_outer():
    x = torch.tensor([1., 2.], requires_grad=True)
    r = torch.inner(x, torch.tensor([3., 4.]))
    assert r.tolist() == 11.0 and r.grad_fn.name() == "ViewBackward0"
    m = torch.arange(6.).reshape(2, 3)
    assert torch.inner(m, m).tolist() == [[5.0, 14.0], [14.0, 50.0]]
    assert torch.inner(torch.tensor(2.), m).tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]
    assert torch.ones(2, 2, 3).inner(torch.ones(4, 3)).shape == (2, 2, 4)
    with pytest.raises(RuntimeError, match=r"inner\(\) the last dimension must match on both input tensors but got "
                                           r"shapes \[2, 3\] and \[2\]"):
        torch.inner(m, torch.tensor([1., 1.]))
    r = torch.vdot(torch.tensor([1 + 2j]), torch.tensor([3 - 1j]))
    assert r.tolist() == (1 - 7j)
    assert torch.vdot(torch.tensor([1, 2]), torch.tensor([3, 4])).tolist() == 11
    p, q = f64([1., 2.]), f64([3., 0.5])
    r, (gp, gq) = grads(torch.vdot, p, q)
    assert r.grad_fn.name() == "VdotBackward0" and gp.tolist() == [3.0, 0.5] and gq.tolist() == [1.0, 2.0]
    with pytest.raises(RuntimeError, match="1D tensors expected, but got 2D and 2D tensors"):
        torch.vdot(torch.ones(2, 2), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match="dot : expected both vectors to have same dtype, but found Float and "
                                           "Double"):
        torch.vdot(torch.ones(3), torch.ones(3, dtype=torch.float64))
    r = torch.ger(x, torch.tensor([1., 2., 3.]))
    assert r.tolist() == [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]] and r.grad_fn.name() == "MulBackward0"
    r = x.outer(torch.tensor([1, 2]))
    assert r.dtype == torch.float32 and r.tolist() == [[1.0, 2.0], [2.0, 4.0]] and r.grad_fn.name() == "MulBackward0"
    with pytest.raises(RuntimeError, match="outer: Expected 1-D argument self, but got 2-D"):
        torch.ones(2, 2).outer(torch.ones(2))
    with pytest.raises(RuntimeError, match="outer: Expected 1-D argument vec2, but got 2-D"):
        x.ger(torch.ones(2, 2))
    out = torch.empty(2, 2)
    with pytest.warns(UserWarning, match="torch.ger is deprecated and will be removed in a future PyTorch release"):
        assert torch.ger(torch.tensor([1., 2.]), torch.tensor([1., 2.]), out=out) is out
    assert torch.autograd.gradcheck(torch.inner, (f64([[1., 2.], [0., -1.]]), f64([[3., 0.5]])))
    assert torch.autograd.gradcheck(torch.vdot, (f64([1., 2.]), f64([3., 0.5])))
    assert torch.autograd.gradcheck(torch.ger, (f64([1., 2.]), f64([3., 0.5, -1.])))


def test_addmv_addr():
    m = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
    v = torch.tensor([1., 2.])
    assert torch.addmv(torch.tensor([1., 1., 1.]), m, v).tolist() == [6.0, 12.0, 18.0]
    # beta = 0: input ignored, NaN and inf included
    assert torch.addmv(torch.tensor([nan, inf, 1.]), m, v, beta=0, alpha=2).tolist() == [10.0, 22.0, 34.0]
    assert torch.addmv(torch.tensor(1.), m, v).tolist() == [6.0, 12.0, 18.0]
    r = torch.addmv(torch.tensor([1, 1, 1]), m.long(), v.long(), beta=0.5)
    assert r.dtype == torch.int64 and r.tolist() == [5, 11, 17]
    t = torch.ones(3, requires_grad=True).clone()
    t.addmv_(m, v, beta=2)
    assert t.tolist() == [7.0, 13.0, 19.0] and t.grad_fn.name() == "AddmvBackward0"
    i, mm, vv = f64([1., 2.]), f64([[1., 2.], [3., 4.]]), f64([0.5, -1.])
    r, (gi, gm, gv) = grads(lambda a, b, c: torch.addmv(a, b, c, beta=0, alpha=2), i, mm, vv)
    assert r.grad_fn.name() == "AddmvBackward0" and r.tolist() == [-3.0, -5.0]
    assert gi.tolist() == [0.0, 0.0] and gm.tolist() == [[1.0, -2.0], [1.0, -2.0]] and gv.tolist() == [8.0, 12.0]
    with pytest.raises(RuntimeError, match="size mismatch, got input \\(2\\), mat \\(3x2\\), vec \\(2\\)"):
        torch.addmv(torch.tensor([1., 2.]), m, v)
    with pytest.raises(RuntimeError, match="vector \\+ matrix @ vector expected, got 1, 1, 1"):
        torch.addmv(torch.ones(3), v, v)
    with pytest.raises(RuntimeError, match="addmv input tensors must have the same dtype, but got Double, Float, and "
                                           "Float"):
        torch.addmv(torch.ones(3, dtype=torch.float64), m, v)
    with pytest.raises(RuntimeError, match="Bad in-place call: input tensor size \\[1\\] and output tensor size "
                                           "\\[3\\] should match"):
        torch.ones(1).addmv_(m, v)
    a, b = torch.tensor([1., 1., 1.]), torch.tensor([1., 2.])
    assert torch.addr(torch.zeros(3, 2), a, b, beta=2, alpha=0.5).tolist() == [[0.5, 1.0]] * 3
    assert torch.addr(torch.tensor(1.), a, b).tolist() == [[2.0, 3.0]] * 3
    assert torch.addr(torch.full((3, 2), nan), a, b, beta=0).tolist() == [[1.0, 2.0]] * 3
    assert torch.addr(torch.zeros(2, 3, dtype=torch.int32), torch.ones(2, dtype=torch.int8),
                      torch.ones(3, dtype=torch.int64)).dtype == torch.int64
    r = torch.addr(torch.zeros(3, 2, dtype=torch.bool), torch.tensor([True, False, True]), torch.tensor([True, True]))
    assert r.tolist() == [[True, True], [False, False], [True, True]]
    i, p, q = f64([[1., 2.]]), f64([1., 3.]), f64([0.5, -1.])
    r, (gi, gp, gq) = grads(lambda x, y, z: torch.addr(x, y, z, beta=3, alpha=2), i, p, q)
    assert r.grad_fn.name() == "AddrBackward0" and r.tolist() == [[4.0, 4.0], [6.0, 0.0]]
    assert gi.tolist() == [[6.0, 6.0]] and gp.tolist() == [-1.0, -1.0] and gq.tolist() == [8.0, 8.0]
    t = torch.zeros(3, 2, requires_grad=True).clone()
    t.addr_(a, b)
    assert t.tolist() == [[1.0, 2.0]] * 3 and t.grad_fn.name() == "AddrBackward0"
    with pytest.raises(RuntimeError, match="addr: Expected 1-D argument vec1, but got 2-D"):
        torch.addr(torch.zeros(3, 2), torch.ones(3, 2), b)
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating point "
                                           "number."):
        torch.addr(torch.zeros(3, 2, dtype=torch.long), a.long(), b.long(), alpha=1.5)
    with pytest.raises(RuntimeError, match="size mismatch, input: \\[1, 3\\], v1: \\[2\\], v2: \\[3\\]"):
        torch.zeros(1, 3).addr_(torch.ones(2), torch.ones(3))
    assert torch.autograd.gradcheck(lambda x, y, z: torch.addmv(x, y, z, beta=0.5, alpha=2),
                                    (f64([1., 2.]), f64([[1., 2.], [3., 4.]]), f64([0.5, -1.])))
    assert torch.autograd.gradcheck(lambda x, y, z: torch.addr(x, y, z, beta=0.5, alpha=-2),
                                    (f64([1., 2.]), f64([1., 3., -1.]), f64([0.5, -1.])))


def test_baddbmm_addbmm_addmm():
    b1, b2 = torch.arange(12.).reshape(2, 2, 3), torch.arange(12.).reshape(2, 3, 2)
    assert torch.baddbmm(torch.zeros(2), b1, b2, beta=0.5, alpha=2).tolist() == \
        [[[20.0, 26.0], [56.0, 80.0]], [[344.0, 386.0], [488.0, 548.0]]]
    assert torch.full((2, 2, 2), nan).baddbmm(b1, b2, beta=0).tolist() == \
        [[[10.0, 13.0], [28.0, 40.0]], [[172.0, 193.0], [244.0, 274.0]]]
    assert torch.zeros(2, 2, 2).baddbmm_(b1, b2)[1].tolist() == [[172.0, 193.0], [244.0, 274.0]]
    r = torch.baddbmm(torch.ones(2, 2, 2, dtype=torch.long), b1.long(), b2.long(), alpha=0.5, beta=2)
    assert r.tolist() == [[[2, 2], [2, 2]], [[2, 2], [2, 2]]]
    assert torch.addbmm(torch.zeros(2, 2), b1, b2).tolist() == [[182.0, 206.0], [272.0, 314.0]]
    assert torch.addbmm(torch.ones(2, 2), torch.ones(0, 2, 3), torch.ones(0, 3, 2), beta=2).tolist() == \
        [[2.0, 2.0], [2.0, 2.0]]
    assert torch.zeros(2, 2).addbmm_(b1, b2).tolist() == [[182.0, 206.0], [272.0, 314.0]]
    m = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
    assert torch.full((2, 2), nan).addmm(m, m.t(), beta=0).tolist() == [[14.0, 32.0], [32.0, 77.0]]
    assert torch.zeros(2, 2).addmm_(m, m.t(), alpha=2).tolist() == [[28.0, 64.0], [64.0, 154.0]]
    assert torch.zeros(2).addmm(m.requires_grad_(), m.t()).grad_fn.name() == "AddmmBackward0"
    t = torch.ones(2, 2, requires_grad=True).clone()
    t.addmm_(torch.eye(2), torch.eye(2), beta=2)
    assert t.tolist() == [[3.0, 2.0], [2.0, 3.0]] and t.grad_fn.name() == "AddmmBackward0"
    i, x, y = f64([[1., 2.]]), torch.arange(12.).reshape(2, 2, 3).double(), torch.arange(12.).reshape(2, 3, 2).double()
    x.requires_grad_()
    r, (gi, gx) = grads(lambda a, b: torch.baddbmm(a, b, y, beta=2, alpha=0.5), i, x)
    assert r.grad_fn.name() == "BaddbmmBackward0" and gi.tolist() == [[8.0, 8.0]]
    assert gx[0].tolist() == [[0.5, 2.5, 4.5], [0.5, 2.5, 4.5]]
    r, (gi, gx) = grads(lambda a, b: torch.addbmm(a, b, y, beta=2, alpha=0.5), i, x)
    assert r.grad_fn.name() == "AddbmmBackward0" and gi.tolist() == [[4.0, 4.0]]
    with pytest.raises(RuntimeError, match="Expected size for first two dimensions of batch2 tensor to be: \\[2, 3\\] "
                                           "but got: \\[1, 3\\]."):
        torch.baddbmm(torch.zeros(2, 2, 2), b1, b2[:1])
    with pytest.raises(RuntimeError, match="Input dtypes must be the same, got: input double, batch1: float, batch2: "
                                           "float"):
        torch.baddbmm(torch.zeros(2, 2, 2).double(), b1, b2)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"):
        torch.baddbmm(torch.zeros(2, 2, 2), b1, b2[0])
    with pytest.raises(RuntimeError, match="batch1 and batch2 must have same number of batches, got 2 and 1"):
        torch.addbmm(torch.zeros(2, 2), b1, b2[:1])
    with pytest.raises(RuntimeError, match="Incompatible matrix sizes for bmm \\(2x3 and 2x2\\)"):
        torch.addbmm(torch.zeros(2, 2), b1, torch.ones(2, 2, 2))
    with pytest.raises(RuntimeError, match="addmm: mat1 and mat2 shapes cannot be multiplied \\(2x3 and 2x3\\)"):
        torch.zeros(2, 2).addmm(m, m)
    with pytest.raises(RuntimeError, match="self and mat2 must have the same dtype, but got Double and Float"):
        torch.zeros(2, 2).double().addmm(m, m.t())
    with pytest.raises(RuntimeError, match="The expanded size of the tensor \\(2\\) must match the existing size "
                                           "\\(3\\) at non-singleton dimension 1"):
        torch.zeros(3, 3).addmm(m, m.t())
    with pytest.raises(RuntimeError, match="Bad in-place call: input tensor size \\[2\\] and output tensor size "
                                           "\\[2, 2\\] should match"):
        torch.zeros(2).addmm_(m, m.t())
    y.requires_grad_()
    assert torch.autograd.gradcheck(lambda a, b, c: torch.baddbmm(a, b, c, beta=0.5, alpha=2), (i, x, y))
    assert torch.autograd.gradcheck(lambda a, b, c: torch.addbmm(a, b, c, beta=0.5, alpha=2), (i, x, y))
    assert torch.autograd.gradcheck(lambda a, b, c: a.addmm(b, c, beta=0.5, alpha=2),
                                    (i, f64([[1., 2.], [3., 4.]]), f64([[0.5, -1.], [2., 1.]])))


# ------------------------------------------------------------------------------------------------
# Shapes, statistics, integration, factories


def test_diagflat_fliplr_flipud():
    assert torch.diagflat(torch.tensor([[1, 2], [3, 4]]), 1).tolist() == \
        [[0, 1, 0, 0, 0], [0, 0, 2, 0, 0], [0, 0, 0, 3, 0], [0, 0, 0, 0, 4], [0, 0, 0, 0, 0]]
    assert torch.diagflat(torch.tensor(3.)).tolist() == [[3.0]]
    assert torch.diagflat(torch.tensor([])).shape == (0, 0)
    x = torch.ones(2, 2, requires_grad=True)
    r = x.t().diagflat(-1)
    assert r.shape == (5, 5) and r.grad_fn.name() == "DiagEmbedBackward0"
    assert r.grad_fn.next_functions[0][0].name() == "ViewBackward0"
    m = torch.tensor([[1., 2., 4.], [1., 0., -1.]], requires_grad=True)
    r = torch.fliplr(m)
    assert r.tolist() == [[4.0, 2.0, 1.0], [-1.0, 0.0, 1.0]] and r.grad_fn.name() == "FlipBackward0"
    assert m.flipud().tolist() == [[1.0, 0.0, -1.0], [1.0, 2.0, 4.0]]
    with pytest.raises(RuntimeError, match="Input must be >= 2-d."):
        torch.fliplr(torch.tensor([1., 2.]))
    with pytest.raises(RuntimeError, match="Input must be >= 1-d."):
        torch.flipud(torch.tensor(1.))
    assert torch.autograd.gradcheck(lambda t: torch.diagflat(t, 1), (f64([[1., 2.], [3., 4.]]),))


def test_cov_corrcoef():
    m = torch.tensor([[1., 2., 3.], [2., 4., 9.]])
    assert torch.cov(m).tolist() == [[1.0, 3.5], [3.5, 13.0]]
    assert torch.cov(m, correction=0).tolist() == [[0.6666666865348816, 2.3333332538604736],
                                                   [2.3333332538604736, 8.666666984558105]]
    assert torch.cov(torch.tensor([1., 2., 3.])).tolist() == 1.0
    r = torch.cov(torch.tensor([[1, 2, 3], [2, 4, 9]]))
    assert r.dtype == torch.float32 and r.tolist() == [[1.0, 3.5], [3.5, 13.0]]
    assert torch.cov(m, fweights=torch.tensor([1, 2, 1])).tolist() == [[0.6666666865348816, 2.3333332538604736],
                                                                      [2.3333332538604736, 8.916666984558105]]
    assert torch.cov(m, aweights=torch.tensor([1., 2., 1.])).tolist() == [[0.800000011920929, 2.799999952316284],
                                                                         [2.799999952316284, 10.699999809265137]]
    assert torch.cov(m, fweights=torch.tensor([1, 2, 1]), aweights=torch.tensor([1., 2., 1.])).tolist() == \
        [[0.4615384340286255, 1.615384578704834], [1.615384578704834, 6.346153736114502]]
    with pytest.warns(UserWarning, match="cov\\(\\): degrees of freedom is <= 0. Correction should be strictly less "
                                         "than the number of observations."):
        r = torch.cov(torch.tensor([[1.], [2.]]))
    assert same(r.tolist(), [[nan, nan], [nan, nan]])
    assert torch.cov(torch.tensor([[1.], [2.]]), fweights=torch.tensor([2])).tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert torch.cov(torch.tensor([1 + 1j, 2 - 1j, 0j])).tolist() == (2 + 0j)
    r = torch.cov(m.requires_grad_())
    assert r.grad_fn.name() == "SqueezeBackward0"
    for kwargs, msg in (
        ({"fweights": torch.tensor([1., 2, 1])}, "expected fweights to have integral dtype but got fweights with Float "
                                                 "dtype"),
        ({"fweights": torch.tensor([-1, 2, 1])}, "fweights cannot be negative"),
        ({"aweights": torch.tensor([1, 2, 1])}, "expected aweights to have floating point dtype but got aweights with "
                                                "Long dtype"),
        ({"aweights": torch.tensor([0., 0., 0.])}, "weights sum to zero, can't be normalized"),
        ({"aweights": torch.tensor([0.5, 1.])}, "expected aweights to have the same numel as there are observations "
                                                "in the input but got 2 != 3"),
    ):
        with pytest.raises(RuntimeError, match="cov\\(\\): " + msg):
            torch.cov(m.detach(), **kwargs)
    with pytest.raises(RuntimeError, match="cov\\(\\): expected input to have two or fewer dimensions but got an input "
                                           "with 3 dimensions"):
        torch.cov(torch.ones(2, 2, 2))
    with pytest.raises(NotImplementedError, match="cov\\(\\): bool dtype is not supported for input"):
        torch.cov(torch.tensor([True]))
    r = torch.corrcoef(torch.tensor([[1., 2., 3.], [3., 2., 1.], [2., 4., 6.]]))
    assert r.tolist() == [[1.0, -1.0, 1.0], [-1.0, 1.0, -1.0], [1.0, -1.0, 1.0]]
    assert r.grad_fn is None
    assert torch.corrcoef(torch.tensor([1., 2., 4.])).tolist() == 1.0
    assert same(torch.corrcoef(torch.tensor([[1., 1., 1.], [1., 2., 3.]])).tolist(), [[nan, nan], [nan, 1.0]])
    assert torch.corrcoef(m).grad_fn.name() == "ClampBackward1"
    with pytest.raises(RuntimeError, match="corrcoef\\(\\): expected input to have two or fewer dimensions"):
        torch.corrcoef(torch.ones(2, 2, 2))
    w = f64([0.5, 1., 1.], grad=False)
    assert torch.autograd.gradcheck(lambda t: torch.cov(t, aweights=w), (f64([[1., 2., 4.], [1., 0., -1.]]),))
    assert torch.autograd.gradcheck(torch.corrcoef, (f64([[1., 2., 4.], [1., 0., -1.], [3., 1., 1.]]),))


def test_trapezoid_rules():
    y = torch.tensor([1., 2., 4.], requires_grad=True)
    r = torch.trapezoid(y)
    assert r.tolist() == 4.5 and r.grad_fn.name() == "MulBackward1"
    assert torch.trapezoid(y, dx=0.1).tolist() == 0.45000001788139343
    assert torch.trapezoid(torch.tensor([[1., 2., 4.], [1., 0., -1.]]), dim=0).tolist() == [1.0, 1.0, 1.5]
    r = torch.trapezoid(y, torch.tensor([0., 1., 3.]))
    assert r.tolist() == 7.5 and r.grad_fn.name() == "DivBackward1"
    y2 = torch.tensor([[1., 2., 4.], [1., 0., -1.]])
    assert torch.trapezoid(y2, torch.tensor([0., 1., 3.])).tolist() == [7.5, -0.5]
    assert torch.trapezoid(y2, torch.tensor([[0., 1., 3.], [0., 2., 3.]])).tolist() == [7.5, 0.5]
    r = torch.trapezoid(torch.tensor([1, 2, 4]))
    assert r.dtype == torch.float32 and r.tolist() == 4.5
    assert torch.trapezoid(torch.ones(2, 0)).tolist() == [0.0, 0.0]
    assert torch.trapz(y.detach(), dx=0.5).tolist() == 2.25 and torch.trapz(y.detach(), torch.tensor([0., 1., 3.])) \
        .tolist() == 7.5
    r = torch.cumulative_trapezoid(y, dx=0.1)
    assert r.tolist() == [0.15000000596046448, 0.45000001788139343] and r.grad_fn.name() == "CumsumBackward0"
    assert r.grad_fn.next_functions[0][0].name() == "MulBackward1"
    r = torch.cumulative_trapezoid(y, torch.tensor([0., 1., 3.]))
    assert r.tolist() == [1.5, 7.5] and r.grad_fn.name() == "DivBackward1"
    assert torch.cumulative_trapezoid(y2, dim=0).tolist() == [[1.0, 1.0, 1.5]]
    assert torch.cumulative_trapezoid(torch.ones(2, 0)).shape == (2, 0)
    with pytest.raises(RuntimeError, match="trapezoid: There must be one `x` value for each sample point"):
        torch.trapezoid(y, torch.tensor([0., 1.]))
    with pytest.raises(NotImplementedError, match="trapezoid: received a bool input for `y`, but bool is not "
                                                  "supported"):
        torch.trapezoid(torch.tensor([True]))
    with pytest.raises(RuntimeError, match="trapezoid: Currently, we only support dx as a real number."):
        torch.trapezoid(y, dx=1j)
    with pytest.raises(TypeError, match=r"trapz\(\) received an invalid combination of arguments - got "
                                        r"\(Tensor, float\)"):
        torch.trapz(y, 0.5)
    with pytest.raises(IndexError, match="Dimension specified as -1 but tensor has no dimensions"):
        torch.trapezoid(torch.tensor(1.))
    with pytest.raises(RuntimeError, match="cumulative_trapezoid: There must be one `x` value for each sample point"):
        torch.cumulative_trapezoid(y, torch.tensor([0., 1.]))
    x = f64([0., 1., 3.])
    assert torch.autograd.gradcheck(torch.trapezoid, (f64([1., 2., 4.]), x))
    assert torch.autograd.gradcheck(lambda t: torch.trapezoid(t, dx=0.5, dim=0), (f64([[1., 2.], [4., 3.]]),))
    assert torch.autograd.gradcheck(torch.cumulative_trapezoid, (f64([1., 2., 4.]), x))
    assert torch.autograd.gradcheck(lambda t: torch.cumulative_trapezoid(t, dx=0.5), (f64([1., 2., 4.]),))


def test_block_diag_combinations_unravel_index():
    r = torch.block_diag(torch.tensor([[1, 2], [3, 4]]), torch.tensor([5., 6.]), torch.tensor(7))
    assert r.dtype == torch.float32 and r.tolist() == \
        [[1.0, 2.0, 0.0, 0.0, 0.0], [3.0, 4.0, 0.0, 0.0, 0.0], [0.0, 0.0, 5.0, 6.0, 0.0], [0.0, 0.0, 0.0, 0.0, 7.0]]
    assert torch.block_diag().shape == (1, 0)
    r = torch.block_diag(torch.tensor([1, 2], dtype=torch.int8), torch.tensor(300))
    assert r.dtype == torch.int8 and r.tolist() == [[1, 2, 0], [0, 0, 44]]
    assert torch.block_diag(torch.ones(0, 2), torch.ones(2, 0)).tolist() == [[0.0, 0.0], [0.0, 0.0]]
    a, b = f64([[1., 2.]]), f64(3.)
    r = torch.block_diag(a, b)
    assert r.grad_fn.name() == "BlockDiagBackward0"
    ga, gb = torch.autograd.grad((r * torch.arange(6.).reshape(2, 3)).sum(), (a, b))
    assert ga.tolist() == [[0.0, 1.0]] and gb.tolist() == 5.0
    with pytest.raises(RuntimeError, match="torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 0 "
                                           "has 3 dimensions"):
        torch.block_diag(torch.ones(2, 2, 2))
    assert torch.combinations(torch.tensor([1, 2, 3])).tolist() == [[1, 2], [1, 3], [2, 3]]
    assert torch.combinations(torch.tensor([1., 2., 4.]), 3).tolist() == [[1.0, 2.0, 4.0]]
    assert torch.combinations(torch.tensor([1., 2.]), with_replacement=True).tolist() == \
        [[1.0, 1.0], [1.0, 2.0], [2.0, 2.0]]
    assert torch.combinations(torch.tensor([1., 2.]), 0).shape == (0,)
    assert torch.combinations(torch.tensor([1., 2.]), 4).shape == (0, 4)
    x = f64([1., 2., 4.])
    r = torch.combinations(x)
    assert r.grad_fn.name() == "IndexBackward0" and torch.autograd.grad(r.sum(), x)[0].tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(RuntimeError, match="Expect a 1D vector, but got shape \\[2, 3\\]"):
        torch.combinations(torch.ones(2, 3))
    with pytest.raises(RuntimeError, match="Expect a non-negative number, but got -1"):
        torch.combinations(x, -1)
    r = torch.unravel_index(torch.tensor([4, 1]), (2, 3))
    assert isinstance(r, tuple) and [t.tolist() for t in r] == [[1, 0], [1, 1]]
    assert [t.tolist() for t in torch.unravel_index(torch.tensor([-1]), (2, 3))] == [[1], [2]]
    assert [t.tolist() for t in torch.unravel_index(torch.tensor([[1234], [5678]]), (100, 100))] == \
        [[[12], [56]], [[34], [78]]]
    assert torch.unravel_index(torch.tensor([1]), ()) == ()
    assert torch.unravel_index(torch.tensor([1], dtype=torch.int32), (2, 3))[0].dtype == torch.int64
    assert [t.shape for t in torch.unravel_index(torch.tensor([], dtype=torch.int64), (2, 0))] == [(0,), (0,)]
    with pytest.raises(TypeError, match="expected 'indices' to be integer dtype, but got torch.float32"):
        torch.unravel_index(torch.tensor([1.]), (2, 3))
    with pytest.raises(ValueError, match="'shape' cannot have negative values, but got \\(2, -3\\)"):
        torch.unravel_index(torch.tensor([1]), (2, -3))
    with pytest.raises(ValueError, match="'shape' cannot have zero dimensions when 'indices' is non-empty"):
        torch.unravel_index(torch.tensor([1]), (2, 0))
    with pytest.raises(TypeError, match="expected 'shape' sequence to only contain ints, but got <class 'float'>"):
        torch.unravel_index(torch.tensor([1]), (2, 3.))
    assert torch.autograd.gradcheck(lambda p, q: torch.block_diag(p, q), (f64([[1., 2.], [3., 4.]]), f64([5., 6.])))
    assert torch.autograd.gradcheck(lambda t: torch.combinations(t, 2, True), (f64([1., 2., 4.]),))


def test_range_scalar_tensor():
    message = "torch.range is deprecated and will be removed in a future release because its behavior is " \
              "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in " \
              "[start, end)."
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = torch.range(1, 4)
    assert [str(w.message) for w in caught] == [message] and caught[0].filename == __file__
    assert r.dtype == torch.float32 and r.tolist() == [1.0, 2.0, 3.0, 4.0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.range(1, 4, 0.5).tolist() == [1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0]
        assert torch.range(0, 1, 0.1).tolist()[-3:] == [0.800000011920929, 0.8999999761581421, 1.0]
        assert torch.range(0, 1, 0.3, dtype=torch.float64).tolist() == [0.0, 0.3, 0.6, 0.8999999999999999]
        r = torch.range(1, 4, dtype=torch.int64)
        assert r.dtype == torch.int64 and r.tolist() == [1, 2, 3, 4]
        assert torch.range(4, 1, -1).tolist() == [4.0, 3.0, 2.0, 1.0]
        assert torch.range(1., 3.5).tolist() == [1.0, 2.0, 3.0]
        assert torch.range(0, 3, requires_grad=True).requires_grad
        with pytest.raises(RuntimeError, match="step must be nonzero"):
            torch.range(1, 4, 0)
        with pytest.raises(RuntimeError, match="upper bound and lower bound inconsistent with step sign"):
            torch.range(4, 1)
    r = torch.scalar_tensor(3)
    assert r.dtype == torch.float32 and r.shape == () and r.item() == 3.0
    assert torch.scalar_tensor(3, dtype=torch.int32).dtype == torch.int32
    assert torch.scalar_tensor(True).item() == 1.0
    assert torch.scalar_tensor(2.5, requires_grad=True).requires_grad
    assert torch.scalar_tensor(-1, dtype=torch.uint8).item() == 255
    assert torch.scalar_tensor(70000., dtype=torch.float16).item() == inf
    for value, dtype, name in ((1 + 2j, torch.float32, "float"), (1e300, torch.float32, "float"),
                               (300, torch.int8, "int8_t"), (256, torch.uint8, "uint8_t"), (nan, torch.int32, "int")):
        with pytest.raises(RuntimeError, match=f"value cannot be converted to type {name} without overflow"):
            torch.scalar_tensor(value, dtype=dtype)
    with pytest.raises(TypeError, match=r"scalar_tensor\(\): argument 's' \(position 1\) must be Number, not str"):
        torch.scalar_tensor("a")


def test_rsub_polar():
    r = torch.rsub(torch.tensor([1., 2., 4.]), 2)
    assert r.tolist() == [1.0, 0.0, -2.0]
    r = torch.rsub(torch.tensor([1, 2]), 2.5)
    assert r.dtype == torch.float32 and r.tolist() == [1.5, 0.5]
    x, y = f64([1., 2.]), f64([3., 0.5])
    r, (gx, gy) = grads(lambda a, b: torch.rsub(a, b, alpha=2), x, y)
    assert r.grad_fn.name() == "RsubBackward0" and r.tolist() == [1.0, -3.5]
    assert gx.tolist() == [-2.0, -2.0] and gy.tolist() == [1.0, 1.0]
    assert torch.rsub(x, 3).grad_fn.name() == "RsubBackward1"
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating point"):
        torch.rsub(torch.tensor([1, 2]), 2, alpha=1.5)
    with pytest.raises(NotImplementedError, match="Subtraction, the `-` operator, with two bool tensors is not "
                                                  "supported"):
        torch.rsub(torch.tensor([True]), torch.tensor([False]))
    with pytest.raises(TypeError, match=r"rsub\(\) received an invalid combination of arguments - got "
                                        r"\(int, Tensor\)"):
        torch.rsub(2, x)
    r = torch.polar(torch.tensor([1., 2.]), torch.tensor([0., 3.14159]))
    assert r.dtype == torch.complex64
    assert r.tolist() == [(1 + 0j), (-2 + 5.070363386039389e-06j)]
    r = torch.polar(torch.tensor([-1., inf]), torch.tensor([0., 0.]))
    assert same([[v.real, v.imag] for v in r.tolist()], [[-1.0, -0.0], [inf, nan]])
    r = torch.polar(torch.tensor([1., 2.]), torch.tensor([[0.], [3.]]))
    assert r.shape == (2, 2)
    x, y = f64([1., 2.]), f64([3., 0.5])
    r = torch.polar(x, y)
    assert r.grad_fn.name() == "PolarBackward0" and r.dtype == torch.complex128
    gx, gy = torch.autograd.grad(r.real.sum() + 2 * r.imag.sum(), (x, y))
    assert gx.tolist() == [-0.7077524804807109, 1.8364336390987788]
    assert gy.tolist() == [-2.121105001260758, 2.551479170353085]
    with pytest.raises(RuntimeError, match="Expected object of scalar type Float but got scalar type Double for second "
                                           "argument"):
        torch.polar(torch.tensor([1., 2.]), torch.tensor([0., 3.], dtype=torch.float64))
    with pytest.raises(NotImplementedError, match="Expected both inputs to be Half, Float or Double tensors but got "
                                                  "Long and Long"):
        torch.polar(torch.tensor([1, 2]), torch.tensor([0, 3]))
    with pytest.raises(TypeError, match=r"polar\(\): argument 'abs' \(position 1\) must be Tensor, not float"):
        torch.polar(1., torch.tensor([0.]))
    assert torch.autograd.gradcheck(lambda a, b: torch.view_as_real(torch.polar(a, b)), (f64([1., 2.]), f64([3., 0.5])))


def test_gradcheck_of_the_remaining_differentiable_functions():
    checks = [
        (lambda a: a.clone().sgn_(), (f64([1., -2.]),)),
        (lambda a: torch.deg2rad_(a.clone()), (f64([1., -2.]),)),
        (lambda a: a.clone().cumprod_(0), (f64([1., -2., 3.]),)),
        (lambda a: a.clone().triu_(-1), (f64([[1., -2.], [3., 4.], [5., 6.]]),)),
        (lambda a, b: a.clone().remainder_(b), (f64([1.5, -2.5]), f64([2., 1.]))),
        (lambda a, b: a.multiply(b), (f64([1.5, -2.5]), f64([2., 1.]))),
        (lambda a, b: torch.subtract(a, b, alpha=3), (f64([1.5, -2.5]), f64([2., 1.]))),
        (lambda a, b: torch.divide(a, b), (f64([1.5, -2.5]), f64([2., 1.]))),
        (lambda a: torch.negative(a) + torch.absolute(a), (f64([1.5, -2.5]),)),
        (lambda a, b: a.clone().copysign_(b), (f64([1.5, -2.5]), f64([-2., 1.]))),
        (lambda a: torch.i0_(a.clone()), (f64([1.5, -2.5]),)),
        (lambda a: a.fliplr().flipud(), (f64([[1., 2.], [3., 4.]]),)),
    ]
    for f, inputs in checks:
        assert torch.autograd.gradcheck(f, inputs)


# ------------------------------------------------------------------------------------------------
# The examples in the module's docstrings print what they show (with PyTorch too)


_MATH_MODULES = ["leafgrad._math_inplace", "leafgrad._math_binary", "leafgrad._math_unary",
                 "leafgrad._math_products", "leafgrad._math_stats", "leafgrad._math_misc"]


def _module_examples():
    """The examples of leafgrad's _math_* modules (their functions and the Tensor methods they
    install), also under LEAFGRAD_TEST_TORCH=1, where `leafgrad` is aliased to torch: the alias is
    lifted while the real modules are imported and their examples found."""
    def find_all():
        return [t for name in _MATH_MODULES for t in find(importlib.import_module(name))]

    def find(mod):
        finder = doctest.DocTestFinder(exclude_empty=True)
        tests = finder.find(mod, mod.__name__, globs={})
        seen = {t.docstring for t in tests}
        for name, fn in mod._METHODS.items():
            for t in finder.find(fn, f"Tensor.{name}", globs={}):
                if t.docstring not in seen:
                    seen.add(t.docstring)
                    tests.append(t)
        return tests

    return with_real_leafgrad(find_all)


def test_examples_print_what_they_show():
    examples = _module_examples()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report = []
    for test in examples:
        test.globs = {"torch": torch}
        runner.run(test, out=report.append)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, "".join(report)
    assert results.attempted > 100
