"""var_mean/std_mean, the in-place comparisons, the legacy `Tensor.new`/`type_as`, Python
number conversions, warn-always, and the small names PyTorch's own tests and older scripts use
(`torch.inf`, `is_conj`, `increment_version`, `set_multithreading_enabled`, the deprecated
gradcheck Jacobians). Values and texts were recorded from torch 2.15; with
LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import math
import warnings

import pytest

import leafgrad as torch

DOF = ("(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
       "factor (input numel divided by output numel).")


def name(t):
    return None if t.grad_fn is None else type(t.grad_fn).__name__


# ---------------------------------------------------------------- var_mean / std_mean


def test_var_mean_values_and_one_node():
    x = torch.tensor([[1., 2., 4.], [3., 5., 9.]], dtype=torch.float64, requires_grad=True)
    v, m = torch.var_mean(x, 1, keepdim=True)
    assert v.tolist() == [[2.333333333333333], [9.333333333333332]]
    assert m.tolist() == [[2.3333333333333335], [5.666666666666667]]
    assert name(v) == name(m) == "VarMeanBackward0" and v.grad_fn is m.grad_fn
    (g,) = torch.autograd.grad((v * torch.tensor([[1.], [2.]]) + m * 3).sum(), x)
    assert g.tolist() == [[-0.3333333333333335, 0.6666666666666665, 2.6666666666666665],
                          [-4.333333333333334, -0.3333333333333339, 7.666666666666666]]
    s, m = torch.std_mean(x, dim=(0, 1), correction=0)
    assert (s.item(), m.item()) == (2.581988897471611, 4.0)
    assert name(s) == "StdMeanBackward0"
    (g,) = torch.autograd.grad(s * 2 + m, x)
    assert g.tolist() == [[-0.220631667954075, -0.09153222308049444, 0.16666666666666666],
                          [0.03756722179308611, 0.29576611154024723, 0.8121638910345693]]


def test_var_mean_overloads_and_dtypes():
    t = torch.tensor([[1., 2.], [3., 4.]])
    v, m = torch.var_mean(t, 0, True)
    assert (v.tolist(), m.tolist()) == ([2., 2.], [2., 3.])
    v, m = torch.var_mean(t, unbiased=False, dim=1, keepdims=True)
    assert (v.tolist(), m.tolist()) == ([[0.25], [0.25]], [[1.5], [3.5]])
    c = torch.tensor([1 + 1j, 2 - 1j, 0j], requires_grad=True)
    v, m = torch.var_mean(c)
    assert v.dtype == torch.float32 and m.dtype == torch.complex64
    assert (v.item(), m.item()) == (2.0, 1 + 0j)
    (g,) = torch.autograd.grad(v + m.real, c)
    assert torch.allclose(g, torch.tensor([1 / 3 + 1j, 4 / 3 - 1j, -2 / 3 + 0j]))
    with pytest.raises(NotImplementedError) as e:
        torch.var_mean(torch.tensor([1, 2]))
    assert str(e.value) == "var_mean only support floating point and complex dtypes"
    with pytest.raises(NotImplementedError) as e:
        torch.std_mean(torch.tensor([1, 2]))
    assert str(e.value) == "std_mean only support floating point and complex dtypes"


def test_std_mean_where_std_is_zero():
    x = torch.zeros(3, requires_grad=True)
    s, m = torch.std_mean(x)
    (g,) = torch.autograd.grad(s + m, x)
    assert g.tolist() == [0.3333333432674408] * 3


def test_var_mean_gradcheck():
    x = torch.rand(3, 4, dtype=torch.float64, requires_grad=True)
    for fn in (lambda t: torch.var_mean(t, 1), lambda t: torch.std_mean(t, 0, keepdim=True),
               lambda t: torch.var_mean(t, correction=0)):
        assert torch.autograd.gradcheck(fn, (x,))
        assert torch.autograd.gradgradcheck(fn, (x,))


def test_var_mean_saves_no_output_std_mean_does():
    x = torch.rand(3, requires_grad=True)
    var, mean = torch.var_mean(x)
    var.mul_(2)  # var_mean's gradient does not read its outputs
    (var + mean).backward()
    s, m = torch.std_mean(torch.rand(3, requires_grad=True))
    s.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        (s + m).backward()


def test_degrees_of_freedom_warning():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        v, m = torch.var_mean(torch.tensor([3.]))
        torch.tensor([3.]).std()
        torch.ones(2, 0).var(1)
        torch.rand(3).var()
    texts = [str(x.message) for x in w]
    assert len(texts) == 3
    assert [t.split("(")[0] for t in texts] == ["var_mean", "std", "var"]
    assert all(DOF in t for t in texts)
    assert math.isnan(v.item()) and m.item() == 3.0


# ---------------------------------------------------------------- in-place comparisons


def test_in_place_comparisons_values_and_nodes():
    a = torch.tensor([1., 2., 3.], requires_grad=True).clone()
    a.lt_(2.5)
    assert a.tolist() == [1., 1., 0.] and name(a) == "LtBackward0" and a._version == 1
    b = torch.tensor([1., 2., 3.], requires_grad=True).clone()
    b.eq_(torch.tensor([1., 0., 3.]))
    assert b.tolist() == [1., 0., 1.] and name(b) == "EqBackward1"
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    y = x.clone()
    y.ge_(2)
    y.sum().backward()
    assert x.grad.tolist() == [0., 0., 0.]
    i = torch.tensor([1, 2, 3])
    assert i.ne_(2).tolist() == [1, 0, 1] and i.dtype == torch.int64
    bb = torch.tensor([True, False])
    assert bb.gt_(0).tolist() == [True, False]
    assert torch.tensor([1., 5.]).le_(torch.tensor([2., 2.])).tolist() == [1., 0.]
    with pytest.raises(RuntimeError) as e:
        torch.tensor([1., 2.], requires_grad=True).eq_(1)
    assert str(e.value) == "a leaf Variable that requires grad is being used in an in-place operation."
    with pytest.raises(RuntimeError):
        torch.ones(3).eq_(torch.ones(2, 3))  # the result must fit self


def test_in_place_comparison_of_a_dual_tensor():
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        foo = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
        assert fwAD.unpack_dual(foo == torch.tensor([1., 0.])).tangent is None
        foo.eq_(torch.tensor([1., 0.]))
        p, t = fwAD.unpack_dual(foo)
        assert p.tolist() == [1., 0.] and t.tolist() == [0., 0.]


# ---------------------------------------------------------------- legacy constructors


def test_legacy_new_and_type_as():
    z = torch.tensor([1, 2])
    assert z.new(2, 3).shape == (2, 3) and z.new(2, 3).dtype == torch.int64
    assert z.new([1, 2]).tolist() == [1, 2] and z.new().shape == (0,)
    assert z.new(torch.Size([2])).shape == (2,) and z.new(torch.Size([])).shape == ()
    assert torch.rand(2).new((2, 3)).tolist() == [2., 3.]  # a tuple is data
    assert z.new([1.5]).dtype == torch.int64
    x = torch.zeros(1)
    assert x.new(x[0].size()).fill_(7).tolist() == 7.0
    with pytest.raises(TypeError) as e:
        z.new(torch.tensor([1.]))
    assert str(e.value) == (
        "expected TensorOptions(dtype=long int, device=cpu, layout=Strided, requires_grad=false "
        "(default), pinned_memory=false (default), memory_format=(nullopt)) (got TensorOptions("
        "dtype=float, device=cpu, layout=Strided, requires_grad=false (default), pinned_memory="
        "false (default), memory_format=(nullopt)))")
    w = z.new(torch.tensor([5, 6]))
    assert w.tolist() == [5, 6] and not w.requires_grad
    assert torch.tensor([1.5]).type_as(torch.tensor([1])).tolist() == [1]
    y = torch.randint(5, (3,), dtype=torch.float64)
    assert torch.rand(2).type_as(y).dtype == torch.float64
    assert isinstance(torch.randn(2, 2).type_as(torch.ones(1, dtype=torch.uint8)), torch.ByteTensor)


# ---------------------------------------------------------------- conversions to Python numbers


def test_int_of_float_tensors_follows_python():
    f = torch.tensor([[0.]], dtype=torch.float64)
    for value, exc in ((math.nan, ValueError), (math.inf, OverflowError), (-math.inf, OverflowError)):
        f[0] = value
        with pytest.raises(exc):
            int(f[0])
    f[0] = 1e300
    assert int(f) == int(1e300)
    assert (int(torch.tensor(3.7)), int(torch.tensor(-3.7))) == (3, -3)
    with pytest.raises(TypeError, match="only integer tensors of a single element"):
        f[0].__index__()


def test_int64_values_beyond_2_pow_53_are_exact():
    big = 2**62 + 1
    assert torch.tensor([big, 3]).tolist() == [big, 3] and torch.tensor(big).item() == big
    assert torch.full((2,), big).tolist() == [big, big]
    y = torch.zeros(2, dtype=torch.int64)
    y.fill_(big)
    assert y.tolist() == [big, big]
    y[0] = big + 2
    assert y.tolist() == [big + 2, big]
    assert (torch.tensor([1, 2]) + big).tolist() == [big + 1, big + 2]
    assert torch.tensor([torch.tensor(big)]).tolist() == [big]
    assert torch.arange(big, big + 3).tolist() == [big, big + 1, big + 2]
    assert torch.arange(big + 4, big, -2).tolist() == [big + 4, big + 2]
    assert str(torch.tensor([big])) == "tensor([4611686018427387905])"


def test_int64_item_is_exact():
    big = 2**62 + 1
    t = torch.tensor(2, dtype=torch.int64) ** 62 + 1
    assert t.item() == big and int(t) == big and t.__index__() == big
    assert int(torch.tensor(True)) == 1


# ---------------------------------------------------------------- warn-always, flags, constants


def test_set_warn_always_repeats_once_only_warnings():
    text = "Using backward() with create_graph=True"
    prev = torch.is_warn_always_enabled()
    try:
        torch.set_warn_always(True)
        assert torch.is_warn_always_enabled()
        for _ in range(2):
            b = torch.randn(3, requires_grad=True, dtype=torch.double)
            with warnings.catch_warnings(record=True) as ws:
                warnings.simplefilter("always")
                (b * b).backward(torch.ones(3), create_graph=True)
            assert any(text in str(w.message) for w in ws)
            with warnings.catch_warnings(record=True) as ws:
                warnings.simplefilter("always")
                torch.autograd.grad(b * b, b, torch.ones(3), create_graph=True)
            assert not any(text in str(w.message) for w in ws)
    finally:
        torch.set_warn_always(prev)


def test_multithreading_flag():
    mt = torch.autograd.grad_mode._is_multithreading_enabled if not hasattr(torch, "_C") \
        else torch._C._is_multithreading_enabled
    assert mt()
    with torch.autograd.set_multithreading_enabled(False):
        assert not mt()
        x = torch.tensor(1., requires_grad=True)
        x.sin().backward()
    assert mt() and x.grad.item() == pytest.approx(math.cos(1.))
    with pytest.raises(TypeError):
        torch.autograd.set_multithreading_enabled(1)


def test_increment_version():
    a = torch.rand(5, requires_grad=True)
    v = a._version
    torch.autograd.graph.increment_version(a)
    assert a._version == v + 1
    b = torch.zeros(5, dtype=torch.int)
    torch.autograd.graph.increment_version([a, b])
    assert (a._version, b._version) == (v + 2, 1)
    with torch.inference_mode():
        c = torch.rand(5)
        torch.autograd.graph.increment_version(c)
    torch.autograd.graph.increment_version(c)
    x = torch.rand(3, requires_grad=True)
    y = x * x
    torch.autograd.graph.increment_version(x)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_constants_and_bits():
    assert torch.inf == math.inf and math.isnan(torch.nan)
    assert (torch.e, torch.pi) == (math.e, math.pi)
    a = torch.tensor([1 + 1j]).conj()
    assert torch.is_conj(a) and not torch.resolve_conj(a).is_conj()
    assert not torch.is_neg(torch.tensor([1.])) and torch.resolve_neg(torch.tensor([1.])).tolist() == [1.]


# ---------------------------------------------------------------- deprecated gradcheck helpers


def test_deprecated_jacobian_helpers():
    from leafgrad.autograd.gradcheck import get_analytical_jacobian, get_numerical_jacobian

    def fn(inputs):
        x, y = inputs
        return 2 * x + y, x + 2 * y

    a = torch.rand(2, 2, requires_grad=True, dtype=torch.float64)
    b = torch.rand(2, 2, requires_grad=True, dtype=torch.float64)
    with pytest.warns(FutureWarning, match="`get_numerical_jacobian` was part of PyTorch's private API"):
        jac = get_numerical_jacobian(fn, (a, b), target=a, eps=1e-6)
    assert len(jac) == 1 and torch.allclose(jac[0], 2 * torch.eye(4, dtype=torch.double))
    with pytest.warns(FutureWarning):
        jac = get_numerical_jacobian(fn, (a, b), eps=1e-6)
    assert torch.allclose(jac[1], torch.eye(4, dtype=torch.double))
    with pytest.raises(ValueError, match="Expected grad_out to be 1.0"), pytest.warns(FutureWarning):
        get_numerical_jacobian(fn, (a, b), eps=1e-6, grad_out=2.0)
    out = fn((a, b))[0]
    with pytest.warns(FutureWarning, match="`get_analytical_jacobian` was part of PyTorch's private API"):
        jacobians, reentrant, sizes_ok, types_ok = get_analytical_jacobian((a, b), out)
    assert torch.equal(jacobians[0], 2 * torch.eye(4, dtype=torch.double))
    assert torch.equal(jacobians[1], torch.eye(4, dtype=torch.double))
    assert reentrant and sizes_ok and types_ok
    with pytest.raises(ValueError, match="Expected grad_out to be 1.0"), pytest.warns(FutureWarning):
        get_analytical_jacobian((a,), out, grad_out=2.0)


# ---------------------------------------------------------------- comparisons and predicates


def test_comparison_methods_and_aliases():
    a = torch.tensor([1, 2])
    assert a.eq(torch.tensor([1, 3])).tolist() == [True, False]
    assert (a.ne(1).tolist(), a.lt(2).tolist(), a.le(1).tolist(), a.gt(1).tolist(), a.ge(2).tolist()) == \
        ([False, True], [True, False], [True, False], [False, True], [False, True])
    assert a.greater(1).tolist() == [False, True] and a.not_equal(1).tolist() == [False, True]
    assert torch.less(a, 2).tolist() == [True, False] and torch.less_equal(a, 1).tolist() == [True, False]
    assert torch.greater_equal(a, 2).tolist() == [False, True] and a.equal(torch.tensor([1, 2]))


def test_isinf_isfinite_isclose():
    inf, nan = float("inf"), float("nan")
    a = torch.tensor([1., inf, nan, -inf, 2.])
    b = torch.tensor([1.00001, inf, nan, inf, 2.1])
    assert torch.isinf(a).tolist() == [False, True, False, True, False]
    assert torch.isfinite(a).tolist() == [True, False, False, False, True]
    assert torch.isclose(a, b).tolist() == [False, True, False, False, False]
    assert a.isclose(b, equal_nan=True).tolist() == [False, True, True, False, False]
    assert torch.isinf(torch.tensor([1, 2])).tolist() == [False, False]
    assert torch.isfinite(torch.tensor([1, 2])).tolist() == [True, True]
    assert torch.isinf(torch.tensor([complex(inf, 0), 1j])).tolist() == [True, False]
    assert torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])).tolist() == [True, False]
    assert torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3]), rtol=0.5).tolist() == [True, True]
    with pytest.raises(RuntimeError) as e:
        torch.isclose(torch.tensor([1]), torch.tensor([1.]))
    assert str(e.value) == "Long did not match Float"
    with pytest.raises(RuntimeError) as e:
        torch.isclose(torch.tensor([1.]), torch.tensor([1.]), rtol=-1)
    assert str(e.value) == "rtol must be greater than or equal to zero, but got -1"


def test_logical_ops():
    assert torch.logical_and(torch.tensor([1, 0, 2]), torch.tensor([1., 1., 0.])).tolist() == [True, False, False]
    assert torch.logical_xor(torch.tensor([True, False]), torch.tensor([True, True])).tolist() == [False, True]
    assert torch.tensor([0., 1.]).logical_or(torch.tensor([0, 0])).tolist() == [False, True]
