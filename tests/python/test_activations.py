"""SiLU, ELU, SELU, CELU, Mish, Hardswish, Hardsigmoid, LogSigmoid, Hardshrink, Softshrink, GLU,
PReLU, Hardtanh, ReLU6 (and leaky_relu in place): values, grad_fn names and gradients as
PyTorch 2.15 gives them (these expectations run against it with LEAFGRAD_TEST_TORCH=1)."""
import pytest
from support import exact

import leafgrad as torch
import leafgrad.nn.functional as F

X = [-3.0, -1.0, 0.0, 0.5, 6.0, 7.0]

CASES = {
    "silu": (F.silu, "SiluBackward0",
             [-0.1423, -0.2689, 0.0, 0.3112, 5.9852, 6.9936], [-0.0881, 0.0723, 0.5, 0.74, 1.0123, 1.0055]),
    "elu": (F.elu, "EluBackward0",
            [-0.9502, -0.6321, 0.0, 0.5, 6.0, 7.0], [0.0498, 0.3679, 1.0, 1.0, 1.0, 1.0]),
    "elu alpha": (lambda x: F.elu(x, 0.5), "EluBackward0",
                  [-0.4751, -0.3161, 0.0, 0.5, 6.0, 7.0], [0.0249, 0.1839, 0.5, 1.0, 1.0, 1.0]),
    "hardtanh": (F.hardtanh, "HardtanhBackward0",
                 [-1.0, -1.0, 0.0, 0.5, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0, 0.0, 0.0]),
    "hardtanh -2 2": (lambda x: F.hardtanh(x, -2.0, 2.0), "HardtanhBackward0",
                      [-2.0, -1.0, 0.0, 0.5, 2.0, 2.0], [0.0, 1.0, 1.0, 1.0, 0.0, 0.0]),
    "relu6": (F.relu6, "HardtanhBackward0",
              [0.0, 0.0, 0.0, 0.5, 6.0, 6.0], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0]),
    "selu": (F.selu, "EluBackward0",
        [-1.6706, -1.1113, 0.0, 0.5254, 6.3042, 7.3549], [0.0875, 0.6468, 1.7581, 1.0507, 1.0507, 1.0507]),
    "celu": (lambda x: F.celu(x, 0.5), "CeluBackward0",
        [-0.4988, -0.4323, 0.0, 0.5, 6.0, 7.0], [0.0025, 0.1353, 1.0, 1.0, 1.0, 1.0]),
    "mish": (F.mish, "MishBackward0",
        [-0.1456, -0.3034, 0.0, 0.3752, 5.9999, 7.0], [-0.0934, 0.0592, 0.6, 0.8864, 1.0001, 1.0]),
    "hardswish": (F.hardswish, "HardswishBackward0",
        [0.0, -0.3333, 0.0, 0.2917, 6.0, 7.0], [0.0, 0.1667, 0.5, 0.6667, 1.0, 1.0]),
    "hardsigmoid": (F.hardsigmoid, "HardsigmoidBackward0",
        [0.0, 0.3333, 0.5, 0.5833, 1.0, 1.0], [0.0, 0.1667, 0.1667, 0.1667, 0.0, 0.0]),
    "logsigmoid": (F.logsigmoid, "LogSigmoidBackward0",
        [-3.0486, -1.3133, -0.6931, -0.4741, -0.0025, -0.0009], [0.9526, 0.7311, 0.5, 0.3775, 0.0025, 0.0009]),
    "hardshrink": (F.hardshrink, "HardshrinkBackward0",
        [-3.0, -1.0, 0.0, 0.0, 6.0, 7.0], [1.0, 1.0, 0.0, 0.0, 1.0, 1.0]),
    "softshrink 1": (lambda x: F.softshrink(x, 1.0), "SoftshrinkBackward0",
        [-2.0, 0.0, 0.0, 0.0, 5.0, 6.0], [1.0, 0.0, 0.0, 0.0, 1.0, 1.0]),
    "glu": (F.glu, "GluBackward0",
        [-1.8674, -0.9975, 0.0], [0.6225, 0.9975, 0.9991, -0.705, -0.0025, 0.0]),
    "prelu": (lambda x: F.prelu(x, torch.tensor([0.25])), "PreluKernelBackward0",
        [-0.75, -0.25, 0.0, 0.5, 6.0, 7.0], [0.25, 0.25, 0.25, 1.0, 1.0, 1.0]),
    "torch.selu": (torch.selu, "EluBackward0",
        [-1.6706, -1.1113, 0.0, 0.5254, 6.3042, 7.3549], [0.0875, 0.6468, 1.7581, 1.0507, 1.0507, 1.0507]),
    "torch.celu": (torch.celu, "CeluBackward0",
        [-0.9502, -0.6321, 0.0, 0.5, 6.0, 7.0], [0.0498, 0.3679, 1.0, 1.0, 1.0, 1.0]),
    "hardshrink method": (lambda x: x.hardshrink(0.75), "HardshrinkBackward0",
        [-3.0, -1.0, 0.0, 0.0, 6.0, 7.0], [1.0, 1.0, 0.0, 0.0, 1.0, 1.0]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_names_and_gradients(name):
    f, node, values, grads = CASES[name]
    x = torch.tensor(X, requires_grad=True)
    y = f(x)
    assert type(y.grad_fn).__name__ == node
    assert torch.allclose(y.detach(), torch.tensor(values), atol=1e-4)
    (g,) = torch.autograd.grad(y.sum(), x)
    assert torch.allclose(g, torch.tensor(grads), atol=1e-4)


def test_gradients_stay_finite_where_exp_overflows():
    x = torch.tensor([-100.0, 100.0], requires_grad=True)
    (F.silu(x).sum() + F.elu(x).sum()).backward()
    assert torch.allclose(x.grad, torch.tensor([0.0, 2.0]))


@pytest.mark.parametrize(
    "name, f, node",
    [
        ("elu", lambda x: F.elu(x, inplace=True), "EluBackward1"),
        ("hardtanh", lambda x: F.hardtanh(x, inplace=True), "HardtanhBackward0"),
        ("relu6", lambda x: F.relu6(x, inplace=True), "HardtanhBackward0"),
        ("silu", lambda x: F.silu(x, inplace=True), "SiluBackward0"),
        ("leaky_relu", lambda x: F.leaky_relu(x, 0.1, inplace=True), "LeakyReluBackward1"),
    ],
)
def test_in_place(name, f, node):
    a = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    x = a * 1
    y = f(x)
    assert y is x and type(y.grad_fn).__name__ == node
    expected = {"elu": [-0.6321, 0.5, 2.0], "hardtanh": [-1.0, 0.5, 1.0], "relu6": [0.0, 0.5, 2.0],
                "silu": [-0.2689, 0.3112, 1.7616], "leaky_relu": [-0.1, 0.5, 2.0]}[name]
    assert torch.allclose(x.detach(), torch.tensor(expected), atol=1e-4)
    y.sum().backward()
    assert a.grad is not None and a.grad.shape == (3,)
    leaf = torch.tensor([-1.0, 0.5], requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        f(leaf)


def test_integer_inputs():
    with pytest.raises(NotImplementedError, match=exact("\"silu_cpu\" not implemented for 'Long'")):
        F.silu(torch.tensor([1, 2]))
    with pytest.raises(NotImplementedError, match=exact("\"elu_cpu\" not implemented for 'Long'")):
        F.elu(torch.tensor([1, 2]))
    assert F.hardtanh(torch.tensor([-3, 0, 3])).tolist() == [-1, 0, 1]
    r = F.relu6(torch.tensor([-3, 0, 9]))
    assert r.dtype == torch.int64 and r.tolist() == [0, 0, 6]


def test_modules():
    assert [repr(m) for m in (torch.nn.SiLU(), torch.nn.SiLU(True), torch.nn.ELU(), torch.nn.ELU(0.5, True),
                              torch.nn.Hardtanh(), torch.nn.Hardtanh(-2, 2, True), torch.nn.ReLU6(),
                              torch.nn.ReLU6(True))] == [
        "SiLU()", "SiLU(inplace=True)", "ELU(alpha=1.0)", "ELU(alpha=0.5, inplace=True)",
        "Hardtanh(min_val=-1.0, max_val=1.0)", "Hardtanh(min_val=-2, max_val=2, inplace=True)", "ReLU6()",
        "ReLU6(inplace=True)",
    ]
    x = torch.tensor([-3.0, 0.5, 9.0])
    assert torch.nn.ReLU6()(x).tolist() == [0.0, 0.5, 6.0]
    assert isinstance(torch.nn.ReLU6(), torch.nn.Hardtanh)
    seq = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.SiLU(), torch.nn.Linear(4, 1), torch.nn.ELU())
    seq(torch.ones(2, 3)).sum().backward()
    assert all(p.grad is not None for p in seq.parameters())
    with pytest.raises(AssertionError, match=exact("max_val (-2) must be greater than min_val (2)")):
        torch.nn.Hardtanh(2, -2)
    with pytest.raises(ValueError, match=exact("min_val cannot be greater than max_val")):
        F.hardtanh(x, 2.0, -2.0)


NAN = float("nan")

EDGES = {  # name: (function, [(x, value, grad)]) recorded from PyTorch 2.15, float64
    "hardtanh": (lambda x: F.hardtanh(x), [(-2.0, -1.0, 0.0), (-1.0, -1.0, 0.0), (0.0, 0.0, 1.0), (1.0, 1.0, 0.0), (2.0, 1.0, 0.0), (NAN, NAN, 1.0), (30.0, 1.0, 0.0)]),
    "relu6": (lambda x: F.relu6(x * 3), [(-2.0, 0.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 0.0, 0.0), (1.0, 3.0, 3.0), (2.0, 6.0, 0.0), (NAN, NAN, 3.0), (30.0, 6.0, 0.0)]),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.1), [(-2.0, -0.2, 0.1), (-1.0, -0.1, 0.1), (0.0, 0.0, 0.1), (1.0, 1.0, 1.0), (2.0, 2.0, 1.0), (NAN, NAN, 0.1), (30.0, 30.0, 1.0)]),
    "elu": (lambda x: F.elu(x, 0.5), [(-2.0, -0.43233235838169365, 0.06766764161830635), (-1.0, -0.31606027941427883, 0.18393972058572117), (0.0, 0.0, 0.5), (1.0, 1.0, 1.0), (2.0, 2.0, 1.0), (NAN, NAN, 1.0), (30.0, 30.0, 1.0)]),
    "softplus": (lambda x: F.softplus(x, 2.0, 10.0), [(-2.0, 0.009074963958904869, 0.017986209962091555), (-1.0, 0.06346400552148625, 0.11920292202211755), (0.0, 0.34657359027997264, 0.5), (1.0, 1.0634640055214863, 0.8807970779778824), (2.0, 2.0090749639589047, 0.9820137900379085), (NAN, NAN, NAN), (30.0, 30.0, 1.0)]),
    "silu": (F.silu, [(-2.0, -0.2384058440442351, -0.09078424878489547), (-1.0, -0.2689414213699951, 0.07232948812851325), (0.0, 0.0, 0.5), (1.0, 0.7310585786300049, 0.9276705118714869), (2.0, 1.7615941559557646, 1.0907842487848955), (NAN, NAN, NAN), (30.0, 29.999999999997197, 1.000000000002711)]),
    "gelu": (F.gelu, [(-2.0, -0.04550026389635842, -0.08523180107819692), (-1.0, -0.15865525393145702, -0.08331547058768635), (0.0, 0.0, 0.5), (1.0, 0.841344746068543, 1.0833154705876864), (2.0, 1.9544997361036416, 1.085231801078197), (NAN, NAN, NAN), (30.0, 30.0, 1.0)]),
    "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh"), [(-2.0, -0.04540230591222494, -0.0860992566236183), (-1.0, -0.15880800939172324, -0.08296408384578252), (0.0, 0.0, 0.5), (1.0, 0.8411919906082768, 1.0829640838457826), (2.0, 1.954597694087775, 1.0860992566236183), (NAN, NAN, NAN), (30.0, 30.0, 1.0)]),
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_edges_at_zero_bounds_nan_and_large_inputs(name):
    """At 0, at the bounds, at NaN and past softplus's threshold, in float64: the value and the
    gradient of each activation's own formula (src/ops/activation.rs) against PyTorch's."""
    f, rows = EDGES[name]
    x = torch.tensor([r[0] for r in rows], dtype=torch.float64, requires_grad=True)
    y = f(x)
    y.sum().backward()
    for (x0, want_y, want_g), got_y, got_g in zip(rows, y.tolist(), x.grad.tolist()):
        for got, want in ((got_y, want_y), (got_g, want_g)):
            assert (got != got and want != want) or abs(got - want) <= 1e-12 * max(1.0, abs(want)), (
                name, x0, got, want)


