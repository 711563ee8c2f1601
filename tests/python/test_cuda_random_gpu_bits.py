"""CUDA random draws against the bytes PyTorch drew on a GPU.

The digests below were recorded from PyTorch 2.11 (CUDA 13) on an NVIDIA H200 (132
multiprocessors, 2048 threads each: the launch geometry the CUDA host emulation also uses), by
running `python test_cuda_random_gpu_bits.py` there under real PyTorch. leafgrad matched all of
them on that GPU, and matches them here under LEAFGRAD_CUDA_EMULATION=1, because its CUDA draws
are computed on the host from the same Philox words (src/ops/random_cuda.rs).

`randn`, `normal_` and `torch.normal` into contiguous float32/float64 tensors are drawn by a kernel on the
device, with its own `logf`/`__sincosf` (`log`/`sincospi`), as PyTorch's are: they match its
bits on a GPU (the second table, checked there only). Not in either table, because they differ
in the last bits (measured on the same GPU): `log_normal_`, `exponential_`, `cauchy_` and
float16 `randn`, whose transforms leafgrad still
computes on the host (docs/differences.md).
"""
import hashlib
import sys

import numpy as np
import pytest
from support import USING_TORCH

import leafgrad as torch

pytestmark = pytest.mark.skipif(
    not torch.cuda.is_available() or (USING_TORCH and __name__ != "__main__"),
    reason="a GPU or LEAFGRAD_CUDA_EMULATION=1 (leafgrad's CUDA generators)",
)

F = torch.nn.functional
D = "cuda"
SIZES = [1, 3, 4, 5, 17, 255, 256, 257, 1000, 4096, 65537, 132 * 2048 * 4 + 17, 1 << 22]


def cases():
    """(name, function) pairs; each runs after manual_seed(1234)."""
    for n in SIZES:
        yield f"rand_f32_{n}", lambda n=n: torch.rand(n, device=D)
        yield f"rand_f64_{n}", lambda n=n: torch.rand(n, device=D, dtype=torch.float64)
        yield f"randint_{n}", lambda n=n: torch.randint(0, 10, (n,), device=D)
        yield f"dropout_{n}", lambda n=n: F.dropout(torch.ones(n, device=D), 0.3, training=True)
    for n in [5, 1000, 65537]:
        yield f"rand_f16_{n}", lambda n=n: torch.rand(n, device=D, dtype=torch.float16)
        yield f"rand_bf16_{n}", lambda n=n: torch.rand(n, device=D, dtype=torch.bfloat16)
        yield f"randint_big_{n}", lambda n=n: torch.randint(-2**40, 2**40, (n,), device=D)
        yield f"randint_i32_{n}", lambda n=n: torch.randint(-5, 1000, (n,), device=D, dtype=torch.int32)
        yield f"uniform_{n}", lambda n=n: torch.empty(n, device=D).uniform_(-2, 3)
        yield f"geometric_{n}", lambda n=n: torch.empty(n, device=D).geometric_(0.3)
        yield f"random_{n}", lambda n=n: torch.empty(n, device=D).random_()
        yield f"random_to_{n}", lambda n=n: torch.empty(n, device=D).random_(3, 9)
        yield f"bernoulli_p_{n}", lambda n=n: torch.empty(n, device=D).bernoulli_(0.3)
        yield f"bernoulli_t_{n}", lambda n=n: torch.bernoulli(torch.linspace(0, 1, n, device=D))
        yield f"randperm_{n}", lambda n=n: torch.randperm(n, device=D)
        yield f"rand_like_{n}", lambda n=n: torch.rand_like(torch.ones(n, 3, device=D))
        yield f"dropout2d_{n}", lambda n=n: F.dropout(torch.ones(n, 7, device=D), 0.5, training=True)
        yield f"dropout_f64_{n}", lambda n=n: F.dropout(torch.ones(n, device=D, dtype=torch.float64), 0.2, training=True)
    for k, repl in [(1, False), (5, False), (5, True), (100, True)]:
        yield f"multinomial_{k}_{repl}", lambda k=k, repl=repl: torch.multinomial(
            torch.arange(1.0, 201.0, device=D), k, replacement=repl)
        yield f"multinomial2d_{k}_{repl}", lambda k=k, repl=repl: torch.multinomial(
            torch.arange(1.0, 401.0, device=D).reshape(4, 100), k, replacement=repl)
    yield "randperm_big", lambda: torch.randperm(300000, device=D)
    yield "generator_obj", lambda: torch.rand(1000, device=D, generator=torch.Generator(device=D).manual_seed(7))
    yield "dropout_module_2d", lambda: torch.nn.Dropout(0.1)(torch.ones(64, 128, device=D))
    yield "rand_2d", lambda: torch.rand(37, 129, device=D)
    yield "rand_then_rand", lambda: torch.cat([torch.rand(10, device=D), torch.rand(300000, device=D)])


