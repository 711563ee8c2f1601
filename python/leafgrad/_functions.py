"""Module-level functions (`torch.exp(x)`, `torch.add(a, b)`, ...): thin forwards to the
Tensor methods, with numbers accepted where PyTorch accepts them."""
from . import _core
from ._core import Tensor

__all__ = [
    "add", "sub", "mul", "div", "pow", "matmul", "mm", "bmm", "dot", "mv", "exp", "log", "sqrt",
    "sin", "cos", "tanh", "sigmoid", "relu", "abs", "neg", "sum", "mean", "transpose", "permute",
    "reshape", "unsqueeze", "squeeze", "t", "clone", "flatten", "floor", "ceil", "round", "sign",
    "reciprocal", "square", "argmax", "argmin", "max", "min", "conj", "expand_copy",
    "cat", "concat", "concatenate", "stack", "where", "split", "chunk", "unbind", "softmax", "log_softmax",
    "gather", "index_select", "masked_fill", "prod", "amax", "amin", "var", "std", "logsumexp", "norm",
    "clamp", "clip", "maximum", "minimum", "repeat_interleave", "flatten", "numel", "real", "imag",
    "view_as_real", "outer", "dropout", "randperm", "detach", "isnan", "allclose", "equal",
    "logical_not", "eq", "ne", "lt", "le", "gt", "ge", "all", "any", "angle", "cumsum", "diag", "flip",
    "roll", "rsqrt", "complex", "trace", "tril", "triu", "erf", "addmm", "einsum",
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


from ._core import cat, stack, where  # noqa: E402
from ._composites import complex, angle, cumsum, diag, flip, maximum, minimum, roll, rsqrt, trace, tril, triu  # noqa: E402,F401

concat = concatenate = cat

for _n in ["split", "chunk", "unbind", "softmax", "log_softmax", "gather", "index_select", "masked_fill",
           "prod", "amax", "amin", "var", "std", "logsumexp", "norm", "clamp", "clip", "detach", "erf"]:
    globals()[_n] = _unary(_n)
del _n


def real(input):
    return input.real


def imag(input):
    return input.imag


def view_as_real(input):
    return input._view_as_real()


def outer(input, vec2):
    return input.unsqueeze(1) * vec2.unsqueeze(0)


def dropout(input, p=0.5, train=True):
    from .nn.functional import dropout as _d

    return _d(input, p, train)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False):
    return _core._randperm(n, dtype or _core.int64)


def isnan(input):
    return input != input


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    close = (input - other).abs() <= atol + rtol * other.abs()
    if equal_nan:
        close = close | (isnan(input) & isnan(other))
    return bool(close.all())


def equal(input, other):
    return tuple(input.shape) == tuple(other.shape) and bool((input == other).all())


def all(input, dim=None, keepdim=False):
    return input.all() if dim is None else input.all(dim, keepdim)


def any(input, dim=None, keepdim=False):
    return input.any() if dim is None else input.any(dim, keepdim)


def logical_not(input):
    return input.logical_not()


def eq(input, other):
    return input == other


def ne(input, other):
    return input != other


def lt(input, other):
    return input < other


def le(input, other):
    return input <= other


def gt(input, other):
    return input > other


def ge(input, other):
    return input >= other


def repeat_interleave(input, repeats, dim=None):
    if dim is None:
        input, dim = input.reshape(-1), 0
    idx = [i for i in range(input.shape[dim]) for _ in range(repeats)]
    from ._factories import tensor

    return input.index_select(dim, tensor(idx))


def numel(input):
    return input.numel()


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    if beta != 1 or alpha != 1:
        return input * beta + (mat1 @ mat2) * alpha
    return _core._addmm(input, mat1, mat2)


def einsum(equation, *operands):
    """Two-operand contractions of the form 'ij,jk->ik' (what the SPEC table covers)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    lhs, _, out = equation.replace(" ", "").partition("->")
    ins = lhs.split(",")
    if len(ins) != 2 or len(operands) != 2:
        raise RuntimeError("leafgrad's einsum supports two operands only")
    a, b = operands
    (sa, sb) = ins
    shared = [c for c in sa if c in sb and c not in out]
    if not out:
        out = "".join(c for c in sa + sb if (sa + sb).count(c) == 1)
    # Put shared (contracted) letters last on a and first on b, then one matmul.
    a_free = [c for c in sa if c not in shared]
    b_free = [c for c in sb if c not in shared]
    pa = a.permute(*[sa.index(c) for c in a_free + shared])
    pb = b.permute(*[sb.index(c) for c in shared + b_free])
    ka = 1
    for c in shared:
        ka *= a.shape[sa.index(c)]
    ra = pa.reshape(-1, ka)
    rb = pb.reshape(ka, -1)
    res = (ra @ rb).reshape(*[a.shape[sa.index(c)] for c in a_free], *[b.shape[sb.index(c)] for c in b_free])
    order = a_free + b_free
    final = res.permute(*[order.index(c) for c in out])
    return final.reshape(tuple(final.shape))


def expand_copy(input, size):
    return input.expand(size).clone()
