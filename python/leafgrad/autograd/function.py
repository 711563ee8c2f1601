"""`torch.autograd.Function`: operations whose forward and backward the user writes.

A subclass defines `forward` and `backward` as static methods and is called through `apply`.
The context object `ctx` that both receive is the graph node itself (`y.grad_fn`), an instance
of a class named after the function (`MyExpBackward`), as in PyTorch. The core records the node
(`_core._function_record`) and the engine calls `backward` through it.

>>> class Exp(torch.autograd.Function):
...     @staticmethod
...     def forward(ctx, x):
...         y = x.exp()
...         ctx.save_for_backward(y)
...         return y
...     @staticmethod
...     def backward(ctx, grad):
...         (y,) = ctx.saved_tensors
...         return grad * y
>>> x = torch.tensor([0., 1.], requires_grad=True)
>>> y = Exp.apply(x)
>>> y
tensor([1.0000, 2.7183], grad_fn=<ExpBackward>)
>>> y.sum().backward()
>>> x.grad
tensor([1.0000, 2.7183])
"""
import functools
import itertools
import warnings

from .. import _core
from .._core import Node, Tensor
from .._grad_mode import no_grad

__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "InplaceFunction", "once_differentiable"]

_MARK_DIRTY_NOT_INPUT = (
    "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have been "
    "mutated should be passed to ctx.mark_dirty(). (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/custom_function.cpp:358.)"
)


_SAVED_ONCE = (
    "saved_tensors can only be accessed once when clear_saved_tensors_on_access=True is set on the "
    "autograd.Function. Either access saved_tensors only once, or set "
    "clear_saved_tensors_on_access=False."
)


class FunctionCtx:
    """What `forward` (or `setup_context`) tells `backward`: the methods of `ctx`.

    >>> class Square(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x * x
    ...     @staticmethod
    ...     def backward(ctx, g):
    ...         (x,) = ctx.saved_tensors
    ...         return 2 * x * g
    >>> y = Square.apply(torch.tensor([3.], requires_grad=True))
    >>> y.grad_fn.saved_tensors
    (tensor([3.], requires_grad=True),)
    """

    def save_for_backward(self, *tensors):
        """Keep tensors (or None) for `backward`, which reads them as `ctx.saved_tensors`.

        Saved tensors are checked on use: one modified in place since raises an error.
        """
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        """Keep tensors for `jvp` (forward-mode AD)."""
        self.saved_for_forward = tensors

    def mark_dirty(self, *args):
        """Declare inputs that `forward` modified in place (they must also be returned)."""
        self.dirty_tensors = args

    def mark_shared_storage(self, *pairs):
        warnings.warn(
            "mark_shared_storage is deprecated. Tensors with shared storages are automatically "
            "tracked. Note that calls to `set_()` are not tracked",
            DeprecationWarning,
            stacklevel=2,
        )

    def mark_non_differentiable(self, *args):
        """Declare outputs that have no gradient (indices, masks): they do not require grad,
        and `backward` receives zeros (or None) for them."""
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        """Whether `backward` receives zeros (True, the default) or None for outputs that
        got no gradient."""
        self.materialize_grads = value


class _HookMixin:
    """Kept for the class layout PyTorch's Function has (hooks go through Node)."""


