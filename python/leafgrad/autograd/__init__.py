"""`torch.autograd`: backward() and grad() over the core engine, plus the grad-mode classes."""
import warnings

from .. import _core, _warn
from .._core import Tensor
from .._grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled, set_multithreading_enabled
from . import anomaly_mode, forward_ad, function, functional, grad_mode, graph, variable
from . import profiler  # noqa: F401
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .function import Function
from .gradcheck import gradcheck, gradgradcheck
from .variable import Variable

SavedTensor = _core.SavedTensor

# PyTorch's torch.autograd imports torch, so old code reaches it as `torch.autograd.torch`
import leafgrad as torch  # noqa: E402


def is_multithreading_enabled():
    """Is backward allowed to run on worker threads? (see `set_multithreading_enabled`)

    >>> torch.autograd.is_multithreading_enabled()
    True
    """
    from .._grad_mode import _is_multithreading_enabled

    return _is_multithreading_enabled()


__all__ = ["Function", "Variable", "detect_anomaly", "set_detect_anomaly", "backward", "grad", "gradcheck", "gradgradcheck", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "set_multithreading_enabled", "is_multithreading_enabled", "SavedTensor"]

_CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter "
    "and its gradient which can cause a memory leak. We recommend using autograd.grad when creating "
    "the graph to avoid this. If you have to use this function, make sure to reset the .grad fields "
    "of your parameters to None after use to break the cycle and avoid the leak. (Triggered "
    "internally at /__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1445.)"
)


def _is_checkpoint_valid():
    """False inside a backward pass started by `grad()` or `backward(inputs=...)` (where the
    reentrant checkpoint cannot work), True otherwise."""
    return _core._is_checkpoint_valid()


def _as_tuple(x):
    if isinstance(x, Tensor):
        return (x,)
    return tuple(x)


def _grad_list(grads, n):
    """Per-output gradients: None, one tensor, or a sequence (None allowed in it)."""
    if grads is None:
        grads = [None] * n
    elif isinstance(grads, Tensor):
        grads = [grads]
    else:
        grads = list(grads)
    for g in grads:
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    if len(grads) != n:
        raise RuntimeError(f"got {n} tensors and {len(grads)} gradients")
    return grads


def _check_tensors(seq, what):
    for t in seq:
        if not isinstance(t, Tensor):
            raise TypeError(f"{what} must be Tensors, but got {type(t).__name__}")


def _inputs_tuple(inputs):
    """`inputs` of grad/backward: a tensor, a GradientEdge, or a sequence of them."""
    if isinstance(inputs, (Tensor, graph.GradientEdge)):
        return (inputs,)
    return tuple(inputs)


def _check_inputs(seq):
    for t in seq:
        if not isinstance(t, (Tensor, graph.GradientEdge)):
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}")


def _check_outputs(seq, what):
    """Outputs of grad/backward: tensors, or GradientEdges (the gradient given flows into the
    edge's node)."""
    for t in seq:
        if not isinstance(t, (Tensor, graph.GradientEdge)):
            raise TypeError(f"{what} must be Tensors, but got {type(t).__name__}")


