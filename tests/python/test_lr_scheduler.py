"""optim.lr_scheduler and nn.utils (gradient clipping, parameters as a vector): the learning
rates of each schedule step by step, to the last bit, recorded from torch 2.15 (two param
groups, the optimizer stepped before the schedule), ReduceLROnPlateau's decisions, the
warnings and errors. With LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import warnings

import pytest

from support import raises_exactly as raises

import leafgrad as torch

S = torch.optim.lr_scheduler

SCHEDULES = {
    'StepLR(o, 3, 0.5)': [[0.1, 0.2], [0.1, 0.2], [0.1, 0.2], [0.05, 0.1], [0.05, 0.1], [0.05, 0.1], [0.025, 0.05], [0.025, 0.05], [0.025, 0.05], [0.0125, 0.025], [0.0125, 0.025], [0.0125, 0.025], [0.00625, 0.0125]],
    'MultiStepLR(o, [2, 5, 5, 9], 0.3)': [[0.1, 0.2], [0.1, 0.2], [0.03, 0.06], [0.03, 0.06], [0.03, 0.06], [0.0026999999999999997, 0.005399999999999999], [0.0026999999999999997, 0.005399999999999999], [0.0026999999999999997, 0.005399999999999999], [0.0026999999999999997, 0.005399999999999999], [0.0008099999999999998, 0.0016199999999999997], [0.0008099999999999998, 0.0016199999999999997], [0.0008099999999999998, 0.0016199999999999997], [0.0008099999999999998, 0.0016199999999999997]],
    'ExponentialLR(o, 0.93)': [[0.1, 0.2], [0.09300000000000001, 0.18600000000000003], [0.08649000000000001, 0.17298000000000002], [0.08043570000000001, 0.16087140000000003], [0.07480520100000002, 0.14961040200000003], [0.06956883693000002, 0.13913767386000003], [0.06469901834490002, 0.12939803668980004], [0.06017008706075702, 0.12034017412151404], [0.05595818096650403, 0.11191636193300807], [0.052041108298848754, 0.10408221659769751], [0.04839823071792934, 0.09679646143585868], [0.04501035456767429, 0.09002070913534858], [0.0418596297479371, 0.0837192594958742]],
    'CosineAnnealingLR(o, 5, eta_min=0.01)': [[0.1, 0.2], [0.09140576474687263, 0.18185661446562001], [0.06890576474687263, 0.13435661446562], [0.04109423525312736, 0.07564338553437999], [0.018594235253127367, 0.02814338553438], [0.01, 0.01], [0.018594235253127367, 0.02814338553437999], [0.04109423525312739, 0.07564338553438], [0.06890576474687267, 0.13435661446562006], [0.09140576474687269, 0.1818566144656201], [0.10000000000000006, 0.2000000000000001], [0.09140576474687272, 0.18185661446562015], [0.06890576474687268, 0.13435661446562008]],
    'LinearLR(o, 0.1, 1.0, 7)': [[0.010000000000000002, 0.020000000000000004], [0.02285714285714286, 0.04571428571428572], [0.03571428571428572, 0.07142857142857144], [0.04857142857142857, 0.09714285714285714], [0.06142857142857142, 0.12285714285714285], [0.07428571428571427, 0.14857142857142855], [0.08714285714285713, 0.17428571428571427], [0.09999999999999998, 0.19999999999999996], [0.09999999999999998, 0.19999999999999996], [0.09999999999999998, 0.19999999999999996], [0.09999999999999998, 0.19999999999999996], [0.09999999999999998, 0.19999999999999996], [0.09999999999999998, 0.19999999999999996]],
    'ConstantLR(o, 0.3, 4)': [[0.03, 0.06], [0.03, 0.06], [0.03, 0.06], [0.03, 0.06], [0.1, 0.2], [0.1, 0.2], [0.1, 0.2], [0.1, 0.2], [0.1, 0.2], [0.1, 0.2], [0.1, 0.2], [0.1, 0.2], [0.1, 0.2]],
    'LambdaLR(o, lambda e: 1 / (e + 1))': [[0.1, 0.2], [0.05, 0.1], [0.03333333333333333, 0.06666666666666667], [0.025, 0.05], [0.020000000000000004, 0.04000000000000001], [0.016666666666666666, 0.03333333333333333], [0.014285714285714285, 0.02857142857142857], [0.0125, 0.025], [0.011111111111111112, 0.022222222222222223], [0.010000000000000002, 0.020000000000000004], [0.009090909090909092, 0.018181818181818184], [0.008333333333333333, 0.016666666666666666], [0.007692307692307693, 0.015384615384615385]],
    'MultiplicativeLR(o, lambda e: 0.95)': [[0.1, 0.2], [0.095, 0.19], [0.09025, 0.1805], [0.0857375, 0.171475], [0.08145062499999998, 0.16290124999999997], [0.07737809374999999, 0.15475618749999998], [0.07350918906249998, 0.14701837812499996], [0.06983372960937498, 0.13966745921874996], [0.06634204312890622, 0.13268408625781244], [0.0630249409724609, 0.1260498819449218], [0.05987369392383786, 0.11974738784767572], [0.05688000922764597, 0.11376001845529193], [0.05403600876626367, 0.10807201753252733]],
}


def run(make, n=12, metric=None, groups=2):
    ps = [torch.nn.Parameter(torch.zeros(1)) for _ in range(groups)]
    opt = torch.optim.SGD([{"params": [p], "lr": 0.1 * (i + 1)} for i, p in enumerate(ps)], momentum=0.9)
    s = make(opt)
    out = [s.get_last_lr()]
    for k in range(n):
        opt.step()
        s.step(metric[k]) if metric else s.step()
        out.append(s.get_last_lr())
    return out, opt


@pytest.mark.parametrize("expr", list(SCHEDULES))
def test_schedules_give_pytorchs_learning_rates(expr):
    got, opt = run(lambda o: eval("S." + expr, {"S": S, "o": o}))
    assert got == SCHEDULES[expr]
    assert opt.param_groups[1]["initial_lr"] == 0.2 and opt.param_groups[1]["lr"] == got[-1][1]


def test_reduce_on_plateau():
    got, _ = run(lambda o: S.ReduceLROnPlateau(o, patience=2, factor=0.5, cooldown=1), groups=1,
                 metric=[1, .9, .95, .96, .97, .98, .99, .8, .81, .82, .83, .84])
    assert [lr[0] for lr in got] == [0.1, 0.1, 0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.025, 0.025]
    got, _ = run(lambda o: S.ReduceLROnPlateau(o, mode="max", threshold_mode="abs", threshold=0.1, patience=0,
                                               min_lr=0.02), groups=1,
                 metric=[1, 1.05, 1.2, 1.25, 1.3, 1.0, 1.0, 1, 1, 1, 1, 1])
    # 1.05 is not 0.1 better than 1.0: reduced at once (patience 0), then held at min_lr
    assert [lr[0] for lr in got] == [0.1, 0.1] + [0.02] * 11


def test_warnings_and_state_dict():
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=1.0)
    s = S.StepLR(opt, 2)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        s.step()
    assert len(w) == 1 and str(w[0].message).startswith(
        "Detected call of `lr_scheduler.step()` before `optimizer.step()`.")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        s.get_lr()
    assert [str(x.message) for x in w] == [
        "To get the last learning rate computed by the scheduler, please use `get_last_lr()`."]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        s.step(5)  # the closed form
    assert s.get_last_lr() == [0.010000000000000002] and "epoch parameter" in str(w[0].message)
    sd = s.state_dict()
    assert "optimizer" not in sd and sd["step_size"] == 2 and sd["last_epoch"] == 5
    s2 = S.StepLR(torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0), 3)
    s2.load_state_dict(sd)
    assert s2.step_size == 2 and s2.last_epoch == 5


@pytest.mark.parametrize("call,etype,msg", [
    (lambda: S.StepLR(object(), 2), TypeError, "object is not an Optimizer"),
    (lambda: S.LinearLR(torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0), 0), ValueError,
     "Starting multiplicative factor expected to be greater than 0 and less or equal to 1."),
    (lambda: S.ConstantLR(torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0), 2), ValueError,
     "Constant multiplicative factor expected to be between 0 and 1."),
    (lambda: S.ReduceLROnPlateau(torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0), factor=1.5),
     ValueError, "Factor should be < 1.0."),
    (lambda: S.ReduceLROnPlateau(torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0), mode="x"),
     ValueError, "mode x is unknown!"),
])
def test_errors(call, etype, msg):
    raises(call, msg, etype)


def test_clip_grad_norm_and_value():
    torch.manual_seed(0)
    m = torch.nn.Linear(4, 3)
    m(torch.randn(5, 4)).pow(2).sum().backward()
    g = [p.grad.clone() for p in m.parameters()]
    total = torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5)
    expected = torch.stack([x.norm() for x in g]).norm()
    assert torch.allclose(total, expected)
    coef = 0.5 / (expected + 1e-6)
    for x, p in zip(g, m.parameters()):
        assert torch.allclose(p.grad, x * coef)
    inf_norm = torch.nn.utils.clip_grad_norm_(m.parameters(), 100.0, norm_type=float("inf"))
    assert torch.allclose(inf_norm, max(p.grad.abs().max() for p in m.parameters()))
    torch.nn.utils.clip_grad_value_(m.parameters(), 0.01)
    assert all(p.grad.abs().max().item() <= 0.01 for p in m.parameters())
    p = torch.nn.Parameter(torch.ones(2))
    p.grad = torch.tensor([float("nan"), 1.])
    raises(lambda: torch.nn.utils.clip_grad_norm_(p, 1.0, error_if_nonfinite=True),
           "The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot be clipped. "
           "To disable this error and scale the gradients by the non-finite norm anyway, set "
           "`error_if_nonfinite=False`")
    assert torch.nn.utils.clip_grad_norm_([], 1.0).item() == 0.0


def test_parameters_as_a_vector():
    m = torch.nn.Linear(2, 2)
    v = torch.nn.utils.parameters_to_vector(m.parameters())
    assert v.shape == (6,) and v.grad_fn is not None
    torch.nn.utils.vector_to_parameters(torch.arange(6.), m.parameters())
    assert m.weight.tolist() == [[0., 1.], [2., 3.]] and m.bias.tolist() == [4., 5.]
    assert m.weight.is_leaf and m.weight.requires_grad
    raises(lambda: torch.nn.utils.vector_to_parameters([1.], m.parameters()), "expected torch.Tensor, but got: list",
           TypeError)
