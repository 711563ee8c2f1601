"""`torch.optim.ASGD`: averaged stochastic gradient descent (state `eta`, `mu`, `ax`);
PyTorch's single-tensor update, in place under no_grad."""
from .. import zeros_like
from .._core import Tensor
from .adam import _to_scalar
from .nadam import _check_capturable, _scalar_dtype
from .optimizer import Optimizer, _check_tensor_lr, _closure_loss, _use_grad_for_differentiable

__all__ = ["ASGD"]


def _scalar(value, p):
    """A 0-d tensor on the parameter's device (ASGD keeps all its scalars there)."""
    from .. import full

    return full((), value, dtype=_scalar_dtype(), device=p.device)


class ASGD(Optimizer):
    """Averaged SGD: steps by -eta * grad after decaying the parameters by (1 - lambd * eta),
    with eta = lr / (1 + lambd * lr * t) ** alpha, and keeps the running average `ax` of the
    iterates (plain copies until step t0).

    >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
    >>> opt = torch.optim.ASGD([w], lr=0.1)
    >>> (w ** 2).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([0.8000, 1.6000], requires_grad=True)
    >>> sorted(opt.state[w])
    ['ax', 'eta', 'mu', 'step']
    """

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        _check_tensor_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lambd:
            raise ValueError(f"Invalid lambd value: {lambd}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr,
            "lambd": lambd,
            "alpha": alpha,
            "t0": t0,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        Optimizer.__setstate__(self, state)
        for group in self.param_groups:
            for key, value in (("foreach", None), ("maximize", False), ("differentiable", False),
                               ("capturable", False)):
                group.setdefault(key, value)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0:
                    for key in ("step", "eta", "mu"):
                        if not isinstance(p_state[key], Tensor):
                            p_state[key] = _scalar(float(p_state[key]), p)

    def _init_state(self, group, p):
        state = self.state[p]
        if len(state) == 0:
            from .. import as_tensor

            state["step"] = _scalar(0.0, p)
            state["eta"] = as_tensor(_to_scalar(group["lr"]), device=p.device, dtype=_scalar_dtype()).clone().detach()
            state["mu"] = _scalar(1.0, p)
            state["ax"] = zeros_like(p)
        return state

    @_use_grad_for_differentiable
    def step(self, closure=None):
        loss = _closure_loss(closure)
        for group in self.param_groups:
            lr = _to_scalar(group["lr"])
            lambd, alpha, t0 = group["lambd"], group["alpha"], group["t0"]
            weight_decay, capturable = group["weight_decay"], group["capturable"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                if param.grad.is_sparse:
                    raise RuntimeError("ASGD does not support sparse gradients")
                state = self._init_state(group, param)
                grad = param.grad if not group["maximize"] else -param.grad
                mu, ax, eta, step_t = state["mu"], state["ax"], state["eta"], state["step"]
                if capturable:
                    _check_capturable("params, mus, etas, and state_steps", param, mu, eta, step_t)
                if param.is_complex():
                    from .. import view_as_real

                    grad, param, ax = view_as_real(grad), view_as_real(param), view_as_real(ax)
                step_t.add_(1)
                if weight_decay != 0:
                    grad = grad.add(param, alpha=weight_decay)
                if capturable:
                    param.mul_(1 - lambd * eta)
                    param.addcmul_(grad, eta, value=-1)
                else:
                    eta_value = eta.item()
                    param.mul_(1 - lambd * eta_value)  # the decay
                    param.add_(grad, alpha=-eta_value)
                # the running average of the iterates (a copy while mu is 1)
                if capturable or mu.item() != 1:
                    ax.add_(param.sub(ax).mul_(mu))
                else:
                    ax.copy_(param)
                if capturable:
                    from .. import maximum, ones_like

                    eta.copy_(lr / ((1 + lambd * lr * step_t) ** alpha))
                    mu.copy_(1 / maximum(step_t - t0, ones_like(step_t)))
                else:
                    from .. import as_tensor

                    step = step_t.item()
                    eta.copy_(as_tensor(lr / ((1 + lambd * lr * step) ** alpha)))
                    mu.copy_(as_tensor(1 / max(1, step - t0)))
        return loss
