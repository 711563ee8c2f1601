"""torch.autocast changes dtypes as PyTorch 2.15's does: the ops on its "lower precision" lists
cast their floating inputs to the region's dtype, the "float32" ops run in float32, the promote
ops (cat, stack, index_copy) in their widest input type; casts are recorded (ToCopyBackward0) so
gradients reach parameters in float32; weights are cast once per region; regions nest, decorate
and are per thread; custom_fwd/custom_bwd and checkpoint keep the autocast state.

Values were recorded from PyTorch 2.15 on the CPU; the inputs are chosen so that the bfloat16
results are exact (1.001 rounds to 1.0 when cast, so the results show the cast happened).
The CUDA case runs where `torch.cuda.is_available()` (LEAFGRAD_CUDA_EMULATION=1 for leafgrad).
"""
import threading

import leafgrad as torch
import pytest
from support import grad_fn_name, record_warnings, warning_texts

F = torch.nn.functional
BF16, F16, F32, F64 = torch.bfloat16, torch.float16, torch.float32, torch.float64


def failure(fn, exc):
    with pytest.raises(exc) as e:
        fn()
    return str(e.value)


def next_names(t):
    node = t.grad_fn if isinstance(t, torch.Tensor) else t
    return [None if n is None else type(n).__name__ for n, _ in node.next_functions]


def linear_layer():
    lin = torch.nn.Linear(2, 2)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[0.5, 0.25], [1.0, -2.0]]))
        lin.bias.copy_(torch.tensor([0.5, 1.0]))
    return lin


X = [[1.001, 2.0], [3.0, -1.0]]


# ---------------------------------------------------------------- nn layers and their gradients

def test_linear_runs_in_bfloat16_and_gradients_come_back_in_float32():
    lin = linear_layer()
    x = torch.tensor(X, requires_grad=True)
    with torch.autocast("cpu"):
        y = lin(x)
    assert y.dtype == BF16 and grad_fn_name(y) == "AddmmBackward0"
    assert next_names(y) == ["ToCopyBackward0", "ToCopyBackward0", "TBackward0"]
    assert next_names(y.grad_fn.next_functions[2][0]) == ["ToCopyBackward0"]
    assert y.tolist() == [[1.5, -2.0], [1.75, 6.0]]  # float32 would give 1.5005, -1.999
    y.backward(torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=BF16))
    assert lin.weight.grad.dtype == F32 and lin.bias.grad.dtype == F32 and x.grad.dtype == F32
    assert lin.weight.grad.tolist() == [[10.0, -1.0], [14.0, 0.0]]
    assert lin.bias.grad.tolist() == [4.0, 6.0]
    assert x.grad.tolist() == [[2.5, -3.75], [5.5, -7.25]]


def test_float16_region_on_the_cpu():
    with torch.autocast("cpu", dtype=F16):
        y = torch.mm(torch.tensor([[1.0001, 3.0]]), torch.tensor([[2.0], [0.5]]))
        assert torch.get_autocast_dtype("cpu") == F16
    assert y.dtype == F16 and y.tolist() == [[3.5]]


def test_conv2d_and_its_weight_gradient():
    img = torch.tensor([[[[1.001, 2.0, 0.5], [-1.0, 0.25, 4.0], [2.0, 1.0, -3.0]]]])
    k = torch.tensor([[[[0.5, -1.0], [2.0, 0.25]]]], requires_grad=True)
    with torch.autocast("cpu"):
        c = F.conv2d(img, k)
    assert c.dtype == BF16 and grad_fn_name(c) == "ConvolutionBackward0"
    assert "ToCopyBackward0" in next_names(c)
    assert c.tolist() == [[[[-3.4375, 2.0], [3.5, -2.625]]]]
    c.backward(torch.ones(1, 1, 2, 2, dtype=BF16))
    assert k.grad.dtype == F32 and k.grad.tolist() == [[[[2.25, 6.75], [2.25, 2.25]]]]


