"""The CUDA backend.

Three groups:
- without a GPU (every machine): availability says why not, moving to CUDA raises that reason,
  the package imports where no CUDA library exists;
- the kernels (every machine with NVRTC, which the test command installs from PyPI): the CUDA C
  source compiles with NVRTC for compute_80 and compute_90, ptxas assembles the PTX for sm_80
  and sm_90, and every kernel's name and parameter count match the table the launch sites use;
- on a GPU (skipped without one): every op with a CUDA kernel against the CPU backend, forward
  and gradient, the seeds' CUDA examples with PyTorch's output (tests/conformance/cuda_cases,
  whose .expected files were written by PyTorch on a GPU), training, and the ops that have no
  CUDA kernel yet raising NotImplementedError.
"""
import functools
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import USING_TORCH

NO_DRIVER = ("Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
             "driver from http://www.nvidia.com/Download/index.aspx")

import leafgrad as torch

ROOT = Path(__file__).resolve().parents[2]
GPU = torch.cuda.is_available()
needs_gpu = pytest.mark.skipif(not GPU, reason="no CUDA device")
leafgrad_only = pytest.mark.skipif(USING_TORCH, reason="leafgrad's own API")
REQUIRE_NVRTC = os.environ.get("LEAFGRAD_REQUIRE_NVRTC") == "1"


# ---------------------------------------------------------------------------------------------
# Without a GPU
# ---------------------------------------------------------------------------------------------


@leafgrad_only
@pytest.mark.skipif(GPU, reason="a CUDA device is present")
def test_unavailable_says_why():
    assert torch.cuda.is_available() is False
    assert torch.cuda.device_count() == 0
    why = torch.cuda.unavailable_reason()
    assert isinstance(why, str) and why
    x = torch.ones(2, requires_grad=True)
    for f in [
        lambda: x.cuda(),
        lambda: x.to("cuda"),
        lambda: x.to(torch.device("cuda", 0)),
        lambda: torch.ones(2, device="cuda"),
        lambda: torch.zeros_like(x, device="cuda:0"),
        lambda: torch.nn.Linear(2, 2).cuda(),
        lambda: torch.cuda.get_device_name(),
    ]:
        # PyTorch's text when there is no driver, leafgrad's reason otherwise
        expected = NO_DRIVER if "no NVIDIA driver" in why else "CUDA is not available: " + why
        with pytest.raises(RuntimeError, match=re.escape(expected)):
            f()
    # Nothing was half-done: the tensor is untouched and still a CPU leaf.
    assert x.is_leaf and x.device == torch.device("cpu") and not x.is_cuda


@leafgrad_only
def test_imports_where_no_cuda_library_exists(tmp_path):
    code = (
        "import leafgrad, sys\n"
        "print(leafgrad.cuda.is_available(), leafgrad.ones(2).cuda if True else 0)\n"
        "print(leafgrad.cuda.unavailable_reason() is not None or leafgrad.cuda.device_count() > 0)\n"
    )
    env = dict(os.environ, LD_LIBRARY_PATH=str(tmp_path), CUDA_VISIBLE_DEVICES="")
    env.pop("LEAFGRAD_CUDA_EMULATION", None)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].startswith("False")
    assert "Panic" not in r.stderr


@leafgrad_only
def test_host_emulation_is_a_named_test_device(tmp_path):
    code = (
        "import leafgrad as torch\n"
        "print(torch.cuda.is_available(), torch.cuda.get_device_name(), torch.cuda.unavailable_reason())\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "y = (x.cuda() * 3).sum(); y.backward(); print(y.device, x.grad.tolist())\n"
    )
    env = dict(os.environ, LEAFGRAD_CUDA_EMULATION="1", LEAFGRAD_CACHE_DIR=str(tmp_path / "cache"))
    if shutil.which("c++") is None and shutil.which("g++") is None and shutil.which("clang++") is None:
        pytest.skip("no C++ compiler")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    first, second = r.stdout.splitlines()
    assert first == "True leafgrad CUDA host emulation (LEAFGRAD_CUDA_EMULATION=1) None"
    assert second == "cuda:0 [3.0, 3.0]"
    # without a compiler the emulated device is unavailable, with the reason
    empty = tmp_path / "bin"
    empty.mkdir()
    env.update(CXX=str(empty / "none"), PATH=str(empty), LEAFGRAD_CACHE_DIR=str(tmp_path / "other"))
    code = "import leafgrad as torch\nprint(torch.cuda.is_available(), torch.cuda.unavailable_reason())\n"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == (
        "False the CUDA host emulation could not compile the kernels: "
        "no C++ compiler found ($CXX, c++, g++, clang++)"
    )


def test_device_attributes_on_cpu():
    x = torch.ones(2)
    assert x.device == torch.device("cpu") and x.is_cuda is False
    assert x.cpu() is x and x.to("cpu") is x
    assert str(torch.device("cuda", 1)) == "cuda:1"


# ---------------------------------------------------------------------------------------------
# The kernels: NVRTC compile, ptxas assemble, names and parameter counts
# ---------------------------------------------------------------------------------------------


def _nvidia_tool(name):
    spec = importlib.util.find_spec("nvidia")
    for base in list(getattr(spec, "submodule_search_locations", None) or []):
        p = Path(base) / "cuda_nvcc" / "bin" / name
        if p.exists():
            return str(p)
    return shutil.which(name)


