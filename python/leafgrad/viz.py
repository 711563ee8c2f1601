"""Drawing the autograd graph behind a tensor.

This module owns two views of the same graph:

* `make_dot(root)` returns a `Digraph` whose `.source` is Graphviz DOT text (plain Python, no
  dependency); `.render()` and `_repr_svg_()` run Graphviz's `dot` program when it is installed.
* `print_graph(root)` prints the graph as an indented text tree for terminals.

The drawing follows torchviz: one box per backward node, labelled by its grad_fn class name; each
`AccumulateGrad` with its leaf (light blue; named from `params`, else by shape and dtype); the
root tensor in green; constants (operands that do not require grad) are not drawn. Edges point
from inputs towards the output, as the forward pass ran. On top of torchviz, each tensor box
shows what the tutorials draw by hand: is_leaf, requires_grad, retains_grad and whether `.grad`
is populated (a bold border when it is). Non-leaf tensors named in `params` hang off the node
that made them (pale green). With `show_saved=True`, each node's saved tensors are drawn
(orange, joined by an undirected edge) and a node whose saved tensors were freed by a backward
without `retain_graph` is dashed and says so.
"""
import shutil
import subprocess
import warnings

__all__ = ["Digraph", "make_dot", "print_graph"]

_INSTALL_ADVICE = (
    "Rendering a leafgrad graph needs Graphviz's `dot` program, which was not found on PATH. "
    "Install Graphviz: `apt-get install graphviz` (Debian/Ubuntu), `brew install graphviz` "
    "(macOS), `conda install graphviz`, or see https://graphviz.org/download/. "
    "The DOT text is available without it: `graph.source`."
)

# torchviz's look, so the pictures are familiar.
_GRAPH_ATTRS = {"size": "12,12"}
_NODE_ATTRS = {
    "align": "left",
    "fontname": "monospace",
    "fontsize": "10",
    "height": "0.2",
    "ranksep": "0.1",
    "shape": "box",
    "style": "filled",
}
_EDGE_ATTRS = {"fontname": "monospace", "fontsize": "10"}
ROOT_COLOR = "darkolivegreen1"
NAMED_COLOR = "darkolivegreen3"
LEAF_COLOR = "lightblue"
SAVED_COLOR = "orange"


class Digraph:
    """DOT text plus the means to render it with Graphviz.

    >>> x = torch.ones(2, requires_grad=True)
    >>> graph = torch.viz.make_dot((x * 3).sum(), params={"x": x})
    >>> print(graph.source.splitlines()[0])
    digraph {
    >>> path = graph.save("graph.dot")  # doctest: +SKIP
    >>> path = graph.render("graph.svg")  # doctest: +SKIP
    """

    def __init__(self, source):
        self.source = source

    def __str__(self):
        return self.source

    def save(self, path):
        """Write the DOT text to `path`; returns the path."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.source)
        return path

    def pipe(self, format="svg"):
        """The rendered image as bytes."""
        exe = shutil.which("dot")
        if exe is None:
            raise RuntimeError(_INSTALL_ADVICE)
        done = subprocess.run(
            [exe, "-T" + format],
            input=self.source.encode("utf-8"),
            capture_output=True,
            check=False,  # dot's own message makes a better error than CalledProcessError
        )
        if done.returncode != 0:
            raise RuntimeError(f"dot failed: {done.stderr.decode(errors='replace').strip()}")
        return done.stdout

    def render(self, path, format=None):
        """Render to `path` ('svg' or 'png'; taken from the path's suffix when not given, and
        the suffix added when missing). Returns the path written."""
        suffix = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else None
        format = format or (suffix if suffix in ("svg", "png") else "svg")
        if suffix != format:
            path = f"{path}.{format}"
        data = self.pipe(format)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def _repr_svg_(self):
        return self.pipe("svg").decode("utf-8")


# ---- what a box says -----------------------------------------------------------------------


def grad_or_none(t):
    """t.grad, read without the warning PyTorch gives for a non-leaf: viz and explain never warn."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return t.grad


def shape_dtype(t):
    """'(3, 2) float32', with the device when it is not the CPU."""
    text = f"{tuple(t.shape)} {str(t.dtype).replace('torch.', '')}"
    device = t.device
    return text if device.type == "cpu" else f"{text} {device}"


def tensor_lines(t, name=None):
    """The tutorial's attributes of one tensor, as label lines."""
    grad = "populated" if grad_or_none(t) is not None else "None"
    return [
        f"{name}: {shape_dtype(t)}" if name else shape_dtype(t),
        f"is_leaf={t.is_leaf} requires_grad={t.requires_grad}",
        f"retains_grad={t.retains_grad} grad={grad}",
    ]


