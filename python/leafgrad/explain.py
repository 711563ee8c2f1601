"""`explain(t)`: one tensor's place in autograd, in words.

This module owns the diagnosis of why a `.grad` is (or will be) None: leaf or not and why, the
chain of operations that made the tensor, whether backward() will fill its `.grad` (and, if
not, the cause and the fix), and whether backward through it can still run (graph freed by an
earlier backward, a saved tensor modified in place). Nodes made under `detect_anomaly` also say
where in the user's code they were made (anomaly mode's record of the forward call). It only
reads the graph: it never runs backward, never changes a flag, and never warns.
"""
import sys
import textwrap

from ._core import Tensor
from .viz import grad_or_none, shape_dtype

__all__ = ["explain"]

# grad_fn class names of the conversions `.to()`, `.cuda()`, `.double()`, `.float()`, ...
CONVERSIONS = {"ToCopyBackward0"}
# What t._provenance()[0] says about a tensor cut off from the graph, and the call that did it.
DETACHED = {"detach": ".detach()", "data": ".data", "detach_": ".detach_()"}
# How deep "made by" expands an expression before writing "..."; long chains stay readable.
MAX_DEPTH = 8
MAX_EQUATIONS = 6
INPLACE_ERROR = (
    "one of the variables needed for gradient computation has been modified by an inplace operation"
)
FREED_ERROR = "Trying to backward through the graph a second time"


def explain(t, names=None):
    """A short account in words of tensor `t`; `print(leafgrad.explain(z))` reads well.

    names: {name: tensor} used to name `t` and the tensors in its graph. By default the
    caller's local and global variables are used, so the text can say `W` rather than
    `(3, 2) float32`.

    >>> x = torch.ones(2, requires_grad=True)
    >>> y = (x * 3).sum()
    >>> print(torch.explain(y))
    y: () float32, is_leaf=False, requires_grad=True, retains_grad=False, grad=None
      leaf:    no: it was made by SumBackward0, an operation with at least one input that
               requires grad, so autograd recorded it in the graph.
      made by: y = SumBackward0(MulBackward0(x, const))
      .grad:   stays None: y is not a leaf and does not retain its gradient. Autograd computes
               it on the way to the leaves, then drops it.
               Fix: call y.retain_grad() before backward().
    """
    if names is None:
        names = _caller_names(sys._getframe(1))
    namer = _Namer(names)
    me = namer.of(t) or "this tensor"
    grad = "populated" if grad_or_none(t) is not None else "None"
    head = (
        f"{namer.of(t) or 'tensor'}: {shape_dtype(t)}, is_leaf={t.is_leaf}, "
        f"requires_grad={t.requires_grad}, retains_grad={t.retains_grad}, grad={grad}"
    )
    sections = [("leaf", _leaf(t))]
    if t.grad_fn is not None:
        sections.append(("made by", "\n".join(_equations(t, namer))))
        where = _made_at(t.grad_fn)
        if where:
            sections.append(("made at", where))
    sections.append((".grad", _grad_verdict(t, me, namer)))
    sections += [("graph", text) for text in _graph_problems(t, namer)]
    return "\n".join([head] + [_section(label, text) for label, text in sections])


def _section(label, text):
    """'  label:  text', continuation lines indented under the text, wrapped at 92 columns."""
    indent = " " * 11
    lines = []
    for i, para in enumerate(text.split("\n")):
        first = f"  {label + ':':<8} " if i == 0 else indent
        lines.append(
            textwrap.fill(
                para, 92, initial_indent=first, subsequent_indent=indent,
                break_long_words=False, break_on_hyphens=False,  # keep expressions whole
            )
        )
    return "\n".join(lines)


# ---- names ---------------------------------------------------------------------------------


def _caller_names(frame):
    found = {}
    for scope in (frame.f_locals, frame.f_globals):
        for name, value in scope.items():
            if isinstance(value, Tensor) and not name.startswith("_"):
                found.setdefault(name, value)
    return found


class _Namer:
    """Names tensors by identity; a non-leaf also by the (grad_fn, output_nr) that made it,
    which is how it is met while walking the graph."""

    def __init__(self, names):
        self.by_id, self.by_output, self._keep = {}, {}, []
        for name, t in names.items():
            self.by_id.setdefault(id(t), name)
            node = t.grad_fn
            if node is not None:
                self._keep.append(node)  # keeps id(node) unique while we look things up
                self.by_output.setdefault((id(node), t.output_nr), name)
        self._keep += list(names.values())

    def of(self, t):
        return self.by_id.get(id(t))

    def leaf(self, t):
        return self.of(t) or f"<{shape_dtype(t)}>"


# ---- leaf or not ---------------------------------------------------------------------------


