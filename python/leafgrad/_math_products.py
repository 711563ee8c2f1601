"""Vector and matrix products that leafgrad lacked: `inner`, `vdot`, `ger`/`outer`, and
`beta * input + alpha * (product)`: `addmv`, `addr`, `baddbmm`, `addbmm` and the Tensor methods
`addmm`/`addmm_`, with their in-place forms. `inner` and `ger`/`outer` are composed as PyTorch
composes them (a `tensordot` of the last dims; a column times a row), so the graph is PyTorch's;
`vdot` and the `add*` ops record one node with PyTorch's name, the `add*` values as PyTorch's BLAS
kernels compute them (input ignored, NaN included, when beta is 0; the factors of 1 left out) and
their gradients PyTorch's formulas (`_node`)."""
import builtins

from . import _core
from ._core import Tensor
from ._op_helpers import _torch, _scalar_name, _check_tensor, _inplace, _node, _bilinear_unread, _with_out, _result_dtype, _install

__all__ = [
    "inner", "vdot", "ger", "addmv", "addmv_", "addr", "baddbmm", "addbmm",
]


def inner(input, other, *, out=None):
    """The inner product over the last dims (the product when either is 0-d), as PyTorch
    composes it: a `tensordot` of the last dims.

    >>> torch.inner(torch.tensor([1., 2., 3.]), torch.tensor([4., 5., 6.]))
    tensor(32.)
    >>> torch.inner(torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([[1., 0.], [0., 1.]]))
    tensor([[1., 2.],
            [3., 4.]])
    """
    _check_tensor("inner", "input", 1, input)
    _check_tensor("inner", "other", 2, other)

    def compute():
        if input.dim() == 0 or other.dim() == 0:
            return input * other
        if input.shape[-1] != other.shape[-1]:
            raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                               f"{list(input.shape)} and {list(other.shape)}")
        if input.dtype != other.dtype:
            raise RuntimeError("both inputs should have same dtype")
        return _torch().tensordot(input, other, ([-1], [-1]))

    from . import _out

    return _with_out("inner", None, compute, (input, other), out, _out.EXPECTED) if out is not None else compute()


def _vdot(input, other):
    _check_tensor("vdot", "input", 1, input)
    _check_tensor("vdot", "other", 2, other)
    if input.dim() != 1 or other.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {other.dim()}D tensors")
    if input.dtype != other.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {_scalar_name(input.dtype)} "
                           f"and {_scalar_name(other.dtype)}")
    if input.numel() != other.numel():
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{input.numel()}] and src [{other.numel()}] "
                           f"to have the same number of elements, but got {input.numel()} and {other.numel()} "
                           "elements respectively")
    # bilinear: each operand is read only for the other's gradient (as PyTorch saves them)
    unread = [i for i, o in ((0, other), (1, input)) if not o.requires_grad]
    if input.is_complex():
        return _core._composite("VdotBackward0", lambda a, b: a.conj().dot(b), [input, other], unread)
    return _core._composite("VdotBackward0", lambda a, b: a.dot(b), [input, other], unread)


def vdot(input, other, *, out=None):
    """The dot product of two 1-d tensors of one dtype, the first conjugated (VdotBackward0).

    >>> torch.vdot(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    tensor(11.)
    >>> torch.vdot(torch.tensor([1 + 2j]), torch.tensor([3 - 1j]))
    tensor(1.-7.j)
    """
    from . import _out

    return _with_out("vdot", "vdot", lambda: _vdot(input, other), (input, other), out, _out.EXPECTED)


def _outer(input, vec2):
    _check_tensor("outer", "vec2", 1, vec2)
    if input.dim() != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {input.dim()}-D")
    if vec2.dim() != 1:
        raise RuntimeError(f"outer: Expected 1-D argument vec2, but got {vec2.dim()}-D")
    return input.reshape(input.shape[0], 1) * vec2


def ger(input, vec2, *, out=None):
    """An alias of `outer`: the outer product of two vectors (`input[i] * vec2[j]`).

    >>> torch.ger(torch.tensor([1., 2.]), torch.tensor([1., 10., 100.]))
    tensor([[  1.,  10., 100.],
            [  2.,  20., 200.]])
    """
    _check_tensor("ger", "input", 1, input)
    if out is not None:
        from ._out import warn

        warn("torch.ger is deprecated and will be removed in a future PyTorch release. Use torch.outer instead. "
             "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:1264.)")
    return _with_out("ger", "mul", lambda: _outer(input, vec2), (input, vec2), out)


