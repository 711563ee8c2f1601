"""float32/float64 `sum` and `mean` give PyTorch 2.15's values to the last bit (its cascade
sum: 8 float32 / 4 float64 lanes, four interleaved four-level cascades, columns four vectors
at a time, a full reduction on several threads summed per `parallel_for` chunk). The table
holds a hash of PyTorch's result bytes for each case (recorded with torch 2.15 on x86-64);
LEAFGRAD_TEST_TORCH=1 runs the same table against PyTorch."""
import hashlib

import pytest

import leafgrad as torch

# (threads, dtype, shape, dim, sha256[:16] of sum's bytes, of mean's bytes)
RECORDED = [
    (1, 'float32', (5,), None, 'c7ef6bff82d73964', '8397e7d99beebf62'),
    (1, 'float32', (9,), None, '05e8561fd0b7abe1', '9f13f39ca2594fb7'),
    (1, 'float32', (40,), None, 'e480269ad61bae61', '107ea77a3e85a7e5'),
    (1, 'float32', (1000,), None, '2dc1f7ebe45d2a27', '67137a171e751b11'),
    (1, 'float32', (40000,), None, '687e8e27328627e0', '9021dc9ef2455cc1'),
    (1, 'float32', (100003,), None, '3f0246a8f8f7dec4', '664507b603ad7550'),
    (1, 'float32', (7, 3), 1, '21b015465e01d2e2', '5c7dfdfd294ec222'),
    (1, 'float32', (7, 3), 0, 'd8346f7cc5df32e7', '6961cf72f786639e'),
    (1, 'float32', (17, 33), 1, '6843bdcaf1565f99', '063375690b47c3c3'),
    (1, 'float32', (300, 70), 0, 'c8f8825d28a5e5e9', '27fe1a9c9e51ae97'),
    (1, 'float32', (1000, 70), 0, '83cb0c33dbe5c759', '6ecaf9598d00eade'),
    (1, 'float32', (6, 5, 40), 1, '20e64d6fcf42194e', 'c6e5c47ad2896b86'),
    (1, 'float32', (64, 10), 0, 'b343731f7a971a24', '6c7624e995688e40'),
    (1, 'float64', (5,), None, '27fcbfed16f3f814', '0ae4e2d34d3ced4c'),
    (1, 'float64', (9,), None, 'fcef25dc63bfecb0', 'a2c8a52f03abdf00'),
    (1, 'float64', (40,), None, '1097ea5a652d5976', '1780f3190a369edc'),
    (1, 'float64', (1000,), None, '443278f7d771f6cd', '50707d9825c882e7'),
    (1, 'float64', (40000,), None, 'af94987cad77558f', '638961a64dc116af'),
    (1, 'float64', (100003,), None, '02019f09d2be1192', 'b9616b73b3402df4'),
    (1, 'float64', (7, 3), 1, '37ebdca1c98e8d89', '7579d8049cb93e3a'),
    (1, 'float64', (7, 3), 0, 'b9e0aea099a9c854', '8f349728a84db029'),
    (1, 'float64', (17, 33), 1, 'd94e9e719b7e4112', '525446899a03bfd4'),
    (1, 'float64', (300, 70), 0, 'ef6c230770c4ab4c', 'b3e338e07d87efd7'),
    (1, 'float64', (1000, 70), 0, '9a67b95fc1daa9ac', 'bc6bb8ff0510d571'),
    (1, 'float64', (6, 5, 40), 1, '9aeee5b76c68b502', 'a6d201c58e320b92'),
    (1, 'float64', (64, 10), 0, '87cb5ca23441b755', '6814443ebb17cafb'),
    (2, 'float32', (5,), None, 'c7ef6bff82d73964', '8397e7d99beebf62'),
    (2, 'float32', (9,), None, '05e8561fd0b7abe1', '9f13f39ca2594fb7'),
    (2, 'float32', (40,), None, 'e480269ad61bae61', '107ea77a3e85a7e5'),
    (2, 'float32', (1000,), None, '2dc1f7ebe45d2a27', '67137a171e751b11'),
    (2, 'float32', (40000,), None, 'f38618a86433c53d', '1d55d726cc75a7f0'),
    (2, 'float32', (100003,), None, '6b3ebac08c966fa0', 'db91f6a4b907d865'),
    (2, 'float32', (7, 3), 1, '21b015465e01d2e2', '5c7dfdfd294ec222'),
    (2, 'float32', (7, 3), 0, 'd8346f7cc5df32e7', '6961cf72f786639e'),
    (2, 'float32', (17, 33), 1, '6843bdcaf1565f99', '063375690b47c3c3'),
    (2, 'float32', (300, 70), 0, 'c8f8825d28a5e5e9', '27fe1a9c9e51ae97'),
    (2, 'float32', (1000, 70), 0, '83cb0c33dbe5c759', '6ecaf9598d00eade'),
    (2, 'float32', (6, 5, 40), 1, '20e64d6fcf42194e', 'c6e5c47ad2896b86'),
    (2, 'float32', (64, 10), 0, 'b343731f7a971a24', '6c7624e995688e40'),
    (2, 'float64', (5,), None, '27fcbfed16f3f814', '0ae4e2d34d3ced4c'),
    (2, 'float64', (9,), None, 'fcef25dc63bfecb0', 'a2c8a52f03abdf00'),
    (2, 'float64', (40,), None, '1097ea5a652d5976', '1780f3190a369edc'),
    (2, 'float64', (1000,), None, '443278f7d771f6cd', '50707d9825c882e7'),
    (2, 'float64', (40000,), None, 'f2e61d151b2f830e', 'b46db626cf36e2f9'),
    (2, 'float64', (100003,), None, 'b464a611bca6649e', '89203c430c3dd8cb'),
    (2, 'float64', (7, 3), 1, '37ebdca1c98e8d89', '7579d8049cb93e3a'),
    (2, 'float64', (7, 3), 0, 'b9e0aea099a9c854', '8f349728a84db029'),
    (2, 'float64', (17, 33), 1, 'd94e9e719b7e4112', '525446899a03bfd4'),
    (2, 'float64', (300, 70), 0, 'ef6c230770c4ab4c', 'b3e338e07d87efd7'),
    (2, 'float64', (1000, 70), 0, '9a67b95fc1daa9ac', 'bc6bb8ff0510d571'),
    (2, 'float64', (6, 5, 40), 1, '9aeee5b76c68b502', 'a6d201c58e320b92'),
    (2, 'float64', (64, 10), 0, '87cb5ca23441b755', '6814443ebb17cafb'),
]