def _leaf(t):
    if not t.is_leaf:
        return (
            f"no: it was made by {type(t.grad_fn).__name__}, an operation with at least one "
            "input that requires grad, so autograd recorded it in the graph."
        )
    origin, without_grad = t._provenance()
    if t.requires_grad:
        return (
            "yes: it requires grad and no recorded operation made it (created with "
            "requires_grad=True or requires_grad_())."
        )
    if t.is_inference():
        return "yes: it was created under torch.inference_mode(), where nothing is recorded."
    if origin in DETACHED:
        return f"yes: it was made by {DETACHED[origin]}, which cuts a tensor off from the graph."
    if without_grad:
        return (
            "yes: it was made while grad mode was off (torch.no_grad() or "
            "set_grad_enabled(False)), so no operation was recorded."
        )
    return (
        "yes: it does not require grad, and a tensor that does not require grad is always a leaf."
    )


# ---- made by -------------------------------------------------------------------------------


def _equations(t, namer):
    """'z = AddBackward0(MmBackward0(x, W), b)', then one equation per named intermediate met
    on the way down, so long graphs read as a few short lines."""
    me = namer.of(t) or "this tensor"
    todo, done, out = [(me, t.grad_fn)], set(), []
    while todo and len(out) < MAX_EQUATIONS:
        name, node = todo.pop(0)
        if id(node) in done:
            continue
        done.add(id(node))
        out.append(f"{name} = {_expr(node, namer, todo, 0)}")
    if todo:
        out.append("...")
    return out


def _expr(node, namer, todo, depth):
    if type(node).__name__ == "AccumulateGrad":
        return namer.leaf(node.variable)
    if depth >= MAX_DEPTH:
        return f"{type(node).__name__}(...)"
    args = []
    constants = _constant_names(node, namer)
    for child, nr in node.next_functions:
        if child is None:
            args.append(constants.pop(0) if constants else "const")
            continue
        name = namer.by_output.get((id(child), nr))
        if name is not None:  # a named intermediate: its own equation follows
            todo.append((name, child))
            args.append(name)
        else:
            args.append(_expr(child, namer, todo, depth + 1))
    return f"{type(node).__name__}({', '.join(args)})"


def _constant_names(node, namer):
    """Names for the inputs that need no grad (drawn as None in next_functions), taken in order
    from the node's saved tensors that do not require grad: MmBackward0 saves x as 'self'."""
    if node._lg_saved_released:
        return []
    saved = [getattr(node, "_saved_" + n) for n in node._lg_saved_names if n != "result"]
    return [namer.of(s) for s in saved if not s.requires_grad and namer.of(s)]


# ---- will backward fill .grad? -------------------------------------------------------------


def _grad_verdict(t, me, namer):
    origin, without_grad = t._provenance()
    if t.is_inference():
        return (
            f"stays None: {me} is an inference tensor (made under torch.inference_mode()). "
            "Autograd refuses to use it in a recorded operation ('Inference tensors cannot be "
            "saved for backward').\n"
            "Fix: use torch.no_grad() instead of torch.inference_mode(), or take a normal copy "
            "with .clone() outside inference mode."
        )
    if not t.requires_grad:
        if origin in DETACHED:
            return (
                f"stays None: requires_grad is False because {me} was detached from the graph; "
                "gradients neither reach it nor flow through it.\n"
                "Fix: use the tensor it was detached from; for a new leaf that requires grad, "
                "take .detach().requires_grad_()."
            )
        if without_grad:
            return (
                f"stays None: requires_grad is False because {me} was made under "
                "torch.no_grad(), where operations are not recorded.\n"
                "Fix: compute it outside torch.no_grad(); for a new leaf, call "
                ".requires_grad_() on it."
            )
        return (
            "stays None: requires_grad is False, so autograd does not track it.\n"
            f"Fix: create it with requires_grad=True, or call {_call(me, 'requires_grad_()')} "
            "before the forward pass."
        )
    if t.is_leaf:
        return (
            f"backward() stores the gradient here: {me} is a leaf that requires grad "
            "(each backward() adds to what is already there)."
        )
    if t.retains_grad:
        return f"backward() stores the gradient here, because retain_grad() was called on {me}."
    conversion = _conversion_source(t)
    if conversion is not None:
        return _conversion_verdict(t, me, conversion, namer)
    return (
        f"stays None: {me} is not a leaf and does not retain its gradient. Autograd computes "
        "it on the way to the leaves, then drops it.\n"
        f"Fix: call {_call(me, 'retain_grad()')} before backward()."
    )


def _call(me, method):
    return f".{method}" if me == "this tensor" else f"{me}.{method}"


