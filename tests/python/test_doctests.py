"""The `>>>` examples in the package's docstrings run and print what they show.

Every example is written for PyTorch's API with `torch` bound to leafgrad, so it doubles as a
promise of identical output: with LEAFGRAD_TEST_TORCH=1 the same examples (read from leafgrad's
modules) run against real PyTorch, except those in LEAFGRAD_ONLY. Two more tests keep the
examples from thinning out: every public function and class of these modules has one, and every
`leafgrad.<name>` has one unless listed in NO_EXAMPLE_YET.
"""
import doctest
import importlib
import inspect
import sys

import pytest
from support import USING_TORCH, with_real_leafgrad

# The modules whose public functions carry examples.
MODULES = [
    "leafgrad",
    "leafgrad._core",
    "leafgrad._tensor_str",
    "leafgrad._factories",
    "leafgrad._grad_mode",
    "leafgrad._functions",
    "leafgrad._sampling",
    "leafgrad._activations",
    "leafgrad._sorting",
    "leafgrad._math_scan",
    "leafgrad._scatter",
    "leafgrad._gather",
    "leafgrad._broadcast",
    "leafgrad._shape_ops",
    "leafgrad._size",
    "leafgrad._device",
    "leafgrad.storage",
    "leafgrad.serialization",
    "leafgrad.special",
    "leafgrad.autograd",
    "leafgrad.autograd.function",
    "leafgrad.autograd.functional",
    "leafgrad.autograd.forward_ad",
    "leafgrad.func",
    "leafgrad.autograd.gradcheck",
    "leafgrad.autograd.graph",
    "leafgrad.autograd.variable",
    "leafgrad.autograd.anomaly_mode",
    "leafgrad.utils.checkpoint",
    "leafgrad.utils.data",
    "leafgrad.utils.data.dataset",
    "leafgrad.utils.data.sampler",
    "leafgrad.utils.data.dataloader",
    "leafgrad.cuda",
    "leafgrad.viz",
    "leafgrad.explain",
    "leafgrad._runner",
    "leafgrad.nn.modules.module",
    "leafgrad.nn.modules.hooks",
    "leafgrad.nn.modules.container",
    "leafgrad.nn.modules.layers",
    "leafgrad.nn.modules.loss",
    "leafgrad.nn.modules.normalization",
    "leafgrad.nn.modules.activation",
    "leafgrad.nn.modules.parallel",
    "leafgrad.nn.modules.rnn",
    "leafgrad.nn.modules.attention",
    "leafgrad.nn.modules.transformer",
    "leafgrad.nn.modules.padding",
    "leafgrad.nn.modules.upsampling",
    "leafgrad.nn.modules.misc",
    "leafgrad.nn.modules.conv",
    "leafgrad.nn.modules.pooling",
    "leafgrad.nn.modules.lazy",
    "leafgrad.nn.functional",
    "leafgrad.nn._functional_losses",
    "leafgrad.nn._functional_extra",
    "leafgrad.nn._functional_grid",
    "leafgrad.nn.modules.norm_extra",
    "leafgrad.utils.benchmark",
    "leafgrad.onnx",
    "leafgrad.utils.tensorboard.writer",
    "leafgrad.fft",
    "leafgrad.jit",
    "leafgrad.multiprocessing",
    "leafgrad.optim.swa_utils",
    "leafgrad.utils.data.distributed",
    "leafgrad.nn.attention",
    "leafgrad.nn.utils.stateless",
    "leafgrad._compile",
    "leafgrad._global_flags",
    "leafgrad.nn._functional_attention",
    "leafgrad.nn._functional_resample",
    "leafgrad.nn._functional_misc",
    "leafgrad.nn._functional_conv",
    "leafgrad.nn._functional_pool",
    "leafgrad.nn._functional_fractional",
    "leafgrad.nn._functional_ctc",
    "leafgrad.nn.init",
    "leafgrad.nn.utils.clip_grad",
    "leafgrad.nn.utils.convert_parameters",
    "leafgrad.nn.utils.rnn",
    "leafgrad.nn.utils.parametrize",
    "leafgrad.nn.utils.parametrizations",
    "leafgrad.nn.utils.weight_norm",
    "leafgrad.nn.utils.spectral_norm",
    "leafgrad.nn.parameter",
    "leafgrad.optim.optimizer",
    "leafgrad.optim.sgd",
    "leafgrad.optim.adam",
    "leafgrad.optim.rmsprop",
    "leafgrad.optim.adagrad",
    "leafgrad.optim.adamax",
    "leafgrad.optim.adadelta",
    "leafgrad.optim.nadam",
    "leafgrad.optim.radam",
    "leafgrad.optim.asgd",
    "leafgrad.optim.rprop",
    "leafgrad.optim.lbfgs",
    "leafgrad.optim.lr_scheduler",
    "leafgrad.optim._cyclic_lr",
    "leafgrad._math_extra",
    "leafgrad._bitwise",
    "leafgrad.accelerator",
    "leafgrad.linalg",
    "leafgrad._linalg_matrix_fns",
    "leafgrad._linalg_eig_lu",
    "leafgrad._linalg_more",
    "leafgrad.torch_version",
    "leafgrad.version",
    "leafgrad.testing",
    "leafgrad.backends",
    "leafgrad.backends.cudnn",
    "leafgrad.backends.cuda",
    "leafgrad.backends.mps",
    "leafgrad.backends.cpu",
    "leafgrad.backends.mkldnn",
    "leafgrad.backends.openmp",
    "leafgrad.amp",
    "leafgrad.amp.autocast_mode",
    "leafgrad.amp.grad_scaler",
    "leafgrad.amp._state",
    "leafgrad.amp._cuda_amp",
    "leafgrad.cpu",
    "leafgrad.cpu.amp",
    "leafgrad.distributed",
    "leafgrad.nn.parallel.distributed",
    "leafgrad.profiler",
    "leafgrad._einsum",
    "leafgrad._tensor_indexing",
    "leafgrad._tensor_props",
    "leafgrad._aten_functional",
    "leafgrad._windows",
    "leafgrad._math_inplace",
    "leafgrad._math_binary",
    "leafgrad._math_unary",
    "leafgrad._math_products",
    "leafgrad._math_stats",
    "leafgrad._math_misc",
    "leafgrad._special_gamma",
    "leafgrad._linalg_cholesky",
    "leafgrad._renorm",
    "leafgrad._tensor_memory",
    "leafgrad.nn._embedding_bag",
    "leafgrad.nn.modules.sparse",
]
# Examples (by doctest name prefix) of leafgrad-only API or of what a CPU-only build prints:
# not run against PyTorch. PyTorch keeps get_printoptions and printoptions in torch._tensor_str
# (leafgrad also exports them at the top level); format_tensor and format_meta are leafgrad's own.
LEAFGRAD_ONLY = (
    "leafgrad.viz", "leafgrad.explain", "leafgrad._runner", "leafgrad.version", "leafgrad.cuda", "leafgrad._device.check_device",
    "leafgrad._tensor_str.get_printoptions", "leafgrad._tensor_str.printoptions",
    "leafgrad._tensor_str.format_tensor",
    "leafgrad._tensor_str.format_meta",
    # CUDA builds of PyTorch have cuDNN, oneDNN, OpenMP and a distributed backend; leafgrad has none
    "leafgrad.backends.cudnn", "leafgrad.backends.mkldnn", "leafgrad.backends.openmp",
    "leafgrad.distributed", "leafgrad.nn.parallel.distributed",
    # PyTorch's operators call others (aten::ones runs aten::empty and aten::fill_): its event
    # lists are longer than leafgrad's
    "leafgrad.profiler",
)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


