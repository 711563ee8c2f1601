"""The scaffolding real scripts touch on their way to the maths: torch.testing (assert_close,
make_tensor), torch.backends flags, torch.amp (autocast, GradScaler) with the deprecated
torch.cuda.amp / torch.cpu.amp spellings, torch.distributed and torch.nn.parallel.

Expectations were recorded from PyTorch 2.15 on a machine without CUDA; the tests marked
leafgrad_only state what leafgrad reports where a CUDA build of PyTorch differs (no cuDNN,
oneDNN, OpenMP or distributed backend in leafgrad).
"""
import math
import warnings

import leafgrad as torch
import pytest
from support import leafgrad_only, record_warnings, warning_texts

GPU = torch.cuda.is_available()
no_gpu = pytest.mark.skipif(GPU, reason="checks what happens without CUDA")


def failure(fn, exc=AssertionError):
    with pytest.raises(exc) as e:
        fn()
    return str(e.value)


# ---------------------------------------------------------------- torch.testing.assert_close

def test_assert_close_passes_within_default_tolerances():
    torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-6]))
    torch.testing.assert_close(torch.tensor([1.0], dtype=torch.float64), torch.tensor([1.0 + 1e-8], dtype=torch.float64))
    torch.testing.assert_close(torch.tensor([1.0, 2.0]).half(), torch.tensor([1.0, 2.001]).half())
    torch.testing.assert_close(torch.tensor([]), torch.tensor([]))
    torch.testing.assert_close(torch.tensor([1.0]), torch.tensor([1.0], requires_grad=True))


def test_assert_close_tensor_message():
    text = failure(lambda: torch.testing.assert_close(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0])))
    assert text == (
        "Tensor-likes are not close!\n\n"
        "Mismatched elements: 1 / 3 (33.3%)\n"
        "Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)"
    )
    text = failure(lambda: torch.testing.assert_close(torch.tensor([[1.0, 2.0], [3.0, 4.0]]),
                                                      torch.tensor([[1.0, 2.0], [3.0, 5.0]])))
    assert "Mismatched elements: 1 / 4 (25.0%)\nGreatest absolute difference: 1.0 at index (1, 1)" in text


def test_assert_close_integers_compare_exactly():
    text = failure(lambda: torch.testing.assert_close(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4])))
    assert text == (
        "Tensor-likes are not equal!\n\n"
        "Mismatched elements: 1 / 3 (33.3%)\n"
        "Greatest absolute difference: 1 at index (2,)\n"
        "Greatest relative difference: 0.25 at index (2,)"
    )
    text = failure(lambda: torch.testing.assert_close(torch.tensor([True]), torch.tensor([False])))
    assert text.endswith("Greatest absolute difference: 1 at index (0,)\nGreatest relative difference: inf at index (0,)")


def test_assert_close_scalar_tensors_and_numbers():
    assert failure(lambda: torch.testing.assert_close(torch.tensor(1.0), torch.tensor(2.0))) == (
        "Scalars are not close!\n\nExpected 2.0 but got 1.0.\n"
        "Absolute difference: 1.0 (up to 1e-05 allowed)\nRelative difference: 0.5 (up to 1.3e-06 allowed)"
    )
    assert failure(lambda: torch.testing.assert_close(1.0, 1.1)) == (
        "Scalars are not close!\n\nExpected 1.1 but got 1.0.\n"
        "Absolute difference: 0.10000000000000009 (up to 1e-07 allowed)\n"
        "Relative difference: 0.09090909090909098 (up to 1e-07 allowed)"
    )
    assert failure(lambda: torch.testing.assert_close(1, 2)) == (
        "Scalars are not equal!\n\nExpected 2 but got 1.\nAbsolute difference: 1\nRelative difference: 0.5"
    )
    assert failure(lambda: torch.testing.assert_close(1, 1.0)) == (
        "The (d)types do not match: <class 'int'> != <class 'float'>."
    )
    torch.testing.assert_close(1, 1.0, check_dtype=False)
    assert failure(lambda: torch.testing.assert_close(True, False)) == "Booleans mismatch: True is not False"
    assert failure(lambda: torch.testing.assert_close(None, 1)) == "None mismatch: None is not 1"
    torch.testing.assert_close(None, None)


