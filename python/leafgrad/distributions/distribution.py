"""`Distribution`: the base class of leafgrad's distributions (PyTorch's API: batch and event
shapes, `sample`/`rsample`, `log_prob`, argument validation)."""
import warnings

import leafgrad as torch

from . import constraints
from .utils import lazy_property

__all__ = ["Distribution"]


def _all_true(valid):
    return bool(valid.all())


class Distribution:
    """A probability distribution: `batch_shape` (independent parameter sets), `event_shape`
    (the shape of one draw), and `validate_args` (check parameters and values against
    `arg_constraints`/`support`; on unless `set_default_validate_args(False)` or `python -O`).
    """

    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value):
        """Turns argument validation on or off for distributions made after this."""
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=torch.Size(), event_shape=torch.Size(), validate_args=None):
        self._batch_shape = batch_shape
        self._event_shape = event_shape
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            self._check_parameters()
        super().__init__()

    def _check_parameters(self):
        try:
            arg_constraints = self.arg_constraints
        except NotImplementedError:
            arg_constraints = {}
            warnings.warn(
                f"{self.__class__} does not define `arg_constraints`. "
                + "Please set `arg_constraints = {}` or initialize the distribution "
                + "with `validate_args=False` to turn off validation.",
                stacklevel=3,
            )
        for name, constraint in arg_constraints.items():
            if constraints.is_dependent(constraint):
                continue
            # a parameter derived lazily from another one (probs from logits) is not checked
            if name not in self.__dict__ and isinstance(getattr(type(self), name), lazy_property):
                continue
            value = getattr(self, name)
            if not _all_true(constraint.check(value)):
                raise ValueError(
                    f"Expected parameter {name} "
                    f"({type(value).__name__} of shape {tuple(value.shape)}) "
                    f"of distribution {self!r} "
                    f"to satisfy the constraint {constraint!r}, "
                    f"but found invalid values:\n{value}"
                )

    def expand(self, batch_shape, _instance=None):
        """A distribution with the parameters expanded (as views) to `batch_shape`."""
        raise NotImplementedError

    @property
    def batch_shape(self):
        """The shape over which the parameters are batched."""
        return self._batch_shape

    @property
    def event_shape(self):
        """The shape of a single sample."""
        return self._event_shape

    @property
    def arg_constraints(self):
        """The constraint of each parameter, by name."""
        raise NotImplementedError

    @property
    def support(self):
        """The constraint that the values lie in."""
        raise NotImplementedError

    @property
    def mean(self):
        raise NotImplementedError

    @property
    def mode(self):
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self):
        raise NotImplementedError

    @property
    def stddev(self):
        return self.variance.sqrt()

    def sample(self, sample_shape=torch.Size()):
        """A draw of shape `sample_shape + batch_shape + event_shape`, without gradients."""
        with torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=torch.Size()):
        """A reparameterised draw: gradients flow back to the parameters."""
        raise NotImplementedError

    def sample_n(self, n):
        """Deprecated: `sample((n,))`."""
        warnings.warn("`sample_n(n)` will be deprecated. Use `sample((n,))` instead.",
                      FutureWarning, stacklevel=2)
        return self.sample(torch.Size((n,)))

    def log_prob(self, value):
        """The log density (or mass) at `value`."""
        raise NotImplementedError

    def cdf(self, value):
        raise NotImplementedError

    def icdf(self, value):
        raise NotImplementedError

    def enumerate_support(self, expand=True):
        """All values of a discrete distribution along dimension 0."""
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def perplexity(self):
        return torch.exp(self.entropy())

    def _extended_shape(self, sample_shape=torch.Size()):
        if not isinstance(sample_shape, torch.Size):
            sample_shape = torch.Size(sample_shape)
        return torch.Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def _validate_sample(self, value):
        if not isinstance(value, torch.Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        shape = value.size()
        ev = self._event_shape
        if shape[len(shape) - len(ev):] != ev:
            raise ValueError(
                f"The right-most size of value must match event_shape: {shape} vs {ev}.")
        expected = torch.Size(tuple(self._batch_shape) + tuple(ev))
        for a, b in zip(reversed(shape), reversed(expected)):
            if a != 1 and b != 1 and a != b:
                raise ValueError(
                    "Value is not broadcastable with batch_shape+event_shape: "
                    f"{shape} vs {expected}.")
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(
                f"{self.__class__} does not define `support` to enable "
                + "sample validation. Please initialize the distribution with "
                + "`validate_args=False` to turn off validation.",
                stacklevel=3,
            )
            return
        if support is None:
            raise AssertionError("support is unexpectedly None")
        if not _all_true(support.check(value)):
            raise ValueError(
                "Expected value argument "
                f"({type(value).__name__} of shape {tuple(value.shape)}) "
                f"to be within the support ({support!r}) "
                f"of the distribution {self!r}, "
                f"but found invalid values:\n{value}"
            )

    def _get_checked_instance(self, cls, _instance=None):
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom "
                "__init__ method must also define a custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    def __repr__(self):
        parts = []
        for name in self.arg_constraints:
            if name in self.__dict__:
                v = self.__dict__[name]
                parts.append(f"{name}: {v if v.numel() == 1 else v.size()}")
        return f"{self.__class__.__name__}({', '.join(parts)})"
