"""Bitwise ops as PyTorch names them: `bitwise_and`, `bitwise_or`, `bitwise_xor`, `bitwise_not`
(the core's `&`, `|`, `^`, `~` kernels), the shifts `bitwise_left_shift`/`bitwise_right_shift`
(`<<`, `>>`), their Tensor methods, in-place forms (`x.bitwise_and_(y)`, `x &= y`, `x <<= 1`)
and `out=`. Integer and bool tensors only (no shifts of bools), as PyTorch's CPU kernels:
float ones raise its NotImplementedError. No op here is differentiable (no integer tensor
requires grad)."""
import builtins

from . import _core, _out
from ._core import Tensor

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift", "bitwise_right_shift"]

_NUMBER = (builtins.bool, builtins.int, builtins.float, builtins.complex)
_core_invert = None  # the core's `~` (Tensor.__invert__ refuses floats first, as PyTorch's operator)


def _kernel(fn):
    """`fn()`, a core kernel's refusal of a dtype raised as PyTorch raises it
    (NotImplementedError: `"bitwise_xor_cpu" not implemented for 'Float'`)."""
    try:
        return fn()
    except RuntimeError as e:
        if " not implemented for '" in str(e) and not isinstance(e, NotImplementedError):
            raise NotImplementedError(str(e)) from None
        raise


def _invalid(name, args):
    got = ", ".join("Tensor" if isinstance(a, Tensor) else type(a).__name__ for a in args)
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one of:")


def _binary_args(name, input, other):
    """PyTorch's overloads: (Tensor, Tensor), (Tensor, Number), (Number, Tensor)."""
    ok = (isinstance(input, Tensor) and isinstance(other, (Tensor, *_NUMBER))) or \
        (isinstance(input, _NUMBER) and isinstance(other, Tensor))
    if not ok:
        raise _invalid(name, (input, other))


_SPEC = _out.Spec(None, _out.CAST, overloaded=True)


def _logical(name, method, rmethod):
    def f(input, other, *, out=None):
        _binary_args(name, input, other)
        if isinstance(input, Tensor):
            compute = lambda: _kernel(lambda: getattr(Tensor, method)(input, other))  # noqa: E731
        else:
            compute = lambda: _kernel(lambda: getattr(Tensor, rmethod)(other, input))  # noqa: E731
        if out is not None:
            return _out.write(name, _SPEC, compute, _out.tensors((input, other)), out, (input, other))
        return compute()

    f.__name__ = f.__qualname__ = name
    return f


bitwise_and = _logical("bitwise_and", "__and__", "__rand__")
bitwise_or = _logical("bitwise_or", "__or__", "__ror__")
bitwise_xor = _logical("bitwise_xor", "__xor__", "__rxor__")
bitwise_and.__doc__ = """The bitwise AND of integer or bool tensors (or a tensor and a number): `input & other`.

    >>> torch.bitwise_and(torch.tensor([12, 10, -3]), torch.tensor([10, 6, 5]))
    tensor([8, 2, 5])
    """
bitwise_or.__doc__ = """The bitwise OR of integer or bool tensors (or a tensor and a number): `input | other`.

    >>> torch.bitwise_or(torch.tensor([True, False]), torch.tensor([False, False]))
    tensor([ True, False])
    """
bitwise_xor.__doc__ = """The bitwise XOR of integer or bool tensors (or a tensor and a number): `input ^ other`.

    >>> torch.bitwise_xor(torch.tensor([12, 10, -3]), 2)
    tensor([14,  8, -1])
    """


def bitwise_not(input, *, out=None):
    """The bitwise NOT of an integer tensor (logical NOT of a bool one): `~input`.

    >>> torch.bitwise_not(torch.tensor([12, 0, -3]))
    tensor([-13,  -1,   2])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"bitwise_not(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    compute = lambda: _kernel(lambda: _core_invert(input))  # noqa: E731
    if out is not None:
        return _out.write("bitwise_not", _out.Spec(None, _out.FOUND), compute, [input], out)
    return compute()


# ------------------------------------------------------------------------------------------------
# Shifts: computed by numpy on the host in the result dtype's unsigned twin (C++'s wrapping left
# shift), with PyTorch's rules for a shift outside [0, bits): 0 to the left, the sign to the right.

_UNSIGNED = {"int8": "uint8", "int16": "uint16", "int32": "uint32", "int64": "uint64", "uint8": "uint8"}


def _result_dtype(a, b):
    from ._dtypes import result_type

    return result_type(a, b)


def _host(x, dtype):
    """`x` (tensor or number) as a numpy array of `dtype`'s numpy type."""
    import numpy as np

    if isinstance(x, Tensor):
        return np.asarray(x.detach().cpu()._to_dtype(dtype).numpy())
    return np.asarray(x).astype(np.dtype(dtype._name))


def _shift(name, a, b, left):
    import numpy as np

    dt = _result_dtype(a, b)
    if dt.is_floating_point or dt.is_complex or dt is _core.bool or dt._name in ("uint16", "uint32", "uint64"):
        kernel = "lshift_cpu" if left else "rshift_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_out.scalar_name(dt)}'")
    shape = _broadcast(a, b)
    x = _host(a, dt)
    s = _host(b, dt if isinstance(b, Tensor) else _core.int64).astype(np.int64)
    x, s = np.broadcast_arrays(x, s)
    bits = x.dtype.itemsize * 8
    inside = (s >= 0) & (s < bits)
    if left:
        u = x.astype(_UNSIGNED[dt._name])
        shifted = (u << np.where(inside, s, 0).astype(u.dtype)).astype(x.dtype)
        r = np.where(inside, shifted, np.zeros_like(x))
    else:
        shifted = x >> np.where(inside, s, 0).astype(x.dtype)
        fill = np.zeros_like(x) if dt._name == "uint8" else x >> (bits - 1)
        r = np.where(inside, shifted, fill)
    t = _core.from_numpy(np.ascontiguousarray(r.astype(x.dtype).reshape(shape))).clone()
    dev = next((v.device for v in (a, b) if isinstance(v, Tensor)), None)
    return t if dev is None or dev.type == "cpu" else t.to(dev)


