"""`torch.profiler` and `torch.autograd.profiler`: which operations a block of code runs and how
long each takes, as PyTorch's profiler reports it (`prof.key_averages().table(...)`).

leafgrad has no dispatcher to hook, so while a profiler is active the public entry points are
instrumented: every Tensor method and operator, every `torch.*` and `torch.nn.functional.*`
function, and `backward` / `torch.autograd.grad` (one `autograd::backward` event each: the
engine's nodes run in Rust and are not broken out). Each call is one event named as PyTorch's
operator (`aten::mul` for `a * b`), nested under the call that made it, so self time excludes
the operations a function calls through these entry points. The instrumentation is removed
when the profiler stops (the methods are the original objects again, at their original cost).
Only CPU activity is recorded; there are no memory, FLOP or stack records.

>>> x = torch.ones(2, 3, requires_grad=True)
>>> with torch.autograd.profiler.profile() as prof:
...     y = (x * 2).sum()
>>> [e.key for e in prof.function_events]
['aten::mul', 'aten::sum']
"""
import enum
import gzip
import json
import os
import socket
import threading
import time
import types

from .. import _core
from ..amp import _patch as _amp_patch, _state as _amp_state

__all__ = ["profile", "record_function", "ProfilerActivity", "ProfilerAction", "schedule",
           "tensorboard_trace_handler", "supported_activities", "kineto_available"]


class ProfilerActivity(enum.Enum):
    """The kinds of activity a profiler can record (leafgrad records CPU activity only).

    >>> torch.profiler.ProfilerActivity.CPU in torch.profiler.supported_activities()
    True
    """
    CPU = 0
    XPU = 1
    MTIA = 2
    CUDA = 3
    HPU = 4
    PrivateUse1 = 5


class ProfilerAction(enum.Enum):
    """What a scheduled profiler does at a step.

    >>> torch.profiler.schedule(wait=1, warmup=0, active=1)(0)
    <ProfilerAction.NONE: 0>
    """
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


class DeviceType(enum.Enum):
    CPU = 0
    CUDA = 1


def supported_activities():
    """The activities this build can record.

    >>> torch.profiler.supported_activities()
    {<ProfilerActivity.CPU: 0>}
    """
    return {ProfilerActivity.CPU}


def kineto_available():
    """False: leafgrad's profiler is its own, not PyTorch's Kineto.

    >>> torch.profiler.kineto_available()
    False
    """
    return False


# ---- events ----------------------------------------------------------------------------------

def _format_time(time_us):
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_time_share(time_us, total_us):
    if total_us == 0:
        return "NaN"
    return f"{time_us * 100.0 / total_us:.2f}%"


class Interval:
    def __init__(self, start, end):
        self.start, self.end = start, end

    def elapsed_us(self):
        return self.end - self.start


class _TimeStrings:
    @property
    def cpu_time_total_str(self):
        return _format_time(self.cpu_time_total)

    @property
    def self_cpu_time_total_str(self):
        return _format_time(self.self_cpu_time_total)

    @property
    def cpu_time_str(self):
        return _format_time(self.cpu_time)

    @property
    def device_time_total(self):
        return 0.0

    @property
    def self_device_time_total(self):
        return 0.0

    device_time = device_time_total
    cuda_time_total = device_time_total
    self_cuda_time_total = device_time_total
    cpu_memory_usage = 0
    self_cpu_memory_usage = 0
    device_memory_usage = 0
    self_device_memory_usage = 0
    flops = 0
    is_async = False
    is_remote = False
    node_id = -1


class FunctionEvent(_TimeStrings):
    """One call: its name, thread, time range (microseconds), input shapes and nested calls."""

    def __init__(self, id, name, thread, start_us, end_us, input_shapes=None):
        self.id, self.name, self.thread = id, name, thread
        self.time_range = Interval(start_us, end_us)
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.cpu_children = []
        self.cpu_parent = None
        self.count = 1
        self.device_type = DeviceType.CPU
        self.stack = []

    @property
    def key(self):
        return self.name

    @property
    def cpu_time_total(self):
        return self.time_range.elapsed_us()

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cpu_time(self):
        return self.cpu_time_total

    def __repr__(self):
        return (f"<FunctionEvent id={self.id} name={self.name} device_type={self.device_type} "
                f"cpu_time={self.cpu_time_str} start_us={self.time_range.start:.0f} "
                f"end_us={self.time_range.end:.0f} cpu_children={[c.id for c in self.cpu_children]} "
                f"thread={self.thread} input_shapes={self.input_shapes}>")


