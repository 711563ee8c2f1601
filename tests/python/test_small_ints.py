"""int8 and int16: values, promotion, wrapping arithmetic, reductions, casts, interchange and
errors as PyTorch 2.15 gives them (these expectations run against it with LEAFGRAD_TEST_TORCH=1);
and torch.promote_types / result_type / can_cast over every dtype."""
import io

import numpy as np
import pytest

import leafgrad as torch

DT = [torch.int8, torch.int16]


@pytest.mark.parametrize("dt", DT, ids=str)
def test_arithmetic_wraps_and_promotes(dt):
    x = torch.tensor([1, -2, 100], dtype=dt)
    wide = dt == torch.int16
    assert (x + x).tolist() == ([2, -4, 200] if wide else [2, -4, -56]) and (x + x).dtype == dt
    assert (x * 3).tolist() == ([3, -6, 300] if wide else [3, -6, 44])
    assert (x * 2.5).dtype == torch.float32 and (x / 2).tolist() == [0.5, -1.0, 50.0]
    assert (x // 3).tolist() == [0, -1, 33] and (x % 3).tolist() == [1, 1, 1]
    assert (-x).tolist() == [-1, 2, -100] and x.abs().tolist() == [1, 2, 100]
    assert (x & 3).tolist() == [1, 2, 0] and (~x).tolist() == [-2, 1, -101]
    assert (torch.tensor([127], dtype=dt) + 1).tolist() == ([128] if wide else [-128])
    assert (x + torch.tensor([1], dtype=torch.uint8)).dtype == torch.int16
    assert (x + torch.tensor([1], dtype=torch.int32)).dtype == torch.int32
    assert (x + 1).dtype == dt and (x + 1.5).dtype == torch.float32
    assert (x > 0).tolist() == [True, False, True]


@pytest.mark.parametrize("dt", DT, ids=str)
def test_reductions_casts_and_conversions(dt):
    x = torch.tensor([1, -2, 100], dtype=dt)
    assert x.sum().item() == 99 and x.sum().dtype == torch.int64 and x.prod().item() == -200
    assert x.cumsum(0).tolist() == [1, -1, 99] and x.cumsum(0).dtype == torch.int64
    assert x.max().item() == 100 and x.max().dtype == dt and x.argmax().item() == 2
    assert x.sort().values.tolist() == [-2, 1, 100] and x.unique().tolist() == [-2, 1, 100]
    assert x.sum(dtype=dt).dtype == dt and (x @ x).item() == (10005 if dt == torch.int16 else 21)
    assert torch.tensor([3.7, -3.7, 300.0]).to(dt).tolist() == ([3, -3, 300] if dt == torch.int16 else [3, -3, 44])
    assert x.tolist() == [1, -2, 100] and type(x[0].item()) is int
    assert x.numpy().dtype == (np.int8 if dt == torch.int8 else np.int16)
    a = np.array([1, 2], dtype=np.int8 if dt == torch.int8 else np.int16)
    assert torch.from_numpy(a).dtype == dt
    assert torch.arange(5, dtype=dt).tolist() == [0, 1, 2, 3, 4] and x.clamp(0, 5).tolist() == [1, 0, 5]
    with pytest.raises(NotImplementedError, match="mean\\(\\): could not infer output dtype"):
        x.mean()
    name = "int8_t" if dt == torch.int8 else "int16_t"
    with pytest.raises(RuntimeError, match=f"^value cannot be converted to type {name} without overflow$"):
        torch.full((2,), 200 if dt == torch.int8 else 40000, dtype=dt)


@pytest.mark.parametrize("dt", DT, ids=str)
def test_names_reprs_random_and_checkpoints(dt):
    x = torch.tensor([1, -2, 100], dtype=dt)
    assert repr(x) == f"tensor([  1,  -2, 100], dtype=torch.{'int8' if dt == torch.int8 else 'int16'})"
    assert x.type() == ("torch.CharTensor" if dt == torch.int8 else "torch.ShortTensor")
    assert dt.itemsize == (1 if dt == torch.int8 else 2) and dt.is_signed and not dt.is_floating_point
    info = torch.iinfo(dt)
    assert (info.min, info.max) == ((-128, 127) if dt == torch.int8 else (-32768, 32767))
    torch.manual_seed(0)
    assert torch.randint(-5, 5, (6,), dtype=dt).tolist() == [-1, 4, -2, -5, -2, 4]
    assert torch.empty(4, dtype=dt).random_(0, 10).tolist() == [7, 3, 7, 3]
    buf = io.BytesIO()
    torch.save({"t": x}, buf)
    buf.seek(0)
    back = torch.load(buf)["t"]
    assert back.dtype == dt and back.tolist() == x.tolist()


def test_aliases_and_legacy_constructors():
    assert torch.short == torch.int16
    assert torch.ShortTensor([1, 2]).dtype == torch.int16 and torch.CharTensor([1]).dtype == torch.int8
    assert torch.tensor([1.5]).short().dtype == torch.int16 and torch.tensor([1.5]).char().dtype == torch.int8


ALL = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
       "complex64", "complex128"]


def test_promotion_queries():
    ds = [getattr(torch, n) for n in ALL]
    table = [[str(torch.promote_types(a, b)).split(".")[1] for b in ds] for a in ds]
    assert table[ALL.index("uint8")][ALL.index("int8")] == "int16"
    assert table[ALL.index("float16")][ALL.index("bfloat16")] == "float32"
    assert table[ALL.index("float64")][ALL.index("complex64")] == "complex128"
    assert table[ALL.index("int16")][ALL.index("float16")] == "float16"
    for i, a in enumerate(ALL):
        for j, b in enumerate(ALL):
            assert table[i][j] == table[j][i]
            if a == b:
                assert table[i][j] == a
    assert torch.can_cast(torch.float32, torch.int8) is False and torch.can_cast(torch.int8, torch.float32) is True
    assert torch.can_cast(torch.int8, torch.bool) is False and torch.can_cast(torch.bool, torch.uint8) is True
    assert torch.can_cast(torch.complex64, torch.float64) is False
    assert torch.result_type(torch.tensor([1], dtype=torch.int8), 1.0) == torch.float32
    assert torch.result_type(torch.tensor(1, dtype=torch.int8), torch.tensor([1], dtype=torch.uint8)) == torch.uint8
    assert torch.result_type(1, 2.0) == torch.float32 and torch.result_type(True, 1) == torch.int64
    assert torch.result_type(torch.tensor([1.]), 1j) == torch.complex64
    assert torch.result_type(2, torch.tensor(1, dtype=torch.int16)) == torch.int16
