"""leafgrad.viz (make_dot, print_graph) and leafgrad.explain, on the graph of the seed 000
tutorial ("Understanding requires_grad, retain_grad, Leaf, and Non-leaf Tensors") and on each
reason a `.grad` stays None. leafgrad-only API: skipped when the suite runs against torch."""
import io
import re
import shutil
import warnings
from collections import Counter
from pathlib import Path

import pytest
from support import USING_TORCH

if USING_TORCH:
    pytest.skip("leafgrad-only API; not present in torch", allow_module_level=True)

import leafgrad as torch
import leafgrad.nn.functional as F
from leafgrad import viz
from leafgrad.explain import INPLACE_ERROR, explain


def tutorial():
    """The tutorial's tensors after its forward pass."""
    x = torch.ones(1, 3)
    W = torch.ones(3, 2, requires_grad=True)
    b = torch.ones(1, 2, requires_grad=True)
    y = torch.ones(1, 2)
    z = (x @ W) + b
    y_pred = F.relu(z)
    loss = F.mse_loss(y_pred, y)
    return {"x": x, "W": W, "b": b, "y": y, "z": z, "y_pred": y_pred, "loss": loss}


def retained():
    """The tutorial's second half: retain_grad on z, y_pred, loss, then backward."""
    t = tutorial()
    for name in ("z", "y_pred", "loss"):
        t[name].retain_grad()
    t["loss"].backward()
    return t


# ---- a small DOT reader --------------------------------------------------------------------

_ATTR = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def parse(source):
    """({id: attrs}, [(a, b, attrs)]) from make_dot's DOT text (one statement per tab line)."""
    assert source.startswith("digraph {\n") and source.endswith("\n}\n")
    nodes, edges = {}, []
    for stmt in source[len("digraph {\n") : -len("\n}\n")].split("\n\t"):
        stmt = stmt.lstrip("\t")
        m = re.match(r"(\w+)(?: -> (\w+))?(?: \[(.*)\])?$", stmt, re.DOTALL)
        attrs = {k: v.replace('\\"', '"') for k, v in _ATTR.findall(m.group(3) or "")}
        if m.group(1) in ("graph", "node", "edge"):
            continue
        if m.group(2):
            edges.append((m.group(1), m.group(2), attrs))
        else:
            nodes[m.group(1)] = attrs
    return nodes, edges


def flat(text):
    """explain() text with its line wrapping undone, for substring checks."""
    return " ".join(text.split())


def title(nodes, key):
    return nodes[key]["label"].split("\n")[0]


def flags(leaf, rg=True, retains=False, grad="None"):
    """The tensor attributes the tutorial's figures show, as viz writes them."""
    return f"is_leaf={leaf} requires_grad={rg} retains_grad={retains} grad={grad}"


def edge_titles(source, **match):
    """Counter of (from, to) by first label line, for edges whose attrs include `match`."""
    nodes, edges = parse(source)
    return Counter(
        (title(nodes, a), title(nodes, b))
        for a, b, attrs in edges
        if all(attrs.get(k) == v for k, v in match.items())
    )


def box(source, first_line):
    nodes, _ = parse(source)
    found = [a for a in nodes.values() if a["label"].split("\n")[0] == first_line]
    assert len(found) == 1, (first_line, source)
    return found[0]


TUTORIAL_EDGES = Counter(
    [
        ("MseLossBackward0", "loss: () float32"),
        ("ReluBackward0", "MseLossBackward0"),
        ("AddBackward0", "ReluBackward0"),
        ("MmBackward0", "AddBackward0"),
        ("AccumulateGrad", "MmBackward0"),
        ("AccumulateGrad", "AddBackward0"),
        ("W: (3, 2) float32", "AccumulateGrad"),
        ("b: (1, 2) float32", "AccumulateGrad"),
    ]
)
NAMED_EDGES = Counter(
    [("AddBackward0", "z: (1, 2) float32"), ("ReluBackward0", "y_pred: (1, 2) float32")]
)


# ---- make_dot ------------------------------------------------------------------------------


