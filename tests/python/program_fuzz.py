"""Program-level differential fuzzing: random sequences of tensor operations, run step by step
under leafgrad and under PyTorch, observed after every step.

A program is a list of steps (plain JSON). Each step makes a tensor (explicit values, so no RNG is
involved), applies an op (elementwise, reductions, views, in-place writes through views, dtype
mixes), flips a flag (`requires_grad_`, `detach_`, `retain_grad`, a hook), switches the grad mode
for one step, or runs a backward (`backward` with or without `retain_graph`/`create_graph`,
`autograd.grad`). Tensors are named by the step that made them (`t3`); a step naming a tensor
that does not exist (after shrinking) is skipped on both sides alike.

After every step the runner records what PyTorch defines: the step's exception (type and
message), and for the tensors it touched their values, dtype, shape, strides, requires_grad,
is_leaf, grad_fn name, `_version`, whether they are views, and the `.grad` of every leaf.
`compare` reports where two runs differ; `shrink` reduces a failing program to a minimal one.

    python program_fuzz.py run FILE     # run the programs in FILE (JSON) with `import torch`
                                        # and print the observations (JSON)

The module imports neither leafgrad nor torch: the runner is handed the module to test.
"""

import json
import math
import random
import sys

FLOAT_DTYPES = ["float32", "float64"]
DTYPES = FLOAT_DTYPES * 4 + ["int64", "bool", "complex64"]
SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, float("inf"), float("-inf"), float("nan")]

UNARY = [
    "exp", "log", "sqrt", "abs", "neg", "relu", "sigmoid", "tanh", "sin", "cos", "sign",
    "floor", "reciprocal", "square", "rsqrt", "log1p", "expm1",
]
BINARY = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "fmod"]
INPLACE = ["add_", "sub_", "mul_", "div_", "exp_", "relu_", "sigmoid_", "zero_", "fill_",
           "clamp_", "copy_", "neg_", "pow_", "setitem"]
REDUCE = ["sum", "mean", "max", "min", "amax", "prod", "sum_dim", "mean_dim", "logsumexp",
          "softmax", "log_softmax", "cumsum", "norm", "var", "std"]
VIEWS = ["transpose", "permute", "narrow", "select", "slice", "unsqueeze", "squeeze", "view",
         "reshape", "expand", "flatten", "t", "unbind", "chunk", "split", "detach", "view_as_real",
         "getitem_int", "contiguous", "clone"]
FLAGS = ["requires_grad_", "requires_grad_false", "detach_", "retain_grad", "hook", "grad_none"]
BACKWARD = ["backward", "backward_retain", "backward_create", "grad", "backward_gradient",
            "backward_inputs"]
MODES = ["grad"] * 12 + ["no_grad", "no_grad", "inference"]


# ---------------------------------------------------------------- generation


class _Shape:
    """What the generator knows about a tensor: its shape and dtype (from the run it drives)."""

    def __init__(self, shape, dtype, requires_grad, is_leaf):
        self.shape, self.dtype = tuple(shape), dtype
        self.requires_grad, self.is_leaf = requires_grad, is_leaf


def _values(rng, shape, dtype):
    n = math.prod(shape)
    if dtype == "bool":
        return [rng.random() < 0.5 for _ in range(n)]
    if dtype == "int64":
        return [rng.randint(-3, 3) for _ in range(n)]
    out = []
    tie = rng.choice([-1.0, 0.0, 0.5, 2.0])
    for _ in range(n):
        r = rng.random()
        if r < 0.12:
            v = rng.choice(SPECIAL)
        elif r < 0.2:
            v = tie
        else:
            v = round(rng.uniform(-3, 3), 3)
        out.append([v, round(rng.uniform(-2, 2), 3)] if dtype.startswith("complex") else v)
    return out


def _rand_shape(rng):
    nd = rng.choice([0, 1, 1, 2, 2, 2, 3])
    return [rng.choice([1, 2, 3, 3, 4, 0] if rng.random() < 0.1 else [1, 2, 3, 4]) for _ in range(nd)]


