"""`torch.optim.Adadelta`: PyTorch's single-tensor update, in place under no_grad."""
from .. import zeros_like
from .optimizer import (
    Optimizer, _check_nonnegative, _check_tensor_lr, _closure_loss, _step_tensor,
    _use_grad_for_differentiable, _value,
)

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta: steps by lr * sqrt(d + eps) / sqrt(v + eps) * grad, v and d running averages
    (weight rho) of the squared gradients and of the squared steps.

    >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
    >>> opt = torch.optim.Adadelta([w])
    >>> (w ** 2).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([0.9968, 1.9968], requires_grad=True)
    """

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        _check_tensor_lr(lr)
        _check_nonnegative(lr=lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        _check_nonnegative(eps=eps, weight_decay=weight_decay)
        defaults = {
            "lr": lr,
            "rho": rho,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "capturable": capturable,
            "foreach": foreach,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        self._restore(state, foreach=None, maximize=False, differentiable=False, capturable=False)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        loss = _closure_loss(closure)
        for group in self.param_groups:
            lr, rho, eps = _value(group["lr"]), group["rho"], group["eps"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                if param.grad.is_sparse:
                    raise RuntimeError("Adadelta does not support sparse gradients")
                state = self.state[param]
                if len(state) == 0:
                    state["step"] = _step_tensor(0.0)
                    state["square_avg"] = zeros_like(param)
                    state["acc_delta"] = zeros_like(param)
                grad = param.grad if not group["maximize"] else -param.grad
                state["step"].add_(1)
                if group["weight_decay"] != 0:
                    grad = grad.add(param, alpha=group["weight_decay"])
                square_avg, acc_delta = state["square_avg"], state["acc_delta"]
                if param.is_complex():
                    from .. import view_as_real

                    square_avg, acc_delta, grad = (view_as_real(t) for t in (square_avg, acc_delta, grad))
                square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
                std = square_avg.add(eps).sqrt_()
                delta = acc_delta.add(eps).sqrt_()
                delta.div_(std).mul_(grad)
                acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
                if param.is_complex():
                    from .. import view_as_complex

                    delta = view_as_complex(delta)
                param.add_(delta, alpha=-lr)
        return loss
