"""`torch.nn.functional`'s affine_grid and grid_sample (spatial transformers), with ATen's
checks and formulas (GridSampler.h, AffineGridGenerator.cpp): the grid is unnormalised from
[-1, 1] to pixel coordinates, folded by the padding mode (border clips, reflection reflects and
clips), and each output point mixes its neighbouring input pixels (bilinear, nearest, or bicubic
with A = -0.75). Each is one node, PyTorch's (AffineGridGeneratorBackward0,
GridSampler2DBackward0, GridSampler3DBackward0), composed of leafgrad ops inside it: the
gradients with respect to the input and to the grid are those of the same formulas."""
import warnings

from .. import _core
from .._core import Tensor
from .._gather import _scalar_name
from .._factories import empty as _empty, full_like as _full_like, linspace as _linspace, zeros as _zeros
from .._factories import zeros_like as _zeros_like

__all__ = ["affine_grid", "grid_sample"]

_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                  "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                  "grid_sample for details.")
_INT_MAX = 2147483647.0


def _sizes(t):
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


def _linspace_from_neg_one(theta, steps, align_corners):
    if steps <= 1:
        return _zeros([], dtype=theta.dtype, device=theta.device)
    r = _linspace(-1, 1, steps, dtype=theta.dtype, device=theta.device)
    return r if align_corners else r * (steps - 1) / steps


def _affine_grid(theta, size, align_corners):
    n = size[0]
    spatial = list(size[2:])  # (H, W) or (D, H, W)
    k = len(spatial)
    base = _empty([n, *spatial, k + 1], dtype=theta.dtype, device=theta.device)
    # coordinate i of the grid is x, y, z: x runs along the last spatial dim
    for i in range(k):
        lin = _linspace_from_neg_one(theta, spatial[k - 1 - i], align_corners)
        shape = [1] * k
        if lin.dim() == 1:
            shape[k - 1 - i] = lin.shape[0]
        base.select(-1, i).copy_(lin.reshape(shape))
    base.select(-1, k).fill_(1)
    points = 1
    for s in spatial:
        points *= s
    # ATen's bmm of (points × k+1) by (k+1 × k): a plain loop below 400 multiply-adds, else
    # BLAS, whose float32 kernel fuses each multiply-add
    b = base.view(n, points, k + 1).unsqueeze(-1)
    t = theta.transpose(1, 2).unsqueeze(1)
    fused = (k + 1) * points * k >= 400
    out = b[:, :, 0] * t[:, :, 0]
    for j in range(1, k + 1):
        out = _fma(b[:, :, j], t[:, :, j], out) if fused else out + b[:, :, j] * t[:, :, j]
    return out.view(n, *spatial, k)


def affine_grid(theta, size, align_corners=None):
    """The sampling grid of the affine maps `theta` (N×2×3 for a 4-D `size` N×C×H×W, N×3×4 for a
    5-D one): each output pixel's normalised coordinates (x, y[, z]) in [-1, 1] mapped by theta,
    for `grid_sample`.

    >>> torch.nn.functional.affine_grid(torch.tensor([[[1., 0, 0], [0, 1, 0]]]), (1, 1, 1, 2),
    ...                                 align_corners=False)
    tensor([[[[-0.5000,  0.0000],
              [ 0.5000,  0.0000]]]])
    """
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    size = tuple(size) if not isinstance(size, tuple) else size
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. "
                             f"Got {theta.shape}.")
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. "
                             f"Got {theta.shape}.")
        spatial = size[-3:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {size}.")
    if align_corners and min(spatial) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the "
                      "documentation of affine_grid for details.", stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    if theta.shape[0] != size[0]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{size[0]}, "
                           f"{theta.shape[-1]}] but got: [{theta.shape[0]}, {theta.shape[-1]}].")
    return _core._composite("AffineGridGeneratorBackward0", lambda t: _affine_grid(t, size, align_corners), [theta])


# ------------------------------------------------------------------------------- grid_sample
# 2-D grids follow ATen's vectorised CPU kernel (GridSamplerKernel.cpp), 3-D ones its scalar
# kernel (GridSampler.h): their formulas differ in the order of operations, so in the last bits.

def _fma(a, b, c):
    """a * b + c rounded once, as the compiler fuses PyTorch's vector code (float32 through
    float64, where the product is exact)."""
    if a.dtype == _core.float32:
        return (a.double() * b.double() + c.double()).float()
    return a * b + c


def _vec_unnormalize(coord, size, align_corners):
    if align_corners:
        return (coord + 1) * ((size - 1) / 2)
    return _fma(coord + 1, _full_like(coord, size / 2), _full_like(coord, -0.5))


def _vec_clip(coord, size):
    # NaN clips to 0 in the vectorised kernel
    return _core.where(coord.isnan(), _zeros_like(coord), coord.clamp(0, size - 1))


def _vec_reflect(coord, size, align_corners):
    if align_corners:
        if size <= 1:
            return _zeros_like(coord)
        twice_span, low = (size - 1) * 2.0, 0.0
    else:
        twice_span, low = size * 2.0, -0.5
    c = (coord - low).abs() if low else coord.abs()
    extra = c - (c / twice_span).trunc() * twice_span
    out = extra.minimum(twice_span - extra)
    return out + low if low else out


