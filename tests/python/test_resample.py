"""Padding, interpolation, pixel/channel shuffles, fold/unfold, bilinear, rrelu and the
channel-wise and alpha dropouts: values, gradients, node names, seeded draws, reprs, errors and
warnings as PyTorch 2.15 gives them (these expectations run against it with
LEAFGRAD_TEST_TORCH=1)."""
import pytest
from support import exact, grad_fn_name, record_warnings, warning_texts

import leafgrad as torch
import leafgrad.nn as nn
import leafgrad.nn.functional as F


def flat(t):
    return t.detach().flatten().tolist()


def close(t, values, atol=1e-4):
    return torch.allclose(t.detach().flatten(), torch.tensor(values, dtype=t.dtype), atol=atol)


def arange_like(y):
    return torch.arange(float(y.numel())).reshape(y.shape)


# --------------------------------------------------------------------------------------------
# pad

PAD_2D = {  # F.pad(arange(12).reshape(1, 1, 3, 4), (2, 1, 1, -1), mode): node, values, grad for arange
    "constant": ("ConstantPadNdBackward0",
                 [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 4, 5, 6, 7, 0],
                 [9, 10, 11, 12, 16, 17, 18, 19, 0, 0, 0, 0]),
    "reflect": ("ReflectionPad2DBackward0",
                [6, 5, 4, 5, 6, 7, 6, 2, 1, 0, 1, 2, 3, 2, 6, 5, 4, 5, 6, 7, 6],
                [9, 18, 31, 12, 18, 36, 62, 24, 0, 0, 0, 0]),
    "replicate": ("ReplicationPad2DBackward0",
                  [0, 0, 0, 1, 2, 3, 3, 0, 0, 0, 1, 2, 3, 3, 4, 4, 4, 5, 6, 7, 7],
                  [27, 13, 15, 36, 45, 17, 18, 39, 0, 0, 0, 0]),
    "circular": ("CopySlices",
                 [6, 7, 4, 5, 6, 7, 4, 2, 3, 0, 1, 2, 3, 0, 6, 7, 4, 5, 6, 7, 4],
                 [22, 10, 18, 20, 44, 20, 36, 40, 0, 0, 0, 0]),
}


@pytest.mark.parametrize("mode", sorted(PAD_2D))
def test_pad_2d_values_gradients_and_nodes(mode):
    node, values, grad = PAD_2D[mode]
    x = torch.arange(12.).reshape(1, 1, 3, 4).requires_grad_()
    y = F.pad(x, (2, 1, 1, -1), mode=mode)
    assert y.shape == (1, 1, 3, 7) and grad_fn_name(y) == node
    assert flat(y) == values
    y.backward(arange_like(y))
    assert flat(x.grad) == grad


PAD_3D = {  # F.pad(arange(8).reshape(1, 1, 2, 2, 2), (1, 0, 0, 1, 1, 0), mode), grad of ones
    "constant": ("ConstantPadNdBackward0",
                 [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 3, 0, 0, 0, 0, 4, 5, 0, 6, 7, 0, 0, 0],
                 [1, 1, 1, 1, 1, 1, 1, 1]),
    "reflect": ("ReflectionPad3DBackward0",
                [5, 4, 5, 7, 6, 7, 5, 4, 5, 1, 0, 1, 3, 2, 3, 1, 0, 1, 5, 4, 5, 7, 6, 7, 5, 4, 5],
                [2, 4, 1, 2, 4, 8, 2, 4]),
    "replicate": ("ReplicationPad3DBackward0",
                  [0, 0, 1, 2, 2, 3, 2, 2, 3, 0, 0, 1, 2, 2, 3, 2, 2, 3, 4, 4, 5, 6, 6, 7, 6, 6, 7],
                  [4, 2, 8, 4, 2, 1, 4, 2]),
    "circular": ("CopySlices",
                 [5, 4, 5, 7, 6, 7, 5, 4, 5, 1, 0, 1, 3, 2, 3, 1, 0, 1, 5, 4, 5, 7, 6, 7, 5, 4, 5],
                 [2, 4, 1, 2, 4, 8, 2, 4]),
}


@pytest.mark.parametrize("mode", sorted(PAD_3D))
def test_pad_3d(mode):
    node, values, grad = PAD_3D[mode]
    x = torch.arange(8.).reshape(1, 1, 2, 2, 2).requires_grad_()
    y = F.pad(x, (1, 0, 0, 1, 1, 0), mode=mode)
    assert y.shape == (1, 1, 3, 3, 3) and grad_fn_name(y) == node
    assert flat(y) == values
    y.backward(torch.ones_like(y))
    assert flat(x.grad) == grad


def test_pad_1d_negative_pads_and_dtypes():
    x = torch.tensor([[[1., 2., 3., 4.]]])
    assert flat(F.pad(x, (-1, 2), mode="reflect")) == [2., 3., 4., 3., 2.]
    assert flat(F.pad(x, (-1, 2), mode="replicate")) == [2., 3., 4., 4., 4.]
    assert flat(F.pad(x, (-1, 2), mode="circular")) == [2., 3., 4., 2., 3.]
    assert flat(F.pad(x, (-1, 2), value=9)) == [2., 3., 4., 9., 9.]
    for mode, node in [("reflect", "ReflectionPad1DBackward0"), ("replicate", "ReplicationPad1DBackward0"),
                       ("circular", "CopySlices")]:
        assert grad_fn_name(F.pad(x.requires_grad_(), (1, 1), mode=mode)) == node
    # constant pads any number of dims; all-zero pads still copy (a new tensor with the node)
    z = torch.ones(2, 2, 2, 2, 2, requires_grad=True)
    y = F.pad(z, (1, 1, 0, 0, 1, 0, 0, 1, 1, 1))
    assert y.shape == (4, 3, 3, 2, 4) and y.sum().item() == 32
    y0 = F.pad(z, (0, 0))
    assert y0 is not z and grad_fn_name(y0) == "ConstantPadNdBackward0"
    assert F.pad(torch.randn(2, 4), (-2, -2)).shape == (2, 0)
    # the value takes the input's dtype
    assert F.pad(torch.arange(3).reshape(1, 3), (1, 1), value=9.6).tolist() == [[9, 0, 1, 2, 9]]
    assert F.pad(torch.tensor([True, False]), (1, 1), value=1.).tolist() == [True, True, False, True]
    assert F.pad(torch.tensor([[[True, False]]]), (1, 1), mode="circular").tolist() == [[[False, True, False, True]]]
    assert F.pad(torch.randn(0, 3, 4), (1, 1), mode="reflect").shape == (0, 3, 6)