@pytest.mark.parametrize("f, kernel", [(F.silu, "silu"), (F.elu, "elu"), (F.softplus, "softplus"),
                                       (F.gelu, "GeluKernelImpl"), (F.leaky_relu, "leaky_relu")])
def test_integer_inputs_are_refused_as_pytorch_does(f, kernel):
    with pytest.raises(NotImplementedError, match=f"\"{kernel}(_cpu)?\" not implemented for 'Long'"):
        f(torch.tensor([1, 2]))


def test_in_place_leaky_relu_with_a_negative_slope_refuses_its_backward():
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    y = F.leaky_relu(x * 1, -0.5, inplace=True)
    assert y.tolist() == [0.5, 2.0] and type(y.grad_fn).__name__ == "LeakyReluBackward1"
    with pytest.raises(RuntimeError, match="In-place leakyReLu backward calculation is triggered with a negative slope"):
        y.sum().backward()
    # out of place, a negative slope is fine
    F.leaky_relu(x, -0.5).sum().backward()
    assert x.grad.tolist() == [-0.5, 1.0]


def test_threshold_softsign_tanhshrink():
    x = torch.tensor([-1., 0.5, 2.], requires_grad=True)
    y = torch.nn.functional.threshold(x, 0.6, 5.0)
    assert y.tolist() == [5., 5., 2.] and y.grad_fn.name() == "ThresholdBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [0., 0., 1.]
    x.grad = None
    z = x * 1
    w = torch.nn.functional.threshold(z, 0.6, 5.0, inplace=True)
    assert w is z and w.grad_fn.name() == "ThresholdBackward1"
    w.sum().backward()
    assert x.grad.tolist() == [0., 0., 1.]  # the input's values decide, as for the functional form
    t = torch.threshold(torch.tensor([1, 5]), 2, 0)
    assert t.dtype == torch.int64 and t.tolist() == [0, 5]
    assert repr(torch.nn.Threshold(0.1, 20, inplace=True)) == "Threshold(threshold=0.1, value=20, inplace=True)"
    s = torch.nn.functional.softsign(x)
    assert s.grad_fn.name() == "DivBackward0"
    assert torch.allclose(s, torch.tensor([-0.5, 1 / 3, 2 / 3]))
    assert torch.nn.Tanhshrink()(x).grad_fn.name() == "SubBackward0"
    with pytest.raises(NotImplementedError, match="\"threshold_cpu\" not implemented for 'Bool'"):
        torch.threshold(torch.tensor([True]), 0, 0)


