"""F.interpolate(..., antialias=True): 4-d 'bilinear', 'bicubic' and 'lanczos' (which requires
antialias) resampling: weights, values and gradients, align_corners, size vs scale_factor and
recompute_scale_factor, sizes 1, the node names, second derivatives, layouts and errors, as
PyTorch 2.15 gives them (these expectations run against it with LEAFGRAD_TEST_TORCH=1)."""
import math

import pytest
from support import raises_exactly

import leafgrad as torch
import leafgrad.nn as nn
import leafgrad.nn.functional as F


def T(*shape, k=0, dtype=torch.float64):
    """Deterministic values: a product of sines and cosines of a ramp."""
    i = torch.arange(math.prod(shape), dtype=torch.float64)
    return ((i * 1.37 + k).sin() * (i * 0.11).cos() * 3).reshape(shape).to(dtype)


def close(t, values, atol):
    return torch.allclose(t.detach().flatten().double(), torch.tensor(values, dtype=torch.float64), atol=atol, rtol=0)


def weights(n_in, n_out, mode):
    """The (n_out, n_in) weights of the height axis, read off by resampling one-hot rows (the
    width, n_in + 2 wide, keeps its size)."""
    x = torch.eye(n_in + 2, dtype=torch.float64)[:n_in].reshape(1, 1, n_in, n_in + 2)
    return F.interpolate(x, size=(n_out, n_in + 2), mode=mode, antialias=True)[0, 0, :, :n_in]


# (in, out, mode): the weights, each output row a normalised window of the (stretched) filter
WEIGHTS = {
    (5, 2, 'bilinear'): [
        [0.318181818182, 0.409090909091, 0.227272727273, 0.0454545454545, 0],
        [0, 0.0454545454545, 0.227272727273, 0.409090909091, 0.318181818182],
    ],
    (3, 5, 'bilinear'): [
        [1, 0, 0],
        [0.6, 0.4, 0],
        [0, 1, 0],
        [0, 0.4, 0.6],
        [0, 0, 1],
    ],
    (6, 3, 'bicubic'): [
        [0.464435146444, 0.464435146444, 0.121338912134, -0.0376569037657, -0.0125523012552, 0],
        [-0.0343511450382, 0.110687022901, 0.423664122137, 0.423664122137, 0.110687022901, -0.0343511450382],
        [0, -0.0125523012552, -0.0376569037657, 0.121338912134, 0.464435146444, 0.464435146444],
    ],
    (2, 5, 'bicubic'): [
        [1.09905660377, -0.0990566037736],
        [0.934449760766, 0.0655502392344],
        [0.5, 0.5],
        [0.0655502392344, 0.934449760766],
        [-0.0990566037736, 1.09905660377],
    ],
    (7, 2, 'lanczos'): [
        [0.235816551526, 0.297832760122, 0.276098333324, 0.182759512265,
         0.0676526413127, -0.0159589460526, -0.0442008524959],
        [-0.0442008524959, -0.0159589460526, 0.0676526413127, 0.182759512265,
         0.276098333324, 0.297832760122, 0.235816551526],
    ],
    (3, 4, 'lanczos'): [
        [1.07106816284, -0.0935943793161, 0.0225262164767],
        [0.414990954396, 0.724650610518, -0.139641564914],
        [-0.139641564914, 0.724650610518, 0.414990954396],
        [0.0225262164767, -0.0935943793161, 1.07106816284],
    ],
}


@pytest.mark.parametrize("key", sorted(WEIGHTS))
def test_weights(key):
    w = weights(*key)
    assert close(w, sum(WEIGHTS[key], []), 1e-11)
    assert torch.allclose(w.sum(1), torch.ones(key[1], dtype=torch.float64))