def test_pad_double_backward():
    x = torch.tensor([[[1., 2., 3.]]], requires_grad=True)
    y = F.pad(x, (2, 1), mode="reflect")
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert flat(g) == [2., 12., 12.]
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert flat(gg) == [2., 6., 4.]


COMBINATIONS = ("\nSupported combinations for non-constant padding:\n"
                "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")

PAD_ERRORS = [
    ((2, 3, 4), (1,), "constant", None, RuntimeError, "Padding length must be divisible by 2"),
    ((2, 3, 4), (1,) * 8, "reflect", None, RuntimeError,
     "Padding length should be less than or equal to two times the input dimension but got padding length 8 and "
     "input of dimension 3"),
    ((2, 3, 4), (1, 1), "reflect", 2.0, RuntimeError, "Padding mode \"reflect\" doesn't take in value argument"),
    ((2, 3, 4), (1,), "foo", None, NotImplementedError, "Unrecognised padding mode foo"),
    ((2, 3, 4), (4, 1), "reflect", None, RuntimeError,
     "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (4, 1) at "
     "dimension 2 of input [2, 3, 4]"),
    ((1, 2, 3, 4), (0, 0, 0, 3), "reflect", None, RuntimeError,
     "Argument #6: Padding size should be less than the corresponding input dimension, but got: padding (0, 3) at "
     "dimension 2 of input [1, 2, 3, 4]"),
    ((1, 1, 2, 3, 4), (0, 0, 0, 0, 2, 0), "reflect", None, RuntimeError,
     "Argument #8: Padding size should be less than the corresponding input dimension, but got: padding (2, 0) at "
     "dimension 2 of input [1, 1, 2, 3, 4]"),
    ((2, 3, 4), (-2, -2), "replicate", None, RuntimeError, "input (W: 4) is too small. Calculated output W: 0"),
    ((1, 2, 3, 4), (0, 0, -2, -2), "reflect", None, RuntimeError,
     "Calculated output H: -1 W: 4 must be >= 1 in every dimension (input H: 3, W: 4)"),
    ((1, 1, 2, 3, 4), (0, 0, 0, 0, -1, -1), "replicate", None, RuntimeError,
     "Calculated output D: 0 H: 3 W: 4 must be >= 1 in every dimension (input D: 2, H: 3, W: 4)"),
    ((2, 0, 4), (1, 1), "reflect", None, RuntimeError,
     "Expected 2D or 3D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but "
     "got: [2, 0, 4]"),
    ((2, 3, 4), (5, 1), "circular", None, RuntimeError, "Padding value causes wrapping around more than once."),
    ((1, 2, 3, 4), (0, 0, -2, -2), "circular", None, RuntimeError,
     "Negative padding value is resulting in an empty dimension"),
    ((2, 3, 4), (-5, 1), "constant", None, RuntimeError, "narrow(): length must be non-negative."),
    ((4,), (1, 1), "reflect", None, NotImplementedError, "Padding size 2 is not supported for 1D input tensor."
     + COMBINATIONS),
    ((1, 2, 3, 4), (1, 1), "replicate", None, NotImplementedError,
     "Padding size 2 is not supported for 4D input tensor." + COMBINATIONS),
]


@pytest.mark.parametrize("case", range(len(PAD_ERRORS)))
def test_pad_errors(case):
    shape, pad, mode, value, exc, message = PAD_ERRORS[case]
    with pytest.raises(exc, match=exact(message)):
        F.pad(torch.zeros(shape), pad, mode=mode, value=value)


def test_pad_argument_types_and_dtypes():
    x = torch.zeros(2, 3, 4)
    with pytest.raises(TypeError, match=exact("pad(): argument 'pad' (position 2) must be tuple of ints, but found "
                                              "element of type float at pos 0")):
        F.pad(x, [1.5, 1])
    with pytest.raises(TypeError, match=exact("pad(): argument 'pad' (position 2) must be tuple of ints, not int")):
        F.pad(x, 1)
    with pytest.raises(TypeError, match=exact("pad(): argument 'mode' (position 3) must be str, not NoneType")):
        F.pad(x, (1, 1), mode=None)
    with pytest.raises(TypeError, match=exact("pad(): argument 'value' (position 4) must be float, not complex")):
        F.pad(x, (1, 1), value=1j)
    assert F.pad(x, (1, 1), mode="reflect", value=0).shape == (2, 3, 6)
    with pytest.raises(NotImplementedError, match=exact("\"replication_pad2d\" not implemented for 'Bool'")):
        F.pad(torch.zeros(1, 1, 2, 2, dtype=torch.bool), (1, 1, 1, 1), mode="replicate")
    assert F.pad(torch.arange(4).reshape(1, 1, 4), (1, 1), mode="reflect").tolist() == [[[1, 0, 1, 2, 3, 2]]]