@functools.lru_cache(maxsize=None)
def _ptx(arch):
    return torch._core._cuda_compile_ptx(arch)


def _compile(arch):
    """The PTX of every kernel for `arch` (compiled once per run: half a minute each)."""
    try:
        return _ptx(arch)
    except RuntimeError as e:
        if "could not be loaded" in str(e) and not REQUIRE_NVRTC:
            pytest.skip(f"NVRTC is not installed: {e}")
        raise


def _entries(ptx):
    """{kernel name: parameter count} from the PTX's `.entry name(.param ..., ...)` lists."""
    out = {}
    for m in re.finditer(r"\.entry\s+(\w+)\s*\((.*?)\)", ptx, re.S):
        out[m.group(1)] = len(re.findall(r"\.param\b", m.group(2)))
    return out


@leafgrad_only
@pytest.mark.parametrize("arch", ["80", "90"])
def test_every_kernel_compiles_and_assembles(arch, tmp_path):
    torch.cuda._preload_libraries()
    ptx = _compile(f"compute_{arch}")
    assert f".target sm_{arch}" in ptx
    table = dict(torch._core._cuda_kernels())
    entries = _entries(ptx)
    assert len(table) == len(torch._core._cuda_kernels()), "duplicate kernel names in the table"
    missing = sorted(set(table) - set(entries))
    extra = sorted(set(entries) - set(table))
    assert not missing, f"launched but not in kernels.cu: {missing}"
    assert not extra, f"in kernels.cu but unknown to the launch sites: {extra}"
    wrong = {k: (table[k], entries[k]) for k in table if table[k] != entries[k]}
    assert not wrong, f"parameter counts (launch site, PTX) differ: {wrong}"
    ptxas = _nvidia_tool("ptxas")
    if ptxas is None:
        if REQUIRE_NVRTC:
            pytest.fail("ptxas not found (pip install nvidia-cuda-nvcc-cu12)")
        pytest.skip("ptxas not found")
    src = tmp_path / f"k{arch}.ptx"
    src.write_text(ptx)
    out = tmp_path / f"k{arch}.cubin"
    r = subprocess.run([ptxas, f"-arch=sm_{arch}", str(src), "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    assert out.stat().st_size > 0


@leafgrad_only
def test_compile_errors_are_python_errors():
    torch.cuda._preload_libraries()
    _compile("compute_80")  # skips when NVRTC is missing
    with pytest.raises(RuntimeError, match="NVRTC could not compile"):
        torch._core._cuda_compile_ptx("compute_1")


# ---------------------------------------------------------------------------------------------
# On a GPU
# ---------------------------------------------------------------------------------------------

CASES = sorted((ROOT / "tests" / "conformance" / "cuda_cases").glob("*.py"))


def _runner():
    spec = importlib.util.spec_from_file_location("leafgrad_conformance_run", ROOT / "tests" / "conformance" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    hidden = module.child_env

    def child_env():  # the runner hides GPUs from CPU cases; these need one
        env = hidden()
        env.pop("CUDA_VISIBLE_DEVICES", None)
        return env

    module.child_env = child_env
    return module


@needs_gpu
@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_cuda_case(path):
    runner = _runner()
    out = runner.run_case(sys.executable, path, "" if USING_TORCH else "leafgrad")
    expected = runner.normalise(path.with_suffix(".expected").read_text(encoding="utf-8"))
    assert out == expected


def _pair(values, dtype, requires_grad=True):
    c = torch.tensor(values, dtype=dtype, requires_grad=requires_grad)
    g = torch.tensor(values, dtype=dtype, device="cuda", requires_grad=requires_grad)
    return c, g


A = [[0.5, -1.25, 2.0], [1.5, 0.75, -0.3]]
B = [[1.0, 2.0, -0.5], [0.25, -1.0, 3.0]]
POS = [[0.5, 1.25, 2.0], [1.5, 0.75, 0.3]]

UNARY = {
    "exp": lambda x: x.exp(),
    "log": lambda x: x.abs().log(),
    "sqrt": lambda x: x.abs().sqrt(),
    "rsqrt": lambda x: (x.abs() + 1).rsqrt(),
    "sin": lambda x: x.sin(),
    "cos": lambda x: x.cos(),
    "tanh": lambda x: x.tanh(),
    "sigmoid": lambda x: x.sigmoid(),
    "relu": lambda x: x.relu(),
    "abs": lambda x: x.abs(),
    "neg": lambda x: -x,
    "reciprocal": lambda x: (x.abs() + 0.5).reciprocal(),
    "erf": lambda x: x.erf(),
    "sign": lambda x: x.sign() * x,
    "floor": lambda x: x.floor() + x,
    "ceil": lambda x: x.ceil() + x,
    "round": lambda x: x.round() + x,
    "pow_scalar": lambda x: x**2 + x.abs() ** 0.5,
    "clamp": lambda x: x.clamp(-0.5, 1.0),
    "softmax": lambda x: x.softmax(1),
    "log_softmax": lambda x: x.log_softmax(0),
    "gelu": lambda x: torch.nn.functional.gelu(x),
    "softplus": lambda x: torch.nn.functional.softplus(x),
    "leaky_relu": lambda x: torch.nn.functional.leaky_relu(x, 0.1),
    "silu": lambda x: torch.nn.functional.silu(x),
    "elu": lambda x: torch.nn.functional.elu(x, 0.5),
    "hardtanh": lambda x: torch.nn.functional.hardtanh(x, -0.5, 1.0),
    "relu6": lambda x: torch.nn.functional.relu6(x * 4),
    "sum": lambda x: x.sum(),
    "sum_dim": lambda x: x.sum(0),
    "sum_keep": lambda x: x.sum(1, keepdim=True),
    "mean": lambda x: x.mean(),
    "mean_dim": lambda x: x.mean(-1),
    "prod": lambda x: x.prod(),
    "max": lambda x: x.max(),
    "min": lambda x: x.min(),
    "amax": lambda x: x.amax(1),
    "amin": lambda x: x.amin(0),
    "var": lambda x: x.var(),
    "std_dim": lambda x: x.std(1),
    "norm": lambda x: x.norm(),
    "logsumexp": lambda x: x.logsumexp(1),
    "transpose_mul": lambda x: x.t() * 2,
    "slice": lambda x: x[:, 1:] * x[:, :2],
    "select": lambda x: x[1] + x[0],
    "expand": lambda x: x[:1].expand(4, 3) * 1.5,
    "reshape": lambda x: x.reshape(3, 2).t().contiguous(),
    "flatten": lambda x: x.flatten() * 3,
    "cat": lambda x: torch.cat([x, x * 2], 1),
    "stack": lambda x: torch.stack([x, -x]),
    "repeat": lambda x: x.repeat(2, 1),
    "where": lambda x: torch.where(x > 0, x, x * 0.1),
    "masked_fill": lambda x: x.masked_fill(x < 0, 0.0),
    "mm": lambda x: x @ x.t(),
    "matmul_batched": lambda x: torch.matmul(x.unsqueeze(0).expand(3, 2, 3), x.t()),
    "bmm": lambda x: torch.bmm(x.unsqueeze(0), x.t().unsqueeze(0)),
    "mv": lambda x: torch.mv(x, x[0]),
    "maximum": lambda x: torch.maximum(x, x.t().t() * 0.5),
    "mse": lambda x: torch.nn.functional.mse_loss(x, x.detach() * 0.5 + 1),
    "l1": lambda x: torch.nn.functional.l1_loss(x, x.detach() * 0.5 + 1),
    "layer_norm": lambda x: torch.nn.functional.layer_norm(x, (3,)),
    "div_broadcast": lambda x: x / (x[0].abs() + 1),
}


def _weighted_sum(y):
    """A real scalar of y with a different weight per element (real and imaginary parts too)."""
    w = torch.arange(y.numel(), dtype=y.real.dtype).reshape(y.shape).to(y.device) / 7 + 0.25
    if y.is_complex():
        return (y.real * w).sum() + (y.imag * w * 0.5).sum()
    return (y * w).sum()


def _matches_cpu(f, values, dtype, tol):
    """f on the GPU against f on the CPU: value, dtype, shape, node name and the gradient."""
    c, g = _pair(values, dtype)
    yc, yg = f(c), f(g)
    assert yg.device == torch.device("cuda", 0) and yg.dtype == yc.dtype and yg.shape == yc.shape
    assert torch.allclose(yg.cpu(), yc, rtol=tol, atol=tol), (yg, yc)
    if yc.grad_fn is None:
        return
    assert type(yg.grad_fn).__name__ == type(yc.grad_fn).__name__
    _weighted_sum(yc).backward()
    _weighted_sum(yg).backward()
    assert g.grad.device == g.device and g.grad.dtype == c.grad.dtype
    assert torch.allclose(g.grad.cpu(), c.grad, rtol=tol, atol=tol), (g.grad, c.grad)


@needs_gpu
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_op_matches_cpu(name, dtype):
    _matches_cpu(UNARY[name], A, getattr(torch, dtype), 1e-5 if dtype == "float32" else 1e-10)


BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b * 2,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / (b.abs() + 0.5),
    "pow": lambda a, b: a.abs() ** b,
    "rsub": lambda a, b: 1 - a + b,
    "broadcast": lambda a, b: a[:, :1] * b[1] + a[0],
    "addmm": lambda a, b: torch.addmm(b[:, :2], a, b.t()),
    "linear": lambda a, b: torch.nn.functional.linear(a, b, b[0, :2]),
    "bce": lambda a, b: torch.nn.functional.binary_cross_entropy(a.sigmoid(), b.sigmoid()),
    "bce_logits": lambda a, b: torch.nn.functional.binary_cross_entropy_with_logits(a, b.sigmoid()),
    "dot": lambda a, b: (a * b).sum(),
}


@needs_gpu
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_op_matches_cpu(name):
    f = BINARY[name]
    ac, ag = _pair(A, torch.float64)
    bc, bg = _pair(B, torch.float64)
    yc, yg = f(ac, bc), f(ag, bg)
    assert torch.allclose(yg.cpu(), yc, rtol=1e-10, atol=1e-12)
    yc.sum().backward()
    yg.sum().backward()
    assert torch.allclose(ag.grad.cpu(), ac.grad, rtol=1e-10, atol=1e-12)
    assert torch.allclose(bg.grad.cpu(), bc.grad, rtol=1e-10, atol=1e-12)


@needs_gpu
def test_integer_bool_and_casts():
    i = torch.tensor([[3, -4, 5], [0, 7, -1]], device="cuda")
    assert (i + 1).tolist() == [[4, -3, 6], [1, 8, 0]]
    assert (i * i).sum().item() == 100
    assert (i.sum(0)).tolist() == [3, 3, 4]
    assert (i / 2).dtype == torch.float32 and (i / 2).tolist()[0] == [1.5, -2.0, 2.5]
    assert (-i).abs().tolist() == [[3, 4, 5], [0, 7, 1]]
    assert (i > 0).tolist() == [[True, False, True], [False, True, False]]
    assert (i > 0).sum().item() == 3
    assert i.max().item() == 7 and i.min().item() == -4
    assert i.to(torch.float64).cpu().tolist() == [[3.0, -4.0, 5.0], [0.0, 7.0, -1.0]]
    f = torch.tensor([1.7, -1.7, 300.0], device="cuda")
    assert f.to(torch.int64).tolist() == [1, -1, 300]
    assert f.to(torch.uint8).tolist() == [1, 255, 44]
    assert f.to(torch.bool).tolist() == [True, True, True]
    b = torch.tensor([True, False], device="cuda")
    assert (b & b).tolist() == [True, False] and (b | ~b).tolist() == [True, True]
    assert (b + b).tolist() == [True, False]
    assert (b * ~b).tolist() == [False, False]


@needs_gpu
def test_large_reductions_and_products():
    x = torch.ones(1000, 1003, device="cuda")
    assert x.sum().item() == 1003000.0
    assert x.sum(0).cpu().tolist() == [1000.0] * 1003
    r = torch.arange(300000, dtype=torch.float64)
    assert r.cuda().sum().item() == r.sum().item()
    assert r.cuda().reshape(3, 100000).sum(1).tolist() == r.reshape(3, 100000).sum(1).tolist()
    assert r.cuda().reshape(1000, 300).t().sum(1).tolist() == r.reshape(1000, 300).t().sum(1).tolist()
    r[123456] = float("nan")
    assert r.cuda().amax().item() != r.cuda().amax().item()  # NaN propagates through the partials
    ints = torch.arange(100000, dtype=torch.int32, device="cuda")
    assert ints.sum().item() == 4999950000 and ints.sum().dtype == torch.int64
    assert (ints >= 50000).sum().item() == 50000
    assert torch.ones(50000, dtype=torch.bool, device="cuda").sum().item() == 50000
    a = torch.arange(64 * 48, dtype=torch.float64).reshape(64, 48) / 100
    b = torch.arange(48 * 40, dtype=torch.float64).reshape(48, 40) / 50
    assert torch.allclose((a.cuda() @ b.cuda()).cpu(), a @ b, rtol=1e-12)
    assert torch.allclose((a.t().cuda().t() @ b.cuda()).cpu(), a @ b, rtol=1e-12)
    assert torch.allclose((a.cuda() @ b.t().contiguous().cuda().t()).cpu(), a @ b, rtol=1e-12)
    nan = torch.tensor([1.0, float("nan"), 3.0], device="cuda")
    m, r = nan.max(), nan.relu()
    assert (m != m).item() and (r != r).tolist() == [False, True, False]


@needs_gpu
def test_inplace_and_optimizer_updates_on_device():
    w = torch.tensor([1.0, 2.0, 3.0], device="cuda", requires_grad=True)
    (w * w).sum().backward()
    with torch.no_grad():
        w.add_(w.grad, alpha=-0.1)
        w.mul_(2)
    assert w.tolist() == pytest.approx([1.6, 3.2, 4.8])
    w.grad.zero_()
    assert w.grad.tolist() == [0.0, 0.0, 0.0] and w.is_leaf
    v = torch.zeros(2, 3, device="cuda")
    v[0] = torch.tensor([1.0, 2.0, 3.0], device="cuda")
    v[1, 1:] = 5.0
    v.t()[0].fill_(-1.0)
    assert v.tolist() == [[-1.0, 2.0, 3.0], [-1.0, 5.0, 5.0]]
    v.copy_(torch.ones(3))  # from the host, broadcast
    assert v.tolist() == [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]


@needs_gpu
def test_gradient_flows_back_to_the_cpu_leaf():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.cuda()
    z = (y * y).sum()
    z.backward()
    assert x.grad.device == torch.device("cpu") and x.grad.tolist() == [2.0, 4.0]
    assert type(y.grad_fn).__name__ == "ToCopyBackward0"
    back = y.cpu()
    assert type(back.grad_fn).__name__ == "ToCopyBackward0"
    g = torch.autograd.grad(back.sum() * 3, x)[0]
    assert g.tolist() == [3.0, 3.0] and g.device == torch.device("cpu")
    # second order through the device copy
    x2 = torch.tensor([1.5], dtype=torch.float64, requires_grad=True)
    y2 = x2.cuda() ** 3
    (d,) = torch.autograd.grad(y2.sum(), x2, create_graph=True)
    (dd,) = torch.autograd.grad(d.sum(), x2)
    assert d.item() == pytest.approx(6.75) and dd.item() == pytest.approx(9.0)


IMG = [[[[0.1 * ((3 * i + 5 * j + c) % 7) - 0.3 for j in range(6)] for i in range(5)] for c in range(2)]]
KER = [[[[0.2 * ((i + 2 * j + o + c) % 3) - 0.1 for j in range(3)] for i in range(2)] for c in range(2)] for o in range(3)]
F = torch.nn.functional

INDEXED = {
    "int_index": lambda x, k: x[torch.tensor([1, 0, 1])] * 2,
    "int_index_2": lambda x, k: x[:, torch.tensor([2, 0])],
    "list_index": lambda x, k: x[[0, 1], [2, 0]],
    "bool_mask": lambda x, k: x[x > 0],
    "index_select": lambda x, k: x.index_select(1, torch.tensor([2, 2, 0])),
    "gather": lambda x, k: x.gather(1, torch.tensor([[0, 2], [1, 1]])),
    "max_dim": lambda x, k: x.max(1)[0] + x.min(0)[0].sum(),
    "conv2d": lambda x, k: F.conv2d(x, k, torch.tensor([0.1, -0.2, 0.3]).to(x.device, x.dtype)),
    "conv2d_stride_pad": lambda x, k: F.conv2d(x, k, stride=2, padding=1),
    "max_pool2d": lambda x, k: F.max_pool2d(x, 2),
    "avg_pool2d": lambda x, k: F.avg_pool2d(x, (2, 3)),
    "cross_entropy": lambda x, k: F.cross_entropy(x, torch.tensor([2, 0])),
    "nll_loss": lambda x, k: F.nll_loss(x.log_softmax(1), torch.tensor([1, 2]), reduction="sum"),
    "embedding": lambda x, k: F.embedding(torch.tensor([[1, 0], [1, 1]]), x),
}


@needs_gpu
@pytest.mark.parametrize("name", sorted(INDEXED))
def test_indexing_and_nn_ops_match_cpu(name):
    f = INDEXED[name]
    shaped = name.startswith(("conv", "max_pool", "avg_pool"))
    data = IMG if shaped else A
    xc, xg = _pair(data, torch.float64)
    kc, kg = _pair(KER, torch.float64)

    def on(dev, x, k):
        # Index tensors are made on the host and moved, as a user would.
        orig = torch.tensor

        def tensor(*a, **kw):
            return orig(*a, **kw).to(dev) if dev == "cuda" else orig(*a, **kw)

        torch.tensor = tensor
        try:
            return f(x, k)
        finally:
            torch.tensor = orig

    yc, yg = on("cpu", xc, kc), on("cuda", xg, kg)
    assert yg.is_cuda and yg.shape == yc.shape
    assert torch.allclose(yg.cpu(), yc, rtol=1e-10, atol=1e-12), (yg, yc)
    assert type(yg.grad_fn).__name__ == type(yc.grad_fn).__name__
    w = torch.arange(yc.numel(), dtype=torch.float64).reshape(yc.shape) / 5 - 0.5
    (yc * w).sum().backward()
    (yg * w.cuda()).sum().backward()
    assert torch.allclose(xg.grad.cpu(), xc.grad, rtol=1e-10, atol=1e-12)
    if kc.grad is not None:
        assert torch.allclose(kg.grad.cpu(), kc.grad, rtol=1e-10, atol=1e-12)


@needs_gpu
def test_argmax_and_index_assignment():
    x = torch.tensor([[1.0, 5.0, 5.0, -2.0], [float("nan"), 0.0, 3.0, float("nan")]], device="cuda")
    assert x.argmax(1).tolist() == [1, 0]
    assert x.argmin(1).tolist() == [3, 0]
    assert x.argmax().item() == 4
    assert torch.ones(3, 1000, device="cuda").argmax(1).tolist() == [0, 0, 0]
    big = torch.arange(5000, dtype=torch.float32, device="cuda")
    assert big.argmax().item() == 4999 and big.argmin().item() == 0
    v = torch.zeros(2, 4, device="cuda")
    v[torch.tensor([1, 0], device="cuda"), torch.tensor([3, 1], device="cuda")] = torch.tensor([7.0, 8.0], device="cuda")
    v[v == 0] = -1.0
    assert v.tolist() == [[-1.0, 8.0, -1.0, -1.0], [-1.0, -1.0, -1.0, 7.0]]
    i = torch.tensor([0, 2, 0], device="cuda")
    acc = torch.zeros(3, device="cuda", requires_grad=True)
    y = acc[i] * torch.tensor([1.0, 2.0, 3.0], device="cuda")
    y.sum().backward()
    assert acc.grad.tolist() == [4.0, 0.0, 2.0]  # repeated index: gradients add up


CV = [[1 + 2j, -0.5 + 1j, 3 - 1j], [0.25 - 2j, 2 + 0j, -1 - 1j]]

COMPLEX = {
    "exp": lambda x: x.exp(),
    "log": lambda x: x.log(),
    "sqrt": lambda x: x.sqrt(),
    "rsqrt": lambda x: x.rsqrt(),
    "sin": lambda x: x.sin(),
    "cos": lambda x: x.cos(),
    "tanh": lambda x: x.tanh(),
    "sigmoid": lambda x: x.sigmoid(),
    "reciprocal": lambda x: x.reciprocal(),
    "abs": lambda x: x.abs(),
    "angle": lambda x: x.angle(),
    "sgn": lambda x: x.sgn(),
    "conj": lambda x: x.conj() * 1,
    "neg": lambda x: -x,
    "square": lambda x: x.square(),
    "pow_scalar": lambda x: x**2,
    "pow_tensor": lambda x: x ** (x * 0.5),
    "mul_scalar": lambda x: x * (2 - 1j),
    "div": lambda x: x / (x.conj() + 1),
    "sum": lambda x: x.sum(),
    "sum_dim": lambda x: x.sum(0),
    "mean": lambda x: x.mean(1),
    "prod": lambda x: x.prod(),
    "prod_dim": lambda x: x.prod(1),
    "cumsum": lambda x: x.cumsum(1),
    "mm": lambda x: x @ x.t(),
    "mv": lambda x: x @ x[0],
    "bmm": lambda x: torch.bmm(x.unsqueeze(0), x.t().unsqueeze(0)),
    "linear": lambda x: torch.nn.functional.linear(x, x, x[0, :2]),
    "real_imag": lambda x: x.real * 2 + x.imag,
    "view_as_real": lambda x: torch.view_as_real(x) * 2,
    "complex": lambda x: torch.complex(x.real, x.imag) * x,
    "from_real": lambda x: x.abs().to(x.dtype) * x,
    "var": lambda x: x.var(1),
    "std": lambda x: x.std(),
    "norm": lambda x: x.norm(),
    "where": lambda x: torch.where(x.real > 0, x, x * 2),
    "index": lambda x: x[torch.tensor([1, 0, 1]).to(x.device)],
    "cat": lambda x: torch.cat([x, x * 1j]),
    "transpose": lambda x: x.t().contiguous() * 1,
    "masked_fill": lambda x: x.masked_fill(x.real < 0, 1j),
}


@needs_gpu
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", sorted(COMPLEX))
def test_complex_op_matches_cpu(name, dtype):
    dt = getattr(torch, dtype)
    assert COMPLEX[name](torch.tensor(CV, dtype=dt, requires_grad=True)).grad_fn is not None
    _matches_cpu(COMPLEX[name], CV, dt, 1e-5 if dtype == "complex64" else 1e-10)


@leafgrad_only
@needs_gpu
def test_complex_errors_name_the_cuda_kernel():
    z = torch.ones(2, dtype=torch.complex64, device="cuda")
    with pytest.raises(RuntimeError, match="\"lt_cuda\" not implemented for 'ComplexFloat'"):
        z < z
    with pytest.raises(NotImplementedError, match="\"remainder_cuda\" not implemented for 'ComplexFloat'"):
        torch.remainder(z, z)


@leafgrad_only
@needs_gpu
def test_device_memory_is_freed():
    import gc

    gc.collect()
    base = torch._core._arena_stats()
    mem = torch.cuda.memory_allocated()
    for _ in range(200):
        x = torch.ones(256, 256, device="cuda", requires_grad=True)
        ((x * 2).relu() @ x).sum().backward()
    del x
    gc.collect()
    after = torch._core._arena_stats()
    assert after["nodes"] <= base["nodes"] and after["tensors"] <= base["tensors"]
    assert torch.cuda.memory_allocated() == mem


@leafgrad_only
@needs_gpu
def test_dlpack_shares_gpu_memory_with_pytorch():
    real = pytest.importorskip("torch")
    if not real.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    t = real.arange(6, dtype=real.float32, device="cuda").reshape(2, 3)
    x = torch.from_dlpack(t)
    assert x.is_cuda and x.__dlpack_device__() == (2, 0) and x.tolist() == t.tolist()
    assert x.data_ptr() == t.data_ptr()
    with torch.no_grad():
        x.mul_(2)  # leafgrad writes PyTorch's memory
    assert t.tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]
    y = real.from_dlpack(x.t())  # and back, a strided view, without a copy
    assert y.device.type == "cuda" and y.data_ptr() == t.data_ptr() and y.stride() == (1, 3)
    z = torch.ones(3, device="cuda")
    w = real.from_dlpack(z)
    w += 1  # PyTorch writes leafgrad's memory
    assert z.tolist() == [2.0, 2.0, 2.0]


DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "uint8", "bool"]
VALUES = {
    "float32": [[0.5, -1.5, 2.25], [3.0, 0.0, -0.75]],
    "float64": [[0.5, -1.5, 2.25], [3.0, 0.0, -0.75]],
    "float16": [[0.5, -1.5, 2.25], [3.0, 0.0, -0.75]],
    "bfloat16": [[0.5, -1.5, 2.25], [3.0, 0.0, -0.75]],
    "int64": [[5, -3, 2], [0, 7, -1]],
    "int32": [[5, -3, 2], [0, 7, -1]],
    "uint8": [[5, 3, 2], [0, 7, 1]],
    "bool": [[True, False, True], [False, True, True]],
}


