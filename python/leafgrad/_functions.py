"""Module-level functions (`torch.exp(x)`, `torch.add(a, b)`, ...): thin forwards to the
Tensor methods, with numbers accepted where PyTorch accepts them."""
import builtins

from ._dtypes import shell_check as _shell_check
from . import _core, _out
from ._core import Tensor
from ._function_docs import DOCS

__all__ = [
    "add", "sub", "mul", "div", "pow", "matmul", "mm", "bmm", "dot", "mv",
    "relu", "abs", "neg", "sum", "mean", "transpose", "permute",
    "reshape", "unsqueeze", "squeeze", "t", "clone", "flatten", "sign",
    "square", "argmax", "argmin", "max", "min", "conj", "expand_copy",
    "cat", "concat", "concatenate", "stack", "where", "split", "chunk", "unbind", "softmax", "log_softmax",
    "gather", "index_select", "masked_fill", "prod", "amax", "amin", "var", "std", "logsumexp", "norm",
    "clamp", "clamp_min", "clamp_max", "clip", "maximum", "minimum", "repeat_interleave", "flatten", "numel", "real", "imag",
    "view_as_real", "view_as_complex", "threshold", "threshold_", "addcmul", "addcdiv", "lerp", "outer", "dropout", "detach", "isnan", "allclose", "equal",
    "logical_not", "eq", "ne", "lt", "le", "gt", "ge", "all", "any", "angle", "cumsum", "cumprod", "frac", "frac_", "logit", "logit_", "nan_to_num", "nan_to_num_", "lgamma", "digamma", "polygamma", "diag", "flip",
    "roll", "complex", "trace", "tril", "triu", "addmm",
    "remainder", "fmod", "nonzero", "is_inference", 
    "var_mean", "std_mean", "as_strided", "diagonal", "swapaxes", "swapdims", "split_with_sizes",
    "unsafe_split", "unsafe_chunk", "greater", "greater_equal", "less", "less_equal", "not_equal",
    "isinf", "isfinite", "isclose", "logical_and", "logical_or", "logical_xor", "fix", "sgn",
    "arctan2", "selu", "selu_", "celu", "celu_", "prelu", "hardshrink",
]


def _bin(name):
    def f(input, other, *deprecated, alpha=None, out=None):
        if deprecated:
            # PyTorch's deprecated add(input, Number alpha, Tensor other) / sub(...)
            if name not in ("add", "sub") or len(deprecated) > 1 or alpha is not None:
                raise TypeError(f"{name}() takes 2 positional arguments but {2 + len(deprecated)} were given")
            _core._warn_deprecated_overload(name, True)
            other, alpha = deprecated[0], other
        if out is not None:
            if alpha is not None and name not in ("add", "sub"):
                raise TypeError(f"{name}() got an unexpected keyword argument 'alpha'")
            _out.check_out(name, out)
            _resize_out(out, (input, other), 3)
            _core._binary_out(name, input, other, out, 1.0 if alpha is None else alpha)
            return out
        if alpha is not None:
            return getattr(input, name)(other, alpha=alpha)
        return _core._binary(name, input, other)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = DOCS[name]
    return f


add = _bin("add")
sub = _bin("sub")
mul = _bin("mul")
_div = _bin("div")


def div(input, other, *, rounding_mode=None, out=None):
    """`input / other`, rounded as `rounding_mode` says: None (true division), "trunc" (toward
    zero) or "floor" (floor division, `//`); the rounded modes keep integer dtypes.

    >>> torch.div(torch.tensor([-7., 7.]), 2)
    tensor([-3.5000,  3.5000])
    >>> torch.div(torch.tensor([-7, 7]), 2, rounding_mode="trunc")
    tensor([-3,  3])
    >>> torch.div(torch.tensor([-7, 7]), 2, rounding_mode="floor")
    tensor([-4,  3])
    """
    if rounding_mode is None:
        return _div(input, other, out=out)
    if not isinstance(input, Tensor):
        raise TypeError(f"div() received an invalid combination of arguments - got ({type(input).__name__}, "
                        f"{type(other).__name__}, rounding_mode=str)")
    compute = lambda: input.div(other, rounding_mode=rounding_mode)  # noqa: E731
    if out is None:
        return compute()
    return _out.write("div", _out.Spec("div", _out.CAST), compute, _out.tensors((input, other)), out,
                      (input, other))


