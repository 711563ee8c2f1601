"""torch.optim: SGD, Adam, AdamW and the Optimizer base (SPEC §15; issue 3).

Update math is checked against hand-computed values; every test also passes with
LEAFGRAD_TEST_TORCH=1.
"""

import math

import leafgrad as torch
import pytest
from leafgrad import nn
from support import exact

SGD_REPR = """SGD (
Parameter Group 0
    dampening: 0
    differentiable: False
    foreach: None
    fused: None
    lr: 0.1
    maximize: False
    momentum: 0
    nesterov: False
    weight_decay: 0
)"""

ADAM_REPR = """Adam (
Parameter Group 0
    amsgrad: False
    betas: (0.9, 0.999)
    capturable: False
    decoupled_weight_decay: False
    differentiable: False
    eps: 1e-08
    foreach: None
    fused: None
    lr: 0.001
    maximize: False
    weight_decay: 0
)"""

ADAMW_REPR = """AdamW (
Parameter Group 0
    amsgrad: False
    betas: (0.9, 0.999)
    capturable: False
    decoupled_weight_decay: True
    differentiable: False
    eps: 1e-08
    foreach: None
    fused: None
    lr: 0.001
    maximize: False
    weight_decay: 0.01
)"""


def param(values, dtype=torch.float64):
    return nn.Parameter(torch.tensor(values, dtype=dtype))


def set_grad(p, values):
    p.grad = torch.tensor(values, dtype=p.dtype)


def close(t, values, tol=1e-12):
    return torch.allclose(t.detach(), torch.tensor(values, dtype=t.dtype), rtol=0, atol=tol)


# ----------------------------------------------------------------------------- SPEC §15
def test_sgd_step_keeps_the_same_leaf_and_bumps_version():
    lin = nn.Linear(3, 2)
    w, b = lin.weight, lin.bias
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    lin(torch.ones(4, 3)).sum().backward()
    before = w.detach().clone()
    version = w._version
    opt.step()
    assert lin.weight is w and lin.bias is b
    for p in (w, b):
        assert p.is_leaf and p.requires_grad and p.grad_fn is None
    assert w._version == version + 1
    assert torch.allclose(w.detach(), before - 0.4)
    assert torch.is_grad_enabled()


def test_sgd_skips_parameters_without_grad():
    a, b = param([1.0]), param([2.0])
    set_grad(a, [1.0])
    version = b._version
    torch.optim.SGD([a, b], lr=0.5).step()
    assert close(a, [0.5]) and close(b, [2.0]) and b._version == version


def test_sgd_repr():
    lin = nn.Linear(3, 2)
    assert repr(torch.optim.SGD(lin.parameters(), lr=0.1)) == SGD_REPR


def test_adam_and_adamw_repr():
    lin = nn.Linear(3, 2)
    assert repr(torch.optim.Adam(lin.parameters())) == ADAM_REPR
    assert repr(torch.optim.AdamW(lin.parameters())) == ADAMW_REPR


def test_non_leaf_parameter_is_refused():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(ValueError, match=exact("can't optimize a non-leaf Tensor")):
        torch.optim.SGD([x * 2], lr=0.1)


def test_tensor_instead_of_iterable_is_refused():
    with pytest.raises(TypeError, match=exact(
        "params argument given to the optimizer should be an iterable of Tensors or dicts, "
        "but got torch.FloatTensor"
    )):
        torch.optim.SGD(torch.ones(2, requires_grad=True), lr=0.1)


def test_empty_parameter_list_is_refused():
    with pytest.raises(ValueError, match=exact("optimizer got an empty parameter list")):
        torch.optim.SGD([], lr=0.1)
    with pytest.raises(ValueError, match=exact("optimizer got an empty parameter list")):
        torch.optim.Adam(nn.ReLU().parameters())


def test_non_tensor_parameter_is_refused():
    with pytest.raises(TypeError, match=exact("optimizer can only optimize Tensors, but one of the params is int")):
        torch.optim.SGD([1], lr=0.1)