COMPLEX_DTYPES = ["complex64", "complex128"]


def _re_im_sum(y):
    return (y.real + 2 * y.imag).sum()


def _complex_kernels_against_the_cpu():
    for name in COMPLEX_DTYPES:
        dt = getattr(torch, name)
        c = torch.tensor([[1 + 2j, -0.5 + 1j, 3 - 1j], [0.25 - 2j, 2 + 0j, 0j]], dtype=dt)
        other = torch.tensor([[0.5 + 1j, 1 - 1j, 2 + 0.5j], [1 + 1j, -1 + 2j, 0.5 - 0.5j]], dtype=dt)
        g, og = c.cuda(), other.cuda()
        unary = {
            "fill": lambda x: x.clone().fill_(1 - 2j),
            "where": lambda x: torch.where(x.real > 0, x, x.flip(1)),
            "take": lambda x: x[torch.tensor([1, 0]).to(x.device)],
            "put": _put,
            "sum": lambda x: x.sum(1),
            "prod": lambda x: x.prod(1),
            "cumsum": lambda x: x.cumsum(1),
            "neg": lambda x: -x,
            "conj": lambda x: x.conj(),
            "sgn": lambda x: x.sgn(),
            "abs": lambda x: x.abs(),
            "angle": lambda x: x.angle(),
        }
        # every declared float function with complex kernels (src/declared.rs), away from poles
        kernels = {k for k, _ in torch._core._cuda_kernels()}
        for fn, *_ in torch._core._float_unary_ops():
            if f"unary_{fn}_c64" in kernels:
                unary[fn] = lambda x, fn=fn: getattr(x + 1, fn)()
        binary = {
            "add": lambda x, y: x + y,
            "sub": lambda x, y: x - y,
            "mul": lambda x, y: x * y,
            "div": lambda x, y: x / y,
            "pow": lambda x, y: x**y,
            "eq": lambda x, y: x == y,
            "ne": lambda x, y: x != y,
            "matmul": lambda x, y: x @ y.t(),
        }
        for key, f in unary.items():
            _same(f(g), f(c), (name, key))
        for key, f in binary.items():
            _same(f(g, og), f(c, other), (name, key))
        for to in DTYPES + COMPLEX_DTYPES:
            _same(g.to(getattr(torch, to)), c.to(getattr(torch, to)), (name, "to", to))
        xg = g.clone().requires_grad_()
        _re_im_sum(xg[torch.tensor([0, 0, 1], device="cuda")]).backward()
        xc = c.clone().requires_grad_()
        _re_im_sum(xc[torch.tensor([0, 0, 1])]).backward()
        _same(xg.grad, xc.grad, (name, "put_add"))
        pg = g.clone().requires_grad_()
        _re_im_sum(pg.prod(1)).backward()
        pc = c.clone().requires_grad_()
        _re_im_sum(pc.prod(1)).backward()
        _same(pg.grad, pc.grad, (name, "prod grad at zero"))


