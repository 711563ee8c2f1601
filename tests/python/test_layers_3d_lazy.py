"""3-d pooling (max, average, adaptive, unpooling), ConvTranspose3d, fractional max pooling and the
Lazy modules: values, indices, node names, gradients (gradcheck in float64), errors, reprs,
state_dicts and seeded initialisation, as PyTorch 2.15 gives them (these expectations run against
it with LEAFGRAD_TEST_TORCH=1)."""
import copy
import math
import pickle

import pytest
from support import raises_exactly

import leafgrad as torch
import leafgrad.nn as nn
import leafgrad.nn.functional as F
from leafgrad.nn.parameter import UninitializedBuffer, UninitializedParameter, is_lazy


def T(*shape, k=0, dtype=torch.float32):
    """A deterministic input without ties: a product of sines and cosines of a ramp."""
    i = torch.arange(math.prod(shape), dtype=torch.float64)
    return ((i * 1.37 + k).sin() * (i * 0.11).cos() * 2).reshape(shape).to(dtype)


def S(*shape, k=0, dtype=torch.float32):
    """Deterministic `_random_samples` in [0, 1)."""
    i = torch.arange(math.prod(shape), dtype=torch.float64)
    return ((i * 0.6180339887 + k * 0.1234567) % 1).reshape(shape).to(dtype)


def close(t, values, atol=1e-4):
    return torch.allclose(t.detach().flatten().double(), torch.tensor(values, dtype=torch.float64), atol=atol,
                          rtol=1e-4)


I1 = torch.tensor([[[[[5, 31], [45, 57]], [[64, 70], [72, 79]]]]])  # indices in a (1, 1, 4, 4, 5)

# name: (function of the inputs, the inputs' shapes)
CASES = {
    "max_pool3d": (lambda x: F.max_pool3d(x, 2), [(1, 2, 4, 5, 6)]),
    "max_pool3d indices": (lambda x: F.max_pool3d(x, (2, 3, 2), (1, 2, 2), (1, 1, 0), (2, 1, 1), ceil_mode=True,
                                                   return_indices=True), [(2, 1, 5, 5, 4)]),
    "max_pool3d unbatched": (lambda x: F.max_pool3d(x, 3, 2, 1, return_indices=True), [(2, 4, 5, 6)]),
    "max_pool3d ceil": (lambda x: F.max_pool3d(x, 2, 3, 1, ceil_mode=True), [(1, 2, 4, 5, 6)]),
    "avg_pool3d": (lambda x: F.avg_pool3d(x, 2), [(1, 2, 4, 5, 6)]),
    "avg_pool3d padded ceil": (lambda x: F.avg_pool3d(x, (3, 2, 3), (2, 1, 2), (1, 1, 1), ceil_mode=True),
                               [(1, 2, 5, 4, 6)]),
    "avg_pool3d no pad count": (lambda x: F.avg_pool3d(x, (3, 2, 3), (2, 1, 2), (1, 1, 1), ceil_mode=True,
                                                       count_include_pad=False), [(1, 2, 5, 4, 6)]),
    "avg_pool3d divisor unbatched": (lambda x: F.avg_pool3d(x, 2, 1, 1, divisor_override=3), [(2, 3, 3, 3)]),
    "adaptive_avg_pool3d": (lambda x: F.adaptive_avg_pool3d(x, (2, 3, 4)), [(1, 2, 5, 4, 7)]),
    "adaptive_avg_pool3d None unbatched": (lambda x: F.adaptive_avg_pool3d(x, (None, 3, 1)), [(2, 5, 4, 7)]),
    "adaptive_avg_pool3d 1": (lambda x: F.adaptive_avg_pool3d(x, 1), [(1, 2, 3, 4, 5)]),
    "adaptive_max_pool3d": (lambda x: F.adaptive_max_pool3d(x, (2, 3, 4), return_indices=True), [(1, 2, 5, 4, 7)]),
    "adaptive_max_pool3d unbatched": (lambda x: F.adaptive_max_pool3d(x, 2, return_indices=True), [(2, 5, 4, 7)]),
    "max_unpool3d": (lambda x: F.max_unpool3d(x, I1, 2, output_size=(4, 4, 5)), [(1, 1, 2, 2, 2)]),
    "max_unpool3d unbatched": (lambda x: F.max_unpool3d(x, I1[0], 2, output_size=(4, 4, 5)), [(1, 2, 2, 2)]),
    "conv_transpose3d": (lambda x, w, b: F.conv_transpose3d(x, w, b, stride=(2, 1, 2), padding=(1, 0, 1),
                                                            output_padding=(1, 0, 0), groups=2, dilation=(1, 2, 1)),
                         [(1, 4, 2, 3, 2), (4, 1, 2, 2, 3), (2,)]),
    "conv_transpose3d unbatched": (lambda x, w: F.conv_transpose3d(x, w, padding=1), [(2, 2, 3, 2), (2, 3, 2, 2, 2)]),
    "fractional_max_pool2d": (lambda x: F.fractional_max_pool2d(x, 2, output_size=(4, 5), return_indices=True,
                                                                _random_samples=S(2, 3, 2, dtype=x.dtype)), [(2, 3, 9, 11)]),
    "fractional_max_pool2d ratio unbatched": (lambda x: F.fractional_max_pool2d(
        x, (3, 2), output_ratio=(0.5, 0.6), return_indices=True, _random_samples=S(1, 2, 2, k=1, dtype=x.dtype)),
        [(2, 10, 9)]),
    "fractional_max_pool3d": (lambda x: F.fractional_max_pool3d(x, (2, 3, 2), output_size=(3, 2, 4),
                                                                return_indices=True, _random_samples=S(2, 2, 3, dtype=x.dtype)),
                              [(2, 2, 6, 7, 8)]),
}

