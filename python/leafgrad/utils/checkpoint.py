"""`torch.utils.checkpoint`: trade compute for memory by recomputing a block in backward.

`checkpoint(fn, *args, use_reentrant=False)` runs `fn` keeping none of the tensors its ops save
for backward; when backward needs them, `fn` runs again on the same inputs (with the random
generator and grad mode it had) and the recomputed tensors are used. Gradients are the same as
without checkpointing.

- `use_reentrant=False` (recommended) is built on saved-tensor hooks: every saved tensor is
  replaced by a handle, and the first unpack of a handle recomputes the block (stopping as soon
  as every tensor still needed is recomputed, unless `set_checkpoint_early_stop(False)`).
  It works with `autograd.grad`, `backward(inputs=...)`, nested checkpoints and create_graph.
- `use_reentrant=True` (PyTorch's default when not given, with a warning) runs the block under
  `no_grad` inside a custom Function whose backward recomputes it and calls `backward` again.

>>> x = torch.tensor([1.0, 2.0], requires_grad=True)
>>> y = torch.utils.checkpoint.checkpoint(lambda t: (t.sin() * t).sum(), x, use_reentrant=False)
>>> y.backward()
>>> x.grad
tensor([1.3818, 0.0770])

`preserve_rng_state` saves and restores the default generator's state (`torch.get_rng_state()`,
PyTorch's format), so dropout inside the checkpoint draws the same mask again. `context_fn` and `debug` (non-reentrant only) are accepted;
`determinism_check` is "default" (shapes, dtypes, devices compared) or "none".
"""
import contextlib
import threading
import warnings
import weakref

from .. import _core
from ..amp import autocast_mode as _autocast_mode
from .. import random as _random
from .._core import Tensor
from ..autograd.function import Function

__all__ = [
    "checkpoint",
    "checkpoint_sequential",
    "CheckpointError",
    "CheckpointFunction",
    "check_backward_validity",
    "detach_variable",
    "set_checkpoint_early_stop",
    "set_checkpoint_debug_enabled",
    "GraphExecGroup",
]

_DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint‑debug mode globally.
"""


# (PyTorch appends this to the metadata error; the same text, for the same output)
_COMPILE_TIP = """
If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""


def _torch():
    import leafgrad

    return leafgrad


_group = threading.local()


class GraphExecGroup:
    """Backward calls under one instance recompute each checkpointed region (use_reentrant=False)
    at most once, and must use disjoint saved activations, even with retain_graph=True.

    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> calls = []
    >>> def block(t):
    ...     calls.append(1)
    ...     y = t.sin().cos()
    ...     return y, y.sin().cos()
    >>> y, z = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False)
    >>> with torch.utils.checkpoint.GraphExecGroup():
    ...     gy, = torch.autograd.grad(z, (y,), (torch.ones(2),))
    ...     gx, = torch.autograd.grad(y, (x,), (gy,))
    >>> len(calls)  # the forward and one recomputation for both backward calls
    2
    """

    def __enter__(self):
        current = getattr(_group, "value", None)
        if current is not None:
            raise RuntimeError(f"GraphExecGroup contexts cannot be nested. Already inside group {current}")
        _group.value = self
        return self

    def __exit__(self, *args):
        _group.value = None

    @classmethod
    def _get_current_group(cls):
        return getattr(_group, "value", None)


class CheckpointError(RuntimeError):
    """Raised when the recomputation does not match the original forward.

    >>> issubclass(torch.utils.checkpoint.CheckpointError, RuntimeError)
    True
    """


def detach_variable(inputs):
    """Detached copies of the tensors in a tuple, keeping their requires_grad.

    >>> a, b = torch.utils.checkpoint.detach_variable((torch.ones(1, requires_grad=True) * 2, 3))
    >>> a, a.is_leaf, b
    (tensor([2.], requires_grad=True), True, 3)
    """
    if not isinstance(inputs, tuple):
        raise RuntimeError(
            f"Only tuple of tensors is supported. Got Unsupported input type: {type(inputs).__name__}"
        )
    out = []
    for inp in inputs:
        if not isinstance(inp, Tensor):
            out.append(inp)
            continue
        x = inp.detach()
        x.requires_grad = inp.requires_grad
        out.append(x)
    return tuple(out)


def check_backward_validity(inputs):
    """Warn when no tensor input requires grad (the reentrant checkpoint then gives no gradients).

    >>> torch.utils.checkpoint.check_backward_validity((torch.ones(1, requires_grad=True),))
    """
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)


@contextlib.contextmanager
def _rng_at(state, enabled):
    """Run with the generator at `state`, restoring the surrounding state afterwards."""
    if not enabled:
        yield
        return
    outer = _random.get_rng_state()
    _random.set_rng_state(state)
    try:
        yield
    finally:
        _random.set_rng_state(outer)


# -- use_reentrant=True ------------------------------------------------------------------------


