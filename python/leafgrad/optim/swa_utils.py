"""`torch.optim.swa_utils`: stochastic weight averaging and exponential moving averages of a
model's parameters (`AveragedModel`, the `get_*_avg_fn` updates), the SWA learning-rate schedule
(`SWALR`) and `update_bn`, with PyTorch's formulas in its order of operations (on the CPU the
default SWA update is `averaged + (current - averaged) / (n + 1)` per parameter, as PyTorch's
CPU path; the multi-tensor updates are lerps), so the averaged weights are PyTorch's."""
import itertools
import math
import warnings
from copy import deepcopy

from .. import _core
from .._grad_mode import no_grad
from ..nn.modules.module import Module
from ._cyclic_lr import _format_param
from .lr_scheduler import LRScheduler

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn", "get_swa_multi_avg_fn",
           "get_ema_avg_fn", "get_swa_avg_fn"]


def _torch():
    import leafgrad

    return leafgrad


def _check_decay(decay):
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")


def get_ema_multi_avg_fn(decay=0.999):
    """An EMA update of lists of parameters: each averaged one lerped towards the current one by
    1 - decay (integers: `avg * decay + cur * (1 - decay)`).

    >>> avg, cur = [torch.zeros(2)], [torch.ones(2)]
    >>> torch.optim.swa_utils.get_ema_multi_avg_fn(0.75)(avg, cur, 1); avg[0]
    tensor([0.2500, 0.2500])
    """
    _check_decay(decay)

    def ema_update(ema_param_list, current_param_list, _):
        with no_grad():
            if ema_param_list[0].is_floating_point() or ema_param_list[0].is_complex():
                for e, c in zip(ema_param_list, current_param_list):
                    e.lerp_(c, 1 - decay)
            else:
                for e, c in zip(ema_param_list, current_param_list, strict=True):
                    e.copy_(e * decay + c * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn():
    """An SWA update of lists of parameters: each averaged one lerped towards the current one by
    1 / (n + 1).

    >>> avg, cur = [torch.zeros(2)], [torch.ones(2)]
    >>> torch.optim.swa_utils.get_swa_multi_avg_fn()(avg, cur, 3); avg[0]
    tensor([0.2500, 0.2500])
    """
    def swa_update(averaged_param_list, current_param_list, num_averaged):
        with no_grad():
            if averaged_param_list[0].is_floating_point() or averaged_param_list[0].is_complex():
                weight = float(1 / (num_averaged + 1))
                for a, c in zip(averaged_param_list, current_param_list):
                    a.lerp_(c, weight)
            else:
                for a, c in zip(averaged_param_list, current_param_list):
                    diff = c - a
                    if isinstance(num_averaged, _core.Tensor):
                        a.addcdiv_(diff, num_averaged + 1)
                    else:
                        a.add_(diff, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay=0.999):
    """An EMA update of one parameter: decay * averaged + (1 - decay) * current.

    >>> torch.optim.swa_utils.get_ema_avg_fn(0.75)(torch.zeros(1), torch.ones(1), 1)
    tensor([0.2500])
    """
    _check_decay(decay)

    def ema_update(ema_param, current_param, num_averaged):
        with no_grad():
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    """An SWA update of one parameter: averaged + (current - averaged) / (n + 1).

    >>> torch.optim.swa_utils.get_swa_avg_fn()(torch.zeros(1), torch.ones(1), 3)
    tensor([0.2500])
    """
    def swa_update(averaged_param, current_param, num_averaged):
        with no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A copy of `model` whose parameters (and buffers, with `use_buffers`) are the running SWA
    average (or `avg_fn`/`multi_avg_fn`, such as an EMA) of the model's at each
    `update_parameters(model)`; `n_averaged` counts the updates.

    >>> m = torch.nn.Linear(1, 1)
    >>> swa = torch.optim.swa_utils.AveragedModel(m)
    >>> swa.update_parameters(m); int(swa.n_averaged)
    1
    """

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", _torch().tensor(0, dtype=_core.int64, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        """Fold `model`'s current parameters into the average (copy them the first time)."""
        if self.use_buffers:
            mine = list(itertools.chain(self.module.parameters(), self.module.buffers()))
            theirs = list(itertools.chain(model.parameters(), model.buffers()))
        else:
            mine, theirs = list(self.parameters()), list(model.parameters())
        first = bool(self.n_averaged == 0)
        pairs = []
        for a, m in zip(mine, theirs):
            m_ = m.detach().to(a.device)
            pairs.append((a.detach(), m_))
            if first:
                a.detach().copy_(m_)
        if self.n_averaged > 0:
            if self.multi_avg_fn is not None or self.avg_fn is None:
                groups = {}
                for a, m in pairs:
                    groups.setdefault((str(a.device), a.dtype), ([], []))
                    groups[(str(a.device), a.dtype)][0].append(a)
                    groups[(str(a.device), a.dtype)][1].append(m)
                for (device, _dtype), (avgs, currents) in groups.items():
                    n = self.n_averaged.to(device)
                    if self.multi_avg_fn:
                        self.multi_avg_fn(avgs, currents, n)
                    elif device.startswith("cuda"):
                        get_swa_multi_avg_fn()(avgs, currents, n)
                    else:  # PyTorch's CPU path: one parameter at a time
                        avg = get_swa_avg_fn()
                        for a, m in zip(avgs, currents):
                            a.copy_(avg(a, m, n))
            else:
                for a, m in pairs:
                    a.copy_(self.avg_fn(a, m, self.n_averaged.to(a.device)))
        if not self.use_buffers:
            # the buffers follow the model's (batch-norm statistics: see update_bn)
            for b_avg, b_model in zip(self.module.buffers(), model.buffers(), strict=True):
                b_avg.detach().copy_(b_model.detach().to(b_avg.device))
        self.n_averaged += 1


def update_bn(loader, model, device=None):
    """Recompute the batch-norm running statistics of `model` (usually an AveragedModel) over
    one pass of `loader` (the first element of list/tuple batches), as a cumulative average.

    >>> m = torch.nn.Sequential(torch.nn.BatchNorm1d(1))
    >>> torch.optim.swa_utils.update_bn([torch.tensor([[1.0], [3.0]])], m)
    >>> m[0].running_mean, m[0].momentum
    (tensor([2.]), 0.1)
    """
    from ..nn.modules.normalization import _BatchNorm

    with no_grad():
        momenta = {}
        for module in model.modules():
            if isinstance(module, _BatchNorm):
                module.reset_running_stats()
                momenta[module] = module.momentum
        if not momenta:
            return
        was_training = model.training
        model.train()
        for module in momenta:
            module.momentum = None
        for batch in loader:
            if isinstance(batch, (list, tuple)):
                batch = batch[0]
            if device is not None:
                batch = batch.to(device)
            model(batch)
        for module, momentum in momenta.items():
            module.momentum = momentum
        model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's learning rate to `swa_lr` over `anneal_epochs` steps ('cos' or
    'linear'), then hold it.

    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> sched = torch.optim.swa_utils.SWALR(opt, swa_lr=0.1, anneal_epochs=2, anneal_strategy="linear")
    >>> [round(g["lr"], 4) for g in opt.param_groups]
    [1.0]
    >>> opt.step(); sched.step(); opt.step(); sched.step(); sched.get_last_lr()
    [0.1]
    """

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1):
        for value, group in zip(_format_param("swa_lr", optimizer, swa_lr), optimizer.param_groups, strict=True):
            group["swa_lr"] = value
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                          UserWarning, stacklevel=2)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        # the lr before annealing, recovered from the current one and the previous step's alpha
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        prev = [self._get_initial_lr(g["lr"], g["swa_lr"], prev_alpha) for g in self.optimizer.param_groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(self.optimizer.param_groups, prev, strict=True)]

    def _set_anneal_func(self, anneal_strategy):
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self):
        """Everything but the optimizer and the anneal function (its name is kept)."""
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
