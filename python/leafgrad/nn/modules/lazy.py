"""`torch.nn.modules.lazy`: LazyModuleMixin, what the Lazy modules share. Their parameters and
buffers start uninitialised (`UninitializedParameter`/`UninitializedBuffer`); the first forward
(or a load_state_dict with initialised values) gives them their shapes, `reset_parameters` draws
their values as the module's non-lazy class would, and the module becomes that class
(`cls_to_become`)."""
import itertools

from ..._grad_mode import no_grad
from ..parameter import UninitializedParameter, _MaterializedBuffer, is_lazy

__all__ = ["LazyModuleMixin"]


def _uninitialised(module, bias, device, dtype):
    """An uninitialised `weight` (and `bias`) for a Lazy layer."""
    module.weight = UninitializedParameter(device=device, dtype=dtype)
    if bias:
        module.bias = UninitializedParameter(device=device, dtype=dtype)


class LazyModuleMixin:
    """Mixin for modules whose parameter shapes come from their first input.

    >>> lin = torch.nn.LazyLinear(2)
    >>> lin
    LazyLinear(in_features=0, out_features=2, bias=True)
    >>> lin.has_uninitialized_params(), isinstance(lin, torch.nn.modules.lazy.LazyModuleMixin)
    (True, True)
    >>> lin(torch.ones(4, 3)).shape
    torch.Size([4, 2])
    >>> lin, type(lin).__name__
    (Linear(in_features=3, out_features=2, bias=True), 'Linear')
    """

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters, with_kwargs=True)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        # uninitialised parameters and buffers go in as they are (detaching would lose their kind)
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if (is_lazy(param) or keep_vars) else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if (is_lazy(buf) or keep_vars) else buf.detach()

    def _lazy_load_hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                        error_msgs):
        """Materialise the uninitialised parameters and buffers that `state_dict` has initialised
        values for (load_state_dict then copies those in)."""
        for name, param in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None and is_lazy(param) and not is_lazy(state_dict[key]):
                with no_grad():
                    param.materialize(state_dict[key].shape)
        self._plain_buffers()

    def _plain_buffers(self):
        """Materialised buffers as plain tensors over the same memory (PyTorch's become Tensors)."""
        for name, buf in self._buffers.items():
            if type(buf) is _MaterializedBuffer:
                self._buffers[name] = buf.data

    def initialize_parameters(self, *args, **kwargs):
        """Give the uninitialised parameters their shapes from the first input (each Lazy module
        defines it)."""
        raise NotImplementedError(f"initialize_parameters is not implemented for {self.__class__.__name__}")

    def has_uninitialized_params(self):
        """Whether some parameter or buffer of this module is still uninitialised."""
        return any(is_lazy(t) for t in itertools.chain(self._parameters.values(), self._buffers.values()))

    def _infer_parameters(self, module, args, kwargs=None):
        """The forward pre-hook: initialise from the input, drop the hooks and become
        `cls_to_become`."""
        kwargs = kwargs if kwargs else {}
        module.initialize_parameters(*args, **kwargs)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._plain_buffers()
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _replicate_for_data_parallel(self):
        raise RuntimeError("Modules with uninitialized parameters can't be used with `DataParallel`. Run a dummy "
                           "forward pass to correctly initialize the modules")
