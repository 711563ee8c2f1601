"""Upsample, UpsamplingNearest2d, UpsamplingBilinear2d (`torch.nn.functional.interpolate`) and
PixelShuffle / PixelUnshuffle, with PyTorch's reprs and arguments."""
from .. import functional as F
from .module import Module

__all__ = ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle"]


class Upsample(Module):
    """Resamples the spatial dims of (N, C, *) input to `size`, or by `scale_factor` (a float,
    or one per spatial dim), with `mode` as in torch.nn.functional.interpolate.

    >>> m = torch.nn.Upsample(scale_factor=2, mode='nearest')
    >>> m
    Upsample(scale_factor=2.0, mode='nearest')
    >>> m(torch.tensor([[[1., 2.]]]))
    tensor([[[1., 1., 2., 2.]]])
    >>> torch.nn.Upsample(size=3, mode='linear', align_corners=True)(torch.tensor([[[1., 2.]]]))
    tensor([[[1.0000, 1.5000, 2.0000]]])
    """

    __constants__ = ["size", "scale_factor", "mode", "align_corners", "name", "recompute_scale_factor"]

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def __setstate__(self, state):
        if "recompute_scale_factor" not in state:
            state["recompute_scale_factor"] = True
        super().__setstate__(state)

    def extra_repr(self):
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    """Upsample with mode='nearest' (for (N, C, H, W) input).

    >>> m = torch.nn.UpsamplingNearest2d(scale_factor=2)
    >>> m
    UpsamplingNearest2d(scale_factor=2.0, mode='nearest')
    >>> m(torch.tensor([[[[1., 2.]]]]))
    tensor([[[[1., 1., 2., 2.],
              [1., 1., 2., 2.]]]])
    """

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Upsample with mode='bilinear' and align_corners=True (for (N, C, H, W) input).

    >>> m = torch.nn.UpsamplingBilinear2d(size=(1, 3))
    >>> m
    UpsamplingBilinear2d(size=(1, 3), mode='bilinear')
    >>> m(torch.tensor([[[[1., 2.]]]]))
    tensor([[[[1.0000, 1.5000, 2.0000]]]])
    """

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class PixelShuffle(Module):
    """Rearranges (*, C*r*r, H, W) into (*, C, H*r, W*r), r = upscale_factor.

    >>> m = torch.nn.PixelShuffle(2)
    >>> m
    PixelShuffle(upscale_factor=2)
    >>> m(torch.arange(4.).reshape(1, 4, 1, 1))
    tensor([[[[0., 1.],
              [2., 3.]]]])
    """

    __constants__ = ["upscale_factor"]

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """Rearranges (*, C, H*r, W*r) into (*, C*r*r, H, W), r = downscale_factor (the inverse of
    PixelShuffle).

    >>> m = torch.nn.PixelUnshuffle(2)
    >>> m
    PixelUnshuffle(downscale_factor=2)
    >>> m(torch.arange(4.).reshape(1, 1, 2, 2)).flatten()
    tensor([0., 1., 2., 3.])
    """

    __constants__ = ["downscale_factor"]

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"