def digest(fn):
    """The draw's bytes (16-bit floats widened to float32) and the generator's state after it."""
    torch.manual_seed(1234)
    t = fn().detach().cpu()
    if t.dtype in (torch.float16, torch.bfloat16):
        t = t.float()
    h = hashlib.sha256(np.ascontiguousarray(t.numpy()).tobytes()).hexdigest()[:16]
    state = hashlib.sha256(bytes(torch.cuda.get_rng_state().tolist())).hexdigest()[:8]
    return f"{h}:{state}"


RECORDED = {
    "bernoulli_p_1000": "26cc9d1679e65875:b6e1dab5",
    "bernoulli_p_5": "fbe01d9e277bd6a9:b6e1dab5",
    "bernoulli_p_65537": "1070923a6131bade:b6e1dab5",
    "bernoulli_t_1000": "1ff924601b0b1de0:65c9f00b",
    "bernoulli_t_5": "4543a47488d670ea:65c9f00b",
    "bernoulli_t_65537": "4c80e83181edc814:65c9f00b",
    "dropout2d_1000": "d8af67fe3a94cb40:b6e1dab5",
    "dropout2d_5": "846975b155e1a9a5:b6e1dab5",
    "dropout2d_65537": "d145c8c0a3cf81a4:b6e1dab5",
    "dropout_1": "58b150d1d1358243:b6e1dab5",
    "dropout_1000": "846d3a1625cc907e:b6e1dab5",
    "dropout_1081361": "86464c14b51e94cb:8406dca7",
    "dropout_17": "8bdb775a90caa471:b6e1dab5",
    "dropout_255": "cb1759433c99bc66:b6e1dab5",
    "dropout_256": "9d679c00163e35c6:b6e1dab5",
    "dropout_257": "ab19a8283c6dd1ef:b6e1dab5",
    "dropout_3": "07ba422c54aecade:b6e1dab5",
    "dropout_4": "eea4c08a2aff60df:b6e1dab5",
    "dropout_4096": "40030cee8d3407ab:b6e1dab5",
    "dropout_4194304": "afe2299e75c90eb7:83ab379d",
    "dropout_5": "3c636ebbe0940e37:b6e1dab5",
    "dropout_65537": "61bade2f2eee13c2:b6e1dab5",
    "dropout_f64_1000": "d6dd60eaee912699:b6e1dab5",
    "dropout_f64_5": "be4d97a0213fbb17:b6e1dab5",
    "dropout_f64_65537": "4487b73397e9c138:b6e1dab5",
    "dropout_module_2d": "279eaa79a874bc1f:b6e1dab5",
    "generator_obj": "76faa5494333fcb8:8af47981",
    "geometric_1000": "6f4f30f7e0ad130e:b6e1dab5",
    "geometric_5": "a953c866d5e75da8:b6e1dab5",
    "geometric_65537": "852cca7dc5e644f5:b6e1dab5",
    "multinomial2d_100_True": "0c81345d54c1339b:b6e1dab5",
    "multinomial2d_1_False": "a8d04c082451393f:b6e1dab5",
    "multinomial2d_5_False": "614900313b6db9d6:b6e1dab5",
    "multinomial2d_5_True": "1f61761baefcbcda:b6e1dab5",
    "multinomial_100_True": "e3096335d6facc02:b6e1dab5",
    "multinomial_1_False": "d3a2a240faaf8993:b6e1dab5",
    "multinomial_5_False": "61ecf98794882e47:b6e1dab5",
    "multinomial_5_True": "914ac76b32b6580a:b6e1dab5",
    "rand_2d": "069a9be3305b313e:b6e1dab5",
    "rand_bf16_1000": "194a5d7fa188dcd1:b6e1dab5",
    "rand_bf16_5": "f327237831cf19e5:b6e1dab5",
    "rand_bf16_65537": "d491115b9bee1811:b6e1dab5",
    "rand_f16_1000": "cc3bb44bd8a36e25:b6e1dab5",
    "rand_f16_5": "49b0fcc5fe50c7bf:b6e1dab5",
    "rand_f16_65537": "2ec356efa733fddc:b6e1dab5",
    "rand_f32_1": "c96772cc99fe70a7:b6e1dab5",
    "rand_f32_1000": "8cf2ba2d2dc39b31:b6e1dab5",
    "rand_f32_1081361": "c203e36521ff649a:8406dca7",
    "rand_f32_17": "a5586521d1b9eb74:b6e1dab5",
    "rand_f32_255": "fe6505a55c5bca85:b6e1dab5",
    "rand_f32_256": "ace94a50ece0ff7f:b6e1dab5",
    "rand_f32_257": "b2363ce1b8e319bf:b6e1dab5",
    "rand_f32_3": "6ec75f29b7282394:b6e1dab5",
    "rand_f32_4": "3f16d171602d49e9:b6e1dab5",
    "rand_f32_4096": "1818dde5e667a35c:b6e1dab5",
    "rand_f32_4194304": "31adca181055b970:83ab379d",
    "rand_f32_5": "278191de798ae512:b6e1dab5",
    "rand_f32_65537": "c10c089025f4854e:b6e1dab5",
    "rand_f64_1": "93efd9a962a21860:b6e1dab5",
    "rand_f64_1000": "996f9143eaaa00f1:b6e1dab5",
    "rand_f64_1081361": "a8336824b0f7c9f0:65c9f00b",
    "rand_f64_17": "f595ac3c3c5aa86f:b6e1dab5",
    "rand_f64_255": "3d169568648043f0:b6e1dab5",
    "rand_f64_256": "f9c784e76d679f31:b6e1dab5",
    "rand_f64_257": "44aaaa070bad05b3:b6e1dab5",
    "rand_f64_3": "b228f9e6934fe8ab:b6e1dab5",
    "rand_f64_4": "02ebd15915926972:b6e1dab5",
    "rand_f64_4096": "7f2c2589f6c5c72e:b6e1dab5",
    "rand_f64_4194304": "2d776147b4b3c71a:dc4f8923",
    "rand_f64_5": "ee3dd079c1f7b1b7:b6e1dab5",
    "rand_f64_65537": "737f4cb6e5b53a44:b6e1dab5",
    "rand_like_1000": "2cffa75c7a33b466:b6e1dab5",
    "rand_like_5": "0bb4532898646790:b6e1dab5",
    "rand_like_65537": "158cf0aabd7289e0:b6e1dab5",
    "rand_then_rand": "821d03661a4eba2b:8406dca7",
    "randint_1": "d86e8112f3c4c444:b6e1dab5",
    "randint_1000": "8eb24d0b7ed1e3c5:b6e1dab5",
    "randint_1081361": "78231a5c326e376f:8406dca7",
    "randint_17": "5d4e7e1ed77d8023:b6e1dab5",
    "randint_255": "f3b85cdcbf480283:b6e1dab5",
    "randint_256": "1b6cf21536b60d61:b6e1dab5",
    "randint_257": "c53aec6227dccea6:b6e1dab5",
    "randint_3": "b6eeac6529471fb5:b6e1dab5",
    "randint_4": "6ffd6ab337e12da6:b6e1dab5",
    "randint_4096": "4809a65cfeb951d0:b6e1dab5",
    "randint_4194304": "eacf7be3e5222ef9:83ab379d",
    "randint_5": "3ecf16ac627034a0:b6e1dab5",
    "randint_65537": "a45c02005405d527:b6e1dab5",
    "randint_big_1000": "94072b630f93b391:b6e1dab5",
    "randint_big_5": "5bcc77ee8ba046f9:b6e1dab5",
    "randint_big_65537": "f862b007dafdd684:b6e1dab5",
    "randint_i32_1000": "1e8c4466344b87db:b6e1dab5",
    "randint_i32_5": "64101fa5f1074f9b:b6e1dab5",
    "randint_i32_65537": "92800c030e814dc2:b6e1dab5",
    "random_1000": "b0adf564149f977b:b6e1dab5",
    "random_5": "32f2135ff42539c9:b6e1dab5",
    "random_65537": "55c90668762c3725:b6e1dab5",
    "random_to_1000": "c7742e72e32c44a8:b6e1dab5",
    "random_to_5": "00ebbbfe71d15fa1:b6e1dab5",
    "random_to_65537": "5c6eab7552727b4f:b6e1dab5",
    "randperm_1000": "a4c51a4b87d59abe:beb35d58",
    "randperm_5": "deaf6e366092827a:65c9f00b",
    "randperm_65537": "2af11051f64d464c:cffebc18",
    "randperm_big": "b0ac61ef0c59d215:d1ad04ad",
    "uniform_1000": "dc9b24751ecb7eac:b6e1dab5",
    "uniform_5": "de086be7d2195cf6:b6e1dab5",
    "uniform_65537": "241d5d74c2a4d9fd:b6e1dab5",
}