def test_tutorial_graph_nodes_edges_and_styles():
    t = tutorial()
    src = viz.make_dot(t["loss"], params={k: t[k] for k in ("W", "b", "loss")}).source
    nodes, _ = parse(src)
    assert edge_titles(src) == TUTORIAL_EDGES
    assert sorted(title(nodes, k) for k in nodes) == sorted(
        ["loss: () float32", "MseLossBackward0", "ReluBackward0", "AddBackward0", "MmBackward0"]
        + ["AccumulateGrad", "AccumulateGrad", "W: (3, 2) float32", "b: (1, 2) float32"]
    )
    assert "(1, 3)" not in src  # constants (x, y) are not drawn
    assert box(src, "W: (3, 2) float32") == {
        "label": "W: (3, 2) float32\nis_leaf=True requires_grad=True\nretains_grad=False grad=None",
        "fillcolor": "lightblue",
        "style": "filled",
    }
    assert box(src, "loss: () float32")["fillcolor"] == "darkolivegreen1"
    assert box(src, "MmBackward0") == {"label": "MmBackward0"}


def test_unnamed_tensors_are_labelled_by_shape_and_dtype():
    t = tutorial()
    src = viz.make_dot(t["loss"]).source
    assert box(src, "(3, 2) float32")["fillcolor"] == "lightblue"
    assert box(src, "(1, 2) float32")["fillcolor"] == "lightblue"
    assert box(src, "() float32")["fillcolor"] == "darkolivegreen1"
    w = torch.ones(2, requires_grad=True)
    out = w.exp()
    src = viz.make_dot(out, params={"w": w, "out": out}, show_saved=True).source
    assert box(src, "(2,) float32") == {"label": "(2,) float32", "fillcolor": "orange"}


def test_named_intermediates_and_saved_tensors():
    t = tutorial()
    src = viz.make_dot(t["loss"], params=t, show_saved=True).source
    assert edge_titles(src, style="dashed") == NAMED_EDGES
    nodes, edges = parse(src)
    saved = {(title(nodes, a), title(nodes, b), e["label"]) for a, b, e in edges if "dir" in e}
    assert saved == {
        # x does not require grad: PyTorch saves W only for x's gradient, so not at all
        ("x: (1, 3) float32", "MmBackward0", "self"),
        ("ReluBackward0", "y_pred: (1, 2) float32", "result"),
        ("y_pred: (1, 2) float32", "MseLossBackward0", "self"),
        ("y: (1, 2) float32", "MseLossBackward0", "target"),
    }
    # Saved constants are orange; a saved leaf keeps its own blue box.
    assert box(src, "x: (1, 3) float32")["fillcolor"] == "orange"
    assert box(src, "y: (1, 2) float32")["fillcolor"] == "orange"
    assert box(src, "W: (3, 2) float32")["fillcolor"] == "lightblue"
    assert box(src, "z: (1, 2) float32")["fillcolor"] == "darkolivegreen3"
    assert "freed" not in src


def test_conversion_graph():
    # .double() stands in for .cuda(): both record ToCopyBackward0 over the leaf's AccumulateGrad.
    w = torch.ones(3, 2, requires_grad=True)
    wd = w.double()
    out = (wd * 2).sum()
    src = viz.make_dot(out, params={"w": w, "wd": wd}).source
    assert edge_titles(src) == Counter(
        [
            ("w: (3, 2) float32", "AccumulateGrad"),
            ("AccumulateGrad", "ToCopyBackward0"),
            ("ToCopyBackward0", "wd: (3, 2) float64"),
            ("ToCopyBackward0", "MulBackward0"),
            ("MulBackward0", "SumBackward0"),
            ("SumBackward0", "() float64"),
        ]
    )
    assert box(src, "wd: (3, 2) float64")["label"].split("\n")[1:] == [
        "is_leaf=False requires_grad=True",
        "retains_grad=False grad=None",
    ]


def test_retain_grad_after_backward_marks_populated_grads():
    t = retained()
    src = viz.make_dot(t["loss"], params=t).source
    for name in ("z: (1, 2) float32", "y_pred: (1, 2) float32", "loss: () float32"):
        assert box(src, name)["label"].endswith("retains_grad=True grad=populated")
        assert box(src, name)["style"] == "filled,bold"
    assert box(src, "W: (3, 2) float32")["style"] == "filled,bold"


