"""`out=` of the `torch.*` functions written in Python: the result is computed as without `out`,
then written into `out` with PyTorch's rules, which differ from op to op in their words:

- `out` must be a Tensor (a tuple of them for ops with several results);
- under grad mode an argument or `out` that requires grad is refused, naming the op PyTorch's
  kernel names ("mm(): functions with out=... arguments don't support automatic
  differentiation, ...") — before anything is computed;
- `out`'s dtype is checked against the result's (a cast PyTorch allows is done, `can_cast`;
  most ops want the very dtype, each with its own message);
- `out` of another shape is resized, with PyTorch's deprecation warning when it had elements;
- the values are copied in (a view writes through to its base) and `out` itself is returned
  (`torch.return_types.<name>_out` of the `out` tensors for several results).

`TABLE` says, per function, which rule applies; `install` wraps the functions of a namespace.
The declared float ops and add/sub/mul/div write through the core instead (_functions.py)."""
import builtins
import functools
import os
import sys
import warnings

from . import _core
from ._core import Tensor

_PKG = os.path.dirname(os.path.abspath(__file__))

_DTYPES = [v for v in vars(_core).values() if isinstance(v, _core.dtype)]
SCALAR = {d._name: d._scalar_name for d in _DTYPES}
CPP = {d._name: d._cpp_name for d in _DTYPES}
# (bfloat16's legacy name as `out=` messages print it differs from the C++ table's)
LEGACY = dict({d._name: d._legacy_name for d in _DTYPES}, bfloat16="torch.BFloat16Tensor")
RESIZED = (
    "An output with one or more elements was resized since it had shape {}, which does not match the required "
    "output shape {}. This behavior is deprecated, and in a future PyTorch release outputs will not be resized "
    "unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
    "elements with t.resize_(0). (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)")
NO_AUTOGRAD = ("{}(): functions with out=... arguments don't support automatic differentiation, but one of the "
               "arguments requires grad.")


def scalar_name(dtype):
    return SCALAR[dtype._name]


def can_cast(frm, to):
    """PyTorch's `canCast`: no complex to real, no float to integer, nothing but bool to bool."""
    from ._dtypes import can_cast as cc

    return cc(frm, to)


def _in_package(filename):
    path = os.path.abspath(filename)
    return path.startswith(_PKG + os.sep)


def user_stacklevel():
    """The `stacklevel` (for a `warnings.warn` in the caller of this function) of the first frame
    outside the package: PyTorch's warnings point at the user's line."""
    frame, level = sys._getframe(2), 2
    while frame is not None and _in_package(frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    return level


def warn(message):
    warnings.warn(message, UserWarning, stacklevel=user_stacklevel())


class user_warnings:
    """A block whose warnings, given with a stacklevel counted for a direct call of the function
    that gives them, point at the user's line (the block runs it one call deeper, from here)."""

    def __enter__(self):
        self._catcher = warnings.catch_warnings(record=True)
        self._caught = self._catcher.__enter__()
        warnings.simplefilter("always")
        return self

    def __exit__(self, *exc):
        self._catcher.__exit__(*exc)
        level = user_stacklevel()
        for w in self._caught:
            if _in_package(w.filename):
                warnings.warn(w.message, w.category, stacklevel=level)
            else:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return False


def check_out(fname, out, n=1):
    """PyTorch's argument-parser errors for an `out` that is not a Tensor (a tuple of `n`)."""
    if n == 1:
        if not isinstance(out, Tensor):
            raise TypeError(f"{fname}(): argument 'out' must be Tensor, not {type(out).__name__}")
        return (out,)
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"{fname}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}")
    if len(out) != n:
        raise TypeError(f"expected tuple of {n} elements but got {len(out)}")
    for i, o in enumerate(out):
        if not isinstance(o, Tensor):
            raise TypeError(f"{fname}(): argument 'out' must be tuple of Tensors, not {type(o).__name__}")
    return tuple(out)


def tensors(values):
    """The tensors among `values`, lists and tuples of them looked into."""
    found = []
    for v in values:
        if isinstance(v, Tensor):
            found.append(v)
        elif isinstance(v, (list, tuple)):
            found.extend(tensors(v))
    return found


def refuse_grad(name, inputs, outs):
    """PyTorch's refusal of `out=` when autograd would have to record the write."""
    if _core.is_grad_enabled() and builtins.any(t.requires_grad for t in (*inputs, *outs)):
        raise RuntimeError(NO_AUTOGRAD.format(name))