PAD_MODULES = [
    (nn.ConstantPad1d((1, 2), 3.5), "ConstantPad1d(padding=(1, 2), value=3.5)", (1, 2)),
    (nn.ConstantPad2d(2, 1), "ConstantPad2d(padding=(2, 2, 2, 2), value=1)", (2, 2, 2, 2)),
    (nn.ConstantPad3d(1, -1.0), "ConstantPad3d(padding=(1, 1, 1, 1, 1, 1), value=-1.0)", (1,) * 6),
    (nn.ZeroPad1d(2), "ZeroPad1d((2, 2))", (2, 2)),
    (nn.ZeroPad2d((1, 2, 3, 4)), "ZeroPad2d((1, 2, 3, 4))", (1, 2, 3, 4)),
    (nn.ZeroPad3d(1), "ZeroPad3d((1, 1, 1, 1, 1, 1))", (1,) * 6),
    (nn.ReflectionPad1d(1), "ReflectionPad1d((1, 1))", (1, 1)),
    (nn.ReflectionPad2d([1, 0, 1, 0]), "ReflectionPad2d((1, 0, 1, 0))", (1, 0, 1, 0)),
    (nn.ReflectionPad3d(1), "ReflectionPad3d((1, 1, 1, 1, 1, 1))", (1,) * 6),
    (nn.ReplicationPad1d((0, 2)), "ReplicationPad1d((0, 2))", (0, 2)),
    (nn.ReplicationPad2d(1), "ReplicationPad2d((1, 1, 1, 1))", (1, 1, 1, 1)),
    (nn.ReplicationPad3d((1, 0, 0, 1, 1, 0)), "ReplicationPad3d((1, 0, 0, 1, 1, 0))", (1, 0, 0, 1, 1, 0)),
    (nn.CircularPad1d(1), "CircularPad1d((1, 1))", (1, 1)),
    (nn.CircularPad2d((1, 0, 0, 1)), "CircularPad2d((1, 0, 0, 1))", (1, 0, 0, 1)),
    (nn.CircularPad3d(1), "CircularPad3d((1, 1, 1, 1, 1, 1))", (1,) * 6),
]


@pytest.mark.parametrize("case", range(len(PAD_MODULES)))
def test_pad_modules(case):
    m, text, padding = PAD_MODULES[case]
    assert repr(m) == text and m.padding == padding
    dims = len(padding) // 2
    x = torch.arange(float(2 ** (dims + 1))).reshape((1, 2) + (2,) * dims)
    mode = {"Cons": "constant", "Zero": "constant", "Refl": "reflect", "Repl": "replicate", "Circ": "circular"}
    kind = mode[type(m).__name__[:4]]
    value = getattr(m, "value", None) if kind == "constant" else None
    assert torch.equal(m(x), F.pad(x, padding, kind, value))
    assert list(m.parameters()) == []


def test_pad_module_checks():
    assert isinstance(nn.ZeroPad2d(1), nn.ConstantPad2d)
    assert repr(nn.ReflectionPad2d((1, 2, 3))) == "ReflectionPad2d((1, 2, 3))"  # not checked, as PyTorch's
    with pytest.raises(ValueError, match=exact("expected 3D or 4D input (got 2D input)")):
        nn.CircularPad2d(1)(torch.zeros(2, 2))
    with pytest.raises(TypeError, match=r"ConstantPad1d.__init__\(\) missing 1 required positional argument: 'value'"):
        nn.ConstantPad1d(2)


# --------------------------------------------------------------------------------------------
# interpolate

X2 = [[[[1., 2., 4.], [3., -1., 0.5]]]]
INTERP_2D = [  # mode, kwargs, node, shape, values, grad for an arange grad_output
    ("nearest", dict(scale_factor=(1.5, 1.7)), "UpsampleNearest2DBackward0", (1, 1, 3, 5),
     [1, 1, 2, 2, 4, 1, 1, 2, 2, 4, 3, 3, -1, -1, 0.5], [12, 20, 13, 21, 25, 14]),
    ("nearest-exact", dict(size=(3, 5)), "UpsampleNearestExact2DBackward0", (1, 1, 3, 5),
     [1, 1, 2, 4, 4, 3, 3, -1, 0.5, 0.5, 3, 3, -1, 0.5, 0.5], [1, 2, 7, 32, 19, 44]),
    ("bilinear", dict(size=(3, 4)), "UpsampleBilinear2DBackward0", (1, 1, 3, 4),
     [1.0, 1.625, 2.75, 4.0, 2.0, 1.0625, 1.1562, 2.25, 3.0, 0.5, -0.4375, 0.5],
     [3.3125, 5.3125, 8.375, 14.3125, 15.3125, 19.375]),
    ("bilinear", dict(scale_factor=1.5, align_corners=True), "UpsampleBilinear2DBackward0", (1, 1, 3, 4),
     [1.0, 1.6667, 2.6667, 4.0, 2.0, 1.0, 1.0833, 2.25, 3.0, 0.3333, -0.5, 0.5],
     [3.1667, 5.6667, 8.1667, 13.8333, 16.3333, 18.8333]),
    ("bicubic", dict(size=(3, 4)), "UpsampleBicubic2DBackward0", (1, 1, 3, 4),
     [0.7235, 1.5192, 3.1543, 4.4505, 2.1077, 0.8483, 0.9658, 2.3756, 3.4919, 0.1774, -1.2227, 0.3007],
     [1.9372, 4.8194, 7.4656, 14.3518, 17.5458, 19.8802]),
    ("bicubic", dict(size=(3, 4), align_corners=True), "UpsampleBicubic2DBackward0", (1, 1, 3, 4),
     [1.0, 1.463, 2.7407, 4.0, 2.0, 0.7778, 0.8843, 2.25, 3.0, 0.0926, -0.9722, 0.5],
     [2.5463, 6.7685, 7.6852, 12.1759, 19.5093, 17.3148]),
    ("area", dict(size=(1, 2)), "AdaptiveAvgPool2DBackward0", (1, 1, 1, 2), [1.25, 1.375],
     [0.0, 0.25, 0.25, 0.0, 0.25, 0.25]),
]


@pytest.mark.parametrize("case", range(len(INTERP_2D)))
def test_interpolate_2d(case):
    mode, kw, node, shape, values, grad = INTERP_2D[case]
    x = torch.tensor(X2, requires_grad=True)
    y = F.interpolate(x, mode=mode, **kw)
    assert y.shape == shape and grad_fn_name(y) == node
    y.backward(arange_like(y))
    if mode.startswith("nearest"):
        assert flat(y) == values and flat(x.grad) == grad
    else:
        assert close(y, values) and close(x.grad, grad, atol=2e-4)