def pow(input, exponent):
    """`input ** exponent`; either may be a number.

    >>> torch.pow(torch.tensor([1., 2., 3.]), 2)
    tensor([1., 4., 9.])
    >>> torch.pow(2, torch.tensor([1., 2., 3.]))
    tensor([2., 4., 8.])
    """
    if isinstance(input, Tensor):
        return input.pow(exponent)
    return exponent.__rpow__(input)


def remainder(input, other):
    """`input % other` with the sign of the divisor, as Python's % (RemainderBackward0).

    >>> torch.remainder(torch.tensor([-3., 3.]), 2)
    tensor([1., 1.])
    >>> torch.remainder(5, torch.tensor([3, -3]))
    tensor([ 2, -1])
    """
    if isinstance(input, Tensor):
        return input.remainder(other)
    return other.__rmod__(input)


def fmod(input, other):
    """The remainder of `input / other` with the sign of the dividend, as C's fmod
    (FmodBackward0).

    >>> torch.fmod(torch.tensor([-3., 3.]), 2)
    tensor([-1.,  1.])
    """
    return input.fmod(other)


def _unary(name):
    def f(input, *args, **kwargs):
        return getattr(input, name)(*args, **kwargs)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = DOCS[name]
    return f


for _n in ["matmul", "mm", "bmm", "dot", "mv", "relu", "abs", "neg", "sum", "mean", "transpose",
           "permute", "reshape", "unsqueeze", "squeeze", "t", "clone", "flatten", "sign", "square", "argmax", "argmin", "max", "min", "conj",
           "as_strided", "diagonal", "swapaxes", "swapdims", "split_with_sizes", "unsafe_split", "unsafe_chunk"]:
    globals()[_n] = _unary(_n)
del _n


def _check_tensor(fname, arg, position, value):
    """PyTorch's argument-parser TypeError for a non-tensor where a Tensor is required."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{fname}(): argument '{arg}' (position {position}) must be Tensor, not {type(value).__name__}")


_RESIZED = (
    "An output with one or more elements was resized since it had shape {}, which does not match the required "
    "output shape {}. This behavior is deprecated, and in a future PyTorch release outputs will not be resized "
    "unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
    "elements with t.resize_(0). (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)")


def _resize_out(out, inputs, stacklevel):
    """`out` resized to the broadcast shape of the inputs, as PyTorch resizes an `out=` tensor
    (with its deprecation warning when it had elements)."""
    from ._broadcast import broadcast_shapes

    shape = broadcast_shapes(*(tuple(t.shape) for t in inputs if isinstance(t, Tensor)))
    if tuple(out.shape) != tuple(shape):
        if out.numel() > 0:
            import warnings

            warnings.warn(_RESIZED.format(list(out.shape), list(shape)), UserWarning, stacklevel=stacklevel)
        out.resize_(shape)


def _write_out(name, inputs, out):
    """`torch.<name>(*inputs, out=out)` of a declared op: `out` resized, then written."""
    _out.check_out(name, out)
    _resize_out(out, inputs, 4)
    _core._declared_out(name, list(inputs), out)
    return out


def _declared(name, doc, binary):
    """`torch.<name>(input[, other])` of an op declared in the core (src/declared.rs): the Tensor
    method, after PyTorch's check of the arguments."""
    if binary:

        def f(input, other, *, out=None):
            if not (isinstance(input, Tensor) and isinstance(other, Tensor)):
                # a number on either side: PyTorch's Scalar overloads where the op has them
                r = _core._float_binary(name, input, other)
                if out is None:
                    return r
                _out.check_out(name, out)
                _resize_out(out, (input, other), 4)
                _core._declared_out(name, [input, other], out)
                return out
            if out is not None:
                return _write_out(name, (input, other), out)
            return getattr(input, name)(other)

    else:

        def f(input, *, out=None):
            _check_tensor(name, "input", 1, input)
            if out is not None:
                return _write_out(name, (input,), out)
            return getattr(input, name)()

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


for _binary, _table in (
    (False, _core._float_unary_ops()),
    (False, _core._rounding_ops()),
    (True, _core._float_binary_ops()),
):
    for _name, _inplace, _node, _doc in _table:
        globals()[_name] = _declared(_name, _doc, _binary)
        __all__.append(_name)