class CheckpointFunction(Function):
    """The reentrant checkpoint: forward under no_grad, backward reruns it and backpropagates.

    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> y = torch.utils.checkpoint.CheckpointFunction.apply(lambda t: t * t, True, x)
    >>> y
    tensor([1., 4.], grad_fn=<CheckpointFunctionBackward>)
    """

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        torch = _torch()
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.preserve_rng_state = preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_rng_state = _random.get_rng_state()
        ctx.inputs = []
        ctx.tensor_indices = []
        tensors = []
        for i, arg in enumerate(args):
            if isinstance(arg, Tensor):
                tensors.append(arg)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            else:
                ctx.inputs.append(arg)
        ctx.save_for_backward(*tensors)
        ctx.autocast_kwargs = _autocast_mode._get_autocast_kwargs()
        with torch.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        torch = _torch()
        if not torch.autograd._is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible"
                " with .grad() or passing an `inputs` parameter to .backward()."
                " To resolve this error, you can either set use_reentrant=False,"
                " or call .backward() without passing the `inputs` argument."
            )
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with _rng_at(getattr(ctx, "fwd_rng_state", None), ctx.preserve_rng_state):
            detached = detach_variable(tuple(inputs))
            with torch.enable_grad(), _autocast_mode._autocast_as(ctx.autocast_kwargs):
                outputs = ctx.run_function(*detached)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        with_grad = [(o, g) for o, g in zip(outputs, grads) if isinstance(o, Tensor) and o.requires_grad]
        if not with_grad:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        torch.autograd.backward([o for o, _ in with_grad], [g for _, g in with_grad])
        return (None, None) + tuple(inp.grad if isinstance(inp, Tensor) else None for inp in detached)


# -- use_reentrant=False -----------------------------------------------------------------------

# set by set_checkpoint_early_stop: overrides checkpoint's own `early_stop` (PyTorch)
_early_stop = None


@contextlib.contextmanager
def set_checkpoint_early_stop(enable):
    """Whether non-reentrant checkpoints made inside stop recomputing as soon as every tensor
    they need is recomputed (overrides `checkpoint(early_stop=)`, which defaults to True).

    >>> x = torch.tensor([1.0], requires_grad=True)
    >>> with torch.utils.checkpoint.set_checkpoint_early_stop(False):
    ...     y = torch.utils.checkpoint.checkpoint(torch.exp, x, use_reentrant=False)
    >>> y.backward()
    >>> x.grad
    tensor([2.7183])
    """
    global _early_stop
    previous = _early_stop
    _early_stop = enable
    try:
        yield
    finally:
        _early_stop = previous


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled):
    """Accepted for compatibility: leafgrad's checkpoint errors carry no operator trace.

    >>> with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):
    ...     pass
    """
    yield


class _StopRecomputation(Exception):
    pass


class _Handle:
    """What the graph keeps for one saved tensor: its position in the block's saves."""

    __slots__ = ("index", "__weakref__")

    def __init__(self, index):
        self.index = index


def _metadata(t):
    return {"shape": t.shape, "dtype": t.dtype, "device": t.device}


class _Frame:
    """One checkpointed call: how to rerun it and what its original forward saved."""

    def __init__(self, fn, args, kwargs, preserve_rng_state, determinism_check, early_stop):
        torch = _torch()
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.rng_state = _random.get_rng_state() if preserve_rng_state else None
        self.grad_enabled = torch.is_grad_enabled()
        self.autocast_kwargs = _autocast_mode._get_autocast_kwargs()  # recomputed under the same casts
        self.check = determinism_check != "none"
        self.early_stop = early_stop
        self.handles = []  # weak references, in save order
        self.metadata = []
        # the recomputation for one backward pass (graph task): index -> tensor, and the indices
        # already handed out in it
        self.task = None
        self.recomputed = {}
        self.unpacked = set()
        self.forward_completed = False

    def pack(self, t):
        handle = _Handle(len(self.handles))
        self.handles.append(weakref.ref(handle))
        self.metadata.append(_metadata(t) if self.check else None)
        return handle

    def unpack(self, handle):
        # one recomputation per backward pass, or per GraphExecGroup
        group = GraphExecGroup._get_current_group()
        task = group if group is not None else _core._current_graph_task_id()
        if task is None or task != self.task:
            # a new backward pass (or an access outside backward): recompute for it
            self.task = task
            self.unpacked = set()
            self.recompute()
        elif handle.index in self.unpacked:
            extra = ("Performing two backward calls that overlap (i.e. require the same saved activation in "
                     "order to compute gradients) is not allowed while under the "
                     "torch.utils.checkpoint.GraphExecGroup context. ") if group is not None else ""
            raise CheckpointError(
                "torch.utils.checkpoint: Unpack is being triggered for a tensor that was already "
                f"unpacked once. {extra}If you are calling ctx.saved_tensors in backward, make sure to do so "
                "only once. Otherwise please open an issue with details on your use case."
            )
        elif handle.index not in self.recomputed:
            self.recompute()
        self.unpacked.add(handle.index)
        return self.recomputed.pop(handle.index)

    def recompute(self):
        torch = _torch()
        self.recomputed = {}
        count = [0]
        mismatch_ok = [False]
        needed = {i for i, h in enumerate(self.handles) if h() is not None}

        def pack(t):
            i = count[0]
            count[0] += 1
            if i >= len(self.handles):
                if not self.forward_completed:
                    # recomputing while the forward itself is still running (a grad() inside
                    # the block without early stop): the forward has not saved these yet
                    mismatch_ok[0] = True
                    return t
                raise CheckpointError(
                    "torch.utils.checkpoint: trying to save more tensors during recomputation than "
                    "during the original forward pass.\n" + _DEBUG_TIP
                )
            if i in needed:
                # (a tensor that needs no grad is kept as is: backward gets the same object)
                self.recomputed[i] = t.detach() if t.requires_grad else t
            if self.early_stop and len(self.recomputed) == len(needed):
                raise _StopRecomputation
            return t

        stopped = False
        with _rng_at(self.rng_state, self.rng_state is not None), torch.set_grad_enabled(self.grad_enabled), \
                _autocast_mode._autocast_as(self.autocast_kwargs):
            with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
                try:
                    self.fn(*self.args, **self.kwargs)
                except _StopRecomputation:
                    stopped = True
        if not stopped and not mismatch_ok[0] and count[0] != len(self.handles):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the original "
                "forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.handles)}\n"
                f"Number of tensors saved during recomputation: {count[0]}.\n" + _DEBUG_TIP
            )
        if self.check:
            different = [
                (i, self.metadata[i], _metadata(t)) for i, t in sorted(self.recomputed.items())
                if self.metadata[i] != _metadata(t)
            ]
            if different:
                text = "".join(
                    f"tensor at position {i}:\nsaved metadata: {a}\nrecomputed metadata: {b}\n"
                    for i, a, b in different
                )
                raise CheckpointError(
                    "torch.utils.checkpoint: Recomputed values for the following tensors have different "
                    f"metadata than during the forward pass.\n{text}.\n" + _DEBUG_TIP + _COMPILE_TIP
                )