def test_argument_validation():
    p = [param([1.0])]
    with pytest.raises(ValueError, match=exact("Invalid learning rate: -0.1")):
        torch.optim.SGD(p, lr=-0.1)
    with pytest.raises(ValueError, match=exact("Invalid momentum value: -1")):
        torch.optim.SGD(p, lr=0.1, momentum=-1)
    with pytest.raises(ValueError, match=exact("Invalid weight_decay value: -1")):
        torch.optim.SGD(p, lr=0.1, weight_decay=-1)
    with pytest.raises(ValueError, match=exact("Nesterov momentum requires a momentum and zero dampening")):
        torch.optim.SGD(p, lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match=exact("Invalid beta parameter at index 1: 1.0")):
        torch.optim.Adam(p, betas=(0.9, 1.0))
    with pytest.raises(ValueError, match=exact("Invalid epsilon value: -1.0")):
        torch.optim.Adam(p, eps=-1.0)


# ----------------------------------------------------------------------------- zero_grad, groups
def test_optimizer_zero_grad():
    lin = nn.Linear(3, 2)
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    lin(torch.ones(1, 3)).sum().backward()
    opt.zero_grad()
    assert lin.weight.grad is None and lin.bias.grad is None
    lin(torch.ones(1, 3)).sum().backward()
    g = lin.weight.grad
    opt.zero_grad(set_to_none=False)
    assert lin.weight.grad is g and torch.equal(g, torch.zeros(2, 3))


def test_param_groups_and_defaults():
    a, b = param([1.0]), param([1.0])
    opt = torch.optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5, "momentum": 0.9}], lr=0.1)
    assert len(opt.param_groups) == 2
    g0, g1 = opt.param_groups
    assert g0["params"] == [a] and g0["lr"] == 0.1 and g0["momentum"] == 0
    assert g1["params"][0] is b and g1["lr"] == 0.5 and g1["momentum"] == 0.9
    assert opt.defaults["lr"] == 0.1
    set_grad(a, [1.0])
    set_grad(b, [1.0])
    opt.step()
    assert close(a, [0.9]) and close(b, [0.5])
    assert "Parameter Group 1" in repr(opt)


def test_add_param_group():
    a, b = param([1.0]), param([1.0])
    opt = torch.optim.SGD([a], lr=0.1)
    opt.add_param_group({"params": [b], "lr": 0.01})
    assert opt.param_groups[1]["lr"] == 0.01 and opt.param_groups[1]["nesterov"] is False
    with pytest.raises(ValueError, match=exact("some parameters appear in more than one parameter group")):
        opt.add_param_group({"params": [a]})


def test_lr_can_be_changed_in_param_groups():
    p = param([1.0])
    opt = torch.optim.SGD([p], lr=0.1)
    for g in opt.param_groups:
        g["lr"] = 0.25
    set_grad(p, [2.0])
    opt.step()
    assert close(p, [0.5])


def test_step_with_closure():
    p = param([3.0])
    opt = torch.optim.SGD([p], lr=0.1)

    def closure():
        opt.zero_grad()
        assert torch.is_grad_enabled()
        loss = (p ** 2).sum()
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert loss.item() == 9.0
    assert close(p, [3.0 - 0.1 * 6.0])


def test_step_does_not_record_graph():
    p = param([1.0, 2.0])
    set_grad(p, [1.0, 1.0])
    torch.optim.Adam([p], lr=0.1).step()
    assert p.grad_fn is None and p.is_leaf


# ----------------------------------------------------------------------------- SGD math
def test_sgd_momentum_dampening_by_hand():
    p = param([1.0])
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9, dampening=0.5)
    expected, buf = 1.0, None
    for g in (1.0, 2.0, -1.0):
        set_grad(p, [g])
        opt.step()
        buf = g if buf is None else 0.9 * buf + 0.5 * g
        expected -= 0.1 * buf
        assert close(p, [expected])
        assert close(opt.state[p]["momentum_buffer"], [buf])


def test_sgd_nesterov_by_hand():
    p = param([1.0])
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9, nesterov=True)
    expected, buf = 1.0, None
    for g in (1.0, 2.0, -1.0):
        set_grad(p, [g])
        opt.step()
        buf = g if buf is None else 0.9 * buf + g
        expected -= 0.1 * (g + 0.9 * buf)
        assert close(p, [expected])


