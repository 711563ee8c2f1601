"""torch.optim: SGD, Adam, AdamW and the Optimizer base (SPEC §15; issue 3).

Update math is checked against hand-computed values; every test also passes with
LEAFGRAD_TEST_TORCH=1.
"""

import math
import re

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


# ----------------------------------------------------------------------------- RMSprop, Adagrad
# A float64 parameter's trajectory over six steps of given gradients, recorded from torch 2.15
# (float64 is exact; float32 state may differ in the last bit: docs/differences.md).
OPT_RECORDED = {
    "rmsprop": ("torch.optim.RMSprop(ps)", [[1.5999999591836902, -0.2999999107143654, 0.2000014285510207, 2.0999999714285797, -1.099999964285727, 0.7999998701300387], [1.5245786095813405, -0.20665461496941281, 0.2998778357819731, 2.0222887901972575, -1.0114840164838017, 0.7537183850903479], [1.5531575801697748, -0.27005081044346624, 0.22732761217034542, 2.0586179259618738, -1.0693235275065736, 0.7021790602572658], [1.5362115150295776, -0.19298143989842947, 0.3127850069641276, 2.0239119384569664, -0.9988996482549276, 0.790634261268895], [1.529154018417705, -0.24621623143068078, 0.25351122990218844, 2.035852495414728, -1.0470689855601802, 0.725267319775934], [1.5635013764016945, -0.17838292608451417, 0.32743884246345484, 2.0341322216128037, -0.9850509319263734, 0.805949529740398]]),
    "rmsprop_centered_momentum_wd": ("torch.optim.RMSprop(ps, lr=0.02, alpha=0.9, momentum=0.5, centered=True, weight_decay=0.1)", [[1.566666643274862, -0.26666664251208605, 0.23333339339333928, 2.0666666518518553, -1.06666665432099, 0.7666663492078609], [1.536134489969479, -0.23761288379580076, 0.2614011638846425, 2.036436094540691, -1.0373552085157693, 0.7338938523576243], [1.5143962582948751, -0.26202048718676746, 0.22007278938628014, 2.022810897527105, -1.052168653116772, 0.6625956844059974], [1.4720528414419183, -0.22137356582701795, 0.25355866819539696, 1.9769406311659279, -1.0083730403332598, 0.6685405028099605], [1.4220776986941637, -0.23492506695292184, 0.22738574031832665, 1.9407108502147865, -1.0130977906302558, 0.6171915000667794], [1.4019893463856947, -0.19455361332385002, 0.2623717830756574, 1.9041497195757353, -0.96964428092872, 0.6383276295790346]]),
    "rmsprop_maximize_momentum": ("torch.optim.RMSprop(ps, maximize=True, momentum=0.9)", [[1.40000004081631, -0.10000008928563463, 0.39999857144897927, 1.9000000285714205, -0.900000035714273, 0.6000001298699612], [1.3769983079446315, -0.09999330332630296, 0.3903742492535057, 1.8828190274350505, -0.89602294702715, 0.48474189957055447], [1.3327467007703873, -0.032748257368885314, 0.4665457289323885, 1.8329275336973645, -0.8333550226500541, 0.46185082172560166], [1.2928676401275088, -0.049021596528557934, 0.44850053404747253, 1.8149646613866024, -0.8465605804468459, 0.3521432466682208], [1.2799326534368467, -0.007519831500865501, 0.49729895393874834, 1.7931811176729124, -0.8090550121964549, 0.3221121116674838], [1.2146904186055352, -0.03878561888728928, 0.46570262079575253, 1.7623992983902022, -0.8374154956148545, 0.21677604513212456]]),
    "adagrad": ("torch.optim.Adagrad(ps, lr=0.1)", [[1.5999999999591836, -0.2999999999107143, 0.20000000142857138, 2.0999999999714287, -1.0999999999642858, 0.7999999998701298], [1.5247423305101506, -0.20671527193957223, 0.29987523524434295, 2.022443799614914, -1.0115806615720544, 0.7539010171358571], [1.5531410566878592, -0.2698981030541706, 0.22749831364549994, 2.0585567483756804, -1.0691865719728206, 0.7027291718999508], [1.5363871793318493, -0.1930969167232126, 0.31278034599383614, 2.0241923234995842, -0.9990891760057684, 0.7909455019440353], [1.5294529241795847, -0.24601323431577446, 0.25377273662837024, 2.035968654342499, -1.0469059796575415, 0.7258488444207183], [1.5631406397517997, -0.17859013465787538, 0.3273748766473048, 2.034276395698697, -0.98536524255623, 0.8062688686386704]]),
    "adagrad_decay_wd_init": ("torch.optim.Adagrad(ps, lr=0.1, lr_decay=0.05, weight_decay=0.01, initial_accumulator_value=0.3)", [[1.5387170274830173, -0.21969000383602663, 0.2981745623562409, 2.051606616298967, -1.0442147905855022, 0.7126770828243292], [1.498468813806034, -0.17848407569765126, 0.3165246213726062, 1.997954864873783, -0.9822150287631555, 0.7090697410332215], [1.510794002371331, -0.21199187441151224, 0.29342116488573694, 2.0195849862006883, -1.02321008625186, 0.6979362634427713], [1.5018581724601936, -0.16219004020317127, 0.33446441418959455, 1.9958510018181792, -0.9690664192729875, 0.725174073207717], [1.4956571722467669, -0.19765577907641307, 0.3013911669846049, 2.0007893283022704, -1.004644353775621, 0.6976722285169888], [1.5116805986732025, -0.15023981727571142, 0.3477111123602157, 1.9988379970862828, -0.9580908387577138, 0.7397213883761542]]),
    "adagrad_maximize": ("torch.optim.Adagrad(ps, maximize=True)", [[1.4900000000040816, -0.19000000000892858, 0.3099999998571428, 1.990000000002857, -0.9900000000035715, 0.690000000012987], [1.4970997533321293, -0.19916729464646113, 0.3000213306701657, 1.997501134890419, -0.9987124762794974, 0.690905357472741], [1.4942257409066875, -0.1924847588664509, 0.30810024166857464, 1.9938209668973128, -0.9927859711227481, 0.6973351380469769], [1.4955430311438018, -0.20020510515257495, 0.299493475269011, 1.9971085946582117, -0.9998046025746591, 0.6884961183871156], [1.496519088431108, -0.19468959134685546, 0.30575663690299515, 1.9959647910037452, -0.9948974197966123, 0.6953897562991618], [1.4927235629878377, -0.20148510600629674, 0.29833066742733017, 1.9959448373027113, -1.0010836786157615, 0.6874333051802919]]),
}