def _broadcast_partner(rng, shape):
    """A shape that broadcasts with `shape` (usually), sometimes one that does not."""
    if rng.random() < 0.05:
        return _rand_shape(rng)
    s = list(shape)
    if s and rng.random() < 0.4:
        s = s[rng.randrange(len(s)):]  # a suffix
    s = [1 if rng.random() < 0.25 else d for d in s]
    return s


def _dim(rng, nd):
    if rng.random() < 0.05:
        return nd + 1  # out of range on purpose
    return rng.randrange(-max(nd, 1), max(nd, 1))


def generate(seed, steps=25, run=None):
    """A random program of `steps` steps. `run(program) -> list of _Shape or None` is called as the
    program grows, so later steps can take valid dims of earlier results (a run of leafgrad)."""
    rng = random.Random(seed)
    prog = []
    known = {}

    def pick(pred=lambda s: True):
        names = [k for k, v in known.items() if pred(v)]
        return rng.choice(names) if names else None

    for i in range(steps):
        name = f"t{i}"
        mode = rng.choice(MODES)
        kind = rng.random()
        step = None
        if not known or kind < 0.18:
            dt = rng.choice(DTYPES)
            shape = _rand_shape(rng)
            rg = dt in FLOAT_DTYPES + ["complex64"] and rng.random() < 0.75
            step = {"op": "tensor", "values": _values(rng, shape, dt), "shape": shape, "dtype": dt,
                    "requires_grad": rg}
        elif kind < 0.36:
            src = pick()
            step = {"op": rng.choice(UNARY), "x": src}
            if rng.random() < 0.1:
                step = {"op": "clamp", "x": src, "min": rng.choice([-1.0, 0.0, None]),
                        "max": rng.choice([1.0, 2.0, None])}
            elif rng.random() < 0.1:
                step = {"op": "pow_scalar", "x": src, "e": rng.choice([0, 1, 2, 3, 0.5, -0.5, -1, -2, 1.5])}
        elif kind < 0.5:
            a = pick()
            if rng.random() < 0.5:
                b = pick()
                step = {"op": rng.choice(BINARY), "x": a, "y": b}
            else:
                s = known[a]
                shape = _broadcast_partner(rng, s.shape)
                dt = rng.choice(DTYPES)
                step = {"op": rng.choice(BINARY), "x": a, "y_values": _values(rng, shape, dt),
                        "y_shape": shape, "y_dtype": dt, "swap": rng.random() < 0.3}
            if rng.random() < 0.1:
                step = {"op": "scalar_" + rng.choice(["add", "mul", "sub", "div", "rsub", "rdiv"]),
                        "x": a, "s": rng.choice([2, 0.5, -1, 0, 3.0])}
        elif kind < 0.62:
            src = pick()
            nd = len(known[src].shape)
            op = rng.choice(REDUCE)
            step = {"op": op, "x": src, "dim": _dim(rng, nd), "keepdim": rng.random() < 0.3}
        elif kind < 0.77:
            src = pick()
            s = known[src].shape
            nd = len(s)
            op = rng.choice(VIEWS)
            step = {"op": op, "x": src, "dim": _dim(rng, nd), "dim2": _dim(rng, nd)}
            if op == "permute":
                p = list(range(nd))
                rng.shuffle(p)
                step["perm"] = p
            elif op in ("narrow", "slice"):
                d = step["dim"] % nd if nd else 0
                size = s[d] if nd else 1
                start = rng.randrange(-size, size) if size else 0
                step.update(start=start, length=rng.randint(0, max(size - (start % max(size, 1)), 0)),
                            step=rng.choice([1, 1, 2]))
            elif op in ("select", "getitem_int"):
                d = step["dim"] % nd if nd else 0
                size = s[d] if nd else 1
                step["index"] = rng.randrange(-size, size) if size else 0
            elif op in ("view", "reshape"):
                n = math.prod(s)
                cands = [[-1], [n], [1, -1], [-1, 1]] + ([[s[0], -1]] if nd else [])
                step["shape"] = rng.choice(cands)
            elif op == "expand":
                step["shape"] = [2] + [-1] * nd
            elif op in ("chunk", "split"):
                step["n"] = rng.choice([1, 2, 3])
                step["item"] = rng.randrange(0, 3)
            elif op == "unbind":
                step["item"] = rng.randrange(0, 3)
        elif kind < 0.88:
            target = pick()
            op = rng.choice(INPLACE)
            step = {"op": op, "x": target, "y": pick(), "value": rng.choice([0.5, 2.0, -1.0, 0.0])}
            if op == "setitem":
                s = known[target].shape
                if s:
                    step["index"] = rng.randrange(-s[0], s[0]) if s[0] else 0
                step["slice"] = rng.random() < 0.5
        elif kind < 0.94:
            target = pick()
            step = {"op": rng.choice(FLAGS), "x": target}
        else:
            target = pick()
            step = {"op": rng.choice(BACKWARD), "x": target,
                    "inputs": [n for n in known if known[n].is_leaf and known[n].requires_grad][:3]}
        step["mode"] = mode
        step["name"] = name
        prog.append(step)
        if run is not None:
            shapes = run(prog)
            known = {k: v for k, v in shapes.items() if v is not None}
    return prog


