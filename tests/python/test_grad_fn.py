"""SPEC §12: grad_fn introspection and node names."""

import re
from types import SimpleNamespace

import leafgrad as torch
import leafgrad.nn.functional as F
import pytest
from leafgrad import nn

ACC = "torch::autograd::AccumulateGrad"


def leaf():
    return torch.tensor([1.0, 2.0], requires_grad=True)


def test_grad_fn_repr_type_and_name():
    y = leaf() * 2
    assert re.fullmatch(r"<MulBackward0 object at 0x[0-9a-f]+>", repr(y.grad_fn))
    assert type(y.grad_fn).__name__ == "MulBackward0"
    assert y.grad_fn.name() == "MulBackward0"


def test_grad_fn_is_the_same_object_on_every_access():
    y = leaf() * 2
    assert y.grad_fn is y.grad_fn


def test_leaves_have_no_grad_fn():
    x = leaf()
    assert x.grad_fn is None
    assert torch.tensor([1.0]).grad_fn is None


def test_next_functions_of_binary_op_with_two_leaves():
    x = leaf()
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    nf = (x * w).grad_fn.next_functions
    assert isinstance(nf, tuple) and len(nf) == 2
    assert [type(n).__name__ for n, _ in nf] == ["AccumulateGrad", "AccumulateGrad"]
    assert [i for _, i in nf] == [0, 0]
    assert nf[0][0].variable is x and nf[1][0].variable is w


@pytest.mark.parametrize(
    "other", [lambda: 2, lambda: torch.tensor([3.0, 4.0])], ids=["scalar", "constant"]
)
def test_next_functions_with_non_requiring_operand(other):
    x = leaf()
    nf = (x * other()).grad_fn.next_functions
    assert len(nf) == 2
    assert type(nf[0][0]).__name__ == "AccumulateGrad" and nf[0][1] == 0
    assert nf[1] == (None, 0)


@pytest.mark.parametrize(
    "op",
    [
        lambda x: -x,
        lambda x: x**2,
        lambda x: x.exp(),
        lambda x: x.sum(),
        lambda x: x.view(2, 1),
    ],
    ids=["neg", "pow_scalar", "exp", "sum", "view"],
)
def test_unary_ops_have_one_next_function(op):
    x = leaf()
    nf = op(x).grad_fn.next_functions
    assert len(nf) == 1
    assert nf[0][0].variable is x


def test_next_functions_point_at_non_leaf_grad_fn():
    x = leaf()
    y = x * 2
    z = y.exp()
    ((node, idx),) = z.grad_fn.next_functions
    assert node is y.grad_fn and idx == 0


def test_multi_output_op_shares_one_node():
    x = leaf()
    s1, s2 = (x * 1).split(1)
    nf = (s1 * s2).grad_fn.next_functions
    assert [type(n).__name__ for n, _ in nf] == ["SplitBackward0", "SplitBackward0"]
    assert [i for _, i in nf] == [0, 1]
    assert nf[0][0] is nf[1][0]
    assert s1.output_nr == 0 and s2.output_nr == 1


def test_accumulate_grad_node():
    x = leaf()
    a = x * 2
    b = x * 3
    acc = a.grad_fn.next_functions[0][0]
    assert acc is b.grad_fn.next_functions[0][0]
    assert acc.variable is x
    assert acc.next_functions == ()
    assert re.fullmatch(r"<AccumulateGrad object at 0x[0-9a-f]+>", repr(acc))
    assert acc.name() == ACC


def test_class_name_vs_name_for_copy_nodes():
    y = leaf() * 1
    y[0] = 0.0
    assert type(y.grad_fn).__name__ == "CopySlices"
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    z = leaf() * 1
    z.copy_(torch.ones(2))
    assert "grad_fn=<CopyBackwards>" in repr(z)
    assert z.grad_fn.name() == "torch::autograd::CopyBackwards"


def test_node_metadata_and_saved_tensors():
    x = leaf()
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    node = (x * w).grad_fn
    assert node.metadata == {}
    assert node._saved_self.tolist() == [1.0, 2.0]
    assert node._saved_other.tolist() == [3.0, 4.0]
    assert callable(node.register_hook) and callable(node.register_prehook)


