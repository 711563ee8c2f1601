"""Names real scripts reach for beside the maths: nn.ParameterList / ParameterDict / Buffer,
attributes on tensors, torch.asarray / frombuffer / fill / gradient / conj_physical /
chain_matmul / empty_permuted / typename / ..., the functions PyTorch 2.x removed (their
RuntimeErrors), legacy HalfTensor / BFloat16Tensor, torch.tensor's errors for strings and
unknown objects, the in-place activations of nn.functional, backends.mkl / opt_einsum,
nn.common_types and OutOfMemoryError. Expected values and texts recorded from torch 2.15; with
LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import copy
import pickle
import re
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import leafgrad as torch
import leafgrad.nn.functional as F


def _err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (the type and text are what is compared)
        return f"{type(e).__name__}: {e}"
    return None


# ------------------------------------------------------------------------------ containers


def test_parameter_list_registers_tensors_as_parameters():
    pl = torch.nn.ParameterList([torch.ones(2), torch.nn.Parameter(torch.zeros(3)), "x"])
    assert repr(pl) == ("ParameterList(\n    (0): Parameter containing: [torch.float32 of size 2]\n"
                        "    (1): Parameter containing: [torch.float32 of size 3]\n    (2): Object of type: str\n)")
    assert len(pl) == 3 and [type(p).__name__ for p in pl] == ["Parameter", "Parameter", "str"]
    assert [n for n, _ in pl.named_parameters()] == ["0", "1"]
    pl.append(torch.ones(1, 2))
    assert repr(pl[1:]) == ("ParameterList(\n    (0): Parameter containing: [torch.float32 of size 3]\n"
                            "    (1): Object of type: str\n    (2): Parameter containing: [torch.float32 of size 1x2]\n)")
    assert pl[-1].shape == (1, 2)
    assert _err(lambda: pl.extend(torch.ones(2))) == \
        "TypeError: ParameterList.extend should be called with an iterable, but got Tensor"
    assert _err(lambda: pl()) == "RuntimeError: ParameterList should not be called."
    assert _err(lambda: pl[7]) == "IndexError: index 7 is out of range"


def test_parameter_dict_orders_and_registers():
    pd = torch.nn.ParameterDict({"w": torch.ones(2, 3), "b": torch.zeros(3)})
    assert list(pd.keys()) == ["b", "w"]  # a plain dict is added in sorted key order
    assert repr(pd) == ("ParameterDict(\n    (b): Parameter containing: [torch.FloatTensor of size 3]\n"
                        "    (w): Parameter containing: [torch.FloatTensor of size 2x3]\n)")
    pd2 = torch.nn.ParameterDict(OrderedDict([("z", torch.ones(1)), ("a", 1.0)]))
    assert list((pd | pd2).keys()) == ["b", "w", "z", "a"]
    assert repr(pd2) == ("ParameterDict(\n    (z): Parameter containing: [torch.FloatTensor of size 1]\n"
                         "    (a): Object of type: float\n)")
    assert pd.get("q", 5) == 5 and "w" in pd and pd.pop("w").shape == (2, 3) and len(pd) == 1
    assert _err(lambda: pd[3]) == (
        "TypeError: Index given to ParameterDict cannot be used as a key as it is not a string (type is 'int'). "
        "Open an issue on github if you need non-string keys.")
    k, v = pd2.popitem()
    assert (k, v) == ("a", 1.0)
    assert isinstance(pd2.setdefault("k", torch.ones(2)), torch.nn.Parameter)
    assert list(torch.nn.ParameterDict().fromkeys(["a", "b"]).items()) == [("a", None), ("b", None)]
    assert _err(lambda: pd2(1)) == "RuntimeError: ParameterDict should not be called."


class _M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ps = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(2)) for _ in range(2)])
        self.pd = torch.nn.ParameterDict({"a": torch.nn.Parameter(torch.ones(1))})
        self.buf = torch.nn.Buffer(torch.zeros(2))
        self.nb = torch.nn.Buffer(torch.ones(1), persistent=False)


def test_modules_see_container_parameters_and_buffers():
    m = _M()
    assert repr(m) == ("_M(\n  (ps): ParameterList(\n      (0): Parameter containing: [torch.float32 of size 2]\n"
                       "      (1): Parameter containing: [torch.float32 of size 2]\n  )\n"
                       "  (pd): ParameterDict(  (a): Parameter containing: [torch.FloatTensor of size 1])\n)")
    assert [n for n, _ in m.named_parameters()] == ["ps.0", "ps.1", "pd.a"]
    assert list(m.state_dict()) == ["buf", "ps.0", "ps.1", "pd.a"]
    assert [n for n, _ in m.named_buffers()] == ["buf", "nb"]
    assert type(m.buf) is torch.Tensor and isinstance(m.buf, torch.nn.Buffer) and m.buf.persistent
    assert not isinstance(torch.ones(1), torch.nn.Buffer)
    m2 = copy.deepcopy(m)
    assert [n for n, _ in m2.named_parameters()] == ["ps.0", "ps.1", "pd.a"]
    assert sum(p.numel() for p in m.parameters()) == 5


def test_tensors_carry_attributes():
    t = torch.ones(2)
    t.foo = 3
    assert t.foo == 3 and copy.deepcopy(t).foo == 3 and pickle.loads(pickle.dumps(t)).foo == 3
    assert "foo" in dir(t)
    assert _err(lambda: torch.ones(1).bar).startswith("AttributeError: ")


# ------------------------------------------------------------------------------ asarray, frombuffer


def test_asarray_shares_copies_and_refuses_as_pytorch():
    t = torch.ones(3)
    assert torch.asarray(t) is t
    assert torch.asarray(t, copy=True) is not t
    r = torch.ones(2, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert torch.asarray(r) is r
    assert any("unspecified requires_grad now defaults to obj.requires_grad" in str(w.message) for w in caught)
    c = torch.asarray(r, copy=True, requires_grad=True)
    assert c.grad_fn.name() == "CloneBackward0"
    d = torch.asarray(r, dtype=torch.float64, requires_grad=True)
    assert d.dtype == torch.float64 and d.grad_fn.name() == "ToCopyBackward0"
    assert torch.asarray(r, requires_grad=False) is r and not r.requires_grad  # set on the same leaf
    assert _err(lambda: torch.asarray([1, 2], copy=False)) == "ValueError: can't alias arbitrary sequence into a tensor."
    assert _err(lambda: torch.asarray(t, dtype=torch.int64, copy=False)) == \
        "ValueError: can't alias tensor with dtype 'Float' into dtype 'Long'."
    a = np.arange(3.0)
    x = torch.asarray(a)
    a[0] = 9
    assert x.tolist() == [9.0, 1.0, 2.0] and x.dtype == torch.float64
    assert str(torch.asarray(np.arange(3), dtype=torch.float32)) == "tensor([0., 1., 2.])"
    assert str(torch.asarray(np.float64(2.5))) == "tensor(2.5000, dtype=torch.float64)"
    assert str(torch.asarray(2.5)) == "tensor(2.5000)"
    assert str(torch.asarray([1, 2.5])) == "tensor([1.0000, 2.5000])"
    assert str(torch.asarray([1, 2], dtype=torch.float64, requires_grad=True)) == \
        "tensor([1., 2.], dtype=torch.float64, requires_grad=True)"
    assert torch.asarray([[1, 2]]).dtype == torch.int64
    import array

    assert str(torch.asarray(array.array("d", [1, 2]))) == "tensor([1., 2.], dtype=torch.float64)"
    assert str(torch.asarray(array.array("i", [1, 2]))) == "tensor([1, 2], dtype=torch.int32)"
    buf = bytearray(b"\x01\x02")
    y = torch.asarray(buf)
    buf[0] = 9
    assert str(y) == "tensor([9, 2], dtype=torch.uint8)"


def test_frombuffer_shares_memory_and_checks_lengths():
    buf = bytearray(b"\x01\x00\x02\x00")
    t = torch.frombuffer(buf, dtype=torch.int16)
    assert t.tolist() == [1, 2]
    t[0] = 7
    assert buf[0] == 7
    assert str(torch.frombuffer(bytearray(8), dtype=torch.float32, count=1, offset=4)) == "tensor([0.])"
    assert _err(lambda: torch.frombuffer(bytearray(8), dtype=torch.float32, count=3)) == (
        "ValueError: requested buffer length (3 * 4 bytes) after offset (0 bytes) must not be greater than actual "
        "buffer length (8 bytes)")
    assert _err(lambda: torch.frombuffer(bytearray(), dtype=torch.float32)) == \
        "ValueError: both buffer length (0) and count (-1) must not be 0"
    assert str(torch.frombuffer(bytearray(4), dtype=torch.float32, requires_grad=True)) == \
        "tensor([0.], requires_grad=True)"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _err(lambda: torch.frombuffer(b"abc", dtype=torch.int16)) == (
            "ValueError: buffer length (3 bytes) after offset (0 bytes) must be a multiple of element size (2)")
        assert torch.frombuffer(b"\x00\x00\x80\x3f", dtype=torch.float32).tolist() == [1.0]
        assert torch.frombuffer(bytearray(b"\x00\x3f\x00\x40"), dtype=torch.bfloat16).tolist() == [0.5, 2.0]


# ------------------------------------------------------------------------------ small functions


def test_small_functions():
    r = torch.ones(2, requires_grad=True)
    assert str(torch.fill(r, 3)) == "tensor([3., 3.], grad_fn=<FillBackward0>)"
    torch.fill(r, 3).sum().backward()
    assert r.grad.tolist() == [0.0, 0.0]
    assert str(torch.fill(torch.ones(2), 3)) == "tensor([3., 3.])"
    assert torch.fill(torch.ones(2, 3).t(), 1).stride() == (1, 3)
    assert str(torch.fill(torch.ones(2), torch.tensor(2.0, requires_grad=True))) == \
        "tensor([2., 2.], grad_fn=<FillBackward1>)"
    assert _err(lambda: torch.fill(torch.ones(2), torch.ones(2))) == \
        "RuntimeError: fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions."
    z = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
    assert str(torch.conj_physical(z)) == "tensor([1.-1.j, 2.+1.j], grad_fn=<ConjPhysicalBackward0>)"
    assert r.conj_physical() is r
    w = z.clone()
    assert str(w.conj_physical_()) == "tensor([1.-1.j, 2.+1.j], grad_fn=<ConjPhysicalBackward1>)"
    assert str(r.clone().conj_physical_()) == "tensor([1., 1.], grad_fn=<ConjPhysicalBackward1>)"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert torch.chain_matmul(torch.eye(2), torch.ones(2, 2)).tolist() == [[1.0, 1.0], [1.0, 1.0]]
        assert str(torch.chain_matmul(torch.ones(2, 2, requires_grad=True))).endswith("grad_fn=<CloneBackward0>)")
        assert _err(lambda: torch.chain_matmul()) == "RuntimeError: chain_matmul(): Expected one or more matrices"
        assert _err(lambda: torch.chain_matmul(torch.ones(2))) == \
            "RuntimeError: Tensor dimension is 1, expected 2 instead."
        assert torch.frobenius_norm(torch.ones(2, 3), (0, 1)).item() == pytest.approx(2.4494898)
        assert torch.nuclear_norm(torch.ones(2, 3)).item() == pytest.approx(2.4494898)
        assert torch.nuclear_norm(torch.ones(2, 2, 3), (1, 2)).tolist() == pytest.approx([2.4494898] * 2)
    assert any("torch.chain_matmul is deprecated" in str(w.message) for w in caught)
    assert torch.empty_permuted((2, 3, 4), (0, 2, 1)).stride() == (12, 1, 3)
    assert _err(lambda: torch.empty_permuted((2, 3), (1, 1))) == "RuntimeError: Duplicate dim not allowed"
    assert _err(lambda: torch.empty_permuted((2, 3), (0,))) == (
        "RuntimeError: Number of dimensions in size does not match the length of the physical_layout; i.e. "
        "len(size) = 2 is not equal to len(physical_layout) = 1")
    assert torch.index_put_(torch.zeros(3), (torch.tensor([0, 2]),), torch.tensor(5.0), accumulate=True).tolist() == \
        [5.0, 0.0, 5.0]
    assert torch.adjoint(torch.ones(2, 3)).shape == (3, 2)
    assert torch.typename(torch.ones(1)) == "torch.FloatTensor" and torch.typename(3) == "int"
    assert torch.typename(torch.nn.Linear(1, 1)) == "torch.nn.modules.linear.Linear"
    assert torch.get_device(torch.ones(1)) == -1
    assert not torch.is_storage(torch.ones(1)) and torch.is_storage(torch.ones(1).untyped_storage())
    assert _err(lambda: torch.is_distributed(3)) == \
        "TypeError: is_distributed(): argument 'input' (position 1) must be Tensor, not int"
    assert torch.newaxis is None
    assert torch.ones(2)[:, torch.newaxis].shape == (2, 1)
    x = torch.tensor([0.0])
    assert torch.tan_(x) is x


def test_removed_functions_raise_pytorchs_errors():
    assert _err(lambda: torch.solve(torch.ones(2, 1), torch.eye(2))).endswith(
        "X = torch.solve(B, A).solution should be replaced with:\nX = torch.linalg.solve(A, B)")
    assert _err(lambda: torch.lstsq(torch.ones(2, 1), torch.eye(2))).startswith(
        "RuntimeError: This function was deprecated since version 1.9 and is now removed. `torch.lstsq` is deprecated "
        "in favor of `torch.linalg.lstsq`.\n")
    assert _err(lambda: torch.symeig(torch.eye(2))).endswith("L, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')")
    assert _err(lambda: torch.matrix_rank(torch.eye(2))) == (
        "RuntimeError: This function was deprecated since version 1.9 and is now removed.\nPlease use the "
        "`torch.linalg.matrix_rank` function instead. The parameter 'symmetric' was renamed in "
        "`torch.linalg.matrix_rank()` to 'hermitian'.")
    assert _err(lambda: torch.eye(2).solve(torch.eye(2))) == _err(lambda: torch.solve(torch.eye(2), torch.eye(2)))
    assert _err(lambda: torch.eye(2).symeig()) == _err(lambda: torch.symeig(torch.eye(2)))


# ------------------------------------------------------------------------------ gradient

GRADIENT_X = [[1.0, 2, 4, 8], [10, 20, 40, 80.0], [3, 1, 4, 1]]


@pytest.mark.parametrize("kwargs, expected", [
    ({}, [[[9.0, 18.0, 36.0, 72.0], [1.0, -0.5, 0.0, -3.5], [-7.0, -19.0, -36.0, -79.0]],
          [[1.0, 1.5, 3.0, 4.0], [10.0, 15.0, 30.0, 40.0], [-2.0, 0.5, 0.0, -3.0]]]),
    ({"spacing": 2.0}, [[[4.5, 9.0, 18.0, 36.0], [0.5, -0.25, 0.0, -1.75], [-3.5, -9.5, -18.0, -39.5]],
                        [[0.5, 0.75, 1.5, 2.0], [5.0, 7.5, 15.0, 20.0], [-1.0, 0.25, 0.0, -1.5]]]),
    ({"dim": 1, "edge_order": 2}, [[[0.5, 1.5, 3.0, 5.0], [5.0, 15.0, 30.0, 50.0], [-4.5, 0.5, 0.0, -6.0]]]),
    ({"spacing": [torch.tensor([0.0, 1, 3], dtype=torch.float64)], "dim": 0, "edge_order": 2},
     [[[13.166666666666666, 27.166666666666664, 54.0, 109.16666666666666],
       [4.833333333333333, 8.833333333333332, 18.0, 34.83333333333333],
       [-11.833333333333334, -27.833333333333336, -54.0, -113.83333333333334]]]),
])
def test_gradient_values(kwargs, expected):
    x = torch.tensor(GRADIENT_X, dtype=torch.float64)
    got = torch.gradient(x, **kwargs)
    assert [g.tolist() for g in got] == expected


def test_gradient_integers_errors_and_autograd():
    assert str(torch.gradient(torch.tensor([1, 4, 9, 16]))) == "(tensor([3., 4., 6., 7.]),)"
    assert torch.gradient(torch.tensor(3.0)) == ()
    x = torch.ones(2, 3)
    assert _err(lambda: torch.gradient(x, spacing=[1.0, 2.0, 3.0])) == (
        "RuntimeError: torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal to "
        "'self.dim() = 2', since dim argument was not given, but got a list of length 3")
    assert _err(lambda: torch.gradient(x, spacing=[1.0, 2.0], dim=0)) == (
        "RuntimeError: torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim arguments "
        "to have the same length, but got a spacing argument of length 2 and a dim argument of length 1.")
    assert _err(lambda: torch.gradient(x, dim=0, edge_order=2)) == \
        "RuntimeError: torch.gradient expected each dimension size to be at least edge_order+1"
    assert torch.gradient(x, dim=1, edge_order=2)[0].shape == (2, 3)
    assert _err(lambda: torch.gradient(x, edge_order=3)) == \
        "RuntimeError: torch.gradient only supports edge_order=1 and edge_order=2."
    assert _err(lambda: torch.gradient(x, dim=[0, -2])) == "RuntimeError: dim 0 appears multiple times in the list of dims"
    assert _err(lambda: torch.gradient(torch.tensor([1, 2, 3], dtype=torch.uint8))) == \
        "NotImplementedError: torch.gradient does not support uint8 input."
    assert _err(lambda: torch.gradient(x, spacing=[[0.0, 1.0]], dim=0)) == \
        "TypeError: expected Tensor as element 0 in argument 1, but got list"
    assert _err(lambda: torch.gradient(x, spacing=[torch.ones(2, 2)], dim=0)) == (
        "RuntimeError: torch.gradient expected each element of spacing to have one dimension, but got an element "
        "with 2 dimensions!")
    y = torch.tensor([1.0, 3.0, 2.0, 5.0], dtype=torch.float64, requires_grad=True)
    g = torch.gradient(y * y, edge_order=2)[0]
    g.sum().backward()
    assert y.grad.tolist() == [-4.0, 12.0, -8.0, 20.0]
    assert torch.autograd.gradcheck(lambda t: torch.gradient(t, spacing=0.5)[0], (y.detach().requires_grad_(),))


# ------------------------------------------------------------------------------ scaffolding


def test_legacy_16_bit_constructors_and_tensor_errors():
    assert str(torch.HalfTensor([1, 2])) == "tensor([1., 2.], dtype=torch.float16)"
    assert str(torch.BFloat16Tensor([1.5])) == "tensor([1.5000], dtype=torch.bfloat16)"
    assert torch.HalfTensor(2, 3).shape == (2, 3)
    assert isinstance(torch.ones(1).half(), torch.HalfTensor)
    assert torch.ones(1).type(torch.HalfTensor).dtype == torch.float16
    assert _err(lambda: torch.tensor("ab")) == "TypeError: new(): invalid data type 'str'"
    assert _err(lambda: torch.tensor(b"ab")) == "TypeError: new(): invalid data type 'bytes'"
    assert _err(lambda: torch.tensor(["a"])) == "ValueError: too many dimensions 'str'"
    assert _err(lambda: torch.tensor([1, "a"])) == "TypeError: new(): invalid data type 'str'"
    assert _err(lambda: torch.tensor(object())) == "RuntimeError: Could not infer dtype of object"
    assert _err(lambda: torch.tensor(None)) == "RuntimeError: Could not infer dtype of NoneType"


def test_in_place_activations_of_functional():
    x = torch.tensor([-1.0, 2.0])
    assert F.relu_(x) is x and x.tolist() == [0.0, 2.0]
    assert str(F.elu_(torch.tensor([-1.0]))) == "tensor([-0.6321])"
    assert str(F.leaky_relu_(torch.tensor([-1.0]), 0.2)) == "tensor([-0.2000])"
    assert str(F.hardtanh_(torch.tensor([-3.0, 3.0]))) == "tensor([-1.,  1.])"


def test_backends_and_types_and_errors():
    assert isinstance(torch.backends.mkl.is_available(), bool)
    with torch.backends.mkl.verbose(torch.backends.mkl.VERBOSE_ON):
        pass
    assert isinstance(torch.backends.opt_einsum.is_available(), bool)
    from leafgrad.nn.common_types import _ratio_any_t, _size_2_t  # noqa: F401

    assert issubclass(torch.OutOfMemoryError, RuntimeError)
    assert torch.cuda.OutOfMemoryError is torch.OutOfMemoryError
    assert torch.GradScaler is torch.amp.GradScaler
    assert torch.has_lapack and torch.has_spectral


def test_torch_functional_module():
    import leafgrad.functional as Fn

    assert Fn.einsum("ij->j", torch.ones(2, 3)).tolist() == [2.0, 2.0, 2.0]
    assert Fn.broadcast_shapes((2, 1), (1, 3)) == torch.Size([2, 3])
    assert Fn.split(torch.arange(4), 2)[1].tolist() == [2, 3]


def test_deprecated_number_alpha_overloads():
    # add_(Number alpha, Tensor other) and friends: the old optimizer idiom p.data.add_(-lr, grad)
    p = torch.ones(3)
    assert p.add_(-0.5, torch.full((3,), 2.0)).tolist() == [0.0, 0.0, 0.0]
    assert torch.add(torch.ones(2), 10, torch.ones(2)).tolist() == [11.0, 11.0]
    assert torch.sub(torch.ones(2), 3, torch.ones(2)).tolist() == [-2.0, -2.0]
    assert torch.ones(2).sub_(3, torch.ones(2)).tolist() == [-2.0, -2.0]
    assert torch.ones(2).add(3, torch.ones(2)).tolist() == [4.0, 4.0]
    assert torch.ones(2).sub(3, torch.ones(2)).tolist() == [-2.0, -2.0]
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating"):
        torch.ones(2, dtype=torch.long).add(2.5, torch.ones(2, dtype=torch.long))


def test_the_deprecation_warning_text():
    import subprocess
    import sys

    code = ("import warnings, leafgrad as torch\nwarnings.simplefilter('always')\n"
            "torch.ones(2).add_(3, torch.ones(2)); torch.ones(2).sub_(3, torch.ones(2))")
    if getattr(torch, "__name__", "") == "torch":
        code = code.replace("leafgrad as torch", "torch")
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stderr
    assert err.count("deprecated") == 1  # once per process, as PyTorch's TORCH_WARN_ONCE
    assert ("UserWarning: This overload of add_ is deprecated:\n\tadd_(Number alpha, Tensor other)\nConsider using "
            "one of the following signatures instead:\n\tadd_(Tensor other, *, Number alpha = 1) (Triggered "
            "internally at /__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.cpp:1833.)") in err


@pytest.mark.parametrize("call, message", [
    (lambda: torch.ones(2).fmax(2), "fmax(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda: torch.ones(2).fmin(2), "fmin(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda: torch.ones(2, dtype=torch.long).gcd_(2), "gcd_(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda: torch.ones(2).logaddexp2(2), "logaddexp2(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda: torch.ones(2).heaviside(2), "heaviside(): argument 'values' (position 1) must be Tensor, not int"),
    (lambda: torch.fmax(torch.ones(2), 2), "fmax(): argument 'other' (position 2) must be Tensor, not int"),
])
def test_method_type_errors_count_positions_after_self(call, message):
    with pytest.raises(TypeError, match=re.escape(message)):
        call()


def test_pow_checks_shapes_before_refusing_bool():
    b = torch.ones(2, 3, dtype=torch.bool)
    with pytest.raises(RuntimeError, match=re.escape("The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1")):
        torch.pow(b, torch.ones(2, dtype=torch.bool))
    with pytest.raises(RuntimeError, match=re.escape("output with shape [2, 1] doesn't match the broadcast shape [2, 3]")):
        torch.ones(2, 1, dtype=torch.bool).pow_(b)
    with pytest.raises(NotImplementedError, match="\"pow\" not implemented for 'Bool'"):
        torch.pow(b, b)
