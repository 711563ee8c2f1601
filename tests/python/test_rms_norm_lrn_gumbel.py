"""`F.rms_norm`/`nn.RMSNorm`/`torch.rms_norm`, `F.local_response_norm`/`nn.LocalResponseNorm` and
`F.gumbel_softmax`: PyTorch composes each of them of smaller ops on the CPU, and so does
leafgrad, op for op. Results and gradients are compared with PyTorch 2.15's bytes (the same on CPUs
with AVX-512 and with AVX2 only, `ATEN_CPU_CAPABILITY=avx2`), grad_fn chains, errors and
warnings as PyTorch gives them (LEAFGRAD_TEST_TORCH=1 runs all of it against PyTorch;
`python test_rms_norm_lrn_gumbel.py` prints the table), gradients by gradcheck in float64."""
import hashlib
import warnings

import pytest
import support  # noqa: F401  (with LEAFGRAD_TEST_TORCH=1, `leafgrad` below is PyTorch)

import leafgrad as torch

F = torch.nn.functional

# name: sha256 of PyTorch 2.15's result bytes (the same with AVX-512 and with AVX2)
RECORDED = {
    'rms_norm float32 (4, 5, 33) over (33,)': 'e859283513fbdd93',
    'rms_norm float32 (4, 5, 33) over (33,): input grad': 'b24781ca5815eaf2',
    'rms_norm float32 (4, 5, 33) over (33,): weight grad': '80422deaecfe8f37',
    'rms_norm float32 (4, 5, 33) over (33,), eps 1e-5, no weight': '598f0b05b816711a',
    'rms_norm float32 (3, 7, 16) over (7, 16)': '96411010de66c4c1',
    'rms_norm float32 (3, 7, 16) over (7, 16): input grad': '8c01140f7c3eddbd',
    'rms_norm float32 (3, 7, 16) over (7, 16): weight grad': 'bae99cff9e4e85f4',
    'rms_norm float32 (3, 7, 16) over (7, 16), eps 1e-5, no weight': '6e87091645cd88aa',
    'rms_norm float32 (2, 1000) over (1000,)': '288c0856db0382af',
    'rms_norm float32 (2, 1000) over (1000,): input grad': '09e2fa7d9c7e814c',
    'rms_norm float32 (2, 1000) over (1000,): weight grad': '38c664d9db11460c',
    'rms_norm float32 (2, 1000) over (1000,), eps 1e-5, no weight': 'f83fc71fcd32ed44',
    'local_response_norm float32 4-d': 'bbbbf4fbd491bb26',
    'local_response_norm float32 4-d: grad': 'ba55e26a02387a7e',
    'local_response_norm float32 5-d size 4': 'd75903825b8e28e0',
    'local_response_norm float32 3-d size 2': 'd65d4b5d5cd1e8ba',
    'rms_norm float64 (4, 5, 33) over (33,)': '59bfc5656177f088',
    'rms_norm float64 (4, 5, 33) over (33,): input grad': '0bcf831c633802f8',
    'rms_norm float64 (4, 5, 33) over (33,): weight grad': 'e05e46585a11f057',
    'rms_norm float64 (4, 5, 33) over (33,), eps 1e-5, no weight': 'bf2342dd0f404967',
    'rms_norm float64 (3, 7, 16) over (7, 16)': '01b4449555f06c58',
    'rms_norm float64 (3, 7, 16) over (7, 16): input grad': 'da3671c6cb70093b',
    'rms_norm float64 (3, 7, 16) over (7, 16): weight grad': 'b17c5232f0d24917',
    'rms_norm float64 (3, 7, 16) over (7, 16), eps 1e-5, no weight': '3d9bd0811e69e9ea',
    'rms_norm float64 (2, 1000) over (1000,)': 'a664c407a08817ab',
    'rms_norm float64 (2, 1000) over (1000,): input grad': '5634077ac7974f14',
    'rms_norm float64 (2, 1000) over (1000,): weight grad': 'e49e956b20c43219',
    'rms_norm float64 (2, 1000) over (1000,), eps 1e-5, no weight': 'd27fdd0cc4eab643',
    'local_response_norm float64 4-d': 'e022d447fda76ac4',
    'local_response_norm float64 4-d: grad': '6b2dbf4379668a3c',
    'local_response_norm float64 5-d size 4': '342312a3f519e11c',
    'local_response_norm float64 3-d size 2': 'a0f446bd975bd224',
    'rms_norm bfloat16 (4, 5, 33) over (33,)': 'aafec2e6c2b90469',
    'rms_norm bfloat16 (4, 5, 33) over (33,): input grad': '1c7f7afc96ef6e94',
    'rms_norm bfloat16 (4, 5, 33) over (33,): weight grad': '19ee9fd5b29470ca',
    'rms_norm bfloat16 (4, 5, 33) over (33,), eps 1e-5, no weight': '738e0aad2885cb42',
    'rms_norm bfloat16 (3, 7, 16) over (7, 16)': '2e55cdb89916e0d7',
    'rms_norm bfloat16 (3, 7, 16) over (7, 16): input grad': '61d63a2393502cea',
    'rms_norm bfloat16 (3, 7, 16) over (7, 16): weight grad': '145dd8bc69ab964c',
    'rms_norm bfloat16 (3, 7, 16) over (7, 16), eps 1e-5, no weight': '49e88e99d02336ea',
    'rms_norm bfloat16 (2, 1000) over (1000,)': 'dca89cb8deec258b',
    'rms_norm bfloat16 (2, 1000) over (1000,): input grad': '2b51e2b50f55866f',
    'rms_norm bfloat16 (2, 1000) over (1000,): weight grad': '868550077b4dca7d',
    'rms_norm bfloat16 (2, 1000) over (1000,), eps 1e-5, no weight': 'ec32380ecc80955f',
    'rms_norm float16 (4, 5, 33) over (33,)': '7a950509c0cc1e49',
    'rms_norm float16 (4, 5, 33) over (33,): input grad': '9e1aefa6bd8cb8ff',
    'rms_norm float16 (4, 5, 33) over (33,): weight grad': '9dbd61db1b65949d',
    'rms_norm float16 (4, 5, 33) over (33,), eps 1e-5, no weight': '8aaa57e11aa3e6b7',
    'rms_norm float16 (3, 7, 16) over (7, 16)': '3a40a0890fbf0e6a',
    'rms_norm float16 (3, 7, 16) over (7, 16): input grad': '51334b270dd13431',
    'rms_norm float16 (3, 7, 16) over (7, 16): weight grad': 'f3ac8b86d7b1e2d3',
    'rms_norm float16 (3, 7, 16) over (7, 16), eps 1e-5, no weight': '3997f4da4ba163a3',
    'rms_norm float16 (2, 1000) over (1000,)': '2034a24d5f37534d',
    'rms_norm float16 (2, 1000) over (1000,): input grad': 'a2426ab327cc64c4',
    'rms_norm float16 (2, 1000) over (1000,): weight grad': '8ac95dbd190ce6b5',
    'rms_norm float16 (2, 1000) over (1000,), eps 1e-5, no weight': '6bc5571b1d673688',
    'gumbel_softmax draws': '0bc5c3bfd7cca712',
    'gumbel_softmax hard draws, dim 0': '2ccb8ddbfa6a8488',
}


