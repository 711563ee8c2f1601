"""`torch.autograd.graph`: the backward node type (`y.grad_fn` objects) and saved-tensor hooks.

While `saved_tensors_hooks(pack, unpack)` is active, every tensor an op saves for backward is
given to `pack` and the graph keeps what it returns; backward calls `unpack` on it to get a
tensor back. `save_on_cpu()` uses them to keep saved tensors in host memory.

>>> x = torch.tensor([1.0, 2.0], requires_grad=True)
>>> packed = []
>>> def pack(t):
...     packed.append(t.shape)
...     return t
>>> with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
...     y = (x * x).sum()
>>> packed
[torch.Size([2]), torch.Size([2])]
>>> y.backward()
>>> x.grad
tensor([2., 4.])
"""
import contextlib
import functools
import threading
from typing import NamedTuple, Optional

import abc

from .. import _core


class Node(abc.ABC):
    """The type of every `grad_fn` object, a virtual base class as in PyTorch: `isinstance` and
    `issubclass` are true for every node class (one per name, `MulBackward0`, ...; the context
    classes of custom Functions included) though it is not in their `mro()`.

    >>> x = torch.ones(2, requires_grad=True)
    >>> isinstance((x * 2).grad_fn, torch.autograd.graph.Node)
    True
    """

    @abc.abstractmethod
    def name(self) -> str:
        """The node's name (`MulBackward0`, ...)."""

    @property
    @abc.abstractmethod
    def next_functions(self):
        """The edges to the nodes of this node's inputs: `(node, output_nr)` pairs."""

    @property
    @abc.abstractmethod
    def metadata(self) -> dict:
        """A dict for the user's own data about this node."""

    @abc.abstractmethod
    def register_hook(self, fn):
        """Call `fn(grad_inputs, grad_outputs)` after the node runs."""

    @abc.abstractmethod
    def register_prehook(self, fn):
        """Call `fn(grad_outputs)` before the node runs."""

    @classmethod
    def __subclasshook__(cls, subclass):
        if cls is Node and isinstance(subclass, type) and issubclass(subclass, _core.Node):
            return True
        return NotImplemented


__all__ = ["Node", "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks",
           "register_multi_grad_hook", "GradientEdge", "get_gradient_edge",
           "allow_mutation_on_saved_tensors", "increment_version"]


class saved_tensors_hooks:
    """Context manager that sets a pair of pack / unpack hooks for saved tensors.

    `pack_hook(tensor)` is called for each tensor saved for backward inside the block (by any
    op, or by `ctx.save_for_backward`); what it returns is stored instead. `unpack_hook(packed)`
    is called when backward (or `grad_fn._saved_*`) needs the tensor and must return a tensor
    with the original's values. The pack hook must not modify its input in place.

    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> with torch.autograd.graph.saved_tensors_hooks(lambda t: t.tolist(), torch.tensor):
    ...     y = x.exp()
    >>> y.grad_fn._saved_result
    tensor([2.7183, 7.3891], grad_fn=<ExpBackward0>)
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        _core._push_saved_tensors_default_hooks(self.pack_hook, self.unpack_hook)

    def __exit__(self, *args):
        _core._pop_saved_tensors_default_hooks()


class save_on_cpu(saved_tensors_hooks):
    """Keep tensors saved inside the block in host memory; move them back to their device for
    backward (no copy for tensors already on the CPU). `pin_memory` is accepted (leafgrad does
    not pin host memory).

    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> with torch.autograd.graph.save_on_cpu():
    ...     y = (x * x).sum()
    >>> y.backward()
    >>> x.grad
    tensor([2., 4.])
    """

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack_to_cpu(tensor):
            return (tensor.device, tensor.cpu())

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message):
    """Inside the block, setting saved-tensor hooks raises RuntimeError(error_message).

    >>> with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    ...     try:
    ...         with torch.autograd.graph.save_on_cpu():
    ...             pass
    ...     except RuntimeError as e:
    ...         print(e)
    no hooks here
    """
    previous = _core._saved_tensors_hooks_get_disabled_error_message()
    try:
        _core._saved_tensors_hooks_disable(error_message)
        yield
    finally:
        if previous is None:
            _core._saved_tensors_hooks_enable()
        else:
            _core._saved_tensors_hooks_disable(previous)


class _MultiHandle:
    """The handle of `register_multi_grad_hook`: `remove()` removes every tensor's hook."""

    def __init__(self, handles):
        self.handles = handles

    def remove(self):
        for h in self.handles:
            h.remove()

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.remove()


