"""`torch.compile` (run eagerly, PyTorch's wrappers and argument checks), `torch.compiler`,
`torch._dynamo`'s config and errors, the float32 matmul precision and deterministic-algorithm
switches, `torch.vmap` and `torch.mps` without a Metal device: what PyTorch 2.15 gives (these
run against it with LEAFGRAD_TEST_TORCH=1)."""
import warnings

import pytest
import support  # noqa: F401  (with LEAFGRAD_TEST_TORCH=1, `leafgrad` below is PyTorch)

import leafgrad as torch

nn = torch.nn


def test_compile_a_module():
    m = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
    c = torch.compile(m)
    assert type(c).__name__ == "OptimizedModule" and isinstance(c, nn.Module) and c._orig_mod is m
    assert repr(c) == ("OptimizedModule(\n  (_orig_mod): Sequential(\n    (0): Linear(in_features=2, out_features=3, "
                       "bias=True)\n    (1): ReLU()\n  )\n)")
    assert list(c.state_dict()) == ["_orig_mod.0.weight", "_orig_mod.0.bias"]
    assert [n for n, _ in c.named_parameters()] == ["_orig_mod.0.weight", "_orig_mod.0.bias"]
    x = torch.arange(4.0).reshape(2, 2)
    assert torch.equal(c(x), m(x))
    # attributes of the module reach through; eval/train reach the module
    assert c.training and c.eval() is c and not m.training
    # a plain module does not load the compiled one's keys (scripts strip "_orig_mod.")
    with pytest.raises(RuntimeError, match="Missing key"):
        nn.Sequential(nn.Linear(2, 3), nn.ReLU()).load_state_dict(c.state_dict())
    sd = {k.removeprefix("_orig_mod."): v for k, v in c.state_dict().items()}
    nn.Sequential(nn.Linear(2, 3), nn.ReLU()).load_state_dict(sd)
    lin = nn.Linear(2, 1)
    assert torch.compile(lin).in_features == 2
    assert lin.compile() is None and type(lin) is nn.Linear


def test_compile_a_function_and_as_a_decorator():
    @torch.compile
    def f(x):
        return x * 2

    assert f.__name__ == "f" and f(torch.ones(2)).tolist() == [2.0, 2.0]

    @torch.compile(mode="reduce-overhead", fullgraph=True, dynamic=False)
    def g(x):
        return x + 1

    assert g(torch.ones(2)).tolist() == [2.0, 2.0]
    # gradients flow as without compile
    x = torch.ones(3, requires_grad=True)
    f(x).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
    m = nn.Linear(1, 1)
    assert torch.compile(m, disable=True) is m
    assert torch.compile(m, backend="eager")(torch.ones(1, 1)).shape == (1, 1)


def test_compile_argument_errors():
    m = nn.Linear(1, 1)
    with pytest.raises(torch._dynamo.exc.InvalidBackend) as e:
        torch.compile(m, backend="foo")
    assert str(e.value) == "Invalid backend: 'foo'. See `torch._dynamo.list_backends()` for available backends."
    assert isinstance(e.value, RuntimeError)
    with pytest.raises(RuntimeError) as e:
        torch.compile(m, mode="bar")
    assert str(e.value) == ("Unrecognized mode=bar, should be one of: default, lite, reduce-overhead, "
                            "max-autotune-no-cudagraphs, max-autotune")
    with pytest.raises(RuntimeError) as e:
        torch.compile(m, mode="default", options={"a": 1})
    assert str(e.value) == "Either mode or options can be specified, but both can't be specified at the same time."
    with pytest.raises(AssertionError) as e:
        torch.compile(3)
    assert str(e.value) == "A callable function is expected, but <class 'int'> is provided."


