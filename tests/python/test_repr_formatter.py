"""Unit tests for leafgrad._tensor_str against PyTorch reprs recorded in SPEC 13/14.

The module is loaded by file path so these tests run without the compiled package.
"""

import importlib.util
import math
import pathlib

import numpy as np
import pytest

_PATH = pathlib.Path(__file__).resolve().parents[2] / "python" / "leafgrad" / "_tensor_str.py"
_spec = importlib.util.spec_from_file_location("leafgrad_tensor_str_under_test", _PATH)
ts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ts)

nan, inf = math.nan, math.inf


def f32(x):
    return np.array(x, dtype=np.float32)


def f64(x):
    return np.array(x, dtype=np.float64)


def i64(x):
    return np.array(x, dtype=np.int64)


def c64(x):
    return np.array(x, dtype=np.complex64)


@pytest.fixture(autouse=True)
def _default_printoptions():
    ts.set_printoptions(profile="default")
    yield
    ts.set_printoptions(profile="default")


# (numpy input, dtype, format_tensor kwargs, expected repr); SPEC 13.4 one-liners first.
CASES = [
    (f32(7.0), "float32", {}, "tensor(7.)"),
    (f32(7.0), "float32", {"requires_grad": True}, "tensor(7., requires_grad=True)"),
    (f32(28.0), "float32", {"grad_fn": "MulBackward0"}, "tensor(28., grad_fn=<MulBackward0>)"),
    (i64(7), "int64", {}, "tensor(7)"),
    (f32(-0.0), "float32", {}, "tensor(-0.)"),
    (f32([1.0, -0.0, 0.0]), "float32", {}, "tensor([1., -0., 0.])"),
    (f32([1.5, 2.0, 3.0]), "float32", {}, "tensor([1.5000, 2.0000, 3.0000])"),
    (f32([1.25, -2.5, 100.0]), "float32", {}, "tensor([  1.2500,  -2.5000, 100.0000])"),
    (f32([1 / 3, 2 / 3]), "float32", {}, "tensor([0.3333, 0.6667])"),
    (f32([-1.0, 2.0, -3.0]), "float32", {}, "tensor([-1.,  2., -3.])"),
    (f32([123456.7, 1.0]), "float32", {}, "tensor([1.2346e+05, 1.0000e+00])"),
    (f32([1e-4, 1.0]), "float32", {}, "tensor([1.0000e-04, 1.0000e+00])"),
    (f32([0.00012345]), "float32", {}, "tensor([0.0001])"),
    (f32([1 / 3, 1e-3]), "float32", {}, "tensor([0.3333, 0.0010])"),
    (f32([1 / 3, 1e-5]), "float32", {}, "tensor([3.3333e-01, 1.0000e-05])"),
    (f32([999.5, 1.0]), "float32", {}, "tensor([999.5000,   1.0000])"),
    (f32([1000.0, 0.5]), "float32", {}, "tensor([1.0000e+03, 5.0000e-01])"),
    (f32([1e7]), "float32", {}, "tensor([10000000.])"),
    (f32([100000000.0]), "float32", {}, "tensor([100000000.])"),
    (f32([123456789.0]), "float32", {}, "tensor([1.2346e+08])"),
    (f32([1e8, 1.0]), "float32", {}, "tensor([1.0000e+08, 1.0000e+00])"),
    (f32(1e10), "float32", {}, "tensor(1.0000e+10)"),
    (f32(123.456), "float32", {}, "tensor(123.4560)"),
    (f32(3.14159265), "float32", {}, "tensor(3.1416)"),
    (f32([1.00005]), "float32", {}, "tensor([1.0000])"),
    (f32([1e20, -1e-20, 0.0]), "float32", {}, "tensor([ 1.0000e+20, -1.0000e-20,  0.0000e+00])"),
    (f32([nan, inf, -inf, 1.0]), "float32", {}, "tensor([nan, inf, -inf, 1.])"),
    (f32([nan, 1.5]), "float32", {}, "tensor([   nan, 1.5000])"),
    (f32([inf, 1e10]), "float32", {}, "tensor([       inf, 1.0000e+10])"),
    (f32([-inf, 2.5]), "float32", {}, "tensor([  -inf, 2.5000])"),
    (f32([-0.0, 1.5]), "float32", {}, "tensor([-0.0000, 1.5000])"),
    (f32(nan), "float32", {}, "tensor(nan)"),
    (f64([1.0, 2.0]), "float64", {}, "tensor([1., 2.], dtype=torch.float64)"),
    (f64(7.0), "float64", {}, "tensor(7., dtype=torch.float64)"),
    (f64([1.0, 2.0]), "float64", {"requires_grad": True},
     "tensor([1., 2.], dtype=torch.float64, requires_grad=True)"),
    (f64([2.0, 4.0]), "float64", {"grad_fn": "MulBackward0"},
     "tensor([2., 4.], dtype=torch.float64, grad_fn=<MulBackward0>)"),
    (np.array([0.1, 0.2], dtype=np.float16), "float16", {},
     "tensor([0.1000, 0.2000], dtype=torch.float16)"),
    (f32([0.10009765625, 0.2001953125]), "bfloat16", {},
     "tensor([0.1001, 0.2002], dtype=torch.bfloat16)"),
    (i64([1, -20, 300]), "int64", {}, "tensor([  1, -20, 300])"),
    (np.array([1, 2], dtype=np.int32), "int32", {}, "tensor([1, 2], dtype=torch.int32)"),
    (np.array(5, dtype=np.int32), "int32", {}, "tensor(5, dtype=torch.int32)"),
    (np.array([1, 2], dtype=np.uint8), "uint8", {}, "tensor([1, 2], dtype=torch.uint8)"),
    (np.array([True, False]), "bool", {}, "tensor([ True, False])"),
    (np.array(True), "bool", {}, "tensor(True)"),
    (c64(7 + 0j), "complex64", {}, "tensor(7.+0.j)"),
    (c64([1 + 2j, -3.5 - 1j]), "complex64", {}, "tensor([ 1.0000+2.j, -3.5000-1.j])"),
    (c64(1.5 + 2.25j), "complex64", {}, "tensor(1.5000+2.2500j)"),
    (c64([1j]), "complex64", {}, "tensor([0.+1.j])"),
    (np.array([1 + 2j, 3 - 4j], dtype=np.complex128), "complex128", {},
     "tensor([1.+2.j, 3.-4.j], dtype=torch.complex128)"),
    (c64([1 + 2j]), "complex64", {"requires_grad": True}, "tensor([1.+2.j], requires_grad=True)"),
    (f32([]), "float32", {}, "tensor([])"),
    (i64([]), "int64", {}, "tensor([], dtype=torch.int64)"),
    (np.zeros((0, 3), np.float32), "float32", {}, "tensor([], size=(0, 3))"),
    (np.zeros(0, bool), "bool", {}, "tensor([], dtype=torch.bool)"),
    (f32([]), "float32", {"requires_grad": True}, "tensor([], requires_grad=True)"),
    (np.zeros((0, 3), np.float32), "float32", {"grad_fn": "MulBackward0"},
     "tensor([], size=(0, 3), grad_fn=<MulBackward0>)"),
    (np.ones((1, 1, 1), np.float32), "float32", {}, "tensor([[[1.]]])"),
    (f32([1.0, 1.0]), "float32", {"grad_fn": "MeanBackward1"}, "tensor([1., 1.], grad_fn=<MeanBackward1>)"),
    (f32(3.0), "float32", {"requires_grad": True}, "tensor(3., requires_grad=True)"),
    (f32(2.5), "float32", {"grad_fn": "MseLossBackward0"}, "tensor(2.5000, grad_fn=<MseLossBackward0>)"),
    (f32(0.40760596), "float32", {"grad_fn": "NllLossBackward0"}, "tensor(0.4076, grad_fn=<NllLossBackward0>)"),
    # conformance repr_1d / repr_scientific / repr_widths_negative
    (f32([0.5, 1.25]), "float32", {}, "tensor([0.5000, 1.2500])"),
    (np.array([True, False, True]), "bool", {}, "tensor([ True, False,  True])"),
    (f32([0.0, 0.25, 0.5, 0.75]), "float32", {}, "tensor([0.0000, 0.2500, 0.5000, 0.7500])"),
    (f64([0.0, 0.0, 0.0]), "float64", {}, "tensor([0., 0., 0.], dtype=torch.float64)"),
    (np.ones(2, bool), "bool", {}, "tensor([True, True])"),
    (f32(1e-10), "float32", {}, "tensor(1.0000e-10)"),
    (f32([0.001, 1000.0]), "float32", {}, "tensor([1.0000e-03, 1.0000e+03])"),
    (f32([0.5, 2000.0]), "float32", {}, "tensor([5.0000e-01, 2.0000e+03])"),
    (f32([1.0, 1e9]), "float32", {}, "tensor([1.0000e+00, 1.0000e+09])"),
    (f32([2.0**-20, 2.0**20]), "float32", {}, "tensor([9.5367e-07, 1.0486e+06])"),
    (f32([1e-4]), "float32", {}, "tensor([1.0000e-04])"),
    (f32([1.0, -100.0, 10.0]), "float32", {}, "tensor([   1., -100.,   10.])"),
    (f32([-0.5, 0.25]), "float32", {}, "tensor([-0.5000,  0.2500])"),
    (i64([1, -100, 10]), "int64", {}, "tensor([   1, -100,   10])"),
    (f32([0.1, 0.2]), "float32", {}, "tensor([0.1000, 0.2000])"),
    (f32([1.5, 1000.0]), "float32", {}, "tensor([   1.5000, 1000.0000])"),
    (f32([123.0, 4.0, -5.0]), "float32", {}, "tensor([123.,   4.,  -5.])"),
    # SPEC 14 / complex_requires_grad
    (c64([1 + 2j, 3 - 1j]), "complex64", {"requires_grad": True}, "tensor([1.+2.j, 3.-1.j], requires_grad=True)"),
    (f32(15.0), "float32", {"grad_fn": "SumBackward0"}, "tensor(15., grad_fn=<SumBackward0>)"),
    (c64([2 + 4j, 6 - 2j]), "complex64", {}, "tensor([2.+4.j, 6.-2.j])"),
    (c64([2 + 4j, 6 - 2j]), "complex64", {"grad_fn": "MulBackward0"}, "tensor([2.+4.j, 6.-2.j], grad_fn=<MulBackward0>)"),
    (f32(math.sqrt(5) + math.sqrt(10)), "float32", {"grad_fn": "SumBackward0"},
     "tensor(5.3983, grad_fn=<SumBackward0>)"),
    (c64([(1 + 2j) / math.sqrt(5), (3 - 1j) / math.sqrt(10)]), "complex64", {},
     "tensor([0.4472+0.8944j, 0.9487-0.3162j])"),
    (c64([1 + 0j, 1 + 0j]), "complex64", {}, "tensor([1.+0.j, 1.+0.j])"),
    (c64([1j, 1j]), "complex64", {}, "tensor([0.+1.j, 0.+1.j])"),
    (c64(2 + 2j), "complex64", {}, "tensor(2.+2.j)"),
    (c64(2 - 2j), "complex64", {}, "tensor(2.-2.j)"),
    (c64([2 - 4j, 6 + 2j]), "complex64", {}, "tensor([2.-4.j, 6.+2.j])"),
    (f32([math.sqrt(2)] * 2), "float32", {}, "tensor([1.4142, 1.4142])"),
    (c64([1 + 1j, 2 + 2j]), "complex64", {"grad_fn": "MulBackward0"}, "tensor([1.+1.j, 2.+2.j], grad_fn=<MulBackward0>)"),
    (c64([1 - 2j, 3 + 1j]), "complex64", {"grad_fn": "ConjBackward0"}, "tensor([1.-2.j, 3.+1.j], grad_fn=<ConjBackward0>)"),
    (c64([1 - 1j, 0.5 + 2j]), "complex64", {}, "tensor([1.0000-1.j, 0.5000+2.j])"),
    (np.array([1j], dtype=np.complex128), "complex128", {}, "tensor([0.+1.j], dtype=torch.complex128)"),
    (c64([0j, 0j]), "complex64", {"requires_grad": True}, "tensor([0.+0.j, 0.+0.j], requires_grad=True)"),
    (np.zeros(0, np.complex64), "complex64", {}, "tensor([], dtype=torch.complex64)"),
    (f32([0.8, 1.6]), "float32", {"requires_grad": True}, "tensor([0.8000, 1.6000], requires_grad=True)"),
    # device and grad_fn-over-requires_grad
    (f32([1.0, 2.0]), "float32", {"device": "cuda:0"}, "tensor([1., 2.], device='cuda:0')"),
    (f32([1.0, 2.0]), "float32", {"device": "cpu"}, "tensor([1., 2.])"),
    (f32([1.0]), "float32", {"grad_fn": "CopySlices", "requires_grad": True}, "tensor([1.], grad_fn=<CopySlices>)"),
    (np.zeros((2, 0), np.int32), "int32", {"device": "meta"}, "tensor([], device='meta', size=(2, 0), dtype=torch.int32)"),
]