class BackwardCFunction(Node, FunctionCtx, _HookMixin):
    """The node class of a user Function; one subclass per Function, named `<Name>Backward`.

    >>> class Twice(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         return x * 2
    ...     @staticmethod
    ...     def backward(ctx, g):
    ...         return g * 2
    >>> node = Twice.apply(torch.ones(1, requires_grad=True)).grad_fn
    >>> type(node).__name__, node.name(), isinstance(node, torch.autograd.function.BackwardCFunction)
    ('TwiceBackward', 'TwiceBackward', True)
    """

    def apply(self, *args):
        return self._call_backward(args)

    def __repr__(self):
        return object.__repr__(self)

    def _call_backward(self, grads):
        cls = self._forward_cls
        backward_fn = cls.backward
        vjp_fn = cls.vjp
        if backward_fn is not Function.backward and vjp_fn is not Function.vjp:
            raise RuntimeError(
                "Implementing both 'backward' and 'vjp' for a custom Function is not allowed. "
                "You should only implement one of them."
            )
        user_fn = vjp_fn if vjp_fn is not Function.vjp else backward_fn
        return user_fn(self, *grads)

    _materialize_non_diff_grads = True

    @property
    def saved_tensors(self):
        """The tensors given to `save_for_backward`, checked against in-place changes (in
        `jvp`: those given to `save_for_forward`)."""
        in_jvp = self.__dict__.get("_jvp_saved")
        if in_jvp is not None:
            return in_jvp
        layout = self.__dict__.get("_saved_layout")
        if layout is None:
            return ()
        once = self._forward_cls.clear_saved_tensors_on_access
        if once and self.__dict__.get("_saved_accessed"):
            raise RuntimeError(_SAVED_ONCE)
        tensors = _core._function_saved(self)
        if once:
            self._saved_accessed = True
            _core._function_release_saved(self)
        return tuple(None if i is None else tensors[i] for i in layout)

    @property
    def _raw_saved_tensors(self):
        """The saved tensors as objects whose hooks can be set (`register_hooks`)."""
        layout = self.__dict__.get("_saved_layout")
        if layout is None:
            return ()
        return tuple(_core._raw_saved_all(self, layout))

    @property
    def saved_variables(self):
        warnings.warn(
            "'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning, stacklevel=2
        )
        return self.saved_tensors

    @property
    def needs_input_grad(self):
        return self.__dict__.get("needs_input_grad", ())

    @needs_input_grad.setter
    def needs_input_grad(self, value):
        self.__dict__["needs_input_grad"] = value

    @property
    def materialize_grads(self):
        return self.__dict__.get("materialize_grads", True)

    @materialize_grads.setter
    def materialize_grads(self, value):
        self.__dict__["materialize_grads"] = bool(value)


_function_ids = itertools.count()


class FunctionMeta(type):
    """Gives each Function class its node class (`_backward_cls`, named `<Name>Backward`).

    >>> class Neg(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         return -x
    >>> Neg._backward_cls.__name__
    'NegBackward'
    """

    def __init__(cls, name, bases, attrs):
        node_name = attrs.get("_node_name", name + "Backward")
        backward_cls = type(
            node_name.rsplit("::", 1)[-1],
            (BackwardCFunction,),
            # PyTorch's node classes print as <torch.autograd.function.XBackward object at ...>
            {"_forward_cls": cls, "_node_name": node_name, "__module__": "torch.autograd.function"},
        )
        backward_cls._autograd_function_id = next(_function_ids)
        cls._backward_cls = backward_cls
        super().__init__(name, bases, attrs)


def _check_tensors(seq, what):
    for i, t in enumerate(seq):
        if not isinstance(t, Tensor):
            raise TypeError(f"{what} can only accept variables, but argument {i} is of type {type(t).__name__}")


class Function(FunctionCtx, _HookMixin, metaclass=FunctionMeta):
    """Base class for differentiable operations written by the user.

    Subclasses define `forward(ctx, *args)` and `backward(ctx, *grads)` as static methods (or
    `forward(*args)` plus `setup_context(ctx, inputs, output)`) and are used through
    `Function.apply(*args)`. `backward` returns one gradient per argument of `forward` (None for
    arguments that are not tensors or need none).

    >>> class Scale(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(x, k):
    ...         return x * k
    ...     @staticmethod
    ...     def setup_context(ctx, inputs, output):
    ...         ctx.k = inputs[1]
    ...     @staticmethod
    ...     def backward(ctx, g):
    ...         return g * ctx.k, None
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> Scale.apply(x, 3.0).sum().backward()
    >>> x.grad
    tensor([3., 3.])
    """

    # Free the saved tensors when backward reads them (they can be read once).
    clear_saved_tensors_on_access = False

    def __init__(self, *args, **kwargs):
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions are all "
            "static, so you should invoke them on the class itself. Instantiating an autograd "
            "function will raise an error in a future version of PyTorch.",
            DeprecationWarning,
            stacklevel=2,
        )

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    @staticmethod
    def forward(*args, **kwargs):
        """The computation, run with gradients off. Takes `ctx` first unless the class defines
        `setup_context`."""
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Save what `backward` needs, given the inputs and output of `forward` (the style where
        `forward` does not take `ctx`)."""
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        """The gradients of the inputs given those of the outputs (one per output)."""
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD."
        )

    # Can vmap batch this Function by running it once per element? (PyTorch's flag; see `vmap`)
    generate_vmap_rule = False

    @staticmethod
    def vmap(info, in_dims, *args):
        """The batching rule of this Function under `torch.func.vmap` (a subclass overrides it,
        or sets `generate_vmap_rule = True`). leafgrad's vmap runs the Function once per batch
        element either way; the rule itself is not called."""
        raise NotImplementedError(
            "To use autograd.Function with vmap, you must either override the vmap staticmethod or set "
            "generate_vmap_rule=True."
        )

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run `forward` and record a node whose backward is `backward`."""
        from .. import func as _func

        if _func._vmap_depth[0] and not cls.generate_vmap_rule and cls.vmap is Function.vmap:
            raise RuntimeError(
                f"You tried to vmap over {cls.__name__}, but it does not have vmap support. Please override and "
                "implement the vmap staticmethod or set generate_vmap_rule=True. For more details, please see "
                "https://pytorch.org/docs/main/notes/extending.func.html"
            )
        setup = cls.setup_context is not Function.setup_context
        if setup:
            import inspect

            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, {}
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        tangents = _input_tangents(args)
        # forward runs on the primal values: forward AD sees the Function through `jvp` only
        with no_grad(), _fwd_grad_off(tangents is not None):
            if setup:
                output = cls.forward(*args)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
        if tangents is None:
            return _record(cls, ctx, args, output)
        saved = ctx.__dict__.get("saved_for_forward", ())
        dirty = ctx.__dict__.get("dirty_tensors", ())
        non_diff = ctx.__dict__.get("non_differentiable", ())
        result = _record(cls, ctx, args, output)
        _apply_jvp(cls, ctx, args, tangents, saved, output, result, dirty, non_diff)
        return result