del _binary, _table, _name, _inplace, _node, _doc


from ._core import cat, nonzero, stack, where  # noqa: E402
from ._activations import celu, celu_, hardshrink, prelu, selu, selu_  # noqa: E402,F401
from ._composites import complex, angle, diag, flip, roll, trace, tril, triu  # noqa: E402,F401

maximum = _declared("maximum", Tensor.maximum.__doc__, True)
minimum = _declared("minimum", Tensor.minimum.__doc__, True)

concat = concatenate = cat

for _n in ["chunk", "unbind", "softmax", "log_softmax", "gather", "index_select", "masked_fill",
           "prod", "amax", "amin", "var", "std", "logsumexp", "norm", "clamp", "clamp_min", "clamp_max", "clip", "detach", "cumsum", "cumprod",
           "frac", "frac_", "logit", "logit_", "nan_to_num", "nan_to_num_", "lgamma", "digamma"]:
    globals()[_n] = _unary(_n)
del _n


def split(tensor, split_size_or_sections, dim=0):
    return tensor.split(split_size_or_sections, dim)


split.__doc__ = DOCS["split"]


def real(input):
    """The real part of a complex tensor.

    >>> torch.real(torch.tensor([1 + 2j, 3 - 4j]))
    tensor([1., 3.])
    """
    return input.real


def imag(input):
    """The imaginary part of a complex tensor.

    >>> torch.imag(torch.tensor([1 + 2j, 3 - 4j]))
    tensor([ 2., -4.])
    """
    return input.imag


def view_as_real(input):
    """A complex tensor as a real one with a last dimension of 2 (real, imaginary).

    >>> torch.view_as_real(torch.tensor([1 + 2j, 3 - 4j]))
    tensor([[ 1.,  2.],
            [ 3., -4.]])
    """
    return input._view_as_real()


def view_as_complex(input):
    """Real pairs `[..., 2]` seen as complex numbers: a view sharing `input`'s memory (the last
    dim of size 2 and stride 1, other strides and the offset even).

    >>> torch.view_as_complex(torch.tensor([[1., 2.], [3., -4.]]))
    tensor([1.+2.j, 3.-4.j])
    """
    return input._view_as_complex()


def threshold(input, threshold, value, *, out=None):
    """input where input > threshold, else value (ThresholdBackward0).

    >>> torch.threshold(torch.tensor([1, 5]), 2, 0)
    tensor([0, 5])
    """
    if out is not None:
        return _into_out("threshold", (input,), out,
                         lambda: _core._threshold(input, float(threshold), float(value), False))
    return _core._threshold(input, float(threshold), float(value), False)


def threshold_(input, threshold, value):
    """`threshold` in place (ThresholdBackward1).

    >>> x = torch.tensor([1., 5.])
    >>> torch.threshold_(x, 2, 0)
    tensor([0., 5.])
    """
    return _core._threshold(input, float(threshold), float(value), True)


def outer(input, vec2):
    """The outer product of two vectors.

    >>> torch.outer(torch.tensor([1., 2.]), torch.tensor([1., 10., 100.]))
    tensor([[  1.,  10., 100.],
            [  2.,  20., 200.]])
    """
    return input.unsqueeze(1) * vec2.unsqueeze(0)


def _into_out(name, inputs, out, compute):
    """`compute()` written into `out` for `torch.<name>(..., out=out)` under PyTorch's rules for
    a broadcasting op whose result may be cast (see _out.py)."""
    return _out.write(name, _out.Spec(name, _out.CAST), compute, _out.tensors(inputs), out)


