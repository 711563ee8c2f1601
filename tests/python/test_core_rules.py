"""Argument and assignment rules that live in the Rust core (the bindings only parse Python):
`out=` dtypes of add/sub/mul/div, split/chunk/repeat sizes, masked_fill's value, flip's dims, the int `diagonal` of
tril/triu/diag, `.data =`, `.grad =`, post-accumulate hooks.
Type and message recorded from torch 2.15 (None: no error, then the result's str); the same
table runs against the installed torch with LEAFGRAD_TEST_TORCH=1."""
import pytest
from support import exact

import leafgrad as torch

CASES = [
    # a Python bool indexes as a 0-d bool tensor
    ('torch.arange(6.).reshape(2, 3)[True].shape', None, 'torch.Size([1, 2, 3])'),
    ('torch.arange(6.).reshape(2, 3)[False].shape', None, 'torch.Size([0, 2, 3])'),
    ('torch.arange(6.).reshape(2, 3)[None, True].shape', None, 'torch.Size([1, 1, 2, 3])'),
    ('torch.tensor(5.)[True]', None, 'tensor([5.])'),
    ('torch.arange(6.).reshape(2, 3)[True, 0]', None, 'tensor([[0., 1., 2.]])'),
    ('torch.arange(6.).reshape(2, 3)[0, False].shape', None, 'torch.Size([0, 3])'),
    ('(lambda y: (y.__setitem__(True, 1.), y)[1])(torch.zeros(2))', None, 'tensor([1., 1.])'),
    ('(lambda y: (y.__setitem__(False, 1.), y)[1])(torch.zeros(2))', None, 'tensor([0., 0.])'),
    ('type(torch.ones(2, requires_grad=True)[True].grad_fn).__name__', None, 'IndexBackward0'),
    ('torch.ones(2).split(-1)', RuntimeError, 'split expects split_size be non-negative, but got split_size=-1'),
    ('torch.ones(2).chunk(0)', RuntimeError, 'chunk expects `chunks` to be greater than 0, got: 0'),
    ('torch.ones(2).chunk(-2)', RuntimeError, 'chunk expects `chunks` to be greater than 0, got: -2'),
    ('torch.ones(2).repeat(-1)', RuntimeError, 'Trying to create tensor with negative dimension -2: [-2]'),
    ('torch.ones(2).repeat(2, -3)', RuntimeError, 'Trying to create tensor with negative dimension -6: [2, -6]'),
    ('torch.ones(2, 0).repeat(-1, -1)', RuntimeError, 'Trying to create tensor with negative dimension -2: [-2, 0]'),
    ('torch.ones(2).repeat(1)[:0].repeat(1, 2, 3).shape', None, 'torch.Size([1, 2, 0])'),
    ('torch.ones(2).masked_fill(torch.tensor([True, False]), torch.ones(2))', RuntimeError, 'masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).'),
    ('torch.ones(2, requires_grad=True).masked_fill_(torch.tensor([True, False]), torch.ones(2))', RuntimeError, 'a leaf Variable that requires grad is being used in an in-place operation.'),
    ('setattr(torch.ones(2, requires_grad=True), "data", torch.ones(2, dtype=torch.int64))', RuntimeError, 'data set to a tensor that requires gradients must be floating point or complex dtype'),
    ('setattr(torch.ones(2, requires_grad=True), "grad", torch.ones(3))', RuntimeError, "attempting to assign a gradient of size '[3]' to a tensor of size '[2]'. Please ensure that the gradient and the tensor are the same size"),
    ('setattr(torch.ones(2, requires_grad=True), "grad", torch.ones(2, dtype=torch.float64))', RuntimeError, "attempting to assign a gradient with dtype 'double' to a tensor with grad_dtype 'Float'. The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its gradient may break downstream systems that assume they match."),
    ('torch.ones(2).register_post_accumulate_grad_hook(lambda t: None)', RuntimeError, "cannot register a hook on a tensor that doesn't require gradient"),
    ('(torch.ones(2, requires_grad=True) * 2).register_post_accumulate_grad_hook(lambda t: None)', RuntimeError, 'post accumulate grad hooks cannot be registered on non-leaf tensors'),
    ('torch.ones(0).repeat(-1).shape', None, 'torch.Size([0])'),
    ('torch.flip(torch.ones(2, 3), [0, 5])', IndexError, 'Dimension out of range (expected to be in range of [-2, 1], but got 5)'),
    ('torch.flip(torch.ones(2, 3), [5, 0, 0])', IndexError, 'Dimension out of range (expected to be in range of [-2, 1], but got 5)'),
    ('torch.flip(torch.ones(2, 3), [0, -2])', RuntimeError, 'dim 0 appears multiple times in the list of dims'),
    ('torch.flip(torch.tensor(1.0), [0, 0])', RuntimeError, 'dim 0 appears multiple times in the list of dims'),
    ('torch.flip(torch.tensor(1.0), [1])', IndexError, 'Dimension out of range (expected to be in range of [-1, 0], but got 1)'),
    ('torch.flip(torch.tensor(1.0), [-1])', None, 'tensor(1.)'),
    ('torch.tril(torch.ones(2, 2), 1.5)', TypeError, "tril(): argument 'diagonal' (position 2) must be int, not float"),
    ('torch.triu(torch.ones(2, 2), True)', TypeError, "triu(): argument 'diagonal' (position 2) must be int, not bool"),
    ('torch.diag(torch.ones(2), 1.0)', TypeError, "diag(): argument 'diagonal' (position 2) must be int, not float"),
    ('setattr(torch.ones(2), "data", torch.ones(2, device="meta"))', RuntimeError, 'Attempted to call `variable.set_data(tensor)`, but `variable` and `tensor` have incompatible tensor type.'),
    ('setattr(torch.ones(2, device="meta"), "data", torch.ones(2))', RuntimeError, 'Attempted to call `variable.set_data(tensor)`, but `variable` and `tensor` have incompatible tensor type.'),
    ('setattr(torch.ones(2, requires_grad=True), "data", torch.ones(2, device="meta", dtype=torch.int64))', RuntimeError, 'Attempted to call `variable.set_data(tensor)`, but `variable` and `tensor` have incompatible tensor type.'),
    ('torch.add(torch.ones(2), torch.ones(2), out=torch.empty(2, dtype=torch.int64))', RuntimeError, "result type Float can't be cast to the desired output type Long"),
    ('torch.div(torch.tensor([3, 4]), 2, out=torch.empty(2, dtype=torch.int64))', RuntimeError, "result type Float can't be cast to the desired output type Long"),
    ('torch.mul(torch.tensor([3, 4]), 2, out=torch.empty(2))', None, 'tensor([6., 8.])'),
    ('torch.add(torch.ones(2, dtype=torch.float64), 1, out=torch.empty(2))', None, 'tensor([2., 2.])'),
]


