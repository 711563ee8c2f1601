"""Parameters as one flat vector and back."""

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_param_device(param, old_param_device):
    if old_param_device is None:
        return param.get_device() if param.device.type == "cuda" else -1
    if param.device.type == "cuda":
        warn = param.get_device() != old_param_device
    else:
        warn = old_param_device != -1
    if warn:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return old_param_device


def parameters_to_vector(parameters):
    """The parameters flattened and concatenated into one vector.

    >>> lin = torch.nn.Linear(2, 1)
    >>> torch.nn.utils.parameters_to_vector(lin.parameters()).shape
    torch.Size([3])
    """
    from ... import cat

    param_device = None
    vec = []
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        vec.append(param.view(-1))
    return cat(vec)


def vector_to_parameters(vec, parameters):
    """Write the slices of the vector `vec` into the parameters (their `.data`), in order.

    >>> lin = torch.nn.Linear(2, 1)
    >>> torch.nn.utils.vector_to_parameters(torch.tensor([1., 2., 3.]), lin.parameters())
    >>> lin.weight, lin.bias
    (Parameter containing:
    tensor([[1., 2.]], requires_grad=True), Parameter containing:
    tensor([3.], requires_grad=True))
    """
    from ... import Tensor

    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    param_device = None
    pointer = 0
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