def env():
    torch.manual_seed(0)
    return SimpleNamespace(
        x=torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True),
        v=torch.tensor([1.0, 2.0], requires_grad=True),
        c=torch.tensor([[0.5, 1.0], [1.5, 2.0]]),
        x3=torch.ones(2, 2, 2, requires_grad=True),
        z=torch.tensor([1 + 2j, 3 - 1j], requires_grad=True),
    )


NODE_NAMES = {
    "x+c": (lambda e: e.x + e.c, ["AddBackward0"]),
    "x+1": (lambda e: e.x + 1, ["AddBackward0"]),
    "1+x": (lambda e: 1 + e.x, ["AddBackward0"]),
    "x+x": (lambda e: e.x + e.x, ["AddBackward0"]),
    "add_alpha": (lambda e: torch.add(e.x, e.c, alpha=2), ["AddBackward0"]),
    "x-c": (lambda e: e.x - e.c, ["SubBackward0"]),
    "x-1": (lambda e: e.x - 1, ["SubBackward0"]),
    "sub_alpha": (lambda e: torch.sub(e.x, e.c, alpha=2), ["SubBackward0"]),
    "1-x": (lambda e: 1 - e.x, ["RsubBackward1"]),
    "x*c": (lambda e: e.x * e.c, ["MulBackward0"]),
    "x*2": (lambda e: e.x * 2, ["MulBackward0"]),
    "2*x": (lambda e: 2 * e.x, ["MulBackward0"]),
    "x/c": (lambda e: e.x / e.c, ["DivBackward0"]),
    "x/2": (lambda e: e.x / 2, ["DivBackward0"]),
    "2/x": (lambda e: 2 / e.x, ["MulBackward0", "ReciprocalBackward0"]),
    "-x": (lambda e: -e.x, ["NegBackward0"]),
    "neg": (lambda e: e.x.neg(), ["NegBackward0"]),
    "x**2": (lambda e: e.x**2, ["PowBackward0"]),
    "x**2.5": (lambda e: e.x**2.5, ["PowBackward0"]),
    "pow(2)": (lambda e: e.x.pow(2), ["PowBackward0"]),
    "x**0": (lambda e: e.x**0, ["PowBackward0"]),
    "x**1": (lambda e: e.x**1, ["PowBackward0"]),
    "square": (lambda e: e.x.square(), ["PowBackward0"]),
    "x**c": (lambda e: e.x**e.c, ["PowBackward1"]),
    "2**x": (lambda e: 2**e.x, ["PowBackward2"]),
    "x@c": (lambda e: e.x @ e.c, ["MmBackward0"]),
    "mm": (lambda e: torch.mm(e.x, e.c), ["MmBackward0"]),
    "v@v": (lambda e: e.v @ e.v, ["DotBackward0"]),
    "dot": (lambda e: torch.dot(e.v, e.v), ["DotBackward0"]),
    "x@v": (lambda e: e.x @ e.v, ["MvBackward0"]),
    "mv": (lambda e: torch.mv(e.x, e.v), ["MvBackward0"]),
    "v@x": (lambda e: e.v @ e.x, ["SqueezeBackward4", "MmBackward0"]),
    "x3@c": (lambda e: e.x3 @ e.c, ["UnsafeViewBackward0", "MmBackward0"]),
    "bmm": (lambda e: torch.bmm(e.x3, e.x3), ["BmmBackward0"]),
    "addmm": (lambda e: torch.addmm(e.c, e.x, e.c), ["AddmmBackward0"]),
    "relu": (lambda e: e.x.relu(), ["ReluBackward0"]),
    "F.relu": (lambda e: F.relu(e.x), ["ReluBackward0"]),
    "sigmoid": (lambda e: e.x.sigmoid(), ["SigmoidBackward0"]),
    "tanh": (lambda e: e.x.tanh(), ["TanhBackward0"]),
    "exp": (lambda e: e.x.exp(), ["ExpBackward0"]),
    "log": (lambda e: e.x.log(), ["LogBackward0"]),
    "sqrt": (lambda e: e.x.sqrt(), ["SqrtBackward0"]),
    "abs": (lambda e: e.x.abs(), ["AbsBackward0"]),
    "sin": (lambda e: e.x.sin(), ["SinBackward0"]),
    "cos": (lambda e: e.x.cos(), ["CosBackward0"]),
    "softmax": (lambda e: e.x.softmax(-1), ["SoftmaxBackward0"]),
    "log_softmax": (lambda e: e.x.log_softmax(-1), ["LogSoftmaxBackward0"]),
    "clamp": (lambda e: e.x.clamp(0, 1), ["ClampBackward1"]),
    "clamp_min": (lambda e: e.x.clamp(min=0), ["ClampBackward1"]),
    "max()": (lambda e: e.x.max(), ["MaxBackward1"]),
    "max(dim)": (lambda e: e.x.max(0)[0], ["MaxBackward0"]),
    "maximum": (lambda e: torch.maximum(e.x, e.c), ["MaximumBackward0"]),
    "sum()": (lambda e: e.x.sum(), ["SumBackward0"]),
    "sum(dim)": (lambda e: e.x.sum(0), ["SumBackward1"]),
    "sum(dim,keepdim)": (lambda e: e.x.sum(1, keepdim=True), ["SumBackward1"]),
    "mean()": (lambda e: e.x.mean(), ["MeanBackward0"]),
    "mean(dim)": (lambda e: e.x.mean(0), ["MeanBackward1"]),
    "prod": (lambda e: e.x.prod(), ["ProdBackward0"]),
    "view": (lambda e: e.x.view(4), ["ViewBackward0"]),
    "reshape": (lambda e: e.x.reshape(4), ["ViewBackward0"]),
    "flatten": (lambda e: e.x.flatten(), ["ViewBackward0"]),
    "reshape_noncontig": (
        lambda e: e.x.t().reshape(4),
        ["UnsafeViewBackward0", "CloneBackward0"],
    ),
    "transpose": (lambda e: e.x.transpose(0, 1), ["TransposeBackward0"]),
    "t()": (lambda e: e.x.t(), ["TBackward0"]),
    ".T": (lambda e: e.x.T, ["PermuteBackward0"]),
    "permute": (lambda e: e.x.permute(1, 0), ["PermuteBackward0"]),
    "unsqueeze": (lambda e: e.x.unsqueeze(0), ["UnsqueezeBackward0"]),
    "x[None]": (lambda e: e.x[None], ["UnsqueezeBackward0"]),
    "squeeze()": (lambda e: e.x[None].squeeze(), ["SqueezeBackward0"]),
    "squeeze(0)": (lambda e: e.x[None].squeeze(0), ["SqueezeBackward1"]),
    "expand": (lambda e: e.v.expand(3, 2), ["ExpandBackward0"]),
    "expand_as": (lambda e: e.v.expand_as(e.x), ["ExpandBackward0"]),
    "repeat": (lambda e: e.v.repeat(2), ["RepeatBackward0"]),
    "x[0]": (lambda e: e.x[0], ["SelectBackward0"]),
    "x[:,0]": (lambda e: e.x[:, 0], ["SelectBackward0"]),
    "x[0,1]": (lambda e: e.x[0, 1], ["SelectBackward0", "SelectBackward0"]),
    "x[0:1]": (lambda e: e.x[0:1], ["SliceBackward0"]),
    "x[:,:1]": (lambda e: e.x[:, :1], ["SliceBackward0"]),
    "narrow": (lambda e: e.x.narrow(0, 0, 1), ["SliceBackward0"]),
    "x[[0,1]]": (lambda e: e.x[[0, 1]], ["IndexBackward0"]),
    "x[mask]": (lambda e: e.x[e.x > 2], ["IndexBackward0"]),
    "x[...]": (lambda e: e.x[...], ["AliasBackward0"]),
    "cat": (lambda e: torch.cat([e.x, e.c]), ["CatBackward0"]),
    "stack": (lambda e: torch.stack([e.x, e.c]), ["StackBackward0"]),
    "split": (lambda e: e.x.split(1)[0], ["SplitBackward0"]),
    "chunk": (lambda e: e.x.chunk(2)[1], ["SplitBackward0"]),
    "unbind": (lambda e: e.x.unbind()[0], ["UnbindBackward0"]),
    "index_select": (
        lambda e: e.x.index_select(0, torch.tensor([1])),
        ["IndexSelectBackward0"],
    ),
    "gather": (lambda e: e.x.gather(1, torch.tensor([[0], [1]])), ["GatherBackward0"]),
    "where": (lambda e: torch.where(e.c > 1, e.x, e.c), ["WhereBackward0"]),
    "masked_fill": (lambda e: e.x.masked_fill(e.c > 1, 0.0), ["MaskedFillBackward0"]),
    "clone": (lambda e: e.x.clone(), ["CloneBackward0"]),
    "t().contiguous()": (lambda e: e.x.t().contiguous(), ["CloneBackward0"]),
    "to(dtype)": (lambda e: e.x.to(torch.float64), ["ToCopyBackward0"]),
    "double()": (lambda e: e.x.double(), ["ToCopyBackward0"]),
    "mse_loss": (lambda e: F.mse_loss(e.x, e.c), ["MseLossBackward0", ACC]),
    "mse_loss_sum": (
        lambda e: F.mse_loss(e.x, e.c, reduction="sum"),
        ["MseLossBackward0"],
    ),
    "mse_loss_none": (
        lambda e: F.mse_loss(e.x, e.c, reduction="none"),
        ["MseLossBackward0"],
    ),
    "l1_loss": (
        lambda e: F.l1_loss(e.x, e.c),
        ["MeanBackward0", "AbsBackward0", "SubBackward0", ACC],
    ),
    "l1_loss_sum": (
        lambda e: F.l1_loss(e.x, e.c, reduction="sum"),
        ["SumBackward0", "AbsBackward0", "SubBackward0"],
    ),
    "l1_loss_none": (
        lambda e: F.l1_loss(e.x, e.c, reduction="none"),
        ["AbsBackward0", "SubBackward0"],
    ),
    "cross_entropy": (
        lambda e: F.cross_entropy(e.x, torch.tensor([0, 1])),
        ["NllLossBackward0", "LogSoftmaxBackward0", ACC],
    ),
    "cross_entropy_probs": (
        lambda e: F.cross_entropy(e.x, e.c.softmax(-1)),
        [
            "DivBackward1",
            "NegBackward0",
            "SumBackward0",
            "MulBackward0",
            "LogSoftmaxBackward0",
        ],
    ),
    "nll_loss": (lambda e: F.nll_loss(e.x, torch.tensor([0, 1])), ["NllLossBackward0"]),
    "bce": (
        lambda e: F.binary_cross_entropy(e.x.sigmoid(), e.c / 2),
        ["BinaryCrossEntropyBackward0"],
    ),
    "bce_logits": (
        lambda e: F.binary_cross_entropy_with_logits(e.x, e.c / 2),
        ["BinaryCrossEntropyWithLogitsBackward0"],
    ),
    "norm": (lambda e: e.x.norm(), ["LinalgVectorNormBackward0"]),
    "var": (lambda e: e.x.var(), ["VarBackward0"]),
    "std": (lambda e: e.x.std(), ["StdBackward0"]),
    "dropout": (lambda e: F.dropout(e.x, 0.5, training=True), ["MulBackward0"]),
    "leaky_relu": (lambda e: F.leaky_relu(e.x), ["LeakyReluBackward0"]),
    "gelu": (lambda e: F.gelu(e.x), ["GeluBackward0"]),
    "softplus": (lambda e: F.softplus(e.x), ["SoftplusBackward0"]),
    "rsqrt": (lambda e: e.x.rsqrt(), ["RsqrtBackward0"]),
    "reciprocal": (lambda e: e.x.reciprocal(), ["ReciprocalBackward0"]),
    "logsumexp": (lambda e: e.x.logsumexp(0), ["LogsumexpBackward0"]),
    "diag": (lambda e: torch.diag(e.x), ["DiagonalBackward0_copy"]),
    "trace": (lambda e: e.x.trace(), ["TraceBackward0"]),
    "tril": (lambda e: e.x.tril(), ["TrilBackward0"]),
    "flip": (lambda e: e.x.flip(0), ["FlipBackward0"]),
    "roll": (lambda e: e.x.roll(1, 0), ["RollBackward0"]),
    "cumsum": (lambda e: e.x.cumsum(0), ["CumsumBackward0"]),
    "einsum": (
        lambda e: torch.einsum("ij,jk->ik", e.x, e.c),
        ["ViewBackward0", "PermuteBackward0"],
    ),
    "outer": (lambda e: torch.outer(e.v, e.v), ["MulBackward0"]),
    "conj": (lambda e: e.z.conj(), ["ConjBackward0"]),
    "z.real": (lambda e: e.z.real, ["SelectBackward0"]),
    "z.imag": (lambda e: e.z.imag, ["SelectBackward0"]),
    "view_as_real": (lambda e: torch.view_as_real(e.z), ["ViewAsRealBackward0"]),
    "z.abs": (lambda e: e.z.abs(), ["AbsBackward0"]),
    "angle": (lambda e: e.z.angle(), ["AngleBackward0"]),
}