# name: (input shape, keyword arguments)
CASES = {
    "bilinear down": ((2, 2, 9, 11), dict(mode="bilinear", size=(4, 5))),
    "bilinear up": ((1, 2, 4, 5), dict(mode="bilinear", size=(9, 13))),
    "bilinear mixed align_corners": ((1, 1, 7, 6), dict(mode="bilinear", size=(3, 10), align_corners=True)),
    "bilinear scale_factor": ((1, 2, 10, 7), dict(mode="bilinear", scale_factor=(0.37, 1.7))),
    "bilinear recompute": ((1, 2, 10, 7), dict(mode="bilinear", scale_factor=(0.45, 2.3),
                                               recompute_scale_factor=True)),
    "bilinear to one": ((1, 1, 13, 17), dict(mode="bilinear", size=(1, 3), align_corners=True)),
    "bilinear from one": ((1, 1, 1, 5), dict(mode="bilinear", size=(3, 2))),
    "bicubic down": ((2, 2, 9, 11), dict(mode="bicubic", size=(4, 5))),
    "bicubic up": ((1, 2, 4, 5), dict(mode="bicubic", size=(9, 13))),
    "bicubic align_corners": ((1, 1, 13, 6), dict(mode="bicubic", size=(2, 10), align_corners=True)),
    "bicubic scale_factor": ((1, 2, 10, 7), dict(mode="bicubic", scale_factor=0.37)),
    "bicubic recompute": ((1, 2, 10, 7), dict(mode="bicubic", scale_factor=(2.3, 0.45),
                                              recompute_scale_factor=True)),
    "lanczos down": ((2, 2, 9, 11), dict(mode="lanczos", size=(4, 5))),
    "lanczos up": ((1, 2, 4, 5), dict(mode="lanczos", size=(9, 13))),
    "lanczos scale_factor": ((1, 1, 20, 7), dict(mode="lanczos", scale_factor=(0.3, 1.6))),
}