def test_softmin_softmax2d_unflatten_and_the_implicit_softmax_dim():
    import warnings

    x = torch.tensor([[1., 2.], [3., 0.]], requires_grad=True)
    y = F.softmin(x, dim=1)
    assert y.grad_fn.name() == "SoftmaxBackward0"
    assert torch.allclose(y, torch.tensor([[0.7311, 0.2689], [0.0474, 0.9526]]), atol=1e-4)
    assert repr(torch.nn.Softmin()) == "Softmin(dim=None)" and repr(torch.nn.Softmax2d()) == "Softmax2d()"
    assert repr(torch.nn.Unflatten(1, (2, 5))) == "Unflatten(dim=1, unflattened_size=(2, 5))"
    assert torch.nn.Unflatten(1, (2, 5))(torch.zeros(3, 10)).shape == (3, 2, 5)
    with pytest.raises(ValueError, match="^Softmax2d: expected input to be 3D or 4D, got 2D instead$"):
        torch.nn.Softmax2d()(torch.zeros(2, 3))
    with pytest.raises(TypeError, match="^unflattened_size must be a tuple of ints, but found type int$"):
        torch.nn.Unflatten(1, 5)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert F.softmax(torch.zeros(2, 2)).tolist() == [[0.5, 0.5], [0.5, 0.5]]  # implicit dim 1
        F.log_softmax(torch.zeros(3))
        F.softmin(torch.zeros(3))
    assert [str(m.message).split(" has been")[0] for m in w] == [
        "Implicit dimension choice for softmax", "Implicit dimension choice for log_softmax",
        "Implicit dimension choice for softmin"]