# name: (node, output shape, values (first 24), indices (first 24) or None, the total of each
#        gradient of (y * cos(0.5 * arange)).sum() and its first 12 values)
EXPECTED = {
    'adaptive_avg_pool3d': ('AdaptiveAvgPool3DBackward0', [1, 2, 2, 3, 4], [0.0369, -0.0017, -0.0112, 0.09, -0.1028, 0.028, -0.0064, -0.0904, 0.1018, -0.04, 0.0206, 0.0338, 0.0396, -0.0275, 0.0342, 0.0078, -0.0378, 0.0597, -0.0635, 0.0377, -0.0005, -0.0532, 0.0533, -0.0586],
        None,
        [(-1.4854, [0.0833, 0.1321, 0.0488, 0.0788, 0.03, 0.0359, 0.0059, 0.0487, 0.0529, 0.0042, -0.0207, -0.025])]),
    'adaptive_avg_pool3d 1': ('MeanBackward1', [1, 2, 1, 1, 1], [-0.0046, 0.004],
        None,
        [(1.8776, [0.0167, 0.0167, 0.0167, 0.0167, 0.0167, 0.0167, 0.0167, 0.0167, 0.0167, 0.0167, 0.0167, 0.0167])]),
    'adaptive_avg_pool3d None unbatched': ('AdaptiveAvgPool3DBackward0', [2, 5, 3, 1], [0.0816, -0.1436, 0.1193, -0.0946, 0.1461, -0.1073, 0.0695, -0.0884, 0.0476, -0.0224, -0.0042, 0.0375, -0.0242, 0.0919, -0.1123, 0.052, -0.1386, 0.1435, -0.0544, 0.1268, -0.1151, 0.0375, -0.0645, 0.0367],
        None,
        [(2.1532, [0.0714, 0.0714, 0.0714, 0.0714, 0.0714, 0.0714, 0.0714, 0.1341, 0.1341, 0.1341, 0.1341, 0.1341])]),
    'adaptive_max_pool3d': ('AdaptiveMaxPool3DBackward0', [1, 2, 2, 3, 4], [1.948, 1.948, 1.9251, 1.7294, 1.1168, 1.145, 0.8835, 0.8835, 1.4367, 1.438, 1.6783, 1.6783, 1.9236, 1.9987, 1.8917, 1.7294, 1.3972, 1.3877, 1.0114, 0.7547, 1.1206, 1.2234, 1.4781, 1.7921],
        [1, 1, 31, 61, 35, 65, 47, 47, 22, 52, 26, 26, 56, 86, 116, 61, 91, 120, 95, 125, 77, 107, 81, 111],
        [(-1.4854, [0.0, 1.8776, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])]),
    'adaptive_max_pool3d unbatched': ('AdaptiveMaxPool3DBackward0', [2, 2, 2, 2], [1.948, 1.9251, 1.438, 1.6783, 1.9987, 1.8917, 1.2234, 1.7921, 1.9595, 1.9497, 0.9708, 1.5642, 1.8973, 1.8041, 0.8902, 1.5605],
        [1, 31, 52, 26, 86, 116, 107, 111, 1, 31, 52, 26, 86, 116, 136, 111],
        [(2.5101, [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])]),
    'avg_pool3d': ('AvgPool3DBackward0', [1, 2, 2, 2, 3], [0.7792, -0.5872, 0.2339, -0.2546, -0.0903, 0.4563, 0.6587, -0.5535, 0.2571, -0.3432, 0.0096, 0.392, 0.5044, -0.4689, 0.2208, -0.5275, 0.2257, 0.192, 0.4138, -0.4324, 0.2236, -0.7273, 0.4896, -0.091],
        None,
        [(-0.9726, [0.125, 0.125, 0.1097, 0.1097, 0.0675, 0.0675, 0.125, 0.125, 0.1097, 0.1097, 0.0675, 0.0675])]),
    'avg_pool3d divisor unbatched': ('AvgPool3DBackward0', [2, 4, 4, 4], [0.0, 0.6493, 0.9036, 0.2543, -0.5197, -0.3044, 0.7748, 0.5595, -0.0279, -0.5406, -0.6321, -0.1193, 0.4918, 0.4131, -0.5032, -0.4245, -0.0857, 0.8376, 1.3178, 0.3945, -0.7159, -0.3073, 1.1149, 0.7063],
        None,
        [(0.5409, [-0.4673, -0.7858, -0.912, -0.5182, -0.0947, 0.352, 0.8986, 0.8647, 0.619, -0.7074, -0.3445, 0.1027])]),
    'avg_pool3d no pad count': ('AvgPool3DBackward0', [1, 2, 3, 5, 4], [-0.0888, 0.5923, -0.6129, -0.4372, 0.4144, 0.1927, -0.3412, 0.1657, 0.4639, -0.2571, 0.0617, 0.5634, -0.0628, -0.2861, 0.3046, 0.3616, -0.1357, -0.265, 0.4165, 0.3649, -0.4873, 0.0715, 0.12, -0.4305],
        None,
        [(0.3793, [0.198, 0.2775, 0.0795, 0.0871, 0.0076, -0.1912, -0.1337, -0.2181, -0.0843, -0.1432, -0.0589, -0.1158])]),
    'avg_pool3d padded ceil': ('AvgPool3DBackward0', [1, 2, 3, 5, 4], [-0.0197, 0.1974, -0.2043, -0.0729, 0.1842, 0.1285, -0.2274, 0.0552, 0.2062, -0.1714, 0.0411, 0.1878, -0.0279, -0.1908, 0.2031, 0.1205, -0.0302, -0.0883, 0.1388, 0.0608, -0.1624, 0.0358, 0.06, -0.1076],
        None,
        [(0.0332, [0.0324, 0.0367, 0.0042, -0.0207, -0.025, -0.0971, -0.0594, -0.1157, -0.0562, -0.0955, -0.0392, -0.0582])]),
    'conv_transpose3d': ('ConvolutionBackward0', [1, 2, 3, 5, 3], [2.1304, 2.4924, -0.524, 0.7933, 0.8294, 4.023, 3.4259, 4.4628, 1.4725, 2.4121, 0.2048, 0.5582, 0.8086, 3.6408, 2.7533, 3.8596, 0.2007, 1.4999, 0.0634, 2.4184, 1.4553, 3.5731, 4.9232, 2.0859],
        None,
        [(6.7649, [-2.4821, -1.6431, -0.0238, 1.6823, 2.4787, 1.8811, 2.4643, 1.5047, 3.4684, -4.3901, -1.9736, -2.1257]), (1.9379, [0.2925, 1.8419, 1.0589, -0.2, -1.7838, -1.1518, 2.1978, 3.948, 0.5809, -2.0699, -4.2219, -0.9135]), (1.9035, [-0.0173, 1.9209])]),
    'conv_transpose3d unbatched': ('SqueezeBackward1', [3, 1, 2, 1], [-6.8862, 3.0087, -0.2888, -2.7352, -0.007, -2.3071],
        None,
        [(4.1722, [-0.7504, 0.1834, 1.1429, -0.0138, 0.4191, 0.1577, -1.4884, -0.5183, 0.8175, 0.5753, 0.9176, 1.1842]), (-0.5975, [0.112, -0.5522, -0.4617, 0.3577, -0.7556, -0.3797, 0.5798, 0.6695, -0.1091, -0.6299, -0.1458, 0.707])]),
    'fractional_max_pool2d': ('FractionalMaxPool2DBackward0', [2, 3, 4, 5], [1.948, 0.7629, 0.9155, 1.4753, 0.8219, 1.4367, 1.1168, 1.6783, 0.605, 1.9251, 1.9236, 0.8695, 0.942, 1.7294, 1.145, 1.1206, 1.3972, 1.4781, 1.0114, 1.9987, 1.7921, 0.9266, 1.8917, 1.2234],
        [1, 2, 5, 6, 10, 22, 35, 26, 40, 31, 56, 57, 60, 61, 65, 77, 91, 81, 95, 86, 12, 13, 17, 8],
        [(0.3793, [0.0, 1.0, 0.8776, 0.0, 0.0, 0.5403, 0.0707, 0.0, 0.0, 0.0, -0.4161, 0.0])]),
    'fractional_max_pool2d ratio unbatched': ('FractionalMaxPool2DBackward0', [2, 5, 5], [1.948, 1.948, 1.4367, 1.4753, 1.6783, 1.2832, -0.4935, 1.9251, 0.2636, 1.6783, 1.2832, 0.8835, 1.9251, 1.0715, 1.438, 0.1274, 1.9236, 0.8695, 1.0715, 1.7294, 1.4781, 1.2629, 0.7092, 1.9987],
        [1, 1, 22, 6, 26, 27, 37, 31, 32, 26, 27, 47, 31, 51, 52, 46, 56, 57, 51, 61, 81, 82, 66, 86],
        [(-0.2548, [0.0, 1.8776, 0.0, 0.0, 0.0, 0.0, 0.0707, 0.0, 0.0, 0.0, 0.0, 0.0])]),
    'fractional_max_pool3d': ('FractionalMaxPool3DBackward0', [2, 2, 3, 2, 4], [1.948, 0.8219, 1.7294, 1.4753, 0.605, 1.3972, 1.438, 1.7921, 1.3877, 1.9497, 1.8917, 1.5387, 1.7609, 1.6209, 1.6083, 1.5642, 1.7358, 1.8973, 1.5539, 1.5934, 1.8041, 1.8192, 1.7661, 0.5886],
        [1, 10, 61, 6, 40, 91, 52, 111, 120, 171, 116, 175, 201, 146, 205, 166, 281, 226, 285, 230, 256, 315, 260, 319],
        [(-0.6843, [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0707, 0.0, 0.0, 0.0, 0.8776, 0.0])]),
    'max_pool3d': ('MaxPool3DWithIndicesBackward0', [1, 2, 2, 2, 3], [1.948, 0.7629, 1.1168, 0.3623, 1.0715, 1.438, 1.7294, 0.1453, 1.145, 0.4443, 1.7921, 1.2629, 1.3877, 0.0616, 0.7547, 0.9243, 1.9595, 1.5642, 1.1625, 0.026, 1.2564, 0.9708, 1.7609, 1.8973],
        None,
        [(-0.9726, [0.0, 1.0, 0.8776, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])]),
    'max_pool3d ceil': ('MaxPool3DWithIndicesBackward0', [1, 2, 2, 2, 3], [0.0, 0.7629, 0.9155, 0.3623, 0.6408, 0.5679, 1.248, -0.2006, 1.145, 0.4443, 1.7921, 1.2234, 1.3877, -0.7804, 0.7547, 0.7324, 1.9595, 1.1587, 1.1625, -0.0922, 0.1197, 0.9708, 1.7609, 0.5371],
        None,
        [(-0.9726, [1.0, 0.0, 0.8776, 0.0, 0.0, 0.5403, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])]),
    'max_pool3d indices': ('MaxPool3DWithIndicesBackward0', [2, 1, 5, 3, 2], [0.6408, 1.6783, 0.2636, 1.9251, 1.1081, 1.1168, 1.948, 1.4753, 1.438, 1.4753, 1.9236, 0.3623, 1.7294, 1.6783, 1.145, 1.9251, 1.1206, 1.1168, 1.4781, 1.9987, 1.438, 1.9987, 1.9236, 1.0114],
        [21, 26, 32, 31, 36, 35, 1, 6, 52, 6, 56, 18, 61, 26, 65, 31, 77, 35, 81, 86, 52, 86, 56, 95],
        [(-1.5118, [0.0, -0.99, 0.0, 0.0, 0.0, 0.0, -1.1473, 0.0, 0.0, 0.0, 0.0, 0.0])]),
    'max_pool3d unbatched': ('MaxPool3DWithIndicesBackward0', [2, 2, 3, 3], [1.948, 1.948, 1.1168, 1.4753, 1.0715, 1.438, 0.3623, 1.9236, 1.438, 1.9251, 1.9251, 1.145, 1.1081, 1.7921, 1.7921, 0.9033, 1.9987, 1.7921, 1.3877, 0.9865, 0.7547, 0.9243, 1.9595, 1.9595],
        [1, 1, 35, 6, 51, 52, 18, 56, 52, 31, 31, 65, 36, 111, 111, 115, 86, 111, 0, 1, 5, 42, 21, 21],
        [(-1.3007, [0.0, 1.8776, 0.0, 0.0, 0.0, 0.0, 0.0707, 0.0, 0.0, 0.0, 0.0, 0.0])]),
    'max_unpool3d': ('MaxUnpool3DBackward0', [1, 1, 4, 4, 5], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        None,
        [(-4.053, [-0.8011, -0.9785, -0.8733, -0.9746, 0.8342, -0.9037, -0.128, -0.2281])]),
    'max_unpool3d unbatched': ('MaxUnpool3DBackward0', [1, 4, 4, 5], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        None,
        [(-4.053, [-0.8011, -0.9785, -0.8733, -0.9746, 0.8342, -0.9037, -0.128, -0.2281])]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_nodes_and_gradients(name):
    f, shapes = CASES[name]
    node, shape, values, indices, grads = EXPECTED[name]
    xs = [T(*s, k=i).requires_grad_() for i, s in enumerate(shapes)]
    out = f(*xs)
    if indices is not None:
        out, idx = out
        assert idx.dtype == torch.int64 and list(idx.shape) == shape
        assert idx.flatten()[:24].tolist() == indices
    assert type(out.grad_fn).__name__ == node
    assert list(out.shape) == shape
    assert close(out.flatten()[:24], values)
    gw = (torch.arange(out.numel(), dtype=torch.float32) * 0.5).cos().reshape(out.shape)
    gs = torch.autograd.grad((out * gw).sum(), xs)
    for g, x, (total, first) in zip(gs, xs, grads):
        assert g.shape == x.shape
        assert math.isclose(g.double().sum().item(), total, rel_tol=1e-4, abs_tol=1e-4)
        assert close(g.flatten()[:12], first)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradcheck(name):
    f, shapes = CASES[name]
    xs = [T(*s, k=i, dtype=torch.float64).requires_grad_() for i, s in enumerate(shapes)]

    def first(*a):
        out = f(*a)
        return out[0] if isinstance(out, tuple) else out

    assert torch.autograd.gradcheck(first, xs)


def test_nan_and_integer_inputs():
    x = torch.tensor([[[[[1., float("nan"), 3.], [float("nan"), 2., 0.]]]]])
    y, i = F.max_pool3d(x, (1, 2, 2), 1, return_indices=True)
    assert i.tolist() == [[[[[3, 1]]]]] and torch.isnan(y).all()
    y, i = F.adaptive_max_pool3d(x, (1, 1, 2), return_indices=True)
    assert i.tolist() == [[[[[3, 1]]]]]
    y, i = F.max_pool3d(torch.arange(24).reshape(1, 2, 3, 4), 2, return_indices=True)
    assert y.tolist() == [[[[17, 19]]]] and y.dtype == torch.int64
    y = F.avg_pool3d(torch.tensor([-3, -5, 7, 1, 2, 2, 2, -9]).reshape(1, 1, 2, 2, 2), 2, padding=1)
    assert y.dtype == torch.int64 and y.flatten().tolist() == [0, 0, 0, 0, 0, 0, 0, -1]
    y = F.avg_pool3d(torch.arange(24).reshape(1, 2, 3, 4), 2, 1, 1, divisor_override=3)
    assert y[0, 1, 1].tolist() == [10, 22, 25, 28, 14]
    y, i = F.max_pool3d(torch.full((1, 1, 2, 2, 2), float("-inf")), 2, return_indices=True)
    assert i.item() == 0
    assert F.adaptive_avg_pool3d(T(2, 5, 4, 7), (0, 2, 2)).shape == (2, 0, 2, 2)
    assert F.adaptive_max_pool3d(T(2, 5, 4, 7), (0, 2, 2)).shape == (2, 0, 2, 2)


x5 = T(1, 2, 4, 5, 6)
ERRORS = [
    (lambda: F.max_pool3d(x5, 3, padding=2), RuntimeError,
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1"),
    (lambda: F.max_pool3d(x5, (2, 2)), RuntimeError,
     "max_pool3d: kernel_size must either be a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(x5, 2, stride=(1, 1)), RuntimeError,
     "max_pool3d: stride must either be omitted, a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(x5, 2, padding=(1, 1)), RuntimeError,
     "max_pool3d: padding must either be a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(x5, 2, dilation=(1, 1)), RuntimeError,
     "max_pool3d: dilation must be either a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(x5, 0), RuntimeError, "stride should not be zero"),
    (lambda: F.max_pool3d(x5, -1), RuntimeError, "kernel size should be greater than zero, but got kT: -1 kH: -1 kW: -1"),
    (lambda: F.max_pool3d(x5, 2, stride=-1), RuntimeError,
     "stride should be greater than zero, but got dT: -1 dH: -1 dW: -1"),
    (lambda: F.max_pool3d(x5, 2, dilation=0), RuntimeError,
     "dilation should be greater than zero, but got dilationT: 0 dilationH: 0 dilationW: 0"),
    (lambda: F.max_pool3d(x5, 5), RuntimeError,
     "Given input size: (2x4x5x6). Calculated output size: (2x0x1x1). Output size is too small"),
    (lambda: F.max_pool3d(T(2, 3), 1), RuntimeError, "non-empty 4D or 5D (batch mode) tensor expected for input"),
    (lambda: F.max_pool3d(T(2, 0, 2, 2, 2), 1), RuntimeError,
     "max_pool3d_with_indices_out_cpu_template(): Expected input to have non-zero size for non-batch dimensions, "
     "but input has sizes [2, 0, 2, 2, 2] with dimension 1 being empty"),
    (lambda: F.max_pool3d(T(2, 3, 3, 3), 3, padding=2, dilation=2), RuntimeError,
     "pad should be smaller than or equal to half of kernel size, but got kT: 3 kW: 3 kH: 3 padT: 2 padW: 2 padH: 2"),
    (lambda: F.max_pool3d(T(1, 2, 2, 2).bool(), 1), NotImplementedError, "\"max_pool3d\" not implemented for 'Bool'"),
    (lambda: F.avg_pool3d(x5, (2, 2)), RuntimeError,
     "avg_pool3d: kernel_size must be a single int, or a tuple of three ints"),
    (lambda: F.avg_pool3d(x5, 2, stride=(1, 1)), RuntimeError,
     "avg_pool3d: stride must be omitted, a single int, or a tuple of three ints"),
    (lambda: F.avg_pool3d(x5, 2, padding=(1, 1)), RuntimeError,
     "avg_pool3d: padding must be a single int, or a tuple of three ints"),
    (lambda: F.avg_pool3d(x5, 5), RuntimeError,
     "input image (T: 4 H: 5 W: 6) smaller than kernel size (kT: 5 kH: 5 kW: 5)"),
    (lambda: F.avg_pool3d(x5, 2, divisor_override=0), RuntimeError, "divisor must be not zero"),
    (lambda: F.avg_pool3d(T(2, 0, 3, 3, 3), 5), RuntimeError,
     "avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     "[2, 0, 3, 3, 3] with dimension 1 being empty"),
    (lambda: F.avg_pool3d(T(1, 2, 2, 2).int(), 1), NotImplementedError,
     "\"avg_pool3d_out_frame\" not implemented for 'Int'"),
    (lambda: F.avg_pool3d(T(1, 2, 2, 2), 1, divisor_override=2.5), TypeError,
     "avg_pool3d(): argument 'divisor_override' must be int, not float"),
    (lambda: F.adaptive_avg_pool3d(x5, (2, 2)), RuntimeError, "adaptive_avg_pool3d: output_size must be 3"),
    (lambda: F.adaptive_avg_pool3d(x5, (-1, 2, -3)), RuntimeError,
     "adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but received {-1, 2,-3}"),
    (lambda: F.adaptive_avg_pool3d(T(2, 3), 2), RuntimeError, "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got [2, 3]"),
    (lambda: F.adaptive_avg_pool3d(T(1, 2, 0, 2, 2), 2), RuntimeError,
     "adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     "[1, 2, 0, 2, 2] with dimension 2 being empty"),
    (lambda: F.adaptive_avg_pool3d(T(2, 3, 3, 3).long(), 2), NotImplementedError,
     "\"adaptive_avg_pool3d_cpu\" not implemented for 'Long'"),
    (lambda: F.adaptive_avg_pool3d(T(2, 3, 3, 3), (1, 1, 1, 1)), ValueError, "Input dimension should be at least 5"),
    (lambda: F.adaptive_max_pool3d(x5, (2, 2)), RuntimeError,
     "adaptive_max_pool3d(): internal error: output_size.size() must be 3"),
    (lambda: F.adaptive_max_pool3d(x5, -1), RuntimeError,
     "Trying to create tensor with negative dimension -1: [1, 2, -1, -1, -1]"),
    (lambda: F.adaptive_max_pool3d(T(2, 3), 2), RuntimeError, "adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: [2, 3]"),
    (lambda: F.adaptive_max_pool3d(T(2, 3, 0, 3), (1, 2)), RuntimeError,
     "adaptive_max_pool3d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     "[2, 3, 0, 3] with dimension 2 being empty"),
    (lambda: F.adaptive_max_pool3d(T(2, 3, 3, 3).long(), 2), NotImplementedError,
     "\"adaptive_max_pool3d_cpu\" not implemented for 'Long'"),
    (lambda: F.max_unpool3d(T(1, 1, 2, 2, 2), I1, 2), RuntimeError,
     "Found an invalid max index: 79 (output volumes are of size 4x4x4)"),
    (lambda: F.max_unpool3d(T(1, 1, 2, 2, 2), I1.int(), 2), RuntimeError,
     "elements in indices should be type int64 but got: Int"),
    (lambda: F.max_unpool3d(T(2, 2, 2), I1[0, 0], 2), RuntimeError,
     "Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with 3 dimensions."),
    (lambda: F.max_unpool3d(T(1, 2, 2, 2, 2), I1, 2), RuntimeError,
     "Expected shape of indices to be same as that of the input tensor ([1, 2, 2, 2, 2]) but got indices tensor "
     "with shape: [1, 1, 2, 2, 2]"),
    (lambda: F.max_unpool3d(T(1, 1, 2, 2, 2), I1, 2, stride=(1, 0, 1)), RuntimeError,
     "strides should be greater than zero, but got stride: [1, 0, 1]"),
    (lambda: F.max_unpool3d(T(1, 1, 2, 2, 2), I1, 2, output_size=(9, 9, 9)), ValueError,
     'invalid output_size "(9, 9, 9)" (dim 0 must be between 2 and 6)'),
    (lambda: F.max_unpool3d(T(1, 1, 2, 2, 2).long(), I1, 2), NotImplementedError,
     "\"max_unpool3d\" not implemented for 'Long'"),
    (lambda: F.max_unpool2d(T(1, 1, 2, 2).long(), I1[:, :, 0], 2), NotImplementedError,
     "\"max_unpool2d\" not implemented for 'Long'"),
    (lambda: F.conv_transpose3d(x5, T(2, 3, 2, 2, 2), output_padding=1), RuntimeError,
     "output padding must be smaller than either stride or dilation, but got output_padding_depth: 1 "
     "output_padding_height: 1 output_padding_width: 1 stride_depth: 1 stride_height: 1 stride_width: 1 "
     "dilation_depth: 1 dilation_height: 1 dilation_width: 1"),
    (lambda: F.conv_transpose3d(x5, T(2, 3, 2, 2, 2), dilation=(1, 0, 1), padding=9), RuntimeError,
     "dilation should be greater than zero, but got dilation_depth: 1, dilation_height: 0, dilation_width: 1"),
    (lambda: F.conv_transpose3d(x5, T(2, 3, 2, 2, 2), padding=3), RuntimeError,
     "Given input size per channel: (4 x 5 x 6). Calculated output size per channel: (-1 x 0 x 1). Output size is "
     "too small"),
    (lambda: F.conv_transpose3d(x5[0, 0], T(2, 3, 2, 2, 2)), RuntimeError,
     "Expected 4D (unbatched) or 5D (batched) input to conv_transpose3d, but got input of size: [4, 5, 6]"),
    (lambda: F.conv_transpose3d(x5, T(2, 3, 2, 2, 2), bias=T(3).double()), RuntimeError,
     "expected scalar type Float but found Double"),
    (lambda: F.conv_transpose3d(x5, T(2, 3, 2, 2, 2), padding="same"), TypeError,
     "conv_transpose3d(): argument 'padding' must be tuple of ints, not str"),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), 2), ValueError,
     "fractional_max_pool2d requires specifying either an output_size or an output_ratio"),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), 2, output_ratio=0.5, _random_samples=S(2, 3, 2)), TypeError,
     "object of type 'float' has no len()"),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), 2, output_ratio=(0.5, 0.5, 0.5)), ValueError,
     "fractional_max_pool2d requires output_ratio to either be a single Int or tuple of Ints."),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), 2, output_size=(7, 3), _random_samples=S(2, 3, 2)),
     RuntimeError, "fractional_max_pool2d(): pool height 2 too large relative to input height 7"),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), 2, output_size=(3, 8), _random_samples=S(2, 3, 2)),
     RuntimeError, "fractional_max_pool2d(): pool width 2 too large relative to input width 8"),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), (2, 2, 2), output_size=3, _random_samples=S(2, 3, 2)),
     RuntimeError, "fractional_max_pool2d: kernel_size must either be a single Int or tuple of Ints"),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), 2, output_size=(3, 3, 3), _random_samples=S(2, 3, 2)),
     RuntimeError, "fractional_max_pool2d: output_size must either be a single Int or tuple of Ints"),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), 0, output_size=3, _random_samples=S(2, 3, 2)), RuntimeError,
     "fractional_max_pool2d(): kernel size should be greater than zero, but got 0x0"),
    (lambda: F.fractional_max_pool2d(T(7, 8), 2, output_size=3, _random_samples=S(2, 3, 2)), RuntimeError,
     "fractional_max_pool2d(): Expected 3D or 4D tensor, but got: [7, 8]"),
    (lambda: F.fractional_max_pool2d(T(2, 3, 0, 8), 2, output_size=3, _random_samples=S(2, 3, 2)), RuntimeError,
     "fractional_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, but got[2, 3, 0, 8] "
     "with dimension 2 being empty."),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), 2, output_size=-1, _random_samples=S(2, 3, 2)), RuntimeError,
     "Trying to create tensor with negative dimension -1: [2, 3, -1, -1]"),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), 2, output_size=3, _random_samples=S(2, 3, 2).double()),
     RuntimeError, "Expect _random_samples to have the same dtype as input"),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), 2, output_size=3, _random_samples=S(3, 2)), RuntimeError,
     "Expect _random_samples to have 3 dimensions, got 2"),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), 2, output_size=3, _random_samples=S(1, 3, 2)), RuntimeError,
     "Expect _random_samples.size(0) no less then input batch size."),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), 2, output_size=3, _random_samples=S(2, 2, 2)), RuntimeError,
     "Expect _random_samples.size(1) equals to input channel size."),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8), 2, output_size=3, _random_samples=S(2, 3, 4)), RuntimeError,
     "Expect _random_samples.size(2) equals to 2; got 4."),
    (lambda: F.fractional_max_pool2d(T(2, 3, 7, 8).long(), 2, output_size=3, _random_samples=S(2, 3, 2).long()),
     NotImplementedError, "\"fractional_max_pool2d_out_frame\" not implemented for 'Long'"),
    (lambda: F.fractional_max_pool3d(T(2, 3, 6, 7, 8), 2, output_size=(5, 6, 7), _random_samples=S(2, 3, 3)),
     RuntimeError, "fractional_max_pool3d_out(): pool time 2 too large relative to input time 6"),
    (lambda: F.fractional_max_pool3d(T(2, 3, 6, 7, 8), 2, output_size=(4, 6, 7), _random_samples=S(2, 3, 3)),
     RuntimeError, "fractional_max_pool3d_out(): pool width 2 too large relative to input width 8"),
    (lambda: F.fractional_max_pool3d(T(2, 3, 6, 7, 8), 0, output_size=3, _random_samples=S(2, 3, 3)), RuntimeError,
     "fractional_max_pool3d(): kernel size should be greater than zero, but got 0x0x0"),
    (lambda: F.fractional_max_pool3d(T(2, 3, 6, 7, 8), (1, 2), output_size=3, _random_samples=S(2, 3, 3)),
     RuntimeError, "fractional_max_pool3d: kernel_size must either be a single Int or tuple of three Ints"),
    (lambda: F.fractional_max_pool3d(T(6, 7, 8), 2, output_size=3, _random_samples=S(2, 3, 3)), RuntimeError,
     "fractional_max_pool3d_out(): Expected 4D or 5D tensor, but got: [6, 7, 8]"),
    (lambda: F.fractional_max_pool3d(T(2, 3, 6, 7, 8), 2, output_size=3, _random_samples=S(2, 3, 2)), RuntimeError,
     "Expect _random_samples.size(2) equals to 3; got 2."),
    (lambda: nn.FractionalMaxPool2d(3), ValueError,
     "FractionalMaxPool2d requires specifying either an output size, or a pooling ratio"),
    (lambda: nn.FractionalMaxPool3d(3, 2, 0.5), ValueError, "only one of output_size and output_ratio may be specified"),
    (lambda: nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0)), ValueError,
     "output_ratio must be between 0 and 1 (got (0.5, 0))"),
    (lambda: nn.ConvTranspose3d(2, 4, 3, padding_mode="reflect"), ValueError,
     'Only "zeros" padding mode is supported for ConvTranspose3d'),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors(i):
    f, exc, message = ERRORS[i]
    raises_exactly(f, message, exc)