def test_freed_graph_after_backward():
    t = retained()
    src = viz.make_dot(t["loss"], params=t, show_saved=True).source
    assert edge_titles(src) == TUTORIAL_EDGES + NAMED_EDGES
    for name in ("MseLossBackward0", "ReluBackward0", "MmBackward0"):
        freed = {"label": f"{name}\nsaved tensors: freed", "style": "filled,dashed"}
        assert box(src, name) == freed
    assert box(src, "AddBackward0") == {"label": "AddBackward0"}  # saved nothing: nothing freed
    assert "orange" not in src  # the saved tensors are gone
    assert "freed" not in viz.make_dot(t["loss"], params=t).source


def test_show_attrs():
    t = tutorial()
    src = viz.make_dot(t["loss"], show_attrs=True).source
    seq = t["z"].grad_fn.next_functions[0][0]._sequence_nr
    assert box(src, "MmBackward0")["label"] == f"MmBackward0\nsequence_nr={seq}\nsaved=self"
    nodes, _ = parse(src)
    acc = [a["label"] for a in nodes.values() if a["label"].startswith("AccumulateGrad")]
    assert acc == ["AccumulateGrad\nname=torch::autograd::AccumulateGrad"] * 2


def test_several_roots_a_leaf_root_and_quoting():
    a = torch.ones(2, requires_grad=True)
    src = viz.make_dot([a * 2, a + 1], params={'a "quoted"': a}).source
    assert edge_titles(src) == Counter(
        [
            ('a "quoted": (2,) float32', "AccumulateGrad"),
            ("AccumulateGrad", "MulBackward0"),
            ("AccumulateGrad", "AddBackward0"),
            ("MulBackward0", "(2,) float32"),
            ("AddBackward0", "(2,) float32"),
        ]
    )
    assert 'label="a \\"quoted\\": (2,) float32' in src
    (only,), edges = parse(viz.make_dot(a).source)[0].values(), parse(viz.make_dot(a).source)[1]
    assert only["fillcolor"] == "lightblue" and edges == []


def test_deep_graph_needs_no_recursion():
    out = torch.ones(1, requires_grad=True)
    for _ in range(3000):
        out = out * 1
    assert viz.make_dot(out).source.count("MulBackward0") == 3000
    assert viz.print_graph(out, file=io.StringIO()).count("MulBackward0") == 3000


# ---- print_graph ---------------------------------------------------------------------------


def test_print_graph_tutorial(capsys):
    t = tutorial()
    text = viz.print_graph(t["loss"], params=t, show_saved=True)
    assert capsys.readouterr().out == text + "\n"
    assert text.split("\n") == [
        f"loss: () float32 {flags(False)}",
        "`- MseLossBackward0 [saved: self=y_pred, target=y]",
        f"   `- ReluBackward0 -> y_pred: (1, 2) float32 {flags(False)} [saved: result=y_pred]",
        f"      `- AddBackward0 -> z: (1, 2) float32 {flags(False)}",
        "         +- MmBackward0 [saved: self=x]",
        f"         |  `- AccumulateGrad <- W: (3, 2) float32 {flags(True)}",
        f"         `- AccumulateGrad <- b: (1, 2) float32 {flags(True)}",
    ]


def test_print_graph_after_backward_and_shared_nodes():
    t = retained()
    text = viz.print_graph(t["loss"], show_saved=True, file=io.StringIO())
    assert "`- MseLossBackward0 [saved tensors: freed]" in text
    assert "AddBackward0\n" in text  # nothing saved: no mark
    assert text.count("grad=populated") == 3  # loss, W, b (z, y_pred are not named here)
    w = torch.ones(2, requires_grad=True)
    u = w * 2
    assert viz.print_graph(u + u, file=io.StringIO()).split("\n")[1:] == [
        "`- AddBackward0",
        "   +- MulBackward0",
        f"   |  `- AccumulateGrad <- (2,) float32 {flags(True)}",
        "   `- MulBackward0 (see above)",
    ]