def test_in_place_forms_of_the_elu_family_and_the_hard_functions():
    for f, node, values, grads in [
        (lambda t: F.selu(t, inplace=True), "EluBackward1", [-1.3658, 0.0, 2.1014], [0.3923, 3.5162, 3.1521]),
        (torch.selu_, "EluBackward1", [-1.3658, 0.0, 2.1014], [0.3923, 3.5162, 3.1521]),
        (lambda t: F.celu(t, 2.0, inplace=True), "CeluBackward1", [-1.0553, 0.0, 2.0], [0.4724, 2.0, 3.0]),
        (lambda t: F.celu_(t, 2.0), "CeluBackward1", [-1.0553, 0.0, 2.0], [0.4724, 2.0, 3.0]),
        (lambda t: F.mish(t, inplace=True), "MishBackward0", [-0.2981, 0.0, 1.944], [-0.0641, 1.2, 3.208]),
        (lambda t: F.hardswish(t, inplace=True), "HardswishBackward0", [-0.375, 0.0, 1.6667], [0.0, 1.0, 3.5]),
        (lambda t: F.hardsigmoid(t, inplace=True), "HardsigmoidBackward0", [0.25, 0.5, 0.8333], [0.1667, 0.3333, 0.5]),
    ]:
        a = torch.tensor([-1.5, 0.0, 2.0], requires_grad=True)
        b = a * 1
        y = f(b)
        assert y is b and y.grad_fn.name() == node
        y.backward(torch.tensor([1.0, 2.0, 3.0]))
        assert torch.allclose(y.detach(), torch.tensor(values), atol=1e-4)
        assert torch.allclose(a.grad, torch.tensor(grads), atol=1e-4)