def _outer_method(self, vec2):
    """The outer product of two vectors (`self[i] * vec2[j]`, MulBackward0).

    >>> torch.tensor([1., 2.]).outer(torch.tensor([3., 4.]))
    tensor([[3., 4.],
            [6., 8.]])
    """
    return _outer(self, vec2)


def _ger_method(self, vec2):
    """An alias of `outer`.

    >>> torch.tensor([1., 2.]).ger(torch.tensor([3., 4.]))
    tensor([[3., 4.],
            [6., 8.]])
    """
    return _outer(self, vec2)


# ------------------------------------------------------------------------------------------------
# beta * input + alpha * (products)


def _check_scalars(dtype, beta, alpha):
    """PyTorch's check of `addr`'s scalars: no floats (nor complex numbers) for integral and
    bool results, no complex numbers for real ones."""
    real = not dtype.is_complex
    for name, v in (("beta", beta), ("alpha", alpha)):
        if not (dtype.is_floating_point or dtype.is_complex) and isinstance(v, (builtins.float, builtins.complex)):
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating point number.")
        if real and isinstance(v, builtins.complex):
            _blas_scalars(dtype, v, 1)


def _blas_scalars(dtype, beta, alpha):
    """beta and alpha as the matrix-product kernels take them: converted to the dtype (truncated
    for integers; a complex number refused for real dtypes)."""
    if not dtype.is_complex:
        for v in (beta, alpha):
            if isinstance(v, builtins.complex):
                from ._out import CPP

                raise RuntimeError(f"value cannot be converted to type {CPP[dtype._name]} without overflow")
    if not (dtype.is_floating_point or dtype.is_complex):
        return builtins.int(beta), builtins.int(alpha)
    return beta, alpha


def _scaled_sum(input, product, beta, alpha):
    """`beta * input + alpha * product` as the BLAS kernels compute it: `input` ignored (NaN
    and inf not spread) when beta is 0, the factors of 1 left out."""
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return product
    if beta != 1:
        input = input * beta
    return input + product


def _blas_node(name, input, args, product, beta, alpha, shape):
    """One node `name` over (input, *args): `beta * input + alpha * product(*args)`, input
    broadcast to `shape`."""
    beta, alpha = _blas_scalars(input.dtype, beta, alpha)

    def exact(x, *ms):
        return _scaled_sum(x.expand(shape), product(*ms), beta, alpha)

    def formula(x, *ms):
        # the gradient `beta * grad` to input also when beta is 0 (PyTorch's zeros)
        return x.expand(shape) * beta + product(*ms) * alpha

    return _node(name, exact, formula, [input, *args], _bilinear_unread([input, *args], 1))


def _expand_check(input, shape):
    """PyTorch's error when `input` does not broadcast to `shape` (its `expand`)."""
    input.expand(shape)


def _size(t, d):
    """`t.size(d)` with PyTorch's IndexError for a dim out of range."""
    n = t.dim()
    if n == 0:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    if not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return t.shape[d]


def _addmv(fname, input, mat, vec, beta, alpha):
    for name, pos, v in (("input", 1, input), ("mat", 2, mat), ("vec", 3, vec)):
        _check_tensor(fname, name, pos, v)
    if not (mat.dim() == 2 and vec.dim() == 1 and input.dim() <= 1):
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.dim()}, {mat.dim()}, {vec.dim()}")
    if mat.shape[1] != vec.shape[0] or not (mat.shape[0] == input.numel() or input.numel() == 1):
        raise RuntimeError(f"size mismatch, got input ({_size(input, 0)}), mat ({mat.shape[0]}x{mat.shape[1]}), "
                           f"vec ({vec.shape[0]})")
    if not input.dtype == mat.dtype == vec.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_scalar_name(input.dtype)}, "
                           f"{_scalar_name(mat.dtype)}, and {_scalar_name(vec.dtype)}")
    return _blas_node("AddmvBackward0", input, [mat, vec], lambda m, v: m.mv(v), beta, alpha, (mat.shape[0],))


def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    """`beta * input + alpha * (mat @ vec)` (input ignored, NaN included, when beta is 0)
    (AddmvBackward0).

    >>> torch.addmv(torch.tensor([1., 1.]), torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([1., 1.]))
    tensor([4., 8.])
    """
    from . import _out

    return _with_out("addmv", "addmv", lambda: _addmv("addmv", input, mat, vec, beta, alpha), (input, mat, vec), out,
                     _out.EXPECTED)


