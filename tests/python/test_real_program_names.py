"""Names and overloads that real PyTorch programs (pytorch/examples, minGPT, word_language_model,
the GNN examples, dcgan) reached and leafgrad lacked: `randint(high, size=...)`, the legacy
constructors with arrays and tensors, the device-kind flags, the pin_memory warning,
`torch.nn.modules.<file>.<Class>` paths and weights-only loads with user-allowed globals.
Values are PyTorch 2.15's; LEAFGRAD_TEST_TORCH=1 runs the file against PyTorch."""
import io
import warnings

import numpy as np
import pytest
import support  # noqa: F401  (with LEAFGRAD_TEST_TORCH=1, `leafgrad` below is PyTorch)

import leafgrad as torch
from leafgrad.utils.data import DataLoader, TensorDataset


def test_randint_with_size_keyword_reads_one_bound_as_high():
    torch.manual_seed(0)
    assert torch.randint(3, size=(6,), dtype=torch.long).tolist() == [2, 0, 2, 0, 1, 0]
    assert torch.randint(0, 3, size=(2, 2)).tolist() == [[1, 1], [1, 0]]
    assert torch.randint(high=5, size=(3,)).tolist() == [1, 1, 1]
    with pytest.raises(TypeError):
        torch.randint(size=(2,))


def test_legacy_constructors_take_arrays_and_tensors():
    a = np.array([[1, 2], [3, 4]], dtype=np.int32)
    t = torch.FloatTensor(a)
    assert t.dtype == torch.float32 and t.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert torch.LongTensor(np.array([[1.9, -2.7]])).tolist() == [[1, -2]]
    assert torch.DoubleTensor(np.array([1, 2])).dtype == torch.float64
    shared = np.array([1.0, 2.0], dtype=np.float32)
    view = torch.FloatTensor(shared)
    shared[0] = 9
    assert view.tolist() == [9.0, 2.0]
    assert torch.FloatTensor(range(3)).tolist() == [0.0, 1.0, 2.0]
    assert torch.Tensor(np.array([1, 2])).tolist() == [1.0, 2.0]
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.FloatTensor(x)
    assert y is not x and y.data_ptr() == x.data_ptr() and y.grad_fn.name() == "AliasBackward0"
    with pytest.raises(TypeError, match=r"^expected TensorOptions\(dtype=long int, device=cpu, layout=Strided, "
                       r"requires_grad=false \(default\), pinned_memory=false \(default\), memory_format=\(nullopt\)\) "
                       r"\(got TensorOptions\(dtype=float, "):
        torch.LongTensor(torch.tensor([1.0]))
    for bad, shown in ((np.float64(2.5), "numpy.float64"), ((v for v in [1]), "generator")):
        with pytest.raises(TypeError, match=rf"^new\(\): data must be a sequence \(got {shown}\)$"):
            torch.FloatTensor(bad)
    with pytest.raises(TypeError, match=r"^new\(\): data must be a sequence \(got float\)$"):
        torch.Tensor(2.5)
    assert torch.FloatTensor(2, 3).shape == (2, 3)


def test_device_kind_flags_and_storage_identity():
    t = torch.zeros(2)
    for kind in ("xpu", "ipu", "maia", "mtia", "mps", "xla", "vulkan", "mkldnn", "nested", "quantized"):
        assert getattr(t, f"is_{kind}") is False
    assert t.is_distributed() is False
    assert t.is_set_to(t) and t.is_set_to(t[:]) and not t.is_set_to(torch.zeros(2)) and not t.is_set_to(t[1:])
    with pytest.raises(RuntimeError, match="^is_coalesced expected sparse coordinate tensor layout but got Strided$"):
        t.is_coalesced()


