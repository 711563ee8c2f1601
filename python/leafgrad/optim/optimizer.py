"""`torch.optim.Optimizer`: param_groups, per-parameter state, zero_grad, state_dict round trips
and PyTorch's repr (after torch/optim/optimizer.py)."""
import functools
import warnings
from collections import defaultdict
from collections.abc import Iterable
from copy import deepcopy
from itertools import chain

from .. import _core
from .._core import Tensor
from .._grad_mode import enable_grad

__all__ = ["Optimizer", "required"]


class _RequiredParameter:
    """Singleton class representing a required parameter for an Optimizer."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _typename(obj):
    from ..nn.modules.module import _typename as tn

    return tn(obj)


def _use_grad_for_differentiable(func):
    """Run `step` with grad mode set to the optimizer's `differentiable` flag (off by default)."""

    @functools.wraps(func)
    def _use_grad(self, *args, **kwargs):
        prev = _core.is_grad_enabled()
        try:
            _core._set_grad_enabled(bool(self.defaults["differentiable"]))
            return func(self, *args, **kwargs)
        finally:
            _core._set_grad_enabled(prev)

    return _use_grad


def _closure_loss(closure):
    if closure is None:
        return None
    with enable_grad():
        return closure()


class Optimizer:
    """Base class of the optimizers: `param_groups` (lists of parameters with their
    hyperparameters), per-parameter `state`, `zero_grad`, `step` and state_dict round trips.

    >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
    >>> opt = torch.optim.SGD([w], lr=0.1)
    >>> isinstance(opt, torch.optim.Optimizer), len(opt.param_groups), opt.param_groups[0]['lr']
    (True, 1, 0.1)
    >>> opt.param_groups[0]['params'][0] is w
    True
    """

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be "
                "an iterable of Tensors or dicts, but got " + _typename(params)
            )
        elif isinstance(params, set):
            warnings.warn(
                "optimizer parameters need to be organized in ordered collections, but "
                "the ordering of tensors in sets will change between runs. Please use a "
                "list instead. This will be an error in a future release.",
                FutureWarning,
                stacklevel=2,
            )
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.defaults.setdefault("differentiable", False)

    def _restore(self, state, **group_defaults):
        """`__setstate__` of an optimizer with a `step` counter: the base's, then the group
        options an older pickle may lack, and each parameter's `step` as PyTorch now keeps it
        (a float32 0-d tensor, not a number)."""
        Optimizer.__setstate__(self, state)
        for group in self.param_groups:
            for key, value in group_defaults.items():
                group.setdefault(key, value)
        for p_state in self.state.values():
            if "step" in p_state and not isinstance(p_state["step"], Tensor):
                p_state["step"] = _step_tensor(float(p_state["step"]))

    def __repr__(self):
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    def state_dict(self):
        """The optimizer's state and param_groups, with parameters replaced by their indices.

        >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
        >>> opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
        >>> w.sum().backward()
        >>> opt.step()
        >>> sd = opt.state_dict()
        >>> sd['state'], sd['param_groups'][0]['params']
        ({0: {'momentum_buffer': tensor([1., 1.])}}, [0])
        """
        param_mappings = {}
        start_index = 0

        def pack_group(group):
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update(
                {id(p): i for i, p in enumerate(group["params"], start_index) if id(p) not in param_mappings}
            )
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {
            (param_mappings[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()
        }
        return {"state": packed_state, "param_groups": param_groups}

    @staticmethod
    def _process_value_according_to_param_policy(param, value, param_id, param_groups, key=None):
        fused = False
        capturable = False
        for pg in param_groups:
            if param_id in pg["params"]:
                fused = pg.get("fused", False)
                capturable = pg.get("capturable", False)
                break
        if key == "step":
            if capturable or fused:
                from .. import float32

                return value.to(dtype=float32)
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype)
        return value

    def load_state_dict(self, state_dict):
        """Restore the state and hyperparameters from `state_dict()` of a like optimizer.

        >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
        >>> opt = torch.optim.SGD([w], lr=0.1)
        >>> opt.load_state_dict(torch.optim.SGD([torch.nn.Parameter(torch.ones(2))], lr=0.5).state_dict())
        >>> opt.param_groups[0]['lr'], opt.param_groups[0]['params'][0] is w
        (0.5, True)
        """
        state_dict = state_dict.copy()
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        param_lens = (len(g["params"]) for g in groups)
        saved_lens = (len(g["params"]) for g in saved_groups)
        if any(p_len != s_len for p_len, s_len in zip(param_lens, saved_lens)):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"
            )
        id_map = dict(
            zip(chain.from_iterable(g["params"] for g in saved_groups), chain.from_iterable(g["params"] for g in groups))
        )

        def _cast(param, value, param_id, param_groups, key=None):
            if isinstance(value, Tensor):
                return Optimizer._process_value_according_to_param_policy(param, value, param_id, param_groups, key)
            elif isinstance(value, dict):
                return {k: _cast(param, v, param_id=param_id, param_groups=param_groups, key=k)
                        for k, v in value.items()}
            elif isinstance(value, Iterable) and not isinstance(value, str):
                return type(value)(_cast(param, v, param_id=param_id, param_groups=param_groups) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, param_id=k, param_groups=state_dict["param_groups"])
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})

    def zero_grad(self, set_to_none=True):
        """Reset the grads of the optimized parameters: to None (default) or to zeros.

        >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
        >>> opt = torch.optim.SGD([w], lr=0.1)
        >>> (w * 3).sum().backward()
        >>> w.grad
        tensor([3., 3.])
        >>> opt.zero_grad()
        >>> w.grad is None
        True
        """
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure=None):
        raise NotImplementedError

    def add_param_group(self, param_group):
        """Add a group of parameters with its own hyperparameters (the defaults fill the rest).

        >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.ones(2))], lr=0.1)
        >>> opt.add_param_group({'params': [torch.nn.Parameter(torch.ones(3))], 'lr': 0.01})
        >>> [(g['lr'], g['momentum']) for g in opt.param_groups]
        [(0.1, 0), (0.01, 0)]
        """
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but "
                "the ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)

        extracted_param_tensors = []
        extracted_param_names = []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                extracted_param_names.append(param[0])
                extracted_param_tensors.append(param[1])
            else:
                extracted_param_tensors.append(param)
        param_group["params"] = extracted_param_tensors
        if len(extracted_param_names) != 0:
            if len(extracted_param_names) == len(extracted_param_tensors):
                param_group["param_names"] = extracted_param_names
            else:
                raise ValueError(
                    "all optimizer params should be with/without names. Some param names are missing"
                )

        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is " + _typename(param)
                )
            if not self.defaults.get("differentiable", None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    f"parameter group didn't specify a value of required optimization parameter {name}"
                )
            param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len({id(p) for p in params}):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; "
                "in future, this will cause an error; "
                "see github.com/pytorch/pytorch/issues/40967 for more information",
                stacklevel=3,
            )

        param_set = set()
        for group in self.param_groups:
            param_set.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                current_group_txt = "with names" if "param_names" in param_group else "without names"
                raise ValueError(
                    "all optimizer param groups should be with/without names. "
                    f"cannot add param group {current_group_txt} to the optimizer"
                )
        if not param_set.isdisjoint({id(p) for p in param_group["params"]}):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)


def _value(x):
    """A learning rate or beta given as a 1-element tensor, as a number."""
    return x.item() if isinstance(x, Tensor) else x


def _scalar_dtype():
    """PyTorch's `_get_scalar_dtype()`: float64 when that is the default dtype, else float32."""
    return _core.float64 if _core._get_default_dtype() == _core.float64 else _core.float32


def _step_tensor(v):
    """The `step` counter of an optimizer's state: a 0-d tensor of `_scalar_dtype()`, as
    PyTorch keeps it."""
    return _core._full((), v, _scalar_dtype())



def _check_tensor_lr(lr):
    """PyTorch's check of a learning rate given as a tensor: one element."""
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")


def _check_betas(betas):
    """PyTorch's check of Adam-style betas: each in [0, 1)."""
    for i, b in enumerate(betas[:2]):
        if not 0.0 <= b < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {b}")


def _check_nonnegative(**named):
    """PyTorch's checks of an optimizer's arguments that must be at least 0, in the order
    given: `learning rate` is named so, the others `<name> value` (ValueError)."""
    for name, value in named.items():
        if not 0.0 <= value:
            what = "learning rate" if name == "lr" else "epsilon value" if name == "eps" else f"{name} value"
            raise ValueError(f"Invalid {what}: {value}")