def _addmv_method(self, mat, vec, *, beta=1, alpha=1):
    """`torch.addmv(self, mat, vec, beta=beta, alpha=alpha)`.

    >>> torch.tensor([1., 1.]).addmv(torch.eye(2), torch.tensor([2., 3.]), alpha=2)
    tensor([5., 7.])
    """
    return _addmv("addmv", self, mat, vec, beta, alpha)


def _bad_inplace_size(self, shape):
    if tuple(self.shape) != tuple(shape):
        raise RuntimeError(f"Bad in-place call: input tensor size {list(self.shape)} and output tensor size "
                           f"{list(shape)} should match")


def addmv_(input, mat, vec, *, beta=1, alpha=1):
    """`torch.addmv(input, mat, vec, beta=beta, alpha=alpha)` written into `input` (of the
    result's shape).

    >>> x = torch.tensor([1., 1.])
    >>> torch.addmv_(x, torch.eye(2), torch.tensor([2., 3.]))
    tensor([3., 4.])
    """
    _check_tensor("addmv_", "input", 1, input)
    if isinstance(mat, Tensor) and mat.dim() == 2:
        _bad_inplace_size(input, (mat.shape[0],))
    return _inplace(input, lambda s: _addmv("addmv_", s, mat, vec, beta, alpha), mat, vec)


def _addr(fname, input, vec1, vec2, beta, alpha):
    for name, pos, v in (("input", 1, input), ("vec1", 2, vec1), ("vec2", 3, vec2)):
        _check_tensor(fname, name, pos, v)
    if vec1.dim() != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec1, but got {vec1.dim()}-D")
    if vec2.dim() != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec2, but got {vec2.dim()}-D")
    shape = (vec1.shape[0], vec2.shape[0])
    _expand_check(input, shape)
    dt = _result_dtype(input, vec1, vec2)
    _check_scalars(dt, beta, alpha)
    torch = _torch()
    if dt is _core.bool:
        # PyTorch's kernel for bools: (beta and input) or (alpha and vec1[i] and vec2[j])
        r = torch.logical_and(vec1.unsqueeze(1), vec2) if alpha else torch.zeros(shape, dtype=torch.bool)
        return torch.logical_or(input.expand(shape), r) if beta else r.expand(shape).clone()

    def exact(x, a, b):
        # PyTorch's kernel: beta * input + alpha * vec1[i] * vec2[j] (alpha times vec1 first)
        a = a.to(dt)
        p = (a * alpha if alpha != 1 else a).unsqueeze(1) * b.to(dt)
        if beta == 0:
            return p
        x = x.to(dt)
        return (x * beta if beta != 1 else x).expand(shape) + p

    def formula(x, a, b):
        return x.expand(shape) * beta + a.unsqueeze(1) * b * alpha

    return _node("AddrBackward0", exact, formula, [input, vec1, vec2], _bilinear_unread([input, vec1, vec2], 1))


def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    """`beta * input + alpha * outer(vec1, vec2)` (input broadcast; ignored, NaN included,
    when beta is 0) (AddrBackward0).

    >>> torch.addr(torch.zeros(2, 2), torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    tensor([[3., 4.],
            [6., 8.]])
    """
    return _with_out("addr", "addr", lambda: _addr("addr", input, vec1, vec2, beta, alpha), (input, vec1, vec2), out)


def _addr_method(self, vec1, vec2, *, beta=1, alpha=1):
    """`torch.addr(self, vec1, vec2, beta=beta, alpha=alpha)`.

    >>> torch.ones(2, 2).addr(torch.tensor([1., 2.]), torch.tensor([3., 4.]), beta=2)
    tensor([[ 5.,  6.],
            [ 8., 10.]])
    """
    return _addr("addr", self, vec1, vec2, beta, alpha)


def _addr_(self, vec1, vec2, *, beta=1, alpha=1):
    """`torch.addr(self, vec1, vec2, beta=beta, alpha=alpha)` written into `self`.

    >>> x = torch.zeros(2, 2)
    >>> x.addr_(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    tensor([[3., 4.],
            [6., 8.]])
    """
    if isinstance(vec1, Tensor) and isinstance(vec2, Tensor) and vec1.dim() == 1 and vec2.dim() == 1 and \
            tuple(self.shape) != (vec1.shape[0], vec2.shape[0]):
        raise RuntimeError(f"size mismatch, input: {list(self.shape)}, v1: {list(vec1.shape)}, v2: "
                           f"{list(vec2.shape)}")
    return _inplace(self, lambda s: _addr("addr_", s, vec1, vec2, beta, alpha), vec1, vec2)


