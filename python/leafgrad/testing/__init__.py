"""`torch.testing`: `assert_close` (PyTorch's tolerances and messages) and `make_tensor`.

>>> torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-6]))
"""
import collections.abc
import math
import warnings

__all__ = ["assert_close", "make_tensor"]

_NUMBER_TYPES = (int, float, complex)


def _torch():
    import leafgrad

    return leafgrad


def _precisions():
    t = _torch()
    return {
        t.float16: (0.001, 1e-5),
        t.bfloat16: (0.016, 1e-5),
        t.float32: (1.3e-6, 1e-5),
        t.float64: (1e-7, 1e-7),
        t.complex64: (1.3e-6, 1e-5),
        t.complex128: (1e-7, 1e-7),
    }


class _Fail(Exception):
    def __init__(self, exc_type, message, id=()):
        super().__init__(message)
        self.exc_type, self.message, self.id = exc_type, message, id

    def to_error(self, msg=None):
        if callable(msg):
            return self.exc_type(msg(self.message))
        if msg is not None:
            return self.exc_type(msg)
        text = self.message
        if self.id:
            text += f"\n\nThe failure occurred for item {''.join(f'[{i!r}]' for i in self.id)}"
        return self.exc_type(text)


def _tolerances(dtypes, rtol, atol, id):
    if (rtol is None) ^ (atol is None):
        raise _Fail(
            ValueError,
            f"Both 'rtol' and 'atol' must be either specified or omitted, "
            f"but got no {'rtol' if rtol is None else 'atol'}.",
            id,
        )
    if rtol is not None:
        return rtol, atol
    table = _precisions()
    pairs = [table.get(d, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _mismatch_msg(default_identifier, extra, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol):
    equality = rtol == 0 and atol == 0

    def diff_msg(kind, diff, idx, tol):
        if idx is None:
            m = f"{kind.title()} difference: {diff}"
        else:
            m = f"Greatest {kind} difference: {diff} at index {idx}"
        if not equality:
            m += f" (up to {tol} allowed)"
        return m + "\n"

    msg = f"{default_identifier} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        msg += f"{extra.strip()}\n"
    msg += diff_msg("absolute", abs_diff, abs_idx, atol)
    msg += diff_msg("relative", rel_diff, rel_idx, rtol)
    return msg.strip()


def _scalar_msg(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_msg("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None, atol,
                         rel_diff, None, rtol)


def _compare_numbers(actual, expected, id, rtol, atol, equal_nan, check_dtype):
    t = _torch()
    types = {int: t.int64, float: t.float64, complex: t.complex128}
    dtypes = [types[complex if isinstance(v, complex) else float if isinstance(v, float) else int]
              for v in (actual, expected)]
    rtol, atol = _tolerances(dtypes, rtol, atol, id)
    if check_dtype and type(actual) is not type(expected):
        raise _Fail(AssertionError, f"The (d)types do not match: {type(actual)} != {type(expected)}.", id)
    if actual == expected:
        return
    import cmath

    if equal_nan and cmath.isnan(actual) and cmath.isnan(expected):
        return
    abs_diff = abs(actual - expected)
    if cmath.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    raise _Fail(AssertionError, _scalar_msg(actual, expected, rtol, atol), id)


def _compare_tensors(actual, expected, id, rtol, atol, equal_nan, check_device, check_dtype,
                     check_layout, check_stride):
    t = _torch()
    rtol, atol = _tolerances([actual.dtype, expected.dtype], rtol, atol, id)

    def check_attr(name, a, e):
        if a != e:
            raise _Fail(AssertionError, f"The values for attribute '{name}' do not match: {a} != {e}.", id)

    check_attr("shape", actual.shape, expected.shape)
    if check_device:
        check_attr("device", actual.device, expected.device)
    if check_dtype:
        check_attr("dtype", actual.dtype, expected.dtype)
    if check_layout:
        check_attr("layout", actual.layout, expected.layout)
    if check_stride:
        check_attr("stride()", actual.stride(), expected.stride())

    actual, expected = actual.detach(), expected.detach()
    if actual.device != expected.device:
        actual, expected = actual.cpu(), expected.cpu()
    if actual.dtype != expected.dtype:
        dtype = (t.zeros(1, dtype=actual.dtype) + t.zeros(1, dtype=expected.dtype)).dtype
        actual, expected = actual.to(dtype), expected.to(dtype)
    if actual.device.type != "cpu":
        actual, expected = actual.cpu(), expected.cpu()

    matches = t.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if bool(t.all(matches)):
        return
    if actual.shape == t.Size([]):
        raise _Fail(AssertionError, _scalar_msg(actual.item(), expected.item(), rtol, atol), id)

    def unravel(flat):
        idx = []
        for size in matches.shape[::-1]:
            flat, mod = divmod(flat, size)
            idx.append(mod)
        return tuple(idx[::-1])

    n = matches.numel()
    mismatches = n - int(t.sum(matches))
    extra = f"Mismatched elements: {mismatches} / {n} ({mismatches / n:.1%})"
    a, e, m = actual.flatten(), expected.flatten(), matches.flatten()
    if not a.dtype.is_floating_point and not a.dtype.is_complex:
        a, e = a.to(t.int64), e.to(t.int64)
    abs_diff = t.abs(a - e)
    abs_diff[m] = 0
    max_abs, abs_i = t.max(abs_diff, 0)
    rel_diff = abs_diff / t.abs(e)
    rel_diff[m] = 0
    max_rel, rel_i = t.max(rel_diff, 0)
    raise _Fail(AssertionError,
                _mismatch_msg("Tensor-likes", extra, max_abs.item(), unravel(int(abs_i)), atol,
                              max_rel.item(), unravel(int(rel_i)), rtol), id)


def _tname(x):
    """`<class 'torch.Tensor'>` as PyTorch names it (leafgrad's classes say `leafgrad.`)."""
    text = str(type(x))
    return text.replace("<class 'leafgrad.", "<class 'torch.", 1)


def _is_number(x):
    return isinstance(x, _NUMBER_TYPES) and not isinstance(x, bool)


def _numpy_number(x):
    try:
        import numpy as np
    except ImportError:
        return False
    return isinstance(x, np.number)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Assert that `actual` and `expected` are close: `|actual - expected| <= atol + rtol * |expected|`
    elementwise, with PyTorch's default `rtol`/`atol` per dtype (float32: 1.3e-6 / 1e-5, float64:
    1e-7 / 1e-7, float16: 1e-3 / 1e-5, bfloat16: 1.6e-2 / 1e-5, integers and bool: exact).
    Accepts tensors, Python numbers, None and nested sequences/mappings of them; raises
    AssertionError with PyTorch's message.

    >>> torch.testing.assert_close(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]))
    Traceback (most recent call last):
    ...
    AssertionError: Tensor-likes are not close!
    <BLANKLINE>
    Mismatched elements: 1 / 3 (33.3%)
    Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)
    Greatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)
    >>> torch.testing.assert_close([1.0, {"a": 2}], [1.0, {"a": 2}])
    """
    options = dict(rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=check_dtype,
                   check_device=check_device, check_layout=check_layout, check_stride=check_stride)
    try:
        _compare_any(actual, expected, allow_subclasses, options)
    except _Fail as f:
        raise f.to_error(msg) from None


def _compare_any(actual, expected, allow_subclasses, options):
    number_options = {k: options[k] for k in ("rtol", "atol", "equal_nan", "check_dtype")}
    tensor_options = dict(options)

    def walk(a, e, id):
        t = _torch()
        if isinstance(a, t.Tensor) and isinstance(e, t.Tensor):
            if not allow_subclasses and type(a) is not type(e):
                raise _Fail(TypeError, f"No comparison pair was able to handle inputs of type {_tname(a)} "
                            f"and {_tname(e)}.", id)
            _compare_tensors(a, e, id, **tensor_options)
            return
        if (_is_number(a) or _numpy_number(a)) and (_is_number(e) or _numpy_number(e)):
            _compare_numbers(a.item() if _numpy_number(a) else a, e.item() if _numpy_number(e) else e,
                             id, **number_options)
            return
        _compare_container(a, e, id, walk)

    walk(actual, expected, ())


def _compare_container(actual, expected, id, walk):
    if (isinstance(actual, collections.abc.Sequence) and not isinstance(actual, str)
            and isinstance(expected, collections.abc.Sequence) and not isinstance(expected, str)):
        if len(actual) != len(expected):
            raise _Fail(AssertionError,
                        f"The length of the sequences mismatch: {len(actual)} != {len(expected)}", id)
        for i, (a, e) in enumerate(zip(actual, expected)):
            walk(a, e, (*id, i))
        return
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        keys_a, keys_e = set(actual.keys()), set(expected.keys())
        if keys_a != keys_e:
            raise _Fail(
                AssertionError,
                f"The keys of the mappings do not match:\n"
                f"Missing keys in the actual mapping: {sorted(keys_e - keys_a)}\n"
                f"Additional keys in the actual mapping: {sorted(keys_a - keys_e)}",
                id,
            )
        try:
            keys = sorted(keys_a)
        except TypeError:
            keys = list(actual.keys())
        for k in keys:
            walk(actual[k], expected[k], (*id, k))
        return
    if actual is None or expected is None:
        if actual is None and expected is None:
            return
        raise _Fail(AssertionError, f"None mismatch: {actual} is not {expected}", id)
    if isinstance(actual, bool) and isinstance(expected, bool):
        if actual is not expected:
            raise _Fail(AssertionError, f"Booleans mismatch: {actual} is not {expected}", id)
        return
    raise _Fail(TypeError,
                f"No comparison pair was able to handle inputs of type {_tname(actual)} and {_tname(expected)}.",
                id)


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False,
                noncontiguous=False, exclude_zero=False, memory_format=None):
    """A tensor of `shape` filled as PyTorch's `make_tensor` fills it: floats uniform in
    [low, high) (default [-9, 9)), integers from `randint(low, high)` (default [-9, 10), clamped
    to the dtype), bools from `randint(0, 2)`. `noncontiguous` takes every other element of a
    doubled last dimension; `exclude_zero` replaces zeros by 1 (integers) or the dtype's
    `finfo.tiny`.

    >>> x = torch.testing.make_tensor(2, 3, dtype=torch.float32, device="cpu", low=0, high=1)
    >>> x.shape, bool(((x >= 0) & (x < 1)).all())
    (torch.Size([2, 3]), True)
    >>> torch.testing.make_tensor((4,), dtype=torch.int64, device="cpu", noncontiguous=True).is_contiguous()
    False
    """
    t = _torch()
    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(
            f"The parameters `noncontiguous` and `memory_format` are mutually exclusive, "
            f"but got noncontiguous={noncontiguous!r} and memory_format={memory_format!r}"
        )
    integral = dtype == t.bool or not (dtype.is_floating_point or dtype.is_complex)
    if requires_grad and integral:
        raise ValueError(
            f"`requires_grad=True` is not supported for boolean and integral dtypes, but got dtype={dtype}"
        )

    def modify(low, high, lowest, highest, default_low, default_high):
        low = default_low if low is None else low
        high = default_high if high is None else high
        if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
            raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
        if low == high and not integral:
            warnings.warn(
                "Passing `low==high` to `torch.testing.make_tensor` for floating or complex types "
                "is deprecated since 2.1 and will be removed in 2.3. Use `torch.full(...)` instead.",
                FutureWarning,
                stacklevel=3,
            )
        elif low >= high:
            raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
        elif high < lowest or low >= highest:
            raise ValueError(
                f"The value interval specified by `low` and `high` is [{low}, {high}), "
                f"but {dtype} only supports [{lowest}, {highest})"
            )
        low = min(max(low, lowest), highest)
        high = min(max(high, lowest), highest)
        if integral:
            return math.ceil(low), math.ceil(high)
        return low, high

    numel = 1
    for s in shape:
        numel *= s
    noncontiguous = noncontiguous and numel > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])
    if dtype == t.bool:
        lo, hi = modify(low, high, 0, 2, 0, 2)
        result = t.randint(lo, hi, shape, device=device, dtype=dtype)
    elif integral:
        info = t.iinfo(dtype)
        lo, hi = modify(low, high, info.min, info.max + (1 if dtype != t.int64 else 0), -9, 10)
        result = t.randint(lo, hi, shape, device=device, dtype=dtype)
    else:
        info = t.finfo(dtype)
        lo, hi = modify(low, high, info.min, info.max, -9, 9)
        result = t.empty(shape, device=device, dtype=dtype)
        target = t.view_as_real(result) if dtype.is_complex else result
        if hi - lo >= info.max:
            target.uniform_(lo / 2, hi / 2).mul_(2)
        else:
            target.uniform_(lo, hi)
    if noncontiguous:
        result = result[..., 1::2]
    if exclude_zero:
        result[result == 0] = 1 if integral else t.finfo(dtype).tiny
    if not integral:
        result.requires_grad = requires_grad
    return result
