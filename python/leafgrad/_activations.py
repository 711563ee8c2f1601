"""`torch.selu`, `torch.celu`, `torch.prelu`, `torch.hardshrink` (and the in-place forms):
the activations PyTorch also has as `torch.*` functions, the same ops as their
`torch.nn.functional` forms."""
from . import _core

__all__ = ["selu", "selu_", "celu", "celu_", "prelu", "hardshrink"]


def selu(input):
    """scale * elu(x, alpha) with SELU's constants (EluBackward0).

    >>> torch.selu(torch.tensor([-1., 2.]))
    tensor([-1.1113,  2.1014])
    """
    from . import _composites

    return _composites.selu(input)


def selu_(input):
    """`selu` in place (EluBackward1).

    >>> x = torch.tensor([-1., 2.])
    >>> torch.selu_(x) is x
    True
    """
    from . import _composites

    return _composites.selu(input, True)


def celu(input, alpha=1.0):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) (CeluBackward0).

    >>> torch.celu(torch.tensor([-1., 2.]))
    tensor([-0.6321,  2.0000])
    """
    from . import _composites

    return _composites.celu(input, alpha)


def celu_(input, alpha=1.0):
    """`celu` in place (CeluBackward1).

    >>> x = torch.tensor([-1., 2.])
    >>> torch.celu_(x) is x
    True
    """
    from . import _composites

    return _composites.celu(input, alpha, True)


def prelu(input, weight):
    """x where x > 0, weight * x elsewhere (see `torch.nn.functional.prelu`).

    >>> torch.prelu(torch.tensor([-2., 3.]), torch.tensor([0.1]))
    tensor([-0.2000,  3.0000])
    """
    from .nn.functional import prelu as _p

    return _p(input, weight)


def hardshrink(input, lambd=0.5):
    """0 where -lambd <= x <= lambd, x elsewhere (HardshrinkBackward0).

    >>> torch.hardshrink(torch.tensor([-1., 0.3]))
    tensor([-1.,  0.])
    """
    return _core._hardshrink(input, float(lambd))