def test_assert_close_attributes():
    assert failure(lambda: torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0, 3.0]))) == (
        "The values for attribute 'shape' do not match: torch.Size([2]) != torch.Size([3])."
    )
    f64 = torch.tensor([1.0, 2.0], dtype=torch.float64)
    assert failure(lambda: torch.testing.assert_close(torch.tensor([1.0, 2.0]), f64)) == (
        "The values for attribute 'dtype' do not match: torch.float32 != torch.float64."
    )
    torch.testing.assert_close(torch.tensor([1.0, 2.0]), f64, check_dtype=False)
    text = failure(lambda: torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.2], dtype=torch.float64),
                                                      check_dtype=False))
    assert "Greatest absolute difference: 0.20000000000000018 at index (1,) (up to 1e-05 allowed)" in text
    assert failure(lambda: torch.testing.assert_close(torch.ones(2, 2).t(), torch.ones(2, 2), check_stride=True)) == (
        "The values for attribute 'stride()' do not match: (1, 2) != (2, 1)."
    )
    torch.testing.assert_close(torch.ones(2, 2).t(), torch.ones(2, 2))


def test_assert_close_nan_inf_and_tolerances():
    nan = torch.tensor([float("nan")])
    assert "Greatest absolute difference: nan at index (0,)" in failure(lambda: torch.testing.assert_close(nan, nan))
    torch.testing.assert_close(nan, nan, equal_nan=True)
    text = failure(lambda: torch.testing.assert_close(torch.tensor([1.0, math.inf]), torch.tensor([1.0, 3.0])))
    assert "Greatest absolute difference: inf at index (1,)" in text
    assert failure(lambda: torch.testing.assert_close(torch.tensor([1.0]), torch.tensor([1.0]), rtol=0), ValueError) == (
        "Both 'rtol' and 'atol' must be either specified or omitted, but got no atol."
    )
    text = failure(lambda: torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 3.0]), atol=0.1, rtol=0.01))
    assert text.endswith("(up to 0.1 allowed)\nGreatest relative difference: 0.3333333432674408 at index (1,) (up to 0.01 allowed)")
    text = failure(lambda: torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 3.0]), atol=0, rtol=0))
    assert text.startswith("Tensor-likes are not equal!") and "allowed" not in text
    torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5]), atol=0.5, rtol=0)


def test_assert_close_containers_and_msg():
    text = failure(lambda: torch.testing.assert_close([torch.tensor([1.0]), {"a": [torch.tensor(1.0), torch.tensor([1.0, 2.0])]}],
                                                      [torch.tensor([1.0]), {"a": [torch.tensor(1.0), torch.tensor([1.0, 3.0])]}]))
    assert text.endswith("\n\nThe failure occurred for item [1]['a'][1]")
    assert failure(lambda: torch.testing.assert_close([1, 2], [1, 2, 3])) == "The length of the sequences mismatch: 2 != 3"
    assert failure(lambda: torch.testing.assert_close({"a": 1}, {"b": 1})) == (
        "The keys of the mappings do not match:\n"
        "Missing keys in the actual mapping: ['b']\n"
        "Additional keys in the actual mapping: ['a']"
    )
    torch.testing.assert_close((1, 2), [1, 2])
    assert failure(lambda: torch.testing.assert_close(torch.tensor([1.0]), torch.tensor([2.0]), msg="custom")) == "custom"
    assert failure(lambda: torch.testing.assert_close(torch.tensor([1.0]), torch.tensor([2.0]), msg=lambda m: "X" + m[:6])) == "XTensor"
    assert failure(lambda: torch.testing.assert_close(torch.tensor([1.0]), [1.0]), TypeError) == (
        "No comparison pair was able to handle inputs of type <class 'torch.Tensor'> and <class 'list'>."
    )
    assert failure(lambda: torch.testing.assert_close("a", "a"), TypeError) == (
        "No comparison pair was able to handle inputs of type <class 'str'> and <class 'str'>."
    )


# ---------------------------------------------------------------- torch.testing.make_tensor

def test_make_tensor_ranges_and_flags():
    t = torch.testing.make_tensor(3, 4, dtype=torch.float32, device="cpu")
    assert t.shape == torch.Size([3, 4]) and t.dtype == torch.float32 and not t.requires_grad
    assert float(t.min()) >= -9 and float(t.max()) < 9
    t = torch.testing.make_tensor((3, 4), dtype=torch.int64, device="cpu", low=0, high=3, noncontiguous=True,
                                  exclude_zero=True)
    assert t.shape == torch.Size([3, 4]) and not t.is_contiguous() and t.stride() == (8, 2)
    assert bool((t > 0).all()) and bool((t <= 3).all())
    t = torch.testing.make_tensor(5, dtype=torch.float64, device="cpu", requires_grad=True)
    assert t.requires_grad and t.is_leaf
    assert torch.testing.make_tensor(4, dtype=torch.bool, device="cpu").dtype == torch.bool
    assert failure(lambda: torch.testing.make_tensor(2, dtype=torch.int64, device="cpu", requires_grad=True), ValueError) == (
        "`requires_grad=True` is not supported for boolean and integral dtypes, but got dtype=torch.int64"
    )
    assert failure(lambda: torch.testing.make_tensor(2, dtype=torch.float32, device="cpu", low=3, high=1), ValueError) == (
        "`low` must be less than `high`, but got 3 >= 1"
    )