@pytest.mark.parametrize("expr, error, text", CASES, ids=[c[0] for c in CASES])
def test_rule(expr, error, text):
    if error is None:
        assert str(eval(expr)).replace("leafgrad", "torch") == text
    else:
        with pytest.raises(error, match=exact(text)):
            eval(expr)


def test_masked_fill_broadcasts_self_out_of_place():
    # PyTorch expands self and mask together out of place; in place the mask must fit self
    a = torch.tensor(5.0, requires_grad=True)
    r = a.masked_fill(torch.tensor([True, False]), 1.0)
    assert r.tolist() == [1.0, 5.0] and type(r.grad_fn).__name__ == "MaskedFillBackward0"
    r.sum().backward()
    assert a.grad.item() == 1.0
    b = torch.zeros(2, 1).masked_fill(torch.ones(2, 3, dtype=torch.bool), 2.0)
    assert b.shape == (2, 3) and b.sum().item() == 12.0
    with pytest.raises(RuntimeError, match=r"output with shape \[\] doesn't match the broadcast shape \[2\]"):
        torch.tensor(5.0).masked_fill_(torch.tensor([True, False]), 1.0)
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of tensor b \(2\)"):
        torch.zeros(3).masked_fill_(torch.tensor([True, False]), 1.0)
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(2\) must match the size of tensor b \(3\)"):
        torch.zeros(3).masked_fill(torch.tensor([True, False]), 1.0)


def test_masked_fill_gradient_is_a_true_zero_under_the_mask():
    # derivatives.yaml: grad.masked_fill(mask, 0), so a negative, infinite or NaN incoming
    # gradient still gives +0 where the mask is set (grad * keep gave -0 and NaN)
    x = torch.zeros(4, requires_grad=True)
    mask = torch.tensor([True, True, True, False])
    x.masked_fill(mask, 5.0).backward(torch.tensor([-1.0, float("inf"), float("nan"), -2.0]))
    assert [str(v) for v in x.grad.tolist()] == ["0.0", "0.0", "0.0", "-2.0"]
    # create_graph: the gradient's own node is a masked_fill
    x.grad = None
    g = torch.ones(4, requires_grad=True)
    (gx,) = torch.autograd.grad(x.masked_fill(mask, 5.0), x, g, create_graph=True)
    assert type(gx.grad_fn).__name__ == "MaskedFillBackward0"


@pytest.mark.parametrize("mask_shape, shape, transpose", [
    ((1, 1, 4, 4), (2, 3, 4, 4), False),  # an attention mask over batch and heads
    ((4, 1), (4, 5), False),               # broadcast along the last dim
    ((), (3, 2), False),                   # a 0-d mask
    ((5, 4), (2, 4, 5), True),             # a transposed (non-contiguous) mask
    ((2, 1, 3), (2, 4, 3), False),         # broadcast in the middle
])
def test_masked_fill_matches_where_for_broadcast_masks(mask_shape, shape, transpose):
    g = torch.Generator().manual_seed(7)
    mask = torch.rand(mask_shape, generator=g) > 0.5
    if transpose:
        mask = mask.t()
    x = torch.randn(shape, generator=g)
    got = x.masked_fill(mask, -1.5)
    want = torch.where(mask, torch.tensor(-1.5), x)
    assert torch.equal(got, want)
    y = x.clone()
    y.masked_fill_(mask, -1.5)
    assert torch.equal(y, want)