class FunctionEventAvg(_TimeStrings):
    """The events of one name (and input shapes, when grouped by them) added up."""

    def __init__(self):
        self.key = None
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.input_shapes = None
        self.device_type = DeviceType.CPU
        self.cpu_children = None
        self.stack = None

    def add(self, other):
        if self.key is None:
            self.key = other.key
            self.input_shapes = other.input_shapes
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        return self

    @property
    def cpu_time(self):
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
                f"cpu_time={self.cpu_time_str} input_shapes={self.input_shapes}>")


class EventList(list):
    """A list of events with PyTorch's summaries: `table`, `key_averages`, `total_average`,
    `export_chrome_trace`."""

    def __init__(self, *args, **kwargs):
        kwargs.pop("use_device", None)
        kwargs.pop("profile_memory", None)
        kwargs.pop("with_flops", None)
        super().__init__(*args)

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        groups = {}
        for e in self:
            key = (e.key, str(e.input_shapes)) if group_by_input_shape else e.key
            groups.setdefault(key, FunctionEventAvg()).add(e)
        return EventList(groups.values())

    def total_average(self):
        total = FunctionEventAvg()
        for e in self:
            total.add(e)
        total.key = "Total"
        return total

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False, time_unit=None):
        return _build_table(self, sort_by, row_limit, max_name_column_width, max_shapes_column_width, header,
                            top_level_events_only)

    def __str__(self):
        return self.table()

    def export_chrome_trace(self, path):
        trace = {"traceEvents": [
            {"ph": "X", "cat": "cpu_op", "name": e.name, "pid": os.getpid(), "tid": e.thread,
             "ts": e.time_range.start, "dur": e.cpu_time_total,
             "args": {"Input Dims": e.input_shapes} if e.input_shapes else {}}
            for e in self if isinstance(e, FunctionEvent)]}
        opener = gzip.open if str(path).endswith(".gz") else open
        with opener(path, "wt") as f:
            json.dump(trace, f)


def _build_table(events, sort_by, row_limit, max_name_width, max_shapes_width, header, top_level_only):
    if len(events) == 0:
        return ""
    if top_level_only:
        events = EventList(e for e in events if getattr(e, "cpu_parent", None) is None)
    rows = list(events)
    if sort_by is not None:
        rows.sort(key=lambda e: getattr(e, sort_by), reverse=True)
    if row_limit is not None and row_limit > 0:
        rows = rows[:row_limit]
    has_shapes = any(e.input_shapes is not None and len(e.input_shapes) > 0 for e in events)
    name_width = max(len(e.key) for e in events) + 4
    if max_name_width is not None:
        name_width = min(name_width, max_name_width)
    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
    widths = [name_width] + [12] * (len(headers) - 1)
    if has_shapes:
        headers.append("Input Shapes")
        shapes_width = min(max(len(str(e.input_shapes)) for e in events) + 4, max_shapes_width or 80)
        widths.append(shapes_width)
    row_format = "".join("{: >" + str(w) + "}  " for w in widths)
    sep = "".join("-" * w + "  " for w in widths)
    total_self = sum(e.self_cpu_time_total for e in events)
    out = []
    if header is not None:
        out += ["=" * (sum(widths) + 2 * (len(widths) - 1)), header]
    out += [sep, row_format.format(*headers), sep]
    for e in rows:
        name = e.key
        if max_name_width is not None and len(name) >= max_name_width - 3:
            name = name[:max_name_width - 3] + "..."
        values = [name, _format_time_share(e.self_cpu_time_total, total_self), e.self_cpu_time_total_str,
                  _format_time_share(e.cpu_time_total, total_self), e.cpu_time_total_str, e.cpu_time_str, e.count]
        if has_shapes:
            values.append(str(e.input_shapes)[:shapes_width])
        out.append(row_format.format(*values))
    out += [sep, f"Self CPU time total: {_format_time(total_self)}"]
    return "\n".join(out) + "\n"


# ---- recording -------------------------------------------------------------------------------