def addcmul(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 * tensor2 (AddcmulBackward0), rounded as PyTorch's CPU kernel
    (one rounding for the final multiply-add).

    >>> torch.addcmul(torch.tensor([1., 2.]), torch.tensor([3., 4.]), torch.tensor([0.5, 0.5]), value=2)
    tensor([4., 6.])
    """
    _check_tensor("addcmul", "input", 1, input)
    if out is not None:
        return _into_out("addcmul", (input, tensor1, tensor2), out,
                         lambda: input.addcmul(tensor1, tensor2, value=value))
    return input.addcmul(tensor1, tensor2, value=value)


def addcdiv(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 / tensor2 (AddcdivBackward0).

    >>> torch.addcdiv(torch.tensor([1., 2.]), torch.tensor([3., 4.]), torch.tensor([2., 8.]), value=2)
    tensor([4., 3.])
    """
    _check_tensor("addcdiv", "input", 1, input)
    if out is not None:
        return _into_out("addcdiv", (input, tensor1, tensor2), out,
                         lambda: input.addcdiv(tensor1, tensor2, value=value))
    return input.addcdiv(tensor1, tensor2, value=value)


def lerp(input, end, weight, *, out=None):
    """input + weight * (end - input), from the nearer end as PyTorch's kernel (LerpBackward0 for
    a number weight, LerpBackward1 for a tensor).

    >>> torch.lerp(torch.tensor([1., 2.]), torch.tensor([3., 6.]), 0.75)
    tensor([2.5000, 5.0000])
    """
    _check_tensor("lerp", "input", 1, input)
    if out is not None:
        return _into_out("lerp", (input, end, weight), out, lambda: input.lerp(end, weight))
    return input.lerp(end, weight)


def dropout(input, p=0.5, train=True):
    """Zeroes elements with probability `p` and scales the rest by 1/(1-p) when `train`.

    >>> x = torch.ones(4, 4)
    >>> y = torch.dropout(x, 0.5, True)
    >>> sorted(set(y.flatten().tolist())) in ([0.0, 2.0], [0.0], [2.0])
    True
    >>> torch.dropout(x, 0.5, False) is x
    True
    """
    from .nn.functional import dropout as _d

    return _d(input, p, train)


def is_inference(input):
    """Whether `input` is an inference tensor (made in `torch.inference_mode()`).

    >>> with torch.inference_mode():
    ...     t = torch.ones(2)
    >>> torch.is_inference(t), torch.is_inference(torch.ones(2))
    (True, False)
    """
    if not isinstance(input, _core.Tensor):
        raise TypeError(f"is_inference(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input.is_inference()


def isnan(input):
    """True where an element is NaN.

    >>> torch.isnan(torch.tensor([1., float("nan")]))
    tensor([False,  True])
    """
    if not isinstance(input, _core.Tensor):
        raise TypeError(f"isnan(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input != input


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether |input - other| <= atol + rtol * |other| everywhere (equal infinities are close).

    >>> torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-9]))
    True
    >>> torch.allclose(torch.tensor([float("-inf")]), torch.tensor([float("-inf")]))
    True
    """
    if not input.dtype.is_signed and input.dtype is not _core.bool and input.dtype is not _core.uint8:
        input, other = input.double(), other.double()  # (no subtraction on uint16/32/64)
    close = (input == other) | ((input - other).abs() <= atol + rtol * other.abs())
    if equal_nan:
        close = close | (isnan(input) & isnan(other))
    return bool(close.all())


def equal(input, other):
    """Whether both tensors have the same shape and elements.

    >>> torch.equal(torch.tensor([1, 2]), torch.tensor([1, 2]))
    True
    """
    return tuple(input.shape) == tuple(other.shape) and bool((input == other).all())


def all(input, dim=None, keepdim=False, *, keepdims=None):
    """Whether every element is non-zero (along `dim` if given).

    >>> torch.all(torch.tensor([[True, False], [True, True]]), dim=1)
    tensor([False,  True])
    """
    keepdim = keepdim if keepdims is None else keepdims
    return input.all() if dim is None else input.all(dim, keepdim)


def any(input, dim=None, keepdim=False, *, keepdims=None):
    """Whether some element is non-zero (along `dim` if given).

    >>> torch.any(torch.tensor([0, 0, 3]))
    tensor(True)
    """
    keepdim = keepdim if keepdims is None else keepdims
    return input.any() if dim is None else input.any(dim, keepdim)


def logical_not(input):
    """Elementwise not (zero becomes True).

    >>> torch.logical_not(torch.tensor([0, 1, 2]))
    tensor([ True, False, False])
    """
    _shell_check(input, "logical_not_cpu")
    return input.logical_not()


def eq(input, other):
    """Elementwise `input == other`.

    >>> torch.eq(torch.tensor([1, 2, 3]), 2)
    tensor([False,  True, False])
    """
    return input == other


def ne(input, other):
    """Elementwise `input != other`.

    >>> torch.ne(torch.tensor([1, 2, 3]), 2)
    tensor([ True, False,  True])
    """
    return input != other


def lt(input, other):
    """Elementwise `input < other`.

    >>> torch.lt(torch.tensor([1, 2, 3]), 2)
    tensor([ True, False, False])
    """
    return input < other


def le(input, other):
    """Elementwise `input <= other`.

    >>> torch.le(torch.tensor([1, 2, 3]), 2)
    tensor([ True,  True, False])
    """
    return input <= other


def gt(input, other):
    """Elementwise `input > other`.

    >>> torch.gt(torch.tensor([1, 2, 3]), 2)
    tensor([False, False,  True])
    """
    return input > other


def ge(input, other):
    """Elementwise `input >= other`.

    >>> torch.ge(torch.tensor([1, 2, 3]), 2)
    tensor([False,  True,  True])
    """
    return input >= other


def repeat_interleave(input, repeats, dim=None):
    """Each element repeated `repeats` times (of the flattened tensor unless `dim`).

    >>> torch.repeat_interleave(torch.tensor([1, 2]), 2)
    tensor([1, 1, 2, 2])
    """
    if dim is None:
        input, dim = input.reshape(-1), 0
    idx = [i for i in range(input.shape[dim]) for _ in range(repeats)]
    from ._factories import tensor

    return input.index_select(dim, tensor(idx))


def numel(input):
    """The number of elements.

    >>> torch.numel(torch.zeros(2, 3))
    6
    """
    return input.numel()


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """`beta * input + alpha * (mat1 @ mat2)` (AddmmBackward0, as `nn.Linear` records).

    >>> torch.addmm(torch.ones(2), torch.ones(2, 3), torch.ones(3, 2))
    tensor([[4., 4.],
            [4., 4.]])
    """
    if beta != 1 or alpha != 1:
        # one AddmmBackward0, and `input` ignored (its NaNs too) when beta is 0, as PyTorch
        return input.addmm(mat1, mat2, beta=beta, alpha=alpha)
    return _core._addmm(input, mat1, mat2)


def expand_copy(input, size):
    """`input.expand(size)` as a new tensor of its own.

    >>> torch.expand_copy(torch.tensor([1, 2]), (2, 2))
    tensor([[1, 2],
            [1, 2]])
    """
    return input.expand(size).clone()


def _var_mean(input, dim, unbiased, keepdim, correction, keepdims, is_std):
    from ._tensor import _check_dof, _correction

    if not isinstance(input, Tensor):
        name = "std_mean" if is_std else "var_mean"
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    keepdim = keepdim if keepdims is None else keepdims
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    out = input._var_mean(dim, _correction(unbiased, correction), bool(keepdim), is_std)
    _check_dof("std_mean" if is_std else "var_mean", input, dim, _correction(unbiased, correction), 4)
    return out


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None, keepdims=None):
    """The variance and the mean over `dim` (all dims by default), as a tuple computed by one
    node (`VarMeanBackward0`); Bessel's correction unless `correction=0` or `unbiased=False`.

    >>> x = torch.tensor([[1., 2., 4.], [3., 5., 9.]])
    >>> torch.var_mean(x, dim=1)
    (tensor([2.3333, 9.3333]), tensor([2.3333, 5.6667]))
    >>> torch.var_mean(x, unbiased=False)
    (tensor(6.6667), tensor(4.))
    """
    return _var_mean(input, dim, unbiased, keepdim, correction, keepdims, False)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None, keepdims=None):
    """The standard deviation and the mean over `dim`, as a tuple computed by one node
    (`StdMeanBackward0`); see `var_mean`.

    >>> x = torch.tensor([[1., 2., 4.], [3., 5., 9.]])
    >>> torch.std_mean(x, 0, keepdim=True)
    (tensor([[1.4142, 2.1213, 3.5355]]), tensor([[2.0000, 3.5000, 6.5000]]))
    """
    return _var_mean(input, dim, unbiased, keepdim, correction, keepdims, True)


def greater(input, other):
    """An alias of `gt`.

    >>> torch.greater(torch.tensor([1, 2]), 1)
    tensor([False,  True])
    """
    return input > other


def greater_equal(input, other):
    """An alias of `ge`.

    >>> torch.greater_equal(torch.tensor([1, 2]), 2)
    tensor([False,  True])
    """
    return input >= other


def less(input, other):
    """An alias of `lt`.

    >>> torch.less(torch.tensor([1, 2]), 2)
    tensor([ True, False])
    """
    return input < other


def less_equal(input, other):
    """An alias of `le`.

    >>> torch.less_equal(torch.tensor([1, 2]), 1)
    tensor([ True, False])
    """
    return input <= other


def not_equal(input, other):
    """An alias of `ne`.

    >>> torch.not_equal(torch.tensor([1, 2]), 1)
    tensor([False,  True])
    """
    return input != other


def isinf(input):
    """Elementwise: is the value +inf or -inf (either part, for complex)?

    >>> torch.isinf(torch.tensor([1., float("inf"), float("-inf"), float("nan")]))
    tensor([False,  True,  True, False])
    """
    _check_tensor("isinf", "input", 1, input)
    if input.is_complex():
        return isinf(input.real) | isinf(input.imag)
    if not input.is_floating_point():
        return _core._full(tuple(input.shape), False, _core.bool).to(input.device)
    return input.abs() == float("inf")


def isfinite(input):
    """Elementwise: is the value neither infinite nor NaN?

    >>> torch.isfinite(torch.tensor([1., float("inf"), float("nan")]))
    tensor([ True, False, False])
    """
    _check_tensor("isfinite", "input", 1, input)
    if input.is_complex():
        return isfinite(input.real) & isfinite(input.imag)
    if not input.is_floating_point():
        return _core._full(tuple(input.shape), True, _core.bool).to(input.device)
    return (input == input) & (input.abs() != float("inf"))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise `|input - other| <= atol + rtol * |other|` (equal infinities are close; NaN
    only with `equal_nan`), computed in the inputs' dtype, which must match.

    >>> torch.isclose(torch.tensor([1., 2.]), torch.tensor([1., 2.1]))
    tensor([ True, False])
    """
    _check_tensor("isclose", "input", 1, input)
    _check_tensor("isclose", "other", 2, other)
    if input.dtype != other.dtype:
        raise RuntimeError(f"{_SCALAR_NAMES[input.dtype._name]} did not match {_SCALAR_NAMES[other.dtype._name]}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {_num(rtol)}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {_num(atol)}")
    close = input == other
    if equal_nan and (input.is_floating_point() or input.is_complex()):
        close = close | (isnan(input) & isnan(other))
    if not (input.is_floating_point() or input.is_complex()):
        a, b = input.double(), other.double()
        return close | ((a - b).abs() <= atol + rtol * b.abs())
    finite = isfinite(input) & isfinite(other)
    return close | (finite & ((input - other).abs() <= atol + rtol * other.abs()))