@pytest.mark.parametrize("arr,dtype,kwargs,expected", CASES, ids=[c[3] for c in CASES])
def test_repr_one_liners(arr, dtype, kwargs, expected):
    assert ts.format_tensor(arr, dtype, **kwargs) == expected


MULTILINE = [
    (f32([[1.5, 2.0], [3.0, -4.0]]), "float32", {"requires_grad": True},
     "tensor([[ 1.5000,  2.0000],\n"
     "        [ 3.0000, -4.0000]], requires_grad=True)"),
    (f32([[1e-5, 1.0], [2.0, 3.0]]), "float32", {},
     "tensor([[1.0000e-05, 1.0000e+00],\n"
     "        [2.0000e+00, 3.0000e+00]])"),
    (c64([[1 + 1j, 2], [3, 4 - 2.5j]]), "complex64", {},
     "tensor([[1.+1.0000j, 2.+0.0000j],\n"
     "        [3.+0.0000j, 4.-2.5000j]])"),
    (np.arange(8).reshape(2, 2, 2), "int64", {},
     "tensor([[[0, 1],\n"
     "         [2, 3]],\n"
     "\n"
     "        [[4, 5],\n"
     "         [6, 7]]])"),
    (np.arange(16).reshape(2, 2, 2, 2), "int64", {},
     "tensor([[[[ 0,  1],\n          [ 2,  3]],\n\n         [[ 4,  5],\n          [ 6,  7]]],\n\n\n"
     "        [[[ 8,  9],\n          [10, 11]],\n\n         [[12, 13],\n          [14, 15]]]])"),
    (np.arange(30, dtype=np.float32), "float32", {},
     "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
     "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
     "        28., 29.])"),
    (np.arange(20, dtype=np.float64) * 2, "float64", {"grad_fn": "MulBackward0"},
     "tensor([ 0.,  2.,  4.,  6.,  8., 10., 12., 14., 16., 18., 20., 22., 24., 26.,\n"
     "        28., 30., 32., 34., 36., 38.], dtype=torch.float64,\n"
     "       grad_fn=<MulBackward0>)"),
    (np.arange(1001, dtype=np.float32), "float32", {},
     "tensor([   0.,    1.,    2.,  ...,  998.,  999., 1000.])"),
    (np.arange(1001, dtype=np.float32) * 2, "float32", {"grad_fn": "MulBackward0"},
     "tensor([   0.,    2.,    4.,  ..., 1996., 1998., 2000.],\n"
     "       grad_fn=<MulBackward0>)"),
    (np.arange(2000).reshape(2, 1000), "int64", {},
     "tensor([[   0,    1,    2,  ...,  997,  998,  999],\n"
     "        [1000, 1001, 1002,  ..., 1997, 1998, 1999]])"),
    (np.arange(3000, dtype=np.float32).reshape(1000, 3), "float32", {},
     "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00],\n"
     "        [3.0000e+00, 4.0000e+00, 5.0000e+00],\n"
     "        [6.0000e+00, 7.0000e+00, 8.0000e+00],\n"
     "        ...,\n"
     "        [2.9910e+03, 2.9920e+03, 2.9930e+03],\n"
     "        [2.9940e+03, 2.9950e+03, 2.9960e+03],\n"
     "        [2.9970e+03, 2.9980e+03, 2.9990e+03]])"),
    (np.linspace(0, 1, 25, dtype=np.float32), "float32", {},
     "tensor([0.0000, 0.0417, 0.0833, 0.1250, 0.1667, 0.2083, 0.2500, 0.2917, 0.3333,\n"
     "        0.3750, 0.4167, 0.4583, 0.5000, 0.5417, 0.5833, 0.6250, 0.6667, 0.7083,\n"
     "        0.7500, 0.7917, 0.8333, 0.8750, 0.9167, 0.9583, 1.0000])"),
    (f32([[1.5410, -0.2934, -2.1788], [0.5684, -1.0845, -1.3986]]), "float32", {},
     "tensor([[ 1.5410, -0.2934, -2.1788],\n"
     "        [ 0.5684, -1.0845, -1.3986]])"),
    (f32([[-0.0043, 0.3097, -0.4752], [-0.4249, -0.2224, 0.1548]]), "float32", {"requires_grad": True},
     "tensor([[-0.0043,  0.3097, -0.4752],\n"
     "        [-0.4249, -0.2224,  0.1548]], requires_grad=True)"),
    (f32([[1.0, -2.5], [300.0, 4.0]]), "float32", {},
     "tensor([[  1.0000,  -2.5000],\n"
     "        [300.0000,   4.0000]])"),
    (f32([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]), "float32", {},
     "tensor([[1., 2., 3.],\n"
     "        [1., 2., 3.]])"),
    (f32([[-2.0, 4.0]]), "float32", {"grad_fn": "AddmmBackward0"}, "tensor([[-2.,  4.]], grad_fn=<AddmmBackward0>)"),
]


