"""`torch.autograd.functional`: derivatives of a whole function at a point.

`vjp`, `jvp`, `jacobian`, `hessian`, `vhp`, `hvp` take a function of tensors and the point
(a tensor or a tuple of tensors) and return results shaped like PyTorch's: a tuple where the
inputs (or outputs) were a tuple, a tensor otherwise. They are built on `autograd.grad`:
`jvp` and `hvp` use the double-backward trick (the backward is linear in its grad_outputs, so
differentiating it again gives forward-mode products). `create_graph=True` keeps the results
differentiable; `strict=True` raises where an output does not depend on an input instead of
returning zeros.

>>> def f(x):
...     return x ** 3
>>> torch.autograd.functional.jacobian(f, torch.tensor([1.0, 2.0]))
tensor([[ 3.,  0.],
        [ 0., 12.]])
>>> torch.autograd.functional.hessian(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]))
tensor([[ 6.,  0.],
        [ 0., 12.]])

`vectorize=True` is accepted and computes the same values one backward pass per output element
(leafgrad has no vmap yet); `strategy="forward-mode"` (with `vectorize=True`, as PyTorch asks)
computes the Jacobian with forward-mode AD, one call of the function per input element.
"""
from .._core import Tensor

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _torch():
    import leafgrad

    return leafgrad


def _tupled(value, what, fn):
    """(was it a tuple, the tuple of tensors), refusing anything else as PyTorch."""
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = f" value at index {i}" if is_tuple else f" given {what}"
            raise TypeError(
                f"The {what} given to {fn} must be either a Tensor or a tuple of Tensors but the"
                f"{where} has type {type(el)}."
            )
    return is_tuple, items


def _untupled(result, was_tuple):
    """Undo `_tupled`: `was_tuple` is one flag, or (outer, inner) for nested results."""
    if isinstance(was_tuple, tuple):
        outer, inner = was_tuple
        if not inner:
            result = tuple(el[0] for el in result)
        return result if outer else result[0]
    return result if was_tuple else result[0]


def _fresh(tensors, create_graph, need_graph):
    """New tensor objects for the function to see: a differentiable alias of an input that
    requires grad (under create_graph), else a detached copy requiring grad as `need_graph`."""
    out = []
    for t in tensors:
        if create_graph and t.requires_grad:
            out.append(t.view_as(t))
        else:
            out.append(t.detach().requires_grad_(need_graph))
    return tuple(out)


def _finish(tensors, create_graph):
    """Results without history unless create_graph (nested tuples too)."""
    if isinstance(tensors[0], Tensor):
        return tensors if create_graph else tuple(t.detach() for t in tensors)
    return tuple(_finish(t, create_graph) for t in tensors)


def _check_v(v, other, other_is_tuple):
    if len(other) != len(v):
        if other_is_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (a, b) in enumerate(zip(v, other)):
        if a.size() != b.size():
            prefix = f"Entry {idx} in " if other_is_tuple else ""
            raise RuntimeError(f"{prefix}v has invalid size: should be {b.size()} but got {a.size()}.")


_STRICT = {
    "outputs": lambda i: (
        f"Output {i} of the user-provided function does not require gradients. The outputs must be "
        "computed in a differentiable manner from the input when running in strict mode."
    ),
    "grad_inputs": lambda i: (
        f"The gradient with respect to input {i} is independent of the inputs of the user-provided "
        "function. This is not allowed in strict mode."
    ),
    "jacobian": lambda i: (
        "While computing the hessian, found that the jacobian of the user-provided function with "
        f"respect to input {i} is independent of the input. This is not allowed in strict mode. You "
        "should ensure that your function is twice differentiable and that the jacobian depends on "
        "the inputs (this would be violated by a linear function for example)."
    ),
    "hessian": lambda i: (
        f"The hessian of the user-provided function with respect to input {i} is independent of the "
        "input. This is not allowed in strict mode. You should ensure that your function is thrice "
        "differentiable and that the hessian depends on the inputs."
    ),
}