def test_sgd_weight_decay_and_maximize_by_hand():
    p = param([2.0])
    set_grad(p, [1.0])
    torch.optim.SGD([p], lr=0.1, weight_decay=0.5).step()
    assert close(p, [2.0 - 0.1 * (1.0 + 0.5 * 2.0)])
    q = param([2.0])
    set_grad(q, [1.0])
    torch.optim.SGD([q], lr=0.1, maximize=True).step()
    assert close(q, [2.1])


def test_sgd_momentum_buffer_is_a_copy_of_the_first_grad():
    p = param([1.0])
    set_grad(p, [1.0])
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    opt.step()
    buf = opt.state[p]["momentum_buffer"]
    assert buf is not p.grad and not buf.requires_grad
    p.grad.fill_(5.0)
    assert close(buf, [1.0])


# ----------------------------------------------------------------------------- Adam math
def adam_reference(w, grads, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False,
                   maximize=False, decoupled=False):
    """PyTorch's Adam update in plain Python floats (one scalar parameter)."""
    b1, b2 = betas
    m = v = vmax = 0.0
    out = []
    for t, g in enumerate(grads, 1):
        g = -g if maximize else g
        if weight_decay:
            if decoupled:
                w *= 1 - lr * weight_decay
            else:
                g = g + weight_decay * w
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        bc1, bc2 = 1 - b1 ** t, 1 - b2 ** t
        vmax = max(vmax, v)
        denom = math.sqrt(vmax if amsgrad else v) / math.sqrt(bc2) + eps
        w -= lr / bc1 * m / denom
        out.append(w)
    return out


GRADS = [0.5, -1.5, 2.0, 0.25, -0.1]


@pytest.mark.parametrize("kwargs", [
    {},
    {"lr": 0.1},
    {"lr": 0.05, "betas": (0.8, 0.99), "eps": 1e-3},
    {"lr": 0.1, "weight_decay": 0.1},
    {"lr": 0.1, "amsgrad": True},
    {"lr": 0.1, "maximize": True},
    {"lr": 0.1, "betas": (0.3, 0.9)},
], ids=["default", "lr", "betas_eps", "l2", "amsgrad", "maximize", "small_beta1"])
def test_adam_matches_reference(kwargs):
    p = param([1.0])
    opt = torch.optim.Adam([p], **kwargs)
    expected = adam_reference(1.0, GRADS, **kwargs)
    for g, e in zip(GRADS, expected):
        set_grad(p, [g])
        opt.step()
        assert close(p, [e], tol=1e-12), (p.item(), e)


def test_adam_first_step_is_lr_times_sign():
    p = param([1.0, -2.0, 3.0])
    set_grad(p, [0.001, -5.0, 100.0])
    torch.optim.Adam([p], lr=0.1).step()
    assert close(p, [0.9, -1.9, 2.9], tol=1e-6)


def test_adamw_matches_reference():
    p = param([1.0])
    opt = torch.optim.AdamW([p], lr=0.1, weight_decay=0.1)
    expected = adam_reference(1.0, GRADS, lr=0.1, weight_decay=0.1, decoupled=True)
    for g, e in zip(GRADS, expected):
        set_grad(p, [g])
        opt.step()
        assert close(p, [e])
    assert opt.param_groups[0]["decoupled_weight_decay"] is True


def test_adamw_decays_even_with_zero_grad():
    p = param([2.0])
    set_grad(p, [0.0])
    torch.optim.AdamW([p], lr=0.1, weight_decay=0.5).step()
    assert close(p, [2.0 * (1 - 0.05)])


def test_adam_state():
    p = param([1.0, 2.0])
    opt = torch.optim.Adam([p], lr=0.1, amsgrad=True)
    for g in ([1.0, 2.0], [3.0, -1.0]):
        set_grad(p, g)
        opt.step()
    state = opt.state[p]
    assert sorted(state) == ["exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step"]
    assert state["step"].item() == 2.0 and state["step"].dim() == 0
    assert close(state["exp_avg"], [0.9 * 0.1 * 1.0 + 0.1 * 3.0, 0.9 * 0.1 * 2.0 - 0.1])
    v = [0.999 * 0.001 * 1.0 + 0.001 * 9.0, 0.999 * 0.001 * 4.0 + 0.001 * 1.0]
    assert close(state["exp_avg_sq"], v)
    assert close(state["max_exp_avg_sq"], [max(v[0], 0.001), max(v[1], 0.004)])


