"""DLPack: zero-copy exchange with numpy and (when installed) PyTorch."""
import gc

import numpy as np
import pytest
from support import USING_TORCH

import leafgrad as torch

pytestmark = pytest.mark.skipif(USING_TORCH, reason="checks leafgrad's own DLPack exports")


def test_numpy_reads_leafgrad_memory_without_copy():
    t = torch.arange(6.0).reshape(2, 3).t()
    a = np.from_dlpack(t)
    assert a.shape == (3, 2) and a.strides == (4, 12)
    t[0, 0] = 42.0
    assert a[0, 0] == 42.0


def test_leafgrad_reads_numpy_memory_without_copy_and_keeps_it_alive():
    b = np.arange(4.0)
    u = torch.from_dlpack(b)
    b[1] = -1.0
    assert u.tolist() == [0.0, -1.0, 2.0, 3.0] and u.dtype == torch.float64
    del b
    gc.collect()
    assert u.tolist() == [0.0, -1.0, 2.0, 3.0]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "uint8", "bool", "complex64"])
def test_dtypes_round_trip(dtype):
    t = torch.tensor([1, 0, 1], dtype=getattr(torch, dtype))
    a = np.from_dlpack(t)
    assert a.dtype == np.dtype(dtype) and a.tolist() == t.tolist()
    back = torch.from_dlpack(np.array(a))
    assert back.dtype == t.dtype and back.tolist() == t.tolist()


def test_device_and_requires_grad():
    t = torch.ones(2, requires_grad=True)
    assert t.__dlpack_device__() == (1, 0)
    with pytest.raises(RuntimeError, match="require gradient"):
        t.__dlpack__()
    assert np.from_dlpack(t.detach()).tolist() == [1.0, 1.0]


def test_a_capsule_is_consumed_once():
    cap = torch.ones(2).__dlpack__()
    torch.from_dlpack(cap)
    with pytest.raises(TypeError):
        torch.from_dlpack(cap)


def test_pytorch_exchange_both_ways():
    real_torch = pytest.importorskip("torch")
    x = torch.ones(2, 3)
    tt = real_torch.from_dlpack(x)
    tt[0, 0] = 7
    assert x[0, 0].item() == 7.0
    y = real_torch.arange(4, dtype=real_torch.float64)
    ly = torch.from_dlpack(y)
    y[2] = -5
    assert ly.tolist() == [0.0, 1.0, -5.0, 3.0]
    z = real_torch.randn(3, 4).t()
    lz = torch.from_dlpack(z)
    assert tuple(lz.shape) == (4, 3) and lz.stride() == (1, 4)
    assert bool((real_torch.from_dlpack(lz) == z).all())
