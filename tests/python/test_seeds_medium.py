"""Seed 004 (blog notes on is_leaf / requires_grad / grad_fn / grad), checked by what it prints.

Companion of test_seeds.py (same adaptations): `torch.rand` becomes fixed data, `.cuda()`
becomes `.double()`, `device='cuda'` at creation becomes `dtype=torch.float64`; the blog's
`nn.L1Loss` module is written as `F.l1_loss` (same graph: MeanBackward0). Outputs are what current
PyTorch prints (the blog shows old names such as `AddmmBackward`, `L1LossBackward`,
`CopyBackwards`). `nn.Module.eval()` is skipped (nn beyond Linear/Parameter).
"""

import re

import leafgrad as torch
import leafgrad.nn.functional as F
from leafgrad import nn
from support import nonleaf_warnings, record_warnings

ADDR = re.compile(r" at 0x[0-9a-fA-F]+")
LONG_RG = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)


def out_of(capsys):
    return ADDR.sub(" at 0xADDR", capsys.readouterr().out)


def lines(*ls):
    return "\n".join(ls) + "\n"


def check(x):
    print(
        f"is_leaf: {x.is_leaf}, requires_grad: {x.requires_grad}, grad_fn: {x.grad_fn}, grad: {x.grad}"
    )


def row(leaf, rg, fn, grad):
    return f"is_leaf: {leaf}, requires_grad: {rg}, grad_fn: {fn}, grad: {grad}"


def test_non_leaf_requires_grad_cannot_be_changed(capsys):
    x = torch.ones(1, 3)
    y = nn.Linear(3, 5)(x)
    try:
        y.requires_grad = False
    except RuntimeError as e:
        print(f"RuntimeError: {e}")
    assert out_of(capsys) == lines("RuntimeError: " + LONG_RG)


def test_setting_requires_grad_and_parameters(capsys):
    x = torch.ones(3, requires_grad=True)
    x.requires_grad = True
    print(x.requires_grad_(True) is x)
    check(nn.Parameter(torch.ones(3)))
    check(nn.Linear(3, 5).weight)
    assert out_of(capsys) == lines(
        "True", row(True, True, None, None), row(True, True, None, None)
    )


def test_simple_operations(capsys):
    with record_warnings() as caught:
        check(torch.ones(3))
        check(torch.ones(3, requires_grad=True))
        check(torch.ones(3, requires_grad=True) + 1)
        check(torch.ones(3, requires_grad=True).double())
        check(torch.ones(3) + 1)
        check(torch.ones(3).double())
    assert len(nonleaf_warnings(caught)) == 2
    assert out_of(capsys) == lines(
        row(True, False, None, None),
        row(True, True, None, None),
        row(False, True, "<AddBackward0 object at 0xADDR>", None),
        row(False, True, "<ToCopyBackward0 object at 0xADDR>", None),
        row(True, False, None, None),
        row(True, False, None, None),
    )


def test_module_example(capsys):
    check(torch.ones(3, requires_grad=True, dtype=torch.float64))
    lin = nn.Linear(3, 5)
    with torch.no_grad():
        lin.weight.copy_(torch.arange(15.0).reshape(5, 3) / 4)
        lin.bias.fill_(0.5)
    check(lin.weight)
    x = torch.ones(1, 3)
    y = lin(x)
    gt = torch.zeros(1, 5)
    l = F.l1_loss(y, gt)
    with record_warnings() as caught:
        check(y)
        check(l)
    assert len(nonleaf_warnings(caught)) == 2
    l.backward()
    check(lin.weight)
    check(x)
    check(gt)
    grad = "\n".join(
        ("tensor([[" if i == 0 else "        [")
        + "0.2000, 0.2000, 0.2000]"
        + ("])" if i == 4 else ",")
        for i in range(5)
    )
    assert out_of(capsys) == lines(
        row(True, True, None, None),
        row(True, True, None, None),
        row(False, True, "<AddmmBackward0 object at 0xADDR>", None),
        row(False, True, "<MeanBackward0 object at 0xADDR>", None),
        row(True, True, None, grad),
        row(True, False, None, None),
        row(True, False, None, None),
    )


def test_detach_clone_and_grad_modes(capsys):
    x = torch.ones(3, requires_grad=True)
    print(
        x.detach().is_leaf,
        x.detach().requires_grad,
        x.clone().is_leaf,
        x.clone().requires_grad,
    )

    @torch.no_grad()
    def func(t):
        return t * 2

    print(func(x).requires_grad)
    with torch.no_grad(), torch.enable_grad():
        print((x * 2).requires_grad)
    with torch.set_grad_enabled(False):
        print((x * 2).requires_grad)
    with torch.set_grad_enabled(True):
        print((x * 2).requires_grad)
    y = x * 2
    y.retain_grad()
    print(y.retains_grad, x.retains_grad)
    assert out_of(capsys) == lines(
        "True False False True", "False", "True", "False", "True", "True False"
    )


def test_autograd_grad_normals(capsys):
    inp = torch.tensor([[1.0, 2.0, 2.0], [0.5, 0.5, 1.0]], requires_grad=True)
    with torch.set_grad_enabled(True):
        sigma = (inp * inp).sum(-1)  # stands in for self.backbone(input)
        normal = -torch.autograd.grad(torch.sum(sigma), inp, create_graph=True)[0]
    print(sigma)
    print(normal)
    print(inp.grad)
    assert out_of(capsys) == lines(
        "tensor([9.0000, 1.5000], grad_fn=<SumBackward1>)",
        "tensor([[-2., -4., -4.],",
        "        [-1., -1., -2.]], grad_fn=<NegBackward0>)",
        "None",
    )


def test_backward_on_leaf_without_grad_fn(capsys):
    try:
        torch.ones(3).sum().backward()
    except RuntimeError as e:
        print(f"RuntimeError: {e}")
    assert out_of(capsys) == lines(
        "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn"
    )