# Normal draws run on the device (kernels.cu `normal_*`) with its own logf/__sincosf, so they
# are PyTorch's bits on a GPU only (under the emulation the host's functions stand in): the
# value digests PyTorch 2.11 gave on the H200, which leafgrad matched there.
def gpu_cases():
    for n in SIZES:
        yield f"randn_f32_{n}", lambda n=n: torch.randn(n, device=D)
        yield f"randn_f64_{n}", lambda n=n: torch.randn(n, device=D, dtype=torch.float64)
    for n in [5, 1000, 65537]:
        yield f"normal_{n}", lambda n=n: torch.empty(n, device=D).normal_(1, 2)
        yield f"normal_tt_{n}", lambda n=n: torch.normal(torch.zeros(n, device=D), torch.ones(n, device=D) * 2)
    yield "randn_odd_shape", lambda: torch.randn(3, 5, 7, device=D)


RECORDED_ON_GPU = {
    "normal_tt_1000": "8637232a170bcfeb",
    "normal_tt_5": "cf70a3df12d20cd0",
    "normal_tt_65537": "ba9547c4efcd1009",
    "normal_1000": "4bca4368b8884037",
    "normal_5": "71404adcbc38e4cd",
    "normal_65537": "7b8a84e82adae048",
    "randn_f32_1": "9ef663306d9f49fa",
    "randn_f32_1000": "64e4cf9fd18734f3",
    "randn_f32_1081361": "0698ddc4e98ea95f",
    "randn_f32_17": "50c8f2de2b943042",
    "randn_f32_255": "ea3abecf1d11fad7",
    "randn_f32_256": "53c31a8bbea6aeec",
    "randn_f32_257": "b7353a254a9bbc90",
    "randn_f32_3": "a2a1cc19f56fe4c1",
    "randn_f32_4": "d36275b6606abfe4",
    "randn_f32_4096": "9b9d67cbfad4c931",
    "randn_f32_4194304": "7421603ae0a8c53d",
    "randn_f32_5": "a1aeeb92144642f9",
    "randn_f32_65537": "65065285da7e2de3",
    "randn_f64_1": "929fd6e8e4785c42",
    "randn_f64_1000": "5884afc33a267ecb",
    "randn_f64_1081361": "d5d03efbbda39365",
    "randn_f64_17": "e51d86b9f9acab2d",
    "randn_f64_255": "207bf234c06d2c88",
    "randn_f64_256": "58a09ba864012e49",
    "randn_f64_257": "5b1f8e295272c3ff",
    "randn_f64_3": "dcc25402ea6bfdf6",
    "randn_f64_4": "16b8d564faad20ec",
    "randn_f64_4096": "4cb42b30454baf18",
    "randn_f64_4194304": "16785518c847fcb2",
    "randn_f64_5": "acd23e9d36e0408c",
    "randn_f64_65537": "54d4b42be33b3fea",
    "randn_odd_shape": "32b6c31412545dbe",
}

CASES = dict(cases())
GPU_CASES = dict(gpu_cases())
ON_A_GPU = torch.cuda.is_available() and "emulation" not in torch.cuda.get_device_name()


@pytest.mark.parametrize("name", sorted(CASES))
def test_draw_is_pytorchs_on_a_gpu(name):
    assert digest(CASES[name]) == RECORDED[name]


@pytest.mark.skipif(not ON_A_GPU, reason="the device's own math: a GPU")
@pytest.mark.parametrize("name", sorted(GPU_CASES))
def test_normal_draws_are_pytorchs_on_a_gpu(name):
    assert digest(GPU_CASES[name]).split(":")[0] == RECORDED_ON_GPU[name]


if __name__ == "__main__":
    # Under real PyTorch on a GPU: print the table above.
    if len(sys.argv) > 1 and sys.argv[1] == "torch":
        import torch as real
        torch = real  # noqa: F811
        F = torch.nn.functional
        CASES = dict(cases())
    print("RECORDED = {")
    for name, fn in sorted(CASES.items()):
        print(f'    "{name}": "{digest(fn)}",')
    print("}")
