"""`torch.func`: function transforms (`grad`, `grad_and_value`, `vjp`, `jvp`, `jacrev`,
`jacfwd`, `hessian`, `vmap`, `functional_call`), built on leafgrad's autograd.

Each transform evaluates the function on fresh aliases of its inputs and differentiates with
`autograd.grad(create_graph=True)`, so transforms nest (`grad(grad(f))`, `jacfwd(jacrev(f))`)
and compose with ordinary autograd: a result whose graph reaches a tensor that required grad
(an input, or one the function closes over) stays differentiable, and is a plain tensor
otherwise, as PyTorch's are.

- `jvp` and `jacfwd` use forward-mode AD (`autograd.forward_ad`); inside an open dual level
  (a `jvp` of a `jvp`) they use the double-vjp product instead, as PyTorch supports one level.
- `vmap` runs the function once per slice of the batch and stacks the results (PyTorch
  batches the ops instead); the values are the same, the cost is one call per batch element.
  `randomness` is accepted, and random ops draw per slice (PyTorch's "different").

>>> torch.func.grad(lambda x: (x ** 3).sum())(torch.tensor([1.0, 2.0]))
tensor([ 3., 12.])
"""
import functools

from . import _core
from ._core import Tensor

__all__ = [
    "grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap",
    "functional_call",
]


def _torch():
    import leafgrad

    return leafgrad


# --- pytrees of tensors (tuples, lists, dicts) ---------------------------------------------

def _flatten(tree):
    """(leaves, rebuild) for a nested tuple/list/dict of leaves."""
    if isinstance(tree, (tuple, list)):
        parts = [_flatten(t) for t in tree]
        leaves = [leaf for p in parts for leaf in p[0]]

        def rebuild(values, parts=parts, kind=type(tree)):
            out, k = [], 0
            for p_leaves, p_rebuild in parts:
                out.append(p_rebuild(values[k:k + len(p_leaves)]))
                k += len(p_leaves)
            if kind is tuple or kind is list:
                return kind(out)
            return kind(*out)  # namedtuple

        return leaves, rebuild
    if isinstance(tree, dict):
        keys = list(tree)
        leaves_tree = _flatten([tree[k] for k in keys])

        def rebuild(values):
            return dict(zip(keys, leaves_tree[1](values)))

        return leaves_tree[0], rebuild
    return [tree], lambda values: values[0]


def _alias(t):
    """A fresh differentiable stand-in for `t`: an alias keeping its graph when it requires
    grad, else a detached leaf that requires grad."""
    if not isinstance(t, Tensor):
        raise ValueError(
            f"Thing passed to transform API must be Tensor, got {type(t)}"
        )
    if t.requires_grad:
        return t.view_as(t)
    a = t.detach().requires_grad_(True)
    tangent = _core._fw_grad(t) if _core._current_dual_level() >= 0 else None
    if tangent is not None:
        # a dual input stays dual (forward-over-reverse: jacfwd(jacrev(f)))
        _core._set_tangent(a, tangent)
    return a