def _put(x):
    y = x.clone()
    y[torch.tensor([0, 1]).to(x.device), torch.tensor([2, 0]).to(x.device)] = x[1, :2].clone()
    return y


def _same(g, c, what):
    g = g.cpu()
    assert g.dtype == c.dtype and g.shape == c.shape, what
    if c.dtype.is_complex:
        assert torch.allclose(g, c, rtol=1e-5, atol=1e-6, equal_nan=True), (what, g, c)
    elif c.dtype.is_floating_point:
        # half types: GPU and CPU float32 math may differ by an ulp before the one rounding
        tol = 1e-2 if c.dtype in (torch.float16, torch.bfloat16) else 1e-6
        assert torch.allclose(g.double(), c.double(), rtol=tol, atol=tol, equal_nan=True), (what, g, c)
    else:
        assert g.tolist() == c.tolist(), (what, g, c)


@leafgrad_only
@needs_gpu
def test_every_kernel_runs_against_the_cpu():
    """Each kernel of the table is launched by an op here, and its result equals the CPU
    backend's; the launch counters prove every kernel ran."""
    before = dict(torch._core._cuda_launch_counts())
    for name in DTYPES:
        dt = getattr(torch, name)
        c = torch.tensor(VALUES[name], dtype=dt)
        g = c.cuda()
        other = torch.tensor([[1, 2, 1], [2, 1, 3]], dtype=dt) if name != "bool" else ~c
        og = other.cuda()
        unary = {
            "fill": lambda x: x.clone().fill_(1),
            "where": lambda x: torch.where(x > 0 if x.dtype != torch.bool else x, x, x.flip(1)),
            "take": lambda x: x[torch.tensor([1, 0]).to(x.device)],
            "put": _put,
            "argmax": lambda x: x.argmax(1),
            "argmin": lambda x: x.argmin(1),
            "amax": lambda x: x.amax(1),
            "amin": lambda x: x.amin(0),
            "max": lambda x: x.max(),
            "sum": lambda x: x.sum(1),
            "cumsum": lambda x: x.cumsum(1),
        }
        binary = {
            "eq": lambda x, y: x == y,
            "ne": lambda x, y: x != y,
            "lt": lambda x, y: x < y,
            "le": lambda x, y: x <= y,
            "gt": lambda x, y: x > y,
            "ge": lambda x, y: x >= y,
        }
        if name != "bool":
            unary.update(
                {
                    "clamp": lambda x: x.clamp(1, 4),
                    "abs": lambda x: x.abs(),
                    "relu": lambda x: x.relu(),
                    "sign": lambda x: x.sign(),
                    "prod": lambda x: x.prod(1),
                }
            )
            binary.update(
                {
                    "add": lambda x, y: x + y,
                    "sub": lambda x, y: x - y,
                    "mul": lambda x, y: x * y,
                    "floordiv": lambda x, y: x // y,
                    "remainder": lambda x, y: x % -y if x.dtype != torch.uint8 else x % y,
                    "fmod": lambda x, y: torch.fmod(x, y),
                }
            )
            if name != "uint8":
                unary["neg"] = lambda x: -x
            if not dt.is_floating_point:
                unary["bnot"] = lambda x: ~x
                binary.update(
                    {
                        "ipow": lambda x, y: x**y,
                        "band": lambda x, y: x & y,
                        "bor": lambda x, y: x | y,
                        "bxor": lambda x, y: x ^ y,
                    }
                )
        else:
            # argmax refuses bools (as PyTorch); max/min along a dim use the same kernels
            unary["argmax"] = lambda x: x.max(1).indices
            unary["argmin"] = lambda x: x.min(1).indices
            unary["not"] = lambda x: ~x
            binary.update(
                {
                    "and": lambda x, y: x & y,
                    "or": lambda x, y: x | y,
                    "xor": lambda x, y: x ^ y,
                    "add": lambda x, y: x + y,
                    "mul": lambda x, y: x * y,
                }
            )
        if dt.is_floating_point:
            rounding = [fn for fn, *_ in torch._core._rounding_ops()]
            for fn in ["erf", "angle", *rounding]:
                unary[fn] = lambda x, fn=fn: getattr(x, fn)()
            # every declared float function (src/declared.rs), inside its domain
            for fn, *_ in torch._core._float_unary_ops():
                unary[fn] = lambda x, fn=fn: getattr(x.abs() + 0.5, fn)()
            for fn, *_ in torch._core._float_binary_ops():
                binary[fn] = lambda x, y, fn=fn: getattr(x.abs() + 0.5, fn)(y)
            binary.update({"div": lambda x, y: x / y, "pow": lambda x, y: x.abs() ** y})
        for key, f in unary.items():
            _same(f(g), f(c), (name, key))
        for key, f in binary.items():
            _same(f(g, og), f(c, other), (name, key))
        for to in DTYPES + COMPLEX_DTYPES:
            _same(g.to(getattr(torch, to)), c.to(getattr(torch, to)), (name, "to", to))
        if dt.is_floating_point:
            # put_add: the gradient of indexing with a repeated index
            xg = g.clone().requires_grad_()
            xg[torch.tensor([0, 0, 1], device="cuda")].sum().backward()
            xc = c.clone().requires_grad_()
            xc[torch.tensor([0, 0, 1])].sum().backward()
            _same(xg.grad, xc.grad, (name, "put_add"))
            # the gradient of prod with a zero in the row: products of the others (scans)
            pg = g.clone().requires_grad_()
            pg.prod(1).sum().backward()
            pc = c.clone().requires_grad_()
            pc.prod(1).sum().backward()
            _same(pg.grad, pc.grad, (name, "prod grad at zero"))
            # the index plans built on the device: convolution (im2col) and max pooling
            F = torch.nn.functional
            x4, c4 = g.reshape(1, 1, 2, 3), c.reshape(1, 1, 2, 3)
            w4 = torch.tensor([[[[1.0, -2.0], [0.5, 3.0]]]], dtype=dt)
            _same(F.conv2d(x4, w4.cuda(), padding=1), F.conv2d(c4, w4, padding=1), (name, "conv2d"))
            _same(F.max_pool2d(x4, 2, 1, 1), F.max_pool2d(c4, 2, 1, 1), (name, "max_pool2d"))
            # normal draws run on the device (their values: test_cuda_random*.py)
            assert torch.randn(5, device="cuda", dtype=dt).isfinite().all()
    _complex_kernels_against_the_cpu()
    after = dict(torch._core._cuda_launch_counts())
    ran = {k for k in after if after[k] > before.get(k, 0)}
    table = {k for k, _ in torch._core._cuda_kernels()}
    assert not (table - ran), f"kernels no op here launched: {sorted(table - ran)}"


@needs_gpu
def test_modules_built_on_the_device():
    # device= in a module's constructor makes its parameters there (leaves), initialised there
    torch.manual_seed(0)
    lin = torch.nn.Linear(3, 2, device="cuda")
    assert lin.weight.device == torch.device("cuda", 0) and lin.bias.is_cuda
    assert lin.weight.is_leaf and lin.weight.requires_grad and lin.weight.grad_fn is None
    for m in (torch.nn.Conv2d(1, 2, 3, device="cuda"), torch.nn.LayerNorm(4, device="cuda"),
              torch.nn.Embedding(5, 2, device="cuda")):
        assert all(p.is_cuda and p.is_leaf for p in m.parameters())
    y = lin(torch.ones(4, 3, device="cuda")).sum()
    y.backward()
    assert lin.weight.grad.is_cuda and lin.weight.grad.tolist() == [[4.0] * 3] * 2