# name: (output shape, node, output sum, its first 8 values, the input gradient's sum and first
#        8 values for the output gradient T(*out.shape, k=1))
EXPECTED = {
    'bilinear down': ([2, 2, 4, 5], 'UpsampleBilinear2DAaBackward0',
        0.33364298, [0.57281716, -0.49891084, 0.44706749, -0.33104021, 0.09770706, -0.46903274, 0.32199655, -0.22713088],
        0.40411669, [0.35719585, 0.46620122, 0.40384355, 0.29727634, 0.01387097, -0.2695344, -0.34950313, -0.42947185]),
    'bilinear up': ([1, 2, 9, 13], 'UpsampleBilinear2DAaBackward0',
        6.80489348, [0.0, 0.22476591, 1.34859544, 2.47242497, 2.51174915, 1.82806976, 1.14439038, -0.19521063],
        0.39861136, [3.25998594, -0.52131711, -0.77756221, 1.38181299, -1.71122588, 0.10325718, 1.4230834, -1.95692981]),
    'bilinear mixed align_corners': ([1, 1, 3, 10], 'UpsampleBilinear2DAaBackward0',
        1.60531038, [0.7734002, 0.63609148, 0.40724361, -0.06231185, -0.59204422, -0.63417408, -0.56773776, -0.0670367],
        0.26081426, [0.9318225, -0.55666738, 0.12611659, 0.29739451, -0.46501896, 0.16082545, 1.39773375, -0.83500107]),
    'bilinear scale_factor': ([1, 2, 3, 11], 'UpsampleBilinear2DAaBackward0',
        0.82909225, [-0.04997939, 0.04890223, 0.20102781, 0.17303377, 0.09412327, -0.10909663, -0.21639604, -0.24521506],
        3.55877819, [1.06874537, -0.55715024, -0.09452891, 0.5997311, -0.62335908, 0.24602597, 0.24983442, 1.45731396]),
    'bilinear recompute': ([1, 2, 4, 16], 'UpsampleBilinear2DAaBackward0',
        0.30622833, [-0.09440519, -0.04954284, 0.07607172, 0.19252991, 0.18995519, 0.18738047, 0.06586771, -0.08808269],
        2.04353663, [1.14822987, -0.84877482, 0.75350726, -0.58550674, 0.43048112, -0.25427367, -0.01031283, 1.5068902]),
    'bilinear to one': ([1, 1, 1, 3], 'UpsampleBilinear2DAaBackward0',
        -0.03778188, [0.09536722, 0.00466198, -0.13781108],
        2.95435436, [0.20285461, 0.24793342, 0.29301222, 0.33809102, 0.35556321, 0.34542878, 0.33529436, 0.32515993]),
    'bilinear from one': ([1, 1, 3, 2], 'UpsampleBilinear2DAaBackward0',
        0.49173303, [1.34913594, -1.18522493, 1.34913594, -1.18522493, 1.34913594, -1.18522493],
        3.42594976, [0.44734043, 0.6669712, 0.77862495, 0.89027869, 0.64273449]),
    'bicubic down': ([2, 2, 4, 5], 'UpsampleBicubic2DAaBackward0',
        0.37381937, [0.71398508, -0.66235577, 0.59790871, -0.43258863, 0.13409779, -0.61359109, 0.45954232, -0.32099161],
        0.40411669, [0.35601202, 0.47755862, 0.46159159, 0.32793056, 0.01882193, -0.27189291, -0.42669081, -0.46717454]),
    'bicubic up': ([1, 2, 9, 13], 'UpsampleBicubic2DAaBackward0',
        5.5425724, [-0.44335369, 0.0163307, 1.28298008, 2.71497775, 2.96533135, 2.303315, 1.28597489, -0.16022153],
        0.39861136, [3.84106355, -0.99673503, -0.5080848, 1.38332664, -1.85210992, -0.26376137, 1.76957933, -2.19326858]),
    'bicubic align_corners': ([1, 1, 2, 10], 'UpsampleBicubic2DAaBackward0',
        0.40285475, [0.10682115, 0.12057334, 0.13549088, 0.05589629, -0.05833311, -0.14379791, -0.16700266, -0.08317492],
        1.09198444, [0.2155237, -0.13769208, 0.03118129, 0.07018083, -0.13324147, 0.10410021, 0.25624688, -0.16483115]),
    'bicubic scale_factor': ([1, 2, 3, 2], 'UpsampleBicubic2DAaBackward0',
        0.0494938, [0.12800327, -0.10722202, -0.00887792, 0.00882232, 0.00780573, -0.00581784, 0.04294666, -0.01933277],
        2.75367639, [0.25100168, 0.34417066, 0.34253234, 0.29268938, 0.22248978, 0.1129598, 0.01518289, 0.29091632]),
    'bicubic recompute': ([1, 2, 23, 3], 'UpsampleBicubic2DAaBackward0',
        -0.13926678, [1.84053567, -1.22631027, 1.09866373, 1.30647605, -0.91579748, 0.87093803, -0.02052307, -0.16349091],
        3.46325695, [0.19308084, 0.3744688, 0.66593006, 0.7991707, 0.51105108, 0.09517882, -0.04812414, 0.17831214]),
    'lanczos down': ([2, 2, 4, 5], 'UpsampleLanczos2DAaBackward0',
        0.39036197, [0.79010676, -0.78638679, 0.73656077, -0.52657993, 0.16183911, -0.72492511, 0.57278785, -0.41402847],
        0.40411669, [0.31658045, 0.48384362, 0.49092828, 0.32045719, 0.03919745, -0.25900251, -0.46871542, -0.47797321]),
    'lanczos up': ([1, 2, 9, 13], 'UpsampleLanczos2DAaBackward0',
        5.87987777, [-0.75979107, -0.01633887, 1.16330596, 2.52519062, 3.27326776, 2.7108615, 1.3521628, -0.24850135],
        0.39861136, [3.77046089, -1.04207487, 0.20280816, 0.55412117, -1.45068087, -0.5568768, 1.55232951, -1.47433175]),
    'lanczos scale_factor': ([1, 1, 6, 11], 'UpsampleLanczos2DAaBackward0',
        -0.10011979, [-0.07940984, 0.08493308, 0.29848481, 0.26763038, 0.03210316, -0.21885654, -0.3341055, -0.20463326],
        3.55877819, [1.15153563, -0.53518705, -0.46565757, 0.894891, -0.5456543, -0.10129724, 0.38014644, 1.41475565]),
}


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_gradients(name, dtype):
    shape, kw = CASES[name]
    out_shape, node, total, first, gtotal, gfirst = EXPECTED[name]
    x = T(*shape, dtype=dtype).requires_grad_()
    y = F.interpolate(x, antialias=True, **kw)
    assert list(y.shape) == out_shape and y.dtype == dtype and type(y.grad_fn).__name__ == node
    atol = 1e-7 if dtype == torch.float64 else 2e-5
    assert math.isclose(y.double().sum().item(), total, abs_tol=atol * 10)
    assert close(y.flatten()[:8], first, atol)
    g, = torch.autograd.grad(y, x, T(*y.shape, k=1, dtype=dtype))
    assert math.isclose(g.double().sum().item(), gtotal, abs_tol=atol * 10)
    assert close(g.flatten()[:8], gfirst, atol)


def test_float32_is_float64_rounded():
    for mode in ("bilinear", "bicubic", "lanczos"):
        x = T(2, 3, 17, 23)
        ref = F.interpolate(x, size=(5, 9), mode=mode, antialias=True)
        got = F.interpolate(x.float(), size=(5, 9), mode=mode, antialias=True)
        assert torch.allclose(got.double(), ref, atol=3e-6, rtol=1e-6)