_SCALAR_NAMES = {
    "float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "int64": "Long",
    "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool", "complex64": "ComplexFloat", "complex128": "ComplexDouble",
}


def _num(v):
    return int(v) if float(v).is_integer() else v


def _truth(t):
    return t if t.dtype is _core.bool else t != 0


def logical_and(input, other):
    """Elementwise `input and other` (non-zero is True), as bools.

    >>> torch.logical_and(torch.tensor([1, 0, 2]), torch.tensor([1., 1., 0.]))
    tensor([ True, False, False])
    """
    _shell_check(input, "logical_and_cpu")
    return _truth(input) & _truth(other)


def logical_or(input, other):
    """Elementwise `input or other` (non-zero is True), as bools.

    >>> torch.logical_or(torch.tensor([0., 1.]), torch.tensor([0, 0]))
    tensor([False,  True])
    """
    _shell_check(input, "logical_or_cpu")
    return _truth(input) | _truth(other)


def logical_xor(input, other):
    """Elementwise `input xor other` (non-zero is True), as bools.

    >>> torch.logical_xor(torch.tensor([True, False]), torch.tensor([True, True]))
    tensor([False,  True])
    """
    _shell_check(input, "logical_xor_cpu")
    return _truth(input) ^ _truth(other)


def fix(input):
    """An alias of `trunc`: rounding towards zero.

    >>> torch.fix(torch.tensor([-1.5, 2.7]))
    tensor([-1.,  2.])
    """
    return input.trunc()