# ---------------------------------------------------------------- running


def _to_list(T, t):
    if t.dtype.is_complex:
        t = T.view_as_real(t.detach().resolve_conj() if hasattr(t, "resolve_conj") else t.detach())
    return t.detach().tolist()


def _norm_value(v):
    if isinstance(v, list):
        return [_norm_value(x) for x in v]
    if isinstance(v, bool):
        return v
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def observe(T, t):
    """What PyTorch defines about tensor `t` (every read guarded: a read may raise)."""
    if not isinstance(t, T.Tensor):
        return {"value": repr(t)}
    o = {"dtype": str(t.dtype), "shape": list(t.shape)}
    try:
        o["stride"] = list(t.stride())
    except Exception as e:  # noqa: BLE001
        o["stride"] = "error"
    o["requires_grad"] = t.requires_grad
    try:
        gf = t.grad_fn
        o["grad_fn"] = None if gf is None else type(gf).__name__
        o["is_leaf"] = t.is_leaf
    except RuntimeError as e:
        o["grad_fn"] = "error: " + str(e)[:80]
    o["is_view"] = t._base is not None
    try:
        o["version"] = t._version
    except RuntimeError as e:
        o["version"] = "error: " + str(e)[:80]
    try:
        o["value"] = _norm_value(_to_list(T, t))
    except Exception as e:  # noqa: BLE001
        o["value"] = f"{type(e).__name__}"
    return o


def _grad_of(T, t):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = t.grad
    if g is None:
        return None
    return {"dtype": str(g.dtype), "shape": list(g.shape), "value": _norm_value(_to_list(T, g))}


_DT = {"float32": "float32", "float64": "float64", "int64": "int64", "bool": "bool",
       "complex64": "complex64"}


def _make(T, values, shape, dtype, requires_grad=False):
    dt = getattr(T, _DT[dtype])
    if dtype.startswith("complex"):
        vals = [complex(a, b) for a, b in values]
    else:
        vals = values
    if 0 in shape:
        t = T.zeros(shape, dtype=dt)
    else:
        t = T.tensor(_nest(vals, shape), dtype=dt)  # a leaf of its own, not a view
    if requires_grad:
        t.requires_grad_(True)
    return t


def _nest(vals, shape):
    if not shape:
        return vals[0]
    n = len(vals) // shape[0]
    return [_nest(vals[i * n:(i + 1) * n], shape[1:]) for i in range(shape[0])]