X1 = [[[1., 2., 4., -2., 0.]]]
X3 = [float(i) for i in range(8)]
INTERP_1D_3D = [
    (X1, "linear", dict(size=7), "UpsampleLinear1DBackward0", (1, 1, 7),
     [1.0, 1.5714, 2.5714, 4.0, -0.2857, -1.1429, 0.0], [0.4286, 2.0, 4.7143, 5.7143, 8.1429]),
    (X1, "linear", dict(scale_factor=0.5), "UpsampleLinear1DBackward0", (1, 1, 2), [1.5, 1.0],
     [0.0, 0.0, 0.5, 0.5, 0.0]),
    (X1, "nearest", dict(size=3), "UpsampleNearest1DBackward0", (1, 1, 3), [1.0, 2.0, -2.0], [0, 1, 0, 2, 0]),
    (X1, "nearest-exact", dict(size=3), "UpsampleNearestExact1DBackward0", (1, 1, 3), [1.0, 4.0, 0.0],
     [0, 0, 1, 0, 2]),
    (X1, "area", dict(size=3), "SqueezeBackward1", (1, 1, 3), [1.5, 1.3333, -1.0], [0.0, 0.3333, 0.3333, 1.3333, 1.0]),
    (X3, "trilinear", dict(size=(3, 2, 3)), "UpsampleTrilinear3DBackward0", (1, 1, 3, 2, 3),
     [0.0, 0.5, 1.0, 2.0, 2.5, 3.0, 2.0, 2.5, 3.0, 4.0, 4.5, 5.0, 4.0, 4.5, 5.0, 6.0, 6.5, 7.0],
     [5.25, 8.25, 12.0, 15.0, 23.25, 26.25, 30.0, 33.0]),
    (X3, "nearest", dict(scale_factor=1.5), "UpsampleNearest3DBackward0", (1, 1, 3, 3, 3),
     [0, 0, 1, 0, 0, 1, 2, 2, 3, 0, 0, 1, 0, 0, 1, 2, 2, 3, 4, 4, 5, 4, 4, 5, 6, 6, 7],
     [52, 32, 44, 25, 80, 43, 49, 26]),
    (X3, "area", dict(size=(1, 1, 2)), "AdaptiveAvgPool3DBackward0", (1, 1, 1, 1, 2), [3.0, 4.0],
     [0.0, 0.25, 0.0, 0.25, 0.0, 0.25, 0.0, 0.25]),
]


@pytest.mark.parametrize("case", range(len(INTERP_1D_3D)))
def test_interpolate_1d_and_3d(case):
    data, mode, kw, node, shape, values, grad = INTERP_1D_3D[case]
    x = torch.tensor(data)
    x = (x if x.dim() == 3 else x.reshape(1, 1, 2, 2, 2)).requires_grad_()
    y = F.interpolate(x, mode=mode, **kw)
    assert y.shape == shape and grad_fn_name(y) == node
    y.backward(arange_like(y))
    assert close(y, values) and close(x.grad, grad)


def test_nearest_reads_as_pytorch_kernels_do():
    # 5 -> 10 under scale_factor=2.1: the 1-d forward uses the scale (1/2.1), the backward (and
    # the 2-d forward) PyTorch's j >> 1 shortcut for an output twice the input's size
    x = torch.arange(5.).reshape(1, 1, 5).requires_grad_()
    y = F.interpolate(x, scale_factor=2.1)
    assert flat(y) == [0, 0, 0, 1, 1, 2, 2, 3, 3, 4]
    y.backward(torch.arange(10.).reshape(1, 1, 10))
    assert flat(x.grad) == [1, 5, 9, 13, 17]
    y2 = F.interpolate(torch.arange(5.).reshape(1, 1, 1, 5), scale_factor=(1, 2.1))
    assert flat(y2) == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert F.interpolate(torch.tensor([[[1, 200, 3]]], dtype=torch.uint8), size=5).tolist() == [[[1, 1, 200, 200, 3]]]
    d = torch.tensor([[[1., 2.]]], dtype=torch.float64)
    assert F.interpolate(d, size=3, mode="linear", align_corners=True).tolist() == [[[1.0, 1.5, 2.0]]]


def test_interpolate_create_graph():
    x = torch.tensor([[[1., 2., 4.]]], requires_grad=True)
    y = F.interpolate(x, size=5, mode="linear")
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert close(g, [3.68, 7.68, 11.84])  # (PyTorch's node is UpsampleLinear1DBackwardBackward0; not checked)
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert close(gg, [3.2, 3.6, 3.2])