def _vec_compute(coord, size, padding_mode, align_corners):
    if padding_mode == 1:
        return _vec_clip(coord, size)
    if padding_mode == 2:
        return _vec_clip(_vec_reflect(coord, size, align_corners), size)
    return coord


def _unnormalize(coord, size, align_corners):
    if align_corners:
        return ((coord + 1) / 2) * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _reflect(coord, twice_low, twice_high):
    if twice_low == twice_high:
        return _zeros_like(coord)
    low = twice_low / 2
    span = (twice_high - twice_low) / 2
    c = (coord - low).abs()
    extra = c.fmod(span)
    even = (c / span).floor().fmod(2) == 0
    return _core.where(even, extra + low, (span - extra) + low)


def _compute(coord, size, padding_mode, align_corners):
    """ATen's scalar compute_coordinates, then safe_downgrade_to_int_range."""
    if padding_mode == 1:
        coord = coord.clamp(0, size - 1)
    elif padding_mode == 2:
        coord = _reflect(coord, 0, 2 * (size - 1)) if align_corners else _reflect(coord, -1, 2 * size - 1)
        coord = coord.clamp(0, size - 1)
    ok = coord.isfinite() & (coord.abs() < _INT_MAX)
    return _core.where(ok, coord, _full_like(coord, -100.0))


def _zero_grad_one(*coords):
    """Ones (N×1×points) that depend on the coordinates with a zero gradient: PyTorch's nearest
    mode gives the grid a gradient of zeros, not none."""
    one = None
    for co in coords:
        z = _core.where(co.isfinite(), co.round() * 0, _zeros_like(co))
        one = 1 + z if one is None else one + z
    return one.unsqueeze(1)


def _taps(flat, sizes, idx):
    """The input's pixels at integer-valued coordinates `idx` (one N×points tensor per spatial
    dim), N×C×points, zero where a coordinate is out of range."""
    n, c = flat.shape[0], flat.shape[1]
    inside, linear = None, None
    for i, size in zip(idx, sizes):
        ok = (i >= 0) & (i < size)
        inside = ok if inside is None else inside & ok
    for i, size in zip(idx, sizes):
        ic = i.clamp(0, size - 1).to(_core.int64)
        linear = ic if linear is None else linear * size + ic
    linear = linear.masked_fill(~inside, 0)
    vals = flat.gather(2, linear.unsqueeze(1).expand(n, c, linear.shape[1]))
    return vals.masked_fill(~inside.unsqueeze(1), 0)


def _cubic_coefficients(t):
    """The cubic convolution weights (A = -0.75) of the taps at -1, 0, 1, 2 from the fraction t
    (PyTorch's compiled kernel fuses some of these multiply-adds: its last bits can differ)."""
    a = -0.75
    near = [((a + 2) * x - (a + 3)) * x * x + 1 for x in (t, 1 - t)]
    far = [((a * x - 5 * a) * x + 8 * a) * x - 4 * a for x in (t + 1, 2 - t)]
    return [far[0], near[0], near[1], far[1]]


def _sample_2d(flat, sizes, gx, gy, mode, padding_mode, align_corners):
    h, w = sizes
    if mode == 2:
        x, y = _vec_unnormalize(gx, w, align_corners), _vec_unnormalize(gy, h, align_corners)
        x0, y0 = x.floor(), y.floor()
        cx, cy = _cubic_coefficients(x - x0), _cubic_coefficients(y - y0)
        out = None
        for j in range(4):
            yy = _vec_compute(y0 + (j - 1), h, padding_mode, align_corners)
            row = None
            for i in range(4):
                xx = _vec_compute(x0 + (i - 1), w, padding_mode, align_corners)
                term = cx[i].unsqueeze(1) * _taps(flat, sizes, [yy.trunc(), xx.trunc()])
                row = term if row is None else row + term
            term = cy[j].unsqueeze(1) * row
            out = term if out is None else out + term
        return out
    x = _vec_compute(_vec_unnormalize(gx, w, align_corners), w, padding_mode, align_corners)
    y = _vec_compute(_vec_unnormalize(gy, h, align_corners), h, padding_mode, align_corners)
    if mode == 1:
        return _taps(flat, sizes, [y.round(), x.round()]) * _zero_grad_one(x, y)
    x0, y0 = x.floor(), y.floor()
    we = x - x0
    ea = 1 - we
    no = y - y0
    so = 1 - no
    corners = [(y0, x0, so * ea), (y0, x0 + 1, so * we), (y0 + 1, x0, no * ea), (y0 + 1, x0 + 1, no * we)]
    out = None
    for yy, xx, weight in corners:
        v = _taps(flat, sizes, [yy, xx])
        out = v * weight.unsqueeze(1) if out is None else _fma(v, weight.unsqueeze(1), out)
    return out


