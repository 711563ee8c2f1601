"""The code examples of the seed documents (shared/seeds/*.txt), checked by what they print.

Adaptations, as in the conformance cases: `.cuda()` becomes another conversion op
(`.double()`), `device='cuda'` at creation becomes `dtype=torch.float64` at creation (still a
leaf), random data becomes fixed data. Outputs printed by old torch versions in the seeds
(`CopyBackwards`, `AddmmBackward`, `L1LossBackward`) are replaced by what current PyTorch
prints (SPEC §10/§12). Skipped: the forum's nn.Conv2d example (seed 003) and `nn.Module.eval()`
(seed 004), which need nn pieces beyond Linear/Parameter/functional.
"""

import re

import leafgrad as torch
import leafgrad.nn.functional as F
import pytest
from leafgrad import nn
from support import NO_GRAD_FN, nonleaf_warnings, record_warnings

ADDR = re.compile(r" at 0x[0-9a-fA-F]+")


def out_of(capsys):
    return ADDR.sub(" at 0xADDR", capsys.readouterr().out)


def lines(*ls):
    return "\n".join(ls) + "\n"


# --------------------------------------------------------------------------------------------
# 000: "Understanding requires_grad, retain_grad, Leaf, and Non-leaf Tensors" (tutorial)
# --------------------------------------------------------------------------------------------


def tutorial_forward(requires_grad=True):
    x = torch.ones(1, 3)
    W = torch.ones(3, 2, requires_grad=requires_grad)
    b = torch.ones(1, 2, requires_grad=requires_grad)
    y = torch.ones(1, 2)
    z = (x @ W) + b
    y_pred = F.relu(z)
    loss = F.mse_loss(y_pred, y)
    return x, W, b, y, z, y_pred, loss


def test_tutorial_is_leaf(capsys):
    x, _W, _b, _y, z, _y_pred, _loss = tutorial_forward()
    print(f"{x.is_leaf=}")
    print(f"{z.is_leaf=}")
    assert out_of(capsys) == lines("x.is_leaf=True", "z.is_leaf=False")


def test_tutorial_backward_without_requires_grad(capsys):
    *_, loss = tutorial_forward(requires_grad=False)
    try:
        loss.backward()
    except RuntimeError as e:
        print(f"RuntimeError: {e}")
    assert out_of(capsys) == lines("RuntimeError: " + NO_GRAD_FN)


def test_tutorial_requires_grad(capsys):
    x, W, _b, _y, z, _y_pred, _loss = tutorial_forward()
    print(f"{x.requires_grad=}")
    print(f"{W.requires_grad=}")
    print(f"{z.requires_grad=}")
    assert out_of(capsys) == lines(
        "x.requires_grad=False", "W.requires_grad=True", "z.requires_grad=True"
    )


def test_tutorial_grads_after_backward(capsys):
    x, W, b, y, z, _y_pred, loss = tutorial_forward()
    loss.backward()
    print(f"{W.grad=}")
    print(f"{b.grad=}")
    print(f"{x.grad=}")
    print(f"{y.grad=}")
    with record_warnings() as caught:
        print(f"{z.grad=}")
    assert len(nonleaf_warnings(caught)) == 1
    assert out_of(capsys) == lines(
        "W.grad=tensor([[3., 3.],",
        "        [3., 3.],",
        "        [3., 3.]])",
        "b.grad=tensor([[3., 3.]])",
        "x.grad=None",
        "y.grad=None",
        "z.grad=None",
    )


def test_tutorial_retain_grad(capsys):
    x, W, b, y, z, y_pred, loss = tutorial_forward()
    loss.backward()
    # we have to re-run the forward pass
    z = (x @ W) + b
    y_pred = F.relu(z)
    loss = F.mse_loss(y_pred, y)
    z.retain_grad()
    y_pred.retain_grad()
    loss.retain_grad()
    W.grad = None
    b.grad = None
    loss.backward()
    with record_warnings() as caught:
        print(f"{W.grad=}")
        print(f"{b.grad=}")
        print(f"{z.grad=}")
        print(f"{y_pred.grad=}")
        print(f"{loss.grad=}")
    assert caught == []
    assert out_of(capsys) == lines(
        "W.grad=tensor([[3., 3.],",
        "        [3., 3.],",
        "        [3., 3.]])",
        "b.grad=tensor([[3., 3.]])",
        "z.grad=tensor([[3., 3.]])",
        "y_pred.grad=tensor([[3., 3.]])",
        "loss.grad=tensor(1.)",
    )
    assert [t.retains_grad for t in (x, W, b, z, y_pred, loss)] == [
        False,
        False,
        False,
        True,
        True,
        True,
    ]