def test_pin_memory_without_accelerator_warns():
    loader = DataLoader(TensorDataset(torch.arange(4.0)), batch_size=2, pin_memory=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert next(iter(loader))[0].tolist() == [0.0, 1.0]
    # with an accelerator (or leafgrad's CUDA host emulation) PyTorch pins and says nothing
    expected = [] if torch.cuda.is_available() else [
        "'pin_memory' argument is set as true but no accelerator is found, then device pinned memory won't be used."]
    assert [str(w.message) for w in caught] == expected
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        next(iter(DataLoader(TensorDataset(torch.arange(4.0)), batch_size=2)))
    assert caught == []


PATHS = {
    "activation": ["MultiheadAttention", "ReLU", "GELU", "Softmax", "Tanh", "RReLU"],
    "batchnorm": ["BatchNorm1d", "BatchNorm2d", "LazyBatchNorm3d"], "channelshuffle": ["ChannelShuffle"],
    "container": ["ModuleList", "Sequential"], "conv": ["Conv2d"], "distance": ["CosineSimilarity", "PairwiseDistance"],
    "dropout": ["Dropout", "Dropout2d", "AlphaDropout"], "flatten": ["Flatten", "Unflatten"], "fold": ["Fold", "Unfold"],
    "instancenorm": ["InstanceNorm2d"], "linear": ["Linear", "Identity", "Bilinear", "LazyLinear",
                                                   "NonDynamicallyQuantizableLinear"],
    "loss": ["MSELoss"], "module": ["Module"], "normalization": ["LayerNorm", "GroupNorm", "RMSNorm"],
    "pixelshuffle": ["PixelShuffle"], "pooling": ["MaxPool2d", "AvgPool2d"], "rnn": ["LSTM"],
    "sparse": ["Embedding", "EmbeddingBag"], "transformer": ["TransformerEncoderLayer"],
    "upsampling": ["Upsample"],
}


def test_module_classes_live_at_pytorchs_paths():
    import importlib

    for file, names in PATHS.items():
        mod = importlib.import_module(f"{torch.__name__}.nn.modules.{file}")
        for name in names:
            cls = getattr(mod, name)
            assert cls.__module__ == f"{torch.__name__}.nn.modules.{file}", (file, name)
            if hasattr(torch.nn, name):
                assert getattr(torch.nn, name) is cls


def test_weights_only_load_of_a_whole_model_with_allowed_globals():
    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Dropout())
    buf = io.BytesIO()
    torch.save(model, buf)
    buf.seek(0)
    names = sorted(torch.serialization.get_unsafe_globals_in_checkpoint(buf))
    prefix = f"{torch.__name__}.nn.modules"
    assert names == [f"{prefix}.container.Sequential", f"{prefix}.dropout.Dropout", f"{prefix}.linear.Linear"]
    buf.seek(0)
    with pytest.raises(Exception) as err:
        torch.load(buf)
    assert type(err.value).__name__ == "UnpicklingError"
    assert f"Unsupported global: GLOBAL {prefix}.container.Sequential was not an allowed global by default. Please use " \
           f"`torch.serialization.add_safe_globals([{prefix}.container.Sequential])`" in str(err.value)
    assert str(err.value).startswith("Weights only load failed. This file can still be loaded, to do so you have two "
                                     "options, \x1b[1mdo those steps only if you trust the source of the checkpoint")
    buf.seek(0)
    before = torch.serialization.get_safe_globals()
    with torch.serialization.safe_globals([torch.nn.Sequential, torch.nn.Linear, torch.nn.Dropout]):
        loaded = torch.load(buf)
    assert torch.serialization.get_safe_globals() == before
    assert type(loaded[0]) is torch.nn.Linear and torch.equal(loaded[0].weight, model[0].weight)


def test_benchmark_timer_measures_and_prints_pytorchs_summary():
    import importlib

    benchmark = importlib.import_module(torch.__name__ + ".utils.benchmark")
    t = benchmark.Timer("y = x * 2", setup="x = torch.ones(3)", label="double", sub_label="3",
                        description="ones")
    m = t.timeit(50)
    assert m.number_per_run == 50 and len(m.times) == 1 and m.times[0] > 0
    lines = repr(m).splitlines()
    assert lines[1:4] == ["double: 3", "ones", "setup: x = torch.ones(3)"]
    assert lines[-1] == "  1 measurement, 50 runs , 1 thread"
    assert lines[-2].startswith("  ") and lines[-2].split()[1] in ("ns", "us", "ms", "s")
    before = torch.get_num_threads()
    seen = []
    b = benchmark.Timer("seen.append(torch.get_num_threads())", globals={"seen": seen}, num_threads=2)
    m = b.blocked_autorange(min_run_time=0.01)
    assert set(seen) == {2} and torch.get_num_threads() == before
    assert len(m.times) >= 1 and m.median > 0 and m.title == "seen.append(torch.get_num_threads())"
    multi = repr(m).splitlines()[-1] if len(m.times) > 1 else ""
    assert multi == "" or multi.endswith("runs per measurement, 2 threads") or "WARNING" in repr(m)
    assert benchmark.select_unit(0.0025) == ("ms", 0.001) and benchmark.select_unit(3e-8) == ("ns", 1e-9)
    m = benchmark.Measurement(2, [2.0, 4.0, 6.0, 8.0, 10.0], benchmark.TaskSpec("f()", "pass"))
    assert (m.median, m.mean, m.iqr) == (3.0, 3.0, 2.0)
    assert repr(m).splitlines()[1:] == [
        "f()", "  Median: 3.00 s", "  IQR:    2.00 s (2.00 to 4.00)", "  5 measurements, 2 runs per measurement, 1 thread",
        "  WARNING: Interquartile range is 66.7% of the median measurement.",
        "           This suggests significant environmental influence."]


def test_onnx_imports_and_reports_no_export_in_progress():
    import importlib

    onnx = importlib.import_module(torch.__name__ + ".onnx")
    assert onnx.is_in_onnx_export() is False