def first_chain(node, depth):
    names = []
    for _ in range(depth):
        names.append(node.name())
        if not node.next_functions:
            break
        node = node.next_functions[0][0]
        if node is None:
            break
    return names


@pytest.mark.parametrize("case", list(NODE_NAMES))
def test_node_names(case):
    make, chain = NODE_NAMES[case]
    out = make(env())
    assert out.grad_fn is not None
    assert type(out.grad_fn).__name__ == chain[0]
    assert first_chain(out.grad_fn, len(chain)) == chain


def test_mse_loss_second_input_is_none():
    e = env()
    nf = F.mse_loss(e.x, e.c).grad_fn.next_functions
    assert nf[0][0].variable is e.x
    assert nf[1] == (None, 0)


def test_linear_on_2d_input_uses_addmm():
    e = env()
    W = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], requires_grad=True)
    b = torch.tensor([0.5, 0.5, 0.5], requires_grad=True)
    inp = torch.tensor([[1.0, 2.0]])
    node = F.linear(inp, W, b).grad_fn
    assert node.name() == "AddmmBackward0"
    nf = node.next_functions
    assert nf[0][0].variable is b
    assert nf[1][0] is None
    assert nf[2][0].name() == "TBackward0"
    assert nf[2][0].next_functions[0][0].variable is W
    node2 = F.linear(e.x, W.detach(), b).grad_fn
    assert node2.next_functions[1][0].variable is e.x