# ---------------------------------------------------------------------------------- modules
REPRS = [
    (lambda: nn.MaxPool3d(2), "MaxPool3d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"),
    (lambda: nn.MaxPool3d((2, 3, 2), stride=(1, 2, 1), padding=1, dilation=2, return_indices=True, ceil_mode=True),
     "MaxPool3d(kernel_size=(2, 3, 2), stride=(1, 2, 1), padding=1, dilation=2, ceil_mode=True)"),
    (lambda: nn.AvgPool3d(2), "AvgPool3d(kernel_size=2, stride=2, padding=0)"),
    (lambda: nn.AvgPool3d((3, 2, 2), 1, 1, True, False, 2), "AvgPool3d(kernel_size=(3, 2, 2), stride=1, padding=1)"),
    (lambda: nn.AdaptiveAvgPool3d((1, None, 2)), "AdaptiveAvgPool3d(output_size=(1, None, 2))"),
    (lambda: nn.AdaptiveMaxPool3d(2, True), "AdaptiveMaxPool3d(output_size=2)"),
    (lambda: nn.MaxUnpool3d((2, 1, 2), 1, (1, 0, 1)), "MaxUnpool3d(kernel_size=(2, 1, 2), stride=(1, 1, 1), padding=(1, 0, 1))"),
    (lambda: nn.FractionalMaxPool2d(3, output_size=5), "FractionalMaxPool2d()"),
    (lambda: nn.FractionalMaxPool3d((2, 3, 1), output_ratio=0.5), "FractionalMaxPool3d()"),
    (lambda: nn.ConvTranspose3d(4, 2, (1, 2, 3), stride=(2, 1, 1), padding=(0, 1, 0), output_padding=(1, 0, 0),
                                groups=2, bias=False, dilation=(1, 2, 1)),
     "ConvTranspose3d(4, 2, kernel_size=(1, 2, 3), stride=(2, 1, 1), padding=(0, 1, 0), dilation=(1, 2, 1), "
     "output_padding=(1, 0, 0), groups=2, bias=False)"),
    (lambda: nn.LazyLinear(3), "LazyLinear(in_features=0, out_features=3, bias=True)"),
    (lambda: nn.LazyConv2d(4, 3, padding=1, groups=2), "LazyConv2d(0, 4, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), groups=2)"),
    (lambda: nn.LazyConvTranspose3d(2, (1, 2, 3), stride=2, bias=False),
     "LazyConvTranspose3d(0, 2, kernel_size=(1, 2, 3), stride=(2, 2, 2), bias=False)"),
    (lambda: nn.LazyBatchNorm1d(), "LazyBatchNorm1d(0, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)"),
    (lambda: nn.LazyInstanceNorm3d(affine=False),
     "LazyInstanceNorm3d(0, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=True)"),
]