def node_lines(node, show_attrs=False, show_saved=False):
    lines = [type(node).__name__]
    if show_attrs:
        if node.name() != lines[0]:
            lines.append(f"name={node.name()}")
        if type(node).__name__ != "AccumulateGrad":
            lines.append(f"sequence_nr={node._sequence_nr}")
        if node._lg_saved_names:
            lines.append("saved=" + ", ".join(node._lg_saved_names))
    if show_saved and node._lg_saved_released:
        lines.append("saved tensors: freed")
    return lines


def saved_tensors(node):
    """[(name, tensor)] of a node, or None when backward has freed them."""
    if node._lg_saved_released:
        return None
    return [(n, getattr(node, "_saved_" + n)) for n in node._lg_saved_names]


def saved_output(names, node, slot):
    """(name, tensor) of the named output a saved 'result' stands for, else None. The core
    saves an output as a bare alias (no grad_fn), whose own flags would mislead."""
    if slot != "result":
        return None
    made = [(n, u) for n, u in names.outputs_of(node) if u.output_nr == 0]
    return made[0] if made else None


def inputs(node):
    """The nodes gradients flow to; constants (None) are not drawn."""
    return [n for n, _ in node.next_functions if n is not None]


class _Names:
    """Names from `params`, looked up by identity: leaves by tensor, non-leaves by the
    (grad_fn, output_nr) that made them (only that pair identifies an intermediate)."""

    def __init__(self, params, roots=()):
        # Holding the tensors and their nodes keeps every id() below unique while we draw.
        self.tensors = dict(params or {})
        self.nodes = [t.grad_fn for t in self.tensors.values()]
        self.by_id = {id(t): n for n, t in self.tensors.items()}
        root_ids = {id(t) for t in roots}
        self.by_node = {}
        for (n, t), node in zip(self.tensors.items(), self.nodes):
            if node is not None and id(t) not in root_ids:  # a root is drawn on its own
                self.by_node.setdefault(id(node), []).append((n, t))

    def of(self, t):
        return self.by_id.get(id(t))

    def outputs_of(self, node):
        """[(name, tensor)] of the named non-leaf tensors that `node` made."""
        return self.by_node.get(id(node), [])


def _roots(root):
    return list(root) if isinstance(root, (list, tuple)) else [root]


# ---- DOT -----------------------------------------------------------------------------------


def _quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _attrs(attrs):
    return " ".join(f"{k}={_quote(v)}" for k, v in attrs.items())


class _DotBuilder:
    def __init__(self, names, show_attrs, show_saved):
        self.names, self.show_attrs, self.show_saved = names, show_attrs, show_saved
        self.ids = {}  # id(object) -> DOT id; objects kept in self.keep so ids stay unique
        self.keep = []
        self.lines = []

    def _new_id(self, obj, prefix):
        key = f"{prefix}{len(self.ids)}"
        self.ids[id(obj)] = key
        self.keep.append(obj)
        return key

    def tensor(self, t, color, name=None):
        if id(t) in self.ids:
            return self.ids[id(t)]
        key = self._new_id(t, "t")
        style = "filled,bold" if grad_or_none(t) is not None else "filled"
        label = "\n".join(tensor_lines(t, name or self.names.of(t)))
        attrs = {"label": label, "fillcolor": color, "style": style}
        self.lines.append(f"\t{key} [{_attrs(attrs)}]")
        return key

    def edge(self, a, b, **attrs):
        extra = f" [{_attrs(attrs)}]" if attrs else ""
        self.lines.append(f"\t{a} -> {b}{extra}")

    def node(self, node):
        """The node's box, with its leaf (AccumulateGrad) and its named outputs."""
        if id(node) in self.ids:
            return self.ids[id(node)]
        key = self._new_id(node, "n")
        label = "\n".join(node_lines(node, self.show_attrs, self.show_saved))
        freed = self.show_saved and node._lg_saved_released
        attrs = {"label": label, "style": "filled,dashed"} if freed else {"label": label}
        self.lines.append(f"\t{key} [{_attrs(attrs)}]")
        if type(node).__name__ == "AccumulateGrad":
            self.edge(self.tensor(node.variable, LEAF_COLOR), key)
        for name, t in self.names.outputs_of(node):
            self.edge(key, self.tensor(t, NAMED_COLOR, name), style="dashed")
        return key

    def graph(self, top, top_key):
        """Everything below `top`, depth first with an explicit stack: graphs can be deeper
        than Python's recursion limit."""
        stack, walked = [(top, top_key)], []
        while stack:
            node, parent = stack.pop()
            new = id(node) not in self.ids
            key = self.node(node)
            self.edge(key, parent)
            if new:
                walked.append((node, key))
                stack.extend((child, key) for child in reversed(inputs(node)))
        # Saved tensors last, so a saved leaf joins its own (blue) box, not an orange copy.
        for node, key in walked if self.show_saved else []:
            for slot, t in saved_tensors(node) or []:
                made = saved_output(self.names, node, slot)
                if made is not None:  # the node's own output: drawn below it
                    self.edge(key, self.ids[id(made[1])], dir="none", label=slot)
                else:  # an input of the forward op: drawn above, where inputs are
                    self.edge(self.saved(t), key, dir="none", label=slot)

    def saved(self, t):
        if id(t) in self.ids:
            return self.ids[id(t)]
        if self.names.of(t):
            return self.tensor(t, SAVED_COLOR)
        key = self._new_id(t, "t")
        attrs = {"label": shape_dtype(t), "fillcolor": SAVED_COLOR}
        self.lines.append(f"\t{key} [{_attrs(attrs)}]")
        return key


