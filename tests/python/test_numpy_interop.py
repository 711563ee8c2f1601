"""numpy interop: `from_numpy` and `.numpy()` share memory (writes show through both ways),
`np.asarray(t)` goes through `__array__`, `torch.tensor(np_array)` copies, `.numpy()` refuses a
tensor that requires grad (SPEC 16), dtypes round-trip, and views keep their strides.
Runs against real PyTorch with LEAFGRAD_TEST_TORCH=1."""
import gc
import warnings

import numpy as np
import pytest

import leafgrad as torch

REQUIRES_GRAD_ERROR = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."

# Every dtype both libraries have and numpy can hold (bfloat16 has no numpy type).
DTYPES = [
    (torch.float16, np.float16),
    (torch.float32, np.float32),
    (torch.float64, np.float64),
    (torch.int32, np.int32),
    (torch.int64, np.int64),
    (torch.uint8, np.uint8),
    (torch.bool, np.bool_),
    (torch.complex64, np.complex64),
    (torch.complex128, np.complex128),
]
VALUES = {
    np.bool_: [True, False, True],
    np.uint8: [0, 7, 255],
    np.complex64: [1 + 2j, -0.5j, 3],
    np.complex128: [1 + 2j, -0.5j, 3],
}


# ---- memory sharing ---------------------------------------------------------------------------


def test_from_numpy_shares_memory_both_ways():
    a = np.array([1.0, 2.0, 3.0])
    t = torch.from_numpy(a)
    assert t.dtype == torch.float64 and t.is_leaf and not t.requires_grad
    a[0] = 10.0  # numpy -> tensor
    assert t.tolist() == [10.0, 2.0, 3.0]
    t[1] = 20.0  # tensor -> numpy
    t.mul_(2)
    assert a.tolist() == [20.0, 40.0, 6.0]
    assert np.shares_memory(t.numpy(), a)


def test_numpy_shares_memory_both_ways():
    t = torch.zeros(2, 3)
    a = t.numpy()
    assert a.dtype == np.float32 and a.shape == (2, 3)
    a[1, 2] = 5.0  # numpy -> tensor
    assert t[1, 2].item() == 5.0
    t.add_(1)  # tensor -> numpy
    assert a.tolist() == [[1.0, 1.0, 1.0], [1.0, 1.0, 6.0]]
    assert np.shares_memory(t.numpy(), t.numpy())


def test_numpy_of_a_0d_tensor_is_a_0d_array():
    a = torch.tensor(2.5).numpy()
    assert isinstance(a, np.ndarray) and a.shape == () and a.item() == 2.5


def test_memory_outlives_the_other_side():
    a = np.arange(4.0)
    t = torch.from_numpy(a)
    del a
    gc.collect()
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]
    t2 = torch.ones(3)
    b = t2.numpy()
    del t2
    gc.collect()
    assert b.tolist() == [1.0, 1.0, 1.0]


def test_asarray_goes_through_array_and_shares_memory():
    t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    a = np.asarray(t)
    assert isinstance(a, np.ndarray) and a.dtype == np.float32
    assert np.shares_memory(a, t.numpy())
    a[0, 0] = -1.0
    assert t[0, 0].item() == -1.0
    assert np.asarray(t, dtype=np.float64).dtype == np.float64  # converted copy


def test_np_array_copies():
    t = torch.tensor([1.0, 2.0])
    a = np.array(t)
    a[0] = 99.0
    assert t.tolist() == [1.0, 2.0]
    assert not np.shares_memory(a, t.numpy())


def test_tensor_of_an_array_copies():
    a = np.array([1.0, 2.0, 3.0])
    t = torch.tensor(a)
    assert t.dtype == torch.float64
    a[0] = 5.0
    assert t.tolist() == [1.0, 2.0, 3.0]
    t[1] = 7.0
    assert a.tolist() == [5.0, 2.0, 3.0]
    assert not np.shares_memory(t.numpy(), a)


def test_tensor_of_an_array_with_dtype_and_requires_grad():
    a = np.array([1, 2, 3])
    t = torch.tensor(a, dtype=torch.float32, requires_grad=True)
    assert t.dtype == torch.float32 and t.is_leaf and t.requires_grad
    assert torch.tensor(np.float64(1.5)).dtype == torch.float64  # numpy scalars keep their dtype


def test_as_tensor_of_an_array_shares_memory():
    a = np.ones(3)
    t = torch.as_tensor(a)
    a[0] = 5.0
    assert t.tolist() == [5.0, 1.0, 1.0]


def test_from_numpy_leaf_can_require_grad():
    t = torch.from_numpy(np.array([1.0, 2.0])).requires_grad_()
    (t * t).sum().backward()
    assert t.grad.tolist() == [2.0, 4.0]


# ---- requires grad (SPEC 16) ------------------------------------------------------------------


@pytest.mark.parametrize(
    "convert",
    [lambda t: t.numpy(), np.asarray, np.array],
    ids=["numpy", "np.asarray", "np.array"],
)
def test_numpy_refuses_a_tensor_that_requires_grad(convert):
    leaf = torch.ones(2, requires_grad=True)
    for t in (leaf, leaf * 2):
        with pytest.raises(RuntimeError) as e:
            convert(t)
        assert str(e.value) == REQUIRES_GRAD_ERROR
    assert leaf.detach().numpy().tolist() == [1.0, 1.0]
    with torch.no_grad():
        assert (leaf * 2).numpy().tolist() == [2.0, 2.0]  # no grad mode: no longer requires grad


