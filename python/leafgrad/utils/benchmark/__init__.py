"""`torch.utils.benchmark`: timing Python statements as PyTorch's `Timer` does (the thread
count pinned while timing, block sizes chosen to amortise the timer, medians and interquartile
ranges), with `Measurement` printing PyTorch's summary. `Compare`, `Fuzzer` and the C++ and
Callgrind timers are not in leafgrad."""
import dataclasses
import math
import textwrap
import timeit

__all__ = ["Timer", "Measurement", "TaskSpec", "select_unit"]

_IQR_WARN = 0.1
_IQR_GROSS_WARN = 0.5


def select_unit(t):
    """The unit ("ns", "us", "ms" or "s") and its scale that show `t` seconds as a small number.

    >>> import importlib  # PyTorch loads the submodule only when asked
    >>> benchmark = importlib.import_module(torch.__name__ + ".utils.benchmark")
    >>> benchmark.select_unit(0.0025)
    ('ms', 0.001)
    """
    unit = {-3: "ns", -2: "us", -1: "ms"}.get(int(math.log10(t) // 3) if t > 0 else -4, "s")
    return unit, {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}[unit]


@dataclasses.dataclass
class TaskSpec:
    """What a Timer runs and how its measurements are labelled.

    >>> import importlib  # PyTorch loads the submodule only when asked
    >>> benchmark = importlib.import_module(torch.__name__ + ".utils.benchmark")
    >>> benchmark.TaskSpec(stmt="x + 1", setup="pass", label="add").title
    'add'
    """
    stmt: str
    setup: str
    global_setup: str = ""
    label: str = None
    sub_label: str = None
    description: str = None
    env: str = None
    num_threads: int = 1

    @property
    def title(self):
        sub = f": {self.sub_label}" if self.sub_label else ""
        if self.label is not None:
            return self.label + sub
        if "\n" not in self.stmt:
            return self.stmt + sub
        return f"stmt:{f' ({self.sub_label})' if self.sub_label else ''}\n" + textwrap.indent(self.stmt, "  ")

    def setup_str(self):
        if not self.setup or self.setup == "pass":
            return ""
        if "\n" in self.setup:
            return "setup:\n" + textwrap.indent(self.setup, "  ")
        return f"setup: {self.setup}"

    def summarize(self):
        parts = [self.title, self.description or "", self.setup_str()]
        return "\n".join(p + "\n" if "\n" in p else p for p in parts if p)


def _quantile(sorted_times, q):
    pos = (len(sorted_times) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_times) - 1)
    return sorted_times[lo] + (sorted_times[hi] - sorted_times[lo]) * (pos - lo)


@dataclasses.dataclass(repr=False)
class Measurement:
    """One or more timings of a statement: `raw_times` of `number_per_run` runs each.

    >>> import importlib  # PyTorch loads the submodule only when asked
    >>> benchmark = importlib.import_module(torch.__name__ + ".utils.benchmark")
    >>> m = benchmark.Measurement(4, [4.0, 8.0, 12.0], benchmark.TaskSpec("f()", "pass"))
    >>> m.times, m.median, m.mean
    ([1.0, 2.0, 3.0], 2.0, 2.0)
    """
    number_per_run: int
    raw_times: list
    task_spec: TaskSpec
    metadata: dict = None

    def __getattr__(self, name):
        if name in ("stmt", "setup", "global_setup", "label", "sub_label", "description", "env", "num_threads"):
            return getattr(self.task_spec, name)
        raise AttributeError(f"'Measurement' object has no attribute '{name}'")

    @property
    def times(self):
        return [t / self.number_per_run for t in self.raw_times]

    def _sorted(self):
        return sorted(self.times)

    @property
    def median(self):
        return _quantile(self._sorted(), 0.5)

    @property
    def mean(self):
        return sum(self.times) / len(self.times)

    @property
    def iqr(self):
        s = self._sorted()
        return _quantile(s, 0.75) - _quantile(s, 0.25)

    @property
    def title(self):
        return self.task_spec.title

    def meets_confidence(self, threshold=_IQR_WARN):
        return self.iqr / self.median < threshold

    @property
    def has_warnings(self):
        return not self.meets_confidence(_IQR_WARN)

    def __repr__(self):
        s = self._sorted()
        n = len(s)
        unit, scale = select_unit(self.median)
        lines = [object.__repr__(self), self.task_spec.summarize(),
                 f"  {'Median: ' if n > 1 else ''}{self.median / scale:.2f} {unit}"]
        if n >= 4:
            p25, p75 = _quantile(s, 0.25), _quantile(s, 0.75)
            lines.append(f"  IQR:    {self.iqr / scale:.2f} {unit} ({p25 / scale:.2f} to {p75 / scale:.2f})")
        threads = self.num_threads
        lines.append(f"  {n} measurement{'s' if n > 1 else ''}, {self.number_per_run} runs "
                     f"{'per measurement,' if n > 1 else ','} {threads} thread{'s' if threads > 1 else ''}")
        if not self.meets_confidence(_IQR_GROSS_WARN) or not self.meets_confidence(_IQR_WARN):
            why = ("This suggests significant environmental influence." if not self.meets_confidence(_IQR_GROSS_WARN)
                   else "This could indicate system fluctuation.")
            lines.append(f"  WARNING: Interquartile range is {self.iqr / self.median * 100:.1f}% "
                         f"of the median measurement.\n           {why}")
        return "\n".join(lines).strip()


def _clean(code):
    code = textwrap.dedent(code)
    return (code[1:] if code.startswith("\n") else code).rstrip()


class Timer:
    """Times `stmt` (after `setup`) with `torch` in its globals and the thread count set to
    `num_threads` while timing.

    >>> import importlib  # PyTorch loads the submodule only when asked
    >>> benchmark = importlib.import_module(torch.__name__ + ".utils.benchmark")
    >>> t = benchmark.Timer("x * 2", setup="x = torch.ones(3)", label="double")
    >>> m = t.timeit(10)
    >>> m.number_per_run, len(m.times), m.title
    (10, 1, 'double')
    """

    def __init__(self, stmt="pass", setup="pass", global_setup="", timer=timeit.default_timer, globals=None,
                 label=None, sub_label=None, description=None, env=None, num_threads=1, language="python"):
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        if language not in ("python", "py"):
            raise NotImplementedError("leafgrad's Timer times Python statements only")
        import leafgrad

        self._globals = dict(globals or {})
        self._globals.setdefault("torch", leafgrad)
        stmt, setup = _clean(stmt), _clean(setup)
        self._timer = timeit.Timer(stmt=stmt, setup=setup or "pass", timer=timer, globals=self._globals)
        self._task_spec = TaskSpec(stmt, setup, global_setup, label, sub_label, description, env, num_threads)

    def _timeit(self, number):
        return self._timer.timeit(number=max(int(number), 1)) if number else self._timer.timeit(number=0)

    def _threads(self):
        import contextlib

        import leafgrad

        @contextlib.contextmanager
        def pinned():
            before = leafgrad.get_num_threads()
            leafgrad.set_num_threads(self._task_spec.num_threads)
            try:
                yield
            finally:
                leafgrad.set_num_threads(before)
        return pinned()

    def _measurement(self, number, times):
        return Measurement(number_per_run=number, raw_times=times, task_spec=self._task_spec)

    def timeit(self, number=1000000):
        """`stmt` run `number` times (after a warm-up of a hundredth of that)."""
        with self._threads():
            self._timeit(max(int(number // 100), 2))
            return self._measurement(number, [self._timeit(number)])

    def repeat(self, repeat=-1, number=-1):
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback=None):
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def _block_size(self, min_run_time):
        with self._threads():
            overhead = sorted(self._timeit(0) for _ in range(5))[2]
            number = 1
            while True:
                taken = self._timeit(number)
                if (overhead / taken <= 1e-4 and taken >= min_run_time / 1000) or taken > min_run_time:
                    return number
                if number * 10 > 2147483647:
                    return number
                number *= 10

    def _loop(self, number, stop, min_run_time, max_run_time=None, callback=None):
        total, times, can_stop = 0.0, [], False
        with self._threads():
            while total < min_run_time or not can_stop:
                spent = self._timeit(number)
                times.append(spent)
                total += spent
                if callback:
                    callback(number, spent)
                can_stop = stop(times)
                if max_run_time and total > max_run_time:
                    break
        return times

    def blocked_autorange(self, callback=None, min_run_time=0.2):
        """Blocks of runs, each long enough for the timer's own cost not to count, until
        `min_run_time` seconds have passed."""
        number = self._block_size(min_run_time)
        return self._measurement(number, self._loop(number, lambda times: True, min_run_time, callback=callback))

    def adaptive_autorange(self, threshold=0.1, *, min_run_time=0.01, max_run_time=10.0, callback=None):
        """Blocks of runs until the interquartile range is within `threshold` of the median
        (or `max_run_time` has passed)."""
        number = self._block_size(0.05)

        def stop(times):
            return len(times) > 3 and self._measurement(number, times).meets_confidence(threshold)

        return self._measurement(number, self._loop(number, stop, min_run_time, max_run_time, callback))
