"""`torch.save` / `torch.load` in PyTorch's file format (a zip archive: `data.pkl`, pickled with
protocol 2, and one record per storage), so a file saved by either library loads in the other.

Tensors pickle as PyTorch's `torch._utils._rebuild_tensor_v2` over a storage record, parameters
as `_rebuild_parameter`; tensors that share memory share one record. `load` reads back what
`save` writes and what PyTorch writes; `weights_only=True` (the default, as in PyTorch 2.6+)
allows only tensors, containers, numbers and strings (and the few torch types a state_dict
holds)."""
import collections
import io
import os
import pickle
import struct
import zipfile

from . import _core
from ._tensor import Tensor

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals", "safe_globals",
           "get_unsafe_globals_in_checkpoint"]

# PyTorch's legacy storage class per dtype, the name its pickles use
_STORAGE_NAMES = {
    "float32": "FloatStorage", "float64": "DoubleStorage", "float16": "HalfStorage",
    "bfloat16": "BFloat16Storage", "int64": "LongStorage", "int32": "IntStorage",
    "uint8": "ByteStorage", "int8": "CharStorage", "int16": "ShortStorage", "bool": "BoolStorage", "complex64": "ComplexFloatStorage",
    "complex128": "ComplexDoubleStorage",
}
_STORAGE_DTYPES = {v: k for k, v in _STORAGE_NAMES.items()}
_ALIGN = 64  # storage records start at multiples of this (PyTorch's, for memory-mapping)


class _Global:
    """A name pickled as PyTorch's (`torch._utils._rebuild_tensor_v2`, `torch.FloatStorage`):
    written as a GLOBAL opcode without importing torch."""

    def __init__(self, module, name):
        self.module, self.name = module, name

    def __call__(self, *args):  # pickle wants reduce functions callable; only PyTorch calls this
        raise TypeError(f"{self.module}.{self.name} is PyTorch's; leafgrad only pickles its name")


_REBUILD_TENSOR = _Global("torch._utils", "_rebuild_tensor_v2")
_DTYPE_GLOBALS = {name: _Global("torch", name) for name in _STORAGE_NAMES}  # torch.float32, ...
_REBUILD_PARAMETER = _Global("torch._utils", "_rebuild_parameter")
_REBUILD_PARAMETER_STATE = _Global("torch._utils", "_rebuild_parameter_with_state")


class _Pickler(pickle._Pickler):
    """Protocol-2 pickling of tensors as PyTorch pickles them; storages become persistent ids
    (`('storage', torch.<X>Storage, key, location, numel)`) whose bytes the archive holds."""

    dispatch = dict(pickle._Pickler.dispatch)
    dispatch[_Global] = lambda self, obj: self.save_global(obj)
    # a dtype is a global of the torch module, as PyTorch pickles it
    dispatch[_core.dtype] = lambda self, obj: self.save(_DTYPE_GLOBALS[obj._name])

    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.storages = {}  # identity of the memory -> (key, 1-D tensor over it)

    def save_global(self, obj, name=None):
        if isinstance(obj, _Global):
            self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode("utf-8"))
            self.memoize(obj)
            return
        super().save_global(obj, name)

    def persistent_id(self, obj):
        if isinstance(obj, _StorageRef):
            return ("storage", _Global("torch", _STORAGE_NAMES[obj.data.dtype._name]), obj.key,
                    obj.location, obj.data.numel())
        return None

    def reducer_override(self, obj):
        from ._device import device
        from ._size import Size

        if isinstance(obj, Tensor):
            return self._reduce_tensor(obj)
        # the torch types a state_dict or checkpoint holds, under PyTorch's names
        if isinstance(obj, Size):
            return (_Global("torch", "Size"), (tuple(obj),))
        if isinstance(obj, device):
            return (_Global("torch", "device"), (str(obj),))
        return NotImplemented

    def _storage(self, t):
        data = _core._storage_view(t, t.dtype)
        ident = (_core._storage_view(t, _core.uint8).data_ptr(), t.device.type, t.dtype._name)
        if ident not in self.storages:
            self.storages[ident] = _StorageRef(str(len(self.storages)), data, str(t.device))
        return self.storages[ident]

    def _reduce_tensor(self, t):
        from .nn.parameter import Parameter

        if t.is_meta:
            raise NotImplementedError("Cannot copy out of meta tensor; no data!")
        hooks = collections.OrderedDict()
        state = {k: v for k, v in getattr(t, "__dict__", {}).items()} or None
        if isinstance(t, Parameter):
            data = t.detach()
            if state:
                return (_REBUILD_PARAMETER_STATE, (data, t.requires_grad, hooks, state))
            return (_REBUILD_PARAMETER, (data, t.requires_grad, hooks))
        args = (self._storage(t), t.storage_offset(), tuple(t.shape), t.stride(), t.requires_grad, hooks)
        return (_REBUILD_TENSOR, args)


