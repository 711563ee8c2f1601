"""`torch.optim.Adagrad`: PyTorch's single-tensor update (lr decay, weight decay, maximize), in
place under no_grad; its state is made when the optimizer is, as PyTorch's."""
from .. import full_like
from .optimizer import (
    Optimizer, _check_nonnegative, _check_tensor_lr, _closure_loss, _step_tensor,
    _use_grad_for_differentiable, _value,
)

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad: steps by lr * grad / (sqrt(s) + eps), s the sum of the squared gradients so far
    (lr decayed as lr / (1 + (step - 1) * lr_decay)).

    >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
    >>> opt = torch.optim.Adagrad([w], lr=0.1)
    >>> (w ** 2).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([0.9000, 1.9000], requires_grad=True)
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check_tensor_lr(lr)
        _check_nonnegative(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay, initial_accumulator_value=initial_accumulator_value, eps=eps)
        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = _step_tensor(0.0)
                v = group["initial_accumulator_value"]
                state["sum"] = full_like(p, complex(v, v) if p.is_complex() else v)

    def __setstate__(self, state):
        self._restore(state, foreach=None, maximize=False, differentiable=False, fused=None)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        loss = _closure_loss(closure)
        for group in self.param_groups:
            lr = _value(group["lr"])
            for param in group["params"]:
                if param.grad is None:
                    continue
                if param.grad.is_sparse:
                    raise RuntimeError("Adagrad: sparse gradients are not supported by leafgrad")
                state = self.state[param]
                state["step"].add_(1)
                step = state["step"].item()
                grad = param.grad if not group["maximize"] else -param.grad
                if group["weight_decay"] != 0:
                    grad = grad.add(param, alpha=group["weight_decay"])
                clr = lr / (1 + (step - 1) * group["lr_decay"])
                state_sum, target = state["sum"], param
                if param.is_complex():
                    from .. import view_as_real

                    grad, state_sum, target = view_as_real(grad), view_as_real(state_sum), view_as_real(param)
                state_sum.addcmul_(grad, grad, value=1)
                std = state_sum.sqrt().add_(group["eps"])
                target.addcdiv_(grad, std, value=-clr)
        return loss