def test_tutorial_retain_grad_on_input_fails(capsys):
    x, *_ = tutorial_forward()
    try:
        x.retain_grad()
    except RuntimeError as e:
        print(f"RuntimeError: {e}")
    assert out_of(capsys) == lines(
        "RuntimeError: can't retain_grad on Tensor that has requires_grad=False"
    )


def test_tutorial_summary_table(capsys):
    def state(t):
        return (t.is_leaf, t.requires_grad, t.retains_grad)

    def try_call(fn):
        try:
            fn()
            return "ok"
        except RuntimeError:
            return "error"

    # is_leaf=True, requires_grad=False: requires_grad_() sets the flag; retain_grad() cannot apply
    a = torch.ones(2)
    print(
        state(a),
        try_call(a.retain_grad),
        try_call(lambda: a.requires_grad_(True)),
        state(a),
    )
    print(try_call(lambda: a.requires_grad_(False)), state(a))
    # is_leaf=True, requires_grad=True: retain_grad() is a no-op
    p = torch.ones(2, requires_grad=True)
    print(state(p), try_call(p.retain_grad), state(p))
    # non-leaf: requires_grad_() is a no-op, retain_grad() sets retains_grad
    n = p * 2
    print(
        state(n),
        try_call(lambda: n.requires_grad_(True)),
        try_call(n.retain_grad),
        state(n),
    )
    print(try_call(n.retain_grad), state(n))
    assert out_of(capsys) == lines(
        "(True, False, False) error ok (True, True, False)",
        "ok (True, False, False)",
        "(True, True, False) ok (True, True, False)",
        "(False, True, False) ok ok (False, True, True)",
        "ok (False, True, True)",
    )


# --------------------------------------------------------------------------------------------
# 001: "PyTorch Leaf Tensor" blog — four categories (requires grad x user created)
# --------------------------------------------------------------------------------------------


def test_blog_leaf_categories(capsys):
    variable_tensor_cpu = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    variable_tensor_copy = variable_tensor_cpu.double()  # the blog's .cuda()
    constant_tensor = torch.tensor([4.0, 5.0, 6.0], dtype=torch.float64)
    constant_result = constant_tensor * 2
    loss = (variable_tensor_copy * constant_result).sum()
    loss.backward()
    rows = [
        (variable_tensor_cpu, True),
        (variable_tensor_copy, False),
        (constant_tensor, True),
        (constant_result, False),
    ]
    print("Requires Grad | User Created | Is Leaf | Grad Populated")
    with record_warnings() as caught:
        for t, user_created in rows:
            print(
                t.requires_grad,
                "|",
                user_created,
                "|",
                t.is_leaf,
                "|",
                t.grad is not None,
            )
        print(variable_tensor_cpu.grad)
        print(variable_tensor_copy.grad)
    assert len(nonleaf_warnings(caught)) == 2
    assert out_of(capsys) == lines(
        "Requires Grad | User Created | Is Leaf | Grad Populated",
        "True | True | True | True",
        "True | False | False | False",
        "False | True | True | False",
        "False | False | True | False",
        "tensor([ 8., 10., 12.])",
        "None",
    )


# --------------------------------------------------------------------------------------------
# 002: dev.to "requires_grad=True with a tensor, backward() and retain_grad()"
# --------------------------------------------------------------------------------------------


def test_devto_one_tensor_backward(capsys):
    my_tensor = torch.tensor(data=7.0, requires_grad=True)
    print((my_tensor, my_tensor.grad, my_tensor.is_leaf))
    for _ in range(3):
        my_tensor.backward()
        print((my_tensor, my_tensor.grad, my_tensor.is_leaf))
    assert out_of(capsys) == lines(
        "(tensor(7., requires_grad=True), None, True)",
        "(tensor(7., requires_grad=True), tensor(1.), True)",
        "(tensor(7., requires_grad=True), tensor(2.), True)",
        "(tensor(7., requires_grad=True), tensor(3.), True)",
    )


