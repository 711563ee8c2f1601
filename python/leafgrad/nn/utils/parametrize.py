"""`torch.nn.utils.parametrize`: express a module's parameter or buffer as the output of a
module (a parametrization) applied to unconstrained tensors, as PyTorch does it: the module's
class is swapped for a `Parametrized<Name>` subclass carrying a property for the tensor, and
the unconstrained tensors live at `module.parametrizations.<name>.original` (or `original0`,
`original1`, ... when `right_inverse` returns several)."""
import collections.abc
from contextlib import contextmanager
from copy import deepcopy
import copyreg

from ..._grad_mode import no_grad
from ..modules.container import ModuleDict, ModuleList
from ..modules.module import Module
from ..parameter import Parameter

__all__ = ["cached", "ParametrizationList", "register_parametrization", "is_parametrized",
           "remove_parametrizations", "type_before_parametrizations"]

_cache_enabled = 0
_cache = {}


@contextmanager
def cached():
    """Cache the value of every parametrized tensor the first time it is computed inside the
    block; the cache is dropped on leaving the outermost block.

    >>> P = torch.nn.utils.parametrize
    >>> class Double(torch.nn.Module):
    ...     def forward(self, X):
    ...         return 2 * X
    >>> m = P.register_parametrization(torch.nn.Linear(2, 2), "bias", Double())
    >>> with P.cached():
    ...     print(m.bias is m.bias)
    True
    >>> m.bias is m.bias
    False
    """
    global _cache, _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module, name, X):
    if isinstance(X, Parameter):
        module.register_parameter(name, X)
    else:
        module.register_buffer(name, X)


def _maybe_set(dest, src):
    dest.set_(src)