def _grad_node(t):
    """The node a tensor's gradient flows into: its grad_fn, or a leaf's AccumulateGrad."""
    if t.grad_fn is not None:
        return t.grad_fn
    return t.view_as(t).grad_fn.next_functions[0][0]


def _get_tid(tensor):
    return (id(tensor), tensor.data_ptr(), tensor._version)


def _get_sid(tensor):
    return (tensor.data_ptr(), tensor._version)


class _Handle:
    pass


class _AllowMutationOnSavedContext:
    """The state of an `allow_mutation_on_saved_tensors` block: the saved tensors (`original`),
    the clones made before a mutation (`cloned`), and the maps from tensor and storage identity
    (id, data pointer, version) to them, as PyTorch keeps them. Cleared on exit."""

    def __init__(self):
        import weakref
        from collections import defaultdict

        self.cloned = weakref.WeakKeyDictionary()
        self.original = weakref.WeakKeyDictionary()
        self.tid_to_weakhandle = weakref.WeakValueDictionary()
        self.sid_to_tid = defaultdict(set)

    def clear(self):
        self.cloned.clear()
        self.original.clear()
        self.tid_to_weakhandle.clear()
        self.sid_to_tid.clear()


_allow_mutation_on_saved_tensors_enabled = False


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Inside it, a tensor saved for backward may be modified in place: it is cloned just
    before the write, and backward uses the clone. Run forward and backward inside the same
    block.

    >>> with torch.autograd.graph.allow_mutation_on_saved_tensors():
    ...     a = torch.ones(2, requires_grad=True)
    ...     b = a.clone()
    ...     out = (b ** 2).sum()
    ...     _ = b.sin_()
    ...     out.backward()
    ...     print(a.grad)
    tensor([2., 2.])
    """
    global _allow_mutation_on_saved_tensors_enabled
    ctx = _AllowMutationOnSavedContext()

    def pack_hook(tensor):
        tid = _get_tid(tensor)
        sid = _get_sid(tensor)
        ctx.sid_to_tid[sid].add(tid)
        # the same tensor (at the same version) may be saved several times
        if tid not in ctx.tid_to_weakhandle:
            handle = _Handle()
            ctx.tid_to_weakhandle[tid] = handle
            ctx.original[handle] = tensor
        else:
            handle = ctx.tid_to_weakhandle[tid]
        return handle

    def unpack_hook(handle):
        error_msg = (
            "Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
            "in which the graph was originally recorded."
        )
        if not _allow_mutation_on_saved_tensors_enabled:
            raise AssertionError(error_msg)
        if handle in ctx.cloned:
            return ctx.cloned[handle]
        if handle not in ctx.original:
            raise AssertionError(error_msg)
        return ctx.original[handle]

    def before_mutation(t):
        sid = _get_sid(t)
        if sid not in ctx.sid_to_tid:
            return
        for tid in ctx.sid_to_tid[sid]:
            if tid not in ctx.tid_to_weakhandle:
                # saved once, but freed by a backward pass since
                continue
            handle = ctx.tid_to_weakhandle[tid]
            if handle in ctx.cloned:
                continue
            _core._set_mutation_hook(None)
            try:
                ctx.cloned[handle] = ctx.original[handle].detach().clone()
            finally:
                _core._set_mutation_hook(before_mutation)
            del ctx.original[handle]

    with saved_tensors_hooks(pack_hook, unpack_hook):
        try:
            if _allow_mutation_on_saved_tensors_enabled:
                raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
            _allow_mutation_on_saved_tensors_enabled = True
            _core._set_mutation_hook(before_mutation)
            yield ctx
        finally:
            ctx.clear()
            _core._set_mutation_hook(None)
            _allow_mutation_on_saved_tensors_enabled = False


class GradientEdge(NamedTuple):
    """One input of a node: where a tensor's gradient flows (`get_gradient_edge`). Accepted
    by `autograd.grad` and `backward` as an input, to get the gradient flowing into that edge
    even after the tensor itself has moved on (an in-place write, `set_`).

    >>> x = torch.tensor([1., 2.], requires_grad=True).clone()
    >>> edge = torch.autograd.graph.get_gradient_edge(x)
    >>> x *= 3
    >>> torch.autograd.grad(x.sum(), edge)
    (tensor([3., 3.]),)
    """

    node: Node
    output_nr: int
    # keeps the graph alive where `node` does not (a custom Function's context: its node owns
    # it, not the reverse)
    ownership_token: Optional[Node] = None


def get_gradient_edge(tensor):
    """The `GradientEdge` of a tensor that requires grad: its grad_fn (or, for a leaf, its
    AccumulateGrad node) and its output number.

    >>> x = torch.ones(2, requires_grad=True)
    >>> torch.autograd.graph.get_gradient_edge(x).node.name()
    'torch::autograd::AccumulateGrad'
    """
    if not tensor.requires_grad:
        raise RuntimeError(
            "It is not possible to get the gradient edge for a Tensor that does not require gradients"
        )
    from .._grad_mode import enable_grad

    from .function import BackwardCFunction

    with enable_grad():
        node = _grad_node(tensor)
        # a custom Function's node object is its context, which does not own the node: a
        # fresh view's node owns the graph instead, for as long as the edge lives
        token = tensor.view_as(tensor).grad_fn if isinstance(node, BackwardCFunction) else None
    return GradientEdge(node, tensor.output_nr, token)


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """A hook over several tensors. `mode="all"`: once per backward pass, after the gradients of
    every tensor the pass computes are ready, `fn(grads)` with None for the tensors it does not
    reach. `mode="any"`: `fn(grad)` once per pass, with the first of the tensors' gradients.

    >>> a = torch.ones(2, requires_grad=True)
    >>> b = torch.ones(2, requires_grad=True)
    >>> seen = []
    >>> h = torch.autograd.graph.register_multi_grad_hook(
    ...     (a, b), lambda gs: seen.append([g is not None for g in gs]))
    >>> (a * 2).sum().backward(inputs=(a,))
    >>> seen
    [[True, False]]
    >>> h.remove()
    """
    supported = ("all", "any")
    if mode not in supported:
        raise ValueError(f"Expects mode to be one of {supported} but got {mode}")
    lock = threading.Lock()
    if mode == "all":
        _core._track_exec_info()
        count, buffer = {}, {}
        nodes = [_grad_node(t) for t in tensors]
        n = len(tensors)
        expected = {}

        def inner(idx):
            def hook(grad):
                task = _core._current_graph_task_id()
                with lock:
                    seen = count.get(task, 0)
                    count[task] = seen + 1
                    if seen == 0:
                        buffer[task] = [None] * n
                        expected[task] = sum(_core._will_engine_execute_node(g) for g in nodes)
                buffer[task][idx] = grad
                if seen == expected[task] - 1:
                    grads = buffer.pop(task)
                    del count[task], expected[task]
                    fn(grads)

            return hook

        handles = tuple(t.register_hook(inner(i)) for i, t in enumerate(tensors))
    else:
        ran = set()

        @functools.wraps(fn)
        def once(grad):
            task = _core._current_graph_task_id()
            with lock:
                first = task not in ran
                ran.add(task)
            if first:
                fn(grad)

        handles = tuple(t.register_hook(once) for t in tensors if t.requires_grad)
    return _MultiHandle(handles)


def increment_version(tensor):
    """Move the version counter of `tensor` (or of each tensor of an iterable) on, as an
    in-place write would: saved copies of it then fail their version check. Nothing happens to
    an inference tensor, which has no counter.

    >>> x = torch.ones(2)
    >>> torch.autograd.graph.increment_version(x)
    >>> x._version
    1
    """
    for t in (tensor,) if isinstance(tensor, _core.Tensor) else tensor:
        _core._increment_version(t)