def test_devto_three_tensors_retain_graph(capsys):
    tensor1 = torch.tensor(data=7.0, requires_grad=True)
    show = lambda t: print((t, t.grad, t.is_leaf))
    show(tensor1)
    tensor1.backward()
    show(tensor1)
    tensor2 = tensor1 * 4
    tensor2.retain_grad()
    show(tensor1)
    show(tensor2)
    tensor2.backward(retain_graph=True)
    show(tensor1)
    show(tensor2)
    tensor3 = tensor2 * 5
    tensor3.retain_grad()
    show(tensor1)
    show(tensor2)
    show(tensor3)
    tensor3.backward()
    show(tensor1)
    show(tensor2)
    show(tensor3)
    assert out_of(capsys) == lines(
        "(tensor(7., requires_grad=True), None, True)",
        "(tensor(7., requires_grad=True), tensor(1.), True)",
        "(tensor(7., requires_grad=True), tensor(1.), True)",
        "(tensor(28., grad_fn=<MulBackward0>), None, False)",
        "(tensor(7., requires_grad=True), tensor(5.), True)",
        "(tensor(28., grad_fn=<MulBackward0>), tensor(1.), False)",
        "(tensor(7., requires_grad=True), tensor(5.), True)",
        "(tensor(28., grad_fn=<MulBackward0>), tensor(1.), False)",
        "(tensor(140., grad_fn=<MulBackward0>), None, False)",
        "(tensor(7., requires_grad=True), tensor(25.), True)",
        "(tensor(28., grad_fn=<MulBackward0>), tensor(6.), False)",
        "(tensor(140., grad_fn=<MulBackward0>), tensor(1.), False)",
    )


def test_devto_detach_and_requires_grad(capsys):
    show = lambda t: print((t, t.grad, t.is_leaf))
    tensor1 = torch.tensor(data=7.0, requires_grad=True)
    show(tensor1)
    tensor1.backward()
    show(tensor1)
    tensor2 = tensor1 * 4
    tensor2.retain_grad()
    show(tensor1)
    show(tensor2)
    tensor2.backward()
    show(tensor1)
    show(tensor2)
    tensor3 = tensor2 * 5
    tensor3 = tensor3.detach_().requires_grad_(requires_grad=True)
    tensor3.retain_grad()
    show(tensor1)
    show(tensor2)
    show(tensor3)
    tensor3.backward()
    show(tensor1)
    show(tensor2)
    show(tensor3)
    assert out_of(capsys) == lines(
        "(tensor(7., requires_grad=True), None, True)",
        "(tensor(7., requires_grad=True), tensor(1.), True)",
        "(tensor(7., requires_grad=True), tensor(1.), True)",
        "(tensor(28., grad_fn=<MulBackward0>), None, False)",
        "(tensor(7., requires_grad=True), tensor(5.), True)",
        "(tensor(28., grad_fn=<MulBackward0>), tensor(1.), False)",
        "(tensor(7., requires_grad=True), tensor(5.), True)",
        "(tensor(28., grad_fn=<MulBackward0>), tensor(1.), False)",
        "(tensor(140., requires_grad=True), None, True)",
        "(tensor(7., requires_grad=True), tensor(5.), True)",
        "(tensor(28., grad_fn=<MulBackward0>), tensor(1.), False)",
        "(tensor(140., requires_grad=True), tensor(1.), True)",
    )


@pytest.mark.parametrize(
    "value, grad, shown, grad_shown",
    [(7.0, 4.0, "7.", "4."), (7.0 + 0j, 4.0 + 0j, "7.+0.j", "4.+0.j")],
    ids=["float", "complex"],
)
def test_devto_manual_grad(capsys, value, grad, shown, grad_shown):
    for rg in (True, False):
        my_tensor = torch.tensor(data=value, requires_grad=rg)
        print((my_tensor, my_tensor.grad, my_tensor.is_leaf))
        my_tensor.grad = torch.tensor(data=grad)
        print((my_tensor, my_tensor.grad, my_tensor.is_leaf))
    suffix = ", requires_grad=True"
    assert out_of(capsys) == lines(
        f"(tensor({shown}{suffix}), None, True)",
        f"(tensor({shown}{suffix}), tensor({grad_shown}), True)",
        f"(tensor({shown}), None, True)",
        f"(tensor({shown}), tensor({grad_shown}), True)",
    )


