"""CUDA generators: `torch.Generator(device="cuda")`, the per-device default generators behind
`torch.cuda.manual_seed`/`get_rng_state`, their 16-byte state (seed, Philox offset), the offset
each random kernel reserves, and the Philox values PyTorch's CUDA kernels lay out.

The layout is checked against an independent Python Philox4x32-10 written here from the
algorithm (Random123's known answers first). Runs on a GPU or under
LEAFGRAD_CUDA_EMULATION=1 (whose launch geometry is an H100's: 132 multiprocessors of 2048
threads); the argument checks run everywhere.
"""
import pickle
import struct
from fractions import Fraction

import numpy as np
import pytest
from support import USING_TORCH

import leafgrad as torch

pytestmark = pytest.mark.skipif(USING_TORCH, reason="leafgrad's CUDA generators (no GPU to compare)")

needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(),
                                reason="a GPU or LEAFGRAD_CUDA_EMULATION=1")

M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
MASK = 0xFFFFFFFF
THREADS = 132 * 2048  # the emulation's grid: 132 multiprocessors x 2048 threads


def philox(ctr, key):
    c, k = list(ctr), list(key)
    for r in range(10):
        p0, p1 = M0 * c[0], M1 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & MASK, (p0 >> 32) ^ c[3] ^ k[1], p0 & MASK]
        if r < 9:
            k = [(k[0] + W0) & MASK, (k[1] + W1) & MASK]
    return c


def test_philox_known_answers():
    assert philox([0] * 4, [0, 0]) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    assert philox([MASK] * 4, [MASK, MASK]) == [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]


def words(seed, offset, idx, block):
    """Thread `idx`'s `block`-th draw of four words after `offset` (cuRAND's counter layout)."""
    lo = offset // 4 + block
    return philox([lo & MASK, lo >> 32, idx & MASK, idx >> 32], [seed & MASK, seed >> 32])


def f32(x):
    """An exact rational rounded to float32 (nearest, ties to even)."""
    f = np.float32(float(x))
    cands = [f, np.nextafter(f, np.float32(np.inf)), np.nextafter(f, np.float32(-np.inf))]
    best = min(cands, key=lambda c: (abs(Fraction(float(c)) - x), int(c.view(np.uint32)) & 1))
    return float(best)


INV32 = Fraction(float(np.float32(2.3283064e-10)))


def uniform_f32(w):
    """cuRAND's (0, 1] float of one word: the word rounded to float, then one fused
    multiply-add (as the device computes `x * 2^-32 + 2^-33`)."""
    return f32(Fraction(float(np.float32(w))) * INV32 + INV32 / 2)


