"""`torch.optim.Rprop`: resilient backpropagation (per-element step sizes grown by etaplus
while the gradient keeps its sign, shrunk by etaminus when it flips); PyTorch's single-tensor
update, in place under no_grad."""
from .. import zeros_like
from .adam import _to_scalar
from .nadam import _check_capturable, _scalar_state
from .optimizer import Optimizer, _check_tensor_lr, _closure_loss, _use_grad_for_differentiable

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Rprop: moves each element by its own step size against the sign of its gradient; the
    step size is multiplied by etaplus when the sign stays, by etaminus when it flips (and
    that step is skipped), within `step_sizes`.

    >>> w = torch.nn.Parameter(torch.tensor([1., -2.]))
    >>> opt = torch.optim.Rprop([w], lr=0.1)
    >>> for _ in range(2):
    ...     opt.zero_grad()
    ...     (w ** 2).sum().backward()
    ...     opt.step()
    >>> w
    Parameter containing:
    tensor([ 0.7800, -1.7800], requires_grad=True)
    >>> opt.state[w]['step_size']
    tensor([0.1200, 0.1200])
    """

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False,
                 foreach=None, maximize=False, differentiable=False):
        _check_tensor_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {
            "lr": lr,
            "etas": etas,
            "step_sizes": step_sizes,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        self._restore(state, foreach=None, maximize=False, differentiable=False, capturable=False)

    def _init_state(self, group, p):
        from .. import full_like

        state = self.state[p]
        if len(state) == 0:
            state["step"] = _scalar_state(0.0, p, group["capturable"])
            state["prev"] = zeros_like(p)
            if p.is_complex():
                # the real and imaginary parts step as two real numbers
                state["step_size"] = full_like(p.grad, complex(group["lr"], group["lr"]))
            else:
                state["step_size"] = full_like(p.grad, _to_scalar(group["lr"]))
        return state

    @_use_grad_for_differentiable
    def step(self, closure=None):
        loss = _closure_loss(closure)
        for group in self.param_groups:
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            capturable = group["capturable"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                if param.grad.is_sparse:
                    raise RuntimeError("Rprop does not support sparse gradients")
                state = self._init_state(group, param)
                grad = param.grad if not group["maximize"] else -param.grad
                prev, step_size, step = state["prev"], state["step_size"], state["step"]
                if capturable:
                    _check_capturable("params and state_steps", param, step)
                step.add_(1)
                if param.is_complex():
                    from .. import view_as_real

                    grad, prev, param, step_size = (view_as_real(t) for t in (grad, prev, param, step_size))
                # the sign of grad * prev, then the factor of each step size
                sign = grad.mul(prev.clone() if group["differentiable"] else prev).sign()
                if capturable:
                    from .. import where

                    sign.copy_(where(sign.gt(0), etaplus, sign))
                    sign.copy_(where(sign.lt(0), etaminus, sign))
                    sign.copy_(where(sign.eq(0), 1, sign))
                else:
                    sign[sign.gt(0)] = etaplus
                    sign[sign.lt(0)] = etaminus
                    sign[sign.eq(0)] = 1
                step_size.mul_(sign).clamp_(step_size_min, step_size_max)
                # where the sign flipped, no step (and no sign to compare with next time)
                grad = grad.clone()
                if capturable:
                    from .. import where

                    grad.copy_(where(sign.eq(etaminus), 0, grad))
                else:
                    grad[sign.eq(etaminus)] = 0
                param.addcmul_(grad.sign(), step_size, value=-1)
                prev.copy_(grad)
        return loss