def _is_tensor(x):
    from ... import Tensor

    return isinstance(x, Tensor)


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor (a `ModuleList`) and the unconstrained tensor(s) they
    are applied to, `original` (or `original0`, `original1`, ...). Made by
    `register_parametrization`.

    >>> P = torch.nn.utils.parametrize
    >>> class Double(torch.nn.Module):
    ...     def forward(self, X):
    ...         return 2 * X
    >>> m = P.register_parametrization(torch.nn.Linear(2, 2), "bias", Double())
    >>> type(m.parametrizations.bias).__name__
    'ParametrizationList'
    >>> [name for name, _ in m.parametrizations.bias.named_parameters()]
    ['original']
    """

    def __init__(self, modules, original, unsafe=False):
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape = original.shape
        original_dtype = original.dtype
        with no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
        if not _is_tensor(new) and not isinstance(new, collections.abc.Sequence):
            raise ValueError(
                "'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                f"Got {type(new).__name__}")
        self.is_tensor = _is_tensor(new)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if original.dtype != new.dtype:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                    f"original.dtype: {original.dtype}\n"
                    f"right_inverse(original).dtype: {new.dtype}")
            if original.device != new.device:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the device.\n"
                    f"original.device: {original.device}\n"
                    f"right_inverse(original).device: {new.device}")
            with no_grad():
                _maybe_set(original, new)
            _register_parameter_or_buffer(self, "original", original)
        else:
            for i, originali in enumerate(new):
                if not _is_tensor(originali):
                    raise ValueError(
                        "'right_inverse' must return a Tensor or a Sequence of tensors "
                        "(list, tuple...). "
                        f"Got element {i} of the sequence with type {type(originali).__name__}.")
                if isinstance(original, Parameter):
                    originali = Parameter(originali, original.requires_grad)
                originali.requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, f"original{i}", originali)
        if not self.unsafe:
            Z = self()
            if not _is_tensor(Z):
                raise ValueError(f"A parametrization must return a tensor. Got {type(Z).__name__}.")
            if Z.dtype != original_dtype:
                raise ValueError(
                    "Registering a parametrization may not change the dtype of the tensor, unless `unsafe` flag is enabled.\n"
                    f"unparametrized dtype: {original_dtype}\n"
                    f"parametrized dtype: {Z.dtype}")
            if Z.shape != original_shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape of the tensor, unless `unsafe` flag is enabled.\n"
                    f"unparametrized shape: {original_shape}\n"
                    f"parametrized shape: {Z.shape}")

    def right_inverse(self, value):
        """Run the parametrizations' `right_inverse` in reverse registration order and store the
        result in `original` (or `original0`, `original1`, ...); assigning to the parametrized
        attribute calls this.

        >>> P = torch.nn.utils.parametrize
        >>> class Double(torch.nn.Module):
        ...     def forward(self, X):
        ...         return 2 * X
        ...     def right_inverse(self, Y):
        ...         return Y / 2
        >>> m = P.register_parametrization(torch.nn.Linear(2, 2), "bias", Double())
        >>> m.bias = torch.tensor([4., 6.])
        >>> m.parametrizations.bias.original
        Parameter containing:
        tensor([2., 3.], requires_grad=True)
        """
        with no_grad():
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    value = module.right_inverse(value)
                else:
                    raise RuntimeError(
                        f"parametrization {type(module).__name__} does not implement right_inverse.")
            if self.is_tensor:
                if not _is_tensor(value):
                    raise ValueError(f"`right_inverse` should return a tensor. Got {type(value).__name__}")
                if value.dtype != self.original.dtype:
                    raise ValueError(
                        f"The tensor returned by `right_inverse` has dtype {value.dtype} "
                        f"while `original` has dtype {self.original.dtype}")
                _maybe_set(self.original, value)
            else:
                if not isinstance(value, collections.abc.Sequence):
                    raise ValueError(
                        f"'right_inverse' must return a sequence of tensors. Got {type(value).__name__}.")
                if len(value) != self.ntensors:
                    raise ValueError(
                        "'right_inverse' must return a sequence of tensors of length "
                        f"{self.ntensors}. Got a sequence of length {len(value)}.")
                for i, tensor in enumerate(value):
                    original_i = getattr(self, f"original{i}")
                    if not _is_tensor(tensor):
                        raise ValueError(
                            "'right_inverse' must return a sequence of tensors "
                            f"or reference-type opaques. Got element {i} of type {type(tensor).__name__}.")
                    if original_i.dtype != tensor.dtype:
                        raise ValueError(
                            f"Tensor {i} returned by `right_inverse` has dtype {tensor.dtype} "
                            f"while `original{i}` has dtype {original_i.dtype}")
                    _maybe_set(original_i, tensor)

    def forward(self):
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        i = 1
        while hasattr(self, str(i)):
            x = self[i](x)
            i += 1
        return x


def _inject_new_class(module):
    cls = module.__class__

    def default_deepcopy(self, memo):
        obj = memo.get(id(self), None)
        if obj is not None:
            return obj
        replica = self.__new__(self.__class__)
        memo[id(self)] = replica
        replica.__dict__ = deepcopy(self.__dict__, memo)
        for slot in copyreg._slotnames(self.__class__):
            if hasattr(self, slot):
                setattr(replica, slot, deepcopy(getattr(self, slot), memo))
        return replica

    def getstate(self):
        raise RuntimeError(
            "Serialization of parametrized modules is only "
            "supported through state_dict(). See:\n"
            "https://pytorch.org/tutorials/beginner/saving_loading_models.html"
            "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training")

    dct = {"__getstate__": getstate}
    if not hasattr(cls, "__deepcopy__"):
        dct["__deepcopy__"] = default_deepcopy
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), dct)


def _inject_property(module, tensor_name):
    if hasattr(module, tensor_name):
        raise AssertionError(f"Module already has an attribute named '{tensor_name}'")

    def get_cached_parametrization(parametrization):
        key = (id(module), tensor_name)
        tensor = _cache.get(key)
        if tensor is None:
            tensor = parametrization()
            _cache[key] = tensor
        return tensor

    def get_parametrized(self):
        parametrization = self.parametrizations[tensor_name]
        if _cache_enabled:
            return get_cached_parametrization(parametrization)
        return parametrization()

    def set_original(self, value):
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """Make `module.<tensor_name>` the output of `parametrization` applied to the original
    tensor, now stored at `module.parametrizations.<tensor_name>.original`; registering a second
    parametrization on the same name chains it after the first.

    >>> P = torch.nn.utils.parametrize
    >>> class Symmetric(torch.nn.Module):
    ...     def forward(self, X):
    ...         return X.triu() + X.triu(1).transpose(-1, -2)
    >>> m = torch.nn.Linear(3, 3, bias=False)
    >>> with torch.no_grad():
    ...     _ = m.weight.copy_(torch.arange(9.).view(3, 3))
    ...     m = P.register_parametrization(m, "weight", Symmetric())
    >>> m.weight
    tensor([[0., 1., 2.],
            [1., 4., 5.],
            [2., 5., 8.]], grad_fn=<AddBackward0>)
    >>> type(m).__name__
    'ParametrizedLinear'
    >>> list(m.state_dict())
    ['parametrizations.weight.original']
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            Y = getattr(module, tensor_name)
            X = parametrization(Y)
            if not _is_tensor(X):
                raise ValueError(f"A parametrization must return a tensor. Got {type(X).__name__}.")
            if X.dtype != Y.dtype:
                raise ValueError(
                    "Registering a parametrization may not change the dtype of the tensor, unless the `unsafe` flag is enabled.\n"
                    f"module.{tensor_name}.dtype: {Y.dtype}\n"
                    f"parametrization(module.{tensor_name}).dtype: {X.dtype}")
            if X.shape != Y.shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape of the tensor, unless the `unsafe` flag is enabled.\n"
                    f"module.{tensor_name}.shape: {Y.shape}\n"
                    f"parametrization(module.{tensor_name}).shape: {X.shape}")
            if hasattr(parametrization, "right_inverse"):
                try:
                    Z = parametrization.right_inverse(X)
                except NotImplementedError:
                    pass
                else:
                    if not _is_tensor(Z):
                        raise ValueError(
                            f"parametrization.right_inverse must return a tensor. Got: {type(Z).__name__}")
                    if Z.dtype != Y.dtype:
                        raise ValueError(
                            "The tensor returned by parametrization.right_inverse must have the same dtype "
                            f"as module.{tensor_name}, unless the `unsafe` flag is enabled.\n"
                            f"module.{tensor_name}.dtype: {Y.dtype}\n"
                            f"returned dtype: {Z.dtype}")
                    if Z.shape != Y.shape:
                        raise ValueError(
                            "The tensor returned by parametrization.right_inverse must have the same shape "
                            f"as module.{tensor_name}, unless the `unsafe` flag is enabled.\n"
                            f"module.{tensor_name}.shape: {Y.shape}\n"
                            f"returned shape: {Z.shape}")
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError(
            f"Module '{module}' does not have a parameter, a buffer, or a "
            f"parametrized element with name '{tensor_name}'")
    return module