def test_numpy_force_on_a_tensor_that_requires_grad():
    t = torch.ones(2, requires_grad=True)
    assert t.numpy(force=True).tolist() == [1.0, 1.0]


# ---- dtypes -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dt,np_dt", DTYPES, ids=[str(d) for d, _ in DTYPES])
def test_dtype_round_trip(dt, np_dt):
    values = VALUES.get(np_dt, [1, -2, 3] if np.dtype(np_dt).kind != "u" else [1, 2, 3])
    a = np.array(values, dtype=np_dt)
    t = torch.from_numpy(a)
    assert t.dtype == dt
    back = t.numpy()
    assert back.dtype == np_dt and np.shares_memory(back, a)
    assert torch.tensor(a).dtype == dt
    # tensor -> numpy -> tensor, starting from leafgrad
    made = torch.tensor(values, dtype=dt)
    assert made.numpy().dtype == np_dt
    assert torch.from_numpy(made.numpy()).dtype == dt
    assert made.numpy().tolist() == a.tolist() == made.tolist()


def test_bfloat16_has_no_numpy_type():
    t = torch.ones(2, dtype=torch.bfloat16)
    with pytest.raises(TypeError) as e:
        t.numpy()
    assert str(e.value) == "Got unsupported ScalarType BFloat16"
    assert t.float().numpy().dtype == np.float32


def test_from_numpy_refuses_other_byte_orders_and_negative_strides():
    with pytest.raises(ValueError) as e:
        torch.from_numpy(np.zeros(3, dtype=">f4"))
    assert str(e.value) == (
        "given numpy array has byte order different from the native byte order. "
        "Conversion between byte orders is currently not supported."
    )
    with pytest.raises(ValueError) as e:
        torch.from_numpy(np.arange(3.0)[::-1])
    assert str(e.value).startswith("At least one stride in the given numpy array is negative")


def test_from_numpy_arguments():
    with pytest.raises(TypeError) as e:
        torch.from_numpy([1, 2])
    assert str(e.value) == "expected np.ndarray (got list)"
    with pytest.raises(TypeError) as e:
        torch.from_numpy(a=np.zeros(1))
    assert str(e.value) == "torch._VariableFunctionsClass.from_numpy() takes no keyword arguments"


def test_from_numpy_warns_on_a_read_only_array():  # was a bug: no warning
    a = np.zeros(3)
    a.flags.writeable = False
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        torch.from_numpy(a)
    assert any(str(x.message).startswith("The given NumPy array is not writable") for x in w)


# ---- strided views ----------------------------------------------------------------------------


def test_numpy_of_a_transpose_shares_memory_with_its_strides():
    t = torch.arange(6.0).reshape(2, 3)
    v = t.t()
    a = v.numpy()
    assert a.shape == (3, 2)
    assert a.strides == (4, 12) == tuple(s * 4 for s in v.stride())
    assert not a.flags["C_CONTIGUOUS"] and a.flags["F_CONTIGUOUS"]
    assert np.shares_memory(a, t.numpy())
    assert a.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    a[0, 1] = 100.0
    assert t[1, 0].item() == 100.0


def test_numpy_of_sliced_and_expanded_views():
    t = torch.arange(12.0).reshape(3, 4)
    cols = t[:, ::2]
    a = cols.numpy()
    assert a.strides == (16, 8) and a.tolist() == [[0.0, 2.0], [4.0, 6.0], [8.0, 10.0]]
    row = t[1]
    assert row.numpy().tolist() == [4.0, 5.0, 6.0, 7.0]
    assert np.shares_memory(row.numpy(), t.numpy())
    col = t[:, 1]
    col.numpy()[:] = -1.0
    assert t[:, 1].tolist() == [-1.0, -1.0, -1.0]
    e = torch.ones(3, 1).expand(3, 4)
    assert e.numpy().strides == (4, 0) and e.numpy().shape == (3, 4)


def test_from_numpy_of_strided_arrays_keeps_the_strides():
    base = np.arange(6.0).reshape(2, 3)
    t = torch.from_numpy(base.T)
    assert t.stride() == (1, 3) and not t.is_contiguous()
    assert t.tolist() == base.T.tolist()
    s = torch.from_numpy(base[:, ::2])
    assert s.stride() == (3, 2) and s.tolist() == [[0.0, 2.0], [3.0, 5.0]]
    s[0, 1] = 50.0
    assert base[0, 2] == 50.0


# ---- mixing with numpy values -----------------------------------------------------------------


def test_numpy_scalars_combine_with_tensors():
    t = torch.tensor([1.0, 2.0])
    for r in (np.float64(2.0) * t, t * np.float32(2), np.int64(3) + t):
        assert isinstance(r, torch.Tensor) and r.dtype == torch.float32


def test_tensor_plus_an_array_is_a_tensor():  # was a bug: numpy took over
    r = torch.ones(2) + np.ones(2)
    assert isinstance(r, torch.Tensor) and r.dtype == torch.float64


def test_numpy_refuses_the_conjugate_bit():  # was a bug: returned the conjugated values
    c = torch.tensor([1 + 2j]).conj()
    assert c.is_conj()
    with pytest.raises(RuntimeError) as e:
        c.numpy()
    assert str(e.value) == (
        "Can't call numpy() on Tensor that has conjugate bit set. Use tensor.resolve_conj().numpy() instead."
    )
    assert c.resolve_conj().numpy().tolist() == [1 - 2j]
