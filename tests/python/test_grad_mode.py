"""SPEC §8: grad mode (no_grad, enable_grad, set_grad_enabled, inference_mode)."""

import re
import threading

import leafgrad as torch
import pytest
from support import exact

INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a clone "
    "to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`."
)
INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone "
    "to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 "
    "for more details."
)


@pytest.fixture(autouse=True)
def restore_grad_mode():
    yield
    torch.set_grad_enabled(True)


def leaf():
    return torch.tensor([1.0, 2.0], requires_grad=True)


def test_grad_enabled_by_default():
    assert torch.is_grad_enabled() is True


def test_no_grad_context_value_and_recording():
    x = leaf()
    with torch.no_grad() as ctx:
        assert ctx is None
        assert torch.is_grad_enabled() is False
        y = x * 2
    assert torch.is_grad_enabled() is True
    assert (y.is_leaf, y.requires_grad, y.grad_fn) == (True, False, None)
    assert y.tolist() == [2.0, 4.0]


def test_factories_inside_no_grad_still_require_grad():
    with torch.no_grad():
        f = torch.ones(2, requires_grad=True)
        g = f * 3
        t = torch.tensor([1.0])
        t.requires_grad_()
    assert repr(f) == "tensor([1., 1.], requires_grad=True)"
    assert f.is_leaf and f.requires_grad
    assert not g.requires_grad and g.is_leaf
    assert t.requires_grad


def test_enable_grad_inside_no_grad_and_restore():
    x = leaf()
    with torch.no_grad():
        with torch.enable_grad():
            assert torch.is_grad_enabled()
            y = x * 2
        assert not torch.is_grad_enabled()
        z = x * 2
    assert type(y.grad_fn).__name__ == "MulBackward0"
    assert z.grad_fn is None


def test_set_grad_enabled_acts_when_called():
    obj = torch.set_grad_enabled(False)
    assert torch.is_grad_enabled() is False
    assert repr(obj) == "torch.autograd.grad_mode.set_grad_enabled(mode=False)"
    assert (leaf() * 2).grad_fn is None
    torch.set_grad_enabled(True)
    assert torch.is_grad_enabled() is True


def test_set_grad_enabled_as_context_manager_restores():
    with torch.set_grad_enabled(False):
        assert not torch.is_grad_enabled()
        y = leaf() * 2
    assert torch.is_grad_enabled()
    assert not y.requires_grad
    with torch.no_grad():
        with torch.set_grad_enabled(True):
            assert torch.is_grad_enabled()
        assert not torch.is_grad_enabled()


def test_set_grad_enabled_rejects_non_bool():
    msg = "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not int"
    with pytest.raises(TypeError, match=exact(msg)):
        torch.set_grad_enabled(0)
    assert torch.is_grad_enabled() is True


def test_set_grad_enabled_true_inside_no_grad_lasts_until_block_exit():
    with torch.no_grad():
        torch.set_grad_enabled(True)
        assert torch.is_grad_enabled()
        assert (leaf() * 2).requires_grad
    assert torch.is_grad_enabled()
    with torch.no_grad():
        torch.set_grad_enabled(False)
    assert torch.is_grad_enabled()


def test_inference_mode_flags_and_inference_tensors():
    x = leaf()
    assert not torch.is_inference_mode_enabled()
    with torch.inference_mode():
        assert torch.is_inference_mode_enabled()
        assert not torch.is_grad_enabled()
        y = x * 2
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
    assert y.is_inference()
    assert (y.is_leaf, y.requires_grad, y.grad_fn) == (True, False, None)
    assert not x.is_inference()


def test_inference_mode_false_is_a_no_op_region():
    x = leaf()
    with torch.inference_mode(False):
        assert torch.is_grad_enabled()
        assert not torch.is_inference_mode_enabled()
        y = x * 2
    assert not y.is_inference()
    assert type(y.grad_fn).__name__ == "MulBackward0"


def test_enable_grad_inside_inference_mode_still_gives_inference_tensors():
    x = leaf()
    with torch.inference_mode(), torch.enable_grad():
        assert torch.is_grad_enabled()
        y = x * 2
    assert y.is_inference()
    assert not y.requires_grad


