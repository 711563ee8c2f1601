"""Autocast's wrappers go on the ops only while some thread has autocast on.

leafgrad has no dispatcher to register autocast kernels with. Instead, while a thread holds a
device type (`_state._sync`: autocast on for it, until the outermost region is left), each op
`_ops` lists for that device type is replaced, wherever leafgrad binds it, by a wrapper that
checks this thread's state and calls `_cast.run` only inside a region (other threads, and this
one outside its regions, go straight to the op). When no thread holds the device type any more,
the original functions are put back: outside autocast no op pays anything.

The places an op is bound are its spellings (`torch.mm`, `Tensor.mm`, `F.linear`,
`linalg.vecdot`, ...), the globals of any module that are the same function and that the
module's own code uses (user code's `from torch import mm` too), and the class-level
staticmethods of leafgrad's classes, so leafgrad's composites (nn.MultiheadAttention calling
`F.linear`, `F.scaled_dot_product_attention` and `torch.baddbmm`) are cast as PyTorch casts
them. They are looked for again when modules were imported since the last look (about 10 ms).

The profiler patches the same names while it records. Entered inside a region it wraps
autocast's wrappers; a region entered while it records puts its wrappers under the profiler's,
so the profiler records an op around its casts in both orders, as PyTorch's does. `resync()`
(called when the profiler puts its originals back) re-wraps what lost its wrapper while a region
is open and takes off what was left behind.
"""
import functools
import sys
import threading
import types

from .. import _core
from . import _cast, _ops

_LOCK = threading.RLock()
_COUNTS = {}  # device type -> how many threads hold it
_SITES = {}  # (id(owner), name) -> _Site, kept across scans (they carry their state)
_BY_DEVICE = {}  # device type -> [_Site]
_SCANNED = [-1]  # len(sys.modules) when the sites were last looked for
_MISSING = object()


class _Site:
    """One place an op is bound: `owner.name` (a staticmethod of a class when `static`), the
    plain value found there and the value that replaces it while a region is open."""

    __slots__ = ("owner", "name", "op", "at", "static", "plain", "wrapped", "wrapper", "restore", "on", "devices")

    def __init__(self, owner, name, op, at, static, fn, raw):
        self.owner, self.name, self.op, self.at, self.static = owner, name, op, at, static
        self.wrapper = _make_wrapper(fn, op, at)
        self.plain = raw if (raw.__func__ if static else raw) is fn else (staticmethod(fn) if static else fn)
        self.wrapped = staticmethod(self.wrapper) if static else self.wrapper
        self.restore = None  # how to take off a wrapper put elsewhere (under the profiler's)
        self.on = False
        self.devices = frozenset(op.policy)

    def install(self):
        if vars(self.owner).get(self.name, _MISSING) is self.plain:
            setattr(self.owner, self.name, self.wrapped)
        else:
            self.restore = _install_elsewhere(self)
        self.on = True

    def uninstall(self):
        if self.restore is not None:
            self.restore()
            self.restore = None
        elif vars(self.owner).get(self.name, _MISSING) is self.wrapped:
            setattr(self.owner, self.name, self.plain)
        # (else the profiler wrapped ours since: its wrapper calls ours, which passes through,
        # and it puts ours back when it stops, when resync() takes it off)
        self.on = False


def _is_wrapper(v):
    return getattr(v, "_autocast_op", None) is not None


@functools.lru_cache(maxsize=None)
def _profiled_code():
    from .. import profiler

    return profiler._wrap(len, "len").__code__


def _is_profiled(fn):
    return getattr(fn, "__code__", None) is _profiled_code()


def _unwrap(v):
    """The function under autocast's and the profiler's wrappers."""
    while _is_wrapper(v) or _is_profiled(v):
        v = v.__wrapped__
    return v


def _plain(fn):
    while _is_wrapper(fn):  # one left behind by an earlier region
        fn = fn.__wrapped__
    return fn


def _owners():
    import leafgrad
    from .. import fft, linalg
    from ..nn import functional

    return {"torch": leafgrad, "Tensor": _core.Tensor, "F": functional, "linalg": linalg, "fft": fft}