def copy_into(out, value):
    """`value` written into `out` (already of its shape), without recording a graph."""
    from ._grad_mode import no_grad

    with no_grad():
        out.copy_(value)


# ------------------------------------------------------------------------------------------------
# dtype rules: each takes the result's dtype, out's dtype and the op's tensor inputs, and raises
# PyTorch's error when out's dtype will not do. Message fields: {R}/{O} the ScalarType names
# (Float, Long), {r}/{o} the C++ names (float, long int), {RL}/{OL} the legacy type names, {I}
# the first input's ScalarType name.


def _fields(r, o, inputs):
    first = inputs[0].dtype if inputs else r
    return dict(R=SCALAR[r._name], O=SCALAR[o._name], r=CPP[r._name], o=CPP[o._name], RL=LEGACY[r._name],
                OL=LEGACY[o._name], I=SCALAR[first._name])


def cast(msg="result type {R} can't be cast to the desired output type {O}", exc=RuntimeError):
    """Any dtype the result can be cast to (`can_cast`)."""
    def check(r, o, inputs):
        if not can_cast(r, o):
            raise exc(msg.format(**_fields(r, o, inputs)))
    return check


def same(msg="Expected out tensor to have dtype {r}, but got {o} instead", exc=RuntimeError):
    """Exactly the result's dtype."""
    def check(r, o, inputs):
        if r != o:
            raise exc(msg.format(**_fields(r, o, inputs)))
    return check


def any_dtype(r, o, inputs):
    """Any dtype (the value is cast)."""


def only(dtype_name, msg):
    """Only `dtype_name` (bool results: "all only supports bool tensor for result, ...")."""
    def check(r, o, inputs):
        if o._name != dtype_name:
            raise RuntimeError(msg.format(**_fields(r, o, inputs)))
    return check


EXPECTED = same()
FOUND = same("Found dtype {O} but expected {R}")
CAST = cast()


class Spec:
    """How `torch.<name>(..., out=)` checks and writes.

    `grad`: the op named in the autograd refusal (None: none, the outputs are not
    differentiable). `dtypes`: one rule per output (one for all). `fields`: the names of the
    `torch.return_types.<name>_out` of several outputs. `copy`: no refusal; `out.copy_(result)`
    is recorded as PyTorch's composite records it. `notimpl`: only an `out` that requires grad is
    refused; inputs that do give `out` PyTorch's `NotImplemented` grad_fn. `fname`: the name in
    the argument errors when it is not the function's. `overloaded`: PyTorch's parser words an
    `out` that is not a Tensor as an invalid combination of arguments. `seen`: a function of the
    out and result shapes giving the shapes the resize warning names; `warn=False`: resized
    silently. `order`: the order PyTorch resizes several outputs in (its warnings' order)."""

    def __init__(self, grad, *dtypes, fields=None, copy=False, notimpl=False, fname=None, overloaded=False,
                 seen=None, warn=True, order=None):
        self.grad, self.dtypes, self.fields, self.copy = grad, dtypes or (EXPECTED,), fields, copy
        self.notimpl, self.fname, self.overloaded, self.seen, self.warn = notimpl, fname, overloaded, seen, warn
        self.order = order

    def but(self, **changes):
        """A copy with some attributes changed."""
        other = Spec.__new__(Spec)
        other.__dict__.update(self.__dict__, **changes)
        return other


_RESULT_TYPES = {}


def result_type(name, fields):
    """`torch.return_types.<name>` with `fields` (a named tuple class), made once."""
    key = (name, tuple(fields))
    if key not in _RESULT_TYPES:
        from ._math_extra import _named_result

        _RESULT_TYPES[key] = _named_result(name, list(fields))
    return _RESULT_TYPES[key]


def _typename(v):
    """A value's type as PyTorch's argument parser names it."""
    return "Tensor" if isinstance(v, Tensor) else type(v).__name__


def invalid(fname, args, kwargs, out="Tensor"):
    """PyTorch's argument-parser TypeError when no overload of `fname` takes these arguments
    (its first line; PyTorch goes on to list the signatures)."""
    got = [_typename(a) for a in args] + [f"out={out}"] + [f"{k}={_typename(v)}" for k, v in sorted(kwargs.items())]
    return TypeError(f"{fname}() received an invalid combination of arguments - got ({', '.join(got)}), but "
                     "expected one of:")


