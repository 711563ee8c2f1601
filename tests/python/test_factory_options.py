"""`layout=` and `pin_memory=` on every factory, as PyTorch 2.15 takes them: `torch.strided`
(leafgrad's only layout) or None, and `pin_memory=True` refused on the CPU with the error of
`Tensor.pin_memory()` (PyTorch's "Found no NVIDIA driver" where there is no GPU). Values
recorded from torch; with LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import pytest

import leafgrad as torch

_X = torch.ones(2, 3)

FACTORIES = {
    "zeros": lambda **kw: torch.zeros(2, 3, **kw),
    "ones": lambda **kw: torch.ones(2, **kw),
    "empty": lambda **kw: torch.empty(2, **kw),
    "full": lambda **kw: torch.full((2,), 1.0, **kw),
    "rand": lambda **kw: torch.rand(2, **kw),
    "randn": lambda **kw: torch.randn(2, **kw),
    "randint": lambda **kw: torch.randint(3, (2,), **kw),
    "randperm": lambda **kw: torch.randperm(3, **kw),
    "arange": lambda **kw: torch.arange(3, **kw),
    "linspace": lambda **kw: torch.linspace(0, 1, 3, **kw),
    "logspace": lambda **kw: torch.logspace(0, 1, 3, **kw),
    "eye": lambda **kw: torch.eye(2, **kw),
    "zeros_like": lambda **kw: torch.zeros_like(_X, **kw),
    "ones_like": lambda **kw: torch.ones_like(_X, **kw),
    "empty_like": lambda **kw: torch.empty_like(_X, **kw),
    "full_like": lambda **kw: torch.full_like(_X, 2.0, **kw),
    "rand_like": lambda **kw: torch.rand_like(_X, **kw),
    "randn_like": lambda **kw: torch.randn_like(_X, **kw),
    "randint_like": lambda **kw: torch.randint_like(_X, 3, **kw),
    "empty_strided": lambda **kw: torch.empty_strided((2,), (1,), **kw),
    "new_empty_strided": lambda **kw: _X.new_empty_strided((2,), (1,), **kw),
    "new_zeros": lambda **kw: _X.new_zeros(2, **kw),
    "new_ones": lambda **kw: _X.new_ones(2, **kw),
    "new_empty": lambda **kw: _X.new_empty(2, **kw),
    "new_full": lambda **kw: _X.new_full((2,), 1.0, **kw),
    "scalar_tensor": lambda **kw: torch.scalar_tensor(1.0, **kw),
    "tril_indices": lambda **kw: torch.tril_indices(3, 3, **kw),
    "triu_indices": lambda **kw: torch.triu_indices(3, 3, **kw),
    "normal": lambda **kw: torch.normal(0.0, 1.0, (2,), **kw),
    "hann_window": lambda **kw: torch.hann_window(4, **kw),
    "bartlett_window": lambda **kw: torch.bartlett_window(4, **kw),
}


def _no_accelerator():
    return not torch.cuda.is_available()


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_strided_layout_and_unpinned_memory_are_taken(name):
    a = FACTORIES[name](layout=torch.strided, pin_memory=False)
    b = FACTORIES[name]()
    assert a.layout == torch.strided
    assert a.shape == b.shape and a.dtype == b.dtype
    assert not a.is_pinned()
    assert FACTORIES[name](layout=None).layout == torch.strided


@pytest.mark.parametrize("name", sorted(FACTORIES))
@pytest.mark.skipif(not _no_accelerator(), reason="pins memory where an accelerator exists")
def test_pinned_memory_needs_an_accelerator(name):
    with pytest.raises(RuntimeError, match="^Found no NVIDIA driver on your system"):
        FACTORIES[name](pin_memory=True)


@pytest.mark.parametrize("call, message", [
    (lambda: torch.zeros(2, layout="x"), "zeros(): argument 'layout' must be torch.layout, not str"),
    (lambda: torch.zeros(2, pin_memory=1), "zeros(): argument 'pin_memory' must be bool, not int"),
    (lambda: torch.zeros_like(_X, layout="x"), "zeros_like(): argument 'layout' must be torch.layout, not str"),
    (lambda: _X.new_zeros(2, layout=3), "new_zeros(): argument 'layout' must be torch.layout, not int"),
    (lambda: torch.tensor([1.], pin_memory=None), "tensor(): argument 'pin_memory' must be bool, not NoneType"),
    (lambda: torch.as_tensor([1.], layout=torch.strided), "as_tensor() got an unexpected keyword argument 'layout'"),
    (lambda: _X.new_tensor([1.], pin_memory=True), "new_tensor() got an unexpected keyword argument 'pin_memory'"),
    (lambda: _X.new_zeros(2, memory_format=torch.contiguous_format),
     "new_zeros() got an unexpected keyword argument 'memory_format'"),
])
def test_bad_options_raise_pytorchs_type_error(call, message):
    with pytest.raises(TypeError) as e:
        call()
    assert str(e.value) == message


def test_optional_pin_memory_and_other_devices():
    assert torch.zeros(2, pin_memory=None).shape == (2,)
    assert torch.zeros_like(_X, pin_memory=None).shape == (2, 3)
    # pinning concerns host memory: another device ignores it
    assert torch.zeros(2, device="meta", pin_memory=True).is_meta
    if _no_accelerator():
        # the pin error comes before the dtype's requires_grad error
        with pytest.raises(RuntimeError, match="^Found no NVIDIA driver"):
            torch.zeros(2, pin_memory=True, requires_grad=True, dtype=torch.int64)
        with pytest.raises(RuntimeError, match="^Found no NVIDIA driver"):
            torch.tensor([1.0], pin_memory=True)