def test_modules_run_through_their_functional_ops():
    torch.manual_seed(0)
    x = torch.randn(3, 1, 4)
    layers = [torch.nn.Conv1d(1, 2, 3), torch.nn.Conv2d(1, 2, 2), torch.nn.ConvTranspose2d(1, 2, 2),
              torch.nn.PReLU(), torch.nn.Bilinear(4, 4, 2), torch.nn.RNN(4, 3), torch.nn.LSTM(4, 3)]
    with torch.autocast("cpu"):
        assert layers[0](x).dtype == BF16
        assert layers[1](x.reshape(1, 1, 3, 4)).dtype == BF16
        assert layers[2](x.reshape(1, 1, 3, 4)).dtype == BF16
        assert layers[3](x).dtype == BF16
        assert layers[4](x[:, 0], x[:, 0]).dtype == F32  # (its bias add promotes, as PyTorch's)
        assert layers[5](x)[0].dtype == BF16
        out, (h, c) = layers[6](x)  # PyTorch runs it as oneDNN's mkldnn_rnn_layer
        assert (out.dtype, h.dtype, c.dtype) == (BF16, BF16, BF16)
        assert torch.nn.GRU(4, 3)(x)[0].dtype == F32
        assert torch.nn.LayerNorm(4)(x).dtype == F32


def test_multihead_attention():
    torch.manual_seed(0)
    mha = torch.nn.MultiheadAttention(4, 2)
    q = torch.tensor([[[0.1, 0.2, 0.3, 0.4]], [[0.5, -0.6, 0.7, -0.8]], [[1.0, 0.0, -1.0, 0.5]]])
    with torch.autocast("cpu"):
        out, weights = mha(q, q, q)
        _, masked = mha(q, q, q, attn_mask=torch.zeros(3, 3))  # (baddbmm casts the mask too)
        alone, _ = mha(q, q, q, need_weights=False)
    assert (out.dtype, weights.dtype, masked.dtype, alone.dtype) == (BF16, BF16, BF16, BF16)
    assert grad_fn_name(weights) == "MeanBackward1"
    torch.testing.assert_close(weights[0, 0], torch.tensor([0.33203125, 0.33203125, 0.3359375], dtype=BF16))
    out.float().sum().backward()
    assert mha.in_proj_weight.grad.dtype == F32 and mha.out_proj.weight.grad.dtype == F32


def test_scaled_dot_product_attention():
    q = torch.tensor([[[0.3, -0.1], [0.8, 0.5], [-0.4, 0.9]]])
    with torch.autocast("cpu"):
        s = F.scaled_dot_product_attention(q, q, q)
    assert s.dtype == BF16
    expected = torch.tensor([[[0.29101562, 0.40234375], [0.34179688, 0.43945312], [0.08642578, 0.5703125]]])
    torch.testing.assert_close(s.float(), expected, atol=1e-3, rtol=1e-2)


def test_train_step_with_grad_scaler():
    lin = linear_layer()
    opt = torch.optim.SGD(lin.parameters(), lr=0.5)
    scaler = torch.amp.GradScaler("cpu", init_scale=1024.0)
    x = torch.tensor(X)
    with torch.autocast("cpu"):
        out = lin(x)
        loss = F.mse_loss(out, torch.tensor([[1.0, 0.0], [0.0, 1.0]]))
    assert out.dtype == BF16 and loss.dtype == F32 and loss.item() == 8.078125
    scaler.scale(loss).backward()
    assert lin.weight.grad.tolist() == [[2944.0, -384.0], [6656.0, -4608.0]]
    scaler.step(opt)
    scaler.update()
    assert lin.weight.tolist() == [[-0.9375, 0.4375], [-2.25, 0.25]]
    assert lin.bias.tolist() == [-0.0625, 0.25]


# ---------------------------------------------------------------- which ops, which dtypes