def write(fname, spec, compute, inputs, out, args=(), kwargs=None):
    """The body of `torch.<fname>(..., out=out)` under `spec`: checks, `compute()`, resize, copy;
    returns `out` (or the named tuple of the outs)."""
    from ._grad_mode import no_grad

    fname = spec.fname or fname
    n = len(spec.fields) if spec.fields else 1
    if spec.overloaded and not isinstance(out, (tuple, list) if n > 1 else Tensor):
        raise invalid(fname, args, kwargs or {}, _typename(out))
    outs = check_out(fname, out, n)
    graph = False
    if spec.notimpl:
        refuse_grad(spec.grad, (), outs)
        graph = _core.is_grad_enabled() and builtins.any(t.requires_grad for t in inputs)
    elif spec.grad is not None and not spec.copy:
        refuse_grad(spec.grad, inputs, outs)
    with user_warnings():
        if spec.copy:
            result = compute()
        else:
            with no_grad():
                result = compute()
    results = (result,) if n == 1 else tuple(result)
    rules = spec.dtypes if len(spec.dtypes) == n else spec.dtypes * n
    for rule, r, o in zip(rules, results, outs):
        rule(r.dtype, o.dtype, inputs)
    for i in spec.order or range(n):
        r, o = results[i], outs[i]
        shape = tuple(r.shape)
        if tuple(o.shape) != shape:
            if o.numel() > 0 and spec.warn:
                had, want = spec.seen(o, shape) if spec.seen else (tuple(o.shape), shape)
                warn(RESIZED.format(list(had), list(want)))
            o.resize_(shape)
        if spec.copy:
            o.copy_(r)
        else:
            copy_into(o, r)
    if graph:
        source = next(t for t in inputs if t.requires_grad)
        for o in outs:
            if o.dtype.is_floating_point or o.dtype.is_complex:
                _core._no_derivative(source, o, "torch::autograd::NotImplemented", spec.grad.split("::")[-1])
    if n == 1:
        return out
    return result_type(fname + "_out", spec.fields)(*outs)


def outable(fn, fname, spec_for):
    """`fn` with `out=`: `spec_for` is a Spec, or a function of (args, kwargs, out) giving one
    (the rules of PyTorch's overloads differ) or (spec, args, kwargs) with the arguments the
    overload computes with, or raising PyTorch's TypeError where no overload takes `out`."""

    @functools.wraps(fn)
    def f(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        inputs = tensors((*args, *kwargs.values()))
        spec, a, k = spec_for, args, kwargs
        if not isinstance(spec, Spec):
            spec = spec_for(args, kwargs, out)
            if isinstance(spec, tuple):
                spec, a, k = spec
        return write(fname, spec, lambda: fn(*a, **k), inputs, out, args, kwargs)

    f.__out__ = True
    return f


# ------------------------------------------------------------------------------------------------
# The overloads whose rules depend on the arguments.

def _arg(args, kwargs, i, name, default=None):
    if len(args) > i:
        return args[i]
    return kwargs.get(name, default)


def _matmul_spec(name):
    def spec(args, kwargs, out):
        a, b = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "other")
        if isinstance(a, Tensor) and isinstance(b, Tensor):
            if a.dim() == 1 and b.dim() == 1:
                return Spec(name, same("result dtype {O} does not match input dtype {R}"))
            if a.dim() == 2 and b.dim() == 1 and isinstance(out, Tensor) and tuple(out.shape) == (a.shape[0],):
                # (an out of another shape is resized by matmul before addmv sees it)
                msg = (f"addmv input tensors must have the same dtype, but got {{O}}, {SCALAR[a.dtype._name]}, "
                       f"and {SCALAR[b.dtype._name]}")
                return Spec(name, same(msg))
        return Spec(name)
    return spec


def _reduction_spec(name, bool_kernel=None):
    """sum/prod/cumsum/cumprod: without `dtype=`, out's dtype is the dtype (the input cast to it
    first); with it, out must have it."""
    def spec(args, kwargs, out):
        if name in ("sum", "prod") and _arg(args, kwargs, 1, "dim") is None:
            raise invalid(name, args, kwargs)
        check_out(name, out)
        if kwargs.get("dtype") is not None:
            return Spec(name)
        if bool_kernel and out.dtype is _core.bool:
            raise NotImplementedError(f"\"{bool_kernel}\" not implemented for 'Bool'")
        return Spec(name, any_dtype), args, dict(kwargs, dtype=out.dtype)
    return spec


