"""The autograd nodes of `eig`, the LU family and `householder_product` (see `_linalg_host`,
whose `function(key)` makes them on first use): host computations in the input's precision
(single or double, as LAPACK's routines would run), backward formulas written with leafgrad's
ops (so they differentiate again), and their forward-mode rules computed on the host; and the
nodes of `ldl_factor`, `ldl_solve` and `geqrf`, which PyTorch does not differentiate.

The formulas are the standard matrix-calculus ones (A = V diag(w) V^{-1} with unit-norm
eigenvectors; A = P L U with L unit lower triangular; Q = H_1 ... H_k), derived for the
arrangements PyTorch returns (rectangular LU included)."""
import numpy as np

from . import _linalg_faer as _faer
from . import _core
from ._linalg_jvp import _h, _saved, _tangent, forward_ad_save
from ._linalg_kernels import householder_product, host_native, lu_solve, permutation_matrix, reflectors
from ._linalg_lapack import _torch, batch_prefix, getrf, host, make

# ----------------------------------------------------------------------------------------------
# Host computations


def eig(a):
    """numpy's (LAPACK geev) eigenvalues and unit-norm eigenvectors, always complex."""
    if a.shape[-1] == 0:
        return np.zeros(a.shape[:-1], np.complex128), np.zeros(a.shape, np.complex128)
    a = np.ascontiguousarray(a)
    if not np.isfinite(a).all():
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")
    w, v = _faer.eig(a)
    cdtype = np.complex64 if a.dtype in (np.float32, np.complex64) else np.complex128
    return w.astype(cdtype), v.astype(cdtype)


def lu_factor(a, pivot):
    """getrf of each matrix: (LU, 1-based int32 pivots, int32 info)."""
    lu, piv, info = getrf(a, pivot)
    return lu, (piv + 1).astype(np.int32), info.astype(np.int32)


def unpack(lu, m, n):
    """(L unit lower m x k, U upper k x n) from packed LU factors."""
    k = min(m, n)
    low = np.tril(lu[..., :, :k], -1)
    idx = np.arange(k)
    low[..., idx, idx] = 1
    return low, np.triu(lu[..., :k, :])


def raise_lu_errors(name, info, batched):
    flat = info.reshape(-1)
    bad = np.flatnonzero(flat > 0)
    if bad.size:
        i = int(bad[0])
        j = int(flat[i])
        raise RuntimeError(batch_prefix(name, batched, i) + f"U[{j},{j}] is zero and using it on lu_solve would "
                           "result in a division by zero. If you still want to perform the factorization, consider "
                           "calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")


def _solve_any(a, b):
    with np.errstate(all="ignore"):
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        return _faer.solve(np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:]))


# ----------------------------------------------------------------------------------------------
# Backward pieces (leafgrad ops)


def _mH(x):
    return x.mT.conj() if x.is_complex() else x.mT


def _sum_to(g, shape):
    from ._linalg_host import sum_to

    return sum_to(g, shape)


def lu_backward(gL, gU, P, Lf, Uf):
    """The gradient of A = P L U from those of L (m x k, unit lower) and U (k x n), for square,
    tall (m > n) and wide (m < n) matrices (P constant)."""
    torch = _torch()
    L = torch.linalg
    m, n = Lf.shape[-2], Uf.shape[-1]
    gL = torch.zeros_like(Lf) if gL is None else gL
    gU = torch.zeros_like(Uf) if gU is None else gU
    if m == n:
        phi = (_mH(Lf) @ gL).tril(-1) + (gU @ _mH(Uf)).triu()
        X = L.solve_triangular(_mH(Lf), phi, upper=True, unitriangular=True)
        return P @ L.solve_triangular(_mH(Uf), X, upper=False, left=False)
    if m > n:
        L1, L2 = Lf.narrow(-2, 0, n), Lf.narrow(-2, n, m - n)
        gL1, gL2 = gL.narrow(-2, 0, n), gL.narrow(-2, n, m - n)
        phi = (_mH(L1) @ gL1).tril(-1) + (gU @ _mH(Uf) - _mH(L2) @ gL2).triu()
        top = L.solve_triangular(_mH(L1), phi, upper=True, unitriangular=True)
        return P @ L.solve_triangular(_mH(Uf), torch.cat([top, gL2], -2), upper=False, left=False)
    U1, U2 = Uf.narrow(-1, 0, m), Uf.narrow(-1, m, n - m)
    gU1, gU2 = gU.narrow(-1, 0, m), gU.narrow(-1, m, n - m)
    phi = (_mH(Lf) @ gL - gU2 @ _mH(U2)).tril(-1) + (gU1 @ _mH(U1)).triu()
    left = L.solve_triangular(_mH(U1), phi, upper=False, left=False)
    return P @ L.solve_triangular(_mH(Lf), torch.cat([left, gU2], -1), upper=True, unitriangular=True)


