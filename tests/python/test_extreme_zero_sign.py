"""`max()` / `min()` of a whole float tensor pick the zero PyTorch picks when the extreme is 0.0
and -0.0 both: PyTorch's `max_all`/`min_all` run 256-bit vectors (8 float32 / 4 float64 lanes,
the vector op keeping the second of equal values, float32 lanes combined by a shuffle tree,
float64 lanes in order), one part per thread above 32768 elements combined keeping the first.
The sign decides `1 / x` and `x ** -0.5` after it. Recorded with torch 2.15 on x86-64;
LEAFGRAD_TEST_TORCH=1 runs the same table against PyTorch."""
import pytest

import leafgrad as torch


def values(n, seed):
    # a small LCG: zeros of both signs, ones and twos
    out, s = [], seed
    for _ in range(n):
        s = (s * 1103515245 + 12345) % 2**31
        out.append([0.0, -0.0, 0.0, -0.0, 1.0, 2.0][(s >> 16) % 6])
    return out


# (threads, dtype, n, the sign bits of max(-t) and min(t) for seeds 0..7; seeds 6 and 7 of an
# even n through a transpose)
RECORDED = [
    (1, 'float32', 2, '1010100110010110'),
    (1, 'float32', 3, '1001010101101010'),
    (1, 'float32', 5, '1001011001101010'),
    (1, 'float32', 8, '0101010101010110'),
    (1, 'float32', 9, '0101010101011010'),
    (1, 'float32', 15, '0101010101010110'),
    (1, 'float32', 17, '0101100101011010'),
    (1, 'float32', 33, '0101100101010110'),
    (1, 'float32', 100, '1001100110010101'),
    (1, 'float32', 1000, '0101100110010101'),
    (1, 'float32', 40001, '1001010101010101'),
    (1, 'float32', 70003, '0110010110011010'),
    (1, 'float64', 2, '1010100110010110'),
    (1, 'float64', 3, '1001010101101010'),
    (1, 'float64', 5, '0101101001101010'),
    (1, 'float64', 8, '0101010101010110'),
    (1, 'float64', 9, '0101010101011010'),
    (1, 'float64', 15, '0101010101100101'),
    (1, 'float64', 17, '0101100101101001'),
    (1, 'float64', 33, '0101010101010101'),
    (1, 'float64', 100, '0101101010100110'),
    (1, 'float64', 1000, '0110100110100101'),
    (1, 'float64', 40001, '1001010101010101'),
    (1, 'float64', 70003, '0110010110010110'),
    (2, 'float32', 2, '1010100110010110'),
    (2, 'float32', 3, '1001010101101010'),
    (2, 'float32', 5, '1001011001101010'),
    (2, 'float32', 8, '0101010101010110'),
    (2, 'float32', 9, '0101010101011010'),
    (2, 'float32', 15, '0101010101010110'),
    (2, 'float32', 17, '0101100101011010'),
    (2, 'float32', 33, '0101100101010110'),
    (2, 'float32', 100, '1001100110010101'),
    (2, 'float32', 1000, '0101100110010101'),
    (2, 'float32', 40001, '1001101010011010'),
    (2, 'float32', 70003, '0110100110100101'),
    (2, 'float64', 2, '1010100110010110'),
    (2, 'float64', 3, '1001010101101010'),
    (2, 'float64', 5, '0101101001101010'),
    (2, 'float64', 8, '0101010101010110'),
    (2, 'float64', 9, '0101010101011010'),
    (2, 'float64', 15, '0101010101100101'),
    (2, 'float64', 17, '0101100101101001'),
    (2, 'float64', 33, '0101010101010101'),
    (2, 'float64', 100, '0101101010100110'),
    (2, 'float64', 1000, '0110100110100101'),
    (2, 'float64', 40001, '1001101010011010'),
    (2, 'float64', 70003, '0110100110101001'),
]


@pytest.mark.parametrize("threads, dtype, n, bits", RECORDED)
def test_the_zero_pytorch_picks(threads, dtype, n, bits):
    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        got = ""
        for seed in range(8):
            t = torch.tensor(values(n, seed), dtype=getattr(torch, dtype))
            if seed >= 6 and n % 2 == 0:
                t = t.reshape(2, n // 2).t()
            for f in ("max", "min"):
                v = getattr(-t if f == "max" else t, f)().item()
                got += "1" if str(v).startswith("-") else "0"
    finally:
        torch.set_num_threads(old)
    assert got == bits


def test_the_gradient_is_still_shared_by_the_tied_zeros():
    x = torch.tensor([0.5, 0.0, -0.0, 0.0, 0.4], requires_grad=True)
    y = x.min()
    assert str(y.item()) == "0.0"
    y.backward()
    third = torch.tensor(1 / 3).item()
    assert x.grad.tolist() == [0.0, third, third, third, 0.0]


@pytest.mark.parametrize("dtype, body", [("float32", 16), ("float64", 16)])
def test_elementwise_maximum_minimum_keep_pytorchs_zero(dtype, body):
    # contiguous operands of one shape: the second operand's zero in the vector blocks (two
    # 256-bit vectors each), the first's in the scalar tail
    a = torch.tensor([0.0, -0.0] * 10, dtype=getattr(torch, dtype))
    b = torch.tensor([-0.0, 0.0] * 10, dtype=getattr(torch, dtype))
    for f in (torch.maximum, torch.minimum):
        got = [str(v) for v in f(a, b).tolist()]
        want = [str(v) for v in b.tolist()[:body] + a.tolist()[body:]]
        assert got == want


def _broadcast_cases(dtype):
    # rows of n against a broadcast column, a transposed pair, a strided slice and an expanded
    # operand made contiguous: each row segment has its own vector blocks and scalar tail
    out = []
    for n in (3, 9, 17, 20, 33):
        x = torch.zeros(4, n, dtype=dtype)
        x[:, ::2] = -0.0
        y = torch.tensor([[0.0], [-0.0], [0.0], [-0.0]], dtype=dtype)
        for r in (torch.minimum(x, y), torch.maximum(x, y), torch.minimum(y, x), torch.maximum(x.t(), y.t()),
                  torch.minimum(x[:, ::2], y)):
            out.append("".join("-" if str(v).startswith("-") else "+" for v in r.flatten().tolist()))
    return "|".join(out)


# the sign strings' sha256 prefixes, recorded from torch 2.15 (x86-64, AVX2)
BROADCAST_RECORDED = {"float32": "b735d8186e70739a", "float64": "84e0815c72669311"}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_broadcast_and_strided_maximum_minimum_keep_pytorchs_zero(dtype):
    import hashlib

    got = hashlib.sha256(_broadcast_cases(getattr(torch, dtype)).encode()).hexdigest()[:16]
    assert got == BROADCAST_RECORDED[dtype]