def data(n, scale=3.0, dtype=torch.float32):
    """n values in [-scale, scale], from arithmetic alone (no RNG)."""
    i = torch.arange(n, dtype=torch.float64)
    return ((((i * 7919) % 1000) - 500) / 500 * scale).to(dtype)


def digest(t):
    return hashlib.sha256(t.detach().float().contiguous().numpy().tobytes()).hexdigest()[:16]


def cases():
    for dtype in (torch.float32, torch.float64, torch.bfloat16, torch.float16):
        name = str(dtype)[len("torch."):]
        for shape, norm in [((4, 5, 33), (33,)), ((3, 7, 16), (7, 16)), ((2, 1000), (1000,))]:
            n = 1
            for s in shape:
                n *= s
            x = data(n, dtype=dtype).reshape(shape).requires_grad_()
            w = data(_numel(norm), 1.5, dtype).flip(0).reshape(norm).requires_grad_()
            g = data(n, 1.0, dtype).flip(0).reshape(shape)
            y = F.rms_norm(x, norm, w)
            gx, gw = torch.autograd.grad(y, (x, w), g)
            yield f"rms_norm {name} {shape} over {norm}", y
            yield f"rms_norm {name} {shape} over {norm}: input grad", gx
            yield f"rms_norm {name} {shape} over {norm}: weight grad", gw
            yield f"rms_norm {name} {shape} over {norm}, eps 1e-5, no weight", F.rms_norm(x, norm, eps=1e-5)
        if dtype in (torch.float32, torch.float64):
            x = data(2 * 6 * 5 * 4, 2.0, dtype).reshape(2, 6, 5, 4).requires_grad_()
            y = F.local_response_norm(x, 3)
            yield f"local_response_norm {name} 4-d", y
            yield f"local_response_norm {name} 4-d: grad", torch.autograd.grad(y, x, data(240, 1.0, dtype).flip(0).reshape(2, 6, 5, 4))[0]
            yield f"local_response_norm {name} 5-d size 4", F.local_response_norm(x.reshape(2, 6, 5, 2, 2), 4, alpha=0.3, beta=3.0, k=2.0)
            yield f"local_response_norm {name} 3-d size 2", F.local_response_norm(x[:, :, 0], 2, alpha=0.3, beta=2.0, k=1.5)
    # float64: PyTorch's float32 `log` is MKL's (differences.md), its float64 one is glibc's
    x = data(64 * 10, 2.0, torch.float64).reshape(64, 10)
    torch.manual_seed(5)
    yield "gumbel_softmax draws", F.gumbel_softmax(x, tau=0.7)
    yield "gumbel_softmax hard draws, dim 0", F.gumbel_softmax(x, hard=True, dim=0)


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