class _Recorder:
    def __init__(self, record_shapes):
        self.record_shapes = record_shapes
        self.events = []
        self.local = threading.local()
        self.next_id = 0
        self.lock = threading.Lock()

    def begin(self, name, args=(), kwargs=None):
        stack = getattr(self.local, "stack", None)
        if stack is None:
            stack = self.local.stack = []
        shapes = _shapes(args, kwargs) if self.record_shapes else []
        with self.lock:
            eid = self.next_id
            self.next_id += 1
        ev = FunctionEvent(eid, name, threading.get_ident(), 0.0, 0.0, shapes)
        if stack:
            ev.cpu_parent = stack[-1]
            stack[-1].cpu_children.append(ev)
        stack.append(ev)
        ev.time_range.start = time.perf_counter_ns() / 1000.0
        return ev

    def end(self, ev):
        ev.time_range.end = time.perf_counter_ns() / 1000.0
        stack = self.local.stack
        if stack and stack[-1] is ev:
            stack.pop()
        with self.lock:
            self.events.append(ev)


def _shapes(args, kwargs):
    vals = list(args) + list((kwargs or {}).values())
    return [list(v.shape) if isinstance(v, _core.Tensor) else [] for v in vals]


_ACTIVE = []  # the recorders of the active profilers (the innermost last)
_PATCHED = []  # (owner, name, original-or-None) while instrumented


def _recorder():
    return _ACTIVE[-1] if _ACTIVE else None


_OPERATORS = {
    "__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub", "__rsub__": "rsub",
    "__isub__": "sub_", "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_", "__truediv__": "div",
    "__rtruediv__": "div", "__itruediv__": "div_", "__floordiv__": "floor_divide",
    "__rfloordiv__": "floor_divide", "__ifloordiv__": "floor_divide_", "__mod__": "remainder",
    "__rmod__": "remainder", "__imod__": "remainder_", "__pow__": "pow", "__rpow__": "pow", "__ipow__": "pow_",
    "__matmul__": "matmul", "__rmatmul__": "matmul", "__neg__": "neg", "__abs__": "abs", "__pos__": "positive",
    "__and__": "bitwise_and", "__rand__": "bitwise_and", "__iand__": "bitwise_and_", "__or__": "bitwise_or",
    "__ror__": "bitwise_or", "__ior__": "bitwise_or_", "__xor__": "bitwise_xor", "__rxor__": "bitwise_xor",
    "__ixor__": "bitwise_xor_", "__invert__": "bitwise_not", "__lshift__": "__lshift__",
    "__rshift__": "__rshift__", "__eq__": "eq", "__ne__": "ne", "__lt__": "lt", "__le__": "le", "__gt__": "gt",
    "__ge__": "ge", "__getitem__": "index", "__setitem__": "index_put_",
}

# Tensor methods that read metadata or manage autograd state: no operator runs
_NOT_OPS = {
    "dim", "ndimension", "size", "stride", "numel", "nelement", "is_contiguous", "element_size", "data_ptr",
    "storage_offset", "is_floating_point", "is_complex", "is_signed", "get_device", "type", "storage",
    "untyped_storage", "register_hook", "register_post_accumulate_grad_hook", "retain_grad", "requires_grad_",
    "backward", "tolist", "numpy", "dim_order", "is_set_to", "is_same_size", "is_nonzero", "is_inference",
    "is_shared", "is_pinned", "__len__", "__iter__", "__hash__", "__bool__", "__index__", "__int__", "__float__",
    "__complex__", "__format__", "__array__", "__array_wrap__", "__dlpack__", "__dlpack_device__", "has_names",
}

# torch.* functions that are not operators
_NOT_TORCH_OPS = {
    "is_tensor", "is_storage", "is_floating_point", "is_complex", "is_nonzero", "is_grad_enabled",
    "is_inference_mode_enabled", "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "set_anomaly_enabled",
    "set_grad_enabled", "manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state",
    "set_default_dtype", "get_default_dtype", "set_default_device", "get_default_device", "set_printoptions",
    "get_printoptions", "set_num_threads", "get_num_threads", "set_num_interop_threads",
    "get_num_interop_threads", "typename", "save", "load", "use_deterministic_algorithms",
    "are_deterministic_algorithms_enabled", "set_warn_always", "is_warn_always_enabled", "compile", "run",
    "explain", "promote_types", "result_type", "can_cast", "set_float32_matmul_precision",
    "get_float32_matmul_precision", "from_dlpack", "is_autocast_enabled", "autocast",
} | set(_amp_state.__all__)  # (torch.get_autocast_dtype, set_autocast_enabled, ...)