@pytest.mark.parametrize("name", sorted(OPT_RECORDED))
def test_rmsprop_and_adagrad_follow_pytorchs_trajectory(name):
    src, trajectory = OPT_RECORDED[name]
    w = torch.nn.Parameter(torch.tensor([[1.5, -0.2, 0.3], [2.0, -1.0, 0.7]], dtype=torch.float64))
    ps = [w]
    opt = eval(src)
    for i, expected in enumerate(trajectory):
        w.grad = (w * 0.3 - 0.1 * (i + 1)).detach() * (1.0 if i % 2 else -0.7)
        opt.step()
        assert w.flatten().tolist() == pytest.approx(expected, rel=1e-14, abs=1e-15)


def test_rmsprop_and_adagrad_state_repr_and_checks():
    w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    rms = torch.optim.RMSprop([w], momentum=0.9, centered=True)
    assert repr(rms).splitlines()[:4] == ["RMSprop (", "Parameter Group 0", "    alpha: 0.99", "    capturable: False"]
    ada = torch.optim.Adagrad([w], initial_accumulator_value=0.5)
    # Adagrad makes its state with the optimizer, RMSprop at the first step
    assert sorted(ada.state[w]) == ["step", "sum"] and ada.state[w]["sum"].tolist() == [0.5, 0.5]
    assert len(rms.state) == 0
    w.grad = torch.tensor([1.0, -1.0])
    rms.step()
    assert sorted(rms.state[w]) == ["grad_avg", "momentum_buffer", "square_avg", "step"]
    assert rms.state[w]["step"].item() == 1.0 and rms.state[w]["step"].dtype == torch.float32
    sd = rms.state_dict()
    again = torch.optim.RMSprop([w], momentum=0.9, centered=True)
    again.load_state_dict(sd)
    assert again.state[w]["square_avg"].tolist() == rms.state[w]["square_avg"].tolist()
    for make, message in [
        (lambda: torch.optim.RMSprop([w], lr=-1), "Invalid learning rate: -1"),
        (lambda: torch.optim.RMSprop([w], alpha=-1), "Invalid alpha value: -1"),
        (lambda: torch.optim.RMSprop([w], momentum=-1), "Invalid momentum value: -1"),
        (lambda: torch.optim.Adagrad([w], lr_decay=-1), "Invalid lr_decay value: -1"),
        (lambda: torch.optim.Adagrad([w], initial_accumulator_value=-1), "Invalid initial_accumulator_value value: -1"),
        (lambda: torch.optim.Adagrad([w], eps=-1), "Invalid epsilon value: -1"),
    ]:
        with pytest.raises(ValueError, match=f"^{message}$"):
            make()