@pytest.mark.parametrize("name,value", list(cases()), ids=lambda v: v if isinstance(v, str) else "")
def test_pytorchs_bytes(name, value):
    assert digest(value) == RECORDED[name]


def _raises(fn, exc, text):
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value) == text


def test_rms_norm_small_values_and_graph():
    x = torch.tensor([[3.0, 4.0], [1.0, 1.0], [0.0, 0.0]], requires_grad=True)
    w = torch.tensor([2.0, -1.0], requires_grad=True)
    y = F.rms_norm(x, [2], w)
    assert y.flatten().tolist() == pytest.approx([1.6970562, -1.1313709, 2.0, -1.0, 0.0, 0.0], rel=1e-6)
    # PyTorch's composite: x * rsqrt(mean(x**2) + eps) * w, each part one node
    assert y.grad_fn.name() == "MulBackward0"
    inner = y.grad_fn.next_functions[0][0]
    assert inner.name() == "MulBackward0"
    assert inner.next_functions[1][0].name() == "RsqrtBackward0"
    # ATen's C++ add_(Scalar): AddBackward1, without the Python overload's _saved_alpha
    add = inner.next_functions[1][0].next_functions[0][0]
    assert add.name() == "AddBackward1" and not [a for a in dir(add) if a.startswith("_saved")]
    assert add.next_functions[0][0].name() == "MeanBackward1"
    y.sum().backward()
    assert w.grad.tolist() == pytest.approx([3 / 12.5 ** 0.5 + 1, 4 / 12.5 ** 0.5 + 1], rel=1e-6)
    # at the origin eps keeps the gradient finite: 1/sqrt(eps) times the weight
    assert x.grad[2].tolist() == pytest.approx([2.0 / 1.1920929e-07 ** 0.5, -1.0 / 1.1920929e-07 ** 0.5], rel=1e-6)