class _SourceFinder(doctest.DocTestFinder):
    """doctest's finder, with a class counted in the module whose file defines it (nn's classes
    report PyTorch's submodule as their `__module__`, not the file their code is in)."""

    def _from_module(self, module, object):
        if inspect.isclass(object) and getattr(module, "__file__", None):
            files = {f.__code__.co_filename for f in vars(object).values() if inspect.isfunction(f)}
            if files:
                return module.__file__ in files
        return super()._from_module(module, object)


def _find_examples(modules):
    finder = _SourceFinder(exclude_empty=True)
    return {name: finder.find(module, name, globs={}) for name, module in modules.items()}


def _leafgrad_modules():
    """The real leafgrad modules and their examples, also under LEAFGRAD_TEST_TORCH=1 (where
    `leafgrad` is aliased to torch in sys.modules): the alias is lifted while they are imported
    and their examples found (doctest looks modules up in sys.modules), then restored."""
    def find():
        modules = {name: importlib.import_module(name) for name in MODULES}
        return modules, _find_examples(modules)

    return with_real_leafgrad(find, allow_module_level=True)


_MODULES, _EXAMPLES = _leafgrad_modules()


def _run(module_name):
    """Run the module's examples with `torch` (leafgrad, or PyTorch in validation mode)."""
    import leafgrad as torch  # real torch under LEAFGRAD_TEST_TORCH=1

    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report = []
    for test in _EXAMPLES[module_name]:
        if not (USING_TORCH and test.name.startswith(LEAFGRAD_ONLY)):
            test.globs = {"torch": torch}
            runner.run(test, out=report.append)
    return runner.summarize(verbose=False), "".join(report)