# ---- rendering -----------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")
def test_render_svg_and_png(tmp_path):
    g = viz.make_dot(tutorial()["loss"], show_saved=True)
    svg = g.render(str(tmp_path / "graph.svg"))
    assert svg.endswith("graph.svg") and "<svg" in Path(svg).read_text()
    png = g.render(str(tmp_path / "graph"), format="png")
    assert png.endswith("graph.png") and Path(png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "MseLossBackward0" in g._repr_svg_()


def test_render_without_graphviz_names_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(viz.shutil, "which", lambda name: None)
    g = viz.make_dot(tutorial()["loss"])
    for call in (lambda: g.render(str(tmp_path / "g.svg")), g._repr_svg_):
        with pytest.raises(RuntimeError, match=r"apt-get install graphviz.*graph\.source"):
            call()
    assert Path(g.save(str(tmp_path / "g.dot"))).read_text() == g.source


def test_package_exposes_viz_and_explain():
    assert torch.viz is viz
    assert torch.explain is explain


# ---- explain: the rows of the tutorial's summary table -------------------------------------


def test_row_leaf_without_requires_grad():
    x = tutorial()["x"]
    text = flat(explain(x))
    assert text.startswith("x: (1, 3) float32, is_leaf=True, requires_grad=False, retains_grad=F")
    assert "a tensor that does not require grad is always a leaf" in text
    assert "stays None: requires_grad is False" in text and "x.requires_grad_()" in text


def test_row_leaf_with_requires_grad():
    W = retained()["W"]
    text = explain(W)
    assert text.split("\n")[0] == (
        "W: (3, 2) float32, is_leaf=True, requires_grad=True, retains_grad=False, grad=populated"
    )
    text = flat(text)
    assert "backward() stores the gradient here: W is a leaf that requires grad" in text
    assert "made by" not in text


def test_row_non_leaf_without_retain_grad():
    t = tutorial()
    assert explain(t["z"], names=t) == (
        "z: (1, 2) float32, is_leaf=False, requires_grad=True, retains_grad=False, grad=None\n"
        "  leaf:    no: it was made by AddBackward0, an operation with at least one input that\n"
        "           requires grad, so autograd recorded it in the graph.\n"
        "  made by: z = AddBackward0(MmBackward0(x, W), b)\n"
        "  .grad:   stays None: z is not a leaf and does not retain its gradient. Autograd computes\n"
        "           it on the way to the leaves, then drops it.\n"
        "           Fix: call z.retain_grad() before backward()."
    )


def test_row_non_leaf_with_retain_grad():
    t = retained()
    text = flat(explain(t["y_pred"], names=t))
    assert "is_leaf=False, requires_grad=True, retains_grad=True, grad=populated" in text
    assert "because retain_grad() was called on y_pred" in text


def test_made_by_chain_stops_at_named_intermediates():
    t = tutorial()
    assert (
        "  made by: loss = MseLossBackward0(y_pred, y)\n"
        "           y_pred = ReluBackward0(z)\n"
        "           z = AddBackward0(MmBackward0(x, W), b)\n"
    ) in explain(t["loss"], names=t)
    # Without names, leaves read as shape and dtype and constants as `const`.
    text = flat(explain(t["loss"], names={}))
    assert text.startswith("tensor: () float32")
    assert "MseLossBackward0(ReluBackward0(AddBackward0(MmBackward0(const, <(3, 2) float32>)," in text
    assert "Fix: call .retain_grad() before backward()" in text


def test_names_come_from_the_callers_variables():
    x = torch.ones(1, 3)
    weight = torch.ones(3, 2, requires_grad=True)
    hidden = x @ weight
    assert "hidden = MmBackward0(x, weight)" in flat(explain(hidden))


# ---- explain: each reason a .grad stays None -----------------------------------------------


def test_conversion_from_a_leaf():
    w = torch.ones(3, 2, requires_grad=True)
    wd = w.double()  # stands in for w.cuda()
    text = flat(explain(wd, names={"w": w, "wd": wd}))
    assert "stays None: wd is a converted copy (ToCopyBackward0: .to(), .cuda()" in text
    assert "backward() stores the gradient in w.grad instead" in text
    assert "torch.randn(3, 2, dtype=torch.float64, requires_grad=True)" in text
    assert "wd.retain_grad()" in text
    # The everyday mistake: the leaf has no name, so say how to reach it.
    lost = torch.ones(3, 2, requires_grad=True).double()
    text = flat(explain(lost, names={"lost": lost}))
    assert "lost.grad_fn.next_functions[0][0].variable" in text
    (lost * 1).sum().backward()
    assert lost.grad_fn.next_functions[0][0].variable.grad is not None


@pytest.mark.parametrize("how", ["detach", "data", "detach_"])
def test_detached(how):
    w = torch.ones(2, requires_grad=True)
    if how == "detach_":
        d = w * 1
        d.detach_()
    else:
        d = w.detach() if how == "detach" else w.data
    text = flat(explain(d, names={"d": d}))
    method = {"detach": ".detach()", "data": ".data", "detach_": ".detach_()"}[how]
    assert f"yes: it was made by {method}" in text
    assert "stays None: requires_grad is False because d was detached from the graph" in text
    # A detached copy made to require grad again is an ordinary leaf.
    again = w.detach().requires_grad_()
    assert "backward() stores the gradient here" in flat(explain(again))


def test_created_under_no_grad():
    w = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        n = w * 2
    text = flat(explain(n, names={"n": n}))
    assert "made while grad mode was off" in text
    assert "because n was made under torch.no_grad()" in text


def test_inference_tensor():
    with torch.inference_mode():
        i = torch.ones(2)
    text = flat(explain(i, names={"i": i}))
    assert "stays None: i is an inference tensor" in text
    assert "torch.no_grad() instead of torch.inference_mode()" in text


def test_graph_freed_by_earlier_backward():
    t = tutorial()
    loss = t["loss"]
    assert "graph:" not in explain(loss, names=t)
    loss.backward()
    text = flat(explain(loss, names=t))
    assert "graph: freed by an earlier backward() (saved tensors of MseLossBackward0," in text
    assert "retain_graph=True" in text
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        loss.backward()


def test_saved_tensor_modified_in_place():
    w = torch.ones(2, requires_grad=True)
    c = w * 1
    d = c * c
    assert "graph:" not in explain(d)
    c.mul_(2)
    text = flat(explain(d))
    assert "backward() will fail: c, saved by MulBackward0 as 'other' and 'self', was" in text
    assert text.count("graph:") == 1
    with pytest.raises(RuntimeError, match=INPLACE_ERROR):
        d.sum().backward()


def test_modified_before_saving_is_not_a_problem():
    w = torch.ones(2, requires_grad=True)
    h = w * 1
    h.mul_(2)  # before h * h saves it: backward is fine, and explain must not cry wolf
    out = h * h
    assert "graph:" not in explain(out)
    out.sum().backward()


@pytest.mark.skipif(
    not hasattr(torch._core.Node, "_lg_saved_versions"),
    reason="needs the core to expose the versions tensors were saved at",
)
def test_saved_constant_modified_in_place_with_versions():
    w = torch.ones(2, requires_grad=True)
    x = torch.ones(2)
    out = w * x
    assert "graph:" not in explain(out)
    x.add_(1)
    assert (
        "x, saved by MulBackward0 as 'other', was modified in place after it was saved "
        "(version 0 -> 1)"
    ) in flat(explain(out))


def test_explain_and_viz_never_warn():
    t = retained()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for v in t.values():
            explain(v, names=t)
        viz.make_dot(t["loss"], params=t, show_saved=True)
        viz.print_graph(t["loss"], params=t, file=io.StringIO())


def test_made_at_from_anomaly_mode():
    """Nodes made under detect_anomaly carry the forward call's stack (PyTorch's
    grad_fn.metadata['traceback_']); explain() says where they were made."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly():
            x = torch.ones(2, requires_grad=True)
            y = x.exp()
            z = (y * 2).sum()
            y.add_(1)
    frames = z.grad_fn.metadata["traceback_"]
    assert isinstance(frames, list) and frames[-1].startswith('  File "') and "z = (y * 2).sum()" in frames[-1]
    text = flat(explain(z, {"x": x, "y": y, "z": z}))
    here = Path(__file__).name
    assert re.search(rf"made at: \S*{re.escape(here)}:\d+, in test_made_at_from_anomaly_mode: z = \(y \* 2\)\.sum\(\)", text)
    assert re.search(r"\(the ExpBackward0 made at \S*:\d+, in test_made_at_from_anomaly_mode: y = x\.exp\(\)\)", text)
    # outside anomaly mode nothing is recorded
    w = (x * 3).sum()
    assert w.grad_fn.metadata == {} and "made at" not in explain(w, {"x": x, "w": w})
