"""`torch.autograd.gradcheck` and `gradgradcheck`: autograd's Jacobians against finite differences.

`gradcheck(func, inputs)` computes, for every input that requires grad and every output that
requires grad, the Jacobian twice: numerically, by central differences of `func` with each input
element moved by `eps`, and analytically, one `autograd.grad` call per output element. It raises
`GradcheckError` (or returns False with `raise_exception=False`) when they differ beyond
`atol + rtol * |numerical|`, with PyTorch's message and both matrices. Complex outputs are checked
through their real and imaginary parts; a complex input element is moved along both axes.

>>> x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
>>> torch.autograd.gradcheck(torch.sin, (x,))
True

`fast_mode=True` compares `v^T J u` for random `u`, `v` instead of whole Jacobians (drawn from
leafgrad's generator, so the vectors, and the numbers in a failure message, are not PyTorch's).
"""
import itertools
import warnings

from .._core import Tensor

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Error raised by :func:`gradcheck` and :func:`gradgradcheck`.

    >>> x = torch.tensor([1.], dtype=torch.float64, requires_grad=True)
    >>> try:
    ...     torch.autograd.gradcheck(lambda t: t.detach() * 2, (x,))
    ... except RuntimeError as e:
    ...     print(type(e).__name__, e)
    GradcheckError Numerical gradient for function expected to be zero
    """


_NONDET_HINT = """

NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


def _torch():
    import leafgrad

    return leafgrad


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _is_float_or_complex(t):
    return isinstance(t, Tensor) and (t.is_floating_point() or t.is_complex())


def _differentiable_outputs(out):
    return tuple(o for o in _as_tuple(out) if isinstance(o, Tensor) and o.requires_grad)


def _differentiable_positions(func_out):
    """Where, among the float/complex outputs (the numerical Jacobians' order), are the outputs
    that require grad (the analytical ones')."""
    floats = [o for o in _as_tuple(func_out) if _is_float_or_complex(o)]
    return [k for k, o in enumerate(floats) if o.requires_grad]


def _diff_inputs(inputs):
    return [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]


def _check_inputs(inputs):
    any_requires_grad = False
    for idx, inp in enumerate(inputs):
        if not (isinstance(inp, Tensor) and inp.requires_grad):
            continue
        torch = _torch()
        if inp.dtype not in (torch.float64, torch.complex128):
            warnings.warn(
                f"Input #{idx} requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double precision "
                "floating point or complex. ",
                stacklevel=4,
            )
        if not all(st > 0 or sz <= 1 for st, sz in zip(inp.stride(), inp.size())):
            raise RuntimeError(
                f"The {idx}th input has a dimension with stride 0. gradcheck only supports inputs "
                "that are non-overlapping to be able to compute the numerical gradients correctly. "
                "You should call .contiguous on the input before passing it to gradcheck."
            )
        any_requires_grad = True
    if not any_requires_grad:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of them "
            "have requires_grad=True."
        )


def _allclose(a, b, rtol, atol):
    torch = _torch()
    dtype = (torch.zeros((), dtype=a.dtype) + torch.zeros((), dtype=b.dtype)).dtype
    return torch.allclose(a.to(dtype), b.to(dtype), rtol, atol)


def _indices(shape):
    return itertools.product(*[range(n) for n in shape])


def _float_outputs(func, inputs):
    """func's float/complex tensor outputs (the ones a Jacobian is taken of), as copies (an
    output may be a view of the input that is being moved)."""
    return [o.detach().clone() for o in _as_tuple(func(*inputs)) if _is_float_or_complex(o)]


def _central_difference(func, inputs, entry, step, eps, idx):
    """(f(x + step) - f(x - step)) / (2 eps) per float output, flattened; `entry` is the
    element being moved (a view of the input's `.data`)."""
    orig = entry.clone()
    entry.copy_(orig - step)
    before = _float_outputs(func, inputs)
    entry.copy_(orig + step)
    after = _float_outputs(func, inputs)
    entry.copy_(orig)
    return _differences(before, after, eps, idx)


