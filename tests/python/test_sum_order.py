"""float32/float64 `sum` and `mean` give PyTorch 2.15's values to the last bit (its cascade
sum: 8 float32 / 4 float64 lanes, four interleaved four-level cascades, columns four vectors
at a time, a full reduction on several threads summed per `parallel_for` chunk), and over
any dims of any layout in the order PyTorch's TensorIterator walks memory. The tables
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


# (threads, dtype, shape, view, dims, keepdim, sum hash, mean hash): non-adjacent dims and
# non-contiguous views, summed in PyTorch's memory order
RECORDED_VIEWS = [
    (1, 'float32', (8, 16, 9, 9), '', (0, 2, 3), True, 'ebf90e351fa57679', 'f474cd2e4129b6c5'),
    (1, 'float32', (8, 16, 9, 9), '', (0, 2, 3), False, 'ebf90e351fa57679', 'f474cd2e4129b6c5'),
    (1, 'float32', (32, 3, 32, 32), '', (0, 2, 3), True, '8db7cdffa1b72660', '88af43b70f1813ae'),
    (1, 'float32', (4, 5, 6), '', (0, 2), False, '900498e50cd3ef24', 'e387f632b2bf867b'),
    (1, 'float32', (300, 70), 't', (0,), False, '02839ad55c40b815', '0cfd7009b2ef9318'),
    (1, 'float32', (300, 70), 't', (1,), False, 'c8f8825d28a5e5e9', '27fe1a9c9e51ae97'),
    (1, 'float32', (300, 70), 't', None, False, 'ac298f8c344c0964', '9782e53f751c8cd2'),
    (1, 'float32', (70, 600), 't', (0,), False, 'fc76e9dfca1c4e99', '1595db3cedc06aa3'),
    (1, 'float32', (2, 64, 12, 12), 'reversed', (1, 2), False, '56fc4463a5f5eb80', '5f2ab8259790edfd'),
    (1, 'float32', (16, 8, 70), 'reversed', (0,), True, '9dbedc195d09479c', '6b2838757fc39e59'),
    (1, 'float32', (128, 300), 'every2', (0,), False, '7dd8f19034552bb1', '2569f309234b1f24'),
    (1, 'float32', (128, 300), 'every2', (1,), False, '781dfce20974c627', '76f840cb1fcb54ea'),
    (1, 'float32', (128, 300), 'every2', None, False, '141c0ed954bfbda2', 'b7ea95a373771a83'),
    (1, 'float32', (3, 50, 300), 'every2', (0, 2), False, '6184492db3c7d290', '56ca943682113485'),
    (1, 'float32', (40, 50), 't', (0, 1), False, 'e7a1c02859ee57ed', '332a234c856d51b8'),
    (1, 'float32', (1000, 70), 't', None, False, 'c6a420b2b7baa960', '2813755f1d239c63'),
    (1, 'float64', (8, 16, 9, 9), '', (0, 2, 3), True, '39439b3c53dba497', '052e811f5e575886'),
    (1, 'float64', (8, 16, 9, 9), '', (0, 2, 3), False, '39439b3c53dba497', '052e811f5e575886'),
    (1, 'float64', (32, 3, 32, 32), '', (0, 2, 3), True, 'f1e539549dc4bb67', '8f3a16c5d022aa36'),
    (1, 'float64', (4, 5, 6), '', (0, 2), False, '886bc0a4cdb6e6fd', 'be111d49c0145937'),
    (1, 'float64', (300, 70), 't', (0,), False, '8f0d63fb16bc8c63', 'e72d6f429b8bc1d8'),
    (1, 'float64', (300, 70), 't', (1,), False, 'ef6c230770c4ab4c', 'b3e338e07d87efd7'),
    (1, 'float64', (300, 70), 't', None, False, '7df3df821cf2a460', 'f4ba331a27e1d18f'),
    (1, 'float64', (70, 600), 't', (0,), False, 'dbcd6bfe970c87f0', '8d6f9a2cc6bb615f'),
    (1, 'float64', (2, 64, 12, 12), 'reversed', (1, 2), False, 'f86ff2cd21bba9f2', '9875f13585a26ebe'),
    (1, 'float64', (16, 8, 70), 'reversed', (0,), True, '6529a12ab3d45455', 'c53db2dbfc87d2c1'),
    (1, 'float64', (128, 300), 'every2', (0,), False, 'f031266f47c8e87e', '160d55ca50fdba0b'),
    (1, 'float64', (128, 300), 'every2', (1,), False, '22ff19092b18d74e', '920a566a8ec85e6a'),
    (1, 'float64', (128, 300), 'every2', None, False, 'f2d2a144c043e360', '4fb3efbac6244bee'),
    (1, 'float64', (3, 50, 300), 'every2', (0, 2), False, 'edb76def39eef3a3', '62264a7da1191ad0'),
    (1, 'float64', (40, 50), 't', (0, 1), False, 'eb648eb05d146f98', 'd0b489a7fad9e8e2'),
    (1, 'float64', (1000, 70), 't', None, False, 'd0466ded48de0e16', 'edd4f2d282538771'),
    (2, 'float32', (8, 16, 9, 9), '', (0, 2, 3), True, 'ebf90e351fa57679', 'f474cd2e4129b6c5'),
    (2, 'float32', (8, 16, 9, 9), '', (0, 2, 3), False, 'ebf90e351fa57679', 'f474cd2e4129b6c5'),
    (2, 'float32', (32, 3, 32, 32), '', (0, 2, 3), True, '8db7cdffa1b72660', '88af43b70f1813ae'),
    (2, 'float32', (4, 5, 6), '', (0, 2), False, '900498e50cd3ef24', 'e387f632b2bf867b'),
    (2, 'float32', (300, 70), 't', (0,), False, '02839ad55c40b815', '0cfd7009b2ef9318'),
    (2, 'float32', (300, 70), 't', (1,), False, 'c8f8825d28a5e5e9', '27fe1a9c9e51ae97'),
    (2, 'float32', (300, 70), 't', None, False, 'ac298f8c344c0964', '9782e53f751c8cd2'),
    (2, 'float32', (70, 600), 't', (0,), False, 'fc76e9dfca1c4e99', '1595db3cedc06aa3'),
    (2, 'float32', (2, 64, 12, 12), 'reversed', (1, 2), False, '56fc4463a5f5eb80', '5f2ab8259790edfd'),
    (2, 'float32', (16, 8, 70), 'reversed', (0,), True, '9dbedc195d09479c', '6b2838757fc39e59'),
    (2, 'float32', (128, 300), 'every2', (0,), False, '7dd8f19034552bb1', '2569f309234b1f24'),
    (2, 'float32', (128, 300), 'every2', (1,), False, '781dfce20974c627', '76f840cb1fcb54ea'),
    (2, 'float32', (128, 300), 'every2', None, False, '141c0ed954bfbda2', 'b7ea95a373771a83'),
    (2, 'float32', (3, 50, 300), 'every2', (0, 2), False, '6184492db3c7d290', '56ca943682113485'),
    (2, 'float32', (40, 50), 't', (0, 1), False, 'e7a1c02859ee57ed', '332a234c856d51b8'),
    (2, 'float32', (1000, 70), 't', None, False, '89364c37eb47d98a', '70823cf55fbb768d'),
    (2, 'float64', (8, 16, 9, 9), '', (0, 2, 3), True, '39439b3c53dba497', '052e811f5e575886'),
    (2, 'float64', (8, 16, 9, 9), '', (0, 2, 3), False, '39439b3c53dba497', '052e811f5e575886'),
    (2, 'float64', (32, 3, 32, 32), '', (0, 2, 3), True, 'f1e539549dc4bb67', '8f3a16c5d022aa36'),
    (2, 'float64', (4, 5, 6), '', (0, 2), False, '886bc0a4cdb6e6fd', 'be111d49c0145937'),
    (2, 'float64', (300, 70), 't', (0,), False, '8f0d63fb16bc8c63', 'e72d6f429b8bc1d8'),
    (2, 'float64', (300, 70), 't', (1,), False, 'ef6c230770c4ab4c', 'b3e338e07d87efd7'),
    (2, 'float64', (300, 70), 't', None, False, '7df3df821cf2a460', 'f4ba331a27e1d18f'),
    (2, 'float64', (70, 600), 't', (0,), False, 'dbcd6bfe970c87f0', '8d6f9a2cc6bb615f'),
    (2, 'float64', (2, 64, 12, 12), 'reversed', (1, 2), False, 'f86ff2cd21bba9f2', '9875f13585a26ebe'),
    (2, 'float64', (16, 8, 70), 'reversed', (0,), True, '6529a12ab3d45455', 'c53db2dbfc87d2c1'),
    (2, 'float64', (128, 300), 'every2', (0,), False, 'f031266f47c8e87e', '160d55ca50fdba0b'),
    (2, 'float64', (128, 300), 'every2', (1,), False, '22ff19092b18d74e', '920a566a8ec85e6a'),
    (2, 'float64', (128, 300), 'every2', None, False, 'f2d2a144c043e360', '4fb3efbac6244bee'),
    (2, 'float64', (3, 50, 300), 'every2', (0, 2), False, 'edb76def39eef3a3', '62264a7da1191ad0'),
    (2, 'float64', (40, 50), 't', (0, 1), False, 'eb648eb05d146f98', 'd0b489a7fad9e8e2'),
    (2, 'float64', (1000, 70), 't', None, False, '8c2bf98eca959fe0', '5b36443734cb5bca'),
]


def view(x, how):
    if how == "t":
        return x.transpose(0, 1)
    if how == "reversed":
        return x.permute(*reversed(range(x.dim())))
    if how == "every2":
        return x[..., ::2]
    return x


@pytest.mark.parametrize("threads, dtype, shape, how, dims, keep, sum_hash, mean_hash", RECORDED_VIEWS)
def test_sums_over_any_dims_of_any_layout_match_pytorch(
    threads, dtype, shape, how, dims, keep, sum_hash, mean_hash
):
    def make():
        return view(data(numel(shape), getattr(torch, dtype)).reshape(shape), how)

    check(threads, make, dims, keep, sum_hash, mean_hash)


def test_broadcast_gradients_sum_like_pytorch():
    # a per-channel weight's gradient sums over (0, 2, 3), as batch norm written by hand does
    x = data(8 * 16 * 9 * 9, torch.float32).reshape(8, 16, 9, 9)
    w = torch.ones(1, 16, 1, 1, requires_grad=True)
    (x * w).backward(x.flip(0))
    assert w.grad.shape == (1, 16, 1, 1)
    assert digest(w.grad) == "8453a62c40e005e5"  # PyTorch 2.15's bytes


# (threads, dtype, shape, dims, sum hash, mean hash): complex sums cascade in the input's
# precision (4 complex64 / 2 complex128 lanes)
RECORDED_COMPLEX = [
    (1, 'complex64', (1000,), None, '10b115cbf3cdd0b3', '20ae3c454bcc6d5c'),
    (1, 'complex64', (40000,), None, '0f0faa56d89bb2fa', 'ff5271e6c7c7f316'),
    (1, 'complex64', (17, 33), (1,), 'ef196db4695865fe', 'ecef079c31c73cb3'),
    (1, 'complex64', (300, 70), (0,), '04a8a6edc81b442a', '2b7fad48c3b76c46'),
    (1, 'complex64', (8, 6, 5), (0, 2), 'c4d29a35244a2fc9', '041dcde7af9ef58d'),
    (1, 'complex128', (1000,), None, '39c2b717bdfe8434', '9a2625bd08fe4755'),
    (1, 'complex128', (40000,), None, '4ab5d360751581d1', '2da8f7c1fbf737f0'),
    (1, 'complex128', (17, 33), (1,), '528307f131c472ab', 'f73c32437ac04e8e'),
    (1, 'complex128', (300, 70), (0,), '4df76c39aeb91553', '797e477e24193a31'),
    (1, 'complex128', (8, 6, 5), (0, 2), '0d0a85260a84cb76', 'e7d77e2090ecf057'),
    (2, 'complex64', (1000,), None, '10b115cbf3cdd0b3', '20ae3c454bcc6d5c'),
    (2, 'complex64', (40000,), None, 'f47609ef48f0c58f', '77b826e8d0d159c1'),
    (2, 'complex64', (17, 33), (1,), 'ef196db4695865fe', 'ecef079c31c73cb3'),
    (2, 'complex64', (300, 70), (0,), '04a8a6edc81b442a', '2b7fad48c3b76c46'),
    (2, 'complex64', (8, 6, 5), (0, 2), 'c4d29a35244a2fc9', '041dcde7af9ef58d'),
    (2, 'complex128', (1000,), None, '39c2b717bdfe8434', '9a2625bd08fe4755'),
    (2, 'complex128', (40000,), None, 'a306101892fa1ad2', 'ddd5f91bd41035cd'),
    (2, 'complex128', (17, 33), (1,), '528307f131c472ab', 'f73c32437ac04e8e'),
    (2, 'complex128', (300, 70), (0,), '4df76c39aeb91553', '797e477e24193a31'),
    (2, 'complex128', (8, 6, 5), (0, 2), '0d0a85260a84cb76', 'e7d77e2090ecf057'),
]


@pytest.mark.parametrize("threads, dtype, shape, dims, sum_hash, mean_hash", RECORDED_COMPLEX)
def test_complex_sums_match_pytorch(threads, dtype, shape, dims, sum_hash, mean_hash):
    def make():
        re = data(numel(shape), torch.float64)
        return torch.complex(re, re.flip(0)).to(getattr(torch, dtype)).reshape(shape)

    check(threads, make, dims, False, sum_hash, mean_hash)

def data(n, dtype):
    """Values spread over seven decades, from arithmetic alone (no RNG)."""
    i = torch.arange(n, dtype=torch.float64)
    v = (((i * 7919) % 1000) - 500) / 997 * torch.pow(10.0, ((i * 31) % 7) - 3)
    return v.to(dtype)


def digest(t):
    return hashlib.sha256(t.contiguous().numpy().tobytes()).hexdigest()[:16]


def check(threads, make, dims, keep, sum_hash, mean_hash):
    """`make()`'s sum and mean over `dims` on `threads` threads hash to the recorded bytes."""
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        x = make()
        r = x.sum() if dims is None else x.sum(dims, keepdim=keep)
        m = x.mean() if dims is None else x.mean(dims, keepdim=keep)
        assert (digest(r), digest(m)) == (sum_hash, mean_hash)
    finally:
        torch.set_num_threads(before)


def numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


@pytest.mark.parametrize("threads, dtype, shape, dim, sum_hash, mean_hash", RECORDED)
def test_sum_and_mean_bits_match_pytorch(threads, dtype, shape, dim, sum_hash, mean_hash):
    def make():
        return data(numel(shape), getattr(torch, dtype)).reshape(shape)

    check(threads, make, dim, False, sum_hash, mean_hash)

def test_documented_examples():
    # PyTorch's float32 sum is not the exact one: its rounding is reproduced
    assert torch.ones(2000).mul(0.1).sum().item() == 200.00001525878906
    # results are stored as 0 + sum: a sum of negative zeros is +0
    assert str(torch.tensor([-0.0, -0.0]).sum().item()) == "0.0"
    # the mean of nothing is 0/0 in every part
    assert str(torch.tensor([], dtype=torch.complex64).mean()) == "tensor(nan+nanj)"


@pytest.mark.parametrize(
    "dtype, whole, rows, cols",
    [
        ("float16", 0.00096893310546875,
         [0.00948333740234375, 0.0175628662109375, 0.0174102783203125],
         [-0.0004911422729492188, 0.03619384765625, 0.06793212890625]),
        ("bfloat16", 0.00091552734375,
         [0.009521484375, 0.017578125, 0.0174560546875],
         [-0.00049591064453125, 0.0361328125, 0.06787109375]),
    ],
)
def test_half_means_divide_in_float32_and_round_once(dtype, whole, rows, cols):
    # PyTorch 2.15's values: the float32 sum divided in float32, then rounded to the dtype
    # (rounding the sum first gives 0.0009694099426269531 for float16)
    h = torch.arange(1000.0).mul(0.37).sin().to(getattr(torch, dtype))
    assert h.mean().item() == whole
    assert h.reshape(10, 100).mean(1).tolist()[:3] == rows
    assert h.reshape(10, 100).t().mean(1).tolist()[:3] == cols
    assert h.mean().dtype == getattr(torch, dtype)
