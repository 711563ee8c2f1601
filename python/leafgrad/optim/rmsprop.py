"""`torch.optim.RMSprop`: PyTorch's single-tensor update (centered, momentum, weight decay,
maximize), in place under no_grad."""
from .. import zeros_like
from .optimizer import (
    Optimizer, _check_nonnegative, _check_tensor_lr, _closure_loss, _step_tensor,
    _use_grad_for_differentiable, _value,
)

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop: steps by lr * grad / (sqrt(v) + eps), v a running average (weight alpha) of the
    squared gradients (`centered`: minus the squared running average of the gradients).

    >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
    >>> opt = torch.optim.RMSprop([w], lr=0.01)
    >>> (w ** 2).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([0.9000, 1.9000], requires_grad=True)
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_tensor_lr(lr)
        _check_nonnegative(lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha)
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        self._restore(state, momentum=0, centered=False, foreach=None, maximize=False, differentiable=False,
                      capturable=False)

    def _init_state(self, group, p):
        state = self.state[p]
        if len(state) == 0:
            state["step"] = _step_tensor(0.0)
            state["square_avg"] = zeros_like(p)
            if group["momentum"] > 0:
                state["momentum_buffer"] = zeros_like(p)
            if group["centered"]:
                state["grad_avg"] = zeros_like(p)
        return state

    @_use_grad_for_differentiable
    def step(self, closure=None):
        loss = _closure_loss(closure)
        for group in self.param_groups:
            lr = _value(group["lr"])
            alpha, eps = group["alpha"], group["eps"]
            weight_decay, momentum = group["weight_decay"], group["momentum"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                if param.grad.is_sparse:
                    raise RuntimeError("RMSprop does not support sparse gradients")
                state = self._init_state(group, param)
                grad = param.grad if not group["maximize"] else -param.grad
                state["step"].add_(1)
                if weight_decay != 0:
                    grad = grad.add(param, alpha=weight_decay)
                square_avg = state["square_avg"]
                grad_avg = state.get("grad_avg")
                buf = state.get("momentum_buffer")
                target = param
                if param.is_complex():
                    from .. import view_as_real

                    grad, square_avg, target = view_as_real(grad), view_as_real(square_avg), view_as_real(param)
                    grad_avg = None if grad_avg is None else view_as_real(grad_avg)
                    buf = None if buf is None else view_as_real(buf)
                square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
                if group["centered"]:
                    grad_avg.lerp_(grad, 1 - alpha)
                    avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
                else:
                    avg = square_avg.sqrt()
                avg = avg.add_(eps)
                if momentum > 0:
                    buf.mul_(momentum).addcdiv_(grad, avg, value=1)
                    target.add_(buf, alpha=-lr)
                else:
                    target.addcdiv_(grad, avg, value=-lr)
        return loss
