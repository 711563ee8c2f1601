"""`torch.optim.RAdam`: rectified Adam (plain bias-corrected momentum steps while the variance
estimate is unreliable, rho_t <= 5), L2 or decoupled weight decay; PyTorch's single-tensor
update, in place under no_grad."""
from .. import zeros_like
from .adam import _to_scalar
from .nadam import _check_capturable, _scalar_state
from .optimizer import (
    Optimizer, _check_betas, _check_nonnegative, _check_tensor_lr, _closure_loss,
    _use_grad_for_differentiable,
)

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """RAdam: Adam with its adaptive step scaled by the variance rectification r_t once the
    length of the approximated moving average rho_t exceeds 5; before that, SGD with
    bias-corrected momentum.

    >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
    >>> opt = torch.optim.RAdam([w], lr=0.1)
    >>> (w ** 2).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([0.8000, 1.6000], requires_grad=True)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_tensor_lr(lr)
        _check_nonnegative(lr=lr, eps=eps)
        _check_betas(betas)
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "decoupled_weight_decay": decoupled_weight_decay,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        self._restore(state, foreach=None, maximize=False, differentiable=False, decoupled_weight_decay=False,
                      capturable=False)

    def _init_state(self, group, p):
        state = self.state[p]
        if len(state) == 0:
            state["step"] = _scalar_state(0.0, p, group["capturable"])
            state["exp_avg"] = zeros_like(p)
            state["exp_avg_sq"] = zeros_like(p)
        return state

    @_use_grad_for_differentiable
    def step(self, closure=None):
        loss = _closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr = _to_scalar(group["lr"])
            weight_decay, eps = group["weight_decay"], group["eps"]
            capturable, differentiable = group["capturable"], group["differentiable"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                if param.grad.is_sparse:
                    raise RuntimeError("RAdam does not support sparse gradients")
                state = self._init_state(group, param)
                grad = param.grad if not group["maximize"] else -param.grad
                exp_avg, exp_avg_sq, step_t = state["exp_avg"], state["exp_avg_sq"], state["step"]
                if capturable:
                    _check_capturable("params and state_steps", param, step_t)
                if param.is_complex():
                    from .. import view_as_real

                    param, grad, exp_avg, exp_avg_sq = (view_as_real(t) for t in (param, grad, exp_avg, exp_avg_sq))
                step_t.add_(1)
                step = step_t if capturable else step_t.item()
                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        param.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(param, alpha=weight_decay)
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                bias_correction1 = 1 - beta1 ** step
                bias_correction2 = 1 - beta2 ** step
                bias_corrected_exp_avg = exp_avg / bias_correction1
                # the maximum and the current length of the approximated moving average
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2

                def rectification():
                    return ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5

                def adaptive_lr():
                    root = exp_avg_sq.sqrt()
                    root = root.add(eps) if differentiable else root.add_(eps)
                    return (bias_correction2 ** 0.5) / root

                if capturable:
                    from .. import where

                    update = where(rho_t > 5.0, rectification() * adaptive_lr(), 1.0)
                    param.add_(bias_corrected_exp_avg * lr * update, alpha=-1.0)
                elif rho_t > 5.0:
                    param.add_(bias_corrected_exp_avg * lr * adaptive_lr() * rectification(), alpha=-1.0)
                else:
                    param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
        return loss
