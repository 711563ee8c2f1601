"""Views whose base (or another view of it) is written in place, and the views that may not be:
PyTorch's view + in-place rules (CreationMeta). Values, grad_fn names and error texts were
recorded from torch 2.15; with LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import pytest

import leafgrad as torch

NO_GRAD_TAIL = (
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block (if "
    "you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked)."
)
MULTI_TAIL = (
    " This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation by "
    "an out-of-place one."
)


def name(t):
    return None if t.grad_fn is None else type(t.grad_fn).__name__


def raises(fn, text):
    with pytest.raises(RuntimeError) as e:
        fn()
    assert str(e.value) == text


# ---------------------------------------------------------------- a sibling view is rebased


def test_sibling_view_takes_the_write():
    a = torch.ones(2, 2, requires_grad=True)
    r = a.clone()
    v1, v2 = r.narrow(0, 0, 1), r.narrow(0, 0, 1)
    w = v2[0]
    assert (name(v2), name(w)) == ("SliceBackward0", "SelectBackward0")
    v1.mul_(2)
    assert [name(t) for t in (v1, v2, w, r)] == [
        "AsStridedBackward0",
        "AsStridedBackward0",
        "AsStridedBackward0",
        "CopySlices",
    ]
    w.sum().backward()
    assert a.grad.tolist() == [[2.0, 2.0], [0.0, 0.0]]


def test_view_used_after_its_base_was_written():
    a = torch.ones(2, 2, requires_grad=True)
    r = a.clone()
    v = r[0]
    r.mul_(3)
    (v * 1).sum().backward()  # the edge goes through the write
    assert a.grad.tolist() == [[3.0, 3.0], [0.0, 0.0]]


def test_view_of_view_after_the_middle_view_was_written():
    e = torch.ones(4, requires_grad=True)
    c = e.clone()
    e1 = c[1:]
    e2 = e1[1:]
    e1.mul_(2)
    assert (name(e2), name(e1), e2._base is c) == ("AsStridedBackward0", "AsStridedBackward0", True)
    e2.sum().backward()
    assert e.grad.tolist() == [0.0, 0.0, 2.0, 2.0]


def test_view_of_a_tensor_that_starts_requiring_grad_through_a_write():
    p = torch.ones(3)
    vp = p[:2]
    y = torch.ones(3, requires_grad=True)
    p.mul_(y)
    assert (name(p), name(vp), vp.requires_grad) == ("MulBackward0", "AsStridedBackward0", True)
    vp.sum().backward()
    assert y.grad.tolist() == [1.0, 1.0, 0.0]


def test_write_under_no_grad_still_rebases_a_default_view():
    b = torch.ones(4, requires_grad=True).clone()
    v = b[:2]
    with torch.no_grad():
        b.mul_(2)
    assert name(v) == "AsStridedBackward0"
    with torch.no_grad():
        v.mul_(2)
    assert (name(v), name(b)) == ("AsStridedBackward0", "CloneBackward0")


def test_retain_grad_follows_the_new_grad_fn_and_hooks_stay_behind():
    r = torch.ones(3, requires_grad=True).clone()
    v = r[:2]
    v.retain_grad()
    seen = []
    v.register_hook(lambda g: seen.append(g))
    r.mul_(3)
    (v * 1).sum().backward()
    assert v.grad.tolist() == [1.0, 1.0]
    assert seen == []  # PyTorch: the hook stays on the old grad_fn


# ---------------------------------------------------------------- views made under no_grad


def test_no_grad_view_of_a_tensor_that_requires_grad():
    a = torch.ones(3, requires_grad=True)
    b = a.clone()
    with torch.no_grad():
        v = b[:2]
        assert (v.requires_grad, v.grad_fn) == (True, None)
    assert (v.requires_grad, v.is_leaf, v._base is b) == (True, True, True)
    w = v[:1]  # a view made in grad mode of it records
    assert name(w) == "SliceBackward0" and w._base is b
    with torch.no_grad():
        lv = a[:2]
    z = lv * 2
    assert name(z) == "MulBackward0"
    z.sum().backward()
    assert a.grad is None  # the no_grad view is a leaf of its own


def test_no_grad_view_written_in_grad_mode():
    b = torch.ones(4, requires_grad=True).clone()
    with torch.no_grad():
        v = b[:2]
    raises(
        lambda: v.mul_(2),
        "A view was created in no_grad mode and is being modified inplace with grad mode enabled."
        + NO_GRAD_TAIL,
    )
    b.mul_(2)
    raises(
        lambda: v.grad_fn,
        "A view was created in no_grad mode and its base or another view of its base has been "
        "modified inplace with grad mode enabled." + NO_GRAD_TAIL,
    )
    raises(lambda: v * 2, str(pytest.raises(RuntimeError, lambda: v.grad_fn).value))


def test_no_grad_view_written_under_no_grad_is_allowed():
    b = torch.ones(4, requires_grad=True).clone()
    with torch.no_grad():
        v = b[:2]
        v.mul_(2)
    assert b.tolist() == [2.0, 2.0, 1.0, 1.0]


def test_views_made_in_inference_mode():
    x = torch.ones(3, requires_grad=True).clone()
    with torch.inference_mode():
        v = x[:2]
        assert (v.requires_grad, v.grad_fn, v.is_inference(), v._base is x) == (True, None, False, True)
    raises(
        lambda: v.mul_(2),
        "A view was created in inference mode and is being modified inplace in normal mode. "
        "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
        "your code by moving both the view and the inplace either both inside the inference_mode "
        "block (if you don't want the inplace to be tracked) or both outside (if you want the "
        "inplace to be tracked).",
    )


# ---------------------------------------------------------------- views of multi-output functions


@pytest.mark.parametrize(
    "make, fn",
    [
        (lambda b: b.unbind(0), "Unbind"),
        (lambda b: b.split(2), "Split"),
        (lambda b: b.split([2, 2]), "SplitWithSizes"),
        (lambda b: b.chunk(2), "Split"),
        (lambda b: b.view(4, 1).T.unbind(0), "Unbind"),
    ],
)
def test_multi_output_views_may_not_be_written(make, fn):
    b = torch.ones(4, requires_grad=True).clone()
    outs = make(b)
    raises(
        lambda: outs[0].mul_(2),
        f"Output 0 of {fn} is a view and is being modified inplace." + MULTI_TAIL,
    )


def test_writing_the_base_of_multi_output_views():
    b = torch.ones(4, requires_grad=True).clone()
    u = b.split(2)
    b.mul_(2)  # allowed; the views are stale now
    text = (
        "Output 1 of Split is a view and its base or another view of its base has been modified "
        "inplace." + MULTI_TAIL
    )
    raises(lambda: u[1].grad_fn, text)
    raises(lambda: u[1] + 1, text)


def test_view_of_a_multi_output_view_keeps_the_rule():
    b = torch.ones(4, requires_grad=True).clone()
    w = b.chunk(2)[0][:1]
    raises(lambda: w.mul_(2), "Output 0 of Slice is a view and is being modified inplace." + MULTI_TAIL)


def test_multi_output_views_under_no_grad():
    b = torch.ones(4, requires_grad=True).clone()
    with torch.no_grad():
        u = b.unbind(0)
    raises(
        lambda: u[0].mul_(2),
        "A view was created in no_grad mode and is being modified inplace with grad mode enabled."
        + NO_GRAD_TAIL,
    )
    assert u[1].grad_fn is None  # nothing was written


def test_multi_output_views_written_when_nothing_requires_grad():
    b = torch.ones(4)
    u = b.unbind(0)
    u[0].mul_(2)
    assert b.tolist() == [2.0, 1.0, 1.0, 1.0]


def test_setitem_through_a_view_is_a_default_view():
    b = torch.ones(2, 3, requires_grad=True).clone()
    b[0] = torch.zeros(3)
    b[1, 1:] = 5.0
    assert name(b) == "CopySlices"
    assert b.tolist() == [[0.0, 0.0, 0.0], [1.0, 5.0, 5.0]]


def test_custom_function_view_output_may_not_be_written():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            return g

    y = F.apply(torch.ones(3, requires_grad=True).clone())
    assert y._base is not None and name(y) == "FBackward"
    raises(
        lambda: y.mul_(2),
        "Output 0 of F is a view and is being modified inplace. This view was created inside a "
        "custom Function (or because an input was returned as-is) and the autograd logic to handle "
        "view+inplace would override the custom backward associated with the custom Function, "
        "leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning "
        "the output of the custom Function.",
    )


# ---------------------------------------------------------------- AccumulateGrad and pow


@pytest.mark.parametrize("cut", [lambda a: a.requires_grad_(False), lambda a: a.detach_()])
def test_leaf_that_stopped_requiring_grad_gets_no_grad(cut):
    a = torch.ones(3, requires_grad=True)
    b = torch.ones(3, requires_grad=True)
    loss = (a * 2 + b).sum()
    cut(a)
    loss.backward()
    assert a.grad is None and b.grad.tolist() == [1.0, 1.0, 1.0]


INF, NAN = float("inf"), float("nan")
POW_POINTS = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, -0.5, INF, -INF, NAN]


def _same(a, b):
    return all((x != x and y != y) or (x == y and str(x)[0] == str(y)[0]) for x, y in zip(a, b))


def test_pow_gradients_at_zero_and_special_values():
    # (x, e) -> grads of x ** e for tensor e, python e, and python base x; recorded from torch 2.15
    got = []
    for xv in POW_POINTS:
        for ev in POW_POINTS:
            x = torch.tensor([xv], requires_grad=True)
            e = torch.tensor([ev], requires_grad=True)
            (x**e).sum().backward()
            x2 = torch.tensor([xv], requires_grad=True)
            (x2**ev).sum().backward()
            e3 = torch.tensor([ev], requires_grad=True)
            (xv**e3).sum().backward()
            got.append((x.grad.item(), e.grad.item(), x2.grad.item(), e3.grad.item()))
    at = {(xv, ev): g for (xv, ev), g in zip([(x, e) for x in range(10) for e in range(10)], got)}
    assert _same(at[0, 0], [0.0, 0.0, 0.0, 0.0])  # 0 ** 0
    assert _same(at[0, 2], [1.0, 0.0, 1.0, 0.0])  # 0 ** 1
    assert _same(at[0, 3], [-INF, -INF, -INF, -INF])  # 0 ** -1
    assert _same(at[0, 5], [INF, 0.0, INF, 0.0])  # 0 ** 0.5
    assert _same(at[0, 7], [NAN, 0.0, NAN, 0.0])  # 0 ** inf
    assert _same(at[1, 3], [-INF, INF, -INF, INF])  # -0 ** -1
    assert _same(at[1, 5], [INF, 0.0, -INF, 0.0])  # -0 ** 0.5: rsqrt(-0) for the number exponent
    assert _same(at[9, 0], [0.0, NAN, 0.0, NAN])  # nan ** 0
    assert _same(at[3, 0], [0.0, NAN, 0.0, NAN])  # -1 ** 0
    assert _same(at[8, 5], [0.0, NAN, NAN, NAN])  # -inf ** 0.5


def test_pow_number_exponent_fast_paths():
    x = torch.tensor([0.0, -0.0, -1.0, float("-inf"), 1.7, -3.3])
    assert str((x**0.5).tolist()) == "[0.0, -0.0, nan, nan, 1.3038405179977417, nan]"
    assert str((x**-0.5).tolist()) == "[inf, -inf, nan, nan, 0.7669649720191956, nan]"
    assert (x**3).tolist()[4:] == [4.913000106811523, -35.93699645996094]  # x*x*x in float32
    assert (x**-2).tolist()[4] == 0.34602075815200806  # 1/(x*x)
    assert (x**0).tolist() == [1.0] * 6 and (torch.tensor([float("nan")]) ** 0).item() == 1.0
    t = torch.ones(2, 3).T
    assert (t**1).stride() == t.stride() and (t**0).stride() == t.stride()
