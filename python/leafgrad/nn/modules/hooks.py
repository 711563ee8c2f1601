"""`nn.Module`'s calling and hooks: forward pre-hooks and hooks (with kwargs, always_call),
full backward hooks and pre-hooks (through `torch.utils.hooks.BackwardHook`), and the handle
registrations return. `Module` inherits them; its `__init__` makes the hook dicts."""
from ..._core import Tensor

__all__ = ["RemovableHandle"]


class RemovableHandle:
    """Handle returned by the hook registration methods; `remove()` unregisters the hook.

    >>> relu = torch.nn.ReLU()
    >>> with relu.register_forward_hook(lambda m, args, out: out + 1):
    ...     print(relu(torch.tensor([-1.])))
    tensor([1.])
    >>> relu(torch.tensor([-1.]))
    tensor([0.])
    """

    _next_id = 0

    def __init__(self, hooks_dict, *, extra_dict=None):
        self._hooks = hooks_dict
        self.id = RemovableHandle._next_id
        RemovableHandle._next_id += 1
        if extra_dict is None:
            extra_dict = ()
        elif not isinstance(extra_dict, (list, tuple)):
            extra_dict = (extra_dict,)
        self._extra = tuple(extra_dict)

    def remove(self):
        self._hooks.pop(self.id, None)
        for d in self._extra:
            d.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def _register(hooks, hook, prepend, flags=()):
    """Add `hook` to `hooks` (first with `prepend`), marked in each flag dict of `flags`
    ((dict, on) pairs) that is on; the handle removes it from all of them."""
    handle = RemovableHandle(hooks, extra_dict=[d for d, _ in flags])
    hooks[handle.id] = hook
    for flag_dict, on in flags:
        if on:
            flag_dict[handle.id] = True
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


class _ModuleHooks:
    """The calling part of `nn.Module` (see the module docstring)."""

    def __call__(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks):
            return self.forward(*args, **kwargs)
        return self._call_with_hooks(args, kwargs)

    def _call_with_hooks(self, args, kwargs):
        """PyTorch's `_call_impl` with hooks: forward pre-hooks, the backward-hook wrapping of
        the inputs, forward, forward hooks, the wrapping of the outputs (always_call hooks run
        even when forward raises)."""
        called_always = set()
        try:
            for hook_id, hook in list(self._forward_pre_hooks.items()):
                if hook_id in self._forward_pre_hooks_with_kwargs:
                    res = hook(self, args, kwargs)
                    if res is not None:
                        if isinstance(res, tuple) and len(res) == 2:
                            args, kwargs = res
                        else:
                            raise RuntimeError(
                                "forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                f"but got {res}."
                            )
                else:
                    res = hook(self, args)
                    if res is not None:
                        args = res if isinstance(res, tuple) else (res,)
            bw_hook = None
            if self._backward_hooks or self._backward_pre_hooks:
                from ...utils.hooks import BackwardHook

                bw_hook = BackwardHook(self, list(self._backward_hooks.values()),
                                       list(self._backward_pre_hooks.values()))
                args = bw_hook.setup_input_hook(args)
            result = self.forward(*args, **kwargs)
            for hook_id, hook in list(self._forward_hooks.items()):
                if hook_id in self._forward_hooks_always_called:
                    called_always.add(hook_id)
                if hook_id in self._forward_hooks_with_kwargs:
                    res = hook(self, args, kwargs, result)
                else:
                    res = hook(self, args, result)
                if res is not None:
                    result = res
            if bw_hook is not None:
                if not isinstance(result, (Tensor, tuple)):
                    import warnings

                    warnings.warn(
                        "For backward hooks to be called, module output should be a Tensor or a tuple of "
                        f"Tensors but received {type(result)}",
                        stacklevel=3,
                    )
                result = bw_hook.setup_output_hook(result)
            return result
        except Exception:
            for hook_id, hook in list(self._forward_hooks.items()):
                if hook_id in self._forward_hooks_always_called and hook_id not in called_always:
                    try:
                        if hook_id in self._forward_hooks_with_kwargs:
                            hook(self, args, kwargs, None)
                        else:
                            hook(self, args, None)
                    except Exception as e:
                        import warnings

                        warnings.warn(
                            "global module forward hook with ``always_call=True`` raised an exception "
                            f"that was silenced as another error was raised in forward: {str(e)}",
                            stacklevel=3,
                        )
            raise

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """Call `hook(module, args)` before each forward; a non-None result replaces the args
        (`with_kwargs=True`: `hook(module, args, kwargs)` returning None or `(args, kwargs)`).

        >>> relu = torch.nn.ReLU()
        >>> handle = relu.register_forward_pre_hook(lambda module, args: (-args[0],))
        >>> relu(torch.tensor([-1., 2.]))
        tensor([1., 0.])
        >>> handle.remove()
        """
        return _register(self._forward_pre_hooks, hook, prepend,
                         [(self._forward_pre_hooks_with_kwargs, with_kwargs)])

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """Call `hook(module, args, output)` after each forward; a non-None result replaces
        the output (`with_kwargs=True`: `hook(module, args, kwargs, output)`; `always_call=True`:
        also called, with output None, when forward raises).

        >>> relu = torch.nn.ReLU()
        >>> handle = relu.register_forward_hook(lambda module, args, output: output * 10)
        >>> relu(torch.tensor([-1., 2.]))
        tensor([ 0., 20.])
        >>> handle.remove()
        """
        return _register(self._forward_hooks, hook, prepend,
                         [(self._forward_hooks_with_kwargs, with_kwargs),
                          (self._forward_hooks_always_called, always_call)])

    def register_full_backward_hook(self, hook, prepend=False):
        """Call `hook(module, grad_input, grad_output)` when the gradients with respect to the
        module's inputs are computed; a non-None result replaces `grad_input`. `grad_input`
        holds None for inputs that are not tensors requiring grad.

        >>> lin = torch.nn.Linear(2, 1)
        >>> h = lin.register_full_backward_hook(lambda m, gin, gout: print(gout[0].shape))
        >>> lin(torch.ones(3, 2, requires_grad=True)).sum().backward()
        torch.Size([3, 1])
        """
        return _register(self._backward_hooks, hook, prepend)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """Call `hook(module, grad_output)` when the gradients with respect to the module's
        outputs are computed, before the inputs'; a non-None result replaces `grad_output`.

        >>> lin = torch.nn.Linear(2, 1)
        >>> h = lin.register_full_backward_pre_hook(lambda m, gout: (gout[0] * 0,))
        >>> x = torch.ones(1, 2, requires_grad=True)
        >>> lin(x).sum().backward()
        >>> x.grad
        tensor([[0., 0.]])
        """
        return _register(self._backward_pre_hooks, hook, prepend)