def _broadcast(a, b):
    """The broadcast shape, with PyTorch's error for shapes that do not broadcast."""
    shapes = [tuple(v.shape) for v in (a, b) if isinstance(v, Tensor)]
    if len(shapes) == 1:
        return shapes[0]
    zero = [_core._full(s, 0, _core.bool) for s in shapes]
    return tuple((zero[0] | zero[1]).shape)


def _shift_fn(name, left):
    def f(input, other, *, out=None):
        _binary_args(name, input, other)
        compute = lambda: _shift(name, input, other, left)  # noqa: E731
        if out is not None:
            return _out.write(name, _SPEC, compute, _out.tensors((input, other)), out, (input, other))
        return compute()

    f.__name__ = f.__qualname__ = name
    return f


bitwise_left_shift = _shift_fn("bitwise_left_shift", True)
bitwise_right_shift = _shift_fn("bitwise_right_shift", False)
bitwise_left_shift.__doc__ = """`input << other` elementwise for integer tensors (or a tensor and a number):
    the bits wrap within the dtype, a shift outside [0, bits) gives 0.

    >>> torch.bitwise_left_shift(torch.tensor([1, -3, 5]), torch.tensor([2, 1, 0]))
    tensor([ 4, -6,  5])
    """
bitwise_right_shift.__doc__ = """`input >> other` elementwise for integer tensors (or a tensor and a number),
    arithmetic (the sign fills in); a shift outside [0, bits) leaves only the sign (0 or -1).

    >>> torch.bitwise_right_shift(torch.tensor([16, -16, 5]), 2)
    tensor([ 4, -4,  1])
    """


# ------------------------------------------------------------------------------------------------
# Tensor methods, in-place forms and operators.

def _inplace(name, op):
    """`self.<name>_(other)`: `op(self, other)` written into self, with PyTorch's errors when
    the result's dtype cannot be cast to self's or its shape is not self's."""
    def method(self, other):
        r = op(self, other)
        if not _out.can_cast(r.dtype, self.dtype):
            raise RuntimeError(f"result type {_out.scalar_name(r.dtype)} can't be cast to the desired output type "
                               f"{_out.scalar_name(self.dtype)}")
        if tuple(r.shape) != tuple(self.shape):
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                               f"{list(r.shape)}")
        return self.copy_(r)

    method.__name__ = method.__qualname__ = name + "_"
    return method


def _float_first(name, self, other):
    """In place, PyTorch checks the cast before the kernel's dtype."""
    from ._dtypes import result_type

    if isinstance(other, (Tensor, *_NUMBER)):
        r = result_type(self, other)
        if not _out.can_cast(r, self.dtype):
            raise RuntimeError(f"result type {_out.scalar_name(r)} can't be cast to the desired output type "
                               f"{_out.scalar_name(self.dtype)}")


def _raising_as_pytorch(core):
    """The core's operator, its dtype refusal raised as PyTorch's NotImplementedError."""
    def op(self, value, /):
        return _kernel(lambda: core(self, value))

    op.__name__ = op.__qualname__ = core.__name__
    op.__doc__ = core.__doc__
    return op


def _install():
    T = Tensor
    for dunder in ("__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__"):
        setattr(T, dunder, _raising_as_pytorch(getattr(T, dunder)))
    global _core_invert
    invert = _core_invert = T.__invert__

    def __invert__(self, /):
        if self.dtype.is_floating_point or self.dtype.is_complex:
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return _kernel(lambda: invert(self))

    __invert__.__doc__ = invert.__doc__
    T.__invert__ = __invert__
    ops = {"bitwise_and": bitwise_and, "bitwise_or": bitwise_or, "bitwise_xor": bitwise_xor,
           "bitwise_left_shift": bitwise_left_shift, "bitwise_right_shift": bitwise_right_shift}
    def _method(fn):
        def method(self, other):
            return fn(self, other)

        return method

    for name, fn in ops.items():
        method = _method(fn)
        method.__name__ = method.__qualname__ = name
        method.__doc__ = f"`torch.{name}(self, other)`."
        setattr(T, name, method)
        inplace = _inplace(name, lambda self, other, fn=fn, name=name: (_float_first(name, self, other),
                                                                          fn(self, other))[1])
        inplace.__doc__ = f"`torch.{name}(self, other)` written into self."
        setattr(T, name + "_", inplace)

    def not_(self):
        """`~self` written into self."""
        return self.copy_(bitwise_not(self))

    T.bitwise_not = lambda self: bitwise_not(self)
    T.bitwise_not_ = not_
    T.__iand__ = T.bitwise_and_
    T.__ior__ = T.bitwise_or_
    T.__ixor__ = T.bitwise_xor_
    T.__lshift__ = lambda self, other: bitwise_left_shift(self, other)
    T.__rshift__ = lambda self, other: bitwise_right_shift(self, other)
    T.__rlshift__ = lambda self, other: bitwise_left_shift(other, self)
    T.__rrshift__ = lambda self, other: bitwise_right_shift(other, self)
    T.__ilshift__ = T.bitwise_left_shift_
    T.__irshift__ = T.bitwise_right_shift_


_install()