@pytest.mark.parametrize("module_name", MODULES)
def test_examples_print_what_they_show(module_name):
    if USING_TORCH and module_name.startswith(LEAFGRAD_ONLY):
        pytest.skip("leafgrad-only API; not present in torch")
    results, report = _run(module_name)
    assert results.failed == 0, report
    assert results.attempted > 0


def _public(module):
    """Public functions and classes defined in `module` (re-exports are checked where defined).
    A class may name its module as PyTorch spells it (nn.Parameter says `torch.nn.parameter`).
    `_` names are private even when `__all__` lists them (PyO3 lists every name of `_core`)."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = list(vars(module))
    names = [n for n in names if not n.startswith("_")]
    spellings = {module.__name__, "torch" + module.__name__[len("leafgrad"):]}
    for name in names:
        obj = getattr(module, name)
        if (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__ in spellings:
            yield name, obj


def _has_example(obj):
    return ">>>" in (inspect.getdoc(obj) or "")


@pytest.mark.skipif(USING_TORCH, reason="inspects leafgrad's own docstrings")
@pytest.mark.parametrize("module_name", MODULES)
def test_every_public_function_has_an_example(module_name):
    missing = [name for name, obj in _public(_MODULES[module_name]) if not _has_example(obj)]
    assert missing == []


# `leafgrad.<name>` functions and classes without an example yet (none now). The examples of
# the Rust module's functions are `///` comments in src/python/ and run as `leafgrad._core`'s;
# Tensor and dtype say `__module__ == "leafgrad"`, so theirs run with the package's own.
# Add a name here only with a reason, and remove it when its example lands.
NO_EXAMPLE_YET: set[str] = set()


@pytest.mark.skipif(USING_TORCH, reason="inspects leafgrad's own docstrings")
def test_top_level_functions_have_examples():
    import leafgrad

    public = {
        name: obj for name, obj in vars(leafgrad).items()
        if not name.startswith("_") and callable(obj) and not isinstance(obj, leafgrad.dtype)
    }
    missing = sorted(n for n, obj in public.items() if not _has_example(obj) and n not in NO_EXAMPLE_YET)
    assert missing == []
    stale = sorted(n for n in NO_EXAMPLE_YET if n in public and _has_example(public[n]))
    assert stale == [], "these have examples now: remove them from NO_EXAMPLE_YET"
