"""Private helpers shared by the modules of PyTorch's API that leafgrad adds in Python
(`_math_inplace`, `_math_binary`, `_math_unary`, `_math_products`, `_math_stats`, `_math_misc`,
`_tensor_indexing`, `_tensor_props`, `_aten_functional`, `_windows`): PyTorch's argument checks and
argument-parser errors, dtype promotion, one node with PyTorch's name (`_node` differentiates a
composition whose derivative is PyTorch's formula; `_custom` writes that formula as a backward of
leafgrad ops, so it can be differentiated again), in-place forms written through
`_core._inplace_apply` (version counter, view and leaf rules, and the node as the tensor's new
grad_fn), `out=` writes, host (numpy) copies of tensors, and the installation of Tensor methods."""
import builtins

from . import _core
from ._core import Tensor

_NUMBER = (builtins.bool, builtins.int, builtins.float, builtins.complex)


def _torch():
    import leafgrad

    return leafgrad


def _scalar_name(dtype):
    return dtype._scalar_name


def _typename(v):
    return "Tensor" if isinstance(v, Tensor) else type(v).__name__


def _check_tensor(fn, name, pos, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not {type(value).__name__}")


def _invalid(fn, *args, **kwargs):
    """PyTorch's argument-parser TypeError when no overload of `fn` takes these arguments (its
    first line; PyTorch goes on to list the signatures)."""
    got = [_typename(a) for a in args] + [f"{k}={_typename(v)}" for k, v in kwargs.items()]
    return TypeError(f"{fn}() received an invalid combination of arguments - got ({', '.join(got)}), but "
                     "expected one of:")


def _operand(fn, other, *args, **kwargs):
    """`other` of a Tensor-or-Scalar overload, or the argument parser's error."""
    if not isinstance(other, (Tensor, *_NUMBER)):
        raise _invalid(fn, *args, **kwargs)
    return other


def _tensors(*values):
    return [v for v in values if isinstance(v, Tensor)]


def _inplace(self, fn, *others):
    """`fn(self)` written into `self` in place (its node becomes self's grad_fn)."""
    return _core._inplace_apply(self, fn, _tensors(*others))


def _node(name, exact, formula, inputs, unread=()):
    """One node `name` over `inputs`: its value `exact(*inputs)` (PyTorch's kernel), its
    gradient the derivative of `formula(*inputs)` (a composition of leafgrad ops whose
    derivative is PyTorch's formula; its value is never used). `unread`: the positions of
    inputs whose values the gradient does not read (not saved, as `_core._composite`'s)."""
    def f(*xs):
        if _core.is_grad_enabled():
            return formula(*xs)
        return exact(*xs)

    return _core._composite(name, f, list(inputs), list(unread))


def _bilinear_unread(inputs, first=0):
    """The positions (from `first`) of the two factors of a product that are read only for
    the other's gradient and so are not saved when the other needs none (PyTorch's rule for
    mm, addmm, addr, ...); a term added linearly before them (`first` = 1) is never read."""
    a, b = inputs[first], inputs[first + 1]
    return [i for i in range(first)] + [i for i, other in ((first, b), (first + 1, a)) if not other.requires_grad]


def _with_out(fname, grad, compute, inputs, out, rule=None):
    """`compute()`, or written into `out` (computed without a graph, after the checks)."""
    if out is None:
        return compute()
    from . import _out

    spec = _out.Spec(grad, rule or _out.CAST)
    return _out.write(fname, spec, compute, _out.tensors(inputs), out)


def _result_dtype(*operands):
    from ._dtypes import _operand as kind

    return _core._result_type([kind(o) for o in operands])


def _float_result_dtype(*operands):
    """The promoted dtype, integers and bools promoted to the default float dtype."""
    dt = _result_dtype(*operands)
    if dt.is_floating_point or dt.is_complex:
        return dt
    return _core._get_default_dtype()


def _check_alpha(input, other, alpha):
    """PyTorch's refusal of a floating alpha for an integral result (leafgrad's sub takes it)."""
    dt = _result_dtype(input, other)
    if not (dt.is_floating_point or dt.is_complex) and dt is not _core.bool and isinstance(
            alpha, (builtins.float, builtins.complex)):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")


def _copysign_values(a, b):
    """`copysign(a, b)` elementwise (a, b already of the result dtype, broadcastable): |a| with
    the sign bit of b (also for -0.0 and NaNs)."""
    torch = _torch()
    neg = torch.signbit(b)
    mag = a.abs()
    return torch.where(neg, -mag, mag)


def _custom(name, exact, backward, inputs, unread=(), saved=None, result=False):
    """One node `name` over `inputs` (tensors): its value `exact(*inputs)` (computed as PyTorch's
    kernel computes it), its gradients `backward(grad, *inputs)` (PyTorch's formula, written
    with leafgrad ops so that it can be differentiated again). `unread`, `saved`, `result`: as
    `_core._composite`'s."""
    from .autograd import Function

    class _Fn(Function):
        @staticmethod
        def forward(ctx, *xs):
            ctx.save_for_backward(*xs)
            return exact(*xs)

        @staticmethod
        def backward(ctx, grad):
            return backward(grad, *ctx.saved_tensors)

    _Fn.__name__ = _Fn.__qualname__ = name
    return _core._composite(name, lambda *xs: _Fn.apply(*xs), list(inputs), list(unread), saved, result)


def _reduce(loss, reduction):
    """A loss's elements reduced as `reduction` ("mean", "sum", else none) says."""
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _host_array(t):
    """`t`'s values as a numpy array of its dtype (no history)."""
    import numpy as np

    a = t.detach().cpu()
    if a.dtype._name in ("bfloat16",):
        return np.array(a.float().tolist(), dtype=np.float32).reshape(tuple(t.shape))
    return np.asarray(a.contiguous().numpy()).reshape(tuple(t.shape))


def _from_host(a, dtype, device):
    from ._factories import from_numpy
    import numpy as np

    r = from_numpy(np.ascontiguousarray(a))
    if r.dtype != dtype:
        r = r.to(dtype)
    return r.to(device) if device.type != "cpu" else r


def _no_grad():
    from ._grad_mode import no_grad

    return no_grad()


def _wrap_dim(dim, ndim):
    m = builtins.max(ndim, 1)
    if not -m <= dim < m:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-m}, {m - 1}], but got {dim})")
    return dim % m


def _shape_str(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _method(fn):
    """The Tensor method of a `torch.*` function: its signature and example without `out=`,
    which PyTorch's methods do not take."""
    import functools
    import inspect

    sig = inspect.signature(fn)
    if "out" not in sig.parameters:
        return fn

    @functools.wraps(fn)
    def method(*args, **kwargs):
        if "out" in kwargs:
            raise TypeError(f"{fn.__name__}() got an unexpected keyword argument 'out'")
        return fn(*args, **kwargs)

    method.__signature__ = sig.replace(parameters=[p for n, p in sig.parameters.items() if n != "out"])
    return method


def _install(methods):
    """Each of `methods` (PyTorch's name -> the function) installed as a Tensor method."""
    for name, fn in methods.items():
        setattr(Tensor, name, _method(fn))
