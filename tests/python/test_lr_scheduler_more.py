"""torch.optim.lr_scheduler: PolynomialLR, CyclicLR, OneCycleLR, CosineAnnealingWarmRestarts,
SequentialLR and ChainedScheduler.

The learning rates (and momenta) are recorded from PyTorch 2.15 and compared exactly: the
schedules follow PyTorch's recursive formulas. Every test also passes with LEAFGRAD_TEST_TORCH=1.
"""
import warnings

import leafgrad as torch
import pytest
from leafgrad.optim import lr_scheduler as L
from support import exact


def groups(n=2):
    return [{"params": [torch.nn.Parameter(torch.zeros(1))], "lr": 0.1 * (i + 1)} for i in range(n)]

# name: (source building `sched` from `opt`, optimizer source, steps)
CASES = {
    "poly": ("L.PolynomialLR(opt, total_iters=7, power=0.9)", "torch.optim.SGD(groups(), lr=0.1)", 10),
    "poly_default": ("L.PolynomialLR(opt)", "torch.optim.SGD(groups(), lr=0.1)", 7),
    "cyclic_triangular": ("L.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3, step_size_down=5)",
                          "torch.optim.SGD(groups(), lr=0.1, momentum=0.9)", 18),
    "cyclic_triangular2": ("L.CyclicLR(opt, base_lr=[0.01, 0.02], max_lr=[0.1, 0.3], step_size_up=4, mode='triangular2', "
                           "max_momentum=0.95, base_momentum=[0.8, 0.85])", "torch.optim.SGD(groups(), lr=0.1, momentum=0.9)", 26),
    "cyclic_exp_range_betas": ("L.CyclicLR(opt, base_lr=0.001, max_lr=0.01, step_size_up=3, mode='exp_range', gamma=0.97)",
                               "torch.optim.Adam(groups())", 14),
    "cyclic_scale_fn_iterations": ("L.CyclicLR(opt, base_lr=0.001, max_lr=0.01, step_size_up=2, scale_fn=lambda x: 0.5 ** x, "
                                   "scale_mode='iterations', cycle_momentum=False)", "torch.optim.Adagrad(groups())", 10),
    "cyclic_scale_fn_cycle": ("L.CyclicLR(opt, base_lr=0.001, max_lr=0.01, step_size_up=2, scale_fn=lambda x: 1 / x, "
                              "cycle_momentum=False)", "torch.optim.SGD(groups(), lr=0.1)", 12),
    "onecycle_cos": ("L.OneCycleLR(opt, max_lr=0.5, total_steps=20)", "torch.optim.SGD(groups(), lr=0.1, momentum=0.9)", 19),
    "onecycle_linear_three_phase": ("L.OneCycleLR(opt, max_lr=[0.5, 1.0], epochs=4, steps_per_epoch=6, anneal_strategy='linear', "
                                    "three_phase=True, pct_start=0.25)", "torch.optim.Adam(groups())", 23),
    "onecycle_no_momentum": ("L.OneCycleLR(opt, max_lr=0.3, total_steps=11, cycle_momentum=False, div_factor=10., "
                             "final_div_factor=100., pct_start=0.4)", "torch.optim.Adagrad(groups())", 10),
    "onecycle_cos_three_phase": ("L.OneCycleLR(opt, max_lr=0.3, total_steps=17, three_phase=True, base_momentum=0.8, "
                                 "max_momentum=[0.9, 0.99])", "torch.optim.NAdam(groups())", 16),
    "warm_restarts": ("L.CosineAnnealingWarmRestarts(opt, T_0=3)", "torch.optim.SGD(groups(), lr=0.1)", 10),
    "warm_restarts_mult": ("L.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=3, eta_min=0.001)",
                           "torch.optim.SGD(groups(), lr=0.1)", 27),
    "sequential": ("L.SequentialLR(opt, [L.ConstantLR(opt, factor=0.1, total_iters=3), L.ExponentialLR(opt, gamma=0.9), "
                   "L.CosineAnnealingLR(opt, T_max=4)], milestones=[3, 7])", "torch.optim.SGD(groups(), lr=0.1)", 14),
    "sequential_warmup_poly": ("L.SequentialLR(opt, [L.LinearLR(opt, start_factor=0.25, total_iters=4), "
                               "L.PolynomialLR(opt, total_iters=5, power=2.)], milestones=[4])", "torch.optim.SGD(groups(), lr=0.1)", 12),
    "chained": ("L.ChainedScheduler([L.ExponentialLR(opt, gamma=0.9), L.StepLR(opt, step_size=2, gamma=0.5)])",
                "torch.optim.SGD(groups(), lr=0.1)", 10),
    "chained_poly": ("L.ChainedScheduler([L.MultiStepLR(opt, milestones=[2, 4], gamma=0.5), L.PolynomialLR(opt, total_iters=6)])",
                     "torch.optim.SGD(groups(), lr=0.1)", 10),
    "sequential_of_chained": ("L.SequentialLR(opt, [L.ChainedScheduler([L.ConstantLR(opt, factor=0.5, total_iters=3), "
                              "L.ExponentialLR(opt, gamma=0.8)], optimizer=opt), L.CosineAnnealingWarmRestarts(opt, T_0=3)], "
                              "milestones=[5])", "torch.optim.SGD(groups(), lr=0.1)", 12),
}


