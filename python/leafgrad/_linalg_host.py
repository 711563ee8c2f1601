"""The decompositions behind `torch.linalg`: LAPACK through numpy on the host, one autograd
node per op with PyTorch's name, and backward formulas written with leafgrad's own
(differentiable) ops, so gradients of gradients work.

Every factorization runs in double precision (complex128 for complex inputs), as numpy's
LAPACK wrappers do, and is rounded to the input's dtype; CUDA inputs are copied to the host
and their results copied back; meta inputs give meta results of the right shapes (the
computation then runs on identity matrices of those shapes, which never fail).

The LAPACK calls and host arrays are in `_linalg_lapack`; forward-mode AD (`_linalg_jvp`)
computes the tangents on the host too, from the same formulas' differentials.

The backward formulas are the standard matrix-calculus results (Giles, "An extended
collection of matrix derivative results", 2008; Townsend's SVD notes; Mathias's block-matrix
rule for the matrix exponential), arranged as PyTorch arranges them where that changes a
value (det at singular matrices, the skew projections of eigh/svd/qr).
"""
import numpy as np

from . import _linalg_faer as _faer
from ._linalg_jvp import JVPS, forward_ad_save
from ._linalg_lapack import (  # noqa: F401  (linalg.py reaches these as _linalg_host.<name>)
    LSTSQ_DRIVERS, LinAlgError, _torch, batch_prefix, check_finite_svd, cholesky, det, eigh, expm, host,
    inverse, lstsq, make, pinv, scalar_name, solve, svd, svdvals, tolerances, trisolve, zero_det_sign,
)

# ----------------------------------------------------------------------------------------------
# Tensor helpers for the backward formulas (all differentiable leafgrad ops)


def mH(x):
    return x.mT.conj() if x.is_complex() else x.mT


def make_f_order(arr, dtype, device):
    """`make`, its matrices laid out column by column as LAPACK leaves PyTorch's results (so
    that reshaping them is a view of a non-contiguous tensor, as in PyTorch)."""
    t = make(arr, dtype, device)
    if t.dim() < 2 or t.is_meta:
        return t
    n = t.dim()
    shape = tuple(t.shape)
    strides = [0] * n
    step = 1
    for d in [n - 2, n - 1] + list(range(n - 3, -1, -1)):
        strides[d] = step
        step *= max(shape[d], 1)
    out = _torch().empty_strided(shape, tuple(strides), dtype=dtype, device=device)
    return out.copy_(t)


def sum_to(g, shape):
    """`g` summed over the dims that broadcasting added to `shape`."""
    shape = tuple(shape)
    if tuple(g.shape) == shape:
        return g
    lead = g.dim() - len(shape)
    if lead:
        g = g.sum(tuple(range(lead)))
    dims = tuple(i for i, (a, b) in enumerate(zip(g.shape, shape)) if b == 1 and a != 1)
    if dims:
        g = g.sum(dims, keepdim=True)
    return g


def eye_like(x, n):
    return _torch().eye(n, dtype=x.dtype, device=x.device)


def _linalg():
    from . import linalg

    return linalg


# ----------------------------------------------------------------------------------------------
# Autograd Functions: one node per op, named as PyTorch names it.

_FUNCTIONS = {}


def _node_repr(self):
    return f"<{type(self).__name__} object at {id(self):#x}>"


def function(key):
    """The autograd Function class `key` (made on first use: leafgrad.autograd imports late)."""
    cls = _FUNCTIONS.get(key)
    if cls is None:
        if not _DEFINED:
            _DEFINED.append(True)
            _define()
            from ._linalg_nodes import define

            define(op)
        cls = _FUNCTIONS[key]
    return cls


_DEFINED = []