INTERP_ERRORS = [
    ((1, 2, 5), dict(size=3, align_corners=True), ValueError,
     "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear"),
    ((1, 2, 5), dict(size=3, scale_factor=2), ValueError, "only one of size or scale_factor should be defined"),
    ((1, 2, 5), dict(), ValueError, "either size or scale_factor should be defined"),
    ((1, 2, 5), dict(size=(3, 3)), ValueError,
     "Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of "
     "[5] and output size of (3, 3). Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size "
     "in (o1, o2, ...,oK) format."),
    ((1, 2, 5), dict(scale_factor=(3, 3)), ValueError,
     "Input and scale_factor must have the same number of spatial dimensions, but got input with spatial dimensions "
     "of [5] and scale_factor of shape (3, 3). Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
     "scale_factor in (s1, s2, ...,sK) format."),
    ((1, 2, 5), dict(size=(3.5,)), TypeError,
     "expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, int], but got size with "
     "types [<class 'float'>]"),
    ((1, 2, 5), dict(size=3, recompute_scale_factor=True), ValueError,
     "recompute_scale_factor is not meaningful with an explicit size."),
    ((1, 2, 5), dict(size=3, mode="linear", antialias=True), ValueError,
     "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input"),
    ((1, 2, 5), dict(size=3, mode="bilinear"), NotImplementedError, "Got 3D input, but bilinear mode needs 4D input"),
    ((1, 2, 3, 4), dict(size=3, mode="trilinear"), NotImplementedError,
     "Got 4D input, but trilinear mode needs 5D input"),
    ((1, 2, 5), dict(size=3, mode="bicubic"), NotImplementedError,
     "Input Error: Only 3D, 4D and 5D input Tensors supported (got 3D) for the modes: nearest | linear | bilinear | "
     "bicubic | trilinear | lanczos | area | nearest-exact (got bicubic)"),
    ((2, 3), dict(size=3), NotImplementedError,
     "Input Error: Only 3D, 4D and 5D input Tensors supported (got 2D) for the modes: nearest | linear | bilinear | "
     "bicubic | trilinear | lanczos | area | nearest-exact (got nearest)"),
    ((1, 2, 5), dict(scale_factor=0.1), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (W: 5) and output (W: 0)"),
    ((1, 2, 0, 3), dict(size=3, mode="bilinear"), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (H: 0, W: 3) output (H: 3, W: 3)"),
    ((1, 0, 3), dict(size=3), RuntimeError, "Non-empty 3D data tensor expected but got a tensor with sizes [1, 0, 3]"),
    ((1, 2, 3, 4), dict(size=(3, 4), mode="lanczos"), ValueError, "Lanczos mode requires antialias=True"),
]


@pytest.mark.parametrize("case", range(len(INTERP_ERRORS)))
def test_interpolate_errors(case):
    shape, kw, exc, message = INTERP_ERRORS[case]
    with pytest.raises(exc, match=exact(message)):
        F.interpolate(torch.zeros(shape), **kw)


def test_interpolate_dtypes_and_empty_batch():
    with pytest.raises(NotImplementedError, match=exact("\"compute_indices_weights_nearest\" not implemented for "
                                                        "'Long'")):
        F.interpolate(torch.arange(5).reshape(1, 1, 5), size=3)
    with pytest.raises(NotImplementedError, match=exact("\"compute_indices_weights_linear\" not implemented for "
                                                        "'Long'")):
        F.interpolate(torch.arange(5).reshape(1, 1, 5), size=3, mode="linear")
    assert F.interpolate(torch.zeros(0, 2, 3), size=4).shape == (0, 2, 4)
    assert F.interpolate(torch.zeros(1, 2, 5), scale_factor=0.1, mode="area").shape == (1, 2, 0)


def test_upsample_functions_warn():
    x = torch.tensor([[[[1., 2.]]]])
    with record_warnings() as caught:
        a = F.upsample(x, scale_factor=2)
        b = F.upsample_nearest(x, scale_factor=2)
        c = F.upsample_bilinear(x, size=(1, 3))
    assert warning_texts(caught) == [
        "`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.",
        "`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
        "`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
    ]
    assert torch.equal(a, b) and a.shape == (1, 1, 2, 4)
    assert close(c, [1.0, 1.5, 2.0])


def test_upsample_modules():
    assert repr(nn.Upsample(scale_factor=2)) == "Upsample(scale_factor=2.0, mode='nearest')"
    assert repr(nn.Upsample(size=(3, 4), mode="bilinear", align_corners=True)) == "Upsample(size=(3, 4), mode='bilinear')"
    assert repr(nn.Upsample(scale_factor=(2, 3))) == "Upsample(scale_factor=(2.0, 3.0), mode='nearest')"
    assert repr(nn.Upsample()) == "Upsample(size=None, mode='nearest')"
    assert repr(nn.UpsamplingNearest2d(scale_factor=2)) == "UpsamplingNearest2d(scale_factor=2.0, mode='nearest')"
    m = nn.UpsamplingBilinear2d(size=3)
    assert repr(m) == "UpsamplingBilinear2d(size=3, mode='bilinear')" and m.align_corners is True
    x = torch.tensor(X2)
    assert torch.equal(m(x), F.interpolate(x, size=3, mode="bilinear", align_corners=True))
    up = nn.Upsample(scale_factor=1.7, mode="linear", recompute_scale_factor=True)
    assert up.name == "Upsample" and up(torch.zeros(1, 1, 5)).shape == (1, 1, 8)


# --------------------------------------------------------------------------------------------
# pixel / channel shuffle, fold / unfold


def test_pixel_shuffle_and_unshuffle():
    p = torch.arange(16.).reshape(1, 4, 2, 2).requires_grad_()
    y = F.pixel_shuffle(p, 2)
    assert grad_fn_name(y) == "PixelShuffleBackward0" and y.shape == (1, 1, 4, 4)
    assert flat(y) == [0, 4, 1, 5, 8, 12, 9, 13, 2, 6, 3, 7, 10, 14, 11, 15]
    z = F.pixel_unshuffle(y, 2)
    assert grad_fn_name(z) == "PixelUnshuffleBackward0" and torch.equal(z, p.detach())
    z.backward(arange_like(z))
    assert flat(p.grad) == list(range(16))
    assert F.pixel_shuffle(torch.zeros(2, 3, 8, 2, 2), 2).shape == (2, 3, 2, 4, 4)
    assert F.pixel_unshuffle(torch.zeros(4, 2, 2), 2).shape == (16, 1, 1)
    m, u = nn.PixelShuffle(2), nn.PixelUnshuffle(3)
    assert (repr(m), repr(u)) == ("PixelShuffle(upscale_factor=2)", "PixelUnshuffle(downscale_factor=3)")


@pytest.mark.parametrize("f, args, exc, message", [
    (F.pixel_shuffle, ((4, 2), 2), RuntimeError,
     "pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 dimension(s)"),
    (F.pixel_shuffle, ((4, 2, 2), 0), RuntimeError, "pixel_shuffle expects a positive upscale_factor, but got 0"),
    (F.pixel_shuffle, ((3, 2, 2), 2), RuntimeError,
     "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but "
     "input.size(-3)=3 is not divisible by 4"),
    (F.pixel_shuffle, ((4, 2, 2), 2.0), TypeError,
     "pixel_shuffle(): argument 'upscale_factor' (position 2) must be int, not float"),
    (F.pixel_unshuffle, ((4, 2, 2), -1), RuntimeError,
     "pixel_unshuffle expects a positive downscale_factor, but got -1"),
    (F.pixel_unshuffle, ((4, 3, 2), 2), RuntimeError,
     "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=3 is not divisible by 2"),
    (F.pixel_unshuffle, ((4, 2, 3), 2), RuntimeError,
     "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=3 is not divisible by 2"),
    (F.channel_shuffle, ((4, 2), 2), RuntimeError, "channel_shuffle expects input with > 2 dims, but got input with "
     "sizes [4, 2]"),
    (F.channel_shuffle, ((4, 2, 2), 0), RuntimeError,
     "Number of groups to divide channels in must be positive. Value of groups:0"),
    (F.channel_shuffle, ((1, 3, 2), 2), RuntimeError, "Number of channels must be divisible by groups. Got 3 channels "
     "and 2 groups."),
])
def test_shuffle_errors(f, args, exc, message):
    with pytest.raises(exc, match=exact(message)):
        f(torch.zeros(args[0]), args[1])


def test_channel_shuffle():
    x = torch.arange(6.).reshape(1, 6, 1).requires_grad_()
    y = F.channel_shuffle(x, 2)
    assert grad_fn_name(y) == "ChannelShuffleBackward0" and flat(y) == [0, 3, 1, 4, 2, 5]
    y.backward(arange_like(y))
    assert flat(x.grad) == [0, 2, 4, 1, 3, 5]
    m = nn.ChannelShuffle(2)
    assert repr(m) == "ChannelShuffle(groups=2)" and torch.equal(m(x), y)


def test_unfold_and_fold():
    u = torch.arange(16.).reshape(1, 1, 4, 4).requires_grad_()
    cols = F.unfold(u, 2, stride=2)
    assert grad_fn_name(cols) == "Im2ColBackward0" and cols.shape == (1, 4, 4)
    assert flat(cols) == [0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7, 13, 15]
    c2 = F.unfold(u, (2, 3), dilation=(2, 1), padding=1, stride=(1, 2))
    assert c2.shape == (1, 6, 8)
    assert flat(c2) == [0, 0, 0, 1, 0, 5, 0, 9, 0, 0, 0, 2, 4, 6, 8, 10, 0, 0, 1, 3, 5, 7, 9, 11, 0, 5, 0, 9, 0,
                        13, 0, 0, 4, 6, 8, 10, 12, 14, 0, 0, 5, 7, 9, 11, 13, 15, 0, 0]
    c2.backward(torch.ones_like(c2))
    assert flat(u.grad) == [1, 2, 1, 1, 2, 4, 2, 2, 2, 4, 2, 2, 1, 2, 1, 1]
    ones = torch.ones(1, 4, 4, requires_grad=True)
    f = F.fold(ones, (3, 3), 2)
    assert grad_fn_name(f) == "Col2ImBackward0" and flat(f) == [1, 2, 1, 2, 4, 2, 1, 2, 1]
    f.backward(arange_like(f))
    assert flat(ones.grad) == [0, 1, 3, 4, 1, 2, 4, 5, 3, 4, 6, 7, 4, 5, 7, 8]
    # fold is unfold's adjoint: fold(unfold(x)) multiplies each element by its block count
    x = torch.arange(12.).reshape(3, 4)[None, None]
    assert torch.equal(F.fold(F.unfold(x, 2), (3, 4), 2), x * torch.tensor([[1., 2, 2, 1], [2, 4, 4, 2], [1, 2, 2, 1]]))
    assert F.unfold(torch.zeros(3, 4, 5), 2).shape == (12, 12)
    assert F.fold(torch.zeros(12, 12), (4, 5), 2).shape == (3, 4, 5)
    assert repr(nn.Unfold(2)) == "Unfold(kernel_size=2, dilation=1, padding=0, stride=1)"
    assert (repr(nn.Fold((4, 5), (2, 3), 1, 0, 1))
            == "Fold(output_size=(4, 5), kernel_size=(2, 3), dilation=1, padding=0, stride=1)")


@pytest.mark.parametrize("call, message", [
    (lambda: F.unfold(torch.zeros(2, 3, 4, 5), 0),
     "kernel size should be greater than zero, but got kernel_height: 0 kernel_width: 0"),
    (lambda: F.unfold(torch.zeros(2, 3, 4, 5), 2, padding=-1),
     "padding should be non-negative, but got pad_height: -1 pad_width: -1"),
    (lambda: F.unfold(torch.zeros(2, 3, 4, 5), 6),
     "Given input with spatial size (4, 5), kernel_size=(6, 6), dilation=(1, 1), padding=(0, 0), calculated shape "
     "of the array of sliding blocks as (-1, 0), but its components must be at least one."),
    (lambda: F.unfold(torch.zeros(2, 0, 4, 5), 2),
     "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but "
     "got: [2, 0, 4, 5]"),
    (lambda: F.fold(torch.zeros(2, 12, 12), (4, 5), 3),
     "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=12 "
     "and kernel_size=(3, 3)."),
    (lambda: F.fold(torch.zeros(2, 12, 13), (4, 5), 2),
     "Given output_size=(4, 5), kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), stride=(1, 1), expected size "
     "of input's dimension 2 to match the calculated number of sliding blocks 3 * 4 = 12, but got input.size(2)=13."),
    (lambda: F.fold(torch.zeros(12), (4, 5), 2),
     "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, "
     "but got: [12]"),
])
def test_fold_unfold_errors(call, message):
    with pytest.raises(RuntimeError, match=exact(message)):
        call()


# --------------------------------------------------------------------------------------------
# bilinear


def test_bilinear_values_gradients_and_nodes():
    x1 = torch.tensor([[1., 2., -1.], [0.5, 0., 3.]], requires_grad=True)
    x2 = torch.tensor([[2., -1.], [1., 1.]], requires_grad=True)
    w = torch.arange(12.).reshape(2, 3, 2).div(4).requires_grad_()
    b = torch.tensor([1., -1.], requires_grad=True)
    y = F.bilinear(x1, x2, w, b)
    assert grad_fn_name(y) == "AddBackward0"
    view = y.grad_fn.next_functions[0][0]
    assert type(view).__name__ == "ViewBackward0"
    assert type(view.next_functions[0][0]).__name__ == "TrilinearBackward0"
    assert flat(y) == [0.5, 1.5, 7.875, 16.375]
    y.backward(torch.tensor([[1., 2.], [3., 4.]]))
    assert flat(x1.grad) == [2.25, 3.75, 5.25, 13.75, 20.75, 27.75]
    assert flat(x2.grad) == [6.0, 7.5, 42.0, 48.125]
    assert flat(w.grad) == [3.5, 0.5, 4.0, -2.0, 7.0, 10.0, 6.0, 0.0, 8.0, -4.0, 8.0, 14.0]
    assert flat(b.grad) == [4.0, 6.0]
    assert grad_fn_name(F.bilinear(x1, x2, w)) == "ViewBackward0"
    assert F.bilinear(torch.ones(7, 5, 3), torch.ones(7, 5, 2), w).shape == (7, 5, 2)
    assert F.bilinear(torch.ones(3), torch.ones(2), w, b).shape == (2,)


@pytest.mark.parametrize("shapes, message", [
    (((5, 3), (4, 2), (4, 3, 2), (4,)), "bilinear(): input batch dimensions do not match at dim 0: got 5 and 4"),
    (((5, 3), (1, 5, 2), (4, 3, 2), (4,)), "bilinear(): input dimensions do not match: got 2 and 3"),
    (((5, 4), (5, 2), (4, 3, 2), (4,)), "bilinear(): input1 size does not match weight size: got 4 but expected 3"),
    (((5, 3), (5, 3), (4, 3, 2), (4,)), "bilinear(): input2 size does not match weight size: got 3 but expected 2"),
    (((5, 3), (5, 2), (4, 3, 2), (3,)), "bilinear(): bias size does not match weight size: got 3 but expected 4"),
])
def test_bilinear_errors(shapes, message):
    a, b, w, bias = (torch.zeros(s) for s in shapes)
    with pytest.raises(RuntimeError, match=exact(message)):
        F.bilinear(a, b, w, bias)


def test_bilinear_dtype_error():
    with pytest.raises(RuntimeError, match=exact("All tensors must have the same dtype, got input1: float, input2: "
                                                 "double, weight: float")):
        F.bilinear(torch.ones(2, 3), torch.ones(3, 2, dtype=torch.float64), torch.ones(4, 3, 2))


def test_bilinear_module_initialisation():
    torch.manual_seed(0)
    m = nn.Bilinear(3, 2, 2)
    assert repr(m) == "Bilinear(in1_features=3, in2_features=2, out_features=2, bias=True)"
    assert close(m.weight, [-0.0043, 0.3097, -0.4752, -0.4249, -0.2224, 0.1548, -0.0114, 0.4578, -0.0512, 0.1528,
                            -0.1745, -0.1135])
    assert close(m.bias, [-0.5516, -0.3824])
    assert [n for n, _ in m.named_parameters()] == ["weight", "bias"]
    torch.manual_seed(0)
    m = nn.Bilinear(2, 2, 1, bias=False)
    assert m.bias is None and close(m.weight, [-0.0053, 0.3793, -0.582, -0.5204])
    assert repr(m) == "Bilinear(in1_features=2, in2_features=2, out_features=1, bias=False)"
    out = m(torch.ones(3, 2), torch.ones(3, 2))
    assert out.shape == (3, 1) and close(out, [-0.7284] * 3)
    with pytest.raises(ValueError, match=exact("in1_features must be > 0, but got (in1_features=0)")):
        nn.Bilinear(0, 2, 1)


# --------------------------------------------------------------------------------------------
# rrelu

RX = [-2., -0.5, 0., 1., 3., -1.]


def test_rrelu_training_draws_from_the_generator():
    torch.manual_seed(0)
    y = F.rrelu(torch.tensor(RX), training=True)
    assert close(y, [-0.654189, -0.136231, 0.0, 1.0, 3.0, -0.316822], atol=1e-6)
    assert close(torch.rand(2), [0.455628, 0.632306], atol=1e-6)  # three draws were taken
    torch.manual_seed(0)
    y = F.rrelu(torch.tensor(RX, dtype=torch.float64), 0.1, 0.9, training=True)
    assert close(y, [-1.7520848, -0.33312795, 0.0, 1.0, 3.0, -0.83659815], atol=1e-8)
    x = torch.tensor(RX, requires_grad=True)
    torch.manual_seed(1)
    y = F.rrelu(x, training=True)
    assert grad_fn_name(y) == "RreluWithNoiseBackward0"
    y.sum().backward()
    assert close(y, [-0.275439, -0.085891, 0.0, 1.0, 3.0, -0.161896], atol=1e-6)
    assert close(x.grad, [0.137719, 0.171782, 0.173803, 1.0, 1.0, 0.161896], atol=1e-6)


def test_rrelu_eval_in_place_and_module():
    x = torch.tensor(RX, requires_grad=True)
    y = F.rrelu(x)
    assert grad_fn_name(y) == "RreluWithNoiseBackward0"
    assert close(y, [-0.4583, -0.1146, 0.0, 1.0, 3.0, -0.2292])
    assert close(F.rrelu(x, 0.2, 0.4), [-0.6, -0.15, 0.0, 1.0, 3.0, -0.3])
    z = x * 1
    assert F.rrelu(z, inplace=True) is z and grad_fn_name(z) == "RreluWithNoiseBackward1"
    w = x * 1
    assert F.rrelu_(w, training=True) is w and grad_fn_name(w) == "RreluWithNoiseBackward1"
    m = nn.RReLU(0.1, 0.3)
    assert repr(m) == "RReLU(lower=0.1, upper=0.3)"
    assert repr(nn.RReLU()) == "RReLU(lower=0.125, upper=0.3333333333333333)"
    assert repr(nn.RReLU(0.1, 0.3, True)) == "RReLU(lower=0.1, upper=0.3, inplace=True)"
    torch.manual_seed(2)
    assert close(m(torch.tensor(RX)), [-0.567024, -0.059692, 0.0, 1.0, 3.0, -0.208052], atol=1e-6)
    m.eval()
    assert close(m(torch.tensor(RX)), [-0.4, -0.1, 0.0, 1.0, 3.0, -0.2])


def test_rrelu_errors():
    with pytest.raises(RuntimeError, match=exact("Lower bound should be less than or equal to the upper bound")):
        F.rrelu(torch.zeros(3), 0.5, 0.1)
    with pytest.raises(NotImplementedError, match=exact("\"rrelu_with_noise_out_cpu\" not implemented for 'Long'")):
        F.rrelu(torch.arange(3), training=True)
    with pytest.raises(NotImplementedError, match=exact("\"leaky_relu_cpu\" not implemented for 'Long'")):
        F.rrelu(torch.arange(3))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        F.rrelu_(torch.zeros(2, requires_grad=True))


# --------------------------------------------------------------------------------------------
# channel-wise and alpha dropout


def test_feature_dropout_draws_per_channel():
    torch.manual_seed(0)
    assert flat(F.dropout1d(torch.ones(2, 3, 2), 0.5)) == [0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0]
    assert close(torch.rand(1), [0.022326], atol=1e-6)  # one draw per channel was taken
    torch.manual_seed(0)
    assert flat(F.dropout1d(torch.ones(3, 2), 0.5)) == [0, 0, 0, 0, 2, 2]
    torch.manual_seed(0)
    assert close(F.dropout2d(torch.ones(2, 3, 1, 2), 0.4), [0, 0, 0, 0, 1.6667, 1.6667, 0, 0, 0, 0, 0, 0])
    torch.manual_seed(0)
    assert close(F.dropout3d(torch.ones(3, 1, 1, 2), 0.4), [0, 0, 0, 0, 1.6667, 1.6667])
    torch.manual_seed(0)
    m = nn.Dropout2d(0.5)
    assert repr(m) == "Dropout2d(p=0.5, inplace=False)" and flat(m(torch.ones(1, 4, 1, 1))) == [0, 0, 2, 0]
    x = torch.ones(2, 3, 4, requires_grad=True)
    y = F.dropout1d(x, 0.5)
    assert grad_fn_name(y) == "MulBackward0"
    x4 = torch.ones(2, 3, 1, 4, requires_grad=True)
    assert F.dropout2d(x4, training=False) is x4 and F.dropout2d(x4, p=0.0) is x4
    assert grad_fn_name(F.dropout2d(x4, p=1.0)) == "MulBackward0"
    assert grad_fn_name(F.dropout1d(torch.ones(3, 2, requires_grad=True), training=False)) == "SqueezeBackward1"
    z = x * 1
    assert F.dropout1d(z, 0.5, inplace=True) is z and grad_fn_name(z) == "MulBackward0"


def test_alpha_dropout():
    torch.manual_seed(0)
    v = torch.tensor([1., -1., 2., 0., 0.5, 3.])
    assert close(F.alpha_dropout(v, 0.3, True), [-1.0595, -1.0595, 2.176, -1.0595, 0.8846, -1.0595])
    torch.manual_seed(0)
    f = F.feature_alpha_dropout(torch.tensor([[[1., -1.], [2., 0.]], [[0.5, 3.], [1., 1.]]]), 0.3, True)
    assert close(f, [-1.0595, -1.0595, -1.0595, -1.0595, 0.8846, 3.0369, -1.0595, -1.0595])
    assert F.alpha_dropout(v, 0.3) is v  # training=False by default
    assert flat(F.alpha_dropout(v, 1.0, True)) == [0.0] * 6
    x = torch.ones(2, 3, requires_grad=True)
    y = F.alpha_dropout(x, 0.5, True)
    assert grad_fn_name(y) == "AddBackward0" and type(y.grad_fn.next_functions[0][0]).__name__ == "MulBackward0"
    assert grad_fn_name(F.feature_alpha_dropout(x, 0.5, True)) == "AddBackward0"
    assert repr(nn.AlphaDropout(0.2)) == "AlphaDropout(p=0.2, inplace=False)"
    assert repr(nn.FeatureAlphaDropout(0.2, True)) == "FeatureAlphaDropout(p=0.2, inplace=True)"
    assert nn.AlphaDropout(0.5).eval()(v) is v


def test_dropout_warnings_and_errors():
    d1 = ("dropout1d: Expected 2D or 3D input, but received a 4D input. Note that dropout1d exists to provide "
          "channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional batch "
          "dimension (i.e. 2D or 3D inputs).")
    with pytest.raises(RuntimeError, match=exact(d1)):
        F.dropout1d(torch.ones(1, 2, 3, 4))
    with record_warnings() as caught:
        F.dropout2d(torch.ones(2, 3, 4), training=False)
        F.dropout2d(torch.ones(2, 3), training=False)
        F.dropout3d(torch.ones(2, 3, 4), training=False)
    assert warning_texts(caught) == [
        "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is desired - "
        "input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will change in a future "
        "release to interpret the input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
        "channel-wise dropout behavior, please switch to using dropout1d instead.",
        "dropout2d: Received a 2-D input to dropout2d, which is deprecated and will result in an error in a future "
        "release. To retain the behavior and silence this warning, please use dropout instead. Note that dropout2d "
        "exists to provide channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, and an "
        "optional batch dimension (i.e. 3D or 4D inputs).",
        "dropout3d: Received a 3-D input to dropout3d, which is deprecated and will result in an error in a future "
        "release. To retain the behavior and silence this warning, please use dropout instead. Note that dropout3d "
        "exists to provide channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, and an "
        "optional batch dimension (i.e. 4D or 5D inputs).",
    ]
    for f in (F.dropout1d, F.dropout2d, F.dropout3d, F.alpha_dropout, F.feature_alpha_dropout):
        with pytest.raises(ValueError, match=exact("dropout probability has to be between 0 and 1, but got 1.5")):
            f(torch.ones(2, 3), 1.5)
    for cls in (nn.Dropout1d, nn.Dropout2d, nn.Dropout3d, nn.AlphaDropout, nn.FeatureAlphaDropout):
        assert repr(cls()) == f"{cls.__name__}(p=0.5, inplace=False)"
        with pytest.raises(ValueError, match=exact("dropout probability has to be between 0 and 1, but got -0.1")):
            cls(-0.1)
    with pytest.raises(RuntimeError, match=exact("Feature dropout requires at least 2 dimensions in the input")):
        with record_warnings():
            F.dropout2d(torch.ones(3), 0.5)