@pytest.mark.parametrize("arr,dtype,kwargs,expected", MULTILINE)
def test_repr_multiline(arr, dtype, kwargs, expected):
    assert ts.format_tensor(arr, dtype, **kwargs) == expected


def test_suffix_wraps_to_new_line():
    out = ts.format_tensor(np.exp(f64([1.0, 2.0, 3.0])), "float64", grad_fn="ExpBackward0")
    assert out == "tensor([ 2.7183,  7.3891, 20.0855], dtype=torch.float64,\n       grad_fn=<ExpBackward0>)"


def test_get_printoptions_defaults():
    assert ts.get_printoptions() == {
        "precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None,
    }
    assert list(ts.get_printoptions()) == ["precision", "threshold", "edgeitems", "linewidth", "sci_mode"]


def test_precision_and_sci_mode():
    ts.set_printoptions(precision=2)
    data = f32([1.12345, 200.5, 3.0])
    assert ts.format_tensor(data, "float32") == "tensor([  1.12, 200.50,   3.00])"
    ts.set_printoptions(sci_mode=True)
    assert ts.PRINT_OPTS.precision == 2
    assert ts.format_tensor(data, "float32") == "tensor([1.12e+00, 2.00e+02, 3.00e+00])"
    ts.set_printoptions(sci_mode=False)
    assert ts.format_tensor(f32([1e-5, 1e5]), "float32") == "tensor([     0.00, 100000.00])"
    assert ts.format_tensor(f32([1e10, 1.0]), "float32") == "tensor([10000000000.,           1.])"
    # any call without sci_mode resets it
    ts.set_printoptions(precision=2)
    assert ts.PRINT_OPTS.sci_mode is None
    assert ts.format_tensor(f32([1e10, 1.0]), "float32") == "tensor([1.00e+10, 1.00e+00])"