def _split_packed(g, m, n):
    """The gradients of L and U from that of their packed form LU."""
    k = min(m, n)
    return g.narrow(-1, 0, k).tril(-1), g.narrow(-2, 0, k).triu()


def _lu_jvp(a_lu, piv0, da):
    """The tangents (dL, dU) of A = P L U at `da`, on the host."""
    m, n = a_lu.shape[-2], a_lu.shape[-1]
    low, up = unpack(a_lu, m, n)
    P = permutation_matrix(piv0, m, a_lu.dtype)
    pda = _h(P) @ da
    with np.errstate(all="ignore"):
        if m >= n:
            l1 = low[..., :n, :]
            x = _solve_any(l1, pda[..., :n, :])
            x = _h(_solve_any(_h(up), _h(x)))
            dl1 = l1 @ np.tril(x, -1)
            du = np.triu(x) @ up
            if m == n:
                return dl1, du
            dl2 = _h(_solve_any(_h(up), _h(pda[..., n:, :] - low[..., n:, :] @ du)))
            return np.concatenate([dl1, dl2], -2), du
        u1 = up[..., :, :m]
        x = _solve_any(low, pda[..., :, :m])
        x = _h(_solve_any(_h(u1), _h(x)))
        dl = low @ np.tril(x, -1)
        du1 = np.triu(x) @ u1
        du2 = _solve_any(low, pda[..., :, m:] - dl @ up[..., :, m:])
        return dl, np.concatenate([du1, du2], -1)


# ----------------------------------------------------------------------------------------------
# Forward-mode rules


def _jvp_eig(ctx, dA):
    W, V = _saved(ctx)
    if dA is None:
        return None, None
    w, v, da = host(W), host(V), host(dA)
    n = w.shape[-1]
    with np.errstate(all="ignore"):
        dp = _solve_any(v, da @ v)
        dw = np.einsum("...ii->...i", dp)
        e = w[..., None, :] - w[..., :, None]
        c = np.where(np.eye(n, dtype=bool), 0, dp / np.where(np.eye(n, dtype=bool), 1, e))
        c = c - (np.einsum("...ii->...i", _h(v) @ v @ c).real[..., None] * np.eye(n))
        dv = v @ c
    return make(dw, W.dtype, W.device), make(dv, V.dtype, V.device)


def _jvp_lu_factor(ctx, dA, _pivot, _check, _name):
    LU, piv = _saved(ctx)
    if dA is None:
        return None, None, None
    dl, du = _lu_jvp(host(LU), host(piv).astype(np.int64) - 1, host(dA))
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    dlu = np.zeros(np.broadcast_shapes(dl.shape[:-2], du.shape[:-2]) + (m, n), dtype=np.result_type(dl, du))
    dlu[..., :, :k] += np.tril(dl, -1)
    dlu[..., :k, :] += du
    return make(dlu, LU.dtype, LU.device), None, None


def _jvp_lu(ctx, dA, _pivot):
    LU, piv = _saved(ctx)
    if dA is None:
        return None, None, None
    dl, du = _lu_jvp(host(LU), host(piv).astype(np.int64) - 1, host(dA))
    return None, make(dl, LU.dtype, LU.device), make(du, LU.dtype, LU.device)