@pytest.mark.parametrize(
    "shape, chain",
    [
        # torch 2.15's at::linear (SPEC.md, measured on 2.13, has ViewBackward0 outside)
        ((3,), ["UnsafeViewBackward0", "AddmmBackward0"]),
        ((2, 2, 3), ["UnsafeViewBackward0", "AddmmBackward0"]),
    ],
    ids=["1d", "3d"],
)
def test_linear_module_on_1d_and_3d_input(shape, chain):
    lin = nn.Linear(3, 2)
    out = lin(torch.ones(shape))
    assert first_chain(out.grad_fn, 2) == chain


def test_linear_without_bias_uses_mm():
    lin = nn.Linear(3, 2, bias=False)
    assert lin.bias is None
    assert lin(torch.ones(4, 3)).grad_fn.name() == "MmBackward0"


def test_loss_reprs():
    loss = F.mse_loss(torch.tensor([1.0, 2.0], requires_grad=True), torch.zeros(2))
    assert repr(loss) == "tensor(2.5000, grad_fn=<MseLossBackward0>)"
    ce = F.cross_entropy(
        torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True), torch.tensor([2])
    )
    assert repr(ce) == "tensor(0.4076, grad_fn=<NllLossBackward0>)"


def test_dir_lists_the_saved_values_as_pytorch_does():
    # graph drawers (torchviz's show_saved) scan dir(grad_fn) for `_saved_` attributes and read
    # each: only PyTorch's names may appear there (recorded from torch 2.15)
    x = torch.ones(2, requires_grad=True)
    y = torch.ones(2, requires_grad=True)

    def saved(g):
        return [n for n in dir(g) if n.startswith("_saved") or n.startswith("_raw_saved")]

    assert saved((x * y).grad_fn) == ["_raw_saved_other", "_raw_saved_self", "_saved_other", "_saved_self"]
    assert saved(x.exp().grad_fn) == ["_raw_saved_result", "_saved_result"]
    for g in ((x * y).grad_fn, x.exp().grad_fn, x.sort().values.grad_fn):
        for n in saved(g):
            getattr(g, n)  # every listed attribute reads