def _differences(before, after, eps, idx=None):
    """(after - before) / (2 eps) per output, flattened, after PyTorch's neighbourhood checks."""
    on_index = f"on index {idx} " if idx is not None else ""
    cols = []
    for a, b in zip(before, after):
        if a.shape != b.shape:
            raise AssertionError(
                f"Expected `func` to return outputs with the same shape when inputs are perturbed "
                f"{on_index}by {eps}, but got: shapes {a.shape} and {b.shape}."
            )
        if a.dtype != b.dtype:
            raise AssertionError(
                f"Expected `func` to return outputs with the same dtype when inputs are perturbed "
                f"{on_index}by {eps}, but got: dtypes {a.dtype} and {b.dtype}."
            )
        cols.append(((b - a) / (2 * eps)).detach().reshape(-1))
    return cols


def _numerical_jacobians(func, inputs, eps, target=None):
    """[input][output] -> (input numel, output numel) matrices, by central differences (with
    respect to the tensors of `target` instead, when given: their values are perturbed in
    place, so `func` must read them)."""
    torch = _torch()
    result = []
    outputs = _float_outputs(func, inputs)
    for i, inp in enumerate(inputs if target is None else target):
        if not (isinstance(inp, Tensor) and inp.requires_grad):
            continue
        jac = [
            torch.zeros(inp.numel(), o.numel(), dtype=o.dtype if not inp.is_complex() else _complex_of(o.dtype))
            for o in outputs
        ]
        data = inp.data
        for d, idx in enumerate(_indices(inp.shape)):
            entry = data[idx]
            dx = _central_difference(func, inputs, entry, eps, eps, idx)
            if inp.is_complex():
                dy = _central_difference(func, inputs, entry, eps * 1j, eps, idx)
                cols = [x + 1j * y for x, y in zip(dx, dy)]
            else:
                cols = dx
            for m, col in zip(jac, cols):
                m[d] = col
        result.append(jac)
    return result


def _complex_of(dtype):
    torch = _torch()
    return torch.complex64 if dtype in (torch.float32, torch.complex64) else torch.complex128


def _analytical_parts(inputs, output, nondet_tol, grad_out=None):
    """[input] -> (input numel, output numel) Jacobians of one output by backward passes (or,
    with `grad_out`, the one vector-Jacobian product), computed twice: (Jacobians, reentrant,
    sizes_ok, types_ok)."""
    torch = _torch()
    diff = _diff_inputs(inputs)

    def rows():
        if grad_out is not None:
            grads = torch.autograd.grad(output, diff, grad_out.reshape(output.shape), retain_graph=True, allow_unused=True)
            return [[g] for g in grads], 1
        n = output.numel()
        per_input = [[None] * n for _ in diff]
        base = torch.zeros_like(output, memory_format=torch.contiguous_format)
        flat = base.view(-1)
        for j in range(n):
            flat.zero_()
            flat[j] = 1
            grads = torch.autograd.grad(output, diff, base, retain_graph=True, allow_unused=True)
            for i, g in enumerate(grads):
                if g is not None:
                    per_input[i][j] = g.clone()
        return per_input, n

    def stack(per_input, n):
        types_ok = sizes_ok = True
        jacs = []
        for inp, gs in zip(diff, per_input):
            jac = torch.zeros(inp.numel(), n, dtype=inp.dtype)
            for j, g in enumerate(gs):
                if g is None:
                    continue
                if g.shape != inp.shape:
                    sizes_ok = False
                    continue
                if g.dtype != inp.dtype:
                    types_ok = False
                jac[:, j] = g.reshape(-1).to(inp.dtype)
            jacs.append(jac)
        return jacs, types_ok, sizes_ok

    first, types_ok, sizes_ok = stack(*rows())
    second, _, _ = stack(*rows())
    reentrant = all(
        a.numel() == 0 or not (a - b).abs().max().item() > nondet_tol for a, b in zip(first, second)
    )
    return first, reentrant, sizes_ok, types_ok


def _analytical_jacobian(inputs, output, nondet_tol, check_grad_dtypes, grad_out=None):
    """The Jacobians of `_analytical_parts`, with gradcheck's errors for wrong sizes or
    dtypes and for a backward that is not reentrant."""
    first, reentrant, sizes_ok, types_ok = _analytical_parts(inputs, output, nondet_tol, grad_out)
    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    if not reentrant:
        raise GradcheckError(
            "Backward is not reentrant, i.e., running backward with same input and grad_output "
            "multiple times gives different values, although analytical gradient matches "
            f"numerical gradient.The tolerance for nondeterminism was {nondet_tol}." + _NONDET_HINT
        )
    return first


