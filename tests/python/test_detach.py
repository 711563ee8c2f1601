"""SPEC §7: detach(), detach_(), .data, clone(), _version."""

import leafgrad as torch
import pytest
from support import VERSION_HINT, exact

DETACH_VIEW = (
    "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
    "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
    "buckets, and hence detach_() cannot be called on these gradients. To fix this error, please "
    "refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
)


def leaf3():
    return torch.tensor([1.0, 2.0, 3.0], requires_grad=True)


def test_detach_gives_new_leaf_without_grad():
    x = leaf3()
    y = x * 2
    d = y.detach()
    assert d is not y
    assert (d.is_leaf, d.requires_grad, d.grad_fn) == (True, False, None)
    assert not d._is_view()
    assert d.tolist() == [2.0, 4.0, 6.0]
    assert y.requires_grad and not y.is_leaf


def test_detach_of_leaf_is_a_different_object():
    x = leaf3()
    d = x.detach()
    assert d is not x
    assert x.requires_grad and not d.requires_grad


def test_detach_shares_storage_and_version_counter():
    x = leaf3()
    y = x * 2
    d = y.detach()
    d[0] = 100.0
    assert repr(y) == "tensor([100.,   4.,   6.], grad_fn=<MulBackward0>)"
    assert d._version == 1 and y._version == 1
    # MulBackward0 saved x (and the scalar), not y: backward still works
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_modifying_saved_output_through_detach_breaks_backward():
    x = leaf3()
    y = x.exp()
    y.detach().zero_()
    msg = (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [3]], which is output 0 of Exp, is at version 1; expected "
        "version 0 instead." + VERSION_HINT
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        y.sum().backward()


def test_detach_in_place_on_non_leaf():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = x * 2
    r = z.detach_()
    assert r is z
    assert (z.is_leaf, z.requires_grad, z.grad_fn) == (True, False, None)
    assert z.tolist() == [2.0, 4.0]
    z.requires_grad_()
    (z * z).sum().backward()
    assert z.grad.tolist() == [4.0, 8.0]
    assert x.grad is None


def test_detach_in_place_on_requiring_leaf_turns_requires_grad_off():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    assert x.detach_() is x
    assert x.is_leaf and not x.requires_grad


@pytest.mark.parametrize(
    "make_view",
    [
        lambda: torch.tensor([1.0, 2.0], requires_grad=True)[0:1],
        lambda: (torch.tensor([1.0, 2.0], requires_grad=True) * 2).view(2, 1),
        lambda: torch.tensor([1.0, 2.0, 3.0])[1:],
        lambda: torch.zeros(2, 2).view(4),
    ],
    ids=["slice_of_rg_leaf", "view_of_non_leaf", "slice_of_plain", "view_of_plain"],
)
def test_detach_in_place_on_views_fails(make_view):
    v = make_view()
    with pytest.raises(RuntimeError, match=exact(DETACH_VIEW)):
        v.detach_()


def test_data_is_leaf_sharing_storage_with_separate_version():
    x = leaf3()
    y = x.exp()
    data = y.data
    assert (data.is_leaf, data.requires_grad, data.grad_fn) == (True, False, None)
    data.zero_()
    assert data._version == 1
    assert y._version == 0
    assert y.tolist() == [0.0, 0.0, 0.0]
    # autograd cannot see the change: silently wrong gradient, no error
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


def test_assigning_data_keeps_identity_leafness_and_requires_grad():
    x = leaf3()
    alias = x
    x.data = torch.zeros(5)
    assert alias is x
    assert repr(x) == "tensor([0., 0., 0., 0., 0.], requires_grad=True)"
    assert x.is_leaf and x.requires_grad and x.shape == torch.Size([5])


def test_assigning_data_may_change_float_dtype():
    x = leaf3()
    x.data = torch.ones(2, dtype=torch.float64)
    assert x.dtype == torch.float64
    assert x.requires_grad and x.is_leaf


def test_assigning_int_data_to_requiring_tensor():
    x = leaf3()
    msg = "data set to a tensor that requires gradients must be floating point or complex dtype"
    with pytest.raises(RuntimeError, match=exact(msg)):
        x.data = torch.tensor([1, 2, 3])
    assert x.tolist() == [1.0, 2.0, 3.0]


def test_assigning_list_as_data():
    x = leaf3()
    with pytest.raises(
        TypeError, match=exact("Variable data has to be a tensor, but got list")
    ):
        x.data = [1.0, 2.0]


def test_clone_is_recorded_and_gradient_flows_as_identity():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = x.clone()
    assert repr(c) == "tensor([1., 2.], grad_fn=<CloneBackward0>)"
    assert not c.is_leaf
    (c * torch.tensor([3.0, 5.0])).sum().backward()
    assert x.grad.tolist() == [3.0, 5.0]


def test_clone_of_plain_tensor_is_leaf_with_fresh_storage():
    t = torch.tensor([1.0, 2.0])
    c = t.clone()
    assert c.is_leaf and not c.requires_grad
    c[0] = 9.0
    assert t.tolist() == [1.0, 2.0]


def test_detach_clone_is_fresh_leaf():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    c = y.detach().clone()
    assert (c.is_leaf, c.requires_grad, c.grad_fn) == (True, False, None)
    c[0] = -1.0
    assert y.tolist() == [2.0, 4.0]
    assert y._version == 0


def test_version_counts_in_place_ops():
    t = torch.zeros(3)
    assert t._version == 0
    t.add_(1)
    assert t._version == 1
    t[0] = 3.0
    assert t._version == 2
    t.zero_()
    assert t._version == 3
    u = t + 1
    assert u._version == 0 and t._version == 3


def test_views_share_the_version_counter():
    t = torch.zeros(3)
    v = t[0:1]
    v.add_(1)
    assert t._version == 1 and v._version == 1
    t.mul_(2)
    assert v._version == 2
    assert t.tolist() == [2.0, 0.0, 0.0]
