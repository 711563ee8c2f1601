"""`torch.optim.Adam` and `torch.optim.AdamW`: PyTorch's single-tensor update (bias corrections,
amsgrad, maximize, L2 or decoupled weight decay), in place under no_grad."""
from .._core import Tensor
from .optimizer import (
    Optimizer, _check_betas, _check_nonnegative, _closure_loss, _step_tensor,
    _use_grad_for_differentiable, _value,
)

__all__ = ["Adam", "AdamW"]


def _to_scalar(x):
    if isinstance(x, Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


class Adam(Optimizer):
    """Adam: steps by lr * m / (sqrt(v) + eps) from running averages m of the grads and v of
    their squares (bias-corrected); the first step moves each element by about lr.

    >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
    >>> opt = torch.optim.Adam([w], lr=0.1)
    >>> (w ** 2).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([0.9000, 1.9000], requires_grad=True)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if isinstance(lr, Tensor):
            if foreach and not capturable:
                raise ValueError("lr as a Tensor is not supported for capturable=False and foreach=True")
            if lr.numel() != 1:
                raise ValueError("Tensor lr must be 1-element")
        _check_nonnegative(lr=lr, eps=eps)
        _check_betas(betas)
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not ((isinstance(betas[0], float) and isinstance(betas[1], float))
                or (isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor))):
            raise ValueError("betas must be either both floats or both Tensors")
        betas = (_to_scalar(betas[0]), _to_scalar(betas[1]))
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")

    def __setstate__(self, state):
        self._restore(state, amsgrad=False, maximize=False, foreach=None, capturable=False, differentiable=False,
                      decoupled_weight_decay=False, fused=None)

    def _init_state(self, group, p):
        from .. import zeros_like

        state = self.state[p]
        if len(state) == 0:
            state["step"] = _step_tensor(0.0)
            state["exp_avg"] = zeros_like(p)
            state["exp_avg_sq"] = zeros_like(p)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = zeros_like(p)
        return state

    @_use_grad_for_differentiable
    def step(self, closure=None):
        loss = _closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = (_value(b) for b in group["betas"])
            lr = _value(group["lr"])
            weight_decay = group["weight_decay"]
            eps = group["eps"]
            amsgrad = group["amsgrad"]
            maximize = group["maximize"]
            decoupled = group["decoupled_weight_decay"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                state = self._init_state(group, param)
                grad = param.grad if not maximize else -param.grad
                exp_avg = state["exp_avg"]
                exp_avg_sq = state["exp_avg_sq"]
                step_t = state["step"]
                step_t.add_(1)
                if weight_decay != 0:
                    if decoupled:
                        param.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(param, alpha=weight_decay)
                target = param
                max_exp_avg_sq = state.get("max_exp_avg_sq") if amsgrad else None
                if param.is_complex():
                    from .. import view_as_real

                    grad = view_as_real(grad)
                    exp_avg = view_as_real(exp_avg)
                    exp_avg_sq = view_as_real(exp_avg_sq)
                    if amsgrad:
                        max_exp_avg_sq = view_as_real(max_exp_avg_sq)
                    target = view_as_real(param)
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                step = step_t.item()
                bias_correction1 = 1 - beta1 ** step
                bias_correction2 = 1 - beta2 ** step
                step_size = lr / bias_correction1
                bias_correction2_sqrt = bias_correction2 ** 0.5
                if amsgrad:
                    max_exp_avg_sq.copy_(max_exp_avg_sq.maximum(exp_avg_sq))
                    denom = max_exp_avg_sq.sqrt() / bias_correction2_sqrt + eps
                else:
                    denom = exp_avg_sq.sqrt() / bias_correction2_sqrt + eps
                target.addcdiv_(exp_avg, denom, value=-step_size)
        return loss


class AdamW(Adam):
    """Adam with decoupled weight decay: each step first scales the parameters by
    (1 - lr * weight_decay), then takes the Adam step.

    >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
    >>> opt = torch.optim.AdamW([w], lr=0.1, weight_decay=0.5)
    >>> w.sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([0.8500, 1.8000], requires_grad=True)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