def test_lower_precision_ops():
    a, b = torch.ones(2, 3), torch.ones(3, 2)
    q = torch.ones(2, 2, 3)
    with torch.autocast("cpu"):
        results = {
            "mm": torch.mm(a, b), "Tensor.mm": a.mm(b), "matmul": torch.matmul(a, b), "@": a @ b,
            "linalg.matmul": torch.linalg.matmul(a, b), "bmm": torch.bmm(q, q.transpose(1, 2)),
            "addmm": torch.addmm(torch.ones(2), a, b), "baddbmm": torch.baddbmm(torch.ones(2, 2, 2), q, q.mT),
            "addbmm": torch.addbmm(torch.ones(2, 2), q, q.mT), "linear": F.linear(a, b.t()),
            "vecdot": torch.linalg.vecdot(a, a), "conv1d": F.conv1d(q, torch.ones(1, 2, 2)),
            "conv_transpose1d": F.conv_transpose1d(q, torch.ones(2, 1, 2)), "prelu": F.prelu(a, torch.ones(1)),
            "einsum (through bmm)": torch.einsum("ij,jk->ik", a, b), "tensordot": torch.tensordot(a, b, 1),
            "multi_dot": torch.linalg.multi_dot([a, b, a]),
        }
        others = {"mv": torch.mv(a, torch.ones(3)), "dot": torch.dot(a[0], a[0]), "outer": torch.outer(a[0], a[0]),
                  "einsum (no product)": torch.einsum("ij->j", a), "add": a + a.bfloat16(), "relu": F.relu(a)}
    assert {k: v.dtype for k, v in results.items()} == {k: BF16 for k in results}
    assert {k: v.dtype for k, v in others.items()} == {k: F32 for k in others}


def test_float32_ops_and_ops_that_keep_their_dtype():
    h = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=BF16)
    with torch.autocast("cpu"):
        assert F.mse_loss(h, torch.zeros(2, 3)).dtype == F32
        assert F.cross_entropy(h, torch.tensor([2, 0])).dtype == F32
        assert F.nll_loss(h, torch.tensor([2, 0])).dtype == F32
        assert F.binary_cross_entropy(torch.tensor([0.25, 0.5], dtype=BF16), torch.tensor([0.0, 1.0])).dtype == F32
        assert h.prod().dtype == F32
        assert torch.cdist(h, h).dtype == F32
        assert torch.linalg.inv(torch.eye(2, dtype=BF16)).dtype == F32
        assert torch.linalg.qr(h)[0].dtype == F32
        assert F.pad(h[None], (1, 1), mode="reflect").dtype == F32
        assert F.pad(h[None], (1, 1)).dtype == BF16
        assert F.avg_pool3d(torch.ones(1, 1, 2, 2, 2, dtype=BF16), 2).dtype == F32
        assert F.avg_pool2d(torch.ones(1, 1, 2, 2, dtype=BF16), 2).dtype == BF16
        for op in (torch.exp, torch.log, torch.sum, torch.sigmoid, lambda t: t.softmax(0), lambda t: t ** 2):
            assert op(h.abs()).dtype == BF16
    loss = torch.tensor(0.5)
    with torch.autocast("cpu"):
        assert (F.mse_loss(h.float(), torch.zeros(2, 3)) + loss).dtype == F32


def test_promote_ops():
    f, h, d = torch.ones(2), torch.ones(2, dtype=BF16), torch.ones(2, dtype=F64)
    with torch.autocast("cpu"):
        assert torch.cat([f, h]).dtype == F32
        assert torch.cat([h, h]).dtype == BF16
        assert torch.cat([h, d]).dtype == F64  # float64 is left alone, then promoted as usual
        assert torch.stack([h, f]).dtype == F32
        assert torch.index_copy(torch.zeros(2, 2, dtype=BF16), 0, torch.tensor([1]), torch.ones(1, 2)).dtype == F32
        text = failure(lambda: torch.cat([torch.ones(2, dtype=F16), h]), RuntimeError)
    assert text.startswith("Unexpected floating ScalarType in at::autocast::prioritize")


def test_inputs_that_are_not_cast():
    a = torch.ones(2, 2)
    with torch.autocast("cpu"):
        assert torch.mm(a.double(), a.double()).dtype == F64
        assert torch.mm(a.long(), a.long()).dtype == torch.int64
        assert torch.mm(a.bfloat16(), a.bfloat16()).dtype == BF16
        assert torch.mm(a, a, out=torch.empty(2, 2)).dtype == F32  # out= overloads are not cast
        text = failure(lambda: torch.mm(a.double(), a), RuntimeError)
    assert text.startswith("expected m1 and m2 to have the same dtype, but got: double != ")
    assert torch.mm(a, a).dtype == F32