def test_inference_tensor_cannot_be_saved_for_backward():
    x = leaf()
    with torch.inference_mode():
        t = torch.ones(2)
    with pytest.raises(RuntimeError, match=exact(INFERENCE_SAVED)):
        x * t


def test_inplace_on_inference_tensor_outside():
    with torch.inference_mode():
        t = torch.ones(2)
    with pytest.raises(RuntimeError, match=exact(INFERENCE_INPLACE)):
        t.add_(1)


def test_requires_grad_on_inference_tensor_outside():
    with torch.inference_mode():
        t = torch.ones(2)
    msg = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
    with pytest.raises(RuntimeError, match=exact(msg)):
        t.requires_grad_()


def test_inference_tensor_clone_is_normal():
    x = leaf()
    with torch.inference_mode():
        t = torch.ones(2)
    c = t.clone()
    assert not c.is_inference()
    (x * c).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


DECORATORS = {
    "no_grad()": (lambda: torch.no_grad(), False),
    "no_grad": (lambda: torch.no_grad, False),
    "set_grad_enabled(False)": (lambda: torch.set_grad_enabled(False), False),
    "inference_mode()": (lambda: torch.inference_mode(), False),
    "inference_mode": (lambda: torch.inference_mode, False),
}


@pytest.mark.parametrize("name", sorted(DECORATORS))
def test_decorators_disable_grad_inside_calls_only(name):
    make, inside = DECORATORS[name]
    x = leaf()

    @make()
    def f(t):
        return torch.is_grad_enabled(), t * 2

    assert torch.is_grad_enabled() is True
    enabled, y = f(x)
    assert enabled is inside
    assert not y.requires_grad
    assert torch.is_grad_enabled() is True
    assert f.__name__ == "f"


def test_enable_grad_decorator_inside_no_grad():
    x = leaf()

    @torch.enable_grad()
    def f(t):
        return t * 2

    with torch.no_grad():
        y = f(x)
        assert not torch.is_grad_enabled()
    assert type(y.grad_fn).__name__ == "MulBackward0"


def test_decorated_generator_applies_mode_only_while_running():
    @torch.no_grad()
    def gen():
        for _ in range(2):
            yield torch.is_grad_enabled()

    it = gen()
    assert next(it) is False
    assert torch.is_grad_enabled() is True
    assert next(it) is False
    assert torch.is_grad_enabled() is True


def test_exception_inside_block_restores_mode():
    with pytest.raises(ValueError), torch.no_grad():
        raise ValueError("boom")
    assert torch.is_grad_enabled()
    with pytest.raises(KeyError), torch.set_grad_enabled(False):
        raise KeyError("k")
    assert torch.is_grad_enabled()
    with pytest.raises(ValueError), torch.inference_mode():
        raise ValueError("boom")
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()


def test_context_manager_reprs():
    assert re.fullmatch(
        r"<torch\.autograd\.grad_mode\.no_grad object at 0x[0-9a-f]+>",
        repr(torch.no_grad()),
    )
    assert re.fullmatch(
        r"<torch\.autograd\.grad_mode\.enable_grad object at 0x[0-9a-f]+>",
        repr(torch.enable_grad()),
    )


@pytest.mark.parametrize("mode", ["no_grad", "global_off"])
def test_grad_mode_is_thread_local(mode):
    seen = {}

    def worker():
        seen["thread_default"] = torch.is_grad_enabled()
        seen["thread_op"] = (torch.ones(1, requires_grad=True) * 2).requires_grad

    def run():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        seen["main"] = torch.is_grad_enabled()

    if mode == "no_grad":
        with torch.no_grad():
            run()
    else:
        torch.set_grad_enabled(False)
        run()
        torch.set_grad_enabled(True)
    assert seen == {"thread_default": True, "thread_op": True, "main": False}