def _global_names(namespace, seen=None):
    """The global names the code of the functions (and classes' methods) in `namespace` uses."""
    names, seen = set(), set() if seen is None else seen
    stack = []
    for value in namespace.values():
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, _core._KwAliased):  # (a function taking PyTorch's keyword aliases)
            value = value.__wrapped__
        if isinstance(value, types.FunctionType):
            stack.append(value.__code__)
        elif isinstance(value, type) and id(value) not in seen:
            seen.add(id(value))
            names |= _global_names(vars(value), seen)
        elif isinstance(value, property):
            stack.extend(f.__code__ for f in (value.fget, value.fset) if isinstance(f, types.FunctionType))
    while stack:
        code = stack.pop()
        names.update(code.co_names)
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    return names


def _find_sites():
    """[(owner, name, op, dtype_at, is_staticmethod, function, value there)] for every place an
    op is bound: its spellings, then the globals of any module (user code's `from torch import
    mm` too) and the staticmethods of leafgrad's classes that are the same function and that
    the module's code uses."""
    owners = _owners()
    sites, known, canon = [], set(), {}
    for op in _ops.OPS:
        for spelling in op.spellings:
            space, name = spelling.split(".", 1)
            owner = owners[space]
            value = vars(owner).get(name)
            if value is None:
                continue  # an op leafgrad lacks
            at = op.dtype_at.get(space)
            fn = _unwrap(value)
            sites.append((owner, name, op, at, False, fn, value))
            known.add((id(owner), name))
            canon.setdefault(id(fn), (op, at))
    # what a module global bound to an op can be: the function, or a wrapper of it left by an
    # earlier region or the profiler (all alive here, so no other object shares their ids)
    bound = dict(canon)
    for site in _SITES.values():
        bound.setdefault(id(site.wrapper), canon.get(id(_unwrap(site.wrapper))))
    for owner, name, op, at, static, fn, value in sites:
        bound.setdefault(id(value), canon[id(fn)])
    for mname, module in list(sys.modules.items()):
        if not isinstance(module, types.ModuleType) or mname.startswith(("leafgrad.amp", "leafgrad.profiler")):
            continue
        namespace = vars(module)
        ours = mname == "leafgrad" or mname.startswith("leafgrad.")
        used = None
        for name, value in list(namespace.items()):
            hit = bound.get(id(value))
            if hit is not None and (id(module), name) not in known:
                used = _global_names(namespace) if used is None else used
                if name in used:  # (a module that only re-exports it never calls it)
                    sites.append((module, name, hit[0], hit[1], False, _unwrap(value), value))
                    known.add((id(module), name))
            elif ours and isinstance(value, type) and value.__module__ == mname and value is not _core.Tensor:
                for cname, cvalue in list(vars(value).items()):
                    if isinstance(cvalue, staticmethod):
                        hit = bound.get(id(cvalue.__func__))
                        if hit is not None and (id(value), cname) not in known:
                            sites.append((value, cname, hit[0], hit[1], True, _unwrap(cvalue.__func__), cvalue))
                            known.add((id(value), cname))
    return sites


def _refresh():
    """Look for the places ops are bound again if modules were imported since; returns the
    sites found new (the old ones keep their state)."""
    if _SCANNED[0] == len(sys.modules):
        return []
    added = []
    for owner, name, op, at, static, fn, raw in _find_sites():
        key = (id(owner), name)
        if key not in _SITES:
            site = _SITES[key] = _Site(owner, name, op, at, static, fn, raw)
            added.append(site)
            for dev in op.policy:
                _BY_DEVICE.setdefault(dev, []).append(site)
    _SCANNED[0] = len(sys.modules)
    return added


def _make_wrapper(fn, op, at):
    run = _cast.run
    tls = _cast.tls

    def autocast_wrapper(*args, **kwargs):
        if not tls.enabled:
            return fn(*args, **kwargs)
        return run(op, at, fn, args, kwargs)

    for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
        try:
            setattr(autocast_wrapper, attr, getattr(fn, attr))
        except (AttributeError, TypeError):
            pass
    autocast_wrapper.__wrapped__ = fn
    autocast_wrapper._autocast_op = op
    return autocast_wrapper


