"""Conv1d/Conv3d/ConvTranspose1d/2d and the 1-d, adaptive, power-average and unpooling layers:
values, input and weight gradients, node names, seeded initialisation, reprs, padding modes,
output_size, errors, unbatched inputs and a second derivative, as PyTorch 2.15 gives them (these
expectations run against it with LEAFGRAD_TEST_TORCH=1)."""
import math
import warnings

import pytest
from support import exact, strip_triggered

import leafgrad as torch
import leafgrad.nn as nn
import leafgrad.nn.functional as F


def T(*shape, k=0.0):
    """A deterministic input: the sine of a ramp, scaled."""
    n = 1
    for s in shape:
        n *= s
    return ((torch.arange(n, dtype=torch.float32) * 0.37 + k).sin() * 2).reshape(shape)


def close(t, values, atol=1e-4):
    return torch.allclose(t.detach().flatten(), torch.tensor(values, dtype=t.dtype), atol=atol, rtol=1e-4)


# name: (function of the inputs, the inputs' shapes)
CASES = {
    "conv1d": (lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=1, dilation=2, groups=2),
               [(1, 4, 6), (4, 2, 3), (4,)]),
    "conv1d same even": (lambda x, w: F.conv1d(x, w, padding="same"), [(1, 2, 5), (2, 2, 4)]),
    "conv1d unbatched": (lambda x, w, b: F.conv1d(x, w, b, padding=1), [(2, 4), (3, 2, 3), (3,)]),
    "conv3d": (lambda x, w, b: F.conv3d(x, w, b, stride=(1, 2, 1), padding=(1, 0, 1), groups=2),
               [(1, 2, 2, 3, 3), (2, 1, 2, 2, 2), (2,)]),
    "conv3d same unbatched": (lambda x, w: F.conv3d(x, w, padding="same", dilation=(2, 1, 1)),
                              [(1, 3, 2, 3), (2, 1, 2, 1, 2)]),
    "conv_transpose1d": (lambda x, w, b: F.conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1,
                                                            groups=2, dilation=2), [(1, 4, 3), (4, 1, 3), (2,)]),
    "conv_transpose2d": (lambda x, w, b: F.conv_transpose2d(x, w, b, stride=(2, 1), padding=(0, 1),
                                                            output_padding=(1, 0)), [(1, 2, 2, 3), (2, 2, 2, 2), (2,)]),
    "conv_transpose2d unbatched": (lambda x, w: F.conv_transpose2d(x, w, padding=1), [(1, 2, 3), (1, 2, 2, 2)]),
    "max_pool1d": (lambda x: F.max_pool1d(x, 3, 2, 1, ceil_mode=True), [(1, 2, 7)]),
    "max_pool1d dilation unbatched": (lambda x: F.max_pool1d(x, 2, 1, dilation=2), [(2, 6)]),
    "max_pool1d indices": (lambda x: F.max_pool1d(x, 3, 2, 1, ceil_mode=True, return_indices=True), [(1, 2, 7)]),
    "max_pool2d_with_indices": (lambda x: F.max_pool2d_with_indices(x, (3, 2), (2, 1), (1, 1), (1, 2), True),
                                [(1, 1, 4, 5)]),
    "avg_pool1d": (lambda x: F.avg_pool1d(x, 3, 2, 1), [(1, 2, 7)]),
    "avg_pool1d ceil no pad count": (lambda x: F.avg_pool1d(x, 4, 3, 2, ceil_mode=True, count_include_pad=False),
                                     [(1, 1, 9)]),
    "avg_pool1d ceil unbatched": (lambda x: F.avg_pool1d(x, 4, 3, 2, ceil_mode=True), [(1, 9)]),
    "adaptive_avg_pool1d": (lambda x: F.adaptive_avg_pool1d(x, 3), [(1, 2, 7)]),
    "adaptive_avg_pool1d 1": (lambda x: F.adaptive_avg_pool1d(x, 1), [(1, 2, 5)]),
    "adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, (2, 3)), [(1, 1, 5, 4)]),
    "adaptive_avg_pool2d None": (lambda x: F.adaptive_avg_pool2d(x, (None, 2)), [(1, 3, 3)]),
    "adaptive_avg_pool2d 1": (lambda x: F.adaptive_avg_pool2d(x, 1), [(1, 2, 2, 3)]),
    "adaptive_max_pool1d": (lambda x: F.adaptive_max_pool1d(x, 3, return_indices=True), [(1, 2, 7)]),
    "adaptive_max_pool2d": (lambda x: F.adaptive_max_pool2d(x, (2, 3), return_indices=True), [(1, 1, 5, 4)]),
    "adaptive_max_pool2d unbatched": (lambda x: F.adaptive_max_pool2d(x, 2), [(1, 3, 5)]),
    "lp_pool1d": (lambda x: F.lp_pool1d(x, 2, 3, 2), [(1, 2, 7)]),
    "lp_pool2d": (lambda x: F.lp_pool2d(x.abs(), 3.0, (2, 2)), [(1, 1, 4, 5)]),
    "max_unpool2d": (lambda x: F.max_unpool2d(x, torch.tensor([[[[1, 7], [13, 10]]]]), 2, output_size=(4, 5)),
                     [(1, 1, 2, 2)]),
    "max_unpool1d": (lambda x: F.max_unpool1d(x, torch.tensor([[[0, 3, 5]]]), 2), [(1, 1, 3)]),
}