def _apply(T, step, env, log):
    op = step["op"]
    x = env.get(step.get("x"))
    if op == "tensor":
        return _make(T, step["values"], step["shape"], step["dtype"], step["requires_grad"])
    if "x" in step and x is None:
        raise _Skip()
    if op in UNARY:
        return getattr(T, op)(x)
    if op == "clamp":
        return T.clamp(x, step["min"], step["max"])
    if op == "pow_scalar":
        return x ** step["e"]
    if op.startswith("scalar_"):
        s = step["s"]
        f = {"add": lambda: x + s, "mul": lambda: x * s, "sub": lambda: x - s,
             "div": lambda: x / s, "rsub": lambda: s - x, "rdiv": lambda: s / x}[op[7:]]
        return f()
    if op in BINARY:
        if "y_values" in step:
            y = _make(T, step["y_values"], step["y_shape"], step["y_dtype"])
            if step.get("swap"):
                x, y = y, x
        else:
            y = env.get(step["y"])
            if y is None:
                raise _Skip()
        return getattr(T, op)(x, y)
    if op in REDUCE:
        d, k = step["dim"], step["keepdim"]
        return {
            "sum": lambda: x.sum(), "mean": lambda: x.mean(), "max": lambda: x.max(),
            "min": lambda: x.min(), "amax": lambda: x.amax(d, k), "prod": lambda: x.prod(),
            "sum_dim": lambda: x.sum(d, keepdim=k), "mean_dim": lambda: x.mean(d, keepdim=k),
            "logsumexp": lambda: T.logsumexp(x, d, keepdim=k),
            "softmax": lambda: T.softmax(x, d), "log_softmax": lambda: T.log_softmax(x, d),
            "cumsum": lambda: T.cumsum(x, d), "norm": lambda: x.norm(),
            "var": lambda: x.var(d, keepdim=k), "std": lambda: x.std(),
        }[op]()
    if op in VIEWS:
        d, d2 = step["dim"], step["dim2"]
        f = {
            "transpose": lambda: x.transpose(d, d2), "permute": lambda: x.permute(*step["perm"]),
            "narrow": lambda: x.narrow(d, step["start"], step["length"]),
            "select": lambda: x.select(d, step["index"]),
            "slice": lambda: x[(slice(None),) * (d % max(x.dim(), 1)) + (slice(step["start"], None, step["step"]),)],
            "unsqueeze": lambda: x.unsqueeze(d), "squeeze": lambda: x.squeeze(d),
            "view": lambda: x.view(*step["shape"]), "reshape": lambda: x.reshape(*step["shape"]),
            "expand": lambda: x.expand(*step["shape"]), "flatten": lambda: x.flatten(),
            "t": lambda: x.t(), "unbind": lambda: x.unbind(d)[step["item"]],
            "chunk": lambda: x.chunk(step["n"], d)[step["item"]],
            "split": lambda: x.split(step["n"], d)[step["item"]],
            "detach": lambda: x.detach(), "view_as_real": lambda: T.view_as_real(x),
            "diagonal": lambda: x.diagonal(0, d, d2) if hasattr(x, "diagonal") else T.diagonal(x, 0, d, d2),
            "getitem_int": lambda: x[step["index"]], "contiguous": lambda: x.contiguous(),
            "clone": lambda: x.clone(),
        }[op]
        return f()
    if op in INPLACE:
        y = env.get(step.get("y"))
        v = step["value"]
        if op == "setitem":
            if x.dim() == 0:
                raise _Skip()
            idx = slice(step.get("index", 0), None) if step.get("slice") else step.get("index", 0)
            x[idx] = y if y is not None and step.get("slice") else v
            return x
        if op in ("add_", "sub_", "mul_", "div_", "copy_", "pow_"):
            other = y if y is not None else v
            if op == "copy_" and not isinstance(other, T.Tensor):
                raise _Skip()
            return getattr(x, op)(other)
        if op == "fill_":
            return x.fill_(v)
        if op == "clamp_":
            return x.clamp_(-v, v) if v > 0 else x.clamp_(v)
        return getattr(x, op)()
    if op == "requires_grad_":
        return x.requires_grad_(True)
    if op == "requires_grad_false":
        return x.requires_grad_(False)
    if op == "detach_":
        return x.detach_()
    if op == "retain_grad":
        x.retain_grad()
        return x
    if op == "hook":
        name = step["name"]
        x.register_hook(lambda g: log.append([name, list(g.shape)]) or g * 2)
        return x
    if op == "grad_none":
        x.grad = None
        return x
    if op in BACKWARD:
        inputs = [env[n] for n in step["inputs"] if n in env]
        if op == "backward":
            x.sum().backward()
        elif op == "backward_retain":
            x.sum().backward(retain_graph=True)
        elif op == "backward_create":
            x.sum().backward(create_graph=True)
        elif op == "backward_gradient":
            x.backward(T.ones_like(x))
        elif op == "backward_inputs":
            if not inputs:
                raise _Skip()
            x.sum().backward(inputs=inputs)
        else:
            if not inputs:
                raise _Skip()
            gs = T.autograd.grad(x.sum(), inputs, allow_unused=True)
            return [None if g is None else g for g in gs][0]
        return None
    raise ValueError(f"unknown op {op}")