def _current(owner, name):
    return vars(owner).get(name, _MISSING)


def _cell(profiled):
    return profiled.__closure__[profiled.__code__.co_freevars.index("fn")]


def _set_profiled_fn(profiled, fn):
    _cell(profiled).cell_contents = fn
    profiled.__wrapped__ = fn


def _install_elsewhere(site):
    """Wrap `site` where it is not its plain function: under the profiler's wrapper, if that is
    there, so that the profiler records the op around its casts (as PyTorch's profiler records
    aten::mm around the aten::to that autocast calls); else over whatever is there. Returns how
    to take the wrapper off."""
    owner, name = site.owner, site.name
    raw = _current(owner, name)
    if raw is _MISSING:  # (deleted since it was found)
        return None
    fn = _plain(raw.__func__ if isinstance(raw, staticmethod) else raw)
    if _is_profiled(fn):
        profiled, inner = fn, _plain(_cell(fn).cell_contents)
        wrapper = site.wrapper if inner is _plain(site.wrapper) else _make_wrapper(inner, site.op, site.at)
        _set_profiled_fn(profiled, wrapper)

        def restore():
            if _cell(profiled).cell_contents is wrapper:
                _set_profiled_fn(profiled, inner)
    else:
        wrapper = site.wrapper if fn is _plain(site.wrapper) else _make_wrapper(fn, site.op, site.at)
        setattr(owner, name, staticmethod(wrapper) if site.static else wrapper)

        def restore():
            current = _current(owner, name)
            if (current.__func__ if isinstance(current, staticmethod) else current) is wrapper:
                setattr(owner, name, staticmethod(fn) if site.static else fn)
    restore.wrapper = wrapper
    return restore


def _reaches(v, wrapper):
    """Whether `v` is `wrapper` or wraps it (the profiler's wrapper over ours)."""
    while v is not wrapper:
        if not (_is_wrapper(v) or _is_profiled(v)):
            return False
        v = v.__wrapped__
    return True


def _wanted(op):
    return any(_COUNTS.get(d, 0) > 0 for d in op.policy)


def hold(old, new):
    """A thread's held device types changed from `old` to `new` (the loops are the cost of
    entering and leaving an outermost region: kept lean)."""
    with _LOCK:
        added = _refresh()
        for d in old - new:
            _COUNTS[d] -= 1
            if _COUNTS[d] == 0:
                active = {k for k, n in _COUNTS.items() if n > 0}
                for site in _BY_DEVICE.get(d, ()):
                    if not site.on or (active and not site.devices.isdisjoint(active)):
                        continue
                    if site.restore is None and vars(site.owner).get(site.name) is site.wrapped:
                        setattr(site.owner, site.name, site.plain)
                        site.on = False
                    else:
                        site.uninstall()
        for d in new - old:
            _COUNTS[d] = _COUNTS.get(d, 0) + 1
            if _COUNTS[d] == 1:
                for site in _BY_DEVICE.get(d, ()):
                    if site.on:
                        continue
                    if vars(site.owner).get(site.name) is site.plain:
                        setattr(site.owner, site.name, site.wrapped)
                        site.on = True
                    else:
                        site.install()
        for site in added:
            if not site.on and _wanted(site.op):
                site.install()


def resync():
    """Re-wrap what lost its wrapper while a region is open and take off what was left behind
    (the profiler calls this when it puts back the functions it wrapped)."""
    if not _SITES:
        return
    with _LOCK:
        for site in _SITES.values():
            current = _current(site.owner, site.name)
            if current is _MISSING:
                continue
            fn = current.__func__ if isinstance(current, staticmethod) else current
            if site.on:
                wrapper = site.wrapper if site.restore is None else site.restore.wrapper
                if not _reaches(fn, wrapper):  # put back from under us (the profiler's exit)
                    site.restore = None
                    site.install()
            elif _is_wrapper(fn):  # left behind by an earlier region
                setattr(site.owner, site.name, staticmethod(_plain(fn)) if site.static else _plain(fn))
            elif _is_profiled(fn) and _is_wrapper(_cell(fn).cell_contents):
                _set_profiled_fn(fn, _plain(_cell(fn).cell_contents))