def _conversion_source(t):
    """The leaf that `t` is a `.to()`/`.cuda()`/`.double()` copy of, or None."""
    node = t.grad_fn
    if type(node).__name__ not in CONVERSIONS:
        return None
    child = node.next_functions[0][0]
    if child is None or type(child).__name__ != "AccumulateGrad":
        return None
    return child.variable


def _conversion_verdict(t, me, leaf, namer):
    leaf_name = namer.of(leaf)
    if leaf_name:
        where = f"{leaf_name}.grad"
    else:
        reach = _call(me, "grad_fn.next_functions[0][0].variable")
        where = f"that leaf's .grad (reach the leaf as {reach})"
    dims = ", ".join(str(d) for d in t.shape)
    extra = f", dtype={t.dtype}"
    if t.device.type != "cpu":
        extra += f", device='{t.device}'"
    return (
        f"stays None: {me} is a converted copy ({type(t.grad_fn).__name__}: .to(), .cuda(), "
        f".double(), ...) of the leaf {namer.leaf(leaf)}, so it is not a leaf itself. "
        f"backward() stores the gradient in {where} instead.\n"
        "Fix: create it directly on the device and dtype you want, with requires_grad=True, "
        f"e.g. torch.randn({dims}{extra}, requires_grad=True); or call "
        f"{_call(me, 'retain_grad()')} before backward()."
    )


# ---- can backward still run? ---------------------------------------------------------------


def _graph_problems(t, namer):
    if t.grad_fn is None:
        return []
    nodes = _reachable(t.grad_fn)
    problems = []
    freed = [type(n).__name__ for n in nodes if n._lg_saved_released]
    if freed:
        problems.append(
            "freed by an earlier backward() (saved tensors of "
            f"{', '.join(dict.fromkeys(freed))} released). Another backward() through it raises "
            f"'{FREED_ERROR}...'.\n"
            "Fix: pass retain_graph=True to the first backward(), or run the forward pass again."
        )
    for node, slots, s, was, now in _modified_saved(nodes):
        what = namer.of(s) or shape_dtype(s)
        versions = f" (version {was} -> {now})" if was is not None else ""
        slots = " and ".join(f"'{slot}'" for slot in slots)
        where = _made_at(node)
        where = f" (the {type(node).__name__} made at {where})" if where else ""
        problems.append(
            f"backward() will fail: {what}, saved by {type(node).__name__} as {slots}, was "
            f"modified in place after it was saved{versions}{where}; backward() raises "
            f"'{INPLACE_ERROR}'.\n"
            "Fix: use the out-of-place op (y = y * 2 rather than y.mul_(2)), or .clone() the "
            "tensor before changing it."
        )
    return problems


def _made_at(node):
    """Where the forward call that made `node` was, from anomaly mode's record (None when the
    node was made outside `detect_anomaly`): 'file:line, in function: code'."""
    frames = node.metadata.get("traceback_") if hasattr(node, "metadata") else None
    if not frames:
        return None
    lines = frames[-1].strip().splitlines()
    head = lines[0]
    # '  File "x.py", line 4, in <module>' -> 'x.py:4, in <module>'
    if head.startswith('File "') and '", line ' in head:
        path, rest = head[len('File "'):].split('", line ', 1)
        number, _, func = rest.partition(", in ")
        head = f"{path}:{number}" + (f", in {func}" if func else "")
    code = lines[1].strip() if len(lines) > 1 else ""
    return f"{head}: {code}" if code else head


def _reachable(root):
    seen, order, stack = set(), [], [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend(n for n, _ in reversed(node.next_functions) if n is not None)
    return order


def _modified_saved(nodes):
    """(node, [slots], tensor, saved_version or None, version now) for each tensor a node
    saved and that was changed in place since; one entry per tensor (x*x saves x twice)."""
    found = []
    for node in nodes:
        if node._lg_saved_released or not node._lg_saved_names:
            continue
        versions = getattr(node, "_lg_saved_versions", None)
        by_tensor = {}
        for i, slot in enumerate(node._lg_saved_names):
            s = getattr(node, "_saved_" + slot)
            if versions is not None:
                changed, was = versions[i] != s._version, versions[i]
            else:
                changed, was = _rebased_after(s, node), None
            if changed:
                entry = by_tensor.setdefault(id(s), (node, [], s, was, s._version))
                entry[1].append(slot)
        found += by_tensor.values()
    return found


def _rebased_after(s, node):
    """Without the saved version, a sure sign: an in-place op recorded after `node` gave the
    saved tensor a newer grad_fn (tensors changed in place without a grad_fn go unseen)."""
    gf = s.grad_fn
    return gf is not None and gf is not node and gf._sequence_nr > node._sequence_nr