def test_threshold_and_edgeitems():
    ts.set_printoptions(threshold=5)
    assert ts.format_tensor(np.arange(10), "int64") == "tensor([0, 1, 2,  ..., 7, 8, 9])"
    assert ts.format_tensor(np.arange(6), "int64") == "tensor([0, 1, 2, 3, 4, 5])"
    ts.set_printoptions(edgeitems=1, threshold=5)
    assert ts.format_tensor(np.arange(10), "int64") == "tensor([0,  ..., 9])"


def test_linewidth():
    ts.set_printoptions(linewidth=40)
    out = ts.format_tensor(np.arange(10, dtype=np.float32), "float32", requires_grad=True)
    assert out == "tensor([0., 1., 2., 3., 4., 5., 6., 7.,\n        8., 9.], requires_grad=True)"


def test_profiles():
    ts.set_printoptions(profile="short")
    assert ts.get_printoptions() == {
        "precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80, "sci_mode": None,
    }
    ts.set_printoptions(profile="full")
    assert ts.PRINT_OPTS.threshold == math.inf
    assert "..." not in ts.format_tensor(np.arange(2000), "int64")
    ts.set_printoptions(profile="default")
    assert ts.get_printoptions()["threshold"] == 1000


def test_printoptions_context_restores():
    with ts.printoptions(precision=1):
        assert ts.format_tensor(f32([0.25, 1.5]), "float32") == "tensor([0.2, 1.5])"
    assert ts.format_tensor(f32([0.25, 1.5]), "float32") == "tensor([0.2500, 1.5000])"


def test_unknown_dtype_rejected():
    with pytest.raises(ValueError):
        ts.format_tensor(f32([1.0]), "float8")