# A float32 parameter's values after eight steps, recorded from torch 2.15: addcmul_, lerp_ and
# add_(alpha=) round once as PyTorch's fused kernels do, so the updates agree to the last bit.
OPT32_RECORDED = {'sgd_momentum_nesterov_wd': ('torch.optim.SGD(ps, lr=0.01, momentum=0.9, weight_decay=0.01, nesterov=True)', [0.5592841506004333, -0.1325569599866867, 1.1996564865112305, -6.384065628051758, 0.247862309217453, 1.355762004852295]), 'adam': ('torch.optim.Adam(ps, lr=0.01)', [0.5758718848228455, -0.17229020595550537, 1.6730334758758545, -3.0776190757751465, 0.20220935344696045, 2.422869920730591]), 'adamw_amsgrad': ('torch.optim.AdamW(ps, lr=0.01, amsgrad=True)', [0.5754545331001282, -0.17211724817752838, 1.6716694831848145, -3.0751852989196777, 0.20208214223384857, 2.4209046363830566]), 'rmsprop_centered_momentum': ('torch.optim.RMSprop(ps, lr=0.02, alpha=0.9, momentum=0.5, centered=True, weight_decay=0.1)', [0.6189064979553223, 0.3068532645702362, 1.2650150060653687, -3.60263729095459, 0.5637304186820984, 1.9875515699386597]), 'adagrad_decay': ('torch.optim.Adagrad(ps, lr=0.1, lr_decay=0.05, weight_decay=0.01, initial_accumulator_value=0.3)', [0.6323294639587402, 0.015313301235437393, 1.4495807886123657, -3.355217933654785, 0.3685642182826996, 2.1839728355407715])}
OPT32_RECORDED.update({'adamax': ('torch.optim.Adamax(ps, lr=0.01)', [0.562527596950531, -0.18237031996250153, 1.6847885847091675, -3.0672662258148193, 0.1909746527671814, 2.434305191040039]), 'adamax_wd_maximize': ('torch.optim.Adamax(ps, lr=0.02, betas=(0.8, 0.99), weight_decay=0.1, maximize=True)', [0.34825095534324646, -0.3744427263736725, 1.8883479833602905, -2.867997646331787, -0.010143639519810677, 2.6367247104644775]), 'adadelta': ('torch.optim.Adadelta(ps)', [0.5203304290771484, -0.2289486676454544, 1.7292920351028442, -3.02099609375, 0.1458207368850708, 2.4792230129241943]), 'adadelta_wd': ('torch.optim.Adadelta(ps, lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.01)', [0.5241892337799072, -0.22457940876483917, 1.7250243425369263, -3.025284767150879, 0.1500416398048401, 2.4749505519866943])})  # Adamax, Adadelta


@pytest.mark.parametrize("name", sorted(OPT32_RECORDED))
def test_float32_updates_are_pytorchs_bit_for_bit(name):
    src, expected = OPT32_RECORDED[name]
    b = torch.nn.Parameter(torch.tensor([0.5, -0.25, 1.75, -3.0, 0.125, 2.5]))
    ps = [b]
    opt = eval(src)
    for i in range(8):
        b.grad = (b.detach() * b.detach() - 0.5) * (0.9 ** i)
        opt.step()
    assert b.tolist() == expected


def test_adamax_and_adadelta_state_and_checks():
    w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    for opt, keys in [(torch.optim.Adamax([w]), ["exp_avg", "exp_inf", "step"]),
                      (torch.optim.Adadelta([w]), ["acc_delta", "square_avg", "step"])]:
        w.grad = torch.tensor([1.0, -1.0])
        opt.step()
        assert sorted(opt.state[w]) == keys
    for make, message in [
        (lambda: torch.optim.Adamax([w], betas=(1.0, 0.9)), "Invalid beta parameter at index 0: 1.0"),
        (lambda: torch.optim.Adamax([w], eps=-1), "Invalid epsilon value: -1"),
        (lambda: torch.optim.Adadelta([w], rho=1.5), "Invalid rho value: 1.5"),
        (lambda: torch.optim.Adadelta([w], lr=-1), "Invalid learning rate: -1"),
    ]:
        with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
            make()