def _jvp_lu_solve(ctx, dLU, _piv, dB, _left, _adjoint):
    LU, piv, X = _saved(ctx)
    if dLU is None and dB is None:
        return None
    lu, p0, x = host(LU), host(piv).astype(np.int64) - 1, host(X)
    n = lu.shape[-1]
    low, up = unpack(lu, n, n)
    P = permutation_matrix(p0, n, lu.dtype)
    a = P @ low @ up
    if dLU is not None:
        dlu = host(dLU)
        da = P @ (np.tril(dlu, -1) @ up + low @ np.triu(dlu))
    else:
        da = np.zeros_like(a)
    db = np.zeros_like(x) if dB is None else np.broadcast_to(host(dB), x.shape)
    left, adjoint = ctx.flags
    op_a, op_da = (_h(a), _h(da)) if adjoint else (a, da)
    if left:
        dx = _solve_any(op_a, db - op_da @ x)
    else:
        dx = _h(_solve_any(_h(op_a), _h(db - x @ op_da)))
    return make(np.broadcast_to(dx, x.shape), X.dtype, X.device)


def _jvp_lu_unpack(ctx, dLU, _piv, _data, _pivots):
    (LU,) = _saved(ctx)
    if dLU is None or not ctx.data:
        return None, None, None
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    d = host(dLU)
    dl, du = np.tril(d[..., :, :k], -1), np.triu(d[..., :k, :])
    return None, make(dl, LU.dtype, LU.device), make(du, LU.dtype, LU.device)


def _jvp_householder(ctx, dA, dTau):
    A, tau = _saved(ctx)
    if dA is None and dTau is None:
        return None
    a, t = host(A), host(tau)
    da, dt = _tangent(dA, a), _tangent(dTau, t)
    m, n = a.shape[-2], a.shape[-1]
    k = t.shape[-1]
    v, dv = reflectors(a, k), reflectors(da, k)
    dv[..., np.arange(k), np.arange(k)] = 0
    dtype = np.result_type(a, t, da, dt)
    q = np.broadcast_to(np.eye(m, n, dtype=dtype), a.shape[:-2] + (m, n)).copy()
    dq = np.zeros_like(q)
    with np.errstate(all="ignore"):
        for i in range(k - 1, -1, -1):
            vi, dvi = v[..., :, i, None], dv[..., :, i, None]
            ti, dti = t[..., i, None, None], dt[..., i, None, None]
            vq, vdq, dvq = _h(vi) @ q, _h(vi) @ dq, _h(dvi) @ q
            dq = dq - dti * vi @ vq - ti * (dvi @ vq + vi @ dvq + vi @ vdq)
            q = q - ti * vi @ vq
    return make(dq, A.dtype, A.device)


# ----------------------------------------------------------------------------------------------
# The nodes