def test_ops_outside_a_region_are_left_as_they_were():
    def ops():
        return [torch.mm, torch.Tensor.mm, torch.Tensor.__matmul__, F.linear, F.conv2d, torch.cat]

    before = ops()
    with torch.autocast("cpu"):
        with torch.autocast("cpu", enabled=False):
            pass
    assert all(a is b for a, b in zip(ops(), before))


# ---------------------------------------------------------------- regions: state, nesting, decorator

def test_state_functions():
    assert (torch.is_autocast_enabled("cpu"), torch.is_autocast_enabled()) == (False, False)
    assert (torch.get_autocast_dtype("cpu"), torch.get_autocast_dtype("cuda")) == (BF16, F16)
    assert torch.is_autocast_cache_enabled()
    with torch.autocast("cpu", dtype=F16, cache_enabled=False):
        assert torch.is_autocast_enabled("cpu") and not torch.is_autocast_enabled()
        assert torch.get_autocast_dtype("cpu") == F16 and not torch.is_autocast_cache_enabled()
        assert torch.autocast("cpu").fast_dtype == F16  # a new region's default is the current dtype
    assert torch.get_autocast_dtype("cpu") == BF16 and torch.is_autocast_cache_enabled()
    torch.set_autocast_enabled("cpu", True)
    try:
        assert (torch.ones(2, 2) @ torch.ones(2, 2)).dtype == BF16
    finally:
        torch.set_autocast_enabled("cpu", False)
    assert (torch.ones(2, 2) @ torch.ones(2, 2)).dtype == F32
    assert torch.autocast_increment_nesting() == 1 and torch.autocast_decrement_nesting() == 0


def test_state_function_errors():
    assert failure(lambda: torch.is_autocast_enabled("meta"), RuntimeError) == (
        "unknown device type for autocast in get_autocast_dispatch_key_from_device_type")
    assert failure(lambda: torch.is_autocast_enabled(1), TypeError) == (
        "is_autocast_enabled(): argument 'device_type' (position 1) must be str, not int")
    assert failure(lambda: torch.get_autocast_dtype("xpu2"), RuntimeError) == "Invalid device string: 'xpu2'"
    assert failure(lambda: torch.set_autocast_enabled("cpu"), TypeError) == (
        "set_autocast_enabled(): argument 'enabled' (position 1) must be bool, not str")
    assert failure(lambda: torch.set_autocast_dtype("cpu", 3), TypeError) == (
        "set_autocast_dtype(): argument 'dtype' (position 2) must be torch.dtype, not int")
    assert failure(lambda: torch.set_autocast_cache_enabled(1), TypeError) == "enabled must be a bool (got int)"
    assert failure(lambda: torch.autocast("cpu")(3), TypeError).startswith(
        "autocast()(func) requires a callable, but got int. Did you mean to use autocast as a context manager?")
    assert torch.amp.is_autocast_available("xpu") and not torch.amp.is_autocast_available("meta")


def test_deprecated_state_functions_warn():
    with record_warnings() as caught:
        assert torch.is_autocast_cpu_enabled() is False
        assert torch.get_autocast_cpu_dtype() == BF16
        assert torch.get_autocast_gpu_dtype() == F16
        torch.set_autocast_cpu_dtype(BF16)
    assert [w.filename for w in caught] == [__file__] * 4
    assert warning_texts(caught, DeprecationWarning) == [  # (less " (Triggered internally at ...)")
        "torch.is_autocast_cpu_enabled() is deprecated. Please use torch.is_autocast_enabled('cpu') instead.",
        "torch.get_autocast_cpu_dtype() is deprecated. Please use torch.get_autocast_dtype('cpu') instead.",
        "torch.get_autocast_gpu_dtype() is deprecated. Please use torch.get_autocast_dtype('cuda') instead.",
        "torch.set_autocast_cpu_dtype(dtype) is deprecated. Please use torch.set_autocast_dtype('cpu', dtype) "
        "instead.",
    ]


