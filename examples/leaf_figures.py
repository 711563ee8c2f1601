"""The two figures of the tutorial "Understanding requires_grad, retain_grad, Leaf, and Non-leaf
Tensors" (../shared/seeds/000), drawn by leafgrad.viz instead of by hand, and leafgrad.explain
of every tensor in them.

Writes docs/leaf_graph_forward.{dot,svg} (the graph after the forward pass) and
docs/leaf_graph_backward.{dot,svg} (after backward with retain_grad). The DOT text is always
written; the SVG only where Graphviz's `dot` program is installed.
"""
import os
import shutil

import leafgrad as torch
import leafgrad.nn.functional as F
from leafgrad.explain import explain
from leafgrad.viz import make_dot, print_graph

DOCS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs")


def draw(tensors, stem):
    """Save the graph behind `loss` as DOT (and SVG when Graphviz is there)."""
    # show_saved draws x and y too: they take part only as tensors saved by MmBackward0 and
    # MseLossBackward0 (after backward, those saved tensors are freed and the nodes say so).
    graph = make_dot(tensors["loss"], params=tensors, show_saved=True)
    os.makedirs(DOCS, exist_ok=True)
    written = [graph.save(os.path.join(DOCS, stem + ".dot"))]
    if shutil.which("dot"):
        written.append(graph.render(os.path.join(DOCS, stem + ".svg")))
    print("wrote " + ", ".join(os.path.relpath(p) for p in written))


def report(tensors, title):
    print(f"\n===== {title} =====\n")
    print_graph(tensors["loss"], params=tensors, show_saved=True)
    for t in tensors.values():
        print()
        print(explain(t, names=tensors))


# tensor setup
x = torch.ones(1, 3)                      # input with shape: (1, 3)
W = torch.ones(3, 2, requires_grad=True)  # weights with shape: (3, 2)
b = torch.ones(1, 2, requires_grad=True)  # bias with shape: (1, 2)
y = torch.ones(1, 2)                      # output with shape: (1, 2)

# forward pass
z = (x @ W) + b                           # pre-activation with shape: (1, 2)
y_pred = F.relu(z)                        # activation with shape: (1, 2)
loss = F.mse_loss(y_pred, y)              # scalar loss

tensors = {"x": x, "W": W, "b": b, "y": y, "z": z, "y_pred": y_pred, "loss": loss}
draw(tensors, "leaf_graph_forward")
report(tensors, "after the forward pass")

# The tutorial's second half: the forward pass again, retain_grad, then backward.
z = (x @ W) + b
y_pred = F.relu(z)
loss = F.mse_loss(y_pred, y)
z.retain_grad()
y_pred.retain_grad()
loss.retain_grad()
loss.backward()

tensors = {"x": x, "W": W, "b": b, "y": y, "z": z, "y_pred": y_pred, "loss": loss}
draw(tensors, "leaf_graph_backward")
report(tensors, "after backward, with retain_grad on z, y_pred and loss")