def _strict_requires_grad(tensors, kind, strict):
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(
                f"The output of the user-provided function is independent of input {i}. This is not "
                "allowed in strict mode."
            )
        if not t.requires_grad:
            raise RuntimeError(_STRICT[kind](i))


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """autograd.grad over the outputs that require grad (None for every input when none does)."""
    torch = _torch()
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs, gos = zip(*pairs)
    return torch.autograd.grad(outs, inputs, gos, allow_unused=True, create_graph=create_graph,
                               retain_graph=retain_graph)


_ZERO_FILL = {
    "back": lambda i: (
        f"The output of the user-provided function is independent of input {i}. This is not allowed "
        "in strict mode."
    ),
    "back_trick": lambda i: (
        f"The gradient with respect to the input is independent of entry {i} in the grad_outputs when "
        "using the double backward trick to compute forward mode gradients. This is not allowed in "
        "strict mode."
    ),
    "double_back": lambda i: (
        f"The jacobian of the user-provided function is independent of input {i}. This is not allowed "
        "in strict mode."
    ),
    "double_back_trick": lambda i: (
        f"The hessian of the user-provided function is independent of entry {i} in the grad_jacobian. "
        "This is not allowed in strict mode as it prevents from using the double backward trick to "
        "replace forward mode AD."
    ),
}


def _zeros_for_none(grads, refs, strict, create_graph, stage):
    torch = _torch()
    out = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_ZERO_FILL[stage](i))
            g = torch.zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of input {i}. This is not "
                "allowed in strict mode when create_graph=True."
            )
        out.append(g)
    return tuple(out)


def _v_or_scalar_point(v, against, against_is_tuple, create_graph, fn, none_message):
    if v is not None:
        _, v = _tupled(v, "v", fn)
        v = _fresh(v, create_graph, need_graph=False)
        _check_v(v, against, against_is_tuple)
        return v
    if len(against) != 1 or against[0].nelement() != 1:
        raise RuntimeError(none_message)
    return None


_V_NONE_OUTPUT = (
    "The vector v can only be None if the user-provided function returns a single Tensor with a "
    "single element."
)
_V_NONE_INPUT = (
    "The vector v can only be None if the input to the user-provided function is a single Tensor "
    "with a single element."
)