def _sample_3d(flat, sizes, coords, mode, padding_mode, align_corners):
    """coords: (z, y, x) as the input's spatial dims."""
    pos = [_compute(_unnormalize(co, s, align_corners), s, padding_mode, align_corners)
           for co, s in zip(coords, sizes)]
    if mode == 1:
        return _taps(flat, sizes, [p.round() for p in pos]) * _zero_grad_one(*pos)
    low = [p.floor() for p in pos]
    out = _zeros_like(flat[:, :, :1]).expand(flat.shape[0], flat.shape[1], pos[0].shape[1])
    for corner in range(8):
        idx, weight = [], None
        ups = [(corner >> (2 - d)) & 1 for d in range(3)]  # z, y, x
        for d in (2, 1, 0):  # the weight is a product x · y · z
            wd = (pos[d] - low[d]) if ups[d] else ((low[d] + 1) - pos[d])
            weight = wd if weight is None else weight * wd
        idx = [low[d] + ups[d] for d in range(3)]
        out = out + _taps(flat, sizes, idx) * weight.unsqueeze(1)
    return out


def _grid_sample(input, grid, mode, padding_mode, align_corners):
    n, c = input.shape[0], input.shape[1]
    sizes = list(input.shape[2:])  # (H, W) or (D, H, W)
    k = len(sizes)
    out_spatial = list(grid.shape[1:-1])
    pixels, points = 1, 1
    for d in sizes:
        pixels *= d
    for d in out_spatial:
        points *= d
    flat = input.reshape(n, c, pixels)
    g = grid.reshape(n, points, k)
    if k == 2:
        out = _sample_2d(flat, sizes, g.select(-1, 0), g.select(-1, 1), mode, padding_mode, align_corners)
    else:
        coords = [g.select(-1, 2), g.select(-1, 1), g.select(-1, 0)]
        out = _sample_3d(flat, sizes, coords, mode, padding_mode, align_corners)
    return out.reshape(n, c, *out_spatial)


_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Samples `input` (N×C×H×W, or N×C×D×H×W) at the normalised coordinates of `grid`
    (N×H'×W'×2 as (x, y), or N×D'×H'×W'×3): `mode` 'bilinear', 'nearest' or 'bicubic' (4-D
    only), outside points by `padding_mode` 'zeros', 'border' or 'reflection'.

    >>> img = torch.arange(4.).reshape(1, 1, 2, 2)
    >>> torch.nn.functional.grid_sample(img, torch.tensor([[[[0., 0.]]]]), align_corners=True)
    tensor([[[[1.5000]]]])
    """
    if mode not in _MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         f"but got: '{mode}'")
    if padding_mode not in _PADDINGS:
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    return grid_sampler(input, grid, _MODES[mode], _PADDINGS[padding_mode], align_corners)


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """ATen's `grid_sampler` (`torch.grid_sampler`): `grid_sample` with the modes as ints
    (interpolation 0 bilinear, 1 nearest, 2 bicubic; padding 0 zeros, 1 border, 2 reflection)."""
    for name, t, pos in (("input", input, 1), ("grid", grid, 2)):
        if not isinstance(t, Tensor):
            raise TypeError(f"grid_sampler(): argument '{name}' (position {pos}) must be Tensor, not "
                            f"{type(t).__name__}")
    if input.device != grid.device:
        raise RuntimeError("grid_sampler(): expected input and grid to be on same device, but input is on "
                           f"{input.device} and grid is on {grid.device}")
    if input.dim() not in (4, 5) or grid.dim() != input.dim():
        raise RuntimeError(f"grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, "
                           f"but got input with sizes {_sizes(input)} and grid with sizes {_sizes(grid)}")
    if input.dim() == 4 and grid.dim() != 4:
        raise RuntimeError(f"grid_sampler(): expected 4D input and grid with same number of dimensions, but got "
                           f"input with sizes {_sizes(input)} and grid with sizes {_sizes(grid)}")
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError("grid_sampler(): expected grid and input to have same batch size, but got input with "
                           f"sizes {_sizes(input)} and grid with sizes {_sizes(grid)}")
    k = input.dim() - 2
    if grid.shape[-1] != k:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {k} in last dimension, but got grid with "
                           f"sizes {_sizes(grid)}")
    for d in range(2, input.dim()):
        if input.shape[d] == 0:
            raise RuntimeError("grid_sampler(): expected input to have non-empty spatial dimensions, but input "
                               f"has sizes {_sizes(input)} with dimension {d} being empty")
    if interpolation_mode == 2 and k == 3:
        raise NotImplementedError("grid_sampler(): bicubic interpolation of 5-D input is not supported by "
                                  "leafgrad (PyTorch documents bicubic for 4-D input only)")
    if not input.is_floating_point():
        name = "grid_sampler_2d_cpu_kernel_impl" if k == 2 else "grid_sampler_3d_cpu"
        raise NotImplementedError(f'"{name}" not implemented for \'{_scalar_name(input.dtype)}\'')
    if grid.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(input.dtype)} but found {_scalar_name(grid.dtype)}")
    node = "GridSampler2DBackward0" if k == 2 else "GridSampler3DBackward0"
    return _core._composite(
        node, lambda x, g: _grid_sample(x, g, interpolation_mode, padding_mode, align_corners), [input, grid])