class _StorageRef:
    def __init__(self, key, data, location):
        self.key, self.data, self.location = key, data, location


def _archive_name(f):
    if isinstance(f, (str, os.PathLike)):
        return os.path.splitext(os.path.basename(os.fspath(f)))[0] or "archive"
    return "archive"


def _bytes_of(data):
    from .storage import _bytes

    return _bytes(data)


def save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Save `obj` (tensors, a state_dict, a module, any picklable object holding tensors) to the
    path or binary file `f`, in PyTorch's zip format: PyTorch's `torch.load` reads it.

    >>> import io
    >>> buf = io.BytesIO()
    >>> torch.save({'w': torch.tensor([1., 2.]), 'step': 3}, buf)
    >>> _ = buf.seek(0)
    >>> torch.load(buf)
    {'w': tensor([1., 2.]), 'step': 3}
    """
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("leafgrad writes PyTorch's zip format only "
                                  "(_use_new_zipfile_serialization=False is not supported)")
    buf = io.BytesIO()
    pickler = _Pickler(buf, pickle_protocol)
    pickler.dump(obj)
    name = _archive_name(f)
    own = isinstance(f, (str, os.PathLike))
    fh = open(f, "wb") if own else f
    try:
        with zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED) as z:
            def record(rel, payload, align=False):
                info = zipfile.ZipInfo(f"{name}/{rel}", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_STORED
                if align:
                    # pad the local header's extra field so the bytes start on a 64-byte boundary
                    start = fh.tell() + 30 + len(info.filename.encode("utf-8")) + 4
                    pad = (-start) % _ALIGN
                    info.extra = struct.pack("<HH", 0x4246, pad) + b"Z" * pad
                z.writestr(info, payload)

            record("data.pkl", buf.getvalue())
            record(".format_version", b"1")
            record(".storage_alignment", str(_ALIGN).encode())
            if not _disable_byteorder_record:
                record("byteorder", b"little")
            for ref in pickler.storages.values():
                record(f"data/{ref.key}", _bytes_of(ref.data), align=True)
            record("version", b"3\n")
    finally:
        if own:
            fh.close()


# ---------------------------------------------------------------------------------- load

def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    t = storage.as_strided(tuple(size), tuple(stride), storage_offset).detach()
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_parameter(data, requires_grad, backward_hooks):
    from .nn.parameter import Parameter

    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    p = _rebuild_parameter(data, requires_grad, backward_hooks)
    p.__dict__.update(state)
    return p


class _StorageType:
    def __init__(self, dtype_name):
        self.dtype_name = dtype_name


def _torch_names():
    """What a weights-only load may build: PyTorch's names mapped to leafgrad's."""
    import leafgrad

    from .nn.parameter import Parameter

    names = {
        ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
        ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
        ("torch._utils", "_rebuild_parameter_with_state"): _rebuild_parameter_with_state,
        ("torch.nn.parameter", "Parameter"): Parameter,
        ("collections", "OrderedDict"): collections.OrderedDict,
        ("torch", "Size"): leafgrad.Size,
        ("torch", "device"): leafgrad.device,
        ("builtins", "set"): set,
        ("builtins", "frozenset"): frozenset,
        ("builtins", "complex"): complex,
        ("builtins", "slice"): slice,
    }
    for n in _STORAGE_DTYPES:
        names[("torch", n)] = _StorageType(_STORAGE_DTYPES[n])
    names[("torch", "UntypedStorage")] = _StorageType("uint8")
    for dt in _STORAGE_NAMES:
        names[("torch", dt)] = getattr(leafgrad, dt)
    return names


def _weights_only_error(module, name):
    g = f"{module}.{name}"
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, "
        "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, we "
        "changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. "
        "Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in "
        "arbitrary code execution. Do it only if you got the file from a trusted source.\n\t(2) Alternatively, "
        "to load with `weights_only=True` please check the recommended steps in the following error message.\n"
        f"\tWeightsUnpickler error: Unsupported global: GLOBAL {g} was not an allowed global by default. Please "
        f"use `torch.serialization.add_safe_globals([{g}])` or the `torch.serialization.safe_globals([{g}])` "
        "context manager to allowlist this global if you trust this class/function.\n\nCheck the documentation "
        "of torch.load to learn more about types accepted by default with weights_only "
        "https://pytorch.org/docs/stable/generated/torch.load.html.")


_SAFE_GLOBALS = []  # what add_safe_globals allowed: objects, or (object, "module.name")


def add_safe_globals(safe_globals):
    """Allow `torch.load(weights_only=True)` to build these classes and functions (or
    `(obj, "module.name")` pairs, for a name other than the object's own).

    >>> torch.serialization.add_safe_globals([torch.nn.Linear])
    >>> torch.nn.Linear in torch.serialization.get_safe_globals()
    True
    >>> torch.serialization.clear_safe_globals()
    """
    _SAFE_GLOBALS.extend(safe_globals)


def get_safe_globals():
    """The globals `add_safe_globals` allowed (a list).

    >>> type(torch.serialization.get_safe_globals())
    <class 'list'>
    """
    return list(_SAFE_GLOBALS)


def clear_safe_globals():
    """Forget every global `add_safe_globals` allowed.

    >>> torch.serialization.clear_safe_globals()
    """
    _SAFE_GLOBALS.clear()


class safe_globals:
    """A context manager allowing the given globals for weights-only loads inside it.

    >>> with torch.serialization.safe_globals([torch.nn.Linear]):
    ...     len(torch.serialization.get_safe_globals())
    1
    """

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        self._before = list(_SAFE_GLOBALS)
        add_safe_globals(self.safe_globals)

    def __exit__(self, *exc):
        _SAFE_GLOBALS[:] = self._before


def _user_globals():
    """The allowed globals by (module, name); a leafgrad class answers to PyTorch's path too."""
    out = {}
    for g in _SAFE_GLOBALS:
        obj, full = g if isinstance(g, tuple) else (g, f"{g.__module__}.{g.__qualname__}")
        module, _, name = full.rpartition(".")
        out[(module, name)] = obj
        if module == "leafgrad" or module.startswith("leafgrad."):
            out[("torch" + module[len("leafgrad"):], name)] = obj
    return out


def get_unsafe_globals_in_checkpoint(f):
    """The globals (as "module.name") in a checkpoint that a weights-only load would refuse.

    >>> import io
    >>> buf = io.BytesIO()
    >>> torch.save({"w": torch.zeros(2)}, buf)
    >>> _ = buf.seek(0)
    >>> torch.serialization.get_unsafe_globals_in_checkpoint(buf)
    []
    """
    import pickletools

    own = isinstance(f, (str, os.PathLike))
    fh = open(f, "rb") if own else f
    try:
        fh.seek(0)
        with zipfile.ZipFile(fh) as z:
            pkl = next(n for n in z.namelist() if n.endswith("/data.pkl") and n.count("/") == 1)
            data = z.read(pkl)
    finally:
        if own:
            fh.close()
    allowed = set(_torch_names()) | set(_user_globals())
    found = []
    for op, arg, _ in pickletools.genops(data):
        if op.name == "GLOBAL":
            module, name = _py3_name(*arg.split(" ", 1))
            if (module, name) not in allowed and not (module == "builtins" and name in _PLAIN_BUILTINS):
                found.append(f"{module}.{name}")
    return sorted(set(found))


def _py3_name(module, name):
    """A protocol-2 pickle's Python 2 name (`__builtin__.set`) as Python 3 spells it."""
    import _compat_pickle

    if (module, name) in _compat_pickle.NAME_MAPPING:
        return _compat_pickle.NAME_MAPPING[(module, name)]
    return _compat_pickle.IMPORT_MAPPING.get(module, module), name


_PLAIN_BUILTINS = ("list", "dict", "tuple", "int", "float", "str", "bytes", "bytearray", "bool")


def _map_location(data, location, map_location):
    if map_location is None:
        target = location
    elif callable(map_location):
        out = map_location(data, location)
        return data if out is None else out
    elif isinstance(map_location, dict):
        target = map_location.get(location, location)
    else:
        target = str(map_location)
    return data if target == "cpu" else data.to(target)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Load what `save` (leafgrad's or PyTorch's) wrote to the path or binary file `f`.
    `map_location` (a device, a dict of locations or a function) moves the storages;
    `weights_only=True` (the default) refuses to build anything but tensors, containers and
    plain values.

    >>> import io
    >>> buf = io.BytesIO()
    >>> x = torch.arange(3)
    >>> torch.save([x, x[1:]], buf)
    >>> _ = buf.seek(0)
    >>> a, b = torch.load(buf)
    >>> b[0] = 7
    >>> a  # the two tensors still share their memory
    tensor([0, 7, 2])
    """
    if weights_only is None:
        weights_only = os.environ.get("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0") not in ("1", "y", "yes", "true")
    own = isinstance(f, (str, os.PathLike))
    fh = open(f, "rb") if own else f
    try:
        if not zipfile.is_zipfile(fh):
            raise RuntimeError("leafgrad reads PyTorch's zip format (torch.save since PyTorch 1.6); "
                               "this file is in another format")
        fh.seek(0)
        with zipfile.ZipFile(fh) as z:
            names = z.namelist()
            pkl = next((n for n in names if n.endswith("/data.pkl") and n.count("/") == 1), None)
            if pkl is None:
                raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")
            prefix = pkl[: -len("data.pkl")]
            if f"{prefix}byteorder" in names and z.read(f"{prefix}byteorder") != b"little":
                raise RuntimeError("leafgrad reads little-endian files only")
            return _unpickle(z, prefix, map_location, weights_only, pickle_load_args)
    finally:
        if own:
            fh.close()


def _unpickle(z, prefix, map_location, weights_only, pickle_load_args):
    import importlib

    allowed = _torch_names()
    user = _user_globals()
    loaded = {}

    class Unpickler(pickle.Unpickler):
        def find_class(self, module, name):
            module, name = _py3_name(module, name)
            if (module, name) in allowed:
                return allowed[(module, name)]
            if weights_only:
                if module == "builtins" and name in _PLAIN_BUILTINS:
                    return super().find_class(module, name)
                if (module, name) in user:
                    return user[(module, name)]
                raise _weights_only_error(module, name)
            if module == "torch" or module.startswith("torch."):
                # a pickled module or optimizer of PyTorch's: leafgrad's class of that name
                mod = importlib.import_module("leafgrad" + module[len("torch"):])
                return getattr(mod, name)
            return super().find_class(module, name)

        def persistent_load(self, pid):
            kind, storage_type, key, location, numel = pid
            if kind != "storage":
                raise pickle.UnpicklingError(f"Unknown saved id type: {kind}")
            if key not in loaded:
                from .storage import _from_bytes

                raw = z.read(f"{prefix}data/{key}")
                dtype = getattr(_core, storage_type.dtype_name)
                data = _from_bytes(raw, dtype, "cpu")
                loaded[key] = _map_location(data, location, map_location)
            return loaded[key]

    return Unpickler(io.BytesIO(z.read(f"{prefix}data.pkl")), **pickle_load_args).load()