def test_calling_a_grad_fn_runs_its_formula():
    # PyTorch's Node.__call__: one gradient per output in, the input gradients out (recorded
    # under grad mode, as the saved values are unpacked with their graph)
    x = torch.tensor([3.], requires_grad=True)
    w = torch.tensor([2.], requires_grad=True)
    y = x ** 2
    g = y.grad_fn(torch.ones(1))
    assert g.tolist() == [6.] and g.requires_grad
    gx, gw = (x * w).grad_fn(torch.ones(1))
    assert gx.tolist() == [2.] and gw.tolist() == [3.]
    a, _ = torch.ones(2, requires_grad=True).unbind()
    assert a.grad_fn(torch.tensor(1.), None).tolist() == [1., 0.]
    assert x.sum().grad_fn(torch.tensor(2.)).tolist() == [2.]
    with pytest.raises(TypeError, match="^expected 1 arguments, got 2 instead$"):
        y.grad_fn(x.detach(), x.detach())
    with pytest.raises(TypeError, match="^expected 1 arguments, got 0 instead$"):
        y.grad_fn()


def test_writing_into_a_variance_keeps_its_backward():
    # PyTorch's VarBackward0 saves self only (std's saves its result too): an in-place write
    # into the variance leaves the backward valid (the fuzzer found leafgrad refusing it)
    x = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
    v = x.var()
    v.mul_(2)
    v.backward()
    assert x.grad.tolist() == pytest.approx([-8 / 3, -2 / 3, 10 / 3])
    s = x.std()
    s.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        s.backward()