@pytest.mark.parametrize("i", range(len(REPRS)))
def test_reprs(i):
    make, text = REPRS[i]
    assert repr(make()) == text


def test_pooling_modules_match_the_functions():
    x = T(1, 2, 4, 5, 6)
    y, i = nn.MaxPool3d(2, return_indices=True)(x)
    assert torch.equal(y, F.max_pool3d(x, 2)) and torch.equal(nn.MaxUnpool3d(2)(y, i, output_size=x.shape),
                                                              F.max_unpool3d(y, i, 2, output_size=(4, 5, 6)))
    assert torch.equal(nn.AvgPool3d(2, 1, 1, True, False, 3)(x), F.avg_pool3d(x, 2, 1, 1, True, False, 3))
    assert torch.equal(nn.AdaptiveAvgPool3d((2, None, 3))(x), F.adaptive_avg_pool3d(x, (2, None, 3)))
    assert torch.equal(nn.AdaptiveMaxPool3d(2, True)(x)[1], F.adaptive_max_pool3d(x, 2, True)[1])
    m = nn.FractionalMaxPool2d(2, output_ratio=0.5, return_indices=True, _random_samples=S(1, 2, 2))
    assert m.output_ratio == (0.5, 0.5) and m.kernel_size == (2, 2) and m.output_size is None
    assert list(m.state_dict()) == ["_random_samples"] and list(nn.FractionalMaxPool2d(2, 3).state_dict()) == []
    assert torch.equal(m(x[0, :, 0])[1], F.fractional_max_pool2d(x[0, :, 0], 2, output_ratio=(0.5, 0.5),
                                                                  return_indices=True, _random_samples=S(1, 2, 2))[1])
    m = nn.FractionalMaxPool3d(2, output_size=(2, 2, 3), _random_samples=S(1, 2, 3))
    assert m.output_size == (2, 2, 3) and m.output_ratio is None and m(x).shape == (1, 2, 2, 2, 3)


