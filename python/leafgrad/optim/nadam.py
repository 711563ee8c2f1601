"""`torch.optim.NAdam`: Adam with Nesterov momentum (the momentum schedule mu_t and its running
product `mu_product`), L2 or decoupled weight decay; PyTorch's single-tensor update, in place
under no_grad."""
from .. import zeros_like
from .._core import Tensor
from .adam import _to_scalar
from .optimizer import (
    Optimizer, _check_betas, _check_nonnegative, _check_tensor_lr, _closure_loss, _step_tensor,
    _use_grad_for_differentiable,
)

__all__ = ["NAdam"]

# the device types PyTorch lets a `capturable` optimizer run on
_CAPTURABLE_DEVICES = ["cuda", "xpu", "hpu", "privateuseone", "xla"]


def _scalar_dtype():
    """The dtype of the optimizers' scalar state (PyTorch's `_get_scalar_dtype()`)."""
    from .. import float32
    from . import optimizer

    get = getattr(optimizer, "_scalar_dtype", None)
    return get() if get is not None else float32


def _scalar_state(value, p, capturable):
    """A 0-d tensor of the state (`step`, `mu_product`): on the parameter's device when
    `capturable`, else on the CPU, as PyTorch keeps it."""
    from .. import full

    if capturable:
        return full((), value, dtype=_scalar_dtype(), device=p.device)
    return _step_tensor(value)


def _check_capturable(what, *tensors):
    if not all(t.device.type == tensors[0].device.type for t in tensors) or \
            tensors[0].device.type not in _CAPTURABLE_DEVICES:
        raise AssertionError(f"If capturable=True, {what} must be on supported devices: {_CAPTURABLE_DEVICES}.")


class NAdam(Optimizer):
    """NAdam: Adam whose step mixes the gradient and the running average m with Nesterov's
    momentum schedule mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay)).

    >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
    >>> opt = torch.optim.NAdam([w], lr=0.1)
    >>> (w ** 2).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([0.8944, 1.8944], requires_grad=True)
    >>> sorted(opt.state[w])
    ['exp_avg', 'exp_avg_sq', 'mu_product', 'step']
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_tensor_lr(lr)
        _check_nonnegative(lr=lr, eps=eps)
        _check_betas(betas)
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "momentum_decay": momentum_decay,
            "decoupled_weight_decay": decoupled_weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        self._restore(state, maximize=False, foreach=None, capturable=False, differentiable=False,
                      decoupled_weight_decay=False)
        for group in self.param_groups:
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not isinstance(p_state["mu_product"], Tensor):
                    p_state["mu_product"] = _scalar_state(float(p_state["mu_product"]), p, group["capturable"])

    def _init_state(self, group, p):
        state = self.state[p]
        if len(state) == 0:
            state["step"] = _scalar_state(0.0, p, group["capturable"])
            state["mu_product"] = _scalar_state(1.0, p, group["capturable"])
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
            momentum_decay = group["momentum_decay"]
            capturable, differentiable = group["capturable"], group["differentiable"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                if param.grad.is_sparse:
                    raise RuntimeError("NAdam does not support sparse gradients")
                state = self._init_state(group, param)
                grad = param.grad if not group["maximize"] else -param.grad
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                mu_product, step_t = state["mu_product"], state["step"]
                if param.is_complex():
                    from .. import view_as_real

                    param, grad, exp_avg, exp_avg_sq = (view_as_real(t) for t in (param, grad, exp_avg, exp_avg_sq))
                if capturable:
                    _check_capturable("params, mu_products and state_steps", param, mu_product, step_t)
                step_t.add_(1)
                step = step_t if capturable else step_t.item()
                bias_correction2 = 1 - beta2 ** step
                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        param.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(param, alpha=weight_decay)
                # the momentum schedule at t and t + 1, and the running product of the former
                mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
                mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
                mu_product.mul_(mu)
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denom = exp_avg_sq.div(bias_correction2).sqrt()
                if differentiable or capturable:
                    # the step sizes as tensors, multiplied into the terms (autograd sees them)
                    denom = denom.add(eps)
                    mu_product_next = mu_product * mu_next
                    grad = grad * (-lr * (1.0 - mu) / (1.0 - mu_product))
                    exp_avg = exp_avg * (-lr * mu_next / (1.0 - mu_product_next))
                    param.addcdiv_(grad, denom)
                    param.addcdiv_(exp_avg, denom)
                else:
                    mu_product_next = mu_product.item() * mu_next
                    denom.add_(eps)
                    param.addcdiv_(grad, denom, value=(-lr * (1.0 - mu) / (1.0 - mu_product.item())))
                    param.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))
        return loss

