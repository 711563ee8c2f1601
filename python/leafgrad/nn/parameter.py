"""`nn.Parameter`: a Tensor subclass that is always a leaf and requires grad by default;
`nn.Buffer` (a tensor a Module registers as a buffer when assigned); and the uninitialised
parameters and buffers of the Lazy modules (`UninitializedParameter`, `UninitializedBuffer`), which take
their shape when they are materialised."""
from .. import _core
from .._core import Tensor


class Parameter(Tensor):
    """A Tensor that a Module registers as a parameter when assigned as its attribute. It is a
    leaf and requires grad unless told otherwise.

    >>> p = torch.nn.Parameter(torch.tensor([1., 2.]))
    >>> p
    Parameter containing:
    tensor([1., 2.], requires_grad=True)
    >>> p.is_leaf, isinstance(p, torch.Tensor)
    (True, True)
    >>> torch.nn.Parameter(torch.ones(1), requires_grad=False).requires_grad
    False
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = _core._full((0,), 0, _core._get_default_dtype())
        t = data.detach()
        obj = Tensor.__new__(cls, t)
        obj._bind()
        _core._factory_requires_grad(obj, bool(requires_grad))
        return obj

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        return (_rebuild_parameter, (self.detach(), self.requires_grad))

    def __deepcopy__(self, memo):
        """A Parameter over a copy of the data (its layout kept) with `requires_grad`, as
        PyTorch's: neither `.grad` nor shared memory come along.

        >>> import copy
        >>> p = torch.nn.Parameter(torch.ones(2))
        >>> p.grad = torch.ones(2)
        >>> q = copy.deepcopy(p)
        >>> q, q.grad
        (Parameter containing:
        tensor([1., 1.], requires_grad=True), None)
        """
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    @classmethod
    def _from_rebuilt(cls, data, requires_grad):
        """A Parameter over `data` (how a pickled one is rebuilt)."""
        return cls(data, requires_grad)


Parameter.__module__ = "torch.nn.parameter"


def _rebuild_parameter(data, requires_grad):
    """A Parameter again (how pickles name it: this module, not the class's printed one)."""
    return Parameter(data, requires_grad)

class _BufferMeta(type(Tensor)):
    """`isinstance(t, Buffer)` holds for every tensor that `Buffer(...)` made (they are plain
    tensors carrying a `_is_buffer` flag, as PyTorch's)."""

    def __instancecheck__(cls, instance):
        if cls is Buffer and isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False):
            return True
        return super().__instancecheck__(instance)


class Buffer(Tensor, metaclass=_BufferMeta):
    """A tensor that a Module registers as a buffer (state, not a parameter) when assigned as
    its attribute; `persistent=False` keeps it out of `state_dict`. `Buffer(t)` is a plain
    tensor over `t`'s data (detached, `requires_grad` kept) that carries the flag.

    >>> m = torch.nn.Module()
    >>> m.steps = torch.nn.Buffer(torch.zeros(1))
    >>> m.cache = torch.nn.Buffer(torch.ones(2), persistent=False)
    >>> [name for name, _ in m.named_buffers()], list(m.state_dict())
    (['steps', 'cache'], ['steps'])
    >>> type(m.steps).__name__, isinstance(m.steps, torch.nn.Buffer)
    ('Tensor', True)
    """

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = _core._full((0,), 0, _core._get_default_dtype())
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t


Buffer.__module__ = "torch.nn.parameter"


class UninitializedTensorMixin:
    """What an uninitialised parameter or buffer can do before it has a shape: `materialize`
    gives it one (as an empty tensor of its device and dtype) and makes it its `cls_to_become`.

    >>> isinstance(torch.nn.LazyLinear(2).weight, torch.nn.parameter.UninitializedTensorMixin)
    True
    """

    def materialize(self, shape, device=None, dtype=None):
        """Give this tensor `shape` (uninitialised memory) and make it its `cls_to_become`.

        >>> p = torch.nn.parameter.UninitializedParameter()
        >>> p.materialize((2, 3))
        >>> type(p).__name__, p.shape
        ('Parameter', torch.Size([2, 3]))
        """
        from .._factories import empty

        if device is None:
            device = self.data.device
        if dtype is None:
            dtype = self.data.dtype
        self.data = empty(shape, device=device, dtype=dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
            "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
            "`forward` to initialize the parameters before accessing their attributes.")

    def share_memory_(self):
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to initialize the "
            "parameters before calling `module.share_memory()`.")

    def __repr__(self):
        return f"<{self.__class__.__name__}>"

    __str__ = __repr__

    def __getattribute__(self, name):
        # PyTorch's __torch_function__ refuses every Tensor method but a few until the tensor is
        # materialised (leafgrad has no __torch_function__: its methods are refused here)
        attr = super().__getattribute__(name)
        if name.startswith("_") or name in _UNINITIALIZED_ALLOWED or not callable(attr):
            return attr
        if name in UninitializedTensorMixin.__dict__ or name not in _tensor_methods():
            return attr
        return _refuse_uninitialized(f"<method '{name}' of 'torch._C.TensorBase' objects>", type(self).__name__)

    def __getitem__(self, index):
        _refuse_uninitialized("<slot wrapper '__getitem__' of 'torch._C.TensorBase' objects>",
                              type(self).__name__)()

    def __reduce_ex__(self, proto):
        return (_rebuild_uninitialized, (self.__class__.__name__, self.requires_grad))


