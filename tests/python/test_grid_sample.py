"""`F.affine_grid` and `F.grid_sample` (and ATen's `affine_grid_generator`/`grid_sampler`):
PyTorch 2.15's float32 bytes for the 2-D bilinear and nearest kernels and the 3-D ones in every
padding mode (hashes, the same with AVX-512 and AVX2), bicubic and the gradients to float
rounding, nodes, errors and warnings; gradients by gradcheck in float64. LEAFGRAD_TEST_TORCH=1
runs it against PyTorch; `python test_grid_sample.py` prints the table."""
import warnings

import pytest
import support  # noqa: F401  (with LEAFGRAD_TEST_TORCH=1, `leafgrad` below is PyTorch)
from support import digest, print_recorded
from support import spread as data

import leafgrad as torch

F = torch.nn.functional

# name: sha256 of PyTorch 2.15's result bytes
RECORDED = {
    '2-d bilinear zeros align_corners=False': '6afcd3ebb2140226',
    '2-d bilinear zeros align_corners=True': 'fdf5284b32cc1ffe',
    '2-d bilinear border align_corners=False': '54491e792adb94cd',
    '2-d bilinear border align_corners=True': '6a00685a3c684601',
    '2-d bilinear reflection align_corners=False': '8bb5608834a29b00',
    '2-d bilinear reflection align_corners=True': '6697b0cbc449a17d',
    '2-d nearest zeros align_corners=False': '1aad7a43bc7eac90',
    '2-d nearest zeros align_corners=True': 'edc7cd5ffbb31e45',
    '2-d nearest border align_corners=False': 'cb1d743eda0d6087',
    '2-d nearest border align_corners=True': 'd21976856b340405',
    '2-d nearest reflection align_corners=False': '92c33c0061d94618',
    '2-d nearest reflection align_corners=True': '6536e8b4be8c73fa',
    '3-d bilinear zeros align_corners=False': '429c4c71efac1a10',
    '3-d bilinear zeros align_corners=True': '03084cf9e9f02fb8',
    '3-d bilinear border align_corners=False': '82be2a7fe51e3147',
    '3-d bilinear border align_corners=True': '89fa7ccd6418577c',
    '3-d bilinear reflection align_corners=False': 'd42e6a11a6ba6fdc',
    '3-d bilinear reflection align_corners=True': '57743524a6b04237',
    '3-d nearest zeros align_corners=False': 'cf4c58552e8ab3fd',
    '3-d nearest zeros align_corners=True': 'cfa588bee8f430a7',
    '3-d nearest border align_corners=False': 'd947938e70d2ec6a',
    '3-d nearest border align_corners=True': '1c449ebb7aadc1c8',
    '3-d nearest reflection align_corners=False': '7ff4d1a54b7b30dc',
    '3-d nearest reflection align_corners=True': 'ab2ec3cbdd8f4562',
    'affine_grid 4x7 (a plain bmm)': '4e9f124d5d546cb1',
    'affine_grid 28x28 (a BLAS bmm)': '18ac7ab82b89a41c',
    'affine_grid 3-d 5x6x7': '030b8ecc2a3d34e0',
}



def cases():
    x = data(2 * 3 * 5 * 6, 2.0).reshape(2, 3, 5, 6)
    g = data(2 * 4 * 7 * 2, 1.7).flip(0).reshape(2, 4, 7, 2)
    for mode in ("bilinear", "nearest"):
        for pad in ("zeros", "border", "reflection"):
            for ac in (False, True):
                yield f"2-d {mode} {pad} align_corners={ac}", F.grid_sample(x, g, mode, pad, ac)
    x3 = data(2 * 2 * 3 * 4 * 5, 2.0).reshape(2, 2, 3, 4, 5)
    g3 = data(2 * 2 * 3 * 4 * 3, 1.6).flip(0).reshape(2, 2, 3, 4, 3)
    for mode in ("bilinear", "nearest"):
        for pad in ("zeros", "border", "reflection"):
            for ac in (False, True):
                yield f"3-d {mode} {pad} align_corners={ac}", F.grid_sample(x3, g3, mode, pad, ac)
    theta = data(2 * 2 * 3, 0.8).reshape(2, 2, 3)
    yield "affine_grid 4x7 (a plain bmm)", F.affine_grid(theta, (2, 1, 4, 7), align_corners=False)
    yield "affine_grid 28x28 (a BLAS bmm)", F.affine_grid(theta, (2, 1, 28, 28), align_corners=True)
    theta3 = data(3 * 4, 0.8).reshape(1, 3, 4)
    yield "affine_grid 3-d 5x6x7", F.affine_grid(theta3, (1, 1, 5, 6, 7), align_corners=False)


@pytest.mark.parametrize("name,value", list(cases()), ids=lambda v: v if isinstance(v, str) else "")
def test_pytorchs_bytes(name, value):
    assert digest(value) == RECORDED[name]


def test_small_values():
    img = torch.arange(6.0).reshape(1, 1, 2, 3)
    grid = torch.tensor([[[[0.0, 0.0], [1.0, 1.0], [-1.2, 0.3], [0.5, -0.25]]]])
    # values from PyTorch 2.15
    for kw, expected in [
        (dict(align_corners=True), [2.5, 5.0, 1.559999704360962, 2.625]),
        (dict(align_corners=False), [2.5, 1.25, 0.4799998104572296, 2.5]),
        (dict(padding_mode="border", align_corners=True), [2.5, 5.0, 1.9499999284744263, 2.625]),
        (dict(mode="nearest", align_corners=True), [1.0, 5.0, 3.0, 2.0]),
        (dict(mode="bicubic", align_corners=True), [2.96875, 5.0, 1.8107585906982422, 3.4930572509765625]),
    ]:
        assert F.grid_sample(img, grid, **kw).flatten().tolist() == pytest.approx(expected, rel=1e-6), kw
    ident = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
    g = F.affine_grid(ident, (1, 1, 2, 3), align_corners=False)
    assert g.flatten().tolist() == pytest.approx([-2 / 3, -0.5, 0.0, -0.5, 2 / 3, -0.5, -2 / 3, 0.5, 0.0, 0.5, 2 / 3, 0.5])
    # the identity grid samples the image itself
    assert torch.equal(F.grid_sample(img, g, align_corners=False), img)