def op(node_name, jvp=None, key=None):
    """Make the decorated class an autograd Function recording the node `node_name`, with the
    forward-mode rule `jvp` (by default `_linalg_jvp`'s rule of that name), found by
    `function(key)` (by default the node's name)."""
    from .autograd.function import Function

    def deco(cls):
        attrs = {k: v for k, v in vars(cls).items() if k not in ("__dict__", "__weakref__")}
        attrs.update(_node_name=node_name, generate_vmap_rule=True, jvp=staticmethod(jvp or JVPS[node_name]))
        cls = type(cls.__name__, (Function,), attrs)
        cls._backward_cls.__repr__ = _node_repr
        _FUNCTIONS[key or node_name] = cls
        return cls
    return deco


def _define():
    torch = _torch()
    L = _linalg()

    @op("LinalgInvExBackward0")
    class InvEx:
        @staticmethod
        def forward(ctx, A, check, name, f_order):
            a = host(A)
            x, info = inverse(a)
            if check and not A.is_meta:
                raise_inv_errors(name, info, A.dim() > 2)
            X = make_f_order(x, A.dtype, A.device) if f_order else make(x, A.dtype, A.device)
            info_t = make(info, torch.int32, A.device)
            ctx.mark_non_differentiable(info_t)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(X)
            forward_ad_save(ctx, X)
            return X, info_t

        @staticmethod
        def backward(ctx, g, _g_info):
            if g is None:
                return None, None, None, None
            (X,) = ctx.saved_tensors
            Xh = mH(X)
            return -(Xh @ g @ Xh), None, None, None

    @op("LinalgSolveExBackward0")
    class SolveEx:
        @staticmethod
        def forward(ctx, A, B, left, vector, check, name):
            a, b = host(A), host(B)
            if vector:
                b = b[..., None]
            if not left:
                a, b = np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)
            batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            a = np.broadcast_to(a, batch + a.shape[-2:])
            b = np.broadcast_to(b, batch + b.shape[-2:])
            x, info = solve(a, b)
            if not left:
                x = np.swapaxes(x, -1, -2)
            if vector:
                x = x[..., 0]
            if check and not (A.is_meta or B.is_meta):
                raise_solve_errors(name, info, len(batch) > 0)
            dtype = A.dtype
            X = make(x, dtype, A.device)
            info_t = make(info, torch.int32, A.device)
            ctx.mark_non_differentiable(info_t)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(A, X)
            forward_ad_save(ctx, A, X)
            ctx.left, ctx.vector = left, vector
            ctx.shapes = (tuple(A.shape), tuple(B.shape))
            return X, info_t

        @staticmethod
        def backward(ctx, g, _g_info):
            if g is None:
                return (None,) * 6
            A, X = ctx.saved_tensors
            a_shape, b_shape = ctx.shapes
            gB = L.solve(mH(A), g, left=ctx.left)
            gA = None
            if ctx.needs_input_grad[0]:
                if ctx.vector:
                    gA = -(gB.unsqueeze(-1) * X.unsqueeze(-2).conj())
                elif ctx.left:
                    gA = -(gB @ mH(X))
                else:
                    gA = -(mH(X) @ gB)
                gA = sum_to(gA, a_shape)
            gB = sum_to(gB, b_shape) if ctx.needs_input_grad[1] else None
            return gA, gB, None, None, None, None

    @op("LinalgDetBackward0")
    class Det:
        @staticmethod
        def forward(ctx, A):
            d = det(host(A))
            D = make(d, A.dtype, A.device)
            ctx.save_for_backward(A, D)
            forward_ad_save(ctx, A, D)
            ctx.set_materialize_grads(False)
            return D

        @staticmethod
        def backward(ctx, g):
            if g is None:
                return None
            A, D = ctx.saved_tensors
            if A.numel() == 0:
                return torch.zeros_like(A)
            if not torch.is_grad_enabled():
                return det_grad_host(g, D, A)
            return det_grad_graph(g, D, A)

    @op("LinalgSlogdetBackward0")
    class Slogdet:
        @staticmethod
        def forward(ctx, A):
            a = host(A)
            with np.errstate(all="ignore"):
                if a.shape[-1]:
                    sign, logabs = _faer.slogdet(a)
                    sign = np.where(sign == 0, zero_det_sign(a, sign == 0), sign)
                else:
                    sign, logabs = np.ones(a.shape[:-2], dtype=a.dtype), np.zeros(a.shape[:-2])
                if not A.is_complex():
                    sign = np.where(np.isnan(logabs), 0.0, sign)
            S = make(sign, A.dtype, A.device)
            La = make(logabs, A.dtype.to_real(), A.device)
            ctx.save_for_backward(A, S)
            forward_ad_save(ctx, A, S)
            ctx.set_materialize_grads(False)
            return S, La

        @staticmethod
        def backward(ctx, g_sign, g_logabs):
            A, S = ctx.saved_tensors
            complex_ = A.is_complex()
            if g_logabs is None and (g_sign is None or not complex_):
                return None
            g = g_logabs
            if complex_:
                g = g.to(A.dtype) if g is not None else None
                if g_sign is not None:
                    extra = -1j * (g_sign.conj() * S).imag
                    g = extra if g is None else g + extra
            n = A.shape[-1]
            d = torch.diag_embed(g.unsqueeze(-1).expand(*g.shape, n))
            return L.solve(mH(A), d)

    @op("LinalgCholeskyExBackward0")
    class CholeskyEx:
        @staticmethod
        def forward(ctx, A, upper, check, name):
            a = host(A)
            if upper:
                a = np.swapaxes(a, -1, -2).conj()
            low, info = cholesky(a)
            if check and not A.is_meta:
                raise_cholesky_errors(name, info, A.dim() > 2)
            if upper:
                low = np.swapaxes(low, -1, -2).conj()
            Lt = make(low, A.dtype, A.device)
            info_t = make(info, torch.int32, A.device)
            ctx.mark_non_differentiable(info_t)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(Lt)
            forward_ad_save(ctx, Lt)
            ctx.upper = upper
            return Lt, info_t

        @staticmethod
        def backward(ctx, gL, _g_info):
            if gL is None:
                return None, None, None, None
            (Lt,) = ctx.saved_tensors
            if ctx.upper:
                Lt, gL = mH(Lt), mH(gL)
            # A = L L^H: gA = L^{-H} Φ(L^H gL) L^{-1}, Φ taking the lower triangle with its
            # diagonal halved and symmetrising it
            P = (mH(Lt) @ gL).tril()
            P = 0.5 * (P + mH(P.tril(-1)))
            P = P if not P.is_complex() else P - 0.5j * torch.diag_embed(P.diagonal(0, -2, -1).imag)
            gA = L.solve_triangular(mH(Lt), P, upper=True)
            gA = L.solve_triangular(Lt, gA, upper=False, left=False)
            return gA, None, None, None

    @op("LinalgQrBackward0")
    class Qr:
        @staticmethod
        def forward(ctx, A, mode):
            a = host(A)
            m, n = a.shape[-2], a.shape[-1]
            with np.errstate(all="ignore"):
                if mode == "r":
                    r = _faer.qr(a, mode="r") if a.size else np.zeros(a.shape[:-2] + (min(m, n), n), a.dtype)
                    q = np.zeros((0,), dtype=a.dtype)
                else:
                    if a.size:
                        q, r = _faer.qr(a, mode=mode)
                    else:
                        k = m if mode == "complete" else min(m, n)
                        q = np.broadcast_to(np.eye(m, k, dtype=a.dtype), a.shape[:-2] + (m, k)).copy()
                        r = np.zeros(a.shape[:-2] + (k, n), dtype=a.dtype)
            Q, R = make(q, A.dtype, A.device), make(r, A.dtype, A.device)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(Q, R)
            forward_ad_save(ctx, Q, R)
            ctx.mode = mode
            return Q, R

        @staticmethod
        def backward(ctx, gQ, gR):
            mode = ctx.mode
            if mode == "r":
                raise RuntimeError(
                    "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
                    "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
            Q, R = ctx.saved_tensors
            m, n = Q.shape[-2], R.shape[-1]
            if mode == "complete" and m > n:
                raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
            if gQ is None and gR is None:
                return None, None
            if gQ is not None:
                M = -(mH(Q) @ gQ) if gR is None else gR @ mH(R) - mH(Q) @ gQ
            else:
                M = gR @ mH(R)
            if m >= n:
                T = M.triu()
                T = T + mH(T)
                diag = T.diagonal(0, -2, -1)
                T = T - 0.5 * torch.diag_embed(diag.real if T.is_complex() else diag)
                gA = Q @ T
                if gQ is not None:
                    gA = gA + gQ
                return L.solve_triangular(mH(R), gA, upper=False, left=False), None
            X = -M
            T = (X - mH(X)).tril()
            if T.is_complex():
                T = T - 0.5j * torch.diag_embed(T.diagonal(0, -2, -1).imag)
            gA = Q @ T
            gA = L.solve_triangular(mH(R.narrow(-1, 0, m)), gA, upper=False, left=False)
            gA = torch.cat([gA, gA.new_zeros(*gA.shape[:-1], n - m)], -1)
            if gR is not None:
                gA = gA + Q @ gR
            return gA, None

    @op("LinalgEighBackward0")
    class Eigh:
        @staticmethod
        def forward(ctx, A, uplo):
            w, v = eigh(host(A), uplo)
            W, V = make(w, A.dtype.to_real(), A.device), make(v, A.dtype, A.device)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(W, V)
            forward_ad_save(ctx, W, V)
            return W, V

        @staticmethod
        def backward(ctx, gW, gV):
            W, V = ctx.saved_tensors
            if gW is None and gV is None:
                return None, None
            if gV is None:
                return (V * gW.unsqueeze(-2).to(V.dtype)) @ mH(V), None
            VhgV = mH(V) @ gV
            if V.is_complex():
                im = VhgV.diagonal(0, -2, -1).imag
                if not torch.allclose(im, torch.zeros_like(im), rtol=1e-2, atol=1e-2):
                    raise RuntimeError(
                        "linalg_eigh_backward: The eigenvectors in the complex case are specified up to "
                        "multiplication by e^{i phi}. The specified loss function depends on this quantity, so it "
                        "is ill-defined.")
            VhgV = 0.5 * (VhgV - mH(VhgV))
            n = W.shape[-1]
            E = W.unsqueeze(-2) - W.unsqueeze(-1) + eye_like(W, n)
            ret = VhgV / E
            if gW is not None:
                ret = ret - torch.diag_embed(ret.diagonal(0, -2, -1)) + torch.diag_embed(gW).to(ret.dtype)
            return V @ ret @ mH(V), None

    @op("LinalgSvdBackward0")
    class Svd:
        @staticmethod
        def forward(ctx, A, full_matrices):
            a = host(A)
            if not A.is_meta:
                check_finite_svd(a, A.dim() > 2)
            u, s, vh = svd(a, full_matrices)
            U, S, Vh = make(u, A.dtype, A.device), make(s, A.dtype.to_real(), A.device), make(vh, A.dtype, A.device)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(U, S, Vh)
            forward_ad_save(ctx, U, S, Vh)
            ctx.full = full_matrices
            return U, S, Vh

        @staticmethod
        def backward(ctx, gU, gS, gVh):
            U, S, Vh = ctx.saved_tensors
            if ctx.full:
                k = S.shape[-1]
                U, Vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
                gU = None if gU is None else gU.narrow(-1, 0, k)
                gVh = None if gVh is None else gVh.narrow(-2, 0, k)
            return svd_backward(gU, gS, gVh, U, S, Vh), None

    @op("LinalgLstsqBackward0")
    class Lstsq:
        @staticmethod
        def forward(ctx, A, B, rcond, driver, vector):
            a, b = host(A), host(B)
            if vector:
                b = b[..., None]
            batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            a = np.broadcast_to(a, batch + a.shape[-2:])
            b = np.broadcast_to(b, batch + b.shape[-2:])
            x, res, rank, sv = lstsq(a, b, rcond, driver)
            if vector:
                x = x[..., 0]  # the residuals keep their trailing 1, as PyTorch's
            X = make(x, A.dtype, A.device)
            Res = make(res, A.dtype.to_real(), A.device)
            Rank = make(rank, torch.int64, A.device)
            Sv = make(sv, A.dtype.to_real(), A.device)
            ctx.mark_non_differentiable(Rank, Sv)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(A, B, X)
            forward_ad_save(ctx, A, B, X)
            ctx.vector = vector
            ctx.saved_shapes = (tuple(A.shape), tuple(B.shape))
            ctx.res_shape = res.size > 0
            return X, Res, Rank, Sv

        @staticmethod
        def backward(ctx, gX, gRes, _g_rank, _g_sv):
            A, B, X = ctx.saved_tensors
            if gRes is not None and gRes.numel() == 0:
                gRes = None
            if gX is None and gRes is None:
                return (None,) * 5
            vector = ctx.vector
            if vector:
                B, X = B.unsqueeze(-1), X.unsqueeze(-1)
                gX = None if gX is None else gX.unsqueeze(-1)
            gA = gB = None
            if gX is not None:
                pinvA = L.pinv(A)
                if ctx.needs_input_grad[0]:
                    gA = pinv_backward(gX @ mH(B), pinvA, A)
                if ctx.needs_input_grad[1]:
                    gB = mH(pinvA) @ gX
            if gRes is not None:
                r = A @ X - B
                w = gRes.unsqueeze(-2)
                if ctx.needs_input_grad[0]:
                    t = 2 * (w * r) @ mH(X)
                    gA = t if gA is None else gA + t
                if ctx.needs_input_grad[1]:
                    t = -2 * w * r
                    gB = t if gB is None else gB + t
            if gB is not None and vector:
                gB = gB.squeeze(-1)
            return (None if gA is None else sum_to(gA, ctx.saved_shapes[0]),
                    None if gB is None else sum_to(gB, ctx.saved_shapes[1]), None, None, None)

    @op("LinalgPinvBackward0")
    class Pinv:
        @staticmethod
        def forward(ctx, A, atol, rtol, hermitian):
            p = pinv(host(A), atol, rtol, hermitian)
            P = make(p, A.dtype, A.device)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(A, P)
            forward_ad_save(ctx, A, P)
            return P

        @staticmethod
        def backward(ctx, g):
            if g is None:
                return None, None, None, None
            A, P = ctx.saved_tensors
            return pinv_backward(g, P, A), None, None, None

    @op("LinalgMatrixExpBackward0")
    class MatrixExp:
        @staticmethod
        def forward(ctx, A):
            e = expm(host(A))
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(A)
            forward_ad_save(ctx, A)
            return make(e, A.dtype, A.device)

        @staticmethod
        def backward(ctx, g):
            if g is None:
                return None
            (A,) = ctx.saved_tensors
            n = A.shape[-1]
            Ah = mH(A)
            top = torch.cat([Ah, g], -1)
            bottom = torch.cat([torch.zeros_like(Ah), Ah], -1)
            big = L.matrix_exp(torch.cat([top, bottom], -2))
            return big.narrow(-2, 0, n).narrow(-1, n, n)

    @op("LinalgSolveTriangularBackward0")
    class SolveTriangular:
        @staticmethod
        def forward(ctx, A, B, upper, left, unit):
            a, b = host(A), host(B)
            batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            a = np.broadcast_to(a, batch + a.shape[-2:])
            b = np.broadcast_to(b, batch + b.shape[-2:])
            if left:
                x = trisolve(a, b, upper, unit)
            else:
                at = np.swapaxes(a, -1, -2)
                x = np.swapaxes(trisolve(at, np.swapaxes(b, -1, -2), not upper, unit), -1, -2)
            X = make(x, A.dtype, A.device)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(A, X)
            forward_ad_save(ctx, A, X)
            ctx.args = (upper, left, unit, tuple(A.shape), tuple(B.shape))
            return X

        @staticmethod
        def backward(ctx, g):
            if g is None:
                return (None,) * 5
            A, X = ctx.saved_tensors
            upper, left, unit, a_shape, b_shape = ctx.args
            gB = L.solve_triangular(mH(A), g, upper=not upper, left=left, unitriangular=unit)
            gA = None
            if ctx.needs_input_grad[0]:
                gA = -(gB @ mH(X)) if left else -(mH(X) @ gB)
                gA = gA.triu(int(unit)) if upper else gA.tril(-int(unit))
                gA = sum_to(gA, a_shape)
            gB = sum_to(gB, b_shape) if ctx.needs_input_grad[1] else None
            return gA, gB, None, None, None


# ----------------------------------------------------------------------------------------------
# Errors from info


def raise_inv_errors(name, info, batched):
    flat = info.reshape(-1)
    bad = np.flatnonzero(flat > 0)
    if bad.size:
        i = int(bad[0])
        raise LinAlgError(batch_prefix(name, batched, i) + f"The diagonal element {int(flat[i])} is zero, the inversion "
                          "could not be completed because the input matrix is singular.")


def raise_solve_errors(name, info, batched):
    flat = info.reshape(-1)
    bad = np.flatnonzero(flat > 0)
    if bad.size:
        raise LinAlgError(batch_prefix(name, batched, int(bad[0]))
                          + "The solver failed because the input matrix is singular.")


def raise_cholesky_errors(name, info, batched):
    flat = info.reshape(-1)
    bad = np.flatnonzero(flat > 0)
    if bad.size:
        i = int(bad[0])
        raise LinAlgError(batch_prefix(name, batched, i) + "The factorization could not be completed because the input "
                          f"is not positive-definite (the leading minor of order {int(flat[i])} is not positive-definite).")


# ----------------------------------------------------------------------------------------------
# Backward pieces


def det_grad_host(g, D, A):
    """First-order gradient of det (no graph): g·conj(det)·A^{-H}, and 0 where the LU has an
    exactly zero pivot (PyTorch perturbs that pivot by eps, which then multiplies det = 0)."""
    a, d, gv = host(A), host(D), host(g)
    scale = gv * d.conj()
    out = np.zeros_like(a, dtype=np.result_type(a, scale))
    nonzero = d != 0
    with np.errstate(all="ignore"):
        if nonzero.ndim == 0:
            if nonzero:
                out = scale * np.swapaxes(inverse(a)[0], -1, -2).conj()
        elif nonzero.any():
            inv_h = np.swapaxes(inverse(a[nonzero])[0], -1, -2).conj()
            out[nonzero] = scale[nonzero][..., None, None] * inv_h
    return make(out, A.dtype, A.device)


def det_grad_graph(g, D, A):
    """The gradient of det as a graph: solve(A^H, g·conj(det)·I) for invertible matrices, the
    adjugate from the SVD for (numerically) singular ones, as PyTorch splits them."""
    torch = _torch()
    L = _linalg()
    n = A.shape[-1]
    eps = torch.finfo(A.dtype.to_real()).eps

    def regular(A, g, D):
        d = torch.diag_embed((g * D.conj()).unsqueeze(-1).expand(*g.shape, n))
        return L.solve(mH(A), d)

    def singular(A, g, D):
        U, S, Vh = L.svd(A)
        alpha = (L.det(U) * L.det(Vh)).conj() * g
        eye = torch.eye(n, dtype=torch.bool, device=A.device)
        others = torch.where(eye, torch.ones_like(S).unsqueeze(-1), S.unsqueeze(-2).expand(*S.shape, n)).prod(-1)
        Dg = alpha.unsqueeze(-1) * others
        return (U * Dg.unsqueeze(-2).to(U.dtype)) @ Vh

    mask = D.abs() < 100 * eps
    if mask.dim() == 0:
        return singular(A, g, D) if bool(mask) else regular(A, g, D)
    if bool(mask.all()):
        return singular(A, g, D)
    if not bool(mask.any()):
        return regular(A, g, D)
    batch = tuple(A.shape[:-2])
    Af, gf, Df, mf = A.reshape(-1, n, n), g.reshape(-1), D.reshape(-1), mask.reshape(-1)
    idx_s, idx_r = mf.nonzero().squeeze(-1), (~mf).nonzero().squeeze(-1)
    rs = singular(Af[idx_s], gf[idx_s], Df[idx_s])
    rr = regular(Af[idx_r], gf[idx_r], Df[idx_r])
    order = torch.cat([idx_s, idx_r]).argsort()
    return torch.cat([rs, rr])[order].reshape(*batch, n, n)


def svd_backward(gU, gS, gVh, U, S, Vh):
    """The adjoint of the (thin) SVD A = U diag(S) Vh (real or complex; distinct singular
    values, full rank when A is rectangular)."""
    torch = _torch()
    if gU is None and gS is None and gVh is None:
        return None
    m, n = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:
        gs = gS.to(U.dtype)
        return U @ (gs.unsqueeze(-1) * Vh) if m >= n else (U * gs.unsqueeze(-2)) @ Vh
    complex_ = U.is_complex()
    UhgU = None if gU is None else (mH(U) @ gU)
    VhgV = None if gVh is None else (Vh @ mH(gVh))
    if UhgU is not None:
        UhgU = UhgU - mH(UhgU)
    if VhgV is not None:
        VhgV = VhgV - mH(VhgV)
    if complex_:
        im_u = UhgU.diagonal(0, -2, -1).imag if UhgU is not None else torch.zeros_like(S)
        im_v = VhgV.diagonal(0, -2, -1).imag if VhgV is not None else torch.zeros_like(S)
        if not torch.allclose(im_u, -im_v, rtol=1e-2, atol=1e-2):
            raise RuntimeError(
                "svd_backward: The singular vectors in the complex case are specified up to multiplication by "
                "e^{i phi}. The specified loss function depends on this phase term, making it ill-defined.")
    k = S.shape[-1]
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + eye_like(S, k)
    Sc = S.to(U.dtype)
    if UhgU is not None and VhgV is not None:
        core = (UhgU * Sc.unsqueeze(-2) + Sc.unsqueeze(-1) * VhgV) / E
    elif UhgU is not None:
        core = (UhgU / E) * Sc.unsqueeze(-2)
    else:
        core = Sc.unsqueeze(-1) * (VhgV / E)
    if gS is not None:
        core = core + torch.diag_embed(gS.to(core.dtype))
    if complex_ and UhgU is not None and VhgV is not None:
        core = core + torch.diag_embed(UhgU.diagonal(0, -2, -1) / (2 * Sc))
    if m > n and gU is not None:
        gA = U @ core
        gUS = gU / Sc.unsqueeze(-2)
        gA = gA + gUS - U @ (mH(U) @ gUS)
        return gA @ Vh
    if m < n and gVh is not None:
        gA = core @ Vh
        SgVh = gVh / Sc.unsqueeze(-1)
        gA = gA + SgVh - (SgVh @ mH(Vh)) @ Vh
        return U @ gA
    return U @ (core @ Vh) if m >= n else (U @ core) @ Vh


def pinv_backward(g, P, A):
    """The adjoint of A ↦ A⁺ (Golub and Pereyra's derivative of the pseudo-inverse) at a
    matrix of constant rank."""
    m, n = A.shape[-2], A.shape[-1]
    Ph, gh = mH(P), mH(g)
    if m <= n:
        K = gh @ P
        KPh = K @ Ph
        return -mH(P @ K) + KPh - (A @ P) @ KPh + (Ph @ P) @ (gh - K @ A)
    K = P @ gh
    PhK = Ph @ K
    return -mH(K @ P) + (gh - A @ K) @ P @ Ph + PhK - (PhK @ P) @ A