def define(op):
    define_without_derivative(op)
    torch = _torch()
    L = torch.linalg

    @op("LinalgEigBackward0", _jvp_eig)
    class Eig:
        @staticmethod
        def forward(ctx, A):
            w, v = eig(host_native(A))
            cdtype = A.dtype if A.is_complex() else A.dtype.to_complex()
            W, V = make(w, cdtype, A.device), make(v, cdtype, A.device)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(W, V)
            forward_ad_save(ctx, W, V)
            ctx.real_input = not A.is_complex()
            return W, V

        @staticmethod
        def backward(ctx, gW, gV):
            if gW is None and gV is None:
                return None
            W, V = ctx.saved_tensors
            Vh = _mH(V)
            n = W.shape[-1]
            if gV is None:
                core = torch.diag_embed(gW)
            else:
                VhgV = Vh @ gV
                diag = VhgV.diagonal(0, -2, -1)
                im = diag.imag
                if not torch.allclose(im, torch.zeros_like(im), rtol=1e-2, atol=1e-2):
                    raise RuntimeError(
                        "linalg_eig_backward: The eigenvectors in the complex case are specified up to "
                        "multiplication by e^{i phi}. The specified loss function depends on this quantity, so it "
                        "is ill-defined.")
                core = VhgV - (Vh @ V) * diag.real.unsqueeze(-2).to(V.dtype)
                E = (W.unsqueeze(-2) - W.unsqueeze(-1)).conj()
                eye = torch.eye(n, dtype=torch.bool, device=W.device)
                core = torch.where(eye, torch.zeros_like(core), core / E.masked_fill(eye, 1))
                if gW is not None:
                    core = core + torch.diag_embed(gW)
            gA = L.solve(Vh, core @ Vh)
            return gA.real if ctx.real_input else gA

    @op("LinalgLuFactorExBackward0", _jvp_lu_factor)
    class LuFactorEx:
        @staticmethod
        def forward(ctx, A, pivot, check, name):
            lu, piv, info = lu_factor(host_native(A), pivot)
            if check and not A.is_meta:
                raise_lu_errors(name, info, A.dim() > 2)
            LU = make(lu, A.dtype, A.device)
            Piv = make(piv, torch.int32, A.device)
            Info = make(info, torch.int32, A.device)
            ctx.mark_non_differentiable(Piv, Info)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(LU, Piv)
            forward_ad_save(ctx, LU, Piv)
            return LU, Piv, Info

        @staticmethod
        def backward(ctx, gLU, _gp, _gi):
            if gLU is None:
                return None, None, None, None
            LU, Piv = ctx.saved_tensors
            m, n = LU.shape[-2], LU.shape[-1]
            P, Lf, Uf = _unpacked(LU, Piv)
            gL, gU = _split_packed(gLU, m, n)
            return lu_backward(gL, gU, P, Lf, Uf), None, None, None

    @op("LinalgLuBackward0", _jvp_lu)
    class Lu:
        @staticmethod
        def forward(ctx, A, pivot):
            a = host_native(A)
            lu, piv, _ = lu_factor(a, pivot)
            m, n = a.shape[-2], a.shape[-1]
            p0 = piv.astype(np.int64) - 1
            low, up = unpack(lu, m, n)
            P = make(permutation_matrix(p0, m, a.dtype), A.dtype, A.device)
            Lt, Ut = make(low, A.dtype, A.device), make(up, A.dtype, A.device)
            ctx.mark_non_differentiable(P)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(P, Lt, Ut)
            if _core._current_dual_level() >= 0:  # what the forward-mode rule needs
                ctx.save_for_forward(make(lu, A.dtype, A.device), make(piv, torch.int32, A.device))
            return P, Lt, Ut

        @staticmethod
        def backward(ctx, _gP, gL, gU):
            if gL is None and gU is None:
                return None, None
            P, Lt, Ut = ctx.saved_tensors
            return lu_backward(gL, gU, P, Lt, Ut), None

    @op("LinalgLuSolveBackward0", _jvp_lu_solve)
    class LuSolve:
        @staticmethod
        def forward(ctx, LU, pivots, B, left, adjoint):
            lu, b = host_native(LU), host_native(B)
            p0 = host(pivots).astype(np.int64) - 1
            batch = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
            lu = np.broadcast_to(lu, batch + lu.shape[-2:])
            p0 = np.broadcast_to(p0, batch + p0.shape[-1:])
            b = np.broadcast_to(b, batch + b.shape[-2:])
            if left:
                x = lu_solve(lu, p0, b, adjoint)
            else:  # X A = B: A^H X^H = B^H
                x = _h(lu_solve(lu, p0, _h(b), not adjoint))
            X = make(x, LU.dtype, LU.device)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(LU, pivots, X)
            forward_ad_save(ctx, LU, pivots, X)
            ctx.flags = (left, adjoint)
            ctx.shapes = (tuple(LU.shape), tuple(B.shape))
            return X

        @staticmethod
        def backward(ctx, gX):
            if gX is None:
                return (None,) * 5
            LU, piv, X = ctx.saved_tensors
            left, adjoint = ctx.flags
            gB = L.lu_solve(LU, piv, gX, left=left, adjoint=not adjoint)
            gLU = None
            if ctx.needs_input_grad[0]:
                if left:
                    gA = -(gB @ _mH(X)) if not adjoint else -(X @ _mH(gB))
                else:
                    gA = -(_mH(X) @ gB) if not adjoint else -(_mH(gB) @ X)
                P, Lf, Uf = _unpacked(LU, piv)
                PtgA = _mH(P) @ gA
                gLU = (PtgA @ _mH(Uf)).tril(-1) + (_mH(Lf) @ PtgA).triu()
                gLU = _sum_to(gLU, ctx.shapes[0])
            gB = _sum_to(gB, ctx.shapes[1]) if ctx.needs_input_grad[2] else None
            return gLU, None, gB, None, None

    @op("LuUnpackBackward0", _jvp_lu_unpack)
    class LuUnpack:
        @staticmethod
        def forward(ctx, LU, pivots, unpack_data, unpack_pivots):
            lu = host(LU)
            m, n = lu.shape[-2], lu.shape[-1]
            empty = np.zeros((0,))
            if unpack_pivots:
                p0 = host(pivots).astype(np.int64) - 1
                P = make(permutation_matrix(p0, m, lu.dtype), LU.dtype, LU.device)
            else:
                P = make(empty, LU.dtype, LU.device)
            if unpack_data:
                low, up = unpack(lu, m, n)
                Lt, Ut = make(low, LU.dtype, LU.device), make(up, LU.dtype, LU.device)
            else:
                Lt, Ut = make(empty, LU.dtype, LU.device), make(empty, LU.dtype, LU.device)
            ctx.mark_non_differentiable(P)
            ctx.set_materialize_grads(False)
            ctx.shape = (m, n)
            ctx.data = unpack_data
            forward_ad_save(ctx, LU)
            return P, Lt, Ut

        @staticmethod
        def backward(ctx, _gP, gL, gU):
            if not ctx.data or (gL is None and gU is None):
                return None, None, None, None
            m, n = ctx.shape
            k = min(m, n)
            parts = []
            if gL is not None:
                gl = gL.tril(-1)
                parts.append(gl if k == n else torch.cat([gl, gl.new_zeros(*gl.shape[:-1], n - k)], -1))
            if gU is not None:
                gu = gU.triu()
                parts.append(gu if k == m else torch.cat([gu, gu.new_zeros(*gu.shape[:-2], m - k, n)], -2))
            g = parts[0] if len(parts) == 1 else parts[0] + parts[1]
            return g, None, None, None

    @op("LinalgHouseholderProductBackward0", _jvp_householder)
    class HouseholderProduct:
        @staticmethod
        def forward(ctx, A, tau):
            a, t = host_native(A), host_native(tau)
            batch = np.broadcast_shapes(a.shape[:-2], t.shape[:-1])
            q = householder_product(np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(t, batch + t.shape[-1:]))
            Q = make(q, A.dtype, A.device)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(A, tau)
            forward_ad_save(ctx, A, tau)
            return Q

        @staticmethod
        def backward(ctx, gQ):
            if gQ is None:
                return None, None
            A, tau = ctx.saved_tensors
            return householder_backward(gQ, A, tau, ctx.needs_input_grad)


