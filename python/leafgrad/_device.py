"""`torch.device`: where a tensor lives: the CPU or a CUDA device."""


class device:
    """Where a tensor lives: `device("cpu")`, `device("cuda:1")`, `device("cuda", 0)`.

    >>> torch.device("cuda:1")
    device(type='cuda', index=1)
    >>> str(torch.device("cuda", 0))
    'cuda:0'
    >>> torch.ones(2).device
    device(type='cpu')
    """

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got ({type.__class__.__name__})")
        if ":" in type:
            type, idx = type.split(":", 1)
            if index is not None:
                raise RuntimeError("type (string) must not include an index because index was passed explicitly: " + type)
            index = int(idx)
        if type not in ("cpu", "cuda", "meta"):
            raise RuntimeError(
                "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: "
                + type
            )
        self.type, self.index = type, index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        # PyTorch compares devices with devices only: device('cpu') == 'cpu' is False.
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __enter__(self):
        """`with torch.device("meta"):` makes the factories called without `device=` inside
        the block (modules' parameters included) make their tensors on this device.

        >>> with torch.device("meta"):
        ...     torch.nn.Linear(2, 3).weight.device
        device(type='meta')
        >>> torch.zeros(1).device
        device(type='cpu')
        """
        global _default
        _entered.append(_default)
        _default = device(self.type, self.index)
        return self

    def __exit__(self, *exc):
        global _default
        _default = _entered.pop()
        return False


CPU = device("cpu")


def check_device(d):
    """The device `d` names (None stays None), after checking it can be used: the CPU always,
    CUDA when a driver and a device exist (otherwise a RuntimeError saying why).

    >>> from leafgrad._device import check_device
    >>> check_device("cpu")
    device(type='cpu')
    >>> check_device("tpu")
    Traceback (most recent call last):
      ...
    RuntimeError: Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: tpu
    """
    if d is None:
        return None
    if isinstance(d, int) and not isinstance(d, bool):
        d = device("cuda", d)
    d = device(d)
    if d.type == "cuda":
        from . import cuda

        cuda._lazy_init()
        index = 0 if d.index is None else d.index
        if index >= cuda.device_count():
            raise RuntimeError(
                f"CUDA error: invalid device ordinal (cuda:{index} was asked for; {cuda.device_count()} device(s) found)"
            )
        return device("cuda", index)
    if d.type == "meta":
        return device("meta")
    if d.type != "cpu":
        raise RuntimeError(f"leafgrad supports only the 'cpu', 'cuda' and 'meta' devices, got '{d}'")
    return d


_default = None  # the device set_default_device gave (None: the CPU)
_entered = []  # the defaults that `with device(...)` blocks replaced, innermost last


def set_default_device(device):
    """Makes the factories (`zeros`, `rand`, `tensor`, `arange`, ...) called without `device=`
    make their tensors on `device` (a `torch.device`, a string such as "cpu", "meta" or "cuda",
    or a CUDA index); `None` goes back to the CPU. Explicit `device=` arguments and the
    `*_like` factories are not affected.

    >>> torch.set_default_device("meta")
    >>> torch.zeros(2)
    tensor(..., device='meta', size=(2,))
    >>> torch.set_default_device(None)
    >>> torch.zeros(2)
    tensor([0., 0.])
    """
    global _default
    if device is None:
        _default = None
        return
    if isinstance(device, int) and not isinstance(device, bool):
        device = f"cuda:{device}"
    _default = _device_class(device)


def get_default_device():
    """The device the factories use when no `device=` is given: the CPU unless
    `set_default_device` changed it ("cuda" with the current device's index).

    >>> torch.get_default_device()
    device(type='cpu')
    """
    if _default is None:
        return CPU
    if _default.type == "cuda" and _default.index is None:
        from . import cuda

        return _device_class("cuda", cuda.current_device())
    return _default


def _with_default(d):
    """`d`, or the default device when `d` is None and `set_default_device` set one."""
    return _default if d is None else d


_device_class = device