class _fwd_grad_off:
    def __init__(self, on):
        self.on = on

    def __enter__(self):
        if self.on:
            self.prev = _core._is_fwd_grad_enabled()
            _core._set_fwd_grad_enabled(False)

    def __exit__(self, *exc):
        if self.on:
            _core._set_fwd_grad_enabled(self.prev)


def _input_tangents(args):
    """The tangents of a Function's arguments (None for non-tensors and tensors without one), or
    None when forward AD is not at work."""
    if _core._current_dual_level() < 0:
        return None
    tangents = [_core._fw_grad(a) if isinstance(a, Tensor) else None for a in args]
    return tangents if any(t is not None for t in tangents) else None


def _jvp_inputs(ctx, args, tangents):
    """What `jvp` receives: each tensor argument's tangent, zeros for a float tensor without one
    (unless `set_materialize_grads(False)`), None for the rest."""
    out = []
    for a, t in zip(args, tangents):
        if t is None and isinstance(a, Tensor) and ctx.materialize_grads and (a.is_floating_point() or a.is_complex()):
            t = _torch().zeros_like(a)
        out.append(t)
    return out


def _torch():
    import leafgrad

    return leafgrad


def _apply_jvp(cls, ctx, args, tangents, saved, raw, result, dirty, non_diff):
    """Forward AD through a user Function: its `jvp` gives the outputs' tangents, checked as
    PyTorch checks them (non-differentiable outputs, in-place and view outputs)."""
    ctx._jvp_saved = tuple(saved)
    versions = [None if t is None else t._version for t in tangents]
    try:
        with _fwd_grad_off(True):
            out_tangents = cls.jvp(ctx, *_jvp_inputs(ctx, args, tangents))
    finally:
        del ctx._jvp_saved
    outputs = result if isinstance(result, tuple) else (result,)
    raw = raw if isinstance(raw, tuple) else (raw,)
    out_tangents = out_tangents if isinstance(out_tangents, tuple) else (out_tangents,)
    if len(out_tangents) != len(outputs):
        raise RuntimeError(
            f"Function's jvp returned an invalid number of forward gradients (expected {len(outputs)} "
            f"but got {len(out_tangents)})"
        )
    for i, (o, r, t) in enumerate(zip(outputs, raw, out_tangents)):
        differentiable = (isinstance(o, Tensor) and not any(r is n for n in non_diff)
                          and (o.is_floating_point() or o.is_complex()))
        if not differentiable:
            if t is not None:
                raise RuntimeError(
                    f"Function's jvp returned a gradient at position {i}, but  the corresponding forward "
                    "output is not a differentiable Tensor.You should return None at that position instead."
                )
            continue
        if t is None:
            continue
        if tuple(t.shape) != tuple(o.shape):
            raise RuntimeError(
                "Trying to set a forward gradient that has a different size than that of the "
                f"original Tensor, this is not supported. Tensor is of size {list(o.shape)} while "
                f"the given forward gradient is of size {list(t.shape)}."
            )
        k = next((k for k, a in enumerate(args) if r is a), None)
        if any(r is d for d in dirty):
            if k is None:
                raise RuntimeError(_MARK_DIRTY_NOT_INPUT)
            if tangents[k] is not None:
                if t._version == versions[k]:
                    raise RuntimeError(
                        "An inplace custom Function is not modifying the forward mode gradients inplace. "
                        "If the forward is modifying an input inplace, then the jvp function must modify "
                        "the corresponding gradient inplace."
                    )
                if t is not tangents[k]:
                    raise RuntimeError(
                        "An inplace custom Function is not returning the forward mode gradients as-is. "
                        "If the forward is modifying an input inplace, then the jvp function must modify "
                        "the gradient inplace and return it as-is."
                    )
                continue
            _core._set_tangent(o, t)
            continue
        base = o._base
        m = None
        if base is not None:
            m = next((m for m, a in enumerate(args)
                      if isinstance(a, Tensor) and (a is base or a._base is base)), None)
        if m is not None and tangents[m] is not None:
            grad_in = tangents[m]
            if t._base is None:
                raise RuntimeError(
                    "A custom Function's forward is returning a view (or an input as-is) but the jvp is "
                    "not returning a view."
                )
            if grad_in._base is not None:
                if grad_in._base is not t._base:
                    raise RuntimeError(
                        "A custom Function is returning a view but the jvp is not returning a view of the "
                        "same base as the given grad input."
                    )
            elif grad_in is not t._base:
                raise RuntimeError(
                    "A custom Function is returning a view but the jvp is not returning a view of the "
                    "given grad input."
                )
        _core._set_tangent(o, t)