# name: (node, node under the SqueezeBackward1 or None, output shape, values, indices or None,
#        gradients of (y * cos(0.5 * arange)).sum() with respect to each input)
EXPECTED = {
    "conv1d": ("ConvolutionBackward0", None, [1, 4, 2],
        [7.8401, 10.7545, -3.2424, -1.2748, 7.8561, 10.7372, -5.7199, -3.9507],
        None,
        [[0.0, 2.9572, 0.0, 2.8411, 0.0, 1.6268, 0.0, 1.5231, 0.0, 0.4996, 0.0, 0.372, 0.0, -2.2113, 0.0, -2.7201, 0.0, -1.4356, 0.0, -2.6142, 0.0, -2.0138, 0.0, -1.1947],
         [0.6347, 2.2953, 3.4786, 0.9198, 0.7194, -1.7799, 0.0512, 0.5175, 1.1039, 0.0741, 0.5398, -0.3157, 1.5947, 1.9006, 0.5461, -1.0884, -2.162, -2.0991, 1.864, 3.224, 1.3123, -1.2723, -3.2113, -3.4572],
         [1.8776, 0.611, -1.2173, -1.9264]]),
    "conv1d same even": ("ConvolutionBackward0", None, [1, 2, 5],
        [3.6873, 9.9514, 13.6384, 11.2612, 7.1467, -5.5007, -11.744, -14.479, -11.0937, -6.5095],
        None,
        [[6.3688, 9.4071, 10.7971, 7.2577, 3.7039, 3.8621, 3.4778, 1.0043, -0.7348, -0.8859],
         [-0.2593, 0.6612, 3.0155, 3.9968, 2.4718, 4.0684, 2.6816, 1.1627, -1.9364, -3.5697, -4.894, -4.7191, -4.1564, -4.256, -2.4073, -0.8465]]),
    "conv1d unbatched": ("SqueezeBackward1", 'ConvolutionBackward0', [3, 4],
        [6.7972, 12.5913, 15.0701, 11.621, -7.2465, -11.7269, -11.2207, -5.4221, 6.2512, 5.8743, 2.7834, -0.7786],
        None,
        [[4.8337, 5.9611, 3.8093, 2.7569, 4.1652, 5.5934, 6.863, 5.4473],
         [0.4862, 1.4901, 2.8746, 2.8994, 4.6139, 3.8869, -1.9789, -3.5921, -3.1548, -4.9909, -4.9278, -3.114, 1.1608, 1.4996, -0.2489, 1.2545, -0.5125, -1.2952],
         [2.4886, -3.1437, 0.1279]]),
    "conv3d": ("ConvolutionBackward0", None, [1, 2, 3, 1, 4],
        [0.2653, 0.2268, 1.5036, 3.1745, 6.3479, 11.144, 12.5419, 6.1904, -2.2214, -8.1022, -10.0912, -4.396, 1.7747, -0.3416, -1.8324, -1.6164, -3.7773, -7.2428, -6.9019, -1.2434, 7.1088, 13.2561, 13.3721, 6.8689],
        None,
        [[-0.5106, -2.0677, -3.1186, -3.2982, -4.1722, -4.0248, 0.0, 0.0, 0.0, -2.8594, -1.6128, 0.0287, -1.051, 1.0472, 2.889, 0.0, 0.0, 0.0, -1.1847, 0.4313, 1.9418, 1.7817, 3.3096, 4.0273, 0.0, 0.0, 0.0, 3.283, 2.7854, 1.6059, 2.5703, 0.7523, -1.2499, 0.0, 0.0, 0.0],
         [-3.3353, -1.9005, -6.6311, -3.0722, 3.3349, 3.9535, 7.9699, 8.7418, -3.9037, -0.907, -4.2323, -0.3799, 6.4017, 6.2716, 8.0852, 7.553],
         [-0.5272, -0.4454]]),
    "conv3d same unbatched": ("SqueezeBackward1", 'ConvolutionBackward0', [2, 3, 2, 3],
        [4.9395, 2.6861, 0.7121, -2.5571, -4.8373, -3.1569, -5.7962, -3.128, -1.25, 3.0602, 5.7425, 3.2624, 4.7352, 2.4717, 0.6079, -2.7072, -4.9217, -2.695, -1.1583, -0.4774, -0.0566, 0.9775, 1.5545, 0.2509, 2.4435, 3.5238, 1.9367, 4.1721, 3.6522, 2.3602, 2.5602, 1.4955, 0.4438, -1.0695, -2.2228, -1.9676],
        None,
        [[-0.6292, -1.805, -1.2466, 0.3763, 0.5743, 1.3911, 2.7966, 6.2788, 5.0108, -0.0658, -0.5949, -3.56, -2.0839, -4.4332, -3.9031, -0.5088, -0.3398, 1.821],
         [3.8049, -0.6286, 9.4336, 5.7525, 0.2227, 3.439, -9.5302, -4.7002]]),
    "conv_transpose1d": ("ConvolutionBackward0", None, [1, 2, 8],
        [1.8186, 8.6553, 1.8186, 12.2825, 1.8186, 9.3949, 1.8186, 5.5826, 1.3946, 2.5644, 1.3946, 3.8954, 1.3946, 4.7387, 1.3946, 3.8672],
        None,
        [[1.8594, 0.0361, -3.2972, 1.119, 1.1324, -1.4014, -0.852, -2.0074, -1.4639, -0.9061, -2.8557, -3.9174],
         [0.7301, -1.0292, -1.8423, 1.8839, 0.1728, -3.2694, 0.035, 0.7597, 2.2778, -0.9114, -2.2358, -1.8554],
         [-0.6551, 3.1652]]),
    "conv_transpose2d": ("ConvolutionBackward0", None, [1, 2, 5, 2],
        [-1.4507, 3.0334, -1.8363, 3.0326, 10.9237, 13.262, 11.6407, 14.2148, 1.8186, 1.8186, -0.7342, 1.9727, 1.9054, 1.0345, 6.796, 8.2595, -0.4499, -0.8625, 1.3946, 1.3946],
        None,
        [[2.2177, 4.3482, 2.3342, -1.955, -4.1589, -2.6742, -2.62, -5.054, -2.6824, 1.863, 4.099, 2.6488],
         [-0.4624, -1.7065, -3.2861, -3.5875, 3.3289, 2.5535, 0.5642, -0.7534, 3.0889, 3.5177, 3.1405, 2.2981, -0.8007, 0.5449, 2.4773, 3.2457],
         [-1.5196, 1.3738]]),
    "conv_transpose2d unbatched": ("SqueezeBackward1", 'ConvolutionBackward0', [2, 1, 2],
        [8.2886, 11.0389, 3.3641, 2.6692],
        None,
        [[1.2478, 3.3316, 1.719, 2.2705, 4.1074, 1.5638],
         [3.679, 3.5393, 1.9067, 0.6347, 1.2121, 1.1088, 0.4862, 0.0512]]),
    "max_pool1d": ("SqueezeBackward1", 'MaxPool2DWithIndicesBackward0', [1, 2, 4],
        [0.7232, 1.7914, 1.9918, 1.9226, 1.0481, 0.3612, -1.0597, -1.9263],
        None,
        [[0.0, 1.0, 0.0, 0.8776, 0.5403, 0.0707, 0.0, -0.4161, -0.8011, 0.0, -0.99, 0.0, -0.9365, 0.0]]),
    "max_pool1d dilation unbatched": ("SqueezeBackward1", 'MaxPool2DWithIndicesBackward0', [2, 4],
        [1.3486, 1.7914, 1.9918, 1.9226, 1.5931, 1.0481, 0.3612, -0.3746],
        None,
        [[0.0, 0.0, 1.0, 0.8776, 0.5403, 0.0707, -0.4161, -0.8011, -0.99, -0.9365, 0.0, 0.0]]),
    "max_pool1d indices": ("SqueezeBackward1", 'MaxPool2DWithIndicesBackward0', [1, 2, 4],
        [0.7232, 1.7914, 1.9918, 1.9226, 1.0481, 0.3612, -1.0597, -1.9263],
        [1, 3, 4, 5, 0, 1, 3, 5],
        [[0.0, 1.0, 0.0, 0.8776, 0.5403, 0.0707, 0.0, -0.4161, -0.8011, 0.0, -0.99, 0.0, -0.9365, 0.0]]),
    "max_pool2d_with_indices": ("MaxPool2DWithIndicesBackward0", None, [1, 1, 3, 5],
        [1.5931, 1.9226, 1.7914, 1.9918, 1.7914, 1.5931, 1.9226, 1.5931, 1.3586, 0.7359, -0.7105, 0.0136, 0.7359, 1.3586, 0.7359],
        [6, 5, 3, 4, 3, 6, 5, 6, 19, 18, 16, 17, 18, 19, 18],
        [[0.0, 0.0, 0.0, 0.1242, 0.0707, -0.1124, -0.7376, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.2837, 0.7087, 1.5033, 0.3229]]),
    "avg_pool1d": ("SqueezeBackward1", 'AvgPool2DBackward0', [1, 2, 4],
        [0.2411, 1.2877, 1.9019, 1.1719, 0.4698, -0.3577, -1.5291, -1.3056],
        None,
        [[0.3333, 0.6259, 0.2925, 0.4726, 0.1801, 0.2037, 0.0236, -0.1387, -0.4058, -0.267, -0.597, -0.33, -0.6421, -0.3122]]),
    "avg_pool1d ceil no pad count": ("SqueezeBackward1", 'AvgPool2DBackward0', [1, 1, 4],
        [0.3616, 1.4637, 1.6389, 0.7046],
        None,
        [[0.5, 0.7194, 0.2194, 0.2194, 0.3545, 0.1351, 0.1351, 0.1704, 0.0354]]),
    "avg_pool1d ceil unbatched": ("SqueezeBackward1", 'AvgPool2DBackward0', [1, 4],
        [0.1808, 1.4637, 1.6389, 0.3523],
        None,
        [[0.25, 0.4694, 0.2194, 0.2194, 0.3545, 0.1351, 0.1351, 0.1528, 0.0177]]),
    "adaptive_avg_pool1d": ("SqueezeBackward1", 'AdaptiveAvgPool2DBackward0', [1, 2, 3],
        [0.6906, 1.7106, 1.8358, 0.3449, -1.0119, -1.8394],
        None,
        [[0.3333, 0.3333, 0.6259, 0.2925, 0.4726, 0.1801, 0.1801, 0.0236, 0.0236, -0.1151, -0.1387, -0.4058, -0.267, -0.267]]),
    "adaptive_avg_pool1d 1": ("SqueezeBackward1", 'MeanBackward1', [1, 2, 1],
        [1.171, 0.9101],
        None,
        [[0.2, 0.2, 0.2, 0.2, 0.2, 0.1755, 0.1755, 0.1755, 0.1755, 0.1755]]),
    "adaptive_avg_pool2d": ("AdaptiveAvgPool2DBackward0", None, [1, 1, 2, 3],
        [0.7707, 0.6922, 0.52, -0.7712, -0.7434, -0.615],
        None,
        [[0.1667, 0.3129, 0.2363, 0.0901, 0.1667, 0.3129, 0.2363, 0.0901, 0.1785, 0.2554, 0.0334, -0.0435, 0.0118, -0.0576, -0.2029, -0.1335, 0.0118, -0.0576, -0.2029, -0.1335]]),
    "adaptive_avg_pool2d None": ("AdaptiveAvgPool2DBackward0", None, [1, 3, 2],
        [0.3616, 1.0359, 1.8916, 1.9572, 1.3206, 0.7046],
        None,
        [[0.5, 0.9388, 0.4388, 0.2702, 0.3055, 0.0354, -0.2081, -0.6086, -0.4006]]),
    "adaptive_avg_pool2d 1": ("MeanBackward1", None, [1, 2, 1, 1],
        [1.2963, -0.0055],
        None,
        [[0.1667, 0.1667, 0.1667, 0.1667, 0.1667, 0.1667, 0.1463, 0.1463, 0.1463, 0.1463, 0.1463, 0.1463]]),
    "adaptive_max_pool1d": ("SqueezeBackward1", 'AdaptiveMaxPool2DBackward0', [1, 2, 3],
        [1.3486, 1.9918, 1.9918, 1.0481, -0.3746, -1.6013],
        [2, 4, 4, 0, 2, 4],
        [[0.0, 0.0, 1.0, 0.0, 1.4179, 0.0, 0.0, 0.0707, 0.0, -0.4161, 0.0, -0.8011, 0.0, 0.0]]),
    "adaptive_max_pool2d": ("AdaptiveMaxPool2DBackward0", None, [1, 1, 2, 3],
        [1.9918, 1.9226, 1.7914, 0.3612, 0.7359, 1.3586],
        [4, 5, 3, 8, 18, 19],
        [[0.0, 0.0, 0.0, 0.5403, 1.0, 0.8776, 0.0, 0.0, 0.0707, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.4161, -0.8011]]),
    "adaptive_max_pool2d unbatched": ("AdaptiveMaxPool2DBackward0", None, [1, 2, 2],
        [1.9226, 1.9918, 1.9226, 1.0481],
        None,
        [[0.0, 0.0, 0.0, 0.0, 0.8776, 1.5403, 0.0, 0.0707, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]),
    "lp_pool1d": ("PowBackward0", None, [1, 2, 3],
        [1.5303, 2.9991, 3.194, 1.1702, 1.9564, 3.1995],
        None,
        [[0.0, 0.4726, 1.2759, 0.5242, 0.9197, 0.3252, 0.2695, 0.0634, 0.0218, 0.057, 0.2254, 0.7416, 0.4823, 0.4984]]),
    "lp_pool2d": ("PowBackward0", None, [1, 1, 2, 2],
        [2.259, 2.1104, 2.0044, 2.4897],
        None,
        [[0.0, 0.1025, 0.3583, 0.6323, 0.0, 0.7243, 0.4974, 0.2164, 0.0257, -0.0, -0.151, -0.3449, -0.0423, -0.0452, -0.0, -0.2409, -0.0679, 0.0, 0.0062, 0.0]]),
    "max_unpool2d": ("MaxUnpool2DBackward0", None, [1, 1, 4, 5],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.7232, 0.0, 0.0, 1.7914, 0.0, 0.0, 1.3486, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        None,
        [[0.8776, -0.9365, 0.9766, 0.2837]]),
    "max_unpool1d": ("SqueezeBackward1", 'MaxUnpool2DBackward0', [1, 1, 6],
        [0.0, 0.0, 0.0, 0.7232, 0.0, 1.3486],
        None,
        [[1.0, 0.0707, -0.8011]]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_nodes_and_gradients(name):
    f, shapes = CASES[name]
    node, inner, shape, values, indices, grads = EXPECTED[name]
    xs = [T(*s, k=i).requires_grad_() for i, s in enumerate(shapes)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = f(*xs)
    if indices is not None:
        out, idx = out
        assert idx.dtype == torch.int64 and idx.tolist() == torch.tensor(indices).reshape(shape).tolist()
    assert type(out.grad_fn).__name__ == node
    if inner is not None:
        assert type(out.grad_fn.next_functions[0][0]).__name__ == inner
    assert list(out.shape) == shape and out.is_contiguous()
    assert close(out, values)
    gw = (torch.arange(out.numel(), dtype=torch.float32) * 0.5).cos().reshape(out.shape)
    gs = torch.autograd.grad((out * gw).sum(), xs)
    for g, x, want in zip(gs, xs, grads):
        assert g.shape == x.shape and g.is_contiguous()
        assert close(g, want)


def test_the_convolution_node_has_three_edges():
    x, w, b = T(1, 2, 5).requires_grad_(), T(3, 2, 3).requires_grad_(), T(3).requires_grad_()
    for y, edges in ((F.conv1d(x, w), [True, True, False]), (F.conv1d(x, w, b), [True, True, True]),
                     (F.conv_transpose1d(x.detach(), T(2, 3, 3), b), [False, False, True])):
        assert [fn is not None for fn, _ in y.grad_fn.next_functions] == edges


def test_same_padding_with_an_even_kernel_warns():
    torch.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            F.conv1d(T(1, 2, 5), T(3, 2, 4), padding="same")
    finally:
        torch.set_warn_always(False)
    assert [strip_triggered(x.message) for x in w] == [
        "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of the "
        "input be created"]


# ---------------------------------------------------------------------------------- modules
INIT = {
    "nn.Conv1d(2, 3, 2)": (
        ("weight", [3, 2, 2], [-0.0037, 0.2682, -0.4115, -0.368, -0.1926, 0.1341, -0.0099, 0.3964, -0.0444, 0.1323,
                               -0.1511, -0.0983]),
        ("bias", [3], [-0.4777, -0.3311, -0.2061]),
    ),
    "nn.Conv1d(4, 2, 3, groups=2, bias=False)": (
        ("weight", [2, 2, 3], [-0.0031, 0.219, -0.336, -0.3004, -0.1572, 0.1095, -0.0081, 0.3237, -0.0362, 0.108,
                               -0.1234, -0.0802]),
    ),
    "nn.Conv3d(1, 2, (2, 1, 2))": (
        ("weight", [2, 1, 2, 1, 2], [-0.0037, 0.2682, -0.4115, -0.368, -0.1926, 0.1341, -0.0099, 0.3964]),
        ("bias", [2], [-0.0444, 0.1323]),
    ),
    "nn.ConvTranspose1d(3, 2, 2)": (
        ("weight", [3, 2, 2], [-0.0037, 0.2682, -0.4115, -0.368, -0.1926, 0.1341, -0.0099, 0.3964, -0.0444, 0.1323,
                               -0.1511, -0.0983]),
        ("bias", [2], [-0.4777, -0.3311]),
    ),
    "nn.ConvTranspose2d(2, 4, (1, 2), groups=2)": (
        ("weight", [2, 2, 1, 2], [-0.0037, 0.2682, -0.4115, -0.368, -0.1926, 0.1341, -0.0099, 0.3964]),
        ("bias", [4], [-0.0444, 0.1323, -0.1511, -0.0983]),
    ),
}


@pytest.mark.parametrize("ctor", sorted(INIT))
def test_seeded_initialisation_draws_pytorchs_numbers(ctor):
    torch.manual_seed(0)
    m = eval(ctor)
    got = list(m.named_parameters())
    assert [n for n, _ in got] == [n for n, _, _ in INIT[ctor]]
    for (_, p), (_, shape, values) in zip(got, INIT[ctor]):
        assert list(p.shape) == shape and p.requires_grad
        assert close(p, values)


REPRS = [
    (lambda: nn.Conv1d(4, 6, 3, stride=2, padding=1, groups=2), "Conv1d(4, 6, kernel_size=(3,), stride=(2,), padding=(1,), groups=2)"),
    (lambda: nn.Conv1d(3, 5, 2, bias=False, padding="same", dilation=2, padding_mode="reflect"),
     "Conv1d(3, 5, kernel_size=(2,), stride=(1,), padding=same, dilation=(2,), bias=False, padding_mode=reflect)"),
    (lambda: nn.Conv3d(2, 4, (2, 3, 1), padding=(1, 0, 0)),
     "Conv3d(2, 4, kernel_size=(2, 3, 1), stride=(1, 1, 1), padding=(1, 0, 0))"),
    (lambda: nn.ConvTranspose1d(4, 6, 3, stride=2, output_padding=1, groups=2, dilation=2),
     "ConvTranspose1d(4, 6, kernel_size=(3,), stride=(2,), dilation=(2,), output_padding=(1,), groups=2)"),
    (lambda: nn.ConvTranspose2d(3, 2, (2, 3), stride=(2, 1), padding=(0, 1), bias=False),
     "ConvTranspose2d(3, 2, kernel_size=(2, 3), stride=(2, 1), padding=(0, 1), bias=False)"),
    (lambda: nn.MaxPool1d(3, 2, 1, 1, True, True), "MaxPool1d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=True)"),
    (lambda: nn.AvgPool1d(3, 2, 1, True, False), "AvgPool1d(kernel_size=(3,), stride=(2,), padding=(1,))"),
    (lambda: nn.AdaptiveAvgPool1d(3), "AdaptiveAvgPool1d(output_size=3)"),
    (lambda: nn.AdaptiveAvgPool2d((None, 4)), "AdaptiveAvgPool2d(output_size=(None, 4))"),
    (lambda: nn.AdaptiveMaxPool1d(4, True), "AdaptiveMaxPool1d(output_size=4)"),
    (lambda: nn.AdaptiveMaxPool2d((3, 2)), "AdaptiveMaxPool2d(output_size=(3, 2))"),
    (lambda: nn.LPPool1d(3.0, 2, 1, True), "LPPool1d(norm_type=3.0, kernel_size=2, stride=1, ceil_mode=True)"),
    (lambda: nn.LPPool2d(2, (2, 3)), "LPPool2d(norm_type=2, kernel_size=(2, 3), stride=None, ceil_mode=False)"),
    (lambda: nn.MaxUnpool1d(3, 2, 1), "MaxUnpool1d(kernel_size=(3,), stride=(2,), padding=(1,))"),
    (lambda: nn.MaxUnpool2d((2, 3), 1, (0, 1)), "MaxUnpool2d(kernel_size=(2, 3), stride=(1, 1), padding=(0, 1))"),
]


@pytest.mark.parametrize("i", range(len(REPRS)))
def test_reprs(i):
    make, text = REPRS[i]
    assert repr(make()) == text


def test_conv_attributes_follow_pytorch():
    m = nn.Conv1d(3, 5, 4, padding="same", dilation=1, padding_mode="circular")
    assert m._reversed_padding_repeated_twice == [1, 2]
    assert m.transposed is False and m.output_padding == (0,)
    m = nn.Conv3d(1, 1, 1, padding=(1, 2, 0), padding_mode="replicate")
    assert tuple(m._reversed_padding_repeated_twice) == (0, 0, 2, 2, 1, 1)
    t = nn.ConvTranspose2d(2, 4, 3, groups=2)
    assert t.transposed is True and t.output_padding == (0, 0) and list(t.weight.shape) == [2, 2, 3, 3]
    assert list(nn.Conv1d(2, 4, 3).state_dict()) == ["weight", "bias"]
    m = nn.Conv1d(2, 4, 3, dtype=torch.float64)
    assert m.weight.dtype == torch.float64 and m.bias.dtype == torch.float64
    assert nn.ConvTranspose1d(2, 4, 3, device="meta").weight.device.type == "meta"


PAD_MODES = {
    "reflect": ("ReflectionPad1DBackward0", [4.5434, 2.788, 2.1017, 1.7546, 1.1699, 2.6238, 3.5915],
                [4.0, 7.0, 2.0, 17.0, 12.0, 1.0, 5.0, 26.0, 26.5, 15.0]),
    "replicate": ("ReplicationPad1DBackward0", [3.3645, 2.5087, 2.1017, 1.7546, 1.1699, 1.42, 1.3362],
                  [5.0, 6.0, 8.0, 10.0, 13.0, 1.5, 4.5, 8.0, 11.5, 48.0]),
    "circular": ("CopySlices", [5.8616, 2.9303, 2.1017, 1.7546, 1.1699, 5.8616, 2.9303],
                 [11.0, 0.0, 8.0, 10.0, 13.0, 16.0, 22.5, 8.0, 11.5, 15.5]),
}


@pytest.mark.parametrize("mode", sorted(PAD_MODES))
def test_padding_modes(mode):
    node, values, grad = PAD_MODES[mode]
    x = (torch.arange(10.) * 0.37).sin().reshape(1, 2, 5).requires_grad_()
    m = nn.Conv1d(2, 1, 3, padding=2, padding_mode=mode, bias=False)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([[[1., 2., -1.], [0.5, 0., 3.]]]))
    y = m(x)
    assert type(y.grad_fn).__name__ == "ConvolutionBackward0"
    assert type(y.grad_fn.next_functions[0][0]).__name__ == node
    assert close(y, values)
    (g,) = torch.autograd.grad((y * torch.arange(y.numel()).float().reshape(y.shape)).sum(), x)
    assert close(g, grad)
    assert close(m(x[0]), values)  # unbatched


def test_conv3d_circular_padding():
    x = (torch.arange(12.) * 0.37).sin().reshape(1, 1, 2, 2, 3)
    m = nn.Conv3d(1, 1, 2, padding=1, padding_mode="circular", bias=False)
    with torch.no_grad():
        m.weight.copy_(torch.arange(8.).reshape(1, 1, 2, 2, 2))
    y = m(x)
    assert list(y.shape) == [1, 1, 3, 3, 4]
    assert close(y[0, 0, 1], [4.7647, 7.1301, 1.9931, 4.7647, 3.1998, 6.1145, -0.2347, 3.1998, 4.7647, 7.1301,
                              1.9931, 4.7647])
    assert close(y[0, 0, 0], y[0, 0, 2].detach().flatten().tolist())


def test_transposed_output_size():
    up = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)
    x = T(1, 2, 4, 5)
    assert list(up(x).shape) == [1, 3, 7, 9]
    assert list(up(x, output_size=[8, 10]).shape) == [1, 3, 8, 10]
    assert list(up(x, output_size=(1, 3, 7, 10)).shape) == [1, 3, 7, 10]
    assert list(up(x[0], output_size=[3, 8, 9]).shape) == [3, 8, 9]
    with pytest.raises(ValueError, match=exact(
            "requested an output size of [20, 10], but valid sizes range from [7, 9] to [8, 10] (for an input of "
            "torch.Size([4, 5]))")):
        up(x, output_size=[20, 10])
    with pytest.raises(ValueError, match=exact(
            "ConvTranspose2D: for 4D input, output_size must have 2 or 4 elements (got 1)")):
        up(x, output_size=[20])
    up1 = nn.ConvTranspose1d(2, 3, 3, stride=3)
    assert list(up1(T(2, 6), output_size=[20]).shape) == [3, 20]
    with pytest.raises(ValueError, match=r"^Only \"zeros\" padding mode is supported for ConvTranspose1d$"):
        nn.ConvTranspose1d(2, 3, 3, padding_mode="reflect")


def test_pooling_modules_match_the_functions():
    x = torch.tensor([[[1., 5., 2., 0., 3., -1., 4.]]])
    y, i = nn.MaxPool1d(3, 2, 1, return_indices=True, ceil_mode=True)(x)
    assert y.tolist() == [[[5.0, 5.0, 3.0, 4.0]]] and i.tolist() == [[[1, 1, 4, 6]]]
    assert close(nn.AvgPool1d(3, 2, 1, True, False)(x), [3.0, 2.3333, 0.6667, 1.5])
    assert close(nn.AdaptiveAvgPool1d(3)(x), [2.6667, 1.6667, 2.0])
    y, i = nn.AdaptiveMaxPool1d(4, True)(x)
    assert y.tolist() == [[[5.0, 5.0, 3.0, 4.0]]] and i.tolist() == [[[1, 1, 4, 6]]]
    assert close(nn.LPPool1d(2, 3)(x), [5.4772, 3.1623])
    assert close(nn.LPPool1d(float("inf"), 2)(x), [5.0, 2.0, 3.0])
    y, i = nn.MaxPool1d(2, return_indices=True)(x)
    assert nn.MaxUnpool1d(2)(y, i).tolist() == [[[0.0, 5.0, 2.0, 0.0, 3.0, 0.0]]]
    assert nn.MaxUnpool1d(2)(y, i, output_size=[7]).tolist() == [[[0.0, 5.0, 2.0, 0.0, 3.0, 0.0, 0.0]]]
    x2 = torch.arange(30.).reshape(1, 1, 5, 6).sin()
    y, i = F.max_pool2d_with_indices(x2, 2)
    u = nn.MaxUnpool2d(2)(y, i, output_size=torch.Size([1, 1, 5, 7]))
    assert list(u.shape) == [1, 1, 5, 7] and u.sum().item() == pytest.approx(y.sum().item(), abs=1e-5)
    assert list(nn.AdaptiveAvgPool2d(1)(torch.randn(2, 3, 4, 5, 6)).shape) == [2, 3, 4, 1, 1]


def test_max_pooling_indices_keep_the_last_nan_of_a_window():
    nan = float("nan")
    x = torch.tensor([[[1., nan, 3., nan, 2., 0.]]])
    assert F.max_pool1d(x, 3, 1, return_indices=True)[1].tolist() == [[[1, 3, 3, 3]]]
    assert F.adaptive_max_pool1d(x, 2, return_indices=True)[1].tolist() == [[[1, 3]]]
    x2 = torch.tensor([[[[1., nan, 3.], [nan, 5., 2.], [0., nan, 1.]]]])
    assert F.max_pool2d_with_indices(x2, 2, 1, 1)[1].tolist() == [[[[0, 1, 1, 2], [3, 3, 1, 2], [3, 7, 7, 5],
                                                                      [6, 7, 7, 8]]]]
    assert F.adaptive_max_pool2d(x2, 2, True)[1].tolist() == [[[[3, 1], [7, 7]]]]


# ---------------------------------------------------------------------------------- errors
ERRORS = [
    (lambda: F.conv1d(T(2, 3, 8, 8), T(4, 3, 3)), RuntimeError,
     "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [2, 3, 8, 8]"),
    (lambda: F.conv3d(T(3, 5, 5), T(4, 3, 2, 2, 2)), RuntimeError,
     "Expected 4D (unbatched) or 5D (batched) input to conv3d, but got input of size: [3, 5, 5]"),
    (lambda: F.conv1d(T(2, 3, 8), T(4, 3)), RuntimeError, "weight should have at least three dimensions"),
    (lambda: F.conv1d(T(2, 3, 8), T(4, 3, 1, 3)), RuntimeError,
     "Expected 4-dimensional input for 4-dimensional weight [4, 3, 1, 3], but got 3-dimensional input of size "
     "[2, 3, 8] instead"),
    (lambda: F.conv1d(T(2, 3, 8), T(4, 2, 3)), RuntimeError,
     "Given groups=1, weight of size [4, 2, 3], expected input[2, 3, 8] to have 2 channels, but got 3 channels "
     "instead"),
    (lambda: F.conv1d(T(2, 3, 8), T(4, 1, 3), groups=3), RuntimeError,
     "Given groups=3, expected weight to be divisible by 3 at dimension 0, but got weight of size [[4, 1, 3]] "
     "instead"),
    (lambda: F.conv1d(T(2, 3, 8), T(4, 3, 10)), RuntimeError,
     "Calculated padded input size per channel: (8). Kernel size: (10). Kernel size can't be greater than actual "
     "input size"),
    (lambda: F.conv3d(T(2, 3, 5, 5, 5), T(4, 3, 6, 2, 2)), RuntimeError,
     "Calculated padded input size per channel: (5 x 5 x 5). Kernel size: (6 x 2 x 2). Kernel size can't be greater "
     "than actual input size"),
    (lambda: F.conv1d(T(2, 3, 8), T(4, 3, 3), stride=0), RuntimeError, "non-positive stride is not supported"),
    (lambda: F.conv1d(T(2, 3, 8), T(4, 3, 3), padding=-1), RuntimeError, "negative padding is not supported"),
    (lambda: F.conv1d(T(2, 3, 8), T(4, 3, 3), groups=0), RuntimeError, "non-positive groups is not supported"),
    (lambda: F.conv1d(T(2, 3, 8), T(4, 3, 3), T(3)), RuntimeError,
     "Given weight of size [4, 3, 3], expected bias to be 1-dimensional with 4 elements, but got bias of size [3] "
     "instead"),
    (lambda: F.conv1d(T(2, 3, 8), T(4, 3, 3), padding="foo"), RuntimeError, "Invalid padding string: 'foo'"),
    (lambda: F.conv1d(T(2, 3, 8), T(4, 3, 3), padding="same", stride=2), RuntimeError,
     "padding='same' is not supported for strided convolutions"),
    (lambda: F.conv1d(T(2, 3, 8), T(4, 3, 3), stride=(1, 1)), RuntimeError,
     "expected stride to be a single integer value or a list of 1 values to match the convolution dimensions, but "
     "got stride=[1, 1]"),
    (lambda: F.conv1d(T(2, 3, 8), T(4, 3, 3).double()), RuntimeError,
     "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same or input should be a "
     "MKLDNN tensor and weight is a dense tensor"),
    (lambda: F.conv1d(T(2, 3, 8).double(), T(4, 3, 3)), RuntimeError, "expected scalar type Double but found Float"),
    (lambda: F.conv_transpose1d(T(2, 3, 8), T(4, 3, 3)), RuntimeError,
     "Given transposed=1, weight of size [4, 3, 3], expected input[2, 3, 8] to have 4 channels, but got 3 channels "
     "instead"),
    (lambda: F.conv_transpose1d(T(2, 3, 8), T(3, 2, 3), stride=2, output_padding=2), RuntimeError,
     "output padding must be smaller than either stride or dilation, but got output_padding_height: 0 "
     "output_padding_width: 2 stride_height: 1 stride_width: 2 dilation_height: 1 dilation_width: 1"),
    (lambda: F.conv_transpose2d(T(1, 3, 1, 1), T(3, 2, 1, 1), padding=2), RuntimeError,
     "Given input size per channel: (1 x 1). Calculated output size per channel: (-3 x -3). Output size is too "
     "small"),
    (lambda: F.conv_transpose2d(T(2, 3, 8, 8), T(3, 2, 3, 3), T(3)), RuntimeError,
     "Given transposed=1, weight of size [3, 2, 3, 3], expected bias to be 1-dimensional with 2 elements, but got "
     "bias of size [3] instead"),
    (lambda: F.conv_transpose1d(T(2, 3, 8), T(3, 2, 3), padding="same"), TypeError,
     "conv_transpose1d(): argument 'padding' must be tuple of ints, not str"),
    (lambda: F.max_pool1d(T(2, 3, 8, 8), 2), RuntimeError,
     "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:"
     "[2, 3, 8, 8]"),
    (lambda: F.max_pool1d(T(2, 3, 8), 2, padding=2), RuntimeError,
     "max_pool1d() padding should be at most half of kernel size, but got padding=2 and kernel_size=2"),
    (lambda: F.max_pool1d(T(2, 3, 8), 0), RuntimeError, "max_pool1d() kernel_size must be greater than zero, but got 0"),
    (lambda: F.max_pool1d(T(2, 3, 8), 9), RuntimeError, "max_pool1d() Invalid computed output size: 0"),
    (lambda: F.max_pool1d(T(2, 3, 8), 2, return_indices=True, padding=2), RuntimeError,
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and dilation=1"),
    (lambda: F.max_pool1d(T(2, 3, 8), 9, return_indices=True), RuntimeError,
     "Given input size: (3x1x8). Calculated output size: (3x1x0). Output size is too small"),
    (lambda: F.max_pool2d(T(1, 120, 1, 1), 2, 2), RuntimeError,
     "Given input size: (120x1x1). Calculated output size: (120x0x0). Output size is too small"),
    (lambda: F.avg_pool2d(T(120, 1, 1), 2, 2), RuntimeError,
     "Given input size: (120x1x1). Calculated output size: (120x0x0). Output size is too small"),
    (lambda: F.avg_pool2d(T(1, 3, 1), 2, 2), RuntimeError,
     "Given input size: (1x3x1). Calculated output size: (1x1x0). Output size is too small"),
    (lambda: F.max_pool2d(T(2, 3, 4, 1), 3, 1, padding=1, dilation=2), RuntimeError,
     "Given input size: (3x4x1). Calculated output size: (3x2x-1). Output size is too small"),
    (lambda: F.avg_pool1d(T(2, 3, 8, 8), 2), RuntimeError,
     "Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' (while checking arguments for "
     "avg_pool1d)"),
    (lambda: F.avg_pool1d(T(2, 3, 8), 0), RuntimeError, "stride should not be zero"),
    (lambda: F.avg_pool1d(T(2, 3, 8), (2, 2)), RuntimeError,
     "avg_pool1d() argument 'kernel_size' should contain one int (got 2)"),
    (lambda: F.adaptive_avg_pool1d(T(2, 3, 8), -1), RuntimeError,
     "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {1, -1}"),
    (lambda: F.adaptive_avg_pool2d(T(2, 3, 5, 5, 5), 2), RuntimeError,
     "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [2, 3, 5, 5, 5]"),
    (lambda: F.adaptive_avg_pool2d(T(2, 3, 8, 8), (2, 2, 2)), RuntimeError, "adaptive_avg_pool2d: output_size must be 2"),
    (lambda: F.adaptive_max_pool2d(torch.zeros(2, 3, 0, 4), 2), RuntimeError,
     "adaptive_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     "[2, 3, 0, 4] with dimension 2 being empty"),
    (lambda: F.adaptive_max_pool2d(T(2, 3, 8, 8).long(), 2), NotImplementedError,
     "\"adaptive_max_pool2d\" not implemented for 'Long'"),
    (lambda: F.lp_pool1d(T(2, 3, 8), 0, 2), ValueError, "norm_type must be a non-zero value, but got 0"),
    (lambda: nn.LPPool2d(0, 2), ValueError, "norm_type must be a non-zero value, but got 0"),
    (lambda: F.max_unpool2d(T(2, 3, 8, 8), torch.zeros(2, 3, 8, 8, dtype=torch.int64), 2, output_size=(3, 3)),
     ValueError, "invalid output_size \"(3, 3)\" (dim 0 must be between 14 and 18)"),
    (lambda: F.max_unpool2d(T(2, 3, 8, 8), torch.full((2, 3, 8, 8), 1000, dtype=torch.int64), 2), RuntimeError,
     "Found an invalid max index: 1000 (output volumes are of size 16x16)"),
    (lambda: F.max_unpool2d(T(2, 3, 8, 8), torch.zeros(2, 3, 8, 8), 2), RuntimeError,
     "elements in indices should be type int64 but got: Float"),
    (lambda: nn.Conv1d(2, 3, 3, groups=0), ValueError, "groups must be a positive integer"),
    (lambda: nn.Conv3d(3, 4, 3, groups=2), ValueError, "in_channels must be divisible by groups"),
    (lambda: nn.Conv1d(4, 3, 3, groups=2), ValueError, "out_channels must be divisible by groups"),
    (lambda: nn.Conv1d(4, 3, 3, padding="same", stride=2), ValueError,
     "padding='same' is not supported for strided convolutions"),
    (lambda: nn.Conv1d(1, 1, 3, padding=5, padding_mode="reflect")(T(1, 1, 4)), RuntimeError,
     "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (5, 5) at "
     "dimension 2 of input [1, 1, 4]"),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors(i):
    f, exc, text = ERRORS[i]
    with pytest.raises(exc, match=exact(text)):
        f()


def test_padding_mode_error_names_the_modes():
    with pytest.raises(ValueError, match=r"^padding_mode must be one of \{.*\}, but got padding_mode='zero'$"):
        nn.Conv1d(4, 3, 3, padding_mode="zero")


# ---------------------------------------------------------------------------------- higher order
def test_second_derivative_of_conv1d():
    x = (torch.arange(12.) * 0.37).sin().reshape(1, 2, 6).double().requires_grad_()
    w = (torch.arange(12.) * 0.61).cos().reshape(2, 2, 3).double().requires_grad_()
    y = F.conv1d(x, w, padding=1, stride=2)
    gx, gw = torch.autograd.grad(y.pow(2).sum(), [x, w], create_graph=True)
    hx, hw = torch.autograd.grad(gx.pow(2).sum() + gw.sum(), [x, w])
    assert close(hx, [-40.9786, 86.0441, 67.1322, 309.2961, 193.8933, 30.7587, 62.3965, 35.5414, -71.6226,
                      -228.5007, -264.2986, -289.7929])
    assert close(hw, [326.7479, 320.0054, 263.2058, -75.7846, -249.1616, -347.4822, -254.1877, -251.1772,
                      -155.3213, 87.6386, 223.6197, 272.417])


def _d(*shape):
    return (torch.arange(math.prod(shape), dtype=torch.float64) * 0.7).sin().reshape(shape).requires_grad_()


@pytest.mark.parametrize("name, f, shapes", [
    ("conv3d", lambda a, b: F.conv3d(a, b, padding=1, stride=(1, 2, 1)), [(1, 2, 2, 3, 3), (2, 2, 2, 2, 2)]),
    ("conv_transpose1d", lambda a, b: F.conv_transpose1d(a, b, stride=2, padding=1, output_padding=1),
     [(1, 2, 3), (2, 3, 3)]),
    ("avg_pool1d", lambda a: F.avg_pool1d(a, 3, 2, 1, True, False), [(1, 2, 6)]),
    ("adaptive_avg_pool2d", lambda a: F.adaptive_avg_pool2d(a, (2, 3)), [(1, 1, 5, 4)]),
    ("adaptive_max_pool1d", lambda a: F.adaptive_max_pool1d(a, 3), [(1, 2, 7)]),
])
def test_gradgradcheck(name, f, shapes):
    assert torch.autograd.gradgradcheck(f, tuple(_d(*s) for s in shapes))


# ---------------------------------------------------------------------------------- a small 1-d CNN
def test_training_a_small_cnn_gives_pytorchs_losses():
    torch.manual_seed(0)
    net = nn.Sequential(
        nn.Conv1d(2, 4, 3, padding=1), nn.ReLU(), nn.MaxPool1d(2),
        nn.Conv1d(4, 4, 3, padding="same", padding_mode="reflect"), nn.AdaptiveAvgPool1d(2), nn.Flatten(),
        nn.Linear(8, 3))
    xb = torch.randn(5, 2, 12)
    yb = torch.tensor([0, 2, 1, 1, 0])
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(5):
        opt.zero_grad()
        loss = F.cross_entropy(net(xb), yb)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses == pytest.approx([1.0411, 1.0296, 1.0086, 0.9801, 0.9481], abs=1e-4)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device (or leafgrad's CUDA emulation)")
def test_on_cuda():
    x = T(2, 3, 9).cuda().requires_grad_()
    m = nn.Sequential(nn.Conv1d(3, 4, 3, padding=1, padding_mode="reflect"), nn.MaxPool1d(2),
                      nn.AvgPool1d(2, count_include_pad=False), nn.AdaptiveAvgPool1d(3), nn.AdaptiveMaxPool1d(2)).cuda()
    y = m(x)
    y.sum().backward()
    assert y.device.type == x.grad.device.type == m[0].weight.grad.device.type == "cuda"
    v, i = F.max_pool1d(x, 2, return_indices=True)
    assert i.device.type == "cuda" and F.max_unpool1d(v, i, 2).device.type == "cuda"
    y = F.conv_transpose2d(T(1, 2, 3, 3).cuda(), T(2, 2, 2, 2).cuda(), stride=2)
    assert close(y.cpu(), F.conv_transpose2d(T(1, 2, 3, 3), T(2, 2, 2, 2), stride=2).flatten().tolist())
    assert F.conv3d(T(1, 2, 3, 3, 3).cuda(), T(2, 2, 2, 2, 2).cuda()).device.type == "cuda"
    assert F.adaptive_avg_pool2d(T(1, 2, 5, 5).cuda(), 3).device.type == "cuda"