def _baddbmm(fname, input, batch1, batch2, beta, alpha):
    for name, pos, v in (("input", 1, input), ("batch1", 2, batch1), ("batch2", 3, batch2)):
        _check_tensor(fname, name, pos, v)
    if input.dtype != batch1.dtype:
        from ._out import CPP

        raise RuntimeError(f"Input dtypes must be the same, got: input {CPP[input.dtype._name]}, batch1: "
                           f"{CPP[batch1.dtype._name]}, batch2: {CPP[batch2.dtype._name]}")
    shape = (_size(batch1, 0), _size(batch1, 1), _size(batch2, 2))
    _expand_check(input, shape)
    if batch1.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if batch2.dim() != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    b, k = batch1.shape[0], batch1.shape[2]
    if tuple(batch2.shape[:2]) != (b, k):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {k}] but got: "
                           f"[{batch2.shape[0]}, {batch2.shape[1]}].")
    if batch2.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(input.dtype)} but found {_scalar_name(batch2.dtype)}")
    return _blas_node("BaddbmmBackward0", input, [batch1, batch2], lambda m1, m2: m1.bmm(m2), beta, alpha, shape)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """`beta * input + alpha * (batch1 @ batch2)` for batches of matrices (input broadcast;
    ignored when beta is 0) (BaddbmmBackward0).

    >>> torch.baddbmm(torch.ones(1, 2, 2), torch.ones(1, 2, 3), torch.ones(1, 3, 2))
    tensor([[[4., 4.],
             [4., 4.]]])
    """
    from . import _out

    return _with_out("baddbmm", "baddbmm", lambda: _baddbmm("baddbmm", input, batch1, batch2, beta, alpha),
                     (input, batch1, batch2), out, _out.EXPECTED)


def _baddbmm_method(self, batch1, batch2, *, beta=1, alpha=1):
    """`torch.baddbmm(self, batch1, batch2, beta=beta, alpha=alpha)`.

    >>> torch.zeros(1, 1, 1).baddbmm(torch.ones(1, 1, 2), torch.ones(1, 2, 1), alpha=3)
    tensor([[[6.]]])
    """
    return _baddbmm("baddbmm", self, batch1, batch2, beta, alpha)


def _baddbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    """`torch.baddbmm(self, batch1, batch2, beta=beta, alpha=alpha)` written into `self` (of the
    result's shape).

    >>> x = torch.ones(1, 1, 1)
    >>> x.baddbmm_(torch.ones(1, 1, 2), torch.ones(1, 2, 1))
    tensor([[[3.]]])
    """
    if isinstance(batch1, Tensor) and isinstance(batch2, Tensor) and batch1.dim() == 3 and batch2.dim() == 3:
        _bad_inplace_size(self, (batch1.shape[0], batch1.shape[1], batch2.shape[2]))
    return _inplace(self, lambda s: _baddbmm("baddbmm_", s, batch1, batch2, beta, alpha), batch1, batch2)


def _addbmm(fname, input, batch1, batch2, beta, alpha):
    for name, pos, v in (("input", 1, input), ("batch1", 2, batch1), ("batch2", 3, batch2)):
        _check_tensor(fname, name, pos, v)
    shape = (_size(batch1, 1), _size(batch2, 2))
    _expand_check(input, shape)
    if batch1.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if batch2.dim() != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if batch1.shape[0] != batch2.shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {batch1.shape[0]} and "
                           f"{batch2.shape[0]}")
    if batch1.shape[2] != batch2.shape[1]:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({batch1.shape[1]}x{batch1.shape[2]} and "
                           f"{batch2.shape[1]}x{batch2.shape[2]})")
    _mm_dtypes(input, batch1, batch2)
    torch = _torch()
    beta, alpha = _blas_scalars(input.dtype, beta, alpha)

    def exact(x, b1, b2):
        # PyTorch's kernel: one addmm per batch, beta applied with the first only
        r = x.expand(shape)
        if b1.shape[0] == 0:
            return r * beta if beta != 0 else torch.zeros(shape, dtype=x.dtype, device=x.device)
        for i in builtins.range(b1.shape[0]):
            r = _scaled_sum(r, b1[i].mm(b2[i]), beta if i == 0 else 1, alpha)
        return r

    def formula(x, b1, b2):
        return x.expand(shape) * beta + b1.bmm(b2).sum(0) * alpha

    return _node("AddbmmBackward0", exact, formula, [input, batch1, batch2],
                 _bilinear_unread([input, batch1, batch2], 1))