def make_dot(root, params=None, show_attrs=False, show_saved=False):
    """The autograd graph behind `root` (a tensor, or a list/tuple of them) as a `Digraph`.

    params: {name: tensor} naming leaves (and non-leaf tensors, drawn beside their node).
    show_attrs: add each node's name(), sequence number and saved-tensor names.
    show_saved: draw each node's saved tensors, and mark nodes whose graph backward freed.

    >>> x = torch.ones(2, requires_grad=True)
    >>> graph = torch.viz.make_dot((x * 3).sum(), params={"x": x})
    >>> print(graph.source)  # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
    digraph {
    ...
        n1 [label="SumBackward0"]
        n1 -> t0
        n2 [label="MulBackward0"]
        n2 -> n1
        n3 [label="AccumulateGrad"]
        t4 [label="x: (2,) float32
    is_leaf=True requires_grad=True
    retains_grad=False grad=None" fillcolor="lightblue" style="filled"]
        t4 -> n3
        n3 -> n2
    }
    <BLANKLINE>
    """
    names = _Names(params, _roots(root))
    b = _DotBuilder(names, show_attrs, show_saved)
    for t in _roots(root):
        # A root that is also a leaf is drawn as a leaf, with its AccumulateGrad if any.
        key = b.tensor(t, LEAF_COLOR if t.is_leaf else ROOT_COLOR)
        if t.grad_fn is not None:
            b.graph(t.grad_fn, key)
    head = [
        "digraph {",
        f"\tgraph [{_attrs(_GRAPH_ATTRS)}]",
        f"\tnode [{_attrs(_NODE_ATTRS)}]",
        f"\tedge [{_attrs(_EDGE_ATTRS)}]",
    ]
    return Digraph("\n".join(head + b.lines + ["}"]) + "\n")


# ---- text tree -----------------------------------------------------------------------------


def print_graph(root, params=None, show_saved=False, file=None):
    """Print the graph behind `root` as an indented tree (output at the top, leaves at the
    bottom) and return the text. A node reached a second time is shown once, then referred to
    as '(see above)'.

    >>> x = torch.ones(2, requires_grad=True)
    >>> text = torch.viz.print_graph((x * 3).sum(), params={"x": x})
    () float32 is_leaf=False requires_grad=True retains_grad=False grad=None
    `- SumBackward0
       `- MulBackward0
          `- AccumulateGrad <- x: (2,) float32 is_leaf=True requires_grad=True retains_grad=False grad=None
    """
    names = _Names(params, _roots(root))
    out, seen, keep = [], set(), []  # keep: the walked nodes, so their ids stay unique

    def saved_label(node, slot, t):
        made = saved_output(names, node, slot)
        return made[0] if made else names.of(t) or shape_dtype(t)

    def tensor_text(t, name=None):
        return " ".join(tensor_lines(t, name or names.of(t)))

    def line(node):
        text = type(node).__name__
        if type(node).__name__ == "AccumulateGrad":
            text += " <- " + tensor_text(node.variable)
        for name, t in names.outputs_of(node):
            text += " -> " + tensor_text(t, name)
        if show_saved and node._has_saved:
            saved = saved_tensors(node)
            if saved is None:
                text += " [saved tensors: freed]"
            else:
                parts = [f"{slot}={saved_label(node, slot, t)}" for slot, t in saved]
                text += " [saved: " + ", ".join(parts) + "]"
        return text

    for t in _roots(root):
        out.append(tensor_text(t))
        # Depth first with an explicit stack: graphs can be deeper than the recursion limit.
        stack = [(t.grad_fn, "", True)] if t.grad_fn is not None else []
        while stack:
            node, prefix, last = stack.pop()
            branch = prefix + ("`- " if last else "+- ")
            if id(node) in seen:
                out.append(f"{branch}{type(node).__name__} (see above)")
                continue
            seen.add(id(node))
            keep.append(node)
            out.append(branch + line(node))
            children = inputs(node)
            deeper = prefix + ("   " if last else "|  ")
            stack.extend(
                (c, deeper, i == len(children) - 1) for i, c in reversed(list(enumerate(children)))
            )
    text = "\n".join(out)
    print(text, file=file)
    return text