# --------------------------------------------------------------------------------------------
# 003: forum thread on is_leaf
# --------------------------------------------------------------------------------------------


def test_forum_conversion_makes_non_leaf(capsys):
    b = torch.ones(10, requires_grad=True).double()  # .cuda() in the thread
    print(b.is_leaf)
    f = torch.ones(
        10, requires_grad=True, dtype=torch.float64
    )  # device="cuda" at creation
    print(f.is_leaf)
    assert out_of(capsys) == lines("False", "True")


A_DATA = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
B_DATA = [[1.0, 0.0, 2.0], [0.5, 1.0, 0.0]]
A_GRAD = [
    "tensor([[-3.0000, -1.5000],",
    "        [-3.0000, -1.5000],",
    "        [-3.0000, -1.5000]]",
]


def test_forum_scenario_1(capsys):
    a = torch.tensor(A_DATA, requires_grad=True)
    b = torch.tensor(B_DATA)
    loss = 10 - (a @ b).sum()
    loss.backward()
    print(a.grad)
    print(b.grad)
    assert out_of(capsys) == lines(*A_GRAD[:2], A_GRAD[2] + ")", "None")


def test_forum_scenario_2(capsys):
    a = torch.tensor(A_DATA, requires_grad=True).double()
    b = torch.tensor(B_DATA).double()
    loss = 10 - (a @ b).sum()
    loss.backward()
    with record_warnings() as caught:
        print(a.grad)
        print(b.grad)
    assert len(nonleaf_warnings(caught)) == 1
    assert out_of(capsys) == lines("None", "None")


def test_forum_scenario_3_module_conversion_keeps_leaves(capsys):
    ll = nn.Linear(3, 3).double()
    inp = torch.tensor([1.0, 2.0, 3.0]).double()
    loss = (10 - ll(inp)).sum()
    loss.backward()
    print(ll.weight.grad)
    print(ll.weight.is_leaf, type(ll.weight).__name__)
    assert out_of(capsys) == lines(
        "tensor([[-1., -2., -3.],",
        "        [-1., -2., -3.],",
        "        [-1., -2., -3.]], dtype=torch.float64)",
        "True Parameter",
    )


def test_forum_created_in_target_dtype_is_leaf(capsys):
    a = torch.tensor(A_DATA, requires_grad=True, dtype=torch.float64)
    b = torch.tensor(B_DATA).double()
    loss = 10 - (a @ b).sum()
    loss.backward()
    print(a.is_leaf)
    print(a.grad)
    assert out_of(capsys) == lines(
        "True", *A_GRAD[:2], A_GRAD[2] + ", dtype=torch.float64)"
    )


def test_forum_mm_is_leaf(capsys):
    a = torch.ones(2, 4)
    b = torch.arange(8.0).reshape(4, 2)
    c = a.mm(b)
    print(tuple(t.is_leaf for t in (a, b, c)))
    a = torch.ones(2, 4).requires_grad_()
    c = a.mm(b)
    print(tuple(t.is_leaf for t in (a, b, c)))
    assert out_of(capsys) == lines("(True, True, True)", "(True, True, False)")


def test_forum_flags_report(capsys):
    x = torch.tensor(1.0, requires_grad=True)
    y = torch.tensor(2.0)
    z = x * y
    w = torch.tensor(3.0).requires_grad_(False)
    o = z * w
    o.backward()
    with record_warnings() as caught:
        for i, name in zip([x, y, z, w], "xyzw"):
            print(
                f"{name}\ndata: {i.data}\nrequires_grad: {i.requires_grad}\ngrad: {i.grad}\n"
                f"grad_fn: {i.grad_fn}\nis_leaf: {i.is_leaf}\n"
            )
    assert len(nonleaf_warnings(caught)) == 1
    block = "{}\ndata: {}\nrequires_grad: {}\ngrad: {}\ngrad_fn: {}\nis_leaf: {}\n\n"
    assert out_of(capsys) == (
        block.format("x", "1.0", True, "6.0", None, True)
        + block.format("y", "2.0", False, None, None, True)
        + block.format("z", "2.0", True, None, "<MulBackward0 object at 0xADDR>", False)
        + block.format("w", "3.0", False, None, None, True)
    )