def test_adam_float32_parameters():
    lin = nn.Linear(3, 2)
    opt = torch.optim.Adam(lin.parameters(), lr=0.01)
    w = lin.weight
    lin(torch.ones(1, 3)).sum().backward()
    opt.step()
    assert lin.weight is w and w.dtype == torch.float32 and w.is_leaf
    assert opt.state[w]["exp_avg"].dtype == torch.float32


# ----------------------------------------------------------------------------- state_dict
def test_sgd_state_dict_layout():
    lin = nn.Linear(2, 1)
    opt = torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9)
    lin(torch.ones(1, 2)).sum().backward()
    opt.step()
    sd = opt.state_dict()
    assert sorted(sd) == ["param_groups", "state"]
    assert sorted(sd["state"]) == [0, 1]
    assert torch.equal(sd["state"][0]["momentum_buffer"], torch.ones(1, 2))
    assert sd["param_groups"] == [{
        "lr": 0.1, "momentum": 0.9, "dampening": 0, "weight_decay": 0, "nesterov": False,
        "maximize": False, "foreach": None, "differentiable": False, "fused": None, "params": [0, 1],
    }]


def test_adam_state_dict_round_trip_continues_identically():
    torch.manual_seed(0)
    x = torch.randn(8, 3)

    def run(model, opt, steps):
        for _ in range(steps):
            opt.zero_grad()
            (model(x) ** 2).mean().backward()
            opt.step()

    a, b, ref = nn.Linear(3, 2), nn.Linear(3, 2), nn.Linear(3, 2)
    ref.load_state_dict(a.state_dict())
    run(ref, torch.optim.Adam(ref.parameters(), lr=0.05), 5)

    opt_a = torch.optim.Adam(a.parameters(), lr=0.05)
    run(a, opt_a, 3)
    b.load_state_dict(a.state_dict())
    opt_b = torch.optim.Adam(b.parameters(), lr=0.01)
    opt_b.load_state_dict(opt_a.state_dict())
    assert opt_b.param_groups[0]["lr"] == 0.05
    assert opt_b.param_groups[0]["params"][0] is b.weight
    assert opt_b.state[b.weight]["step"].item() == 3.0
    # the loaded state holds the same tensors as the saved one (PyTorch does not copy them)
    assert opt_b.state[b.weight]["exp_avg"] is opt_a.state[a.weight]["exp_avg"]
    run(b, opt_b, 2)
    assert torch.equal(b.weight, ref.weight) and torch.equal(b.bias, ref.bias)


def test_load_state_dict_group_mismatch():
    a, b = param([1.0]), param([1.0])
    opt = torch.optim.SGD([a, b], lr=0.1)
    other = torch.optim.SGD([a], lr=0.1)
    with pytest.raises(ValueError, match=exact(
        "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"
    )):
        other.load_state_dict(opt.state_dict())
    two = torch.optim.SGD([{"params": [a]}, {"params": [b]}], lr=0.1)
    with pytest.raises(ValueError, match=exact("loaded state dict has a different number of parameter groups")):
        two.load_state_dict(opt.state_dict())


# ----------------------------------------------------------------------------- training loops
@pytest.mark.parametrize("make_opt", [
    lambda ps: torch.optim.SGD(ps, lr=0.1),
    lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9, nesterov=True),
    lambda ps: torch.optim.Adam(ps, lr=0.05),
    lambda ps: torch.optim.AdamW(ps, lr=0.05),
], ids=["sgd", "nesterov", "adam", "adamw"])
def test_optimizers_fit_a_line(make_opt):
    torch.manual_seed(0)
    x = torch.linspace(-1, 1, 32).unsqueeze(1)
    y = 3 * x - 0.5
    model = nn.Linear(1, 1)
    opt = make_opt(model.parameters())
    for _ in range(300):
        opt.zero_grad()
        loss = nn.MSELoss()(model(x), y)
        loss.backward()
        opt.step()
    assert loss.item() < 1e-3
    assert abs(model.weight.item() - 3) < 0.1 and abs(model.bias.item() + 0.5) < 0.1