def test_fractional_pooling_draws_pytorchs_samples():
    """Without `_random_samples` the windows come from torch.rand(N, C, n) of the default
    generator: a seed gives PyTorch's windows."""
    torch.manual_seed(0)
    _, i = F.fractional_max_pool2d(T(2, 2, 9, 10), 2, output_size=(4, 4), return_indices=True)
    assert i.flatten().tolist() == FRACTIONAL_SEEDED[0]
    _, i = nn.FractionalMaxPool3d(2, output_ratio=0.5, return_indices=True)(T(2, 6, 7, 8))
    assert i.flatten()[:24].tolist() == FRACTIONAL_SEEDED[1]
    assert torch.rand(1).item() == pytest.approx(FRACTIONAL_SEEDED[2], abs=1e-6)  # the draws used the generator


FRACTIONAL_SEEDED = [ [1, 2, 6, 18, 31, 32, 35, 48, 61, 52, 56, 69, 81, 82, 86, 78, 1, 12, 5, 9, 21, 22, 26, 38, 51, 42, 56, 59, 81, 72, 76, 89, 0, 4, 16, 8, 21, 34, 26, 29, 50, 54, 67, 59, 80, 84, 76, 89, 11, 2, 15, 19, 20, 32, 36, 29, 41, 42, 45, 49, 71, 83, 75, 79] ,
     [1, 10, 61, 6, 81, 26, 36, 86, 40, 107, 52, 111, 120, 171, 116, 175, 201, 146, 141, 150, 217, 162, 221, 166] , 0.293888 ]