def test_non_tensor_saved_values_are_pytorchs():
    # grad_fn._saved_<name> for an op's non-tensor arguments and the input sizes PyTorch keeps,
    # listed by dir() (values recorded from torch 2.15: int64 arguments read as unsigned there,
    # so dim=-1 is 2**64 - 1 and an open slice end is 2**63 - 1)
    a = torch.ones(2, 3, 4, requires_grad=True)
    b = torch.ones(2, 3, 4, requires_grad=True)
    neg1 = 2 ** 64 - 1
    cases = [
        (a.add(b, alpha=2), {"alpha": 2}),
        (a.add(b, alpha=2.5), {"alpha": 2.5}),
        (a + b, {"alpha": 1}),
        (a.sub(b, alpha=3), {"alpha": 3}),
        (1 - a, {"alpha": 1}),
        (a.sum(-1, keepdim=True), {"dim": (neg1,), "keepdim": True, "self_sym_sizes": (2, 3, 4)}),
        (a.sum(), {"self_sym_sizes": (2, 3, 4)}),
        (a.mean(1), {"dim": (1,), "keepdim": False, "self_sym_numel": 24, "self_sym_sizes": (2, 3, 4)}),
        (a.mean(), {"self_sym_numel": 24, "self_sym_sizes": (2, 3, 4)}),
        (a.transpose(-1, 0), {"dim0": neg1, "dim1": 0}),
        (a.permute(2, -3, 1), {"dims": (2, 2 ** 64 - 3, 1)}),
        (a[:, -1], {"dim": 1, "index": neg1, "self_sym_sizes": (2, 3, 4)}),
        (a[:, 1:3], {"dim": 1, "start": 1, "end": 3, "step": 1, "self_sym_sizes": (2, 3, 4)}),
        (a[::2], {"dim": 0, "start": 0, "end": 2 ** 63 - 1, "step": 2, "self_sym_sizes": (2, 3, 4)}),
        (a.narrow(2, 1, 2), {"dim": 2, "start": 1, "end": 3, "step": 1, "self_sym_sizes": (2, 3, 4)}),
        (a[:1].squeeze(0), {"dim": 0, "self_sym_sizes": (1, 3, 4)}),
        (a.unsqueeze(-1), {"dim": neg1}),
        (a.softmax(-1), {"dim": neg1}),
        (a.log_softmax(1), {"dim": 1}),
        (torch.cat([a, b], -1), {"dim": neg1}),
        (torch.stack([a, b], 1), {"dim": 1}),
        (a.pow(2), {"exponent": 2}),
        (a.pow(1.5), {"exponent": 1.5}),
        (a.clamp(-1, 1), {"min": -1, "max": 1}),
        (a.clamp(min=0), {"min": 0, "max": None}),
        (a.amax((0, 1), keepdim=True), {"dim": (0, 1), "keepdim": True}),
        (a.max(1)[0], {"dim": 1, "keepdim": False, "self_sym_sizes": (2, 3, 4)}),
        (a.cumsum(-1), {"dim": neg1}),
        (a.logsumexp(1), {"dim": (1,), "keepdim": False}),
        (a.view(6, 4), {"self_sym_sizes": (2, 3, 4)}),
        (a[:, :1].expand(2, 5, 4), {"self_sym_sizes": (2, 1, 4)}),
    ]
    for y, want in cases:
        g = y.grad_fn
        got = {}
        for n in dir(g):
            if n.startswith("_saved_"):
                v = getattr(g, n)
                if not isinstance(v, torch.Tensor) and (v is not None or n[7:] in want):
                    got[n[7:]] = v
        assert got == want, (g.name(), got)
        for k, v in want.items():
            assert type(getattr(g, "_saved_" + k)) is type(v), (g.name(), k)


