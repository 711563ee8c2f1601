"""Module-level functions (`torch.exp(x)`, `torch.add(a, b)`, ...): thin forwards to the
Tensor methods, with numbers accepted where PyTorch accepts them."""
from . import _core
from ._core import Tensor

__all__ = [
    "add", "sub", "mul", "div", "pow", "matmul", "mm", "bmm", "dot", "mv", "exp", "log", "sqrt",
    "sin", "cos", "tanh", "sigmoid", "relu", "abs", "neg", "sum", "mean", "transpose", "permute",
    "reshape", "unsqueeze", "squeeze", "t", "clone", "flatten", "floor", "ceil", "round", "sign",
    "reciprocal", "square", "argmax", "argmin", "max", "min", "conj", "expand_copy",
]


def _bin(name):
    def f(input, other, *, alpha=None, out=None):
        if out is not None:
            if input.requires_grad or (isinstance(other, Tensor) and other.requires_grad):
                raise RuntimeError(
                    f"{name}(): functions with out=... arguments don't support automatic differentiation, "
                    "but one of the arguments requires grad."
                )
            out.copy_(f(input, other, alpha=alpha))
            return out
        if alpha is not None:
            return getattr(input, name)(other, alpha=alpha)
        return _core._binary(name, input, other)

    f.__name__ = name
    return f


add = _bin("add")
sub = _bin("sub")
mul = _bin("mul")
div = _bin("div")


def pow(input, exponent):
    if isinstance(input, Tensor):
        return input.pow(exponent)
    return exponent.__rpow__(input)


def _unary(name):
    def f(input, *args, **kwargs):
        return getattr(input, name)(*args, **kwargs)

    f.__name__ = name
    return f


for _n in ["matmul", "mm", "bmm", "dot", "mv", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid",
           "relu", "abs", "neg", "sum", "mean", "transpose", "permute", "reshape", "unsqueeze", "squeeze",
           "t", "clone", "flatten", "floor", "ceil", "round", "sign", "reciprocal", "square", "argmax",
           "argmin", "max", "min", "conj"]:
    globals()[_n] = _unary(_n)
del _n


def expand_copy(input, size):
    return input.expand(size).clone()
