"""view_as_complex as a view (ViewAsComplexBackward0), its layout checks, in-place ops through
complex views of a real base, and what a raw saved tensor exposes (`.data`, `.unpack_hook`):
PyTorch 2.15's behaviour, with LEAFGRAD_TEST_TORCH=1 checked against torch."""
import pytest

from support import grad_fn_name as name, raises_exactly as raises

import leafgrad as torch


def test_view_as_complex_shares_memory():
    b = torch.arange(8., dtype=torch.float64).view(2, 2, 2)
    c = torch.view_as_complex(b)
    assert c.dtype == torch.complex128 and c.shape == (2, 2) and c.stride() == (2, 1) and c._base is b._base
    c[0, 1] = 5 + 6j
    assert b[0, 1].tolist() == [5., 6.]
    s = torch.view_as_complex(torch.zeros(2, 3, 2)[:, ::2])
    assert s.stride() == (3, 2) and s.dtype == torch.complex64


def test_view_as_complex_gradient():
    x = torch.tensor([[3., 4.], [0., 1.]], dtype=torch.float64, requires_grad=True)
    z = torch.view_as_complex(x)
    assert name(z) == "ViewAsComplexBackward0"
    z.abs().sum().backward()
    assert torch.allclose(x.grad, torch.tensor([[0.6, 0.8], [0., 1.]], dtype=torch.float64))


def test_in_place_through_a_complex_view_of_a_real_base():
    x = torch.tensor([[[1., 2.], [3., 4.]], [[5., 6.], [7., 8.]]], dtype=torch.float64, requires_grad=True)
    y = x.detach().requires_grad_(True)
    b = x.clone()
    v = torch.view_as_complex(b).reshape(4)
    v.mul_(2)
    v.sum().abs().backward()
    w = torch.view_as_complex(y.clone()).reshape(4).mul(2)
    w.sum().abs().backward()
    assert torch.allclose(x.grad, y.grad)
    assert b.tolist()[0][0] == [2., 4.]


def test_multi_output_views_refuse_in_place():
    x1 = torch.view_as_complex(torch.zeros(2, 2, 2, dtype=torch.float64, requires_grad=True))
    res = x1.unbind(0)
    with pytest.raises(RuntimeError, match="output of a function that returns multiple views"):
        res[0] += torch.rand(2, requires_grad=True)


@pytest.mark.parametrize("make,msg", [
    (lambda: torch.zeros(3), "Tensor must have a last dimension of size 2"),
    (lambda: torch.zeros(2, 2).t(), "Tensor must have a last dimension with stride 1"),
    (lambda: torch.zeros(7)[1:].view(3, 2), "Tensor must have a storage_offset divisible by 2"),
    (lambda: torch.tensor(1.), "Input tensor must have one or more dimensions"),
])
def test_view_as_complex_layout_errors(make, msg):
    raises(lambda: torch.view_as_complex(make()), msg)


def test_view_as_complex_dtype_error():
    raises(lambda: torch.view_as_complex(torch.zeros(3, 2, dtype=torch.int64)),
           "view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: Long",
           NotImplementedError)


def test_raw_saved_tensor_data_and_unpack_hook():
    def pack_hook(t):
        return t

    def unpack_hook(t):
        return t

    a = torch.tensor(2.0, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
        b = a ** 2
    c = b.exp()
    d = c ** 2
    pow_sv, exp_sv, pow2_sv = b.grad_fn._raw_saved_self, c.grad_fn._raw_saved_result, d.grad_fn._raw_saved_self
    assert pow_sv.data is a and pow_sv.unpack_hook is unpack_hook  # the packed object as is
    assert exp_sv.data is not c and exp_sv.data.item() == c.item() and exp_sv.unpack_hook is None
    assert pow2_sv.data is c and pow2_sv.unpack_hook is None


def test_dense_layout_and_gather_sparse_grad():
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    assert x.to_dense() is x and not x.is_sparse and not x.is_sparse_csr
    assert x.to_dense(torch.float64).dtype == torch.float64
    idx = torch.tensor([0, 0, 2])
    torch.gather(x, 0, idx).sum().backward()
    dense = x.grad.clone()
    x.grad = None
    torch.gather(x, 0, idx, sparse_grad=True).sum().backward()
    assert torch.equal(x.grad.to_dense(), dense)  # sparse in PyTorch, dense in leafgrad; same values