def test_conv_transpose3d_module():
    torch.manual_seed(0)
    m = nn.ConvTranspose3d(2, 4, (2, 1, 2), stride=2, groups=2)
    assert list(m.state_dict()) == ["weight", "bias"] and m.weight.shape == (2, 2, 2, 1, 2)
    assert close(m.weight, CONV_TRANSPOSE3D_INIT[0]) and close(m.bias, CONV_TRANSPOSE3D_INIT[1])
    x = T(1, 2, 2, 3, 2)
    assert m(x).shape == (1, 4, 4, 5, 4) and m(x, output_size=(5, 6, 5)).shape == (1, 4, 5, 6, 5)
    assert torch.equal(m(x), F.conv_transpose3d(x, m.weight, m.bias, 2, groups=2))
    with pytest.raises(ValueError, match=r"requested an output size of \(9, 9, 9\), but valid sizes range from "):
        m(x, output_size=(9, 9, 9))


CONV_TRANSPOSE3D_INIT = [ [-0.0026, 0.1897, -0.291, -0.2602, -0.1362, 0.0948, -0.007, 0.2803, -0.0314, 0.0936, -0.1068, -0.0695, -0.3378, -0.2342, -0.1457, 0.0131] , [0.1398, 0.2121, -0.2397, -0.154] ]


# ---------------------------------------------------------------------------------- lazy modules
LAZY = {
    "LazyLinear": (lambda: nn.LazyLinear(3), (2, 5)),
    "LazyLinear double no bias": (lambda: nn.LazyLinear(2, bias=False, dtype=torch.float64), (4, 3), torch.float64),
    "LazyConv1d": (lambda: nn.LazyConv1d(4, 3, stride=2), (2, 3, 9)),
    "LazyConv2d unbatched": (lambda: nn.LazyConv2d(4, 3, padding=1, groups=2), (4, 5, 5)),
    "LazyConv3d": (lambda: nn.LazyConv3d(2, (1, 2, 2), bias=False), (1, 3, 2, 3, 3)),
    "LazyConvTranspose1d": (lambda: nn.LazyConvTranspose1d(2, 3, stride=2), (1, 4, 5)),
    "LazyConvTranspose2d": (lambda: nn.LazyConvTranspose2d(2, 2, groups=2), (2, 4, 3, 3)),
    "LazyConvTranspose3d": (lambda: nn.LazyConvTranspose3d(3, 2, output_padding=1, stride=2), (1, 2, 2, 2, 2)),
    "LazyBatchNorm1d": (lambda: nn.LazyBatchNorm1d(), (3, 2)),
    "LazyBatchNorm2d": (lambda: nn.LazyBatchNorm2d(momentum=None, affine=False), (2, 3, 2, 2)),
    "LazyBatchNorm3d": (lambda: nn.LazyBatchNorm3d(track_running_stats=False), (2, 2, 2, 2, 1)),
    "LazyInstanceNorm1d": (lambda: nn.LazyInstanceNorm1d(), (2, 3, 2)),
    "LazyInstanceNorm2d": (lambda: nn.LazyInstanceNorm2d(track_running_stats=False), (2, 3, 2, 2)),
    "LazyInstanceNorm3d": (lambda: nn.LazyInstanceNorm3d(bias=False), (1, 2, 2, 2, 2)),
}