def test_make_tensor_follows_the_seed():
    torch.manual_seed(0)
    a = torch.testing.make_tensor(3, dtype=torch.float32, device="cpu")
    torch.manual_seed(0)
    b = torch.testing.make_tensor(3, dtype=torch.float32, device="cpu")
    torch.testing.assert_close(a, b, rtol=0, atol=0)


# ---------------------------------------------------------------- torch.backends

def test_backend_flags_have_pytorch_defaults_and_are_settable():
    cudnn = torch.backends.cudnn
    assert (cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32) == (True, False, False, True)
    matmul = torch.backends.cuda.matmul
    assert matmul.allow_tf32 is False
    assert matmul.allow_fp16_reduced_precision_reduction is True
    assert matmul.allow_bf16_reduced_precision_reduction is True
    try:
        cudnn.benchmark = True
        matmul.allow_tf32 = True
        assert cudnn.benchmark is True and matmul.allow_tf32 is True
    finally:
        cudnn.benchmark = False
        matmul.allow_tf32 = False
    with pytest.raises(AttributeError, match="^Unknown attribute nope$"):
        matmul.nope = 1
    assert torch.backends.mps.is_available() is False and torch.backends.mps.is_built() is False
    assert torch.backends.cpu.get_cpu_capability() in ("AVX512", "AVX2", "DEFAULT")
    assert isinstance(torch.backends.mkldnn.is_available(), bool)
    assert isinstance(torch.backends.openmp.is_available(), bool)


@leafgrad_only
def test_leafgrad_has_no_vendor_backends():
    assert torch.backends.cudnn.is_available() is False and torch.backends.cudnn.version() is None
    assert torch.backends.mkldnn.is_available() is False
    assert torch.backends.openmp.is_available() is False


# ---------------------------------------------------------------- torch.amp

CUDA_SCALER = "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."
CUDA_AUTOCAST = "CUDA is not available or torch_xla is imported. Disabling autocast."


def test_autocast_alias_context_and_decorator():
    assert torch.autocast is torch.amp.autocast
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16) as ctx:
        assert type(ctx).__name__ == "autocast"
        y = torch.ones(2, 2) @ torch.ones(2, 2)
    assert y.shape == torch.Size([2, 2])
    assert torch.amp.autocast("cpu").fast_dtype == torch.bfloat16

    @torch.autocast("cpu", enabled=False)
    def double(x):
        return x * 2

    assert double(torch.tensor([1.0])).tolist() == [2.0]


def test_autocast_arguments():
    with record_warnings() as caught:
        a = torch.autocast("cpu", dtype=torch.float32)
    assert warning_texts(caught, UserWarning) == [
        "In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
        "CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently."
    ]
    assert a._enabled is False
    assert failure(lambda: torch.autocast(1), ValueError) == "Expected `device_type` of type `str`, got: `<class 'int'>`"
    assert failure(lambda: torch.autocast("xpu2"), RuntimeError) == "Invalid device string: 'xpu2'"


@no_gpu
def test_cuda_autocast_without_cuda_warns_and_disables():
    with record_warnings() as caught:
        a = torch.autocast("cuda")
    assert warning_texts(caught, UserWarning) == [CUDA_AUTOCAST]
    assert a._enabled is False and a.fast_dtype == torch.float16


def test_deprecated_autocast_spellings():
    with record_warnings() as caught:
        torch.cuda.amp.autocast(enabled=False)
        c = torch.cpu.amp.autocast()
    assert warning_texts(caught, FutureWarning) == [
        "`torch.cuda.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cuda', args...)` instead.",
        "`torch.cpu.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cpu', args...)` instead.",
    ]
    assert c.fast_dtype == torch.bfloat16 and c.device == "cpu"
    assert issubclass(torch.cuda.amp.autocast, torch.amp.autocast)