def data(n, dtype):
    """Values spread over seven decades, from arithmetic alone (no RNG)."""
    i = torch.arange(n, dtype=torch.float64)
    v = (((i * 7919) % 1000) - 500) / 997 * torch.pow(10.0, ((i * 31) % 7) - 3)
    return v.to(dtype)


def digest(t):
    return hashlib.sha256(t.contiguous().numpy().tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("threads, dtype, shape, dim, sum_hash, mean_hash", RECORDED)
def test_sum_and_mean_bits_match_pytorch(threads, dtype, shape, dim, sum_hash, mean_hash):
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        n = 1
        for s in shape:
            n *= s
        x = data(n, getattr(torch, dtype)).reshape(shape)
        r = x.sum() if dim is None else x.sum(dim)
        m = x.mean() if dim is None else x.mean(dim)
        assert (digest(r), digest(m)) == (sum_hash, mean_hash)
    finally:
        torch.set_num_threads(before)


def test_documented_examples():
    # PyTorch's float32 sum is not the exact one: its rounding is reproduced
    assert torch.ones(2000).mul(0.1).sum().item() == 200.00001525878906
    # results are stored as 0 + sum: a sum of negative zeros is +0
    assert str(torch.tensor([-0.0, -0.0]).sum().item()) == "0.0"
    # the mean of nothing is 0/0 in every part
    assert str(torch.tensor([], dtype=torch.complex64).mean()) == "tensor(nan+nanj)"