# name: (state_dict before (key: repr or value), class after, repr after, output's first values,
#        [(key, type name, shape, first values)] of the state_dict after)
LAZY_EXPECTED = {
    'LazyBatchNorm1d': ({'weight': '<UninitializedParameter>', 'bias': '<UninitializedParameter>', 'running_mean': '<UninitializedBuffer>', 'running_var': '<UninitializedBuffer>', 'num_batches_tracked': 0}, 'BatchNorm1d', 'BatchNorm1d(2, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)',
        [0.2108, 1.0283, 1.1057, -1.355, -1.3165, 0.3267],
        [('weight', 'Tensor', [2], [1.0, 1.0]), ('bias', 'Tensor', [2], [0.0, 0.0]), ('running_mean', 'Tensor', [2], [-0.018, 0.0435]), ('running_var', 'Tensor', [2], [1.009, 1.2248]), ('num_batches_tracked', 'Tensor', [], [1.0])]),
    'LazyBatchNorm2d': ({'running_mean': '<UninitializedBuffer>', 'running_var': '<UninitializedBuffer>', 'num_batches_tracked': 0}, 'BatchNorm2d', 'BatchNorm2d(3, eps=1e-05, momentum=None, affine=False, bias=False, track_running_stats=True)',
        [-0.0591, 2.0269, 0.7579, -1.7285, -1.6875, 0.9393, 1.6024, -0.4249],
        [('running_mean', 'Tensor', [3], [0.0551, 0.1226, 0.0916]), ('running_var', 'Tensor', [3], [0.9967, 0.8146, 0.8267]), ('num_batches_tracked', 'Tensor', [], [1.0])]),
    'LazyBatchNorm3d': ({'weight': '<UninitializedParameter>', 'bias': '<UninitializedParameter>'}, 'BatchNorm3d', 'BatchNorm3d(2, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=False)',
        [-0.1004, 1.7108, 0.609, -1.5499, -1.6767, 1.1405, 1.8517, -0.3225],
        [('weight', 'Tensor', [2], [1.0, 1.0]), ('bias', 'Tensor', [2], [0.0, 0.0])]),
    'LazyConv1d': ({'weight': '<UninitializedParameter>', 'bias': '<UninitializedParameter>'}, 'Conv1d', 'Conv1d(3, 4, kernel_size=(3,), stride=(2,))',
        [-0.2411, -0.0674, -0.3882, 0.0156, -0.3954, 0.9294, -0.2743, 0.7421],
        [('weight', 'Tensor', [4, 3, 3], [-0.0025, 0.1788, -0.2743, -0.2453, -0.1284, 0.0894]), ('bias', 'Tensor', [4], [-0.1946, 0.2865, 0.1487, 0.1616])]),
    'LazyConv2d unbatched': ({'weight': '<UninitializedParameter>', 'bias': '<UninitializedParameter>'}, 'Conv2d', 'Conv2d(4, 4, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), groups=2)',
        [0.5997, 0.2008, -1.0905, -0.4094, 0.9003, -0.1735, -0.6459, -0.3051],
        [('weight', 'Tensor', [4, 2, 3, 3], [-0.0018, 0.1264, -0.194, -0.1735, -0.0908, 0.0632]), ('bias', 'Tensor', [4], [0.0926, 0.1953, 0.2051, 0.208])]),
    'LazyConv3d': ({'weight': '<UninitializedParameter>'}, 'Conv3d', 'Conv3d(3, 2, kernel_size=(1, 2, 2), stride=(1, 1, 1), bias=False)',
        [1.0715, 0.0775, -0.519, 0.6887, 0.5244, 0.3743, -0.3559, -0.167],
        [('weight', 'Tensor', [2, 3, 1, 2, 2], [-0.0022, 0.1549, -0.2376, -0.2124, -0.1112, 0.0774])]),
    'LazyConvTranspose1d': ({'weight': '<UninitializedParameter>', 'bias': '<UninitializedParameter>'}, 'ConvTranspose1d', 'ConvTranspose1d(4, 2, kernel_size=(3,), stride=(2,))',
        [-0.3503, 0.0362, -0.435, 0.7294, -0.8767, 0.0136, -0.1644, -0.8185],
        [('weight', 'Tensor', [4, 2, 3], [-0.0031, 0.219, -0.336, -0.3004, -0.1572, 0.1095]), ('bias', 'Tensor', [2], [-0.0658, 0.0432])]),
    'LazyConvTranspose2d': ({'weight': '<UninitializedParameter>', 'bias': '<UninitializedParameter>'}, 'ConvTranspose2d', 'ConvTranspose2d(4, 2, kernel_size=(2, 2), stride=(1, 1), groups=2)',
        [0.2472, -0.0024, 0.7465, 0.4587, 0.2699, -1.1252, -0.9004, 0.3319],
        [('weight', 'Tensor', [4, 1, 2, 2], [-0.0037, 0.2682, -0.4115, -0.368, -0.1926, 0.1341]), ('bias', 'Tensor', [2], [0.1977, 0.3])]),
    'LazyConvTranspose3d': ({'weight': '<UninitializedParameter>', 'bias': '<UninitializedParameter>'}, 'ConvTranspose3d', 'ConvTranspose3d(2, 3, kernel_size=(2, 2, 2), stride=(2, 2, 2), output_padding=(1, 1, 1))',
        [-0.0486, -0.118, -0.0851, 0.1172, -0.0905, -0.3259, 0.1506, -0.4653],
        [('weight', 'Tensor', [2, 3, 2, 2, 2], [-0.0015, 0.1095, -0.168, -0.1502, -0.0786, 0.0547]), ('bias', 'Tensor', [3], [-0.0905, -0.0074, 0.1305])]),
    'LazyInstanceNorm1d': ({'weight': '<UninitializedParameter>', 'bias': '<UninitializedParameter>', 'running_mean': '<UninitializedBuffer>', 'running_var': '<UninitializedBuffer>', 'num_batches_tracked': 0}, 'InstanceNorm1d', 'InstanceNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)',
        [-1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0],
        [('weight', 'Tensor', [3], [1.0, 1.0, 1.0]), ('bias', 'Tensor', [3], [0.0, 0.0, 0.0]), ('running_mean', 'Tensor', [3], [0.0797, -0.0582, 0.0214]), ('running_var', 'Tensor', [3], [1.0681, 1.0606, 1.027]), ('num_batches_tracked', 'Tensor', [], [0.0])]),
    'LazyInstanceNorm2d': ({'weight': '<UninitializedParameter>', 'bias': '<UninitializedParameter>'}, 'InstanceNorm2d', 'InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=False)',
        [-0.2263, 1.3047, 0.3733, -1.4516, -1.4154, 0.6561, 1.179, -0.4197],
        [('weight', 'Tensor', [3], [1.0, 1.0, 1.0]), ('bias', 'Tensor', [3], [0.0, 0.0, 0.0])]),
    'LazyInstanceNorm3d': ({'weight': '<UninitializedParameter>', 'running_mean': '<UninitializedBuffer>', 'running_var': '<UninitializedBuffer>', 'num_batches_tracked': 0}, 'InstanceNorm3d', 'InstanceNorm3d(2, eps=1e-05, momentum=0.1, affine=True, bias=False, track_running_stats=True)',
        [-0.213, 1.4429, 0.4355, -1.5383, -1.3198, 0.5653, 1.0411, -0.4137],
        [('weight', 'Tensor', [2], [1.0, 1.0]), ('running_mean', 'Tensor', [2], [0.0251, -0.0125]), ('running_var', 'Tensor', [2], [1.0582, 0.9373]), ('num_batches_tracked', 'Tensor', [], [0.0])]),
    'LazyLinear': ({'weight': '<UninitializedParameter>', 'bias': '<UninitializedParameter>'}, 'Linear', 'Linear(in_features=5, out_features=3, bias=True)',
        [0.9405, 0.3379, 0.4729, 0.9178, 0.2099, 0.5404],
        [('weight', 'Tensor', [3, 5], [-0.0033, 0.2399, -0.3681, -0.3291, -0.1722, 0.1199]), ('bias', 'Tensor', [3], [0.0166, 0.1768, 0.2683])]),
    'LazyLinear double no bias': ({'weight': '<UninitializedParameter>'}, 'Linear', 'Linear(in_features=3, out_features=2, bias=False)',
        [0.4317, 0.5827, -1.2016, -0.6677, 0.8038, 0.2491, 0.038, 0.1541],
        [('weight', 'Tensor', [2, 3], [0.5428, 0.24, -0.0469, 0.4858, 0.1675, 0.3362])]),
}


def _describe(v):
    return repr(v) if is_lazy(v) else v.tolist()


@pytest.mark.parametrize("name", sorted(LAZY))
def test_lazy_modules_become_their_layers(name):
    make, shape, *dtype = LAZY[name]
    before, cls, text, out_values, after = LAZY_EXPECTED[name]
    torch.manual_seed(0)
    m = make()
    assert isinstance(m, nn.modules.lazy.LazyModuleMixin) and m.has_uninitialized_params() == (before != {})
    assert {k: _describe(v) for k, v in m.state_dict().items()} == before
    x = T(*shape, dtype=dtype[0] if dtype else torch.float32)
    y = m(x)
    assert type(m) is getattr(nn, cls) and repr(m) == text
    assert not isinstance(m, nn.modules.lazy.LazyModuleMixin) and not hasattr(m, "_initialize_hook")
    assert close(y.flatten()[:8], out_values)
    got = [(k, type(v).__name__, list(v.shape), v.flatten()[:6].tolist()) for k, v in m.state_dict().items()]
    assert [g[:3] for g in got] == [a[:3] for a in after]
    for (_, _, _, values), (_, _, _, want) in zip(got, after):
        assert close(torch.tensor(values), want)
    for p in m.parameters():
        assert type(p) is nn.Parameter and p.is_leaf and p.requires_grad
    for b in m.buffers():
        assert type(b) is torch.Tensor and not b.requires_grad