class _Skip(Exception):
    pass


def _mode(T, step):
    """The grad mode a step runs under."""
    import contextlib

    return {"grad": contextlib.nullcontext, "no_grad": T.no_grad,
            "inference": T.inference_mode}[step.get("mode", "grad")]()


def run(T, program):
    """Run `program` with module `T`; one observation per step."""
    env, out, log = {}, [], []
    for step in program:
        rec = {"name": step["name"]}
        try:
            with _mode(T, step):
                r = _apply(T, step, env, log)
        except _Skip:
            rec["skipped"] = True
            out.append(rec)
            continue
        except Exception as e:  # noqa: BLE001
            rec["error"] = [type(e).__name__, str(e).split("\n")[0][:300]]
            r = None
        except BaseException as e:  # a Rust panic is a BaseException  # noqa: BLE001
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                raise
            rec["error"] = ["PANIC", str(e)[:300]]
            r = None
        if isinstance(r, T.Tensor):
            env[step["name"]] = r
            rec["result"] = observe(T, r)
        x = env.get(step.get("x"))
        if isinstance(x, T.Tensor) and x is not r:
            rec["x"] = observe(T, x)
        y = env.get(step.get("y"))
        if step["op"] in INPLACE and isinstance(x, T.Tensor) and isinstance(y, T.Tensor) and x is not y:
            # the other operand shares memory with the written tensor
            rec["aliased"] = _overlaps(x, y)
        if step["op"] in BACKWARD or step["op"] in ("grad_none", "hook"):
            rec["grads"] = {n: _grad_of(T, t) for n, t in env.items() if _is_leaf(t)}
            rec["hooks"] = list(log)
            log.clear()
        out.append(rec)
    return out


def _overlaps(a, b):
    """Do the memory spans of two tensors overlap (strides taken at their extent)?"""
    def span(t):
        if t.numel() == 0:
            return (0, 0)
        start = t.data_ptr()
        extent = sum((n - 1) * abs(s) for n, s in zip(t.shape, t.stride())) + 1
        return (start, start + extent * t.element_size())

    (a0, a1), (b0, b1) = span(a), span(b)
    return a0 < b1 and b0 < a1


def _is_leaf(t):
    try:
        return t.is_leaf
    except RuntimeError:
        return False


def shapes_after(T, program):
    """For generation: the shape/dtype/flags of every named tensor after running `program`."""
    env = {}
    for step in program:
        try:
            with _mode(T, step):
                r = _apply(T, step, env, [])
        except BaseException as e:  # noqa: BLE001
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                raise
            r = None
        if isinstance(r, T.Tensor):
            env[step["name"]] = r
    out = {}
    for k, t in env.items():
        try:
            out[k] = _Shape(t.shape, str(t.dtype).replace("torch.", ""), t.requires_grad, _is_leaf(t))
        except Exception:  # noqa: BLE001
            out[k] = None
    return out


# ---------------------------------------------------------------- comparing and shrinking


def _close(a, b, rtol, atol):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, rtol, atol) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or abs(a - b) <= atol + rtol * max(abs(a), abs(b))
    return a == b


def _tol(obs):
    dt = obs.get("dtype", "") if isinstance(obs, dict) else ""
    # float64 results often come from float32 values (mixed dtypes), whose last bit may differ
    return (1e-4, 1e-5) if "float32" in dt or "complex64" in dt else (1e-5, 1e-7)