def expected_rand(n, seed, offset=0):
    grid = min(-(-n // 256), THREADS // 256) * 256
    out = [None] * n
    for li in range(n):
        idx, rest = li % grid, li // grid
        block, k = divmod(rest, 4)
        v = uniform_f32(words(seed, offset, idx, block)[k])
        out[li] = 0.0 if v == 1.0 else v
    return out


def state(g):
    seed, offset = struct.unpack("<Qq", bytes(g.get_state().tolist()))
    return seed, offset


@needs_cuda
def test_rand_is_the_philox_layout_of_pytorchs_kernel():
    g = torch.Generator(device="cuda").manual_seed(1234)
    for n in (1, 5, 300, 1000):
        before = state(g)[1]
        got = torch.rand(n, device="cuda", generator=g).cpu().tolist()
        assert got == expected_rand(n, 1234, before), n
        assert state(g)[1] == before + 4


@needs_cuda
def test_offsets_advance_as_pytorchs_execution_policy():
    g = torch.Generator(device="cuda")
    assert state(g) == (67280421310721, 0)
    torch.empty(THREADS * 4, device="cuda").uniform_(generator=g)
    assert g.get_offset() == 4
    torch.empty(THREADS * 4 + 1, device="cuda").uniform_(generator=g)
    assert g.get_offset() == 12
    # float64: two values per draw of four words
    torch.empty(THREADS * 2 + 1, device="cuda", dtype=torch.float64).normal_(generator=g)
    assert g.get_offset() == 20
    # 32-bit integer ranges: four per draw; ranges of 2**28 or more: two
    torch.randint(0, 10, (THREADS * 4,), device="cuda", generator=g)
    assert g.get_offset() == 24
    torch.randint(0, 2**40, (THREADS * 2 + 1,), device="cuda", generator=g)
    assert g.get_offset() == 32


@needs_cuda
def test_randint_and_bernoulli_from_the_same_words():
    g = torch.Generator(device="cuda").manual_seed(9)
    got = torch.randint(3, 13, (600,), device="cuda", generator=g).cpu().tolist()
    grid = 768
    want = []
    for li in range(600):
        idx, k = li % grid, li // grid
        want.append(words(9, 0, idx, 0)[k] % 10 + 3)
    assert got == want
    g.manual_seed(9)
    b = torch.empty(600, device="cuda").bernoulli_(0.3, generator=g).cpu().tolist()
    assert b == [float(uniform_f32(words(9, 0, li % grid, 0)[li // grid]) < f32(Fraction(0.3))) for li in range(600)]


@needs_cuda
def test_randn_is_box_muller_on_the_same_words():
    g = torch.Generator(device="cuda").manual_seed(3)
    got = torch.randn(256, device="cuda", generator=g).cpu().tolist()
    two_pi = float(np.float32(2.3283064e-10) * np.float32(6.2831855))
    for li in (0, 1, 77, 255):
        w = words(3, 0, li, 0)
        u = uniform_f32(w[0])
        v = f32(Fraction(float(np.float32(w[1]))) * Fraction(two_pi) + Fraction(two_pi) / 2)
        z = np.sqrt(-2 * np.log(u)) * np.sin(v)
        assert got[li] == pytest.approx(z, rel=1e-5, abs=1e-6)
    x = torch.randn(200_000, device="cuda", generator=g)
    assert abs(x.mean().item()) < 0.01 and abs(x.std().item() - 1) < 0.01


@needs_cuda
def test_manual_seed_seeds_every_device_and_leaves_the_cpu_stream():
    torch.manual_seed(5)
    assert torch.cuda.initial_seed() == 5
    assert state(torch.cuda.default_generators[0]) == (5, 0)
    a = torch.rand(4, device="cuda")
    cpu = torch.rand(2).tolist()
    torch.manual_seed(5)
    assert torch.rand(2).tolist() == cpu  # the CUDA draw took nothing from the CPU stream
    assert torch.equal(torch.rand(4, device="cuda"), a)
    torch.cuda.manual_seed(6)
    assert torch.cuda.initial_seed() == 6 and torch.initial_seed() == 5
    torch.cuda.manual_seed_all(7)
    assert torch.cuda.initial_seed() == 7


@needs_cuda
def test_states_round_trip_and_fork_rng_restores_devices():
    torch.cuda.manual_seed(11)
    s = torch.cuda.get_rng_state()
    assert s.dtype == torch.uint8 and s.shape == (16,) and s.device.type == "cpu"
    a = torch.randn(10, device="cuda")
    torch.cuda.set_rng_state(s)
    assert torch.equal(torch.randn(10, device="cuda"), a)
    with torch.random.fork_rng():
        torch.rand(100, device="cuda")
    assert torch.equal(torch.cuda.get_rng_state(), torch.cuda.get_rng_state_all()[0])
    before = torch.cuda.get_rng_state()
    with torch.random.fork_rng(devices=[0]):
        torch.rand(3, device="cuda")
    assert torch.equal(torch.cuda.get_rng_state(), before)
    # a seed alone (8 bytes) is accepted, offset 0; other sizes are refused
    g = torch.Generator(device="cuda")
    g.set_state(torch.tensor(list(struct.pack("<Q", 99)), dtype=torch.uint8))
    assert state(g) == (99, 0)
    with pytest.raises(RuntimeError, match="RNG state is wrong size"):
        g.set_state(torch.zeros(5, dtype=torch.uint8))
    with pytest.raises(RuntimeError, match="offset must be a multiple of 4"):
        g.set_offset(6)
    h = pickle.loads(pickle.dumps(g.set_offset(8)))
    assert h.device == torch.device("cuda", 0) and state(h) == (99, 8)


@needs_cuda
def test_generators_of_the_other_device_are_refused():
    with pytest.raises(RuntimeError, match="Expected a 'cuda' device type for generator but found 'cpu'"):
        torch.rand(3, device="cuda", generator=torch.Generator())
    with pytest.raises(RuntimeError, match="Expected a 'cpu' device type for generator but found 'cuda'"):
        torch.rand(3, generator=torch.Generator(device="cuda"))
    with pytest.raises(RuntimeError, match="Expected a 'cpu' device type for generator but found 'cuda'"):
        torch.empty(3).normal_(generator=torch.Generator(device="cuda"))


def test_cpu_generators_have_no_offset():
    g = torch.Generator()
    for call in (g.get_offset, lambda: g.set_offset(4)):
        with pytest.raises(RuntimeError, match="CPU Generator does not use offset"):
            call()


def test_cuda_seeding_without_cuda_is_ignored():
    torch.cuda.manual_seed(1)
    torch.cuda.manual_seed_all(1)
    torch.cuda.seed_all()
    if not torch.cuda.is_available():
        assert torch.cuda.default_generators == ()
        with pytest.raises(RuntimeError):
            torch.cuda.get_rng_state()
        with pytest.raises(RuntimeError):
            torch.Generator(device="cuda")


@needs_cuda
def test_bernoulli_with_probabilities_takes_four_per_thread():
    g = torch.Generator(device="cuda").manual_seed(21)
    p = torch.linspace(0, 1, 10, device="cuda")
    got = torch.bernoulli(p, generator=g).cpu().tolist()
    ps = p.cpu().tolist()
    want = [float(uniform_f32(words(21, 0, i // 4, 0)[i % 4]) <= np.float32(ps[i])) for i in range(10)]
    assert got == want
    assert g.get_offset() == 12  # PyTorch reserves 10, rounded up to 12
    assert got[0] == 0.0 and got[-1] == 1.0


@needs_cuda
def test_multinomial_on_cuda_draws_from_the_device_generator():
    g = torch.Generator(device="cuda").manual_seed(4)
    probs = torch.tensor([[0.1, 0.2, 0.3, 0.4], [0.5, 0.0, 0.25, 0.25]], device="cuda")
    # one sample / no replacement: argmax (top-k) of p / q with q ~ Exp(1) from the same stream
    s = g.get_state()
    got = torch.multinomial(probs, 3, generator=g)
    g.set_state(s)
    q = torch.empty_like(probs).exponential_(generator=g)
    assert torch.equal(got, (probs / q).topk(3, dim=-1).indices)
    assert got.device.type == "cuda"
    # with replacement: sample j of row r uses thread r * 128 + j's first uniform
    g.manual_seed(4)
    got = torch.multinomial(probs, 5, replacement=True, generator=g).cpu().tolist()
    cum = np.cumsum(probs.cpu().numpy(), axis=1)
    for r in range(2):
        for j in range(5):
            u = uniform_f32(words(4, 0, r * 128 + j, 0)[0])
            k = int(np.searchsorted(cum[r] / cum[r][-1], u, side="left"))
            while k >= 1 and probs[r, k].item() == 0:
                k -= 1
            assert got[r][j] == k
    assert g.get_offset() == 4


@needs_cuda
def test_randperm_on_cuda_is_a_reproducible_permutation():
    g = torch.Generator(device="cuda").manual_seed(8)
    a = torch.randperm(1000, device="cuda", generator=g)
    assert a.device.type == "cuda" and sorted(a.cpu().tolist()) == list(range(1000))
    # keys (int32 range: two per draw) then one offset per element for the duplicate shuffle
    assert g.get_offset() == 4 + 1000
    g.manual_seed(8)
    assert torch.equal(torch.randperm(1000, device="cuda", generator=g), a)
    # keys sorted by their low bits: the permutation orders the elements by them
    g.manual_seed(8)
    keys = torch.randint(-2**31, 2**31 - 1, (1000,), device="cuda", generator=g, dtype=torch.int32)
    bits = 23  # ceil(log2(n - (6 n^2 + 1) / (12 ln 0.9))) for n = 1000
    low = [k & (2**bits - 1) for k in keys.cpu().tolist()]
    perm = a.cpu().tolist()
    assert all(low[perm[i]] <= low[perm[i + 1]] for i in range(999))


@needs_cuda
def test_dropout_on_cuda_follows_the_fused_kernels_vector_width():
    x = torch.ones(8, 100, device="cuda")  # 800 elements: four per thread and draw
    torch.cuda.manual_seed(2)
    y = torch.nn.functional.dropout(x, 0.25).cpu().flatten().tolist()
    keep = f32(Fraction(0.75))
    want = [uniform_f32(words(2, 0, i // 4, 0)[i % 4]) < keep for i in range(800)]
    assert [v != 0 for v in y] == want
    assert set(y) <= {0.0, float(np.float32(1 / np.float32(0.75)))}
    assert torch.cuda.default_generators[0].get_offset() == 4
    # 6 elements: two per thread; 7: the grid-stride layout of the other distributions
    torch.cuda.manual_seed(2)
    y = torch.nn.functional.dropout(torch.ones(6, device="cuda"), 0.5).cpu().tolist()
    assert [v != 0 for v in y] == [uniform_f32(words(2, 0, i // 2, 0)[i % 2]) < 0.5 for i in range(6)]
    torch.cuda.manual_seed(2)
    y = torch.nn.functional.dropout(torch.ones(7, device="cuda"), 0.5).cpu().tolist()
    assert [v != 0 for v in y] == [uniform_f32(words(2, 0, i, 0)[0]) < 0.5 for i in range(7)]
    # nn.Dropout goes the same way
    torch.cuda.manual_seed(2)
    a = torch.nn.Dropout(0.5)(torch.ones(6, device="cuda"))
    torch.cuda.manual_seed(2)
    assert torch.equal(a, torch.nn.functional.dropout(torch.ones(6, device="cuda"), 0.5))