def test_lazy_load_state_dict_materialises():
    torch.manual_seed(1)
    src = nn.Linear(4, 3)
    lazy = nn.LazyLinear(3)
    assert str(lazy.load_state_dict(src.state_dict())) == "<All keys matched successfully>"
    assert type(lazy).__name__ == "LazyLinear" and not lazy.has_uninitialized_params()
    assert type(lazy.weight) is nn.Parameter and torch.equal(lazy.weight, src.weight)
    assert repr(lazy) == "LazyLinear(in_features=0, out_features=3, bias=True)"
    assert torch.equal(lazy(torch.ones(1, 4)), src(torch.ones(1, 4)))
    assert repr(lazy) == "Linear(in_features=4, out_features=3, bias=True)"
    bn = nn.BatchNorm1d(3)
    bn(T(4, 3))
    lazy_bn = nn.LazyBatchNorm1d()
    lazy_bn.load_state_dict(bn.state_dict())
    assert torch.equal(lazy_bn.running_mean, bn.running_mean) and type(lazy_bn.running_mean) is torch.Tensor
    assert torch.equal(lazy_bn(T(4, 3)), bn(T(4, 3))) and type(lazy_bn).__name__ == "BatchNorm1d"
    a, b = nn.LazyLinear(2), nn.LazyLinear(2)  # uninitialised into uninitialised: still lazy
    a.load_state_dict(b.state_dict())
    assert a.has_uninitialized_params()
    with pytest.raises(RuntimeError, match="Can't access the shape of an uninitialized parameter or buffer"):
        nn.Linear(3, 2).load_state_dict(nn.LazyLinear(2).state_dict())


def test_lazy_errors():
    with pytest.raises(RuntimeError) as info:
        nn.LazyConv2d(4, 3)(T(3, 3))
    assert str(info.value) == "Expected 3D (unbatched) or 4D (batched) input to LazyConv2d, but got input of size: " \
                              "torch.Size([3, 3])"
    with pytest.raises(ValueError, match="^in_channels must be divisible by groups$"):
        nn.LazyConv2d(4, 3, groups=2)(T(1, 3, 5, 5))
    with pytest.raises(RuntimeError) as info:
        nn.LazyLinear(3).weight.shape
    assert str(info.value) == (
        "Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
        "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call `forward` "
        "to initialize the parameters before accessing their attributes.")
    with pytest.raises(RuntimeError, match="^Can't share memory on an uninitialized parameter or buffer"):
        nn.LazyLinear(3).weight.share_memory_()
    m = nn.LazyBatchNorm1d()
    with pytest.raises(ValueError, match=r"^expected 2D or 3D input \(got 4D input\)$"):
        m(T(1, 2, 3, 4))


def test_uninitialized_parameter_and_buffer():
    p = UninitializedParameter()
    assert repr(p) == "<UninitializedParameter>" and str(p) == "<UninitializedParameter>"
    assert p.requires_grad and is_lazy(p) and isinstance(p, nn.Parameter)
    b = UninitializedBuffer()
    assert repr(b) == "<UninitializedBuffer>" and not b.requires_grad and is_lazy(b) and b.persistent
    assert nn.UninitializedParameter is UninitializedParameter and nn.UninitializedBuffer is UninitializedBuffer
    q = copy.deepcopy(UninitializedParameter(requires_grad=False, dtype=torch.float64))
    assert type(q) is UninitializedParameter and not q.requires_grad and q.dtype == torch.float64
    q = pickle.loads(pickle.dumps(UninitializedParameter(requires_grad=False)))
    assert type(q) is UninitializedParameter and not q.requires_grad
    p.materialize((2, 3), dtype=torch.float64)
    assert type(p) is nn.Parameter and p.shape == (2, 3) and p.dtype == torch.float64 and p.requires_grad
    b.materialize((4,))
    assert isinstance(b, torch.Tensor) and b.shape == (4,) and not is_lazy(b)
    m = copy.deepcopy(nn.LazyLinear(3))
    m(T(1, 2))
    assert repr(m) == "Linear(in_features=2, out_features=3, bias=True)"


def test_a_lazy_network_trains_as_pytorchs():
    torch.manual_seed(3)
    net = nn.Sequential(nn.LazyConv2d(3, 3), nn.LazyBatchNorm2d(), nn.Flatten(), nn.LazyLinear(2))
    out = net(T(2, 2, 5, 5))
    assert [type(m).__name__ for m in net] == ["Conv2d", "BatchNorm2d", "Flatten", "Linear"]
    assert close(out, LAZY_NET[0])
    out.sum().backward()
    assert close(net[0].weight.grad.flatten()[:6], LAZY_NET[1], atol=1e-3)
    assert close(net[3].weight.grad.flatten()[:6], LAZY_NET[2], atol=1e-3)


LAZY_NET = [ [-1.0182, -0.0835, -0.7431, 0.363] , [-0.8917, 0.3096, 1.1713, -0.7772, 0.8305, 1.1558] , [-1.8258, -1.903, 2.0448, -2.2387, -0.3596, 2.7452] ]


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device (or leafgrad's CUDA emulation)")
def test_on_cuda():
    x = T(1, 2, 4, 5, 6)
    for f in (lambda t: F.max_pool3d(t, 2, return_indices=True), lambda t: F.avg_pool3d(t, 3, 1, 1),
              lambda t: F.adaptive_avg_pool3d(t, (2, 3, 2)), lambda t: F.adaptive_max_pool3d(t, 2, True),
              lambda t: F.fractional_max_pool3d(t, 2, (2, 3, 4), return_indices=True,
                                                _random_samples=S(1, 2, 3).to(t.device)),
              lambda t: F.conv_transpose3d(t, T(2, 3, 2, 1, 2).to(t.device), stride=2)):
        xc = x.cuda().requires_grad_()
        got, want = f(xc), f(x)
        got, want = (got, want) if isinstance(got, tuple) else ((got,), (want,))
        assert all(g.device.type == "cuda" and torch.allclose(g.cpu(), w, atol=1e-5) for g, w in zip(got, want))
        got[0].sum().backward()
        assert xc.grad.device.type == "cuda"
    y, i = F.max_pool3d(x.cuda(), 2, return_indices=True)
    assert torch.equal(F.max_unpool3d(y, i, 2, output_size=(4, 5, 6)).cpu(),
                       F.max_unpool3d(y.cpu(), i.cpu(), 2, output_size=(4, 5, 6)))
    torch.manual_seed(0)
    m = nn.LazyConv3d(2, 2, device="cuda")
    assert m(x.cuda()).device.type == "cuda" and m.weight.device.type == "cuda" and type(m) is nn.Conv3d
    bn = nn.LazyBatchNorm3d(device="cuda")
    bn(x.cuda())
    assert bn.running_mean.device.type == "cuda" and bn.num_batches_tracked.device.type == "cuda"


def test_an_uninitialized_parameter_refuses_tensor_methods():
    # PyTorch's __torch_function__ lets a few methods through and refuses the rest
    w = torch.nn.LazyLinear(3).weight
    for name in ("detach", "sum", "numpy", "clone", "tolist", "dim", "zero_"):
        with pytest.raises(ValueError, match=r"^Attempted to use an uninitialized parameter in <method '"
                           + name + r"' of 'torch\._C\.TensorBase' objects>\. This error happens when you are "
                           r"using a `LazyModule` or explicitly manipulating `torch\.nn\.parameter\."
                           r"UninitializedParameter` objects\."):
            getattr(w, name)()
    with pytest.raises(ValueError, match="in <slot wrapper '__getitem__' of 'torch._C.TensorBase' objects>"):
        w[0]
    assert w.size() == (0,) and w.is_floating_point() and w.requires_grad and w.is_leaf
    b = torch.nn.LazyBatchNorm1d().running_mean
    with pytest.raises(ValueError, match="torch.nn.parameter.UninitializedBuffer"):
        b.add(1)
    m = torch.nn.LazyLinear(3)
    m(torch.ones(2, 4))
    assert m.weight.sum().shape == ()