def test_upsampling_bilinear_is_plain_bilinear_without_align_corners():
    """Upsampling, the triangle filter is not widened: plain bilinear interpolation (the edges
    clamped). With align_corners the scale is (in - 1) / (out - 1) but the output pixels are
    still centred on scale * (i + 0.5), not on the plain mode's scale * i."""
    x = T(1, 2, 4, 5)
    aa = F.interpolate(x, size=(9, 13), mode="bilinear", antialias=True)
    assert torch.allclose(aa, F.interpolate(x, size=(9, 13), mode="bilinear"))
    aa = F.interpolate(x, size=(9, 13), mode="bilinear", antialias=True, align_corners=True)
    assert not torch.allclose(aa, F.interpolate(x, size=(9, 13), mode="bilinear", align_corners=True))
    assert close(aa[0, 0, 0, :4], [0.0, 0.0, 0.974, 1.948], 1e-3)
    # columns: scale = 4 / 12, the first two centred on 1 / 6 and 1 / 2 take the first input pixel


@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "lanczos"])
@pytest.mark.parametrize("kw", [dict(size=(3, 8)), dict(scale_factor=(0.5, 1.5)), dict(size=(6, 2))])
def test_gradcheck_and_gradgradcheck(mode, kw):
    x = T(1, 2, 6, 5).requires_grad_()
    f = lambda x: F.interpolate(x, mode=mode, antialias=True, **kw)  # noqa: E731
    assert torch.autograd.gradcheck(f, (x,))
    assert torch.autograd.gradgradcheck(f, (x,))


def test_an_axis_that_keeps_its_size_is_copied_but_its_weights_backpropagate():
    """PyTorch's forward copies an axis whose size does not change, while its backward applies
    that axis's weights, which are not the identity when a scale_factor (1.1 here) set the size."""
    x = T(1, 1, 4, 6).requires_grad_()
    y = F.interpolate(x, scale_factor=(1.5, 1.1), mode="bilinear", antialias=True)
    assert y.shape == (1, 1, 6, 6)
    assert torch.equal(y, F.interpolate(x, size=(6, 6), mode="bilinear", antialias=True))
    g, = torch.autograd.grad(y, x, T(*y.shape, k=1))
    assert close(g, GRAD_1_5_BY_1_1, 1e-7)
    y = F.interpolate(x, scale_factor=(1.1, 1.1), mode="bicubic", antialias=True)
    assert torch.equal(y, x) and y.data_ptr() != x.data_ptr()
    assert type(y.grad_fn).__name__ == "UpsampleBicubic2DAaBackward0"
    g, = torch.autograd.grad(y, x, T(*y.shape, k=1))
    assert close(g, GRAD_1_1_BY_1_1, 1e-7)
    same = F.interpolate(x, size=(4, 6), mode="bilinear", antialias=True)
    assert torch.equal(torch.autograd.grad(same, x, T(4, 6, k=1).reshape(1, 1, 4, 6))[0], T(1, 1, 4, 6, k=1))


def test_higher_orders_apply_the_forward_again():
    """The gradient taken with create_graph is PyTorch's UpsampleBilinear2DAaBackwardBackward0
    node; its derivative with respect to the output gradient, and the forward-mode derivative,
    are the forward again (an axis that keeps its size copied, as in the forward)."""
    import leafgrad.autograd.forward_ad as fwAD

    x = T(1, 1, 4, 6).requires_grad_()
    y = F.interpolate(x, scale_factor=(1.5, 1.1), mode="bilinear", antialias=True)
    u = T(*y.shape, k=1).requires_grad_()
    g, = torch.autograd.grad(y, x, u, create_graph=True)
    assert type(g.grad_fn).__name__ == "UpsampleBilinear2DAaBackwardBackward0"
    assert [type(n).__name__ for n, _ in g.grad_fn.next_functions] == ["AccumulateGrad"]
    v = T(*x.shape, k=2).requires_grad_()
    gg, = torch.autograd.grad(g, u, v, create_graph=True)
    assert type(gg.grad_fn).__name__ == "UpsampleBilinear2DAaBackward0"
    assert torch.equal(gg, F.interpolate(v, size=(6, 6), mode="bilinear", antialias=True))
    assert close(gg.flatten()[:8], [2.727892, -0.675174, -2.926576, -0.489069, 2.526646, 1.390421, 0.517842,
                                    -1.229738], 1e-6)
    with fwAD.dual_level():
        dual = fwAD.make_dual(T(1, 2, 4, 6), T(1, 2, 4, 6, k=3))
        tangent = fwAD.unpack_dual(F.interpolate(dual, scale_factor=(1.5, 1.1), mode="bilinear",
                                                 antialias=True)).tangent
    assert close(tangent.flatten()[:6], [0.42336, -2.808787, -1.513223, 2.088231, 2.199542, -1.055058], 1e-6)