def _wrap(fn, name):
    def profiled(*args, **kwargs):
        rec = _recorder()
        if rec is None:
            return fn(*args, **kwargs)
        ev = rec.begin(name, args, kwargs)
        try:
            return fn(*args, **kwargs)
        finally:
            rec.end(ev)

    profiled.__name__ = getattr(fn, "__name__", name)
    profiled.__doc__ = getattr(fn, "__doc__", None)
    profiled.__wrapped__ = fn
    return profiled


def _is_routine(v):
    return isinstance(v, (types.FunctionType, types.BuiltinFunctionType, types.MethodDescriptorType,
                          types.WrapperDescriptorType, _core._KwAliased))


def _patch(owner, name, label):
    orig = owner.__dict__.get(name) if isinstance(owner, type) else vars(owner).get(name)
    current = getattr(owner, name)
    _PATCHED.append((owner, name, orig))
    setattr(owner, name, _wrap(current, label))


def _install():
    import leafgrad
    from ..nn import functional as F

    T = _core.Tensor
    for name, v in list(vars(T).items()):
        if name in _OPERATORS:
            _patch(T, name, "aten::" + _OPERATORS[name])
        elif not name.startswith("_") and name not in _NOT_OPS and _is_routine(v):
            _patch(T, name, "aten::" + name)
    for name in ("__add__", "__mul__", "__sub__", "__truediv__", "__matmul__", "__getitem__"):
        if name not in vars(T):
            _patch(T, name, "aten::" + _OPERATORS[name])
    for module in (leafgrad, F):
        for name, v in list(vars(module).items()):
            if name.startswith("_") or name in _NOT_TORCH_OPS or not _is_routine(v):
                continue
            if getattr(v, "__module__", "") and not str(getattr(v, "__module__", "")).startswith("leafgrad"):
                continue  # (imported helpers such as math functions)
            _patch(module, name, "aten::" + name)
    from .. import autograd  # (Tensor.backward calls autograd.backward)

    _patch(autograd, "backward", "autograd::backward")
    _patch(autograd, "grad", "autograd::grad")


def _uninstall():
    while _PATCHED:
        owner, name, orig = _PATCHED.pop()
        if orig is None:
            delattr(owner, name)
        else:
            setattr(owner, name, orig)
    _amp_patch.resync()  # autocast's wrappers back on what an open region still needs


def _start(recorder):
    if not _ACTIVE:
        _install()
    _ACTIVE.append(recorder)


def _stop(recorder):
    if recorder in _ACTIVE:
        _ACTIVE.remove(recorder)
    if not _ACTIVE:
        _uninstall()


class record_function:
    """Labels a block (or, as a decorator, a function) as one event in the active profiler.

    >>> with torch.autograd.profiler.profile() as prof:
    ...     with torch.profiler.record_function("step"):
    ...         y = torch.ones(2) + 1
    >>> [e.key for e in prof.function_events]
    ['step', 'aten::ones', 'aten::add']
    """

    def __init__(self, name, args=None):
        self.name, self.args = name, args
        self._event = None
        self._recorder = None

    def __enter__(self):
        self._recorder = _recorder()
        if self._recorder is not None:
            self._event = self._recorder.begin(self.name)
        return self

    def __exit__(self, *exc):
        if self._recorder is not None and self._event is not None:
            self._recorder.end(self._event)
        self._event = self._recorder = None
        return False

    def __call__(self, fn):
        def wrapped(*args, **kwargs):
            with record_function(self.name, self.args):
                return fn(*args, **kwargs)

        wrapped.__name__, wrapped.__doc__ = fn.__name__, fn.__doc__
        return wrapped


class _AutogradProfile:
    """`torch.autograd.profiler.profile`: records while active (see the module docstring)."""

    def __init__(self, enabled=True, *, use_device=None, record_shapes=False, with_flops=False,
                 profile_memory=False, with_stack=False, with_modules=False, use_kineto=False, use_cpu=True,
                 experimental_config=None, acc_events=False, custom_trace_id_callback=None,
                 post_processing_timeout_s=None, activity_filters=None, _profiler_extensions=None):
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.entered = False
        self.function_events = EventList()
        self._recorder = None

    def __enter__(self):
        if not self.enabled:
            return self
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        self._recorder = _Recorder(self.record_shapes)
        _start(self._recorder)
        return self

    def __exit__(self, *exc):
        if not self.enabled:
            return False
        _stop(self._recorder)
        events = sorted(self._recorder.events, key=lambda e: (e.time_range.start, -e.time_range.end))
        self.function_events = EventList(events)
        return False

    __init__.__qualname__ = "profile.__init__"  # (PyTorch's name in argument errors)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False):
        return self.function_events.table(sort_by, row_limit, max_src_column_width, max_name_column_width,
                                          max_shapes_column_width, header, top_level_events_only)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        return self.function_events.key_averages(group_by_input_shape, group_by_stack_n)

    def total_average(self):
        return self.function_events.total_average()

    def export_chrome_trace(self, path):
        return self.function_events.export_chrome_trace(path)

    @property
    def self_cpu_time_total(self):
        return self.function_events.self_cpu_time_total

    def __str__(self):
        return str(self.function_events)

    __repr__ = __str__