def test_compiler_and_dynamo():
    assert torch.compiler.is_compiling() is False
    assert torch.compiler.disable(abs)(-2) == 2
    torch.compiler.reset()
    dynamo = torch._dynamo

    assert dynamo.list_backends() == ["cudagraphs", "inductor", "openxla", "tvm"]
    assert dynamo.config.suppress_errors is False and dynamo.config.cache_size_limit == 8
    dynamo.config.suppress_errors = True
    try:
        assert dynamo.config.suppress_errors is True
    finally:
        dynamo.config.suppress_errors = False
    with pytest.raises(AttributeError, match=r"^torch._dynamo.config.foo does not exist$"):
        dynamo.config.foo = 1
    dynamo.reset()


def test_float32_matmul_precision():
    assert torch.get_float32_matmul_precision() == "highest"
    assert torch.backends.cuda.matmul.allow_tf32 is False
    try:
        torch.set_float32_matmul_precision("high")
        assert torch.get_float32_matmul_precision() == "high" and torch.backends.cuda.matmul.allow_tf32 is True
        torch.set_float32_matmul_precision("medium")
        assert torch.backends.cuda.matmul.allow_tf32 is True
        torch.set_warn_always(True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            torch.set_float32_matmul_precision("x")
        assert [str(w.message).split(" (Triggered")[0] for w in caught] == [
            "x is not one of 'highest', 'high', or 'medium'; the currentsetFloat32MatmulPrecision call has no "
            "effect."]
        assert torch.get_float32_matmul_precision() == "medium"
        with pytest.raises(RuntimeError, match="^set_float32_matmul_precision expects a str, but got int$"):
            torch.set_float32_matmul_precision(3)
    finally:
        torch.set_warn_always(False)
        torch.set_float32_matmul_precision("highest")
    # a matmul gives the same result under every precision on the CPU
    a = torch.arange(6.0).reshape(2, 3) / 7
    ref = a @ a.t()
    torch.set_float32_matmul_precision("medium")
    try:
        assert torch.equal(a @ a.t(), ref)
    finally:
        torch.set_float32_matmul_precision("highest")


def test_deterministic_algorithms():
    assert not torch.are_deterministic_algorithms_enabled()
    assert torch.get_deterministic_debug_mode() == 0
    try:
        torch.use_deterministic_algorithms(True, warn_only=True)
        assert torch.are_deterministic_algorithms_enabled() and torch.is_deterministic_algorithms_warn_only_enabled()
        assert torch.get_deterministic_debug_mode() == 1
        torch.set_deterministic_debug_mode("error")
        assert torch.get_deterministic_debug_mode() == 2 and not torch.is_deterministic_algorithms_warn_only_enabled()
        # CPU ops that PyTorch lets through under the switch
        x = torch.zeros(3).index_add_(0, torch.tensor([0, 0, 2]), torch.ones(3))
        assert x.tolist() == [2.0, 0.0, 1.0]
    finally:
        torch.use_deterministic_algorithms(False)
    with pytest.raises(TypeError, match=r"^_set_deterministic_algorithms\(\): argument 'mode' \(position 1\) must be "
                                        r"bool, not str$"):
        torch.use_deterministic_algorithms("a")
    with pytest.raises(RuntimeError, match="^invalid value of debug_mode, expected one of `default`, `warn`, `error`, "
                                           "but got x$"):
        torch.set_deterministic_debug_mode("x")
    with pytest.raises(RuntimeError, match="^invalid value of debug_mode, expected 0, 1, or 2, but got 5$"):
        torch.set_deterministic_debug_mode(5)
    assert torch.get_deterministic_debug_mode() == 0


def test_vmap_alias_and_mps():
    assert torch.vmap is torch.func.vmap
    assert torch.vmap(lambda v: v.sum())(torch.ones(3, 2)).tolist() == [2.0, 2.0, 2.0]
    assert torch.mps.is_available() is False and torch.mps.device_count() == 0
    assert torch.mps.manual_seed(3) is None
    with pytest.raises(RuntimeError, match=r"^Cannot execute deviceSynchronize\(\) without MPS backend.$"):
        torch.mps.synchronize()
    with pytest.raises(RuntimeError, match=r"^Cannot execute emptyCache\(\) without MPS backend.$"):
        torch.mps.empty_cache()