def _mean_spec(args, kwargs, out):
    if _arg(args, kwargs, 1, "dim") is None:
        s = Spec("mean", cast("mean.dtype_out(): input types can't be cast to the desired output type {O}"))
    elif kwargs.get("dtype") is not None:
        s = Spec("mean")
    else:
        s = Spec("mean", CAST)
    return s.but(overloaded=True)


_CAN_CAST_MSG = ("Expected canCast( typeMetaToScalarType(self.dtype()), typeMetaToScalarType(out.dtype())) to be "
                 "true, but got false.  (Could this error message be improved?  If so, please report an enhancement "
                 "request to PyTorch.)")


def _max_min_spec(name):
    def spec(args, kwargs, out):
        other = _arg(args, kwargs, 1, "dim")
        if isinstance(other, Tensor):
            s = Spec("maximum" if name == "max" else "minimum", CAST)
        elif other is None:
            s = Spec(name, cast(_CAN_CAST_MSG))
        else:
            s = Spec(name, EXPECTED, _LONG, fields=("values", "indices"))
            if len(args) > 2 or "keepdim" in kwargs:  # only the dim overload takes these
                return s
        return s.but(overloaded=True)
    return spec


def _where_spec(args, kwargs, out):
    names = ("condition", "input", "other")
    vals = [_arg(args, kwargs, i, n) for i, n in enumerate(names)]
    if vals[1] is None and vals[2] is None:
        raise invalid("where", args, kwargs)
    for i in (1, 2):
        if not isinstance(vals[i], Tensor):
            raise TypeError(f"where(): argument '{names[i]}' (position {i + 1}) must be Tensor, not "
                            f"{type(vals[i]).__name__}")
    return Spec("where", same("Expected out type to be {R} but got {O}"))


def _keepdim_seen(args, kwargs, dim_at):
    """kthvalue/mode: PyTorch unsqueezes an out of one dim less than the input at `dim` before
    resizing it to the keepdim shape: its warning names those shapes. (`dim_at`: the position of
    `dim`; `keepdim` follows it.)"""
    x = _arg(args, kwargs, 0, "input")
    dim = _arg(args, kwargs, dim_at, "dim", -1)
    keepdim = _arg(args, kwargs, dim_at + 1, "keepdim", False)
    if not isinstance(x, Tensor) or not isinstance(dim, builtins.int) or keepdim:
        return None
    nd = builtins.max(x.dim(), 1)
    d = dim % nd

    def seen(o, shape):
        had = tuple(o.shape)
        if o.dim() == nd - 1:
            had = had[:d] + (1,) + had[d:]
        return had, tuple(shape[:d]) + (1,) + tuple(shape[d:])
    return seen


def _kthvalue_spec(args, kwargs, out):
    s = Spec("kthvalue", same("output values must be of same type as input"),
             same("output indices must be of scalar type Long"), fields=("values", "indices"))
    return s.but(seen=_keepdim_seen(args, kwargs, 2))


def _mode_spec(args, kwargs, out):
    s = Spec("mode", same("expected scalar type '{R}' but got '{O}' for values output"),
             same("expected scalar type 'Long' but got '{O}' for indices output"), fields=("values", "indices"))
    return s.but(seen=_keepdim_seen(args, kwargs, 1))


def _median_spec(name):
    values = same("Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; but type "
                  "{OL} does not equal {RL} (while checking arguments for median)")
    indices = same("Expected tensor for argument #1 'indices' to have scalar type Long; but got {OL} instead "
                   "(while checking arguments for median)")

    def spec(args, kwargs, out):
        if _arg(args, kwargs, 1, "dim") is None:
            raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
        return Spec(name, values, indices, fields=("values", "indices"))
    return spec


def _diag_spec(args, kwargs, out):
    x = _arg(args, kwargs, 0, "input")
    if isinstance(x, Tensor) and x.dim() == 1:
        return Spec("aten::diag_embed", cast("diag: result type {R} can't be cast to the desired out= type {O}"),
                    notimpl=True)
    return Spec("aten::diagonal_copy", notimpl=True)


def _argsort_spec(args, kwargs, out):
    if "stable" not in kwargs:
        raise invalid("argsort", args, kwargs)
    return Spec("sort", _LONG)