def test_missing_grad_fn_attribute_is_pytorchs_error():
    g = (torch.ones(2, requires_grad=True) * 2).grad_fn
    with pytest.raises(AttributeError, match="^'MulBackward0' object has no attribute '_saved_nope'$"):
        g._saved_nope
    assert not hasattr(g, "_saved_alpha")


def test_node_is_a_virtual_base_class():
    # PyTorch 2.15: isinstance/issubclass hold for every node class, Node is not in their mro
    Node = torch.autograd.graph.Node
    a = torch.ones(2, requires_grad=True)
    b = a.exp()
    assert isinstance(b.grad_fn, Node) and issubclass(type(b.grad_fn), Node)
    assert Node not in type(b.grad_fn).mro()
    assert isinstance(b.grad_fn.next_functions[0][0], Node)
    assert not isinstance(None, Node) and not isinstance(1, Node) and not isinstance(Node, Node)
    assert issubclass(Node, Node) and not issubclass(int, Node)
    assert issubclass(torch.autograd.function.BackwardCFunction, Node)
    seen = []

    class Func(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(isinstance(ctx, Node))
            return x

        @staticmethod
        def backward(ctx, g):
            seen.append(isinstance(ctx, Node))
            return g

    out = Func.apply(a)
    assert isinstance(out.grad_fn, Node) and Node not in type(out.grad_fn).mro()
    out.sum().backward()
    assert seen == [True, True]
    with pytest.raises(TypeError, match="Can't instantiate abstract class Node"):
        Node()


def _chain(node, depth=3):
    """The node names down the first input edges, `depth` levels deep."""
    names = []
    while node is not None and len(names) < depth:
        names.append(node.name())
        node = next((n for n, _ in node.next_functions if n is not None), None)
    return names


@pytest.mark.parametrize("make_x, bias, expected", [
    # at::linear: 2-D input with a bias is one addmm
    (lambda: torch.rand(3, 4, requires_grad=True), True, ["AddmmBackward0", "torch::autograd::AccumulateGrad"]),
    # a contiguous 3-D input with a bias: one addmm over the flattened rows, viewed back
    (lambda: torch.rand(2, 3, 4, requires_grad=True), True,
     ["UnsafeViewBackward0", "AddmmBackward0", "torch::autograd::AccumulateGrad"]),
    # without a bias, or a non-contiguous input: matmul (an unsafe view of an mm), then the bias
    (lambda: torch.rand(2, 3, 4, requires_grad=True), False,
     ["UnsafeViewBackward0", "MmBackward0", "ViewBackward0"]),
    (lambda: torch.rand(3, 2, 4, requires_grad=True).transpose(0, 1), True,
     ["AddBackward0", "UnsafeViewBackward0", "MmBackward0"]),
    (lambda: torch.rand(5, 2, 3, 4), False, ["UnsafeViewBackward0", "MmBackward0", "TBackward0"]),
    (lambda: torch.rand(4, requires_grad=True), False, ["SqueezeBackward4", "MmBackward0", "UnsqueezeBackward0"]),
    (lambda: torch.rand(4, requires_grad=True), True, ["UnsafeViewBackward0", "AddmmBackward0",
                                                       "torch::autograd::AccumulateGrad"]),
])
def test_linear_records_pytorchs_nodes(make_x, bias, expected):
    torch.manual_seed(0)
    layer = nn.Linear(4, 2, bias=bias)
    assert _chain(layer(make_x()).grad_fn) == expected
