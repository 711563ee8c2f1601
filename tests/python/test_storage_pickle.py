"""Storages (`Tensor.untyped_storage()`, `Tensor.storage()`), pickling and copying tensors,
`set_` and `resize_`. Values and texts were recorded from torch 2.15; with
LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import copy
import pickle
import warnings

import pytest

import leafgrad as torch


def typed(t):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return t.storage()


# ---------------------------------------------------------------- storages


def test_storages_see_the_whole_memory():
    a = torch.arange(6.)
    s = typed(a[2:4])
    assert len(s) == 6 and s.size() == 6 and s.dtype == torch.float32
    assert s.data_ptr() == a.data_ptr() and s.element_size() == 4 and s.nbytes() == 24
    assert s.tolist() == [0., 1., 2., 3., 4., 5.] and s[1] == 1.0 and list(s)[5] == 5.0
    u = a.untyped_storage()
    assert type(u).__name__ == "UntypedStorage" and len(u) == 24 and u.nbytes() == 24
    i = torch.tensor([1, 2], dtype=torch.int32).untyped_storage()
    assert (len(i), i[0], i[4], i.element_size()) == (8, 1, 2, 1)
    t = torch.tensor([1., 2., 3.])
    st = typed(t)
    st[0] = 9
    assert t.tolist() == [9., 2., 3.]
    assert str(st) == " 9.0\n 2.0\n 3.0\n[torch.storage.TypedStorage(dtype=torch.float32, device=cpu) of size 3]"
    assert str(typed(torch.tensor([], dtype=torch.float64))) == \
        " \n[torch.storage.TypedStorage(dtype=torch.float64, device=cpu) of size 0]"
    assert st.type() == "torch.FloatStorage"
    assert st.cpu().data_ptr() == st.data_ptr() and type(st.cpu()).__name__ == "TypedStorage"
    c = st.clone()
    assert c.data_ptr() != st.data_ptr() and c.tolist() == st.tolist()
    assert pickle.loads(pickle.dumps(st)).tolist() == [9., 2., 3.]


def test_typed_storage_warns_once():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        torch.ones(1).storage()
        torch.ones(1).storage()
    texts = [str(x.message) for x in w if "TypedStorage is deprecated" in str(x.message)]
    assert len(texts) <= 1  # once per process (an earlier test may have taken it)


def test_dual_tensor_storage_is_the_primal_memory():
    fwAD = torch.autograd.forward_ad
    foo, bar = torch.rand(2), torch.ones(2)
    with fwAD.dual_level():
        dual = fwAD.make_dual(foo, bar)
        assert typed(dual).data_ptr() == typed(foo).data_ptr()
        p, t = fwAD.unpack_dual(dual)
        assert t is bar and typed(p).data_ptr() == typed(foo).data_ptr()
        # a tangent laid out differently (here: smaller memory) is copied into the primal's layout
        primal = torch.randn(5)[:4].detach()
        tangent = torch.randn(4)
        dual = fwAD.make_dual(primal, tangent)
        unpacked = fwAD.unpack_dual(dual).tangent
        assert unpacked is not tangent and len(typed(unpacked)) == 5
        before = tangent.clone()
        unpacked *= 2
        assert torch.equal(before, tangent)
        dual.as_strided((5,), (1,), 0)
        # an empty tensor's offset, and a size-1 dim's stride, do not count
        a = torch.tensor([1.0]).as_strided((0,), (1,), 1)
        b = torch.tensor([1.0]).as_strided((0,), (1,), 2)
        assert fwAD.unpack_dual(fwAD.make_dual(a, b)).tangent is b
        a = torch.tensor([1.0]).as_strided((1,), (2,), 0)
        b = torch.tensor([1.0]).as_strided((1,), (1,), 0)
        assert fwAD.unpack_dual(fwAD.make_dual(a, b)).tangent is b


def test_detach_in_place_drops_the_tangent():
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.rand(2), torch.ones(2)).clone()
        dual.detach_()
        assert fwAD.unpack_dual(dual * 2).tangent is None


# ---------------------------------------------------------------- pickle and copy


def test_pickle_keeps_values_layout_and_requires_grad():
    x = torch.randn(10, 10, requires_grad=True)
    y = torch.randn(10, 10)
    for proto in range(5):
        xc, yc = pickle.loads(pickle.dumps([x, y], protocol=proto))
        assert torch.equal(xc, x) and torch.equal(yc, y)
        assert xc.requires_grad and not yc.requires_grad and xc.is_leaf and xc.grad is None
    v = torch.arange(6.)[1:3]
    single = pickle.loads(pickle.dumps(v))
    assert single.tolist() == [1., 2.] and single.storage_offset() == 1
    assert single.untyped_storage().nbytes() == 24
    t = torch.arange(6.).view(2, 3).t()
    assert pickle.loads(pickle.dumps(t)).stride() == (1, 3)
    # each tensor is pickled with its own copy of the memory
    base = torch.arange(6.)
    b3, u1 = pickle.loads(pickle.dumps([base, base[1:3]]))
    u1[0] = -5
    assert b3[1].item() == 1.0
    for value in (torch.tensor([1 + 2j]), torch.tensor([True]), torch.tensor(3, dtype=torch.bfloat16),
                  torch.tensor([2**62 + 1])):
        back = pickle.loads(pickle.dumps(value))
        assert back.dtype == value.dtype and back.tolist() == value.tolist()


def test_pickle_of_a_non_leaf_gives_a_leaf():
    x = torch.randn(3, requires_grad=True)
    r = pickle.loads(pickle.dumps(x * 2))
    assert r.requires_grad and r.is_leaf and r.grad_fn is None


def test_deepcopy():
    x = torch.randn(3, requires_grad=True)
    x.grad = torch.ones(3)
    c = copy.deepcopy(x)
    assert torch.equal(c, x) and c.data_ptr() != x.data_ptr()
    assert c.requires_grad and c.is_leaf and c.grad is not x.grad and c.grad.tolist() == [1., 1., 1.]
    with pytest.raises(RuntimeError) as e:
        copy.deepcopy(x * 2)
    assert str(e.value).startswith(
        "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol")
    # tensors sharing memory share it again after one deepcopy
    base = torch.arange(6.)
    b2, w1, w2 = copy.deepcopy([base, base[1:3], base.view(2, 3)])
    w1[0] = 100
    assert b2[1].item() == 100 and w2[0, 1].item() == 100 and base[1].item() == 1
    assert w1.stride() == (1,) and w1.storage_offset() == 1
    a = torch.ones(2)
    pair = copy.deepcopy([a, a])
    assert pair[0] is pair[1]
    shallow = copy.copy(x)
    assert shallow is not x and shallow.data_ptr() == x.data_ptr()


def test_parameters_and_modules_copy():
    m = torch.nn.Linear(2, 2)
    m2 = copy.deepcopy(m)
    assert type(m2.weight).__name__ == "Parameter" and m2.weight.requires_grad
    assert torch.equal(m.weight, m2.weight) and m2.weight.data_ptr() != m.weight.data_ptr()
    pm = pickle.loads(pickle.dumps(m))
    assert type(pm.weight).__name__ == "Parameter" and torch.equal(pm.bias, m.bias)
    p = torch.nn.Parameter(torch.ones(2), requires_grad=False)
    assert not copy.deepcopy(p).requires_grad


def test_dtypes_pickle_by_name():
    for d in (torch.float32, torch.int64, torch.bfloat16, torch.complex128, torch.bool):
        assert pickle.loads(pickle.dumps(d)) is d and copy.deepcopy(d) is d


# ---------------------------------------------------------------- set_ and resize_


def test_set_takes_the_source_memory():
    z = torch.zeros(2)
    src = torch.arange(6.).view(2, 3)
    assert z.set_(src) is z and z.tolist() == src.tolist() and z.data_ptr() == src.data_ptr()
    assert (z._version, src._version) == (1, 0)
    z[0, 0] = 100
    assert src[0, 0].item() == 100
    w = torch.zeros(3)
    assert w.set_().shape == (0,)
    u = torch.zeros(1)
    u.set_(typed(src), 1, (2,), (2,))
    assert u.tolist() == [1., 3.]
    with pytest.raises(RuntimeError) as e:
        torch.zeros(1).set_(torch.zeros(2, dtype=torch.float64))
    assert str(e.value) == "Could not set tensor of type double to a tensor of type float"


def test_set_and_autograd():
    x = torch.rand(2, requires_grad=True)
    out = x.clone()
    with torch.no_grad():
        x.set_(torch.tensor([5., 6.]))
    assert x.tolist() == [5., 6.] and x._version == 1 and x.is_leaf
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        torch.autograd.grad(out.sum(), x)
    assert torch.autograd.grad((x * 2).sum(), x)[0].tolist() == [2., 2.]
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        torch.rand(2, requires_grad=True).set_(torch.zeros(3))
    a = torch.rand(3, requires_grad=True).clone()
    a.set_(torch.zeros(2))
    assert type(a.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for set_ is not implemented"):
        a.sum().backward()
    p = torch.nn.Parameter(torch.rand(3))
    with torch.no_grad():
        p.set_(torch.rand(5))
    p.sum().backward()
    assert p.shape == (5,) and p.grad.shape == (5,)


def test_resize():
    t = torch.arange(6.)
    t.resize_(2, 2)
    assert t.tolist() == [[0., 1.], [2., 3.]] and t._version == 1
    t.resize_(3, 3)
    assert t.shape == (3, 3) and t[:2].tolist() == [[0., 1., 2.], [3., 4., 5.]] and t._version == 2
    t.resize_((3, 3))  # the same shape: nothing, no version bump
    assert t._version == 2
    assert torch.arange(4.).resize_as_(torch.zeros(2, 2)).shape == (2, 2)
    v = torch.arange(4.)[1:]
    assert v.resize_(2).tolist() == [1., 2.]
    t4 = torch.arange(4.).view(2, 2).t()
    assert t4.resize_(4).stride() == (1,)
    for r in (torch.rand(3, requires_grad=True), torch.rand(3, requires_grad=True).clone()):
        with pytest.raises(RuntimeError) as e:
            r.resize_(2)
        assert str(e.value) == "cannot resize variables that require grad"
    with torch.inference_mode():
        c = torch.ones(1, 2, 3, requires_grad=True)
        c.resize_(1, 2)
        assert c.shape == (1, 2)