def test_nodes_and_gradients():
    theta = torch.tensor([[[0.9, 0.1, 0.05], [-0.2, 1.1, 0.1]]], requires_grad=True)
    g = F.affine_grid(theta, (1, 2, 3, 4), align_corners=False)
    assert g.grad_fn.name() == "AffineGridGeneratorBackward0"
    x = data(24, 2.0).reshape(1, 2, 3, 4).requires_grad_()
    y = F.grid_sample(x, g, align_corners=False)
    assert y.grad_fn.name() == "GridSampler2DBackward0"
    y3 = F.grid_sample(x.reshape(1, 2, 1, 3, 4), torch.zeros(1, 1, 1, 1, 3), align_corners=False)
    assert y3.grad_fn.name() == "GridSampler3DBackward0"
    gx, gt = torch.autograd.grad(y.sum(), (x, theta))
    assert gx.shape == x.shape and gt.shape == theta.shape
    # nearest: the grid's gradient is zeros (not None)
    gg = g.detach().requires_grad_()
    z = torch.autograd.grad(F.grid_sample(x, gg, mode="nearest", align_corners=False).sum(), gg)[0]
    assert torch.equal(z, torch.zeros_like(gg))


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("pad", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("ac", [False, True])
def test_gradcheck(mode, pad, ac):
    x = data(1 * 2 * 4 * 5, 1.0, dtype=torch.float64).reshape(1, 2, 4, 5).requires_grad_()
    # points off the pixel lattice and off the borders, where the sample is differentiable
    g = (data(1 * 3 * 3 * 2, 1.13, dtype=torch.float64) + 0.0137).reshape(1, 3, 3, 2).requires_grad_()
    assert torch.autograd.gradcheck(lambda a, b: F.grid_sample(a, b, mode, pad, ac), (x, g))


def test_gradcheck_3d_and_affine_grid():
    x = data(1 * 1 * 3 * 3 * 4, 1.0, dtype=torch.float64).reshape(1, 1, 3, 3, 4).requires_grad_()
    g = (data(1 * 2 * 2 * 2 * 3, 1.1, dtype=torch.float64) + 0.0137).reshape(1, 2, 2, 2, 3).requires_grad_()
    assert torch.autograd.gradcheck(lambda a, b: F.grid_sample(a, b, "bilinear", "zeros", False), (x, g))
    theta = data(6, 0.7, dtype=torch.float64).reshape(1, 2, 3).requires_grad_()
    assert torch.autograd.gradcheck(lambda t: F.affine_grid(t, (1, 1, 3, 4), align_corners=False), (theta,))
    assert torch.autograd.gradgradcheck(lambda t: F.affine_grid(t, (1, 1, 2, 2), align_corners=True), (theta,))


def _raises(fn, exc, text):
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value) == text


def test_errors_and_warnings():
    x, g = torch.zeros(2, 3, 4, 5), torch.zeros(2, 6, 7, 2)
    _raises(lambda: F.grid_sample(x, g, mode="x"), ValueError,
            "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: 'x'")
    _raises(lambda: F.grid_sample(x, g, padding_mode="x"), ValueError,
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', but got: 'x'")
    _raises(lambda: F.grid_sample(x, g[:1], align_corners=False), RuntimeError,
            "grid_sampler(): expected grid and input to have same batch size, but got input with sizes [2, 3, 4, 5] "
            "and grid with sizes [1, 6, 7, 2]")
    _raises(lambda: F.grid_sample(x, g[..., :1], align_corners=False), RuntimeError,
            "grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes [2, 6, 7, 1]")
    _raises(lambda: F.grid_sample(x[:, :, :0], g, align_corners=False), RuntimeError,
            "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes [2, 3, 0, 5] "
            "with dimension 2 being empty")
    _raises(lambda: F.grid_sample(x, g.double(), align_corners=False), RuntimeError,
            "expected scalar type Float but found Double")
    _raises(lambda: F.affine_grid(torch.ones(2, 2, 3).long(), (2, 3, 4, 5), align_corners=False), ValueError,
            "Expected theta to have floating point type, but got torch.int64")
    _raises(lambda: F.affine_grid(torch.ones(2, 3, 3), (2, 3, 4, 5), align_corners=False), ValueError,
            "Expected a batch of 2D affine matrices of shape Nx2x3 for size (2, 3, 4, 5). Got torch.Size([2, 3, 3]).")
    _raises(lambda: F.affine_grid(torch.ones(2, 2, 3), (2, 3, 4), align_corners=False), NotImplementedError,
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. Got size "
            "(2, 3, 4).")
    _raises(lambda: F.affine_grid(torch.ones(2, 2, 3), (2, 3, 0, 5), align_corners=False), ValueError,
            "Expected non-zero, positive output size. Got (2, 3, 0, 5)")
    assert F.grid_sample(x[:0], g[:0], align_corners=False).shape == (0, 3, 6, 7)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        F.grid_sample(x, g)
        F.affine_grid(torch.ones(2, 2, 3), (2, 3, 4, 5))
    assert [str(w.message) for w in caught] == [
        "Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. Please "
        "specify align_corners=True if the old behavior is desired. See the documentation of grid_sample for "
        "details."] * 2


if __name__ == "__main__":
    print_recorded(cases())