def _mismatch(analytical, numerical, out_idx, in_idx, complex_outputs, imag):
    prefix = ""
    if complex_outputs and out_idx in complex_outputs:
        part = "imaginary" if imag else "real"
        prefix = f"While considering the {part} part of complex outputs only, "
    return (
        prefix + f"Jacobian mismatch for output {out_idx:d} with respect to input {in_idx:d},\n"
        f"numerical:{numerical}\nanalytical:{analytical}\n"
    )


def _no_differentiable_outputs(func, inputs, eps):
    for per_output in _numerical_jacobians(func, inputs, eps):
        for jac in per_output:
            if (jac != 0).sum().item() > 0:
                raise GradcheckError("Numerical gradient for function expected to be zero")


def _slow_check(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol, complex_outputs=None, imag=False):
    if not outputs:
        _no_differentiable_outputs(func, inputs, eps)
        return
    numerical = _numerical_jacobians(func, inputs, eps)
    # numerical[input][output] over the float outputs; keep the outputs that require grad
    keep = _differentiable_positions(func_out)
    for i, o in enumerate(outputs):
        analytical = _analytical_jacobian(inputs, o, nondet_tol, check_grad_dtypes)
        for j, a in enumerate(analytical):
            n = numerical[j][keep[i]]
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(_mismatch(a, n, i, j, complex_outputs, imag))


def _random_like(t, low=-1.0, high=1.0):
    torch = _torch()
    real_dtype = torch.float64 if t.dtype in (torch.float64, torch.complex128) else torch.float32
    v = torch.rand(t.shape, dtype=real_dtype) * (high - low) + low
    if t.is_complex():
        v = v + 1j * (torch.rand(t.shape, dtype=real_dtype) * (high - low) + low)
    return v


def _unit_vector(t):
    """A random non-negative vector with t's number of elements and unit norm (real dtype)."""
    torch = _torch()
    real_dtype = torch.float64 if t.dtype in (torch.float64, torch.complex128) else torch.float32
    v = torch.rand(t.numel(), dtype=real_dtype)
    return v / v.norm() if t.numel() else v


_FAST_FAIL_SLOW_OK = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode!

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:

If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `fast_mode=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_fast_mode=False`
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_fast_mode=False`
""".strip()


def _fast_check(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol, complex_outputs=None, imag=False):
    """v^T J u for each (input, output): numerically by central differences along u, and
    analytically by a vjp with v dotted with u; atol scaled by sum(u) * sum(v) as PyTorch. A
    complex input gets two directions, u_r along the real axis and u_i along the imaginary one."""
    torch = _torch()
    if not outputs:
        _no_differentiable_outputs(func, inputs, eps)
        return
    diff_positions = [k for k, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    all_u = []
    for k in diff_positions:
        t = inputs[k]
        all_u.append((_unit_vector(t), _unit_vector(t)) if t.is_complex() else _unit_vector(t))
    all_v = [_unit_vector(o) for o in outputs]
    keep = _differentiable_positions(func_out)

    def along(k, direction):
        data = inputs[k].data
        orig = data.clone()
        step = (eps * direction).reshape(data.shape)
        data.copy_(orig - step)
        before = _float_outputs(func, inputs)
        data.copy_(orig + step)
        after = _float_outputs(func, inputs)
        data.copy_(orig)
        return _differences(before, after, eps)

    numerical = []  # [input][output]: J u, flattened
    for k, u in zip(diff_positions, all_u):
        if isinstance(u, tuple):
            dx, dy = along(k, u[0]), along(k, u[1] * 1j)
            numerical.append([x + 1j * y for x, y in zip(dx, dy)])
        else:
            numerical.append(along(k, u))
    for i, (o, v) in enumerate(zip(outputs, all_v)):
        vjps = _analytical_jacobian(inputs, o, nondet_tol, check_grad_dtypes, grad_out=v.to(o.dtype))
        for j, (vjp, u) in enumerate(zip(vjps, all_u)):
            vjp = vjp.reshape(-1)
            if isinstance(u, tuple):
                a = (vjp.real * u[0]).sum() + 1j * (vjp.imag * u[1]).sum()
                sum_u = float(u[0].sum()) + float(u[1].sum())
            else:
                a = (vjp * u.to(vjp.dtype)).sum()
                sum_u = float(u.sum())
            jv = numerical[j][keep[i]]
            n = (v.to(jv.dtype) * jv).sum()
            if not _allclose(a, n, rtol, atol * sum_u * float(v.sum())):
                raise GradcheckError(
                    _mismatch(a.item(), n.item(), i, j, complex_outputs, imag)
                    + _slow_mode_details(func, inputs, outputs, o, i, j, rtol, atol, eps, nondet_tol)
                )


def _slow_mode_details(func, inputs, outputs, output, i, j, rtol, atol, eps, nondet_tol):
    torch = _torch()
    keep = _differentiable_positions(func(*inputs))
    numerical = _numerical_jacobians(func, inputs, eps)[j][keep[i]]
    analytical = _analytical_jacobian(inputs, output, nondet_tol, False)[j]
    max_diff = (numerical - analytical).abs().max()
    msg = (
        "\nThe above quantities relating the numerical and analytical jacobians are computed \n"
        "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
        "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
        f"Numerical:\n {numerical}\n"
        f"Analytical:\n{analytical}\n\n"
        f"The max per-element difference (slow mode) is: {max_diff}.\n"
    )
    if torch.allclose(analytical, numerical, rtol, atol):
        msg += _FAST_FAIL_SLOW_OK
    return msg


def _part_of_outputs(func, part):
    def wrapped(*inputs):
        return tuple(part(o) if isinstance(o, Tensor) and o.is_complex() else o for o in _as_tuple(func(*inputs)))

    return wrapped


def _undefined_grad(t):
    """t, behind a node that passes no gradient on (PyTorch's UndefinedGrad)."""
    from .. import _core

    return _core._undefined_grad(t)


def _check_backward_multiplies_grad_output(outputs, inputs):
    torch = _torch()
    diff = _diff_inputs(inputs)
    grads = torch.autograd.grad(outputs, diff, [torch.zeros_like(o) for o in outputs], allow_unused=True)
    for gi, di in zip(grads, diff):
        if gi is None:
            continue
        if not (gi == 0).all():
            raise GradcheckError("backward not multiplied by grad_output")
        if gi.dtype != di.dtype:
            raise GradcheckError("grad is incorrect type")
        if gi.device != di.device:
            raise GradcheckError("grad is incorrect device")
        if gi.size() != di.size():
            raise GradcheckError("grad is incorrect size")


def _check_undefined_grad(func, outputs, inputs):
    torch = _torch()
    diff = _diff_inputs(inputs)

    def bc_warning():
        warnings.warn(
            "Backwards compatibility: New undefined gradient support checking feature is enabled "
            "by default, but it may break existing callers of this function. If this is true for "
            'you, you can call this function with "check_undefined_grad=False" to disable the '
            "feature",
            stacklevel=4,
        )

    def check(outs):
        try:
            grads = torch.autograd.grad(outs, diff, [torch.zeros_like(o) for o in outs], allow_unused=True)
        except RuntimeError as e:
            bc_warning()
            raise GradcheckError(
                "Expected backward function to handle undefined output grads. Please look at "
                '"Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"'
            ) from e
        for g in grads:
            if g is not None and not (g == 0).all():
                bc_warning()
                raise GradcheckError(
                    "Expected all input grads to be undefined or zero when all output grads are "
                    'undefined or zero. Please look at "Notes about undefined output gradients" in '
                    '"tools/autograd/derivatives.yaml"'
                )

    check([_undefined_grad(o) for o in _differentiable_outputs(func(*inputs))])
    if len(outputs) > 1:
        # one undefined output gradient at a time
        for k in range(len(outputs)):
            outs = _differentiable_outputs(func(*inputs))
            check([_undefined_grad(o) if m == k else o for m, o in enumerate(outs)])


def _forward_jacobians(func, inputs):
    """[input][float output] -> (input numel, output numel) Jacobians by forward-mode AD: one
    call of `func` per input element, with a unit tangent on that element (real inputs)."""
    torch = _torch()
    fwAD = torch.autograd.forward_ad
    diff = [k for k, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    result = []
    with fwAD.dual_level():
        for k in diff:
            inp = inputs[k]
            cols = None
            for d in range(inp.numel()):
                dual_inputs = list(inputs)
                for m in diff:
                    tangent = torch.zeros_like(inputs[m], memory_format=torch.contiguous_format)
                    if m == k:
                        tangent.view(-1)[d] = 1
                    dual_inputs[m] = fwAD.make_dual(inputs[m].detach(), tangent)
                outs = [o for o in _as_tuple(func(*dual_inputs)) if _is_float_or_complex(o)]
                if cols is None:
                    cols = [torch.zeros(inp.numel(), o.numel(), dtype=o.dtype) for o in outs]
                for m, o in zip(cols, outs):
                    t = fwAD.unpack_dual(o).tangent
                    if t is not None:
                        m[d] = t.reshape(-1).to(o.dtype)
            if cols is None:
                # an empty input: empty Jacobians, one per output
                outs = [o for o in _as_tuple(func(*inputs)) if _is_float_or_complex(o)]
                cols = [torch.zeros(0, o.numel(), dtype=o.dtype) for o in outs]
            result.append(cols)
    return result


def _forward_check(func, func_out, inputs, outputs, eps, rtol, atol, complex_inputs=None, imag=False):
    """Forward-mode Jacobians against central differences (real inputs; complex ones are split
    into their real and imaginary parts by the caller, as PyTorch does)."""
    if not outputs:
        _no_differentiable_outputs(func, inputs, eps)
        return
    numerical = _numerical_jacobians(func, inputs, eps)
    forward = _forward_jacobians(func, inputs)
    keep = _differentiable_positions(func_out)
    for i in range(len(outputs)):
        for j, per_output in enumerate(forward):
            a, n = per_output[keep[i]], numerical[j][keep[i]]
            if not _allclose(a, n, rtol, atol):
                prefix = ""
                if complex_inputs and j in complex_inputs:
                    part = "imaginary" if imag else "real"
                    prefix = f"While considering the {part} part of complex inputs only, "
                raise GradcheckError(
                    prefix + f"Jacobian computed with forward mode mismatch for output {i:d} with respect to input {j:d},\n"
                    f"numerical:{n}\nanalytical:{a}\n"
                )


def _undefined_forward_check(func, inputs):
    """A zero tangent and no tangent must give the same output tangents (PyTorch's check)."""
    torch = _torch()
    fwAD = torch.autograd.forward_ad
    diff = [k for k, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    with fwAD.dual_level():
        duals = list(inputs)
        for k in diff:
            duals[k] = fwAD.make_dual(inputs[k].detach(), _random_like(inputs[k]).to(inputs[k].dtype))
        for k in diff:
            keep = duals[k]
            duals[k] = fwAD.make_dual(inputs[k].detach(), torch.zeros_like(inputs[k]))
            outs1 = [o for o in _as_tuple(func(*duals)) if _is_float_or_complex(o)]
            duals[k] = inputs[k].detach()
            outs2 = [o for o in _as_tuple(func(*duals)) if _is_float_or_complex(o)]
            duals[k] = keep
            for index_o, (o1, o2) in enumerate(zip(outs1, outs2)):
                r1, r2 = fwAD.unpack_dual(o1).tangent, fwAD.unpack_dual(o2).tangent
                if r1 is not None and r2 is not None and not torch.allclose(r1, r2):
                    raise GradcheckError(
                        "Mismatch in tangent values for output with index: ", index_o,
                        " when input: ", inputs[k], " has an undefined tangent value. ",
                        " Got: ", r1, " but expected: ", r2,
                    )


def _real_and_imag_input(fn, complex_indices, inputs):
    """Functions of the real (or imaginary) parts of the complex inputs, the other part fixed."""

    def apply(part):
        def wrapped(*args):
            new = list(args)
            for k in complex_indices:
                new[k] = part(new[k], inputs[k])
            return _as_tuple(fn(*new))

        return wrapped

    return apply(lambda x, orig: x + orig.imag * 1j), apply(lambda x, orig: orig.real + x * 1j)


def _check_forward_ad(func, inputs, eps, atol, rtol, check_undefined_grad):
    complex_inputs = [k for k, t in enumerate(inputs) if isinstance(t, Tensor) and t.is_complex()]
    if not complex_inputs:
        func_out = func(*inputs)
        _forward_check(func, func_out, inputs, _differentiable_outputs(func_out), eps, rtol, atol)
        if check_undefined_grad:
            _undefined_forward_check(func, inputs)
        return
    real_fn, imag_fn = _real_and_imag_input(func, complex_inputs, inputs)

    def part_inputs(part):
        out = []
        for t in inputs:
            if isinstance(t, Tensor) and t.is_complex():
                p = part(t).detach().clone()
                p.requires_grad_(t.requires_grad)
                out.append(p)
            else:
                out.append(t)
        return tuple(out)

    torch = _torch()
    for fn, part, imag in ((imag_fn, torch.imag, True), (real_fn, torch.real, False)):
        part_in = part_inputs(part)
        out = fn(*part_in)
        _forward_check(fn, out, part_in, _differentiable_outputs(out), eps, rtol, atol,
                       complex_inputs=complex_inputs, imag=imag)
        if check_undefined_grad:
            _undefined_forward_check(fn, part_in)


def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes,
               check_batched_grad, check_batched_forward_grad, check_forward_ad, check_backward_ad, fast_mode, masked):
    if not (check_backward_ad or check_forward_ad):
        raise AssertionError(
            "Expected at least one of check_forward_ad or check_backward_ad to be True"
        )
    inputs = _as_tuple(inputs)
    _check_inputs(inputs)
    if not check_backward_ad:
        _check_forward_ad(func, inputs, eps, atol, rtol, check_undefined_grad)
        if check_batched_forward_grad:
            _check_batched_forward_grad(func, inputs)
        return True
    func_out = func(*inputs)
    outputs = _differentiable_outputs(func_out)
    check = _fast_check if fast_mode else _slow_check
    complex_outputs = [k for k, o in enumerate(outputs) if o.is_complex()]
    if any(isinstance(o, Tensor) and o.is_complex() for o in _as_tuple(func_out)):
        torch = _torch()
        imag_fn = _part_of_outputs(func, torch.imag)
        imag_out = imag_fn(*inputs)
        check(imag_fn, imag_out, inputs, _differentiable_outputs(imag_out), eps, rtol, atol,
              check_grad_dtypes, nondet_tol, complex_outputs=complex_outputs, imag=True)
        real_fn = _part_of_outputs(func, torch.real)
        real_out = real_fn(*inputs)
        check(real_fn, real_out, inputs, _differentiable_outputs(real_out), eps, rtol, atol,
              check_grad_dtypes, nondet_tol, complex_outputs=complex_outputs)
    else:
        check(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol)
    if outputs:
        _check_backward_multiplies_grad_output(outputs, inputs)
        if check_undefined_grad:
            _check_undefined_grad(func, outputs, inputs)
        if check_batched_grad:
            for i, o in enumerate(_differentiable_outputs(func(*inputs))):
                _check_batched_grad(inputs, o, i)
    if check_forward_ad:
        _check_forward_ad(func, inputs, eps, atol, rtol, check_undefined_grad)
        if check_batched_forward_grad:
            _check_batched_forward_grad(func, inputs)
    return True


_BATCHED_HINT = (
    "gradcheck or gradgradcheck failed while testing batched gradient computation.\n"
    "This could have been invoked in a number of ways (via a test that calls\n"
    "gradcheck/gradgradcheck directly or via an autogenerated test).\n\n"
    "If you are adding a new operator, please file an issue and then use one of the\n"
    "workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.\n"
    "If the test\n"
    "- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck\n"
    "  with `check_batched_grad=False` as a keyword argument.\n"
    "- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test\n"
    "  to have `check_batched_grad=False` and/or `check_batched_gradgrad=False`.\n\n"
    "If you're modifying an existing operator that supports batched grad computation,\n"
    "or wish to make a new operator work with batched grad computation, please read\n"
    "the following.\n"
)


def _batched_mismatch(output_idx, input_idx, res, exp):
    return (
        f"For output {output_idx} and input {input_idx}:\n\n{_BATCHED_HINT}\n\n"
        f"Got:\n{res}\n\nExpected:\n{exp}\n"
    ).strip()


def _check_batched_grad(inputs, output, output_idx):
    """Vector-Jacobian products for a batch of two output gradients at once
    (`grad(..., is_grads_batched=True)`) against one at a time. leafgrad batches by looping,
    so this checks that the batched call runs and agrees, not a batching rule."""
    torch = _torch()
    diff = _diff_inputs(inputs)

    def vjp(v, batched=False):
        res = torch.autograd.grad(output, diff, v, retain_graph=True, allow_unused=True,
                                  is_grads_batched=batched)
        shape = (lambda x: (v.shape[0],) + tuple(x.shape)) if batched else (lambda x: tuple(x.shape))
        return [torch.zeros(shape(x), dtype=x.dtype) if g is None else g for g, x in zip(res, diff)]

    grad_outputs = [_random_like(output).to(output.dtype) for _ in range(2)]
    expected = [torch.stack(shards) for shards in zip(*[vjp(g) for g in grad_outputs])]
    result = vjp(torch.stack(grad_outputs), batched=True)
    for input_idx, (res, exp) in enumerate(zip(result, expected)):
        if not torch.allclose(res, exp):
            raise GradcheckError(_batched_mismatch(output_idx, input_idx, res, exp))


def _check_batched_forward_grad(func, inputs):
    """Jacobian-vector products for a batch of two tangents per input (through `func.vmap`)
    against one at a time (leafgrad's vmap loops, as above)."""
    torch = _torch()
    fwAD = torch.autograd.forward_ad
    for k, inp in enumerate(inputs):
        if not (isinstance(inp, Tensor) and inp.requires_grad):
            continue

        def jvp(tangent, k=k, inp=inp):
            with fwAD.dual_level():
                # the function sees no input requiring grad under forward AD (as PyTorch's)
                args = [a.detach() if isinstance(a, Tensor) else a for a in inputs]
                args[k] = fwAD.make_dual(inp.detach(), tangent)
                outs = [o for o in _as_tuple(func(*args)) if _is_float_or_complex(o)]
                return tuple(
                    torch.zeros_like(o) if t is None else t
                    for o, t in (fwAD.unpack_dual(o) for o in outs)
                )

        tangents = [_random_like(inp).to(inp.dtype) for _ in range(2)]
        expected = [torch.stack(shards) for shards in zip(*[jvp(t) for t in tangents])]
        result = torch.func._vmap(jvp)(torch.stack(tangents))
        for output_idx, (res, exp) in enumerate(zip(result, expected)):
            if not torch.allclose(res, exp):
                raise GradcheckError(_batched_mismatch(output_idx, k, res, exp))


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    """Check the gradients of `func` at `inputs` against finite differences (see the module).

    Returns True, or raises `GradcheckError` (returns False with `raise_exception=False`).
    Inputs that require grad should be float64 or complex128 (a warning says so otherwise).

    >>> x = torch.tensor([0.5, 2.0], dtype=torch.float64, requires_grad=True)
    >>> torch.autograd.gradcheck(lambda t: (t.exp() * t).sum(), (x,))
    True
    """
    try:
        return _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes,
                          check_batched_grad, check_batched_forward_grad, check_forward_ad, check_backward_ad,
                          fast_mode, masked)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """Check second derivatives: `gradcheck` of the function (inputs, grad_outputs) ->
    autograd.grad(func(inputs), inputs, grad_outputs, create_graph=True).

    Without `grad_outputs`, random ones (uniform in [-1, 1), requiring grad) are drawn.

    >>> x = torch.tensor([0.5, 2.0], dtype=torch.float64, requires_grad=True)
    >>> torch.autograd.gradgradcheck(torch.tanh, (x,))
    True
    """
    torch = _torch()
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outs = _differentiable_outputs(func(*inputs))
        grad_outputs = []
        for o in outs:
            g = _random_like(o)
            if not (o.is_floating_point() or o.is_complex()):
                g = g.to(torch.float64)
            else:
                g = g.to(o.dtype)
            if gen_non_contig_grad_outputs and g.dim() > 0:
                g = torch.stack([g, g], -1)[..., 0]
            grad_outputs.append(g.requires_grad_())
        grad_outputs = tuple(grad_outputs)
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n_out = len(grad_outputs)
    diff_inputs = {k for k, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad}
    diff_grads = {k for k, t in enumerate(grad_outputs) if t.requires_grad}

    def grads_of(*args):
        xs = tuple(t.requires_grad_() if k in diff_inputs else t for k, t in enumerate(args[:-n_out] if n_out else args))
        outs = _differentiable_outputs(func(*xs))
        gos = tuple(t.requires_grad_() if k in diff_grads else t for k, t in enumerate(args[len(args) - n_out:]))
        wrt = tuple(t for k, t in enumerate(xs) if k in diff_inputs)
        gs = torch.autograd.grad(outs, wrt, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in gs if g is not None)

    return gradcheck(grads_of, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad, check_grad_dtypes=check_grad_dtypes,
                     check_batched_grad=check_batched_grad, fast_mode=fast_mode,
                     check_forward_ad=check_fwd_over_rev, check_backward_ad=check_rev_over_rev, masked=masked)


_DEPRECATED = (
    "`{}` was part of PyTorch's private API and not meant to be exposed. We are deprecating it "
    "and it will be removed in a future version of PyTorch. If you have a specific use for this "
    "or feature request for this to be a stable API, please file us an issue at "
    "https://github.com/pytorch/pytorch/issues/new"
)


def get_numerical_jacobian(fn, inputs, target=None, eps=1e-3, grad_out=1.0):
    """Deprecated (as in PyTorch): the Jacobians of `fn(inputs)`'s first output with respect to
    each input (or each tensor of `target`), by central differences.

    >>> import warnings
    >>> from leafgrad.autograd.gradcheck import get_numerical_jacobian
    >>> a = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
    >>> with warnings.catch_warnings(record=True):
    ...     (j,) = get_numerical_jacobian(lambda inp: inp[0] ** 2, (a,), eps=1e-6)
    >>> torch.allclose(j, torch.tensor([[2., 0.], [0., 4.]], dtype=torch.float64))
    True
    """
    warnings.warn(_DEPRECATED.format("get_numerical_jacobian"), FutureWarning, stacklevel=2)
    if grad_out != 1.0:
        raise ValueError(
            "Expected grad_out to be 1.0. get_numerical_jacobian no longer supports values of "
            "grad_out != 1.0."
        )
    inputs = _as_tuple(inputs)
    wrt = None if target is None else _as_tuple(target)
    jacobians = _numerical_jacobians(lambda *inps: fn(inps), inputs, eps, wrt)
    return tuple(j[0] for j in jacobians)


def get_analytical_jacobian(inputs, output, nondet_tol=0.0, grad_out=1.0):
    """Deprecated (as in PyTorch): `(jacobians, reentrant, sizes_ok, types_ok)` of `output`
    with respect to each input, by backward passes run twice.

    >>> import warnings
    >>> from leafgrad.autograd.gradcheck import get_analytical_jacobian
    >>> a = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
    >>> with warnings.catch_warnings(record=True):
    ...     jacobians, reentrant, sizes_ok, types_ok = get_analytical_jacobian((a,), a * 3)
    >>> jacobians[0]
    tensor([[3., 0.],
            [0., 3.]], dtype=torch.float64)
    """
    warnings.warn(_DEPRECATED.format("get_analytical_jacobian"), FutureWarning, stacklevel=2)
    if grad_out != 1.0:
        raise ValueError(
            "Expected grad_out to be 1.0. get_analytical_jacobian no longer supports values of "
            "grad_out != 1.0."
        )
    if output.is_complex():
        raise ValueError(
            "Expected output to be non-complex. get_analytical_jacobian no longer supports "
            "functions that return complex outputs."
        )
    return _analytical_parts(_as_tuple(inputs), output, nondet_tol)