def _mm_dtypes(input, mat1, mat2):
    if input.dtype != mat2.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {_scalar_name(input.dtype)} and "
                           f"{_scalar_name(mat2.dtype)}")
    if mat1.dtype != mat2.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_scalar_name(mat1.dtype)} and "
                           f"{_scalar_name(mat2.dtype)}")


def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """`beta * input + alpha * sum_i(batch1[i] @ batch2[i])` (input broadcast; ignored when
    beta is 0) (AddbmmBackward0).

    >>> torch.addbmm(torch.zeros(2, 2), torch.ones(3, 2, 1), torch.ones(3, 1, 2))
    tensor([[3., 3.],
            [3., 3.]])
    """
    from . import _out

    return _with_out("addbmm", "addbmm", lambda: _addbmm("addbmm", input, batch1, batch2, beta, alpha),
                     (input, batch1, batch2), out, _out.EXPECTED)


def _addbmm_method(self, batch1, batch2, *, beta=1, alpha=1):
    """`torch.addbmm(self, batch1, batch2, beta=beta, alpha=alpha)`.

    >>> torch.ones(1, 1).addbmm(torch.ones(2, 1, 1), torch.ones(2, 1, 1), beta=0)
    tensor([[2.]])
    """
    return _addbmm("addbmm", self, batch1, batch2, beta, alpha)


def _addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    """`torch.addbmm(self, batch1, batch2, beta=beta, alpha=alpha)` written into `self`.

    >>> x = torch.ones(1, 1)
    >>> x.addbmm_(torch.ones(2, 1, 1), torch.ones(2, 1, 1))
    tensor([[3.]])
    """
    return _inplace(self, lambda s: _addbmm("addbmm_", s, batch1, batch2, beta, alpha), batch1, batch2)


def _addmm(fname, input, mat1, mat2, beta, alpha):
    for name, pos, v in (("input", 1, input), ("mat1", 2, mat1), ("mat2", 3, mat2)):
        _check_tensor(fname, name, pos, v)
    if mat1.dim() != 2:
        raise RuntimeError(f"addmm: self must be a matrix, got {mat1.dim()}-D tensor")
    if mat2.dim() != 2:
        raise RuntimeError(f"addmm: mat2 must be a matrix, got {mat2.dim()}-D tensor")
    if mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"addmm: mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x{mat1.shape[1]} and "
                           f"{mat2.shape[0]}x{mat2.shape[1]})")
    _mm_dtypes(input, mat1, mat2)
    shape = (mat1.shape[0], mat2.shape[1])
    _expand_check(input, shape)
    if beta == 1 and alpha == 1 and not isinstance(beta, builtins.bool) and not isinstance(alpha, builtins.bool):
        return _core._addmm(input, mat1, mat2)
    return _blas_node("AddmmBackward0", input, [mat1, mat2], lambda a, b: a.mm(b), beta, alpha, shape)


def _addmm_method(self, mat1, mat2, *, beta=1, alpha=1):
    """`beta * self + alpha * (mat1 @ mat2)` (self broadcast; ignored when beta is 0)
    (AddmmBackward0).

    >>> torch.ones(2, 2).addmm(torch.eye(2), torch.tensor([[1., 2.], [3., 4.]]), alpha=2)
    tensor([[3., 5.],
            [7., 9.]])
    """
    return _addmm("addmm", self, mat1, mat2, beta, alpha)


def _addmm_(self, mat1, mat2, *, beta=1, alpha=1):
    """`self.addmm(mat1, mat2, beta=beta, alpha=alpha)` written into `self` (of the result's
    shape).

    >>> x = torch.ones(2, 2)
    >>> x.addmm_(torch.eye(2), torch.tensor([[1., 2.], [3., 4.]]))
    tensor([[2., 3.],
            [4., 5.]])
    """
    if isinstance(mat1, Tensor) and isinstance(mat2, Tensor) and mat1.dim() == 2 and mat2.dim() == 2:
        _bad_inplace_size(self, (mat1.shape[0], mat2.shape[1]))
    return _inplace(self, lambda s: _addmm("addmm_", s, mat1, mat2, beta, alpha), mat1, mat2)


# Tensor methods: PyTorch's name -> the function here (those with `input` first serve as methods
# as they are).
_METHODS = {
    "inner": inner, "vdot": vdot, "ger": _ger_method, "outer": _outer_method, "addmv": _addmv_method,
    "addmv_": addmv_, "addr": _addr_method, "addr_": _addr_, "baddbmm": _baddbmm_method, "baddbmm_": _baddbmm_,
    "addbmm": _addbmm_method, "addbmm_": _addbmm_, "addmm": _addmm_method, "addmm_": _addmm_,
}

_install(_METHODS)