def _searchsorted_spec(args, kwargs, out):
    flag = builtins.bool(kwargs.get("out_int32", False))

    def check(r, o, inputs):
        if o._name != ("int32" if flag else "int64"):
            raise RuntimeError("torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or "
                               "Long(int64) depending on whether out_int32 flag is True, but we got output tensor's "
                               f"dtype {SCALAR[o._name]} and out_int32 flag is {flag}")
    return Spec(None, check, overloaded=True)


def _matrix_power_check(r, o, inputs):
    if not can_cast(r, o):
        raise RuntimeError(f"matrix_power: Expected result to be safely castable from {SCALAR[r._name]} dtype, but "
                           f"got result with dtype {SCALAR[o._name]}")
    EXPECTED(r, o, inputs)


def _logsumexp_check(r, o, inputs):
    if not (o.is_floating_point or o.is_complex):
        raise RuntimeError(f"logsumexp(): Expected floating point type for result tensor, but got: {SCALAR[o._name]}")


def _histc_check(r, o, inputs):
    if r != o:
        raise RuntimeError("torch.histogram: input tensor and hist tensor should have the same dtype, but got input "
                           f"{CPP[r._name]} and hist {CPP[o._name]}")


def _edges_check(r, o, inputs):
    if r != o:
        raise RuntimeError("torch.histogram: input tensor and bin_edges tensor should have the same dtype, but got "
                           f"input {CPP[r._name]} and bin_edges {CPP[o._name]} for dimension 0")


def _multinomial_check(r, o, inputs):
    if o._name != "int64":
        raise RuntimeError(f"multinomial expects Long tensor out, got: {SCALAR[o._name]}")


_LONG = same("Expected out tensor to have dtype long int, but got {o} instead")
_STACK_CAST = cast("torch.cat(): input types can't be cast to the desired output type {O}", TypeError)


def _bool_only(name):
    return only("bool", f"{name} does not support non-boolean outputs.")


def _over(spec):
    return spec.but(overloaded=True)