def sgn(input):
    """The sign of real elements; `x / |x|` (0 at 0) of complex ones.

    >>> torch.sgn(torch.tensor([3 + 4j, 0j]))
    tensor([0.6000+0.8000j, 0.0000+0.0000j])
    """
    _check_tensor("sgn", "input", 1, input)
    return input.sgn()


def _inverse_alias(alias, name, example):
    """`torch.arc*`: PyTorch's aliases of the inverse functions (asin, ..., atanh)."""
    target = globals()[name]
    x, printed = example

    def f(input, *, out=None):
        _check_tensor(alias, "input", 1, input)
        return target(input, out=out)

    f.__name__ = f.__qualname__ = alias
    f.__doc__ = f"An alias of `{name}`.\n\n>>> torch.{alias}(torch.tensor([{x}]))\n{printed}\n"
    return f


for _n, _example in (
    ("asin", ("0.5", "tensor([0.5236])")),
    ("acos", ("0.5", "tensor([1.0472])")),
    ("atan", ("0.5", "tensor([0.4636])")),
    ("asinh", ("0.5", "tensor([0.4812])")),
    ("acosh", ("2.", "tensor([1.3170])")),
    ("atanh", ("0.5", "tensor([0.5493])")),
):
    globals()["arc" + _n[1:]] = _inverse_alias("arc" + _n[1:], _n, _example)
    __all__.append("arc" + _n[1:])
