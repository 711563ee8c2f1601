"""The core's layering (docs/architecture.md): calls between the crate's top-level modules go
downwards, and the one cycle left is tensor ⇄ graph. Read from the Rust sources' `crate::` and
`super::` paths, so a new upward call fails here, not in a reviewer's head."""
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def _module_of(path):
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return "::".join(parts)


def _references():
    """Each source module's set of the other source modules it names."""
    files = {_module_of(p): p for p in SRC.rglob("*.rs")}
    deps = {}
    for mod, path in files.items():
        text = re.sub(r"//[^\n]*", "", path.read_text())
        parent = mod.rsplit("::", 1)[0] if "::" in mod else ""
        names = re.findall(r"crate::([\w:]+)", text)
        names += [f"{parent}::{n}" if parent else n for n in re.findall(r"super::([\w:]+)", text)]
        # `use crate::{a, b::c}` groups
        for group in re.findall(r"crate::\{([^}]*)\}", text):
            names += re.findall(r"(?:^|[,\s{])(\w+)", group)
        found = set()
        for name in names:
            parts = name.split("::")
            for k in range(len(parts), 0, -1):
                cand = "::".join(parts[:k])
                if cand in files:
                    if cand != mod:
                        found.add(cand)
                    break
        deps[mod] = found
    return deps


def _cycles(deps):
    """The strongly connected components with more than one member (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in deps[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(deps):
        if v not in index:
            visit(v)
    return out


def _top_level(deps):
    top = {}
    for mod, refs in deps.items():
        head = mod.split("::")[0]
        if head in ("", "lib"):
            continue
        top.setdefault(head, set()).update(r.split("::")[0] for r in refs)
    return {m: {r for r in refs if r != m and r in top} for m, refs in top.items()}


def test_the_only_cycle_between_core_modules_is_tensor_and_graph():
    top = _top_level(_references())
    del top["python"]  # the bindings sit above everything
    assert _cycles(top) == [{"graph", "tensor"}]


def test_layers_call_downwards():
    top = _top_level(_references())
    order = ["forward_ad", "engine", "ops", "backend", "tensor"]
    for i, upper in enumerate(order):
        for lower in order[i + 1:]:
            assert upper not in top[lower], f"{lower} calls {upper}"


def test_no_cycle_between_the_files_of_ops():
    deps = _references()
    ops = {m: {r for r in refs if r.startswith("ops::")} for m, refs in deps.items()
           if m.startswith("ops::")}
    assert _cycles(ops) == []