def test_rms_norm_dtypes_and_default_eps():
    tiny = torch.tensor([[1e-30, 0.0]])
    # eps = float32's machine epsilon for float32 (and float16/bfloat16, computed in float32)
    assert F.rms_norm(tiny, [2])[0, 0].item() == pytest.approx(1e-30 / (0.5e-60 + 1.1920928955078125e-07) ** 0.5)
    assert F.rms_norm(tiny.double(), [2])[0, 0].item() == pytest.approx(1e-30 / 2.220446049250313e-16 ** 0.5)
    assert F.rms_norm(tiny.to(torch.complex64), [2]).dtype == torch.complex64
    y = F.rms_norm(data(12, dtype=torch.bfloat16).reshape(3, 4), [4], torch.ones(4))
    assert y.dtype == torch.bfloat16 and y.grad_fn is None
    x = data(12, dtype=torch.bfloat16).reshape(3, 4).requires_grad_()
    assert F.rms_norm(x, [4]).grad_fn.name() == "ToCopyBackward0"
    assert F.rms_norm(data(4).reshape(1, 4), [4], torch.ones(4, dtype=torch.float64)).dtype == torch.float32
    assert F.rms_norm(torch.zeros(0, 4), [4]).shape == (0, 4)
    assert torch.rms_norm(torch.tensor([[3.0, 4.0]]), (2,))[0].tolist() == pytest.approx([0.8485281, 1.1313708])


def test_rms_norm_errors():
    x = torch.zeros(2, 3, 8)
    _raises(lambda: F.rms_norm(x, [], torch.ones(5)), RuntimeError,
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, "
            "but got normalized_shape = []")
    _raises(lambda: F.rms_norm(x.long(), [7], torch.ones(5)), RuntimeError,
            "Expected weight to be of same shape as normalized_shape, but got weight of shape [5] and "
            "normalized_shape = [7]")
    _raises(lambda: F.rms_norm(torch.tensor(3.0), [8]), ValueError, "Input tensor must have at least 1 dimensions, but got 0")
    _raises(lambda: F.rms_norm(x, (3, 8, 8)), RuntimeError,
            "Given normalized_shape=[3, 8, 8], expected input with shape [*3, 8, 8], but got input of size[2, 3, 8]")
    _raises(lambda: F.rms_norm(x.long(), [8]), NotImplementedError, "\"rms_norm\" not implemented for 'Long'")
    _raises(lambda: F.rms_norm(x.bool(), [8]), NotImplementedError, "\"rms_norm\" not implemented for 'Bool'")
    _raises(lambda: F.rms_norm(x, 8), TypeError,
            "rms_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int")
    _raises(lambda: F.rms_norm(x, [8.0]), TypeError,
            "rms_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, but found element of "
            "type float at pos 0")
    _raises(lambda: F.rms_norm([1.0], [1]), TypeError, "rms_norm(): argument 'input' (position 1) must be Tensor, not list")
    _raises(lambda: F.rms_norm(x, [8], None, "a"), TypeError, "rms_norm(): argument 'eps' (position 4) must be float, not str")


def test_rms_norm_warns_once_on_mixed_dtypes():
    torch.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            F.rms_norm(torch.ones(2, 4, dtype=torch.bfloat16), [4], torch.ones(4))
            F.rms_norm(torch.ones(2, 4), [4], torch.ones(4))
            F.rms_norm(torch.ones(2, 4, dtype=torch.complex64), [4], torch.ones(4))
        texts = [str(w.message).split(" (Triggered")[0] for w in caught]
        assert texts == ["Mismatch dtype between input and weight: input dtype = c10::BFloat16, weight dtype = "
                         "float, Cannot dispatch to fused implementation."]
    finally:
        torch.set_warn_always(False)


def test_rms_norm_module():
    m = torch.nn.RMSNorm(8)
    assert repr(m) == "RMSNorm((8,), eps=None, elementwise_affine=True)"
    assert m.weight.tolist() == [1.0] * 8 and list(m.state_dict()) == ["weight"]
    m2 = torch.nn.RMSNorm([3, 8], eps=1e-5, elementwise_affine=False, dtype=torch.float64)
    assert repr(m2) == "RMSNorm((3, 8), eps=1e-05, elementwise_affine=False)" and m2.weight is None
    x = data(48).reshape(2, 3, 8)
    assert torch.equal(m(x), F.rms_norm(x, [8], m.weight))
    assert torch.equal(m2(x.double()), F.rms_norm(x.double(), [3, 8], eps=1e-5))
    assert torch.nn.RMSNorm(4, dtype=torch.float16).weight.dtype == torch.float16