# name -> Spec, or a function of (args, kwargs, out) giving one
TABLE = {
    "matmul": _matmul_spec("matmul"),
    "mm": _over(Spec("mm")), "bmm": _over(Spec("bmm")), "addmm": _over(Spec("addmm")),
    "mv": _matmul_spec("mv"), "dot": _matmul_spec("dot"),
    "outer": Spec("mul", CAST), "kron": Spec("mul", CAST),
    "sum": _reduction_spec("sum"), "prod": _reduction_spec("prod"),
    "cumsum": _reduction_spec("cumsum", "cumsum_out_cpu"), "cumprod": _reduction_spec("cumprod", "cumprod_out_cpu"),
    "mean": _mean_spec,
    "cat": Spec("cat", _STACK_CAST), "concat": Spec("cat", _STACK_CAST), "concatenate": Spec("cat", _STACK_CAST),
    "hstack": Spec("cat", _STACK_CAST), "vstack": Spec("cat", _STACK_CAST), "dstack": Spec("cat", _STACK_CAST),
    "column_stack": Spec("cat", _STACK_CAST), "row_stack": Spec("cat", _STACK_CAST),
    "stack": Spec("stack", _STACK_CAST),
    "clamp": _over(Spec("clamp", FOUND)), "clip": _over(Spec("clamp", FOUND)),
    "clamp_min": _over(Spec("clamp_min", FOUND)), "clamp_max": _over(Spec("clamp_max", FOUND)),
    "pow": _over(Spec("pow", CAST)), "square": Spec("pow", CAST),
    "abs": Spec("abs", FOUND), "absolute": Spec("abs", FOUND), "neg": Spec("neg", FOUND),
    "negative": Spec("neg", FOUND), "sign": Spec("sign", FOUND), "sgn": Spec("sgn", FOUND),
    "frac": Spec("frac", FOUND), "fix": Spec("trunc", FOUND), "hardshrink": Spec("hardshrink", FOUND),
    "round": _over(Spec("round", FOUND)),
    "argmax": Spec(None, _LONG), "argmin": Spec(None, _LONG),
    "max": _max_min_spec("max"), "min": _max_min_spec("min"),
    "maximum": Spec("maximum", CAST), "minimum": Spec("minimum", CAST),
    "sort": _over(Spec("sort", EXPECTED, _LONG, fields=("values", "indices"))),
    "argsort": _argsort_spec, "msort": Spec("sort"),
    "topk": Spec("topk", EXPECTED, _LONG, fields=("values", "indices")),
    "kthvalue": _kthvalue_spec, "mode": _mode_spec,
    "median": _median_spec("median"), "nanmedian": _median_spec("nanmedian"),
    "cummax": Spec("cummax", same("expected scalar_type {R} but found {O}"),
                   same("expected scalar_type Long but found {O}"), fields=("values", "indices")),
    "cummin": Spec("cummin", same("expected scalar_type {R} but found {O}"),
                   same("expected scalar_type Long but found {O}"), fields=("values", "indices")),
    "aminmax": Spec("aminmax", fields=("min", "max")),
    "where": _where_spec,
    "amax": Spec("amax", same("Expected the dtype for input and out to match, but got {R} for input's dtype and "
                              "{O} for out's dtype.")),
    "amin": Spec("amin", same("Expected the dtype for input and out to match, but got {R} for input's dtype and "
                              "{O} for out's dtype.")),
    "logsumexp": Spec("logsumexp", _logsumexp_check),
    "var": _over(Spec("var", CAST)), "std": _over(Spec("std", CAST)),
    "all": _over(Spec(None, only("bool", "all only supports bool tensor for result, got: {O}"))),
    "any": _over(Spec(None, only("bool", "any only supports bool tensor for result, got: {O}"))),
    "remainder": _over(Spec("remainder", CAST)), "fmod": _over(Spec("fmod", CAST)),
    "true_divide": Spec("div", CAST), "arctan2": Spec("atan2", CAST), "floor_divide": Spec("aten::floor_divide", CAST, notimpl=True),
    "lerp": _over(Spec("lerp", CAST)), "addcmul": Spec("addcmul", CAST), "addcdiv": Spec("addcdiv", CAST),
    "logit": Spec("logit", CAST), "lgamma": Spec("lgamma", CAST), "digamma": Spec("digamma", CAST),
    "polygamma": Spec("polygamma", CAST), "rad2deg": Spec("rad2deg", CAST), "deg2rad": Spec("deg2rad", CAST),
    "threshold": Spec("threshold", CAST), "diff": Spec("sub", CAST), "angle": Spec("angle", CAST),
    "mvlgamma": Spec("mvlgamma", cast("mvlgamma: result type {R} can't be cast to the desired output type {R}")),
    "nan_to_num": Spec("nan_to_num", same("nan_to_num: dtype of out: {O} should be same as input: {R}")),
    "tril": Spec("tril"), "triu": Spec("triu"), "diag": _diag_spec, "cross": Spec("linalg_cross"),
    "gather": Spec("gather"), "take_along_dim": Spec("gather"),
    "scatter_add": Spec("scatter_add"), "index_add": Spec("index_add"),
    "index_select": Spec("index_select", same("index_select(): self and result must have the same scalar type")),
    "masked_select": Spec("masked_select", same("masked_select(): self and result must have the same scalar type")),
    "take": Spec("take", same("take(): self and out expected to have the same dtype, but got self.dtype = {R} and "
                              "out.dtype = {O}")),
    "nonzero": Spec(None, only("int64", "nonzero: Expected out tensor to have scalar type Long but got scalar "
                                        "type{O}")),
    "logcumsumexp": Spec("logcumsumexp", same("expected scalar_type {R} but found {O}")),
    "matrix_power": Spec("matmul", _matrix_power_check),
    "inverse": Spec("linalg_inv_ex"), "norm": Spec("linalg_vector_norm", fname="linalg_vector_norm"),
    "histc": Spec(None, _histc_check),
    "histogram": Spec("histogram", _histc_check, _edges_check, fields=("hist", "bin_edges"), notimpl=True,
                      overloaded=True),
    "quantile": _over(Spec(None, same("quantile() out tensor must be same dtype as the input tensor"), copy=True)),
    "nanquantile": _over(Spec(None, same("nanquantile() out tensor must be same dtype as the input tensor"),
                              copy=True)),
    "tensordot": Spec(None, same("tensordot: Expected the output tensor to have dtype {R}, but got an output tensor "
                                 "with dtype {O}"), copy=True),
    "softmax": Spec("aten::softmax", notimpl=True), "log_softmax": Spec("aten::log_softmax", notimpl=True),
    "complex": Spec("complex", same("Expected object of scalar type {R} but got scalar type {O} for argument 'out'")),
    "searchsorted": _searchsorted_spec,
    "bernoulli": Spec("bernoulli", any_dtype, warn=False),
    "multinomial": Spec(None, _multinomial_check, warn=False),
    # comparisons and logical ops: a bool result, cast to any dtype
    **{n: _over(Spec(None, any_dtype)) for n in (
        "eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal", "not_equal")},
    **{n: Spec(None, any_dtype) for n in ("logical_and", "logical_or", "logical_xor", "logical_not")},
    "isin": _over(Spec(None, same("Expected out tensor to have dtype bool, but got {o} instead"))),
    "isposinf": Spec(None, _bool_only("isposinf")), "isneginf": Spec(None, _bool_only("isneginf")),
    "signbit": Spec(None, _bool_only("signbit")),
    "xlogy": _over(Spec("xlogy", CAST)),
}