def _product(outputs, outputs_tuple, grad_of, wrt, grad_outputs, refs, result_tuple, strict, create_graph, stage):
    """The shared end of vjp/jvp/vhp/hvp: d(grad_of)/d(wrt) . grad_outputs (recorded only under
    create_graph), None filled with zeros like `refs` (or refused in strict mode), and the
    results shaped as the caller's arguments were."""
    torch = _torch()
    with torch.set_grad_enabled(True if create_graph else torch.is_grad_enabled()):
        grads = _grad(grad_of, wrt, grad_outputs, create_graph=create_graph)
        result = _zeros_for_none(grads, refs, strict, create_graph, stage)
    return (_untupled(_finish(outputs, create_graph), outputs_tuple),
            _untupled(_finish(result, create_graph), result_tuple))


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product at `inputs`.

    >>> x = torch.tensor([1.0, 2.0])
    >>> torch.autograd.functional.vjp(lambda x: x ** 2, x, torch.ones(2))
    (tensor([1., 4.]), tensor([2., 4.]))
    """
    torch = _torch()
    with torch.enable_grad():
        inputs_tuple, inputs = _tupled(inputs, "inputs", "vjp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _tupled(func(*inputs), "outputs of the user-provided function", "vjp")
        _strict_requires_grad(outputs, "outputs", strict)
        v = _v_or_scalar_point(v, outputs, outputs_tuple, create_graph, "vjp", _V_NONE_OUTPUT)
    return _product(outputs, outputs_tuple, outputs, inputs, v, inputs, inputs_tuple, strict,
                    create_graph, "back")


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product, by the double-backward trick.

    >>> x = torch.tensor([1.0, 2.0])
    >>> torch.autograd.functional.jvp(lambda x: x ** 2, x, torch.ones(2))
    (tensor([1., 4.]), tensor([2., 4.]))
    """
    torch = _torch()
    with torch.enable_grad():
        inputs_tuple, inputs = _tupled(inputs, "inputs", "jvp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        v = _v_or_scalar_point(v, inputs, inputs_tuple, create_graph, "jvp", _V_NONE_INPUT)
        outputs_tuple, outputs = _tupled(func(*inputs), "outputs of the user-provided function", "jvp")
        _strict_requires_grad(outputs, "outputs", strict)
        # backward is linear in grad_outputs: its value does not matter (zeros, never inf/nan)
        grad_outputs = tuple(torch.zeros_like(o, requires_grad=True) for o in outputs)
        grad_inputs = _grad(outputs, inputs, grad_outputs, create_graph=True)
        _strict_requires_grad(grad_inputs, "grad_inputs", strict)
    return _product(outputs, outputs_tuple, grad_inputs, grad_outputs, v, outputs, outputs_tuple, strict,
                    create_graph, "back_trick")


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of `func` at `inputs`: for output i and input j, a tensor of shape
    `output_i.shape + input_j.shape` (nested tuples where outputs/inputs are tuples).

    >>> torch.autograd.functional.jacobian(lambda x, y: x * y, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
    (tensor([[3., 0.],
            [0., 4.]]), tensor([[1., 0.],
            [0., 2.]]))
    """
    torch = _torch()
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "torch.autograd.functional.jacobian: `create_graph=True` "
                'and `strategy="forward-mode"` are not supported together (yet). '
                "Please either set `create_graph=False` or "
                '`strategy="reverse-mode"`.'
            )
        if strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` "
                'and `strategy="forward-mode"` are not supported together (yet). '
                "Please either set `strict=False` or "
                '`strategy="reverse-mode"`.'
            )
        if not vectorize:
            raise NotImplementedError(
                "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                "only implemented for `vectorize=True`."
            )
        return _jacfwd(func, inputs)
    with torch.enable_grad():
        inputs_tuple, inputs = _tupled(inputs, "inputs", "jacobian")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _tupled(func(*inputs), "outputs of the user-provided function", "jacobian")
        _strict_requires_grad(outputs, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` "
                "and `vectorized=True` are not supported together. "
                "Please either set `strict=False` or "
                "`vectorize=False`."
            )
        jac = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]
            flat = out.reshape(-1)
            for k in range(out.nelement()):
                grads = _grad((flat[k],), inputs, retain_graph=True, create_graph=create_graph)
                for j, (g, inp) in enumerate(zip(grads, inputs)):
                    if g is None:
                        if strict:
                            raise RuntimeError(
                                f"Output {i} of the user-provided function is independent of input {j}. "
                                "This is not allowed in strict mode."
                            )
                        g = torch.zeros_like(inp)
                    elif strict and create_graph and not g.requires_grad:
                        raise RuntimeError(
                            f"The jacobian of the user-provided function is independent of input {i}. "
                            "This is not allowed in strict mode when create_graph=True."
                        )
                    rows[j].append(g)
            jac.append(tuple(
                torch.stack(r, 0).view(tuple(out.shape) + tuple(inp.shape)) for r, inp in zip(rows, inputs)
            ))
        jac = _finish(tuple(jac), create_graph)
        return _untupled(jac, (outputs_tuple, inputs_tuple))


def _jacfwd(func, inputs):
    """The Jacobian by forward-mode AD: one call of `func` per input element, with a unit
    tangent on that element (PyTorch batches these calls with vmap; leafgrad loops)."""
    torch = _torch()
    fwAD = torch.autograd.forward_ad
    inputs_tuple, inputs = _tupled(inputs, "inputs", "jacobian")
    columns = None  # [output][input] -> list of output-shaped tangents, one per input element
    outputs_tuple = False
    outputs = ()
    with fwAD.dual_level():
        for j, inp in enumerate(inputs):
            for k in range(inp.nelement()):
                duals = []
                for m, other in enumerate(inputs):
                    tangent = torch.zeros_like(other, memory_format=torch.contiguous_format)
                    if m == j:
                        tangent.view(-1)[k] = 1
                    duals.append(fwAD.make_dual(other, tangent))
                outputs_tuple, outputs = _tupled(func(*duals), "outputs of the user-provided function", "jacobian")
                if columns is None:
                    columns = [[[] for _ in inputs] for _ in outputs]
                for i, out in enumerate(outputs):
                    primal, t = fwAD.unpack_dual(out)
                    columns[i][j].append(torch.zeros_like(primal) if t is None else t.detach())
    if columns is None:  # inputs without elements: one call for the outputs' shapes
        outputs_tuple, outputs = _tupled(func(*inputs), "outputs of the user-provided function", "jacobian")
        columns = [[[] for _ in inputs] for _ in outputs]
    jac = []
    for i, out in enumerate(outputs):
        per_input = []
        for j, inp in enumerate(inputs):
            cols = columns[i][j]
            shape = tuple(out.shape) + tuple(inp.shape)
            if cols:
                per_input.append(torch.stack(cols, -1).reshape(shape))
            else:
                per_input.append(torch.zeros(shape, dtype=out.dtype))
        jac.append(tuple(per_input))
    return _untupled(tuple(jac), (outputs_tuple, inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function at `inputs`: the Jacobian of its gradient.

    >>> torch.autograd.functional.hessian(lambda x: (x ** 2).sum() * x[0], torch.tensor([1.0, 2.0]))
    tensor([[6., 4.],
            [4., 2.]])
    """
    inputs_tuple, inputs = _tupled(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar_func(*args):
        out = func(*args)
        out_tuple, t_out = _tupled(out, "outputs of the user-provided function", "hessian")
        _strict_requires_grad(t_out, "outputs", strict)
        if out_tuple or not isinstance(out, Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def gradient(*args):
        if outer_jacobian_strategy == "forward-mode":
            args = tuple(t.requires_grad_(True) for t in args)
        jac = jacobian(scalar_func, args, create_graph=True)
        _strict_requires_grad(jac, "jacobian", strict)
        return jac

    res = jacobian(gradient, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    return _untupled(res, (inputs_tuple, inputs_tuple))


def _scalar_output(func, inputs, fn, strict):
    outputs_tuple, outputs = _tupled(func(*inputs), "outputs of the user-provided function", fn)
    _strict_requires_grad(outputs, "outputs", strict)
    if outputs_tuple or not isinstance(outputs[0], Tensor):
        raise RuntimeError(f"The function given to {fn} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn} should contain a single element")
    return outputs_tuple, outputs


def _gradient_at(func, inputs, v, create_graph, strict, fn):
    """vhp/hvp's common start (under enable_grad): the checked inputs and v, the scalar output,
    and its gradient recorded with a graph."""
    inputs_tuple, inputs = _tupled(inputs, "inputs", fn)
    inputs = _fresh(inputs, create_graph, need_graph=True)
    v = _v_or_scalar_point(v, inputs, inputs_tuple, create_graph, fn, _V_NONE_INPUT)
    outputs_tuple, outputs = _scalar_output(func, inputs, fn, strict)
    jac = _grad(outputs, inputs, create_graph=True)
    _strict_requires_grad(jac, "jacobian", strict)
    return inputs_tuple, inputs, v, outputs_tuple, outputs, jac


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a scalar function.

    >>> f = lambda x: (x ** 3).sum()
    >>> torch.autograd.functional.vhp(f, torch.tensor([1.0, 2.0]), torch.ones(2))
    (tensor(9.), tensor([ 6., 12.]))
    """
    torch = _torch()
    with torch.enable_grad():
        inputs_tuple, inputs, v, outputs_tuple, outputs, jac = _gradient_at(func, inputs, v, create_graph, strict, "vhp")
    return _product(outputs, outputs_tuple, jac, inputs, v, inputs, inputs_tuple, strict,
                    create_graph, "double_back")


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a scalar function, by the double-backward trick (slower than
    `vhp`, equal to it for twice continuously differentiable functions).

    >>> f = lambda x: (x ** 3).sum()
    >>> torch.autograd.functional.hvp(f, torch.tensor([1.0, 2.0]), torch.ones(2))
    (tensor(9.), tensor([ 6., 12.]))
    """
    torch = _torch()
    with torch.enable_grad():
        inputs_tuple, inputs, v, outputs_tuple, outputs, jac = _gradient_at(func, inputs, v, create_graph, strict, "hvp")
        grad_jac = tuple(torch.zeros_like(t, requires_grad=True) for t in inputs)
        double_back = _grad(jac, inputs, grad_jac, create_graph=True)
        _strict_requires_grad(jac, "hessian", strict)
    return _product(outputs, outputs_tuple, double_back, grad_jac, v, inputs, inputs_tuple, strict,
                    create_graph, "double_back_trick")