def momentum_of(group):
    return group["betas"][0] if "betas" in group else group.get("momentum")


def run_case(name, steps=None):
    sched_src, opt_src, n = CASES[name]
    opt = eval(opt_src)
    sched = eval(sched_src)
    lrs = [sched.get_last_lr()]
    momenta = [[momentum_of(g) for g in opt.param_groups]]
    for _ in range(n if steps is None else steps):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr())
        momenta.append([momentum_of(g) for g in opt.param_groups])
    return opt, sched, lrs, momenta


# run_case(name): [get_last_lr()] after construction and after each step, and the groups'
# momentum (or beta1) alongside (None where the schedule leaves it alone).
EXPECTED = {
    'poly': ([[0.1, 0.2], [0.08704581368591593, 0.17409162737183187], [0.07387283529495574, 0.14774567058991148], [0.06043183144790013, 0.12086366289580026], [0.04664669656672159, 0.09329339313344318], [0.03238461661916279, 0.06476923323832558], [0.01735448634341525, 0.0347089726868305], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
        None),
    'poly_default': ([[0.1, 0.2], [0.08000000000000002, 0.16000000000000003], [0.060000000000000005, 0.12000000000000001], [0.04000000000000001, 0.08000000000000002], [0.02, 0.04], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
        None),
    'cyclic_triangular': ([[0.01, 0.01], [0.04, 0.04], [0.07, 0.07], [0.1, 0.1], [0.082, 0.082], [0.064, 0.064], [0.046000000000000006, 0.046000000000000006], [0.028000000000000004, 0.028000000000000004], [0.01, 0.01], [0.04, 0.04], [0.07, 0.07], [0.1, 0.1], [0.082, 0.082], [0.064, 0.064], [0.046000000000000006, 0.046000000000000006], [0.028000000000000004, 0.028000000000000004], [0.01, 0.01], [0.04, 0.04], [0.07, 0.07]],
        [[0.9, 0.9], [0.8666666666666667, 0.8666666666666667], [0.8333333333333334, 0.8333333333333334], [0.8, 0.8], [0.8200000000000001, 0.8200000000000001], [0.8400000000000001, 0.8400000000000001], [0.86, 0.86], [0.88, 0.88], [0.9, 0.9], [0.8666666666666667, 0.8666666666666667], [0.8333333333333334, 0.8333333333333334], [0.8, 0.8], [0.8200000000000001, 0.8200000000000001], [0.8400000000000001, 0.8400000000000001], [0.86, 0.86], [0.88, 0.88], [0.9, 0.9], [0.8666666666666667, 0.8666666666666667], [0.8333333333333334, 0.8333333333333334]]),
    'cyclic_triangular2': ([[0.01, 0.02], [0.0325, 0.09], [0.05500000000000001, 0.15999999999999998], [0.0775, 0.22999999999999995], [0.1, 0.3], [0.0775, 0.22999999999999995], [0.05500000000000001, 0.15999999999999998], [0.0325, 0.09], [0.01, 0.02], [0.02125, 0.05499999999999999], [0.0325, 0.09], [0.043750000000000004, 0.12499999999999999], [0.05500000000000001, 0.15999999999999998], [0.043750000000000004, 0.12499999999999999], [0.0325, 0.09], [0.02125, 0.05499999999999999], [0.01, 0.02], [0.015625, 0.0375], [0.02125, 0.05499999999999999], [0.026875000000000003, 0.0725], [0.0325, 0.09], [0.026875000000000003, 0.0725], [0.02125, 0.05499999999999999], [0.015625, 0.0375], [0.01, 0.02], [0.012812500000000001, 0.028749999999999998], [0.015625, 0.0375]],
        [[0.95, 0.95], [0.9125, 0.9249999999999999], [0.875, 0.8999999999999999], [0.8375, 0.875], [0.8, 0.85], [0.8375, 0.875], [0.875, 0.8999999999999999], [0.9125, 0.9249999999999999], [0.95, 0.95], [0.9312499999999999, 0.9375], [0.9125, 0.9249999999999999], [0.89375, 0.9125], [0.875, 0.8999999999999999], [0.89375, 0.9125], [0.9125, 0.9249999999999999], [0.9312499999999999, 0.9375], [0.95, 0.95], [0.9406249999999999, 0.94375], [0.9312499999999999, 0.9375], [0.921875, 0.9312499999999999], [0.9125, 0.9249999999999999], [0.921875, 0.9312499999999999], [0.9312499999999999, 0.9375], [0.9406249999999999, 0.94375], [0.95, 0.95], [0.9453125, 0.9468749999999999], [0.9406249999999999, 0.94375]]),
    'cyclic_exp_range_betas': ([[0.001, 0.001], [0.003910000000000002, 0.003910000000000002], [0.006645399999999999, 0.006645399999999999], [0.009214057000000001, 0.009214057000000001], [0.006311756860000003, 0.006311756860000003], [0.003576202077099998, 0.003576202077099998], [0.001, 0.001], [0.003423948534343394, 0.003423948534343394], [0.0057024601566261724, 0.0057024601566261724], [0.007842079527891087, 0.007842079527891087], [0.005424544761369565, 0.005424544761369565], [0.0031459042092642445, 0.0031459042092642445], [0.001, 0.001], [0.0030190812704967225, 0.0030190812704967225], [0.004917017664763646, 0.004917017664763646]],
        [[0.9, 0.9], [0.8676666666666667, 0.8676666666666667], [0.8372733333333334, 0.8372733333333334], [0.8087327000000001, 0.8087327000000001], [0.8409804793333333, 0.8409804793333333], [0.8713755324766668, 0.8713755324766668], [0.9, 0.9], [0.8730672385072956, 0.8730672385072956], [0.8477504427041537, 0.8477504427041537], [0.8239768941345436, 0.8239768941345436], [0.8508383915403382, 0.8508383915403382], [0.876156619897064, 0.876156619897064], [0.9, 0.9], [0.8775657636611476, 0.8775657636611476], [0.8564775815026262, 0.8564775815026262]]),
    'cyclic_scale_fn_iterations': ([[0.001, 0.001], [0.0032500000000000003, 0.0032500000000000003], [0.0032500000000000003, 0.0032500000000000003], [0.0015625, 0.0015625], [0.001, 0.001], [0.0011406250000000001, 0.0011406250000000001], [0.0011406250000000001, 0.0011406250000000001], [0.00103515625, 0.00103515625], [0.001, 0.001], [0.0010087890625, 0.0010087890625], [0.0010087890625, 0.0010087890625]],
        None),
    'cyclic_scale_fn_cycle': ([[0.001, 0.001], [0.0055000000000000005, 0.0055000000000000005], [0.010000000000000002, 0.010000000000000002], [0.0055000000000000005, 0.0055000000000000005], [0.001, 0.001], [0.0032500000000000003, 0.0032500000000000003], [0.0055000000000000005, 0.0055000000000000005], [0.0032500000000000003, 0.0032500000000000003], [0.001, 0.001], [0.0025, 0.0025], [0.004, 0.004], [0.0025, 0.0025], [0.001, 0.001]],
        None),
    'onecycle_cos': ([[0.020000000000000018, 0.020000000000000018], [0.06583592135001265, 0.06583592135001265], [0.18583592135001265, 0.18583592135001265], [0.3341640786499874, 0.3341640786499874], [0.45416407864998737, 0.45416407864998737], [0.5, 0.5], [0.49373200311754367, 0.49373200311754367], [0.47524231600673683, 0.47524231600673683], [0.445458088785525, 0.445458088785525], [0.40587282697488153, 0.40587282697488153], [0.3584715008956504, 0.3584715008956504], [0.30563101096814466, 0.30563101096814466], [0.250001, 0.250001], [0.19437098903185537, 0.19437098903185537], [0.14153049910434962, 0.14153049910434962], [0.09412917302511849, 0.09412917302511849], [0.05454391121447502, 0.05454391121447502], [0.024759683993263143, 0.024759683993263143], [0.006269996882456277, 0.006269996882456277], [2e-06, 2e-06]],
        [[0.95, 0.95], [0.9404508497187474, 0.9404508497187474], [0.9154508497187474, 0.9154508497187474], [0.8845491502812526, 0.8845491502812526], [0.8595491502812526, 0.8595491502812526], [0.85, 0.85], [0.8512536043909088, 0.8512536043909088], [0.854951556604879, 0.854951556604879], [0.8609084258765984, 0.8609084258765984], [0.8688255099070633, 0.8688255099070633], [0.878305813044122, 0.878305813044122], [0.8888739533021842, 0.8888739533021842], [0.8999999999999999, 0.8999999999999999], [0.9111260466978157, 0.9111260466978157], [0.9216941869558779, 0.9216941869558779], [0.9311744900929366, 0.9311744900929366], [0.9390915741234015, 0.9390915741234015], [0.945048443395121, 0.945048443395121], [0.9487463956090911, 0.9487463956090911], [0.95, 0.95]]),
    'onecycle_linear_three_phase': ([[0.02, 0.04], [0.116, 0.232], [0.212, 0.424], [0.308, 0.616], [0.404, 0.808], [0.5, 1.0], [0.404, 0.808], [0.308, 0.616], [0.21200000000000002, 0.42400000000000004], [0.11599999999999999, 0.23199999999999998], [0.020000000000000018, 0.040000000000000036], [0.018461692307692307, 0.036923384615384615], [0.016923384615384614, 0.03384676923076923], [0.015385076923076923, 0.030770153846153846], [0.01384676923076923, 0.02769353846153846], [0.012308461538461539, 0.024616923076923078], [0.010770153846153846, 0.021540307692307692], [0.009231846153846153, 0.018463692307692306], [0.00769353846153846, 0.01538707692307692], [0.006155230769230769, 0.012310461538461537], [0.004616923076923076, 0.009233846153846152], [0.0030786153846153845, 0.006157230769230769], [0.0015403076923076915, 0.003080615384615383], [1.9999999999985307e-06, 3.9999999999970615e-06]],
        [[0.95, 0.95], [0.9299999999999999, 0.9299999999999999], [0.9099999999999999, 0.9099999999999999], [0.89, 0.89], [0.87, 0.87], [0.85, 0.85], [0.87, 0.87], [0.89, 0.89], [0.9099999999999999, 0.9099999999999999], [0.9299999999999999, 0.9299999999999999], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95]]),
    'onecycle_no_momentum': ([[0.02999999999999997, 0.02999999999999997], [0.08364432408880035, 0.08364432408880035], [0.2019445036597311, 0.2019445036597311], [0.290883750969588, 0.290883750969588], [0.29393002209613245, 0.29393002209613245], [0.2586015456100448, 0.2586015456100448], [0.19916113430311563, 0.19916113430311563], [0.12882412148474823, 0.12882412148474823], [0.06322847210075597, 0.06322847210075597], [0.016958008019059733, 0.016958008019059733], [0.0003, 0.0003]],
        None),
    'onecycle_cos_three_phase': ([[0.01200000000000001, 0.01200000000000001], [0.052244890521486675, 0.052244890521486675], [0.1504844063486349, 0.1504844063486349], [0.25180690082384144, 0.25180690082384144], [0.2995774753704586, 0.2995774753704586], [0.26709444189435977, 0.26709444189435977], [0.17251441325736963, 0.17251441325736963], [0.06870354082080407, 0.06870354082080407], [0.013687618975629796, 0.013687618975629796], [0.011691249529817704, 0.011691249529817704], [0.010491215382577704, 0.010491215382577704], [0.008572498152881483, 0.008572498152881483], [0.006242171481092424, 0.006242171481092424], [0.0038731834406770115, 0.0038731834406770115], [0.0018446695135545096, 0.0018446695135545096], [0.0004812753257132499, 0.0004812753257132499], [1.2e-06, 1.2e-06]],
        [[0.9, 0.99], [0.8860260796800393, 0.9634495513920748], [0.8519151366845018, 0.8986387597005534], [0.8167337149917218, 0.8317940584842713], [0.800146709940813, 0.8002787488875447], [0.8114255410089029, 0.8217085279169155], [0.84426582873008, 0.884105074587152], [0.8803112705483319, 0.9525914140418307], [0.8994140211890175, 0.9888866402591331], [0.9, 0.99], [0.9, 0.99], [0.9, 0.99], [0.9, 0.99], [0.9, 0.99], [0.9, 0.99], [0.9, 0.99], [0.9, 0.99]]),
    'warm_restarts': ([[0.1, 0.2], [0.07500000000000001, 0.15000000000000002], [0.025000000000000012, 0.050000000000000024], [0.1, 0.2], [0.07500000000000001, 0.15000000000000002], [0.025000000000000012, 0.050000000000000024], [0.1, 0.2], [0.07500000000000001, 0.15000000000000002], [0.025000000000000012, 0.050000000000000024], [0.1, 0.2], [0.07500000000000001, 0.15000000000000002]],
        None),
    'warm_restarts_mult': ([[0.1, 0.2], [0.0505, 0.1005], [0.1, 0.2], [0.09336825748732973, 0.18666952767655168], [0.07525000000000001, 0.15025], [0.0505, 0.1005], [0.025750000000000012, 0.050750000000000024], [0.007631742512670284, 0.014330472323448348], [0.1, 0.2], [0.0992479837741043, 0.19848837142471473], [0.09701478472890247, 0.1939994157681979], [0.09336825748732973, 0.18666952767655168], [0.08841919993438942, 0.1767214220903383], [0.0823179866794837, 0.16445736716381065], [0.07525000000000001, 0.15025], [0.06742999709462061, 0.13453100426090406], [0.059095584794513066, 0.1177779936778596], [0.0505, 0.1005], [0.041904415205486954, 0.08322200632214044], [0.03357000290537941, 0.066468995739096], [0.025750000000000012, 0.050750000000000024], [0.018682013320516302, 0.03654263283618934], [0.012580800065610593, 0.0242785779096617], [0.0076317425126702955, 0.014330472323448373], [0.003985215271097539, 0.0070005842318021224], [0.001752016225895703, 0.002511628575285302], [0.1, 0.2], [0.09991625383442779, 0.19983166174799122]],
        None),
    'sequential': ([[0.010000000000000002, 0.020000000000000004], [0.010000000000000002, 0.020000000000000004], [0.010000000000000002, 0.020000000000000004], [0.1, 0.2], [0.09000000000000001, 0.18000000000000002], [0.08100000000000002, 0.16200000000000003], [0.07290000000000002, 0.14580000000000004], [0.1, 0.2], [0.08535533905932738, 0.17071067811865476], [0.05, 0.1], [0.014644660940672627, 0.029289321881345254], [0.0, 0.0], [0.014644660940672622, 0.029289321881345243], [0.05000000000000001, 0.10000000000000002], [0.0853553390593274, 0.1707106781186548]],
        None),
    'sequential_warmup_poly': ([[0.025, 0.05], [0.043750000000000004, 0.08750000000000001], [0.06250000000000001, 0.12500000000000003], [0.08125000000000002, 0.16250000000000003], [0.1, 0.2], [0.06400000000000002, 0.12800000000000003], [0.036000000000000004, 0.07200000000000001], [0.016000000000000004, 0.03200000000000001], [0.003999999999999999, 0.007999999999999998], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
        None),
    'chained': ([[0.1, 0.2], [0.09000000000000001, 0.18000000000000002], [0.04050000000000001, 0.08100000000000002], [0.03645000000000001, 0.07290000000000002], [0.016402500000000004, 0.03280500000000001], [0.014762250000000005, 0.02952450000000001], [0.0066430125000000026, 0.013286025000000005], [0.005978711250000003, 0.011957422500000005], [0.0026904200625000015, 0.005380840125000003], [0.0024213780562500013, 0.0048427561125000025], [0.0010896201253125005, 0.002179240250625001]],
        None),
    'chained_poly': ([[0.1, 0.2], [0.08333333333333334, 0.16666666666666669], [0.03333333333333334, 0.06666666666666668], [0.025, 0.05], [0.008333333333333335, 0.01666666666666667], [0.004166666666666666, 0.008333333333333331], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
        None),
    'sequential_of_chained': ([[0.04000000000000001, 0.08000000000000002], [0.03200000000000001, 0.06400000000000002], [0.025600000000000008, 0.051200000000000016], [0.04096000000000002, 0.08192000000000003], [0.03276800000000001, 0.06553600000000002], [0.1, 0.2], [0.07500000000000001, 0.15000000000000002], [0.025000000000000012, 0.050000000000000024], [0.1, 0.2], [0.07500000000000001, 0.15000000000000002], [0.025000000000000012, 0.050000000000000024], [0.1, 0.2], [0.07500000000000001, 0.15000000000000002]],
        None),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_schedules_match_pytorch(name):
    if name == "sequential_of_chained":
        # SequentialLR's construction steps the chain, whose schedules then see a step
        # before any optimizer.step() (PyTorch warns as well)
        with pytest.warns(UserWarning, match="^Detected call of `lr_scheduler.step\\(\\)` before"):
            opt, sched, lrs, momenta = run_case(name)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # stepped in the right order: no warnings
            opt, sched, lrs, momenta = run_case(name)
    expected_lrs, expected_momenta = EXPECTED[name]
    assert lrs == expected_lrs
    if expected_momenta is not None:
        assert momenta == expected_momenta
    assert [g["lr"] for g in opt.param_groups] == lrs[-1]


ROUND_TRIPS = ["poly", "cyclic_triangular2", "cyclic_exp_range_betas", "cyclic_scale_fn_cycle", "onecycle_cos",
               "onecycle_linear_three_phase", "warm_restarts_mult", "sequential", "sequential_warmup_poly", "chained",
               "sequential_of_chained"]


@pytest.mark.filterwarnings("ignore:Detected call of")  # (sequential_of_chained's, as above)
@pytest.mark.parametrize("name", ROUND_TRIPS)
def test_state_dict_round_trip(name):
    sched_src, opt_src, n = CASES[name]
    _, _, ref_lrs, ref_momenta = run_case(name)
    opt, sched, lrs, momenta = run_case(name, steps=n // 2)
    opt_sd, sched_sd = opt.state_dict(), sched.state_dict()
    assert "optimizer" not in sched_sd
    opt = eval(opt_src)
    sched = eval(sched_src)
    opt.load_state_dict(opt_sd)
    sched.load_state_dict(sched_sd)
    assert sched.get_last_lr() == lrs[-1]
    for _ in range(n - n // 2):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr())
        momenta.append([momentum_of(g) for g in opt.param_groups])
    assert lrs == ref_lrs and momenta == ref_momenta


def test_nested_state_dicts():
    opt = torch.optim.SGD(groups(1), lr=0.1)
    const, expo = L.ConstantLR(opt, factor=0.5, total_iters=2), L.ExponentialLR(opt, gamma=0.9)
    seq = L.SequentialLR(opt, [const, expo], milestones=[2])
    sd = seq.state_dict()
    assert sorted(sd) == ["_last_lr", "_milestones", "_schedulers", "last_epoch"]
    assert sd["_schedulers"][0] == const.state_dict() and sd["_schedulers"][1]["gamma"] == 0.9
    seq.load_state_dict(sd)
    assert "_schedulers" in sd  # the caller's dict is left whole
    chain = L.ChainedScheduler([const, expo])
    assert sorted(chain.state_dict()) == ["_last_lr", "_schedulers"]
    assert chain.optimizer is opt


class Halving:
    def __init__(self):
        self.base = 0.5

    def __call__(self, x):
        return self.base ** x


def test_cyclic_state_dict_keeps_a_callable_objects_state():
    opt = torch.optim.SGD(groups(1), lr=0.1)
    fn = Halving()
    sched = L.CyclicLR(opt, 0.01, 0.1, step_size_up=2, scale_fn=fn, cycle_momentum=False)
    sd = sched.state_dict()
    assert sd["_scale_fn_custom"] == {"base": 0.5} and "_scale_fn_ref" not in sd
    fn.base = 0.25
    sched.load_state_dict(sd)
    assert fn.base == 0.5
    lam = L.CyclicLR(opt, 0.01, 0.1, scale_fn=lambda x: 1.0, cycle_momentum=False)
    assert lam.state_dict()["_scale_fn_custom"] is None
    tri = L.CyclicLR(opt, 0.01, 0.1, mode="triangular2", cycle_momentum=False)
    sd = tri.state_dict()
    assert sd["_scale_fn_custom"] is None and sd["scale_mode"] == "cycle"
    tri.load_state_dict(sd)
    assert tri.scale_fn(3) == 0.25


# step(i * 0.8) for i in range(12) with T_0=3, T_mult=2, eta_min=0.01: (lr, T_cur, T_i, last_epoch)
WARM_RESTARTS_FRACTIONAL = [
    (0.1, 0.0, 3, 0),
    (0.08511087728614862, 0.8, 3, 0),
    (0.05029621915295561, 1.6, 3, 1),
    (0.018594235253127357, 2.4000000000000004, 3, 2),
    (0.0997534852915723, 0.20000000000000018, 6, 3),
    (0.09397114317029975, 1.0, 6, 4),
    (0.08145033635316129, 1.8000000000000007, 6, 4),
    (0.06435602608679916, 2.6000000000000005, 6, 5),
    (0.045643973913200825, 3.4000000000000004, 6, 6),
    (0.028549663646838717, 4.2, 6, 7),
    (0.01602885682970026, 5.0, 6, 8),
    (0.010246514708427697, 5.800000000000001, 6, 8)]
WARM_RESTARTS_AFTER = (0.09901664203302127, 0.8000000000000007, 12, 9)
# step(epoch) for epoch in (3, 1, 5, 9, 2) with total_iters=6, power=1.5
POLY_CLOSED_FORM = [0.03535533905932738, 0.07607257743127309, 0.0068041381743977145, 0.0, 0.05443310539518175]


def test_cosine_warm_restarts_fractional_epochs():
    opt = torch.optim.SGD(groups(1), lr=0.1)
    sched = L.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)
    got = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # step(epoch) is not deprecated here
        for i in range(12):
            opt.step()
            sched.step(i * 0.8)
            got.append((sched.get_last_lr()[0], sched.T_cur, sched.T_i, sched.last_epoch))
    assert got == WARM_RESTARTS_FRACTIONAL
    sched.step()
    assert (sched.get_last_lr()[0], sched.T_cur, sched.T_i, sched.last_epoch) == WARM_RESTARTS_AFTER
    with pytest.raises(ValueError, match=exact("Expected non-negative epoch, but got -1")):
        sched.step(-1)


def test_polynomial_closed_form():
    opt = torch.optim.SGD(groups(1), lr=0.1)
    sched = L.PolynomialLR(opt, total_iters=6, power=1.5)
    got = []
    with pytest.warns(UserWarning, match="The epoch parameter in `scheduler.step\\(\\)` was not necessary"):
        for epoch in (3, 1, 5, 9, 2):
            opt.step()
            sched.step(epoch)
            got.append(sched.get_last_lr()[0])
    assert got == POLY_CLOSED_FORM


def test_onecycle_past_the_end():
    opt = torch.optim.SGD(groups(1), lr=0.1, momentum=0.9)
    sched = L.OneCycleLR(opt, 1.0, total_steps=3)
    for _ in range(3):  # the construction step and these three: steps 0 to 3
        opt.step()
        sched.step()
    opt.step()
    with pytest.raises(ValueError, match=exact("Tried to step 4 times. The specified number of total steps is 3")):
        sched.step()
    assert [g["max_lr"] for g in opt.param_groups] == [1.0]
    assert opt.param_groups[0]["initial_lr"] == 0.04 and opt.param_groups[0]["min_lr"] == 4e-06


def test_tensor_learning_rates_stay_tensors():
    opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=torch.tensor(0.1), momentum=0.9)
    lr = opt.param_groups[0]["lr"]
    sched = L.PolynomialLR(opt, total_iters=4, power=1.5)
    opt.step()
    sched.step()
    assert opt.param_groups[0]["lr"] is lr and isinstance(sched.get_last_lr()[0], torch.Tensor)
    assert sched.get_last_lr()[0] is not lr and sched.get_last_lr()[0].item() == 0.06495190411806107


def test_warnings():
    opt = torch.optim.SGD(groups(1), lr=0.1, momentum=0.9)
    order = "Detected call of `lr_scheduler.step()` before `optimizer.step()`."
    for make in (lambda: L.PolynomialLR(opt), lambda: L.CyclicLR(opt, 0.1, 1.0),
                 lambda: L.OneCycleLR(opt, 1.0, total_steps=10)):
        opt = torch.optim.SGD(groups(1), lr=0.1, momentum=0.9)
        sched = make()
        with pytest.warns(UserWarning) as record:
            sched.step()
        assert [str(w.message)[:len(order)] for w in record] == [order]
        with pytest.warns(UserWarning, match=exact(
                "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.")):
            sched.get_lr()
    # the warm restarts' own step() does not count steps, so it never warns
    opt = torch.optim.SGD(groups(1), lr=0.1)
    sched = L.CosineAnnealingWarmRestarts(opt, T_0=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sched.step()
        sched.step()


ERRORS = [
    ("L.SequentialLR(opt, [], milestones=[])", ValueError,
     "SequentialLR expects at least one scheduler, but got no scheduler."),
    ("L.SequentialLR(opt, [L.StepLR(opt, 2)], milestones=[1])", ValueError,
     "Sequential Schedulers expects number of schedulers provided to be one more than the number of milestone "
     "points, but got number of schedulers 1 and the number of milestones to be equal to 1"),
    ("L.SequentialLR(opt, [L.StepLR(opt, 2), L.ReduceLROnPlateau(opt)], milestones=[1])", ValueError,
     "SequentialLR does not support `ReduceLROnPlateau` scheduler as it requires additional kwargs to be "
     "specified when calling `step`, but got one at index 1 in the given schedulers sequence."),
    ("L.SequentialLR(opt, [L.StepLR(opt, 2), object()], milestones=[1])", TypeError,
     "SequentialLR at index 1 should have `optimizer` as its attribute."),
    ("L.ChainedScheduler([])", ValueError,
     "ChainedScheduler expects at least one scheduler to be chained, but got no scheduler."),
    ("L.ChainedScheduler([L.StepLR(opt, 2), L.ReduceLROnPlateau(opt)])", ValueError,
     "ChainedScheduler does not support `ReduceLROnPlateau` scheduler as it requires additional kwargs to be "
     "specified when calling `step`, but got one at index 1 in the given schedulers sequence."),
    ("L.CyclicLR(opt, 0.1, 1.0, mode='foo')", ValueError, "mode is invalid and scale_fn is None"),
    ("L.CyclicLR(torch.optim.Adagrad(groups()), 0.1, 1.0)", ValueError,
     "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"),
    ("L.CyclicLR(opt, [0.1], 1.0)", ValueError,
     "base_lr must have the same length as optimizer.param_groups. base_lr has 1 values, param_groups has 2."),
    ("L.CyclicLR(object(), 0.1, 1.0)", TypeError, "object is not an Optimizer"),
    ("L.OneCycleLR(opt, 1.0)", ValueError, "You must define either total_steps OR (epochs AND steps_per_epoch)"),
    ("L.OneCycleLR(opt, 1.0, total_steps=0)", ValueError, "Expected positive integer total_steps, but got 0"),
    ("L.OneCycleLR(opt, 1.0, total_steps=2.0)", ValueError, "Expected positive integer total_steps, but got 2.0"),
    ("L.OneCycleLR(opt, 1.0, epochs=0, steps_per_epoch=3)", ValueError, "Expected positive integer epochs, but got 0"),
    ("L.OneCycleLR(opt, 1.0, epochs=2, steps_per_epoch=-3)", ValueError,
     "Expected positive integer steps_per_epoch, but got -3"),
    ("L.OneCycleLR(opt, 1.0, total_steps=10, pct_start=1)", ValueError,
     "Expected float between 0 and 1 pct_start, but got 1"),
    ("L.OneCycleLR(opt, 1.0, total_steps=10, anneal_strategy='exp')", ValueError,
     "anneal_strategy must be one of 'cos' or 'linear', instead got exp"),
    ("L.OneCycleLR(opt, [1.0, 2.0, 3.0], total_steps=10)", ValueError,
     "max_lr must have the same length as optimizer.param_groups. max_lr has 3 values, param_groups has 2."),
    ("L.CosineAnnealingWarmRestarts(opt, T_0=0)", ValueError, "Expected positive integer T_0, but got 0"),
    ("L.CosineAnnealingWarmRestarts(opt, T_0=2.0)", ValueError, "Expected positive integer T_0, but got 2.0"),
    ("L.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0)", ValueError, "Expected integer T_mult >= 1, but got 0"),
    ("L.CosineAnnealingWarmRestarts(opt, T_0=2, eta_min='x')", ValueError,
     "Expected float or int eta_min, but got x of type <class 'str'>"),
]


@pytest.mark.parametrize("src, exc, message", ERRORS)
def test_argument_checks(src, exc, message):
    opt = torch.optim.SGD(groups(), lr=0.1, momentum=0.9)
    with pytest.raises(exc, match=exact(message)):
        eval(src)


def test_schedules_of_another_optimizer():
    opt, other = torch.optim.SGD(groups(1), lr=0.1), torch.optim.SGD(groups(1), lr=0.1)
    with pytest.raises(ValueError, match="^SequentialLR expects all schedulers to belong to the same optimizer, "
                                         "but got scheduler StepLR at index 1 has SGD \\("):
        L.SequentialLR(opt, [L.StepLR(opt, 2), L.StepLR(other, 2)], milestones=[1])