def _unpacked(LU, piv):
    """(P, L, U) of packed factors as leafgrad tensors: L and U as differentiable functions of
    LU (so a second derivative sees them), P constant."""
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    torch = _torch()
    p0 = host(piv).astype(np.int64) - 1
    P = make(permutation_matrix(p0, m, np.float64), LU.dtype, LU.device)
    eye = torch.eye(m, k, dtype=LU.dtype, device=LU.device)
    Lf = LU.narrow(-1, 0, k).tril(-1) + eye
    Uf = LU.narrow(-2, 0, k).triu()
    return P, Lf, Uf


def householder_backward(gQ, A, tau, needs):
    """The gradients of Q = H_1 ... H_k E (E the first n columns of I) with respect to the
    reflectors (below A's diagonal) and tau, by running the product backwards:
    Q_i = H_i Q_{i+1}, H_i = I - tau_i v_i v_i^H."""
    torch = _torch()
    m, n = A.shape[-2], A.shape[-1]
    k = tau.shape[-1]
    if k == 0:
        return (torch.zeros_like(A) if needs[0] else None), (torch.zeros_like(tau) if needs[1] else None)
    eye = torch.eye(m, k, dtype=A.dtype, device=A.device)
    V = A.narrow(-1, 0, k).tril(-1) + eye
    conj = (lambda x: x.conj()) if A.is_complex() else (lambda x: x)
    # the partial products Q_{i+1} (Q_{k+1} = E)
    Q = torch.eye(m, n, dtype=gQ.dtype, device=A.device).expand(*gQ.shape[:-2], m, n)
    partial = [None] * (k + 1)
    partial[k] = Q
    for i in range(k - 1, -1, -1):
        v = V.select(-1, i).unsqueeze(-1)
        t = tau.select(-1, i).unsqueeze(-1).unsqueeze(-1)
        Q = Q - t * (v @ (_mH(v) @ Q))
        partial[i] = Q
    G = gQ
    g_v, g_tau = [], []
    for i in range(k):
        v = V.select(-1, i).unsqueeze(-1)
        t = tau.select(-1, i).unsqueeze(-1).unsqueeze(-1)
        Qn = partial[i + 1]
        GQh = G @ _mH(Qn)
        g_tau.append(-(_mH(v) @ GQh @ v).squeeze(-1).squeeze(-1))
        g_v.append((-(conj(t) * (GQh @ v)) - t * (_mH(GQh) @ v)).squeeze(-1))
        G = G - conj(t) * (v @ (_mH(v) @ G))
    gA = gTau = None
    if needs[0]:
        gv = torch.stack(g_v, -1).tril(-1)
        gA = gv if k == n else torch.cat([gv, gv.new_zeros(*gv.shape[:-1], n - k)], -1)
        gA = _sum_to(gA, tuple(A.shape))
    if needs[1]:
        gTau = _sum_to(torch.stack(g_tau, -1), tuple(tau.shape))
    return gA, gTau


