"""Which error comes first when a program has two, around views that may not take their base's
new history (made under no_grad or in inference mode, or one of several outputs), as PyTorch
2.15 orders them:
- its VariableType collects an op's edges (each input's current grad_fn) before the kernel
  checks shapes, dtypes or arguments: views, min/max, fmod, clamp and the other operands of an
  in-place write are refused first;
- `backward`/`grad` ask for each root's and input's grad_fn, and unpacking a saved input asks
  for its grad_fn before its version is checked;
- `x[i] = v` writes through a view made in the caller's grad mode (its node names the error:
  "Output 0 of Select");
- `copy_` into an integer or bool tensor records nothing and checks nothing of autograd.
Messages recorded from torch; with LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import pytest

import leafgrad as torch

NO_GRAD_INDIRECT = ("A view was created in no_grad mode and its base or another view of its base "
                    "has been modified inplace with grad mode enabled.")
INFERENCE_INDIRECT = ("A view was created in inference mode and its base or another view of its "
                      "base has been modified inplace in normal mode.")
SPLIT_INDIRECT = ("Output 0 of Split is a view and its base or another view of its base has been "
                  "modified inplace. This view is the output of a function that returns multiple views.")


def _raises(f, text):
    with pytest.raises(RuntimeError) as e:
        f()
    assert str(e.value).startswith(text), str(e.value)


def _stale_no_grad_view():
    """A view made under no_grad of a tensor that requires grad, whose base was then written."""
    a = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
    base = a * 1
    with torch.no_grad():
        v = base.t()
    base.mul_(2)
    return v


@pytest.mark.parametrize("name, op", [
    ("view of a non-contiguous layout", lambda v: v.view(-1)),
    ("expand to a wrong size", lambda v: v.expand(5, 5)),
    ("transpose out of range", lambda v: v.transpose(0, 7)),
    ("permute of too few dims", lambda v: v.permute(0)),
    ("unsqueeze out of range", lambda v: v.unsqueeze(9)),
    ("squeeze out of range", lambda v: v.squeeze(9)),
    ("select out of range", lambda v: v.select(0, 9)),
    ("unbind out of range", lambda v: v.unbind(5)),
    ("split out of range", lambda v: v.split(1, 5)),
    ("view_as_real of a real tensor", lambda v: torch.view_as_real(v)),
    ("minimum of complex", lambda v: torch.minimum(v, torch.ones(3, 2, dtype=torch.complex64))),
    ("maximum of mismatched shapes", lambda v: torch.maximum(v, torch.ones(4))),
    ("fmod of mismatched shapes", lambda v: torch.fmod(v, torch.ones(4))),
    ("clamp with no bound", lambda v: v.clamp()),
    ("clamp of complex tensor bounds", lambda v: v.clamp(torch.ones(1, dtype=torch.complex64))),
    ("max over a bad dim", lambda v: v.max(7)),
    ("amax over a bad dim", lambda v: v.amax(7)),
])
def test_a_stale_no_grad_view_is_refused_before_the_kernel(name, op):
    v = _stale_no_grad_view()
    _raises(lambda: op(v), NO_GRAD_INDIRECT)


def test_the_other_operand_of_an_inplace_write_is_refused_before_the_overlap_check():
    t0 = torch.randn(2, 3)
    with torch.no_grad():
        t1 = t0[0:1]
    t0.pow_(torch.tensor(2., requires_grad=True))  # t0 now requires grad: t1 is stale
    target = t0.unsqueeze(0)
    _raises(lambda: target.mul_(t1), NO_GRAD_INDIRECT)


def test_an_inference_tensor_target_still_collects_the_other_operands_edges():
    v = _stale_no_grad_view()
    with torch.inference_mode():
        target = torch.zeros(3, 2)
    _raises(lambda: target.copy_(v), NO_GRAD_INDIRECT)


def test_backward_from_a_stale_inference_view_is_refused():
    a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    b = a.sign()
    with torch.inference_mode():
        v = b.unsqueeze(0)
        v[0, 0] = 0.0
    _raises(lambda: v.backward(torch.ones(1, 2, 2)), INFERENCE_INDIRECT)
    _raises(lambda: torch.autograd.grad(b.sum(), [v]), INFERENCE_INDIRECT)


def test_unpacking_a_saved_stale_multi_output_view_asks_for_its_grad_fn_first():
    a = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    piece = a.chunk(3)[0]
    n = piece.norm()
    with torch.no_grad():
        piece.pow_(2)
    _raises(lambda: n.backward(), SPLIT_INDIRECT)


@pytest.mark.parametrize("index", [-1, (slice(None), 0), 0])
def test_setitem_names_the_select_view_it_writes_through(index):
    a = torch.tensor([[1., 2., 3., 4.]], requires_grad=True).floor()
    with torch.inference_mode():
        v = a.unsqueeze(-2)
    _raises(lambda: v.__setitem__(index, 0.5),
            "Output 0 of Select is a view of a view which was created in inference mode and is being "
            "modified inplace in normal mode.")


def test_setitem_names_the_slice_view_it_writes_through():
    a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True).sign()
    with torch.inference_mode():
        v = a.unsqueeze(-2)
    _raises(lambda: v.__setitem__(slice(-2, None), 0.0),
            "Output 0 of Slice is a view of a view which was created in inference mode")


@pytest.mark.parametrize("dtype", [torch.bool, torch.int64, torch.uint8])
def test_copy_into_an_integer_view_checks_nothing_of_autograd(dtype):
    src = torch.tensor(1., requires_grad=True)
    one_of_many = torch.tensor([0, 0, 1], dtype=dtype).unbind(0)[2]
    one_of_many.copy_(src)
    assert one_of_many.item() == 1 and not one_of_many.requires_grad
    base = torch.tensor([0, 0, 1], dtype=dtype)
    with torch.no_grad():
        v = base[1:]
    v.copy_(torch.ones(2, requires_grad=True))
    assert base.tolist() == [0, 1, 1] if dtype is not torch.bool else [False, True, True]
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(2\) must match the size of tensor b \(4\)"):
        v.copy_(torch.ones(2, 4, requires_grad=True))


def test_add_into_an_integer_no_grad_view_is_still_refused():
    base = torch.tensor([0, 0, 1])
    with torch.no_grad():
        v = base[1:]
    _raises(lambda: v.add_(torch.ones(2, 4, requires_grad=True)),
            "A view was created in no_grad mode and is being modified inplace with grad mode enabled.")


def test_copy_into_a_float_multi_output_view_is_refused_before_the_shape_check():
    v = torch.tensor([0., 0., 1.]).unbind(0)[2]
    _raises(lambda: v.copy_(torch.ones(2, 4, requires_grad=True)),
            "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
            "This view is the output of a function that returns multiple views.")