del _n, _example


def polygamma(n, input, *, out=None):
    """The n-th derivative of the digamma function (PolygammaBackward0; its gradient is
    polygamma(n + 1, input)); integers compute in the default float dtype.

    >>> torch.polygamma(1, torch.tensor([1.0, 2.0]))
    tensor([1.6449, 0.6449])
    """
    _check_tensor("polygamma", "input", 2, input)
    r = input.polygamma(int(n))
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def arctan2(input, other):
    """An alias of `atan2`.

    >>> torch.arctan2(torch.tensor([1.]), torch.tensor([-1.]))
    tensor([2.3562])
    """
    _check_tensor("arctan2", "input", 1, input)
    _check_tensor("arctan2", "other", 2, other)
    return input.atan2(other)


# `torch.<op>_(input, ...)`: PyTorch's top-level in-place functions, each the Tensor method
# (`input.<op>_(...)`, which records the in-place node) after PyTorch's argument check. The
# examples were recorded from PyTorch: (input values, the other arguments, what is printed).
_INPLACE = {
    "acos_": ("[0.5, 0.75]", "", "True, tensor([1.0472, 0.7227])"),
    "acosh_": ("[1.5, 2.0]", "", "True, tensor([0.9624, 1.3170])"),
    "arccos_": ("[0.5, 0.75]", "", "True, tensor([1.0472, 0.7227])"),
    "arccosh_": ("[1.5, 2.0]", "", "True, tensor([0.9624, 1.3170])"),
    "arcsin_": ("[0.5, 0.75]", "", "True, tensor([0.5236, 0.8481])"),
    "arcsinh_": ("[0.5, 0.75]", "", "True, tensor([0.4812, 0.6931])"),
    "arctan_": ("[0.5, 0.75]", "", "True, tensor([0.4636, 0.6435])"),
    "arctanh_": ("[0.5, 0.75]", "", "True, tensor([0.5493, 0.9730])"),
    "as_strided_": ("[0.5, 0.75]", "(1,), (1,)", "True, tensor([0.5000])"),
    "asin_": ("[0.5, 0.75]", "", "True, tensor([0.5236, 0.8481])"),
    "asinh_": ("[0.5, 0.75]", "", "True, tensor([0.4812, 0.6931])"),
    "atan_": ("[0.5, 0.75]", "", "True, tensor([0.4636, 0.6435])"),
    "atanh_": ("[0.5, 0.75]", "", "True, tensor([0.5493, 0.9730])"),
    "ceil_": ("[0.5, 0.75]", "", "True, tensor([1., 1.])"),
    "clamp_": ("[0.5, 0.75]", "min=0.6", "True, tensor([0.6000, 0.7500])"),
    "clamp_max_": ("[0.5, 0.75]", "0.6", "True, tensor([0.5000, 0.6000])"),
    "clamp_min_": ("[0.5, 0.75]", "0.6", "True, tensor([0.6000, 0.7500])"),
    "clip_": ("[0.5, 0.75]", "0.6, 0.9", "True, tensor([0.6000, 0.7500])"),
    "cos_": ("[0.5, 0.75]", "", "True, tensor([0.8776, 0.7317])"),
    "cosh_": ("[0.5, 0.75]", "", "True, tensor([1.1276, 1.2947])"),
    "detach_": ("[0.5, 0.75]", "", "True, tensor([0.5000, 0.7500])"),
    "erf_": ("[0.5, 0.75]", "", "True, tensor([0.5205, 0.7112])"),
    "erfc_": ("[0.5, 0.75]", "", "True, tensor([0.4795, 0.2888])"),
    "exp2_": ("[0.5, 0.75]", "", "True, tensor([1.4142, 1.6818])"),
    "exp_": ("[0.5, 0.75]", "", "True, tensor([1.6487, 2.1170])"),
    "expm1_": ("[0.5, 0.75]", "", "True, tensor([0.6487, 1.1170])"),
    "fill_": ("[0.5, 0.75]", "2.", "True, tensor([2., 2.])"),
    "fix_": ("[0.5, 0.75]", "", "True, tensor([0., 0.])"),
    "floor_": ("[0.5, 0.75]", "", "True, tensor([0., 0.])"),
    "log10_": ("[0.5, 0.75]", "", "True, tensor([-0.3010, -0.1249])"),
    "log1p_": ("[0.5, 0.75]", "", "True, tensor([0.4055, 0.5596])"),
    "log2_": ("[0.5, 0.75]", "", "True, tensor([-1.0000, -0.4150])"),
    "log_": ("[0.5, 0.75]", "", "True, tensor([-0.6931, -0.2877])"),
    "neg_": ("[0.5, -2.0]", "", "True, tensor([-0.5000,  2.0000])"),
    "reciprocal_": ("[0.5, 0.75]", "", "True, tensor([2.0000, 1.3333])"),
    "relu_": ("[-0.5, 2.0]", "", "True, tensor([0., 2.])"),
    "resize_as_": ("[0.5, 0.75]", "torch.ones(1)", "True, tensor([0.5000])"),
    "round_": ("[0.5, 0.75]", "", "True, tensor([0., 1.])"),
    "rsqrt_": ("[0.5, 0.75]", "", "True, tensor([1.4142, 1.1547])"),
    "sigmoid_": ("[0.5, 0.75]", "", "True, tensor([0.6225, 0.6792])"),
    "sin_": ("[0.5, 0.75]", "", "True, tensor([0.4794, 0.6816])"),
    "sinh_": ("[0.5, 0.75]", "", "True, tensor([0.5211, 0.8223])"),
    "sqrt_": ("[0.5, 0.75]", "", "True, tensor([0.7071, 0.8660])"),
    "tanh_": ("[0.5, 0.75]", "", "True, tensor([0.4621, 0.6351])"),
    "trunc_": ("[0.5, 0.75]", "", "True, tensor([0., 0.])"),
    "xlogy_": ("[0.5, 0.75]", "2.", "True, tensor([0.3466, 0.5199])"),
    "zero_": ("[0.5, 0.75]", "", "True, tensor([0., 0.])"),
}
_INPLACE_OVERLOADED = {"clamp_", "clamp_max_", "clamp_min_", "clip_", "fill_", "xlogy_"}


def _inplace_function(name, example):
    values, args, printed = example

    def f(input, *args, **kwargs):
        if not isinstance(input, Tensor):
            if name in _INPLACE_OVERLOADED:
                raise TypeError(f"{name}() received an invalid combination of arguments - got "
                                f"({type(input).__name__}), but expected one of:")
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
        return getattr(input, name)(*args, **kwargs)

    f.__name__ = f.__qualname__ = name
    call = f"torch.{name}(x{', ' + args if args else ''})"
    f.__doc__ = (f"`input.{name}(...)`: in place, returning `input`.\n\n"
                 f">>> x = torch.tensor({values})\n>>> {call} is x, x\n({printed})\n")
    return f


for _n, _example in _INPLACE.items():  # every one a Tensor method once the package is imported
    globals()[_n] = _inplace_function(_n, _example)
    __all__.append(_n)
del _n, _example
