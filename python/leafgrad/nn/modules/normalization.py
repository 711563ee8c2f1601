"""Batch and instance normalisation: BatchNorm1d/2d/3d with PyTorch's running statistics
(momentum, the cumulative average of `momentum=None`, `track_running_stats`,
`num_batches_tracked`), InstanceNorm1d/2d/3d (batch norm of each sample's channels), train/eval
behaviour, state_dict keys and reprs."""
import warnings

from ... import _core
from ..._factories import tensor, zeros, ones
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedBuffer
from .layers import _empty
from .lazy import LazyModuleMixin, _uninitialised
from .module import Module

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
           "GroupNorm", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyInstanceNorm1d",
           "LazyInstanceNorm2d", "LazyInstanceNorm3d"]


class _NormBase(Module):
    """What batch (and instance) norms share: the affine parameters and running statistics."""

    _version = 2
    __constants__ = ["track_running_stats", "momentum", "eps", "num_features", "affine"]

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = Parameter(_empty((num_features,), dtype, device))
            if bias:
                self.bias = Parameter(_empty((num_features,), dtype, device))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if self.track_running_stats:
            kw = {"dtype": dtype, "device": device}
            self.register_buffer("running_mean", zeros(num_features, **kw))
            self.register_buffer("running_var", ones(num_features, **kw))
            self.register_buffer("num_batches_tracked", tensor(0, dtype=_core.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input):
        raise NotImplementedError

    def extra_repr(self):
        return ("{num_features}, eps={eps}, momentum={momentum}, affine={affine}, bias={use_bias}, "
                "track_running_stats={track_running_stats}").format(**self.__dict__, use_bias=self.bias is not None)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        version = local_metadata.get("version", None)
        if (version is None or version < 2) and self.track_running_stats:
            # state dicts from before num_batches_tracked existed load with it at 0
            key = prefix + "num_batches_tracked"
            if key not in state_dict:
                state_dict[key] = (self.num_batches_tracked if self.num_batches_tracked is not None
                                   and self.num_batches_tracked.device.type != "meta"
                                   else tensor(0, dtype=_core.int64))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)