def _core_inputs(seq):
    return [t if isinstance(t, Tensor) else (t.node, t.output_nr) for t in seq]


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    """Accumulate the gradients of `tensors` into the `.grad` of the leaves (or of `inputs`).

    `tensor.backward()` calls this. `grad_tensors` is needed for non-scalar `tensors`.

    >>> x = torch.tensor([1., 2., 3.], requires_grad=True)
    >>> torch.autograd.backward((x ** 2).sum())
    >>> x.grad
    tensor([2., 4., 6.])
    >>> torch.autograd.backward(x * 2, grad_tensors=torch.ones(3))
    >>> x.grad
    tensor([4., 6., 8.])
    """
    if grad_variables is not None:
        grad_tensors = grad_variables
    tensors = _inputs_tuple(tensors)
    _check_outputs(tensors, "tensors")
    if inputs is not None:
        inputs = _inputs_tuple(inputs)
        if len(inputs) == 0:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        _check_inputs(inputs)
    grads = _grad_list(grad_tensors, len(tensors))
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        _warn.warn_once("backward(create_graph=True)", _CREATE_GRAPH_WARNING, stacklevel=3)
    _core._backward(_core_inputs(tensors), grads, bool(retain_graph), bool(create_graph),
                    None if inputs is None else _core_inputs(inputs))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of `outputs` with respect to `inputs`, as a tuple; `.grad` is not touched.

    >>> x = torch.tensor([1., 2., 3.], requires_grad=True)
    >>> torch.autograd.grad((x ** 2).sum(), x)
    (tensor([2., 4., 6.]),)
    >>> x.grad is None
    True

    `create_graph=True` makes the gradient differentiable (higher derivatives):

    >>> x = torch.tensor(3., requires_grad=True)
    >>> (dy,) = torch.autograd.grad(x ** 3, x, create_graph=True)
    >>> dy
    tensor(27., grad_fn=<MulBackward0>)
    >>> torch.autograd.grad(dy, x)
    (tensor(18.),)

    An input the outputs do not depend on needs `allow_unused` (None) or `materialize_grads`:

    >>> z = torch.tensor(1., requires_grad=True)
    >>> torch.autograd.grad(x * 2, [x, z], allow_unused=True)
    (tensor(2.), None)
    >>> torch.autograd.grad(x * 2, [x, z], materialize_grads=True)
    (tensor(2.), tensor(0.))
    """
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, but got: allow_unused=False."
        )
    if allow_unused is None:
        allow_unused = materialize_grads
    if not only_inputs:
        warnings.warn(
            "only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
            "gradient for other parts of the graph, please use torch.autograd.backward.",
            FutureWarning,
            stacklevel=2,
        )
    outputs = _inputs_tuple(outputs)
    inputs = _inputs_tuple(inputs)
    if len(inputs) == 0:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    _check_outputs(outputs, "outputs")
    _check_inputs(inputs)
    grads = _grad_list(grad_outputs, len(outputs))
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        return _batched_grad(outputs, grads, inputs, retain_graph, create_graph, allow_unused, materialize_grads)
    return _core._grad(_core_inputs(outputs), grads, _core_inputs(inputs), bool(retain_graph), bool(create_graph),
                       bool(allow_unused), bool(materialize_grads))


def _batched_grad(outputs, grads, inputs, retain_graph, create_graph, allow_unused, materialize_grads):
    """`grad(..., is_grads_batched=True)`: the first dim of each grad_output is a batch; one
    backward pass per batch element (PyTorch vmaps the pass), the results stacked."""
    sizes = {g.shape[0] for g in grads if g is not None and g.dim() > 0}
    if not sizes:
        raise RuntimeError("If `is_grads_batched=True`, we interpret the first dimension of each "
                           "grad_output as the batch dimension. The sizes of the grad_outputs must "
                           "have at least one dimension.")
    for i, (g, o) in enumerate(zip(grads, outputs)):
        if g is not None and isinstance(o, Tensor) and (g.dim() == 0 or tuple(g.shape[1:]) != tuple(o.shape)):
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as "
                "the batch dimension. The sizes of the remaining dimensions are expected to match the "
                "shape of corresponding output, but a mismatch was detected: grad_output["
                f"{i}] has a shape of {g.shape[1:]} and output[{i}] has a shape of {o.shape}. If you "
                "only want some tensors in `grad_output` to be considered batched, consider using vmap."
            )
    (n,) = sizes if len(sizes) == 1 else (None,)
    if n is None:
        raise RuntimeError("vmap: Expected all tensors to have the same size in the mapped dimension")
    per_input = [[] for _ in inputs]
    for i in range(n):
        gi = [None if g is None else g[i] for g in grads]
        keep = True if i < n - 1 else retain_graph
        res = _core._grad(_core_inputs(outputs), gi, _core_inputs(inputs), bool(keep), bool(create_graph),
                          bool(allow_unused), bool(materialize_grads))
        for acc, r in zip(per_input, res):
            acc.append(r)
    from .. import stack

    return tuple(None if any(r is None for r in rs) else stack(rs) for rs in per_input)