def _reaches_outside(values, private):
    """Does any of `values` have a graph reaching a leaf other than the `private` stand-ins (a
    tensor that required grad before the transform: the result stays differentiable)?"""
    private = {id(t) for t in private}
    seen = set()
    alive = []  # node objects may be made per access: keep them, so their ids stay unique
    stack = [v.grad_fn for v in values if isinstance(v, Tensor) and v.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        alive.append(node)
        variable = getattr(node, "variable", None)
        if variable is not None and id(variable) not in private:
            return True
        stack.extend(n for n, _ in node.next_functions)
    return False


def _finish(values, private):
    """The transform's results: detached, unless their graph reaches outside the transform's own
    stand-ins (then they stay differentiable, as PyTorch's do)."""
    if _reaches_outside(values, private):
        return values
    return [_detach(v) if isinstance(v, Tensor) else v for v in values]


def _detach(t):
    """`t.detach()` keeping a forward-AD tangent (an enclosing jvp/jacfwd still needs it)."""
    d = t.detach()
    tangent = _core._fw_grad(t) if _core._current_dual_level() >= 0 else None
    if tangent is not None:
        _core._set_tangent(d, tangent)
    return d


def _argnums_tuple(argnums, nargs, api):
    single = isinstance(argnums, int)
    nums = (argnums,) if single else tuple(argnums)
    if not nums:
        raise RuntimeError(f"{api}: argnums must be non-empty")
    out = []
    for n in nums:
        if not isinstance(n, int):
            raise RuntimeError(f"{api}: argnums must be int or Tuple[int, ...], got: {type(argnums)}")
        if not -nargs <= n < nargs:
            raise RuntimeError(
                f"Got argnum={n}, but only {nargs} positional inputs"
            )
        out.append(n % nargs)
    if len(set(out)) != len(out):
        raise RuntimeError(f"{api}: argnums must be unique, got {argnums}")
    return single, tuple(out)


def _grad_of(output, inputs, grad_output=None):
    torch = _torch()
    grads = torch.autograd.grad(output, inputs, grad_output, create_graph=True, allow_unused=True) \
        if output.requires_grad else [None] * len(inputs)
    return [torch.zeros_like(x) if g is None else g for g, x in zip(grads, inputs)]


# --- grad, grad_and_value, vjp ----------------------------------------------------------------

def grad_and_value(func, argnums=0, has_aux=False):
    """Like `grad`, returning `(gradient, value)` (`(gradient, (value, aux))` with has_aux).

    >>> torch.func.grad_and_value(lambda x: (x ** 2).sum())(torch.tensor([1., 2.]))
    (tensor([2., 4.]), tensor(5.))
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        torch = _torch()
        single, nums = _argnums_tuple(argnums, len(args), "grad_and_value")
        args = list(args)
        trees, leaves_of = {}, {}
        for n in nums:
            leaves, rebuild = _flatten(args[n])
            fresh = [_alias(x) for x in leaves]
            leaves_of[n], trees[n] = fresh, rebuild
            args[n] = rebuild(fresh)
        with torch.enable_grad():
            out = func(*args, **kwargs)
            aux = None
            if has_aux:
                if not (isinstance(out, tuple) and len(out) == 2):
                    raise RuntimeError(
                        "grad_and_value(f)(*args): output of function f should be a tuple: (output, aux) "
                        "if has_aux is True"
                    )
                out, aux = out
            if not isinstance(out, Tensor):
                raise RuntimeError(
                    f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(out)}"
                )
            if out.dim() != 0:
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, "
                    f"got tensor with {out.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?"
                )
            flat = [x for n in nums for x in leaves_of[n]]
            grads = _grad_of(out, flat)
        grads = _finish(grads, flat)
        results, k = [], 0
        for n in nums:
            m = len(leaves_of[n])
            results.append(trees[n](grads[k:k + m]))
            k += m
        g = results[0] if single else tuple(results)
        value = _finish([out], flat)[0]
        if has_aux:
            return g, (value, _finish_tree(aux, flat))
        return g, value

    return wrapper


def grad(func, argnums=0, has_aux=False):
    """The gradient of a scalar function with respect to its `argnums` argument(s).

    >>> torch.func.grad(lambda x, y: (x * y).sum(), argnums=(0, 1))(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    (tensor([3., 4.]), tensor([1., 2.]))
    """
    gv = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        g, value = gv(*args, **kwargs)
        if has_aux:
            return g, value[1]
        return g

    return wrapper


def _finish_tree(tree, private):
    leaves, rebuild = _flatten(tree)
    for x in leaves:
        if not isinstance(x, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(x)}")
    return rebuild(_finish(leaves, private))


def vjp(func, *primals, has_aux=False):
    """`(output, vjp_fn)`: `vjp_fn(cotangents)` gives the vector-Jacobian product, one gradient
    per primal (`(output, vjp_fn, aux)` with has_aux).

    >>> out, vjp_fn = torch.func.vjp(torch.sin, torch.tensor([0.0, 1.0]))
    >>> vjp_fn(torch.ones(2))
    (tensor([1.0000, 0.5403]),)
    """
    torch = _torch()
    leaves, rebuild = _flatten(list(primals))
    fresh = [_alias(x) for x in leaves]
    with torch.enable_grad():
        out = func(*rebuild(fresh))
        aux = None
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise RuntimeError(
                    "vjp(f, *primals): output of function f should be a tuple: (output, aux) if has_aux is True"
                )
            out, aux = out
    out_leaves, out_rebuild = _flatten(out)
    for o in out_leaves:
        if not isinstance(o, Tensor):
            raise RuntimeError(
                f"vjp(f, *primals): Expected f(*primals) to return only tensors, got unsupported type {type(o)}"
            )

    def vjp_fn(cotangents):
        ct_leaves, _ = _flatten(cotangents)
        if len(ct_leaves) != len(out_leaves):
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure of outputs "
                "to the function"
            )
        for o, c in zip(out_leaves, ct_leaves):
            if tuple(o.shape) != tuple(c.shape):
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[0] has a shape of {tuple(c.shape)} and output[0] "
                    f"has a shape of {tuple(o.shape)}."
                )
        with torch.enable_grad():
            pairs = [(o, c) for o, c in zip(out_leaves, ct_leaves) if o.requires_grad]
            if pairs:
                grads = torch.autograd.grad([o for o, _ in pairs], fresh, [c for _, c in pairs],
                                            retain_graph=True, create_graph=True, allow_unused=True)
            else:
                grads = [None] * len(fresh)
        grads = [torch.zeros_like(x) if g is None else g for g, x in zip(grads, fresh)]
        return tuple(rebuild(_finish(grads, fresh)))

    value = out_rebuild(_finish(out_leaves, fresh))
    if has_aux:
        return value, vjp_fn, _finish_tree(aux, fresh)
    return value, vjp_fn


# --- jvp, jacrev, jacfwd, hessian -------------------------------------------------------------

def _jvp_flat(func, primals, tangents):
    """(outputs, output tangents) as flat lists, with the output pytree's rebuild."""
    torch = _torch()
    fwAD = torch.autograd.forward_ad
    if _core._current_dual_level() < 0:
        with fwAD.dual_level():
            duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]
            out = func(duals)
            leaves, rebuild = _flatten(out)
            pairs = [fwAD.unpack_dual(o) for o in leaves]
            outs = [p for p, _ in pairs]
            tans = [torch.zeros_like(p) if t is None else t for p, t in pairs]
        return outs, tans, rebuild, []
    # a dual level is open (a jvp inside a jvp): the double-vjp product, J t = d/du <vjp(u), t>
    fresh = [_alias(p) for p in primals]
    with torch.enable_grad():
        out = func(fresh)
        leaves, rebuild = _flatten(out)
        us = [torch.zeros_like(o).requires_grad_(True) for o in leaves]
        pairs = [(o, u) for o, u in zip(leaves, us) if o.requires_grad]
        if not pairs:
            return leaves, [torch.zeros_like(o) for o in leaves], rebuild, fresh + us
        gs = torch.autograd.grad([o for o, _ in pairs], fresh, [u for _, u in pairs],
                                 create_graph=True, allow_unused=True)
        roots = [(g, t) for g, t in zip(gs, tangents) if g is not None and g.requires_grad]
        if roots:
            tans = torch.autograd.grad([g for g, _ in roots], us, [t for _, t in roots],
                                       create_graph=True, allow_unused=True)
        else:
            tans = [None] * len(us)
    tans = [torch.zeros_like(o) if t is None else t for o, t in zip(leaves, tans)]
    return leaves, tans, rebuild, fresh + us


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """`(func(*primals), J·tangents)`: the Jacobian-vector product, by forward-mode AD.

    >>> torch.func.jvp(torch.sin, (torch.tensor([0.0, 1.0]),), (torch.ones(2),))
    (tensor([0.0000, 0.8415]), tensor([1.0000, 0.5403]))
    """
    if strict:
        raise RuntimeError("jvp(f, primals, tangents): strict=True is not supported yet")
    if not isinstance(primals, (tuple, list)):
        raise RuntimeError(f"jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    p_leaves, p_rebuild = _flatten(list(primals))
    t_leaves, _ = _flatten(list(tangents))
    if len(p_leaves) != len(t_leaves):
        raise RuntimeError(
            "jvp(f, primals, tangents): Expected primals and tangents to have the same python structure. "
            "For example, if primals is a tuple of 3 tensors, tangents also must be. "
            f"Got primals with structure {primals} and tangents with structure {tangents}"
        )
    for p, t in zip(p_leaves, t_leaves):
        if tuple(p.shape) != tuple(t.shape):
            raise RuntimeError(
                "Trying to set a forward gradient that has a different size than that of the original "
                f"Tensor, this is not supported. Tensor is of size {list(p.shape)} while the given "
                f"forward gradient is of size {list(t.shape)}."
            )
    aux_box = []

    def call(flat):
        out = func(*p_rebuild(flat))
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise RuntimeError(
                    "jvp(f, primals, tangents): output of function f should be a tuple: (output, aux) "
                    "if has_aux is True"
                )
            out, aux = out
            aux_box.append(aux)
        return out

    outs, tans, rebuild, private = _jvp_flat(call, p_leaves, t_leaves)
    result = (rebuild(_finish(outs, private)), rebuild(_finish(tans, private)))
    if has_aux:
        return result + (_finish_tree(aux_box[0], private),)
    return result


def _jac_structure(outs_flat, out_rebuild, per_arg, single):
    """Arrange [output][arg] Jacobians as PyTorch's: the outputs' structure, and within each
    output one tensor (single argnum) or a tuple over argnums."""
    leaves = []
    for per_output in per_arg:
        leaves.append(per_output[0] if single else tuple(per_output))
    return out_rebuild(leaves)


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """The Jacobian by reverse-mode AD: for each output, shape `output.shape + input.shape`.

    >>> torch.func.jacrev(torch.sin)(torch.tensor([0.0, 1.0]))
    tensor([[1.0000, 0.0000],
            [0.0000, 0.5403]])
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        torch = _torch()
        single, nums = _argnums_tuple(argnums, len(args), "jacrev")
        args = list(args)
        fresh = {}
        for n in nums:
            fresh[n] = _alias(args[n])
            args[n] = fresh[n]
        with torch.enable_grad():
            out = func(*args, **kwargs)
            aux = None
            if has_aux:
                out, aux = out
            out_leaves, out_rebuild = _flatten(out)
            inputs = [fresh[n] for n in nums]
            per_output = []
            for o in out_leaves:
                rows = [[] for _ in inputs]
                flat = o.reshape(-1)
                for k in range(o.numel()):
                    gs = _grad_of(flat[k], inputs) if o.requires_grad else [torch.zeros_like(x) for x in inputs]
                    for r, g in zip(rows, gs):
                        r.append(g)
                jacs = []
                for r, x in zip(rows, inputs):
                    shape = tuple(o.shape) + tuple(x.shape)
                    j = torch.stack(r, 0).reshape(shape) if r else torch.zeros(shape, dtype=o.dtype)
                    jacs.append(j)
                per_output.append(_finish(jacs, inputs))
        result = _jac_structure(out_leaves, out_rebuild, per_output, single)
        if has_aux:
            return result, _finish_tree(aux, inputs)
        return result

    return wrapper


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian by forward-mode AD (one `jvp` per input element).

    >>> torch.func.jacfwd(lambda x: x ** 2)(torch.tensor([1.0, 3.0]))
    tensor([[2., 0.],
            [0., 6.]])
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        torch = _torch()
        single, nums = _argnums_tuple(argnums, len(args), "jacfwd")
        inputs = [args[n] for n in nums]
        aux_box = []

        def call(flat):
            a = list(args)
            for n, x in zip(nums, flat):
                a[n] = x
            out = func(*a, **kwargs)
            if has_aux:
                out, aux = out
                aux_box.append(aux)
            return out

        columns = None  # [output][input] -> tangents, one per input element
        out_leaves = out_rebuild = None
        private = []
        for j, x in enumerate(inputs):
            for k in range(x.numel()):
                tangents = [torch.zeros_like(y, memory_format=torch.contiguous_format) for y in inputs]
                tangents[j].view(-1)[k] = 1
                outs, tans, rebuild, mine = _jvp_flat(call, inputs, tangents)
                private += mine
                if columns is None:
                    columns = [[[] for _ in inputs] for _ in outs]
                    out_leaves, out_rebuild = outs, rebuild
                for i, t in enumerate(tans):
                    columns[i][j].append(t)
        if columns is None:
            out = call(inputs)
            out_leaves, out_rebuild = _flatten(out)
            columns = [[[] for _ in inputs] for _ in out_leaves]
        per_output = []
        for i, o in enumerate(out_leaves):
            jacs = []
            for j, x in enumerate(inputs):
                shape = tuple(o.shape) + tuple(x.shape)
                cols = columns[i][j]
                jac = torch.stack(cols, -1).reshape(shape) if cols else torch.zeros(shape, dtype=o.dtype)
                jacs.append(jac)
            per_output.append(_finish(jacs, private))
        result = _jac_structure(out_leaves, out_rebuild, per_output, single)
        if has_aux:
            return result, _finish_tree(aux_box[0], private)
        return result

    return wrapper


def hessian(func, argnums=0):
    """The Hessian: `jacfwd(jacrev(func, argnums), argnums)`.

    >>> torch.func.hessian(lambda x: (x ** 3).sum())(torch.tensor([1.0, 2.0]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    return jacfwd(jacrev(func, argnums), argnums)


# --- vmap -------------------------------------------------------------------------------------

# How many public vmap calls are running: an autograd.Function applied inside one needs vmap
# support (`generate_vmap_rule=True` or its own `vmap`), as in PyTorch.
_vmap_depth = [0]


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """Map `func` over a dimension of its inputs: `vmap(f)(x)[i] == f(x[i])`.

    leafgrad calls `func` once per batch element and stacks the results (PyTorch batches the
    ops); the values are the same. A custom `autograd.Function` applied inside needs vmap
    support as in PyTorch (`generate_vmap_rule = True` or a `vmap` staticmethod; leafgrad's
    loop computes it either way).

    >>> torch.func.vmap(torch.dot)(torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([[1., 1.], [2., 0.]]))
    tensor([3., 6.])
    """
    looped = _vmap(func, in_dims, out_dims, randomness)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        _vmap_depth[0] += 1
        try:
            return looped(*args, **kwargs)
        finally:
            _vmap_depth[0] -= 1

    return wrapper


def _vmap(func, in_dims=0, out_dims=0, randomness="error"):
    """vmap's loop (gradcheck's batched checks use it directly)."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(
            f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}"
        )
    if not callable(func):
        raise RuntimeError(f"vmap(f, ...): f must be callable, got {func}")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        torch = _torch()
        if isinstance(in_dims, int) or in_dims is None:
            dims = (in_dims,) * len(args)
        else:
            dims = tuple(in_dims)
            if len(dims) != len(args):
                raise ValueError(
                    f"vmap(f, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the "
                    f"structure of `inputs`. in_dims has structure {in_dims} but inputs has structure {args}."
                )
        # per argument: its leaves and their mapped dims
        mapped = []
        size = None
        for a, d in zip(args, dims):
            leaves, rebuild = _flatten(a)
            if isinstance(d, (tuple, list, dict)):
                leaf_dims, _ = _flatten(d)
            else:
                leaf_dims = [d] * len(leaves)
            for x, ld in zip(leaves, leaf_dims):
                if ld is None:
                    continue
                if not isinstance(x, Tensor):
                    raise ValueError(
                        f"vmap(f, in_dims={in_dims}, ...)(<inputs>): Got in_dim={ld} for an input but the "
                        f"input is of type {type(x)}. We cannot vmap over non-Tensor arguments, please use "
                        "None as the respective in_dim"
                    )
                if not -x.dim() <= ld < max(x.dim(), 1) or x.dim() == 0:
                    raise ValueError(
                        f"vmap(f, in_dims={in_dims}, ...)(<inputs>): Got in_dim={ld} for some input, but that "
                        f"input is a Tensor of dimensionality {x.dim()} so expected in_dim to satisfy "
                        f"-{x.dim()} <= in_dim < {x.dim()}."
                    )
                n = x.shape[ld]
                if size is None:
                    size = n
                elif n != size:
                    raise ValueError(
                        f"vmap: Expected all tensors to have the same size in the mapped dimension, got "
                        f"sizes {[x.shape[ld] for x in [x]]} and {size} for the mapped dimension"
                    )
            mapped.append((leaves, rebuild, leaf_dims))
        if size is None:
            raise ValueError(
                f"vmap(f, in_dims={in_dims}, ...)(<inputs>): at least one input must be a Tensor mapped "
                "over a dimension (in_dims not all None)"
            )
        results = []
        for i in range(size):
            call_args = []
            for leaves, rebuild, leaf_dims in mapped:
                call_args.append(rebuild([
                    x if ld is None else x.select(ld, i) for x, ld in zip(leaves, leaf_dims)
                ]))
            results.append(func(*call_args, **kwargs))
        first_leaves, out_rebuild = _flatten(results[0])
        flat = [first_leaves] + [_flatten(r)[0] for r in results[1:]]
        per_leaf = [[leaves[k] for leaves in flat] for k in range(len(first_leaves))]
        if isinstance(out_dims, int) or out_dims is None:
            odims = [out_dims] * len(first_leaves)
        else:
            odims, _ = _flatten(out_dims)
        stacked = []
        for vals, od in zip(per_leaf, odims):
            if od is None:
                stacked.append(vals[0])
                continue
            vals = [v if isinstance(v, Tensor) else torch.tensor(v) for v in vals]
            stacked.append(torch.stack(vals, od))
        return out_rebuild(stacked)

    return wrapper


# --- functional_call --------------------------------------------------------------------------

def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    """Call `module` with some of its parameters and buffers replaced by the given tensors
    (restored afterwards).

    >>> lin = torch.nn.Linear(2, 1)
    >>> w = {"weight": torch.tensor([[1., 2.]]), "bias": torch.tensor([0.5])}
    >>> torch.func.functional_call(lin, w, (torch.tensor([[1., 1.]]),))
    tensor([[3.5000]])
    """
    if isinstance(parameter_and_buffer_dicts, dict):
        replacements = dict(parameter_and_buffer_dicts)
    else:
        replacements = {}
        for d in parameter_and_buffer_dicts:
            for k in d:
                if k in replacements:
                    raise ValueError(f"{k} appeared in multiple dictionaries; behavior of functional call is ambiguous")
            replacements.update(d)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    kwargs = kwargs or {}
    if strict:
        expected = {n for n, _ in module.named_parameters()} | {n for n, _ in module.named_buffers()}
        missing = sorted(expected - set(replacements))
        unexpected = sorted(set(replacements) - expected)
        if missing or unexpected:
            parts = []
            if unexpected:
                parts.append("Unexpected key(s): " + ", ".join(repr(k) for k in unexpected) + ".")
            if missing:
                parts.append("Missing key(s): " + ", ".join(repr(k) for k in missing) + ".")
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t" + "\n\t".join(parts))
    saved = []
    try:
        for name, value in replacements.items():
            *path, leaf = name.split(".")
            owner = module
            for p in path:
                owner = getattr(owner, p)
            if leaf in owner._parameters:
                saved.append((owner._parameters, leaf, owner._parameters[leaf]))
                owner._parameters[leaf] = value
            elif leaf in owner._buffers:
                saved.append((owner._buffers, leaf, owner._buffers[leaf]))
                owner._buffers[leaf] = value
            else:
                saved.append((owner.__dict__, leaf, owner.__dict__.get(leaf, _MISSING)))
                owner.__dict__[leaf] = value
        return module(*args, **kwargs)
    finally:
        for store, leaf, old in reversed(saved):
            if old is _MISSING:
                del store[leaf]
            else:
                store[leaf] = old


_MISSING = object()