@no_gpu
def test_cuda_grad_scaler_without_cuda_is_disabled():
    with record_warnings() as caught:
        s = torch.amp.GradScaler()
    assert warning_texts(caught, UserWarning) == [CUDA_SCALER]
    assert caught[0].filename == __file__
    assert (s.is_enabled(), s.get_scale(), s.state_dict()) == (False, 1.0, {})
    x = torch.tensor(3.0)
    assert s.scale(x) is x
    p = torch.nn.Parameter(torch.ones(2))
    opt = torch.optim.SGD([p], lr=0.1)
    (p * 2).sum().backward()
    s.unscale_(opt)
    assert s.step(opt) is None
    s.update()
    assert p.detach().tolist() == pytest.approx([0.8, 0.8])
    with record_warnings() as caught:
        torch.cuda.amp.GradScaler()
    assert [(w.category.__name__, str(w.message)) for w in caught] == [
        ("FutureWarning", "`torch.cuda.amp.GradScaler(args...)` is deprecated. "
                          "Please use `torch.amp.GradScaler('cuda', args...)` instead."),
        ("UserWarning", CUDA_SCALER),
    ]


def test_cpu_grad_scaler_scales_skips_and_adapts():
    s = torch.amp.GradScaler("cpu", init_scale=4.0, growth_interval=2)
    assert s.state_dict() == {"scale": 4.0, "growth_factor": 2.0, "backoff_factor": 0.5, "growth_interval": 2,
                              "_growth_tracker": 0}
    p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    opt = torch.optim.SGD([p], lr=0.5)
    seen = []
    for i in range(4):
        opt.zero_grad()
        loss = (p * p).sum() if i != 1 else (p * float("inf")).sum()
        s.scale(loss).backward()
        s.step(opt)
        s.update()
        seen.append((s.get_scale(), s.state_dict()["_growth_tracker"], p.detach().tolist()))
    assert seen == [(4.0, 1, [0.0, 0.0]), (2.0, 0, [0.0, 0.0]), (2.0, 1, [0.0, 0.0]), (4.0, 0, [0.0, 0.0])]
    assert [t.item() for t in s.scale([torch.tensor(1.0), torch.tensor(2.0)])] == [4.0, 8.0]
    s.scale(p.sum()).backward()
    s.unscale_(opt)
    assert failure(lambda: s.unscale_(opt), RuntimeError) == (
        "unscale_() has already been called on this optimizer since the last update()."
    )
    s2 = torch.amp.GradScaler("cpu")
    s2.load_state_dict(s.state_dict())
    assert s2.get_scale() == 4.0 and s2.get_growth_interval() == 2
    assert failure(lambda: torch.amp.GradScaler("cpu", growth_factor=1.0)) == "The growth factor must be > 1.0."
    assert failure(lambda: torch.amp.GradScaler("cpu").load_state_dict({}), RuntimeError) == (
        "The source state dict is empty, possibly because it was saved from a disabled instance of GradScaler."
    )
    assert failure(lambda: torch.amp.GradScaler("cpu").step(opt)) == (
        "Attempted step but _scale is None.  This may indicate your script did not use "
        "scaler.scale(loss or outputs) earlier in the iteration."
    )


def test_disabled_scaler_passes_through():
    s = torch.amp.GradScaler("cpu", enabled=False)
    x = torch.tensor(2.0)
    assert s.scale(x) is x and s.get_scale() == 1.0 and s.state_dict() == {} and s.is_enabled() is False


# ---------------------------------------------------------------- distributed and nn.parallel

def test_distributed_guards_and_parallel_imports():
    assert torch.distributed.is_initialized() is False
    assert torch.nn.parallel.DataParallel is torch.nn.DataParallel
    assert issubclass(torch.nn.parallel.DistributedDataParallel, torch.nn.Module)


@leafgrad_only
def test_leafgrad_has_no_distributed_backend():
    assert torch.distributed.is_available() is False
    for fn in (lambda: torch.distributed.init_process_group("gloo"), torch.distributed.get_rank,
               torch.distributed.get_world_size, torch.distributed.barrier):
        assert failure(fn, RuntimeError) == "leafgrad has no distributed backend"
    assert failure(lambda: torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(2, 2)), RuntimeError) == (
        "leafgrad has no distributed backend: DistributedDataParallel cannot be constructed"
    )


def test_nn_parallel_and_cuda_amp_import_as_modules():
    import importlib

    name = torch.__name__
    assert importlib.import_module(name + ".cuda.amp").GradScaler is torch.cuda.amp.GradScaler
    assert importlib.import_module(name + ".nn.parallel").DataParallel is torch.nn.DataParallel