def _checkpoint_without_reentrant(fn, args, kwargs, preserve_rng_state, context_fn, determinism_check,
                                  early_stop=True):
    torch = _torch()
    if determinism_check not in ("default", "none"):
        raise ValueError(
            "determinism_check should be one of ['default', 'none'], but got " + str(determinism_check)
        )
    stop = _early_stop if _early_stop is not None else early_stop
    frame = _Frame(fn, args, kwargs, preserve_rng_state, determinism_check, stop)
    forward_context, recompute_context = context_fn()
    frame_fn = frame.fn

    def rerun(*a, **k):
        with recompute_context:
            return frame_fn(*a, **k)

    frame.fn = rerun
    with forward_context, torch.autograd.graph.saved_tensors_hooks(frame.pack, frame.unpack):
        out = fn(*args, **kwargs)
    frame.forward_completed = True
    return out


def _noop_context_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()


def checkpoint(function, *args, use_reentrant=None, context_fn=_noop_context_fn, determinism_check="default",
               debug=False, early_stop=True, preserve_rng_state=True, **kwargs):
    """Run `function(*args, **kwargs)` without keeping its saved tensors; recompute them in backward.
    Non-reentrant recomputation stops once every tensor backward needs is back (`early_stop`,
    unless `set_checkpoint_early_stop` says otherwise).

    Pass `use_reentrant` explicitly (False is recommended); without it PyTorch warns and uses
    the reentrant variant, and so does leafgrad.

    >>> x = torch.tensor([0.5, 1.0], requires_grad=True)
    >>> y = torch.utils.checkpoint.checkpoint(lambda t: (t * t).exp().sum(), x, use_reentrant=False)
    >>> y.backward()
    >>> x.grad
    tensor([1.2840, 5.4366])
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. In a "
            "future release, calling checkpoint without use_reentrant will raise an exception. "
            "use_reentrant=False is recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
            "differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not _noop_context_fn or debug is not False:
            raise ValueError(
                "Passing `context_fn`, `debug`, or `respect_saved_tensors_hooks` is only supported "
                "when use_reentrant=False."
            )
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    return _checkpoint_without_reentrant(function, args, kwargs, preserve_rng_state, context_fn, determinism_check,
                                         early_stop)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Run a sequence of modules/functions in `segments` checkpointed chunks (the last chunk is
    not checkpointed).

    >>> model = torch.nn.Sequential(torch.nn.Tanh(), torch.nn.Tanh(), torch.nn.Tanh(), torch.nn.Tanh())
    >>> x = torch.tensor([0.5], requires_grad=True)
    >>> y = torch.utils.checkpoint.checkpoint_sequential(model, 2, x, use_reentrant=False)
    >>> torch.allclose(y, model(x))
    True
    """
    torch = _torch()
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be "
            "passed explicitly. In a future release, we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run(start, end, functions):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x

        return forward

    if isinstance(functions, torch.nn.Sequential):
        functions = list(functions.children())
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end, functions), input, use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1, functions)(input)