def _diff_obs(where, a, b, out):
    if a == b:
        return
    if a is None or b is None or not isinstance(a, dict) or not isinstance(b, dict):
        out.append((where, a, b))
        return
    for k in sorted(set(a) | set(b)):
        va, vb = a.get(k), b.get(k)
        if k == "value" and isinstance(va, list | int | float) and isinstance(vb, list | int | float):
            rtol, atol = _tol(a)
            if not _close(va, vb, rtol, atol):
                out.append((f"{where}.{k}", va, vb))
        elif k == "stride" and isinstance(va, list) and isinstance(vb, list) and a.get("shape") == b.get("shape"):
            if va != vb:
                shape = a.get("shape") or []
                moved = [d for d, (x, y) in enumerate(zip(va, vb)) if x != y]
                # strides of size-1 dims move no element: reported apart
                name = "stride_size1" if all(shape[d] == 1 for d in moved) else "stride"
                out.append((f"{where}.{name}", va, vb))
        elif va != vb:
            out.append((f"{where}.{k}", va, vb))


def _without_versions(obs):
    """Versions of tensors made from inference tensors follow PyTorch's dispatch details (a
    result of `mean` is at version 2 there): a program with an inference-mode step ignores them."""
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if k != "version"}
        return o

    return [strip(o) for o in obs]


def compare(ref, got, program=None):
    """Differences between two runs' observations: (step, field, reference, got)."""
    if program is not None and any(s.get("mode") == "inference" for s in program):
        ref, got = _without_versions(ref), _without_versions(got)
    out = []
    for i, (a, b) in enumerate(zip(ref, got)):
        if a == b:
            continue
        name = a.get("name")
        for key in sorted(set(a) | set(b)):
            va, vb = a.get(key), b.get(key)
            if key == "grads" and isinstance(va, dict) and isinstance(vb, dict):
                for n in sorted(set(va) | set(vb)):
                    _diff_obs(f"{i}:{name}.grad[{n}]", va.get(n), vb.get(n), out)
            elif key in ("result", "x"):
                _diff_obs(f"{i}:{name}.{key}", va, vb, out)
            elif va != vb:
                out.append((f"{i}:{name}.{key}", va, vb))
        if out:
            break  # later steps follow from the first difference
    return out


def is_silent(diffs):
    """A difference where neither side raised: a wrong value or flag, not a different error."""
    return bool(diffs) and not any(where.endswith(".error") for where, _, _ in diffs)


def shrink(program, fails):
    """The smallest program (by removing steps) for which `fails(program)` still holds."""
    prog = list(program)
    chunk = max(len(prog) // 2, 1)
    while chunk >= 1:
        i = 0
        changed = False
        while i < len(prog):
            cand = prog[:i] + prog[i + chunk:]
            if cand and fails(cand):
                prog = cand
                changed = True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    # simplify the steps themselves: grad mode back to the default
    for i, s in enumerate(prog):
        if s.get("mode") != "grad":
            cand = prog[:i] + [dict(s, mode="grad")] + prog[i + 1:]
            if fails(cand):
                prog = cand
    return prog


class TorchWorker:
    """A process of another Python (one with PyTorch) that runs programs sent to it."""

    def __init__(self, python):
        import subprocess

        self.proc = subprocess.Popen(
            [python, __file__, "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, program):
        self.proc.stdin.write(json.dumps(program) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the PyTorch worker died")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def _serve():  # pragma: no cover - runs under PyTorch
    import warnings

    import torch

    warnings.simplefilter("ignore")
    for line in sys.stdin:
        print(json.dumps(run(torch, json.loads(line))), flush=True)


if __name__ == "__main__":  # pragma: no cover - the PyTorch side of a differential run
    if len(sys.argv) == 3 and sys.argv[1] == "run":
        import torch

        with open(sys.argv[2], encoding="utf-8") as f:
            programs = json.load(f)
        json.dump([run(torch, p) for p in programs], sys.stdout)
    elif len(sys.argv) == 2 and sys.argv[1] == "serve":
        _serve()
    else:
        print(__doc__)