def _lstsq_check(r, o, inputs):
    if not can_cast(r, o):
        raise RuntimeError(f"torch.linalg.lstsq: Expected solution to be safely castable from {SCALAR[r._name]} "
                           f"dtype, but got solution with dtype {SCALAR[o._name]}")


def _castable(what, noun="result"):
    return cast(f"{what}: Expected {noun} to be safely castable from {{R}} dtype, but got {noun} with dtype {{O}}")


def _lin(grad, *dtypes, **kw):
    return Spec(grad, *dtypes, **kw)


# torch.linalg.<name> -> Spec (fname: PyTorch's linalg_<name>)
LINALG = {
    "inv": _lin("linalg_inv_ex"), "det": _lin("_linalg_det"), "solve": _lin("_linalg_solve_ex"),
    "vector_norm": _lin("linalg_vector_norm"),
    "norm": _lin(None, same("linalg.norm expected out tensor dtype {R} but got: {O}"), copy=True, overloaded=True),
    "matrix_norm": _lin(None, same("linalg.matrix_norm expected out tensor dtype {R} but got: {O}"), copy=True,
                        overloaded=True),
    "matmul": _matmul_spec("matmul"), "cross": _lin("linalg_cross"),
    "vecdot": _lin("vdot", same("linalg.vecdot: Expected out of dtype{R} but found {O}")),
    "eigvalsh": _lin("_linalg_eigh"), "cholesky": _lin("linalg_cholesky_ex"), "svdvals": _lin("_linalg_svd"),
    "pinv": _lin("linalg_pinv", _castable("linalg.pinv"), overloaded=True),
    "matrix_rank": _lin(None, _castable("torch.linalg.matrix_rank"), overloaded=True),
    "multi_dot": _lin("mm", same("multi_dot(): expected out tensor to have dtype {r} but got {o}")),
    "qr": _lin("linalg_qr", fields=("Q", "R")), "slogdet": _lin("_linalg_slogdet", fields=("sign", "logabsdet")),
    "eigh": _lin("_linalg_eigh", fields=("eigenvalues", "eigenvectors"), order=(1, 0)),
    "svd": _lin("_linalg_svd", fields=("U", "S", "Vh"), order=(0, 2, 1)),
    "lstsq": _lin("linalg_lstsq", _lstsq_check, any_dtype, any_dtype, any_dtype,
                  fields=("solution", "residuals", "rank", "singular_values")),
}


def _named(spec, fname):
    """`spec` (or the spec function's results) with the argument errors naming `fname`."""
    if isinstance(spec, Spec):
        return spec.but(fname=fname)

    def named(args, kwargs, out):
        r = spec(args, kwargs, out)
        return (r[0].but(fname=fname),) + r[1:] if isinstance(r, tuple) else r.but(fname=fname)
    return named


def install_linalg(module):
    """Wrap `torch.linalg`'s functions that LINALG names (PyTorch's `linalg_<name>` in errors)."""
    for name, spec in LINALG.items():
        fn = getattr(module, name, None)
        if fn is not None and not getattr(fn, "__out__", False):
            setattr(module, name, outable(fn, "linalg_" + name, _named(spec, "linalg_" + name)))


def install(namespace):
    """Wrap the functions of `namespace` (the package's globals) that TABLE names."""
    for name, spec in TABLE.items():
        fn = namespace.get(name)
        if fn is not None and not getattr(fn, "__out__", False):
            namespace[name] = outable(fn, name, spec)
