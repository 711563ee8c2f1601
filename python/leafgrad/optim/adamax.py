"""`torch.optim.Adamax`: Adam with the infinity norm; PyTorch's single-tensor update, in place
under no_grad."""
from .. import zeros_like
from .optimizer import (
    Optimizer, _check_betas, _check_nonnegative, _check_tensor_lr, _closure_loss, _step_tensor,
    _use_grad_for_differentiable, _value,
)

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adamax: steps by lr / (1 - beta1 ** t) * m / u, m a running average of the gradients and
    u the running maximum of |grad| (decayed by beta2).

    >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
    >>> opt = torch.optim.Adamax([w], lr=0.1)
    >>> (w ** 2).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([0.9000, 1.9000], requires_grad=True)
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        _check_tensor_lr(lr)
        _check_nonnegative(lr=lr, eps=eps)
        _check_betas(betas)
        _check_nonnegative(weight_decay=weight_decay)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        self._restore(state, foreach=None, maximize=False, differentiable=False, capturable=False)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        loss = _closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr, eps = _value(group["lr"]), group["eps"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                if param.grad.is_sparse:
                    raise RuntimeError("Adamax does not support sparse gradients")
                state = self.state[param]
                if len(state) == 0:
                    state["step"] = _step_tensor(0.0)
                    state["exp_avg"] = zeros_like(param)
                    state["exp_inf"] = zeros_like(param)
                grad = param.grad if not group["maximize"] else -param.grad
                state["step"].add_(1)
                if group["weight_decay"] != 0:
                    grad = grad.add(param, alpha=group["weight_decay"])
                exp_avg, exp_inf, target = state["exp_avg"], state["exp_inf"], param
                if param.is_complex():
                    from .. import view_as_real

                    grad, exp_avg, exp_inf, target = (view_as_real(t) for t in (grad, exp_avg, exp_inf, param))
                exp_avg.lerp_(grad, 1 - beta1)
                exp_inf.copy_(exp_inf.mul_(beta2).maximum(grad.abs().add_(eps)))
                clr = lr / (1 - beta1 ** state["step"].item())
                target.addcdiv_(exp_avg, exp_inf, value=-clr)
        return loss