def test_selu_and_celu_in_float64_are_pytorchs_to_the_last_bits():
    x = torch.tensor([-4.0, -1.0, -0.5, 0.3, 25.0], dtype=torch.float64, requires_grad=True)
    y = F.selu(x)
    assert y.tolist() == pytest.approx(
        [-1.7258986281898945, -1.1113307378125625, -0.6917581878028713, 0.31521029620664415, 26.26752468388701],
        rel=1e-15)
    (g,) = torch.autograd.grad(F.celu(x, 0.7).sum(), x)
    # PyTorch's backward scales by 1/float32(alpha), its forward by 1/alpha
    assert g.tolist() == pytest.approx(
        [0.003298505491122497, 0.23965103469267596, 0.48954166193890875, 1.0, 1.0], rel=1e-12)
    assert F.celu(x, 0.7)[2].item() == pytest.approx(-0.3573208383101328, rel=1e-15)


def test_glu_prelu_and_the_shrink_functions_edges():
    x = torch.arange(8.0).reshape(4, 2).requires_grad_()
    y = F.glu(x, 0)
    assert y.shape == (2, 2) and torch.allclose(y, torch.tensor([[0.0, 0.9933], [1.9951, 2.9973]]), atol=1e-4)
    y.sum().backward()
    assert torch.allclose(x.grad, torch.tensor([[0.982, 0.9933], [0.9975, 0.9991],
                                                 [0.0, 0.0066], [0.0049, 0.0027]]), atol=1e-4)
    w = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
    x = torch.linspace(-2, 2, 24).reshape(2, 3, 4).requires_grad_()
    y = F.prelu(x, w)
    assert y.grad_fn.name() == "PreluKernelBackward0"
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["AccumulateGrad", "ViewBackward0"]
    y.sum().backward()
    assert torch.allclose(w.grad, torch.tensor([-6.9565, -4.1739, -1.3913]), atol=1e-4)
    assert [str(v) for v in F.softshrink(torch.tensor([float("nan"), -0.5, 0.5])).tolist()[1:]] == ["-0.0", "0.0"]
    assert F.softshrink(torch.tensor([float("nan")])).isnan().all()
    assert F.hardshrink(torch.tensor([0.25, -3.0]), -1.0).tolist() == [0.25, -3.0]
    assert F.logsigmoid(torch.tensor([-100.0, 100.0])).tolist()[0] == -100.0