def test_in_place_on_an_inference_tensor_that_requires_grad_error_order():
    # PyTorch's autograd kernel runs when a normal tensor is among the operands, and its leaf
    # check comes first (a number is a wrapped tensor); with no operand or only inference
    # tensors the inference-tensor refusal comes first
    with torch.inference_mode():
        t = torch.ones(3, requires_grad=True)
        u = torch.ones(3)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        t.mul_(torch.ones(3))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        t.add_(torch.ones(4))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        t.mul_(2.0)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside InferenceMode"):
        t.mul_(u)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside InferenceMode"):
        t.exp_()
    # a number bound to a Scalar overload (pow_, the comparisons) is no tensor operand
    for op in ("pow_", "eq_", "lt_", "ge_", "xlogy_"):
        with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside InferenceMode"):
            getattr(t, op)(2)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        t.pow_(torch.tensor(2.0))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        t.eq_(torch.tensor(2.0))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        t.xlogy_(torch.ones(3))


@pytest.mark.parametrize("op", ["floor_divide_", "index_fill_", "index_fill_t", "scatter_value", "scatter_",
                                "scatter_add_", "index_add_", "index_copy_", "masked_scatter_", "masked_fill_",
                                "scatter_reduce_"])
def test_index_tensors_and_wrapped_numbers_bring_the_leaf_check_first(op):
    # every tensor argument takes part in PyTorch's dispatch: an index or mask tensor (normal,
    # not an inference tensor), or a number bound to a Tensor parameter, makes autograd's leaf
    # check come before the inference-tensor refusal
    with torch.inference_mode():
        t = torch.ones(3, requires_grad=True)
    idx = torch.tensor([0, 2])
    m = torch.tensor([True, False, True])
    calls = {
        "floor_divide_": lambda: t.floor_divide_(2),
        "index_fill_": lambda: t.index_fill_(0, idx, 2.0),
        "index_fill_t": lambda: t.index_fill_(0, idx, torch.tensor(2.0)),
        "scatter_value": lambda: t.scatter_(0, idx, 2.0),
        "scatter_": lambda: t.scatter_(0, idx, torch.ones(2)),
        "scatter_add_": lambda: t.scatter_add_(0, idx, torch.ones(2)),
        "index_add_": lambda: t.index_add_(0, idx, torch.ones(2)),
        "index_copy_": lambda: t.index_copy_(0, idx, torch.ones(2)),
        "masked_scatter_": lambda: t.masked_scatter_(m, torch.ones(3)),
        "masked_fill_": lambda: t.masked_fill_(m, 1.0),
        "scatter_reduce_": lambda: t.scatter_reduce_(0, idx, torch.ones(2), "sum"),
    }
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        calls[op]()


@pytest.mark.parametrize("cls", ["no_grad", "enable_grad"])
def test_bare_decorator_and_constructor_arguments_as_pytorch(cls):
    # PyTorch 2.15's _NoParamDecoratorContextManager: a function argument (positional or
    # orig_func=) gives the decorated function; anything else is its TypeError
    ctx = getattr(torch, cls)
    assert ctx(len)([1, 2]) == 2
    assert ctx(orig_func=len)([1, 2, 3]) == 3
    assert isinstance(ctx(), ctx) and type(ctx()) is ctx
    with pytest.raises(TypeError, match=re.escape(
            "_NoParamDecoratorContextManager.__new__() takes from 1 to 2 positional arguments but 3 were given")):
        ctx(1, 2)
    with pytest.raises(TypeError, match=re.escape(
            "_NoParamDecoratorContextManager.__new__() got an unexpected keyword argument 'foo'")):
        ctx(foo=1)
    if cls == "no_grad":
        # no_grad.__init__(self) refuses it; enable_grad has no __init__ of its own
        with pytest.raises(TypeError, match=re.escape(
                "no_grad.__init__() got an unexpected keyword argument 'orig_func'")):
            ctx(orig_func=None)
        with pytest.raises(TypeError, match=re.escape(
                "no_grad.__init__() takes 1 positional argument but 2 were given")):
            ctx(None)
    else:
        assert type(ctx(None)) is ctx and type(ctx(orig_func=None)) is ctx

    class Sub(ctx):
        pass

    with torch.no_grad():
        with Sub():
            assert torch.is_grad_enabled() == (cls == "enable_grad")
    assert torch.is_grad_enabled()