def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    """The step -> ProfilerAction function of a profiler that skips `skip_first` steps, then
    repeats (`repeat` times, 0 = forever) `wait` idle steps, `warmup` steps and `active` recorded
    steps, the last of which saves the trace (`on_trace_ready`).

    >>> s = torch.profiler.schedule(wait=1, warmup=1, active=2)
    >>> [s(i).name for i in range(4)]
    ['NONE', 'WARMUP', 'RECORD', 'RECORD_AND_SAVE']
    """
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError("Invalid profiler schedule arguments")

    if warmup == 0:
        import warnings

        warnings.warn("Profiler won't be using warmup, this can skew profiler results", UserWarning, stacklevel=2)
    period = wait + warmup + active

    def schedule_fn(step):
        if step < 0:
            raise AssertionError(f"Invalid step: {step}")
        if step < skip_first:
            return ProfilerAction.NONE
        # the first cycle's wait is skipped by starting the count inside it
        step = step - skip_first + (wait if skip_first_wait else 0)
        if repeat > 0 and step // period >= repeat:
            return ProfilerAction.NONE
        pos = step % period
        if pos < wait:
            return ProfilerAction.NONE
        if pos < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if pos < period - 1 else ProfilerAction.RECORD_AND_SAVE

    return schedule_fn


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    """An `on_trace_ready` that writes each saved trace as Chrome-trace JSON into `dir_name`
    (`{worker_name}.{time_ns}.pt.trace.json`, as PyTorch names them).

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> with torch.profiler.profile(on_trace_ready=torch.profiler.tensorboard_trace_handler(d, "w")):
    ...     _ = torch.ones(2).sum()
    >>> [f.startswith("w.") and f.endswith(".pt.trace.json") for f in os.listdir(d)]
    [True]
    """

    def handler(prof):
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        name = f"{worker}.{time.time_ns()}.pt.trace.json" + (".gz" if use_gzip else "")
        prof.export_chrome_trace(os.path.join(dir_name, name))

    return handler


class profile:
    """`torch.profiler.profile`: the CPU events of a block or of scheduled steps (`step()`).

    >>> with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
    ...     y = torch.ones(3).exp()
    >>> [e.key for e in prof.key_averages()]
    ['aten::ones', 'aten::exp']
    """

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False,
                 custom_trace_id_callback=None, post_processing_timeout_s=None):
        self.activities = set(activities) if activities else supported_activities()
        self.schedule = schedule
        self.on_trace_ready = on_trace_ready
        self.record_shapes = record_shapes
        self.step_num = 0
        self.profiler = None
        self._recording = False
        self.current_action = schedule(0) if schedule is not None else ProfilerAction.RECORD

    def _begin_recording(self):
        if not self._recording:
            self.profiler = _AutogradProfile(record_shapes=self.record_shapes)
            self.profiler.__enter__()
            self._recording = True

    def _end_recording(self, save):
        if self._recording:
            self.profiler.__exit__(None, None, None)
            self._recording = False
            if save and self.on_trace_ready is not None:
                self.on_trace_ready(self)

    def start(self):
        if self.current_action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            self._begin_recording()

    def stop(self):
        self._end_recording(save=True)

    def step(self):
        prev = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num) if self.schedule is not None else ProfilerAction.RECORD
        if prev == ProfilerAction.RECORD_AND_SAVE:
            self._end_recording(save=True)
        if self.current_action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            self._begin_recording()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def events(self):
        return None if self.profiler is None else self.profiler.function_events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before getting key averages")
        return self.profiler.key_averages(group_by_input_shape, group_by_stack_n)

    def export_chrome_trace(self, path):
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before exporting chrome trace")
        return self.profiler.export_chrome_trace(path)