def test_gradcheck():
    x = data(2 * 3 * 5, 2.0, torch.float64).reshape(2, 3, 5).requires_grad_()
    w = data(5, 1.0, torch.float64).add(1.5).requires_grad_()
    assert torch.autograd.gradcheck(lambda a, b: F.rms_norm(a, [5], b), (x, w))
    assert torch.autograd.gradgradcheck(lambda a, b: F.rms_norm(a, [3, 5], b.expand(3, 5) * 1), (x, w))
    assert torch.autograd.gradcheck(lambda a: F.local_response_norm(a, 2, alpha=0.5, k=1.5), (x,))
    x4 = x.detach().reshape(1, 3, 5, 2).requires_grad_()
    assert torch.autograd.gradcheck(lambda a: F.local_response_norm(a, 3, alpha=0.5, beta=1.5), (x4,))


def test_local_response_norm():
    # a window of 2 channels: the one before (zero before the first) and the channel itself
    y = F.local_response_norm(torch.ones(1, 3, 1), 2, alpha=1.0, k=1.0)
    assert y.flatten().tolist() == pytest.approx([1.5 ** -0.75, 2 ** -0.75, 2 ** -0.75])
    # zero padding at the channel ends: the first channel sees only itself of a window of 3
    y = F.local_response_norm(torch.ones(1, 3, 1, 1), 3, alpha=3.0, beta=1.0, k=0.0)
    assert y.flatten().tolist() == pytest.approx([0.5, 1 / 3, 0.5])
    _raises(lambda: F.local_response_norm(torch.ones(2, 3), 2), ValueError,
            "Expected 3D or higher dimensionality                          input (got 2 dimensions)")
    e = torch.zeros(0, 3, 4)
    assert F.local_response_norm(e, 2) is e
    m = torch.nn.LocalResponseNorm(2)
    assert repr(m) == "LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)"
    x = data(24).reshape(1, 4, 6)
    assert torch.equal(m(x), F.local_response_norm(x, 2))
    assert F.local_response_norm(x.requires_grad_(), 2).grad_fn.name() == "DivBackward0"


def test_gumbel_softmax():
    torch.manual_seed(0)
    assert F.gumbel_softmax(torch.zeros(4), hard=True).tolist() == [0.0, 0.0, 1.0, 0.0]
    x = data(35).reshape(5, 7).requires_grad_()
    torch.manual_seed(0)
    soft = F.gumbel_softmax(x, tau=0.5)
    assert soft.grad_fn.name() == "SoftmaxBackward0"
    assert soft.sum(-1).tolist() == pytest.approx([1.0] * 5)
    torch.manual_seed(0)
    hard = F.gumbel_softmax(x, tau=0.5, hard=True)
    # the one-hot of the same draw, with the soft sample's gradient (straight-through)
    assert hard.grad_fn.name() == "AddBackward0"
    assert torch.equal(hard.argmax(-1), soft.argmax(-1)) and hard.sum().item() == 5.0
    g_hard, = torch.autograd.grad((hard * torch.arange(7.0)).sum(), x)
    g_soft, = torch.autograd.grad((soft * torch.arange(7.0)).sum(), x)
    assert torch.allclose(g_hard, g_soft)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        F.gumbel_softmax(x, eps=1e-5)
    assert [str(w.message) for w in caught] == ["`eps` parameter is deprecated and has no effect."]
    assert F.gumbel_softmax(torch.zeros(2, 3, dtype=torch.float64)).dtype == torch.float64


if __name__ == "__main__":
    for name, value in cases():
        print(f"    {name!r}: {digest(value)!r},")