def _record(cls, ctx, args, output):
    is_tuple = isinstance(output, tuple)
    raw = output if is_tuple else (output,)
    inputs = [a if isinstance(a, Tensor) else None for a in args]
    outputs = [o if isinstance(o, Tensor) else None for o in raw]
    dirty = ctx.__dict__.get("dirty_tensors", ())
    _check_tensors(dirty, "mark_dirty")
    for d in dirty:
        if not d._is_view() and not any(d is a for a in args):
            warnings.warn(_MARK_DIRTY_NOT_INPUT, UserWarning, stacklevel=3)
    non_diff = ctx.__dict__.get("non_differentiable", ())
    _check_tensors(non_diff, "mark_non_differentiable")
    executable = _core.is_grad_enabled() and any(t is not None and t.requires_grad for t in inputs)
    layout, saved = None, []
    if executable:
        to_save = ctx.__dict__.get("to_save", ())
        layout = []
        for i, t in enumerate(to_save):
            if t is None:
                layout.append(None)
            elif isinstance(t, Tensor):
                layout.append(len(saved))
                saved.append(t)
            else:
                raise TypeError(
                    f"save_for_backward can only save variables, but argument {i} is of type {type(t).__name__}"
                )
    # What forward declared is used up here (keeping it would tie outputs to their own node).
    for name in ("to_save", "dirty_tensors", "non_differentiable"):
        ctx.__dict__.pop(name, None)
    recorded, wrapped = _core._function_record(
        ctx, cls._backward_cls._node_name, inputs, outputs, list(dirty), list(non_diff), saved
    )
    if recorded:
        ctx._saved_layout = layout
    result = tuple(o if w is None else w for o, w in zip(raw, wrapped))
    return result if is_tuple else result[0]


class InplaceFunction(Function):
    """A Function with an `inplace` flag (kept for code written against PyTorch's).

    >>> issubclass(torch.autograd.function.InplaceFunction, torch.autograd.Function)
    True
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


_ONCE_DIFFERENTIABLE = "trying to differentiate twice a function that was marked with @once_differentiable"


def once_differentiable(fn):
    """Decorate a `backward` that is not itself differentiable: it runs without recording, and
    differentiating its result (create_graph) raises an error when reached.

    >>> class Cube(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x ** 3
    ...     @staticmethod
    ...     @torch.autograd.function.once_differentiable
    ...     def backward(ctx, g):
    ...         (x,) = ctx.saved_tensors
    ...         return 3 * x ** 2 * g
    >>> x = torch.tensor([2.], requires_grad=True)
    >>> torch.autograd.grad(Cube.apply(x), x)
    (tensor([12.]),)
    """

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            outputs = fn(ctx, *args)
        if not _core.is_grad_enabled():
            return outputs
        if not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        if single:
            outputs = (outputs,)

        def fake_requires_grad(var):
            if var is not None:
                var = var.detach()
                var.requires_grad = True
            return var

        out = _core._delayed_error([fake_requires_grad(v) for v in outputs], _ONCE_DIFFERENTIABLE)
        return out[0] if single else tuple(out)

    return wrapper