GRAD_1_5_BY_1_1 = [
    2.91397334, 0.44247558, -2.34678599, -0.9435209, 1.83866862, 1.18500242, -0.64039213, -1.16791392, -0.07349707,
    0.9908117, 0.62239579, -0.00060009, -1.4873352, 0.08133947, 1.52972377, 0.4745878, -1.47150069, -0.93706524,
    2.30945981, 1.79849663, -1.45014248, -1.88275476, 0.78345191, 1.01941183]
GRAD_1_1_BY_1_1 = [
    2.92716719, 1.50158969, -2.52529511, -1.77774573, 1.98890947, 1.30944329, 0.11287083, -2.02624496, -0.51100933,
    1.41866121, 0.60000037, -0.19286382, -0.90737103, -0.26716358, 0.30556812, 0.56658133, 0.30843963, -0.05380376,
    -0.51147417, -1.00231027, 0.64145419, 1.46413636, -0.70015316, -0.90946646]


def test_layouts_and_empty_batches():
    x = T(2, 3, 5, 6, dtype=torch.float32)
    cl = x.contiguous(memory_format=torch.channels_last)
    for size in ((3, 4), (5, 6)):
        y = F.interpolate(cl, size=size, mode="bilinear", antialias=True)
        assert y.is_contiguous(memory_format=torch.channels_last) and not y.is_contiguous()
        assert torch.equal(y, F.interpolate(x, size=size, mode="bilinear", antialias=True))
    y = F.interpolate(x, size=(3, 4), mode="bicubic", antialias=True)
    assert y.is_contiguous()
    e = torch.zeros(0, 3, 5, 6, requires_grad=True)
    y = F.interpolate(e, size=(3, 3), mode="bilinear", antialias=True)
    assert y.shape == (0, 3, 3, 3) and type(y.grad_fn).__name__ == "UpsampleBilinear2DAaBackward0"


def test_docstring_example():
    y = F.interpolate(torch.tensor([[[[1., 2., 4., 8.]]]]), size=(1, 2), mode="bilinear", antialias=True)
    assert close(y, [13 / 7, 38 / 7], 1e-6)  # (1*3 + 2*3 + 4*1) / 7 and (2*1 + 4*3 + 8*3) / 7


x0 = T(2, 3, 5, 6, dtype=torch.float32)
ERRORS = [
    (lambda: F.interpolate(x0, size=(0, 3), mode="bilinear", antialias=True), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (H: 5, W: 6) output (H: 0, W: 3)"),
    (lambda: F.interpolate(x0, scale_factor=0.1, mode="bicubic", antialias=True), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (H: 5, W: 6) output (H: 0, W: 0)"),
    (lambda: F.interpolate(torch.zeros(2, 0, 5, 6), size=(3, 3), mode="bilinear", antialias=True), RuntimeError,
     "Non-empty 4D data tensor expected but got a tensor with sizes [2, 0, 5, 6]"),
    (lambda: F.interpolate(x0, size=(3, 4), mode="lanczos", antialias=True, align_corners=True), ValueError,
     "Lanczos mode does not support align_corners=True"),
    (lambda: F.interpolate(x0, size=(3, 4), mode="lanczos"), ValueError, "Lanczos mode requires antialias=True"),
    (lambda: F.interpolate(x0[0], size=3, mode="bilinear", antialias=True), ValueError,
     "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input"),
    (lambda: F.interpolate(x0, size=(3, 4), mode="nearest", antialias=True), ValueError,
     "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input"),
    (lambda: F.interpolate(x0[None], size=(3, 4, 4), mode="trilinear", antialias=True), ValueError,
     "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input"),
    (lambda: F.interpolate(x0.half(), size=(3, 4), mode="bicubic", antialias=True), NotImplementedError,
     "\"compute_index_ranges_weights\" not implemented for 'Half'"),
    (lambda: F.interpolate(x0.bfloat16(), size=(3, 4), mode="lanczos", antialias=True), NotImplementedError,
     "\"compute_index_ranges_weights\" not implemented for 'BFloat16'"),
    (lambda: F.interpolate(x0.long(), size=(3, 4), mode="bilinear", antialias=True), NotImplementedError,
     "\"compute_index_ranges_weights\" not implemented for 'Long'"),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors(i):
    f, exc, message = ERRORS[i]
    raises_exactly(f, message, exc)


def test_upsample_module_takes_no_antialias():
    with pytest.raises(TypeError, match="unexpected keyword argument 'antialias'"):
        nn.Upsample(size=2, mode="bilinear", antialias=True)
