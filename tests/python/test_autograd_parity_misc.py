"""Small differences from PyTorch that its test_autograd.py found: saved tensors detached in place,
grad modes, attribute deletion, version counters, legacy tensor types, the identity of `.grad`,
extremes of NaN inputs and second backwards through index nodes. Recorded from torch 2.15; with
LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import gc
import threading
import warnings
import weakref

import pytest

import leafgrad as torch


def test_saved_input_detached_in_place():
    a = torch.tensor(1.0, requires_grad=True).clone()
    b = a.sin()
    a.detach_()
    with pytest.raises(RuntimeError) as e:
        b.backward()
    assert str(e.value) == (
        "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This "
        "is not supported, please use out-of-place `.detach()` instead"
    )
    a = torch.tensor(1.0, requires_grad=True).clone()
    b = a.exp()  # saves its output, not a
    a.detach_()
    b.backward()


def test_inference_mode_false_inside_inference_mode_turns_grad_on():
    with torch.no_grad():
        with torch.inference_mode(False):
            assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
    with torch.inference_mode():
        with torch.inference_mode(False):
            assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
        assert torch.is_inference_mode_enabled() and not torch.is_grad_enabled()
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()


def test_grad_mode_decorating_a_class_warns_and_wraps_construction():
    with pytest.warns(FutureWarning, match="Decorating classes is deprecated"):

        @torch.no_grad()
        class Foo:
            def __init__(self):
                self.grad_in_init = torch.is_grad_enabled()

            def method(self):
                return torch.is_grad_enabled()

    foo = Foo()
    assert (foo.grad_in_init, foo.method()) == (False, True)


def test_attribute_deletion():
    x = torch.ones(2, requires_grad=True)
    (x * 2).sum().backward()
    del x.grad
    assert x.grad is None
    with pytest.raises(RuntimeError, match="Deleting tensor data is not allowed"):
        del x.data
    with pytest.raises(TypeError, match="Variable data has to be a tensor, but got NoneType"):
        x.data = None
    with pytest.raises(RuntimeError, match="requires_grad must be a bool"):
        del x.requires_grad
    with pytest.raises(RuntimeError, match="Deletion of _grad_fn not allowed"):
        del x._grad_fn


def test_assigning_data_keeps_the_version_counter():
    x = torch.ones(1, 2)
    x.add_(1).add_(1)
    xz = x[:]
    xz.add_(1)
    assert x._version == xz._version == 3
    x.data = torch.ones(2, 3)
    assert x._version == 3
    x.add_(1)
    assert x._version == xz._version == 4
    xz.add_(1)
    assert x._version == xz._version == 5


def test_legacy_tensor_types_are_instance_checks():
    x = torch.ones(2, 2)
    assert isinstance(x.float(), torch.FloatTensor) and not isinstance(x, torch.DoubleTensor)
    assert isinstance(x.int(), torch.IntTensor) and isinstance(x.byte(), torch.ByteTensor)
    assert isinstance(x.double(), torch.DoubleTensor) and isinstance(x.long(), torch.LongTensor)
    for t in (torch.DoubleTensor, torch.FloatTensor, torch.IntTensor, torch.ByteTensor):
        assert isinstance(x.type(t), t)
        assert x.type(t).dtype is t.dtype
    assert not isinstance(1, torch.FloatTensor)


def test_grad_is_one_persistent_object():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x**2).sum().backward()
    ref = weakref.ref(x.grad)
    gc.collect()
    assert ref() is x.grad and ref().tolist() == [2.0, 4.0, 6.0]
    refs = []
    barrier = threading.Barrier(3)

    def read():
        barrier.wait()
        refs.append(weakref.ref(x.grad))

    threads = [threading.Thread(target=read) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r() is x.grad for r in refs)
    x.grad = None
    assert ref() is None  # nothing holds the old gradient any more


@pytest.mark.parametrize("fn", [torch.max, torch.min])
def test_extremes_of_nan_inputs_share_the_gradient_among_the_nans(fn):
    nan = float("nan")
    x = torch.tensor([nan, nan], requires_grad=True)
    fn(x).backward()
    assert x.grad.tolist() == [0.5, 0.5]
    x = torch.tensor([1.0, nan, 3.0, nan], requires_grad=True)
    fn(x).backward()
    assert x.grad.tolist() == [0.0, 0.5, 0.0, 0.5]
    x = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
    torch.max(x).backward()
    assert x.grad.tolist() == [0.0, 0.5, 0.5]


def test_second_backward_through_index_nodes_needs_retain_graph():
    b = torch.ones(3, dtype=torch.double, requires_grad=True)
    c = torch.zeros(3, dtype=torch.double)
    c[[1, 2]] = b[[1, 1]]
    c.backward(torch.ones(3, dtype=torch.double))
    with pytest.raises(RuntimeError, match="Specify retain_graph=True"):
        c.backward(torch.ones(3, dtype=torch.double))
    x = torch.ones(3, requires_grad=True)
    for y in (x[[0, 1]].sum(), x.gather(0, torch.tensor([0, 0])).sum(),
              x.index_select(0, torch.tensor([0, 0])).sum()):
        y.backward()
        with pytest.raises(RuntimeError, match="Specify retain_graph=True"):
            y.backward()
    y = x.roll(1).sum()  # saves no tensor: a second backward is allowed
    y.backward()
    y.backward()


# Each of these PyTorch nodes saves an index, mask or target tensor (measured on torch 2.15).
_SAVES_INDICES = {
    "max_dim": lambda x: x.max(dim=1)[0],
    "min_dim": lambda x: x.min(dim=0)[0],
    "max_dim_0d": lambda x: x[0, 0].max(dim=0)[0],
    "take": lambda x: x.take(torch.tensor([0, 1, 5])),
    "masked_select": lambda x: x.masked_select(x > 0),
    "nll_loss": lambda x: torch.nn.functional.nll_loss(x, torch.tensor([1, 0])),
    "nll_loss_weight": lambda x: torch.nn.functional.nll_loss(
        x, torch.tensor([1, 0]), weight=torch.ones(4)),
    "cross_entropy": lambda x: torch.nn.functional.cross_entropy(x, torch.tensor([1, 0])),
    "max_pool2d": lambda x: torch.nn.functional.max_pool2d(x.view(1, 1, 2, 4), 2),
    "max_pool1d": lambda x: torch.nn.functional.max_pool1d(x.view(1, 2, 4), 2),
    "embedding": lambda x: torch.nn.functional.embedding(torch.tensor([0, 1, 1]), x),
}


@pytest.mark.parametrize("name", sorted(_SAVES_INDICES))
def test_second_backward_through_nodes_that_save_their_indices_fails(name):
    x = torch.tensor([[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.5, 3.0]], requires_grad=True)
    y = _SAVES_INDICES[name](x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="Specify retain_graph=True"):
        y.backward()
    z = _SAVES_INDICES[name](x).sum()
    z.backward(retain_graph=True)
    z.backward()
    assert x.grad is not None


def test_repr_of_a_view_whose_grad_fn_is_an_error():
    a = torch.ones(1, requires_grad=True)
    with torch.no_grad():
        b = a[:]
        b *= 2
    assert repr(b) == "tensor([2.], grad_fn=<Invalid>)"


def test_no_grad_view_of_a_view_made_under_no_grad():
    x = torch.zeros(2)
    with torch.no_grad():
        y = x.view(2)
    y.requires_grad_(True)
    z = y.view(2)
    with pytest.raises(RuntimeError) as e:
        z /= 2
    assert str(e.value).startswith(
        "Output 0 of View is a view of a view which was created in no_grad mode and is being "
        "modified inplace with grad mode enabled."
    )


def test_views_of_inference_tensors_never_require_grad():
    with torch.inference_mode():
        c = torch.ones(1, 2, 3, requires_grad=True)
        v = c.view(-1)
        assert torch.is_inference(v) and not v.requires_grad
    v2 = c.view(-1)
    assert torch.is_inference(v2) and not v2.requires_grad


def test_nested_anomaly_report_is_a_warning_each_time():
    x = torch.tensor([0.0], requires_grad=True)
    for _ in range(2):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("default")
            with pytest.raises(RuntimeError, match="returned nan values"):
                with torch.autograd.detect_anomaly():
                    (x.sqrt() * 0).sum().backward()
        assert any("Error detected in" in str(m.message) for m in w)


def _pairs(t):
    return [(c.real, c.imag) for c in t.tolist()]


def _same_pairs(a, b):
    import math

    def same(x, y):
        return (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y))

    return all(same(p, r) and same(q, s) for (p, q), (r, s) in zip(a, b))


def test_complex_sqrt_and_division_follow_c99_and_c10():
    inf, nan = float("inf"), float("nan")
    z = torch.tensor(
        [complex(-4, 0), complex(3, 4), complex(0.1, -2.5), complex(-inf, 1), complex(inf, -1),
         complex(1, inf), complex(-inf, nan), complex(0, -0.0)],
        dtype=torch.complex128,
    )
    assert _same_pairs(_pairs(z.sqrt()), [
        (0.0, 2.0), (2.0, 1.0), (1.1406136946046546, -1.0959012730714754), (0.0, inf),
        (inf, -0.0), (inf, inf), (nan, inf), (0.0, -0.0),
    ])
    a = torch.tensor([complex(1, 2)] * 3, dtype=torch.complex128)
    b = torch.tensor([complex(inf, 0), complex(0, inf), complex(3, -4)], dtype=torch.complex128)
    assert _same_pairs(_pairs(a / b), [(0.0, 0.0), (0.0, -0.0), (-0.2, 0.4)])


def test_scalar_conversion_warns_only_with_grad_mode_on():
    t = torch.tensor(2.0, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.no_grad():
            assert float(t) == 2.0 and t.item() == 2.0 and int(t) == 2
        with torch.inference_mode():
            assert float(t) == 2.0
    assert not [w for w in caught if "Converting a tensor" in str(w.message)]


def test_addmm_and_linear_name_mismatched_dtypes_as_pytorch():
    a, w, b = torch.ones(2, 3, dtype=torch.float64), torch.ones(4, 3), torch.ones(4)
    msg = "^mat1 and mat2 must have the same dtype, but got Double and Float$"
    with pytest.raises(RuntimeError, match=msg):
        torch.nn.functional.linear(a, w, b)
    with pytest.raises(RuntimeError, match=msg):
        torch.addmm(b, a, w.t())
    with pytest.raises(RuntimeError, match="^expected m1 and m2 to have the same dtype, but got: double != float$"):
        torch.mm(a, w.t())


def test_deepcopy_of_a_parameter_leaves_grad_behind():
    import copy

    p = torch.nn.Parameter(torch.ones(2))
    p.grad = torch.full((2,), 3.0)
    q = copy.deepcopy(p)
    assert q.grad is None and q.requires_grad and q.data_ptr() != p.data_ptr()
    m = torch.nn.Linear(2, 2)
    m(torch.ones(1, 2)).sum().backward()
    assert copy.deepcopy(m).weight.grad is None
    t = torch.ones(2, requires_grad=True)
    t.grad = torch.ones(2)
    assert copy.deepcopy(t).grad.tolist() == [1.0, 1.0]  # plain tensors keep theirs