def _not_implemented(message, error=RuntimeError):
    def raise_(*_args):
        raise error(message)
    return raise_


_NO_FORWARD_AD = "Trying to use forward AD with {} that does not support it"
_NOT_YET = (" because it has not been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we can prioritize its "
            "implementation or submit a PR adding the implementation to derivatives.yaml")


def needs_node(*tensors):
    """Whether an op without derivative must still record its node: an input requires grad
    (with grad mode on) or carries a forward-mode tangent."""
    if _torch().is_grad_enabled() and any(t.requires_grad for t in tensors):
        return True
    return _core._current_dual_level() >= 0 and any(_core._fw_grad(t) is not None for t in tensors)


def define_without_derivative(op):
    """The nodes of ops PyTorch does not differentiate: their backward and forward-mode rule
    raise PyTorch's errors. `forward` computes the outputs on the host with `compute`."""
    for key, node, message, error, forward_message, outputs in (
            ("ldl_factor", "NotImplemented", "derivative for aten::linalg_ldl_factor_ex is not implemented",
             RuntimeError, _NO_FORWARD_AD.format("aten::linalg_ldl_factor_ex") + ".", 3),
            ("ldl_solve", "NotImplemented", "derivative for aten::linalg_ldl_solve is not implemented",
             RuntimeError, _NO_FORWARD_AD.format("aten::linalg_ldl_solve") + ".", 1),
            ("geqrf", "GeqrfBackward0", "the derivative for 'geqrf' is not implemented.", NotImplementedError,
             _NO_FORWARD_AD.format("geqrf") + _NOT_YET, 2)):

        def forward(ctx, compute, *inputs, _outputs=outputs):
            outs = compute(*inputs)
            ctx.mark_non_differentiable(*[o for o in outs if not (o.is_floating_point() or o.is_complex())])
            return outs if _outputs > 1 else outs[0]

        backward = _not_implemented(message, error)
        jvp = _not_implemented(forward_message, NotImplementedError)
        op(node, jvp, key)(type(key, (), {"forward": staticmethod(forward), "backward": staticmethod(backward)}))