def test_nesting():
    a = torch.ones(2, 2)
    with torch.autocast("cpu"):
        assert torch.mm(a, a).dtype == BF16
        with torch.autocast("cpu", enabled=False):
            assert not torch.is_autocast_enabled("cpu")
            assert torch.mm(a, a).dtype == F32
            with torch.autocast("cpu", dtype=F16):
                assert torch.mm(a, a).dtype == F16
            assert torch.mm(a, a).dtype == F32
        with torch.autocast("cpu", dtype=F16):
            assert torch.mm(a, a).dtype == F16
        assert torch.mm(a, a).dtype == BF16
    assert torch.mm(a, a).dtype == F32


def test_decorator_and_deprecated_spelling():
    @torch.autocast("cpu")
    def product(a, b):
        return a @ b

    assert product(torch.ones(2, 2), torch.ones(2, 2)).dtype == BF16
    assert product.__name__ == "product"
    with record_warnings():
        region = torch.cpu.amp.autocast()
    with region:
        assert torch.mm(torch.ones(1, 1), torch.ones(1, 1)).dtype == BF16


def test_regions_are_per_thread():
    seen = {}
    entered, checked = threading.Event(), threading.Event()

    def other():
        entered.wait()
        seen["other"] = (torch.is_autocast_enabled("cpu"), torch.mm(torch.ones(1, 1), torch.ones(1, 1)).dtype)
        checked.set()

    t = threading.Thread(target=other)
    t.start()
    with torch.autocast("cpu"):
        entered.set()
        checked.wait()
        seen["main"] = torch.mm(torch.ones(1, 1), torch.ones(1, 1)).dtype
    t.join()
    assert seen == {"other": (False, F32), "main": BF16}


# ---------------------------------------------------------------- the weight cast cache

def test_a_weight_is_cast_once_per_region():
    w = torch.ones(2, 2, requires_grad=True)
    a = torch.ones(2, 2)
    with torch.autocast("cpu"):
        y1, y2 = torch.mm(a, w), torch.mm(a, w)
        v = torch.mm(a, w[:1].t())  # (views are not cached)
        with torch.autocast("cpu", cache_enabled=False):
            y3 = torch.mm(a, w)
    with torch.autocast("cpu"):
        y4 = torch.mm(a, w)
    cast = [y.grad_fn.next_functions[1][0] for y in (y1, y2, y3, y4)]
    assert cast[0] is cast[1]
    assert cast[2] is not cast[0] and cast[3] is not cast[0]
    assert grad_fn_name(v) == "MmBackward0"
    (y1.sum() + y2.sum()).backward()
    assert w.grad.tolist() == [[4.0, 4.0], [4.0, 4.0]]


def test_casts_under_no_grad_are_not_cached():
    w = torch.ones(2, 2, requires_grad=True)
    with torch.autocast("cpu"):
        with torch.no_grad():
            torch.mm(torch.ones(2, 2), w)
        y = torch.mm(torch.ones(2, 2), w)
    assert y.requires_grad and next_names(y) == [None, "ToCopyBackward0"]


# ---------------------------------------------------------------- custom functions, checkpoint

class MyMM(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu")
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        ctx.forward_state = torch.is_autocast_enabled("cpu")
        return a.mm(b)

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        ctx.backward_state = torch.is_autocast_enabled("cpu")
        return g.mm(b.t()), a.t().mm(g)


class MyMMFloat32(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, a, b):
        ctx.forward_state = torch.is_autocast_enabled("cpu")
        return a.mm(b)

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, g):
        return g, g


def test_custom_fwd_and_custom_bwd():
    a = torch.tensor(X, requires_grad=True)
    b = torch.tensor([[2.0, 0.5], [1.0, -1.0]], requires_grad=True)
    with torch.autocast("cpu"):
        y = MyMM.apply(a, b)
        assert y.dtype == BF16 and y.tolist() == [[4.0, -1.5], [5.0, 2.5]]
    y.backward(torch.ones(2, 2, dtype=BF16))
    assert (y.grad_fn.forward_state, y.grad_fn.backward_state) == (True, True)
    assert a.grad.dtype == F32 and a.grad.tolist() == [[2.5, 0.0], [2.5, 0.0]]
    with torch.autocast("cpu"):
        z = MyMMFloat32.apply(torch.tensor(X, dtype=BF16), torch.ones(2, 2, requires_grad=True))
    assert z.dtype == F32 and z.grad_fn.forward_state is False
    assert MyMMFloat32.apply(torch.ones(1, 1, dtype=BF16), torch.ones(1, 1, dtype=BF16)).dtype == BF16