# the Tensor methods PyTorch's UninitializedTensorMixin lets through (its _allowed_methods)
_UNINITIALIZED_ALLOWED = frozenset({
    "size", "copy_", "is_complex", "is_floating_point", "half", "float", "double", "char", "short",
    "int", "long", "cuda", "cpu", "to", "get_device"})


def _tensor_methods(cache=[]):
    if not cache:
        cache.append(frozenset(n for n in dir(Tensor) if not n.startswith("_")))
    return cache[0]


def _refuse_uninitialized(func, cls_name):
    def refused(*args, **kwargs):
        raise ValueError(
            f"Attempted to use an uninitialized parameter in {func}. This error happens when you are using a "
            f"`LazyModule` or explicitly manipulating `torch.nn.parameter.{cls_name}` objects. When using "
            "LazyModules Call `forward` with a dummy batch to initialize the parameters before calling torch "
            "functions")

    return refused


def _rebuild_uninitialized(kind, requires_grad):
    """An uninitialised parameter or buffer again (how pickles name them)."""
    return {"UninitializedParameter": UninitializedParameter, "UninitializedBuffer": UninitializedBuffer}[kind](
        requires_grad)


def is_lazy(param):
    """Whether `param` is an uninitialised parameter or buffer (a Lazy module's, before its first
    forward).

    >>> torch.nn.parameter.is_lazy(torch.nn.parameter.UninitializedParameter())
    True
    """
    return isinstance(param, UninitializedTensorMixin)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A Parameter without a shape yet (a Lazy module's): it becomes a Parameter when it is
    materialised.

    >>> p = torch.nn.parameter.UninitializedParameter(dtype=torch.float64)
    >>> p
    <UninitializedParameter>
    >>> p.materialize((2,))
    >>> p.dtype, p.requires_grad, type(p).__name__
    (torch.float64, True, 'Parameter')
    """

    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        from .._factories import empty

        return Parameter.__new__(cls, empty(0, device=device, dtype=dtype), requires_grad)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.requires_grad, self.data.device, self.data.dtype)
        memo[id(self)] = result
        return result


class _MaterializedBuffer(Tensor):
    """What a materialised UninitializedBuffer is until its module swaps in a plain Tensor over
    the same memory (leafgrad's Tensor type cannot be assigned as an object's class)."""


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer without a shape yet (a Lazy module's running statistics): it becomes a tensor
    when it is materialised.

    >>> b = torch.nn.parameter.UninitializedBuffer()
    >>> b
    <UninitializedBuffer>
    >>> b.materialize((3,))
    >>> isinstance(b, torch.Tensor), b.shape, b.requires_grad
    (True, torch.Size([3]), False)
    """

    cls_to_become = _MaterializedBuffer

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True):
        from .._factories import empty

        obj = Tensor.__new__(cls, empty(0, device=device, dtype=dtype))
        obj._bind()
        _core._factory_requires_grad(obj, bool(requires_grad))
        obj.persistent = persistent
        obj._is_buffer = True
        return obj


for _cls in (UninitializedTensorMixin, UninitializedParameter, UninitializedBuffer):
    _cls.__module__ = "torch.nn.parameter"

# doctest skips classes whose __module__ is not this module's name; list them explicitly.
__test__ = {"Parameter": Parameter, "UninitializedParameter": UninitializedParameter,
            "UninitializedBuffer": UninitializedBuffer, "materialize": UninitializedTensorMixin.materialize}