def is_parametrized(module, tensor_name=None):
    """Whether `module` has a parametrization on `tensor_name` (on any tensor when None).

    >>> P = torch.nn.utils.parametrize
    >>> m = torch.nn.Linear(2, 2)
    >>> P.is_parametrized(m)
    False
    >>> m = P.register_parametrization(m, "bias", torch.nn.Identity())
    >>> P.is_parametrized(m), P.is_parametrized(m, "bias"), P.is_parametrized(m, "weight")
    (True, True, False)
    """
    parametrizations = getattr(module, "parametrizations", None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Remove the parametrizations on `module.<tensor_name>`, leaving the current parametrized
    value (or, with `leave_parametrized=False`, the original tensor) as a plain parameter or
    buffer; the module gets its class back once nothing is parametrized.

    >>> P = torch.nn.utils.parametrize
    >>> class Double(torch.nn.Module):
    ...     def forward(self, X):
    ...         return 2 * X
    >>> m = torch.nn.Linear(2, 2)
    >>> with torch.no_grad():
    ...     _ = m.bias.copy_(torch.tensor([1., 2.]))
    ...     m = P.register_parametrization(m, "bias", Double())
    >>> m = P.remove_parametrizations(m, "bias")
    >>> type(m).__name__, m.bias
    ('Linear', Parameter containing:
    tensor([2., 4.], requires_grad=True))
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with no_grad():
                t = getattr(module, tensor_name)
            with no_grad():
                _maybe_set(original, t)
    else:
        if leave_parametrized:
            t = getattr(module, tensor_name)
            original = Parameter(t) if t.requires_grad else t
        else:
            raise ValueError(
                "Cannot leave unparametrized (`leave_parametrized=False`) a tensor "
                "that is parametrized in terms of a sequence of tensors.")
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module):
    """The module's class before parametrizations were registered (its class if none were).

    >>> P = torch.nn.utils.parametrize
    >>> m = P.register_parametrization(torch.nn.Linear(2, 2), "bias", torch.nn.Identity())
    >>> type(m).__name__, P.type_before_parametrizations(m).__name__
    ('ParametrizedLinear', 'Linear')
    """
    if is_parametrized(module):
        return module.__class__.__bases__[0]
    return type(module)