class _BatchNorm(_NormBase):
    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            # momentum=None: the cumulative average of every batch so far
            factor = 1.0 / float(self.num_batches_tracked) if self.momentum is None else self.momentum
        # batch statistics in training, and in eval when there are no running ones
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        use_running = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if use_running else None,
                            self.running_var if use_running else None, self.weight, self.bias,
                            bn_training, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L) input over the batch (and length), per channel:
    batch statistics in training (updating the running ones), running statistics in eval.

    >>> bn = torch.nn.BatchNorm1d(2)
    >>> bn
    BatchNorm1d(2, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    >>> bn(torch.tensor([[1., 2.], [3., 6.]]))
    tensor([[-1.0000, -1.0000],
            [ 1.0000,  1.0000]], grad_fn=<NativeBatchNormBackward0>)
    >>> bn.running_mean, bn.num_batches_tracked
    (tensor([0.2000, 0.4000]), tensor(1))
    """

    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W) input, per channel (see BatchNorm1d).

    >>> torch.nn.BatchNorm2d(3, momentum=None, affine=False)
    BatchNorm2d(3, eps=1e-05, momentum=None, affine=False, bias=False, track_running_stats=True)
    """

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of (N, C, D, H, W) input, per channel (see BatchNorm1d).

    >>> torch.nn.BatchNorm3d(4).running_var
    tensor([1., 1., 1., 1.])
    """

    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class _InstanceNorm(_NormBase):
    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False,
                 device=None, dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def _get_no_batch_dim(self):
        raise NotImplementedError

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.dim() - self._get_no_batch_dim()
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match num_features "
                                 f"({self.num_features}), but got: {input.size(feature_dim)}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You can silence this "
                          "warning by not passing in num_features, which is not used because affine=False",
                          stacklevel=2)
        if input.dim() == self._get_no_batch_dim():  # one sample without a batch dim
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)

    def _apply_instance_norm(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)


class InstanceNorm1d(_InstanceNorm):
    """Normalises each channel of each sample of (N, C, L) (or (C, L)) input over its length;
    no affine parameters or running statistics by default.

    >>> torch.nn.InstanceNorm1d(2)(torch.tensor([[[1., 3.], [0., 4.]]]))
    tensor([[[-1.0000,  1.0000],
             [-1.0000,  1.0000]]])
    """

    def _get_no_batch_dim(self):
        return 2

    def _check_input_dim(self, input):
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of (N, C, H, W) (or (C, H, W)) input (see InstanceNorm1d).

    >>> torch.nn.InstanceNorm2d(3, affine=True)
    InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=False)
    """

    def _get_no_batch_dim(self):
        return 3

    def _check_input_dim(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"expected 3D or 4D input (got {input.dim()}D input)")


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of (N, C, D, H, W) (or (C, D, H, W)) input (see InstanceNorm1d).

    >>> torch.nn.InstanceNorm3d(2).affine
    False
    """

    def _get_no_batch_dim(self):
        return 4

    def _check_input_dim(self, input):
        if input.dim() not in (4, 5):
            raise ValueError(f"expected 4D or 5D input (got {input.dim()}D input)")


class GroupNorm(Module):
    """Normalises each of `num_groups` groups of channels of each sample over its channels and
    other dims, then scales and shifts each channel (weight ones, bias zeros at first).

    >>> m = torch.nn.GroupNorm(2, 4)
    >>> m
    GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)
    >>> m(torch.tensor([[1., 2., 3., 4.]]))
    tensor([[-1.0000,  1.0000, -1.0000,  1.0000]], grad_fn=<NativeGroupNormBackward0>)
    """

    __constants__ = ["num_groups", "num_channels", "eps", "affine"]

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if self.affine:
            self.weight = Parameter(_empty((num_channels,), dtype, device))
            if bias:
                self.bias = Parameter(_empty((num_channels,), dtype, device))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


# ---------------------------------------------------------------------------------- lazy forms
class _LazyNormBase(LazyModuleMixin, _NormBase):
    """What the Lazy norms share: num_features from the first input's dim 1, then the affine
    parameters and running statistics materialised and reset as the norm's are."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None, *,
                 bias=True):
        # no parameters or statistics until the first input: uninitialised ones are set below
        super().__init__(0, eps, momentum, False, False, device, dtype, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            _uninitialised(self, bias, device, dtype)
        if self.track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = tensor(0, dtype=_core.int64, device=device)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            if self.affine:
                self.weight.materialize((self.num_features,))
                if self.bias is not None:
                    self.bias.materialize((self.num_features,))
            if self.track_running_stats:
                self.running_mean.materialize((self.num_features,))
                self.running_var.materialize((self.num_features,))
            self._plain_buffers()
            self.reset_parameters()

    def _check_input_dim(self, input):
        return self.cls_to_become._check_input_dim(self, input)

    def _get_no_batch_dim(self):
        return self.cls_to_become._get_no_batch_dim(self)


class LazyBatchNorm1d(_LazyNormBase, _BatchNorm):
    """A BatchNorm1d whose num_features comes from its first input; it then becomes a BatchNorm1d.

    >>> bn = torch.nn.LazyBatchNorm1d()
    >>> bn
    LazyBatchNorm1d(0, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    >>> bn(torch.tensor([[1., 2.], [3., 6.]]))
    tensor([[-1.0000, -1.0000],
            [ 1.0000,  1.0000]], grad_fn=<NativeBatchNormBackward0>)
    >>> bn.running_mean, type(bn).__name__
    (tensor([0.2000, 0.4000]), 'BatchNorm1d')
    """

    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormBase, _BatchNorm):
    """A BatchNorm2d whose num_features comes from its first input; it then becomes a BatchNorm2d.

    >>> bn = torch.nn.LazyBatchNorm2d(momentum=None)
    >>> _ = bn(torch.ones(2, 3, 4, 4))
    >>> bn
    BatchNorm2d(3, eps=1e-05, momentum=None, affine=True, bias=True, track_running_stats=True)
    """

    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNormBase, _BatchNorm):
    """A BatchNorm3d whose num_features comes from its first input; it then becomes a BatchNorm3d.

    >>> bn = torch.nn.LazyBatchNorm3d(affine=False)
    >>> _ = bn(torch.ones(2, 4, 1, 1, 1))
    >>> bn.running_var
    tensor([0.9000, 0.9000, 0.9000, 0.9000])
    """

    cls_to_become = BatchNorm3d


class LazyInstanceNorm1d(_LazyNormBase, _InstanceNorm):
    """An InstanceNorm1d whose num_features comes from its first input (affine and with running
    statistics by default, as PyTorch's); it then becomes an InstanceNorm1d.

    >>> norm = torch.nn.LazyInstanceNorm1d()
    >>> norm(torch.tensor([[[1., 3.], [0., 4.]]]))
    tensor([[[-1.0000,  1.0000],
             [-1.0000,  1.0000]]], grad_fn=<ViewBackward0>)
    >>> norm
    InstanceNorm1d(2, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    """

    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNormBase, _InstanceNorm):
    """An InstanceNorm2d whose num_features comes from its first input; it then becomes an
    InstanceNorm2d.

    >>> norm = torch.nn.LazyInstanceNorm2d(track_running_stats=False)
    >>> norm(torch.tensor([[[[1., 3.]]]])).detach(), norm.weight
    (tensor([[[[-1.0000,  1.0000]]]]), Parameter containing:
    tensor([1.], requires_grad=True))
    """

    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNormBase, _InstanceNorm):
    """An InstanceNorm3d whose num_features comes from its first input; it then becomes an
    InstanceNorm3d.

    >>> norm = torch.nn.LazyInstanceNorm3d()
    >>> _ = norm(torch.ones(2, 5, 1, 2, 2))
    >>> norm.weight.shape, norm.num_batches_tracked
    (torch.Size([5]), tensor(0))
    """

    cls_to_become = InstanceNorm3d