@pytest.mark.parametrize("use_reentrant", [False, True])
def test_checkpoint_recomputes_under_the_same_autocast(use_reentrant):
    from leafgrad.utils.checkpoint import checkpoint

    for enabled in [True, False]:
        dtypes = []

        def foo(x, y, z):
            x = torch.mm(x, y)
            y = torch.mm(x, z)
            z = torch.mm(z, z)
            dtypes.append(z.dtype)
            return z

        x, y, z = (torch.randn(3, 3, requires_grad=True) for _ in range(3))
        with torch.autocast(enabled=enabled, device_type="cpu", dtype=BF16):
            loss = checkpoint(foo, x, y, z, use_reentrant=use_reentrant).sum()
        loss.backward()  # recomputes foo (with mismatched dtypes it would fail)
        expected = BF16 if enabled else F32
        assert dtypes and set(dtypes) == {expected}
        assert z.grad.dtype == F32


# ---------------------------------------------------------------- CUDA

@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA (LEAFGRAD_CUDA_EMULATION=1 emulates it)")
def test_cuda_autocast_policies():
    a = torch.tensor([[1.0001, 2.0], [3.0, -1.0]], device="cuda")  # 1.0001 is 1.0 in float16
    h = torch.tensor([[0.5, -1.0], [2.0, 0.25]], device="cuda", dtype=F16)
    lin = linear_layer().cuda()
    with torch.autocast("cuda"):
        y = lin(a)
        assert y.dtype == F16 and grad_fn_name(y) == "AddmmBackward0"
        assert y.tolist() == [[1.5, -2.0], [1.75, 6.0]]  # (float32: 1.50005, -1.9999)
        assert torch.mm(a, a).dtype == F16 and torch.mv(a, a[0]).dtype == F16
        assert torch.einsum("ij->j", a).dtype == F16
        assert torch.mm(a.cpu(), a.cpu()).dtype == F32  # CPU tensors are not CUDA autocast's
        for op in (torch.exp, torch.log, torch.rsqrt, lambda t: t ** 2, lambda t: 2 ** t, lambda t: t.logsumexp(0)):
            assert op(h.abs()).dtype == F32
        assert h.softmax(0).dtype == F32 and h.sum().dtype == F32 and h.cumsum(0).dtype == F32
        assert F.softmax(h, 0, dtype=F64).dtype == F64
        assert torch.linalg.vector_norm(h).dtype == F32
        assert F.layer_norm(h, (2,)).dtype == F32
        assert F.interpolate(h[None, None], scale_factor=2).dtype == F32
        assert F.interpolate(h[None, None], scale_factor=2, mode="area").dtype == F16
        assert torch.dot(h[0], a[0]).dtype == F32 and torch.atan2(h, a).dtype == F32
        assert torch.cat([h, h]).dtype == F16 and torch.cat([h, a]).dtype == F32
        assert torch.nn.LSTM(2, 3).cuda()(a[:, None])[0].dtype == F16
        assert torch.nn.LSTMCell(2, 3).cuda()(a)[0].dtype == F16
        text = failure(lambda: F.binary_cross_entropy(torch.rand(2, device="cuda"), torch.rand(2, device="cuda")),
                       RuntimeError)
        assert text.startswith("torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to "
                               "autocast.\nMany models use a sigmoid layer")
        with torch.autocast("cpu"):
            assert torch.mm(a, a).dtype == F16 and torch.mm(a.cpu(), a.cpu()).dtype == BF16
    y.float().sum().backward()
    assert lin.weight.grad.dtype == F32 and lin.weight.grad.tolist() == [[4.0, 1.0], [4.0, 1.0]]
    assert torch.mm(a, a).dtype == F32