@pytest.mark.parametrize("f, error, message", [
    (lambda: F.softshrink(torch.ones(2), -1.0), RuntimeError,
     "lambda must be in range [0, 3.40282e+38] for input dtype Float, but found -1"),
    (lambda: F.softshrink(torch.ones(2, dtype=torch.float16), 1e5), RuntimeError,
     "lambda must be in range [0, 65504] for input dtype Half, but found 100000"),
    (lambda: F.softshrink(torch.tensor([1])), NotImplementedError, "\"softshrink_check\" not implemented for 'Long'"),
    (lambda: F.hardshrink(torch.tensor([1])), NotImplementedError, "\"hardshrink_cpu\" not implemented for 'Long'"),
    (lambda: F.mish(torch.tensor([1])), NotImplementedError, "\"mish_cpu\" not implemented for 'Long'"),
    (lambda: F.selu(torch.tensor([1])), NotImplementedError, "\"elu_cpu\" not implemented for 'Long'"),
    (lambda: F.hardswish(torch.tensor([1])), NotImplementedError, "\"hardswish_cpu\" not implemented for 'Long'"),
    (lambda: F.hardsigmoid(torch.tensor([1])), NotImplementedError, "\"hardsigmoid_cpu\" not implemented for 'Long'"),
    (lambda: F.logsigmoid(torch.tensor([1])), NotImplementedError, "\"log_sigmoid_cpu\" not implemented for 'Long'"),
    (lambda: F.prelu(torch.tensor([1]), torch.tensor([1])), NotImplementedError, "\"prelu_cpu\" not implemented for 'Long'"),
    (lambda: F.celu(torch.ones(2), 0.0), RuntimeError, "ZeroDivisionError: alpha cannot be 0 for CELU"),
    (lambda: F.glu(torch.ones(2, 3)), RuntimeError, "Halving dimension must be even, but dimension 1 is size 3"),
    (lambda: F.glu(torch.tensor(1.0)), RuntimeError, "glu does not support scalars because halving size must be even"),
    (lambda: F.glu(torch.ones(2, 4), 2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: F.glu(torch.ones(4), 0.5), TypeError, "glu(): argument 'dim' (position 2) must be int, not float"),
    (lambda: F.prelu(torch.ones(2, 3), torch.ones(3, dtype=torch.float64)), RuntimeError,
     "prelu: Type promoting not supported. Got Float and Double"),
    (lambda: F.prelu(torch.ones(2, 3), torch.ones(2)), RuntimeError,
     "Mismatch of parameter numbers and input channel size. Found parameter numbers = 2 and channel size = 3."),
    (lambda: F.prelu(torch.ones(2, 3), torch.ones(1, 3)), RuntimeError,
     "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = 2"),
    (lambda: F.prelu(torch.tensor(-1.0), torch.ones(2)), RuntimeError, "Not allow zero-dim input tensor."),
])
def test_activation_errors(f, error, message):
    with pytest.raises(error) as e:
        f()
    assert str(e.value) == message


def test_hardsigmoid_has_no_second_derivative():
    x = torch.tensor([0.5, 4.0], requires_grad=True)
    (g,) = torch.autograd.grad(F.hardsigmoid(x).sum(), x, create_graph=True)
    assert g.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="^derivative for aten::hardsigmoid_backward is not implemented$"):
        g.sum().backward()


def test_more_activation_modules():
    assert [repr(m) for m in (torch.nn.SELU(), torch.nn.SELU(inplace=True), torch.nn.CELU(), torch.nn.CELU(0.5, True),
                              torch.nn.Mish(True), torch.nn.Hardswish(True), torch.nn.Hardsigmoid(),
                              torch.nn.LogSigmoid(), torch.nn.GLU(1), torch.nn.Hardshrink(0.2), torch.nn.Softshrink(),
                              torch.nn.PReLU(), torch.nn.PReLU(3, 0.1))] == [
        "SELU()", "SELU(inplace=True)", "CELU(alpha=1.0)", "CELU(alpha=0.5, inplace=True)", "Mish(inplace=True)",
        "Hardswish()", "Hardsigmoid()", "LogSigmoid()", "GLU(dim=1)", "Hardshrink(0.2)", "Softshrink(0.5)",
        "PReLU(num_parameters=1)", "PReLU(num_parameters=3)"]
    m = torch.nn.PReLU(3, 0.1)
    assert list(m.state_dict()) == ["weight"] and m.weight.tolist() == pytest.approx([0.1] * 3)
    y = m(torch.tensor([[-1.0, 2.0, -3.0]]))
    assert torch.allclose(y, torch.tensor([[-0.1, 2.0, -0.3]]))
    y.sum().backward()
    assert m.weight.grad.tolist() == [-1.0, 0.0, -3.0]
    assert not isinstance(torch.nn.Softshrink(), torch.nn.Hardshrink)
    assert torch.prelu(torch.tensor([-2.0, 3.0]), torch.tensor([0.1])).tolist() == pytest.approx([-0.2, 3.0])
    assert torch.tensor([-2.0, 3.0]).prelu(torch.tensor([0.5])).tolist() == [-1.0, 3.0]
