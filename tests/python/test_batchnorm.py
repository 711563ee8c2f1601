"""BatchNorm1d/2d/3d and F.batch_norm: outputs, running statistics (momentum, momentum=None's
cumulative average, unbiased running variance), gradients in training and eval mode, reprs,
state_dict keys and errors, against values recorded from torch 2.15 (float64). With
LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import pytest

from support import grad_fn_name as name, raises_exactly as raises

import leafgrad as torch

# torch 2.15, float64: BatchNorm1d(3) with weight [1.5, -0.5, 2], bias [0.1, 0.2, -0.3] on X,
# loss (y * arange(24)).sum(), in training then in eval mode
Y = [-2.0975350914497346, -1.5084861601917436, 0.5624581211197915, -0.18548330635440485, -2.088789614036683, 1.1920268347000855, -1.6870042383785544, 0.5651187460375685, 0.9418455565651489, -0.43941094945995274, 0.616848437414808, -1.590661510480545, 1.7720565645122772, 0.772409426017983, 0.38720967878763973, 0.7942195387236894, -2.088789614036683, -3.024655309749257, 1.6532530447580003, 1.3301877206151325, -0.26337132517776235, -0.19746729036229177, 2.2327049238353207, 2.3513157569855228]
RUNNING_MEAN = [0.07306494865320068, 0.09758448559291265, -0.02659929286374556]
RUNNING_VAR = [1.6410901664267805, 1.1863239476545746, 1.32957004354122]
GRAD_X = [-0.48549385616883445, -1.2663058591077858, 2.6384900633333785, 3.0705609282157837, -7.664415868052408, -10.54993994922293, 2.0940909660075477, -2.5542777969997785, 0.36375089104049424, 1.429153537277061, -4.7052429713841235, -1.0380026554196582, -2.4158236801688595, 0.4979515859296159, -0.9769403344653376, -1.699851217225024, 4.714700445770901, 6.863666413723188, 1.3947530681156923, 2.735105572392403, -2.2216839033641844, -2.6034799648121707, 5.744628233840426, 6.634606350744605]
GRAD_W = [47.375628218842465, 12.66295812180892, 18.51809070419794]
GRAD_B = [76.0, 92.0, 108.0]
Y_EVAL = [-3.498284128341738, -2.3273735911567575, 0.3235585482760414, -0.7633621012494203, -3.722851302809113, 1.7934285130556442, -2.6822315456233596, 1.794534973344077, 0.8748905411416102, -1.1323738829724932, 0.8263384508585117, -2.8853116091698294, 4.193684066715628, 2.2065870603089905, 0.06888466102895563, 0.6603580105115534, -3.722851302809113, -5.29639164811165, 3.9575266173881793, 3.315337875223589, -0.8765502372450773, -0.7807774217588657, 3.5431977024047665, 3.7426268856805596]
GRAD_X_EVAL = [0.0, 1.1709105371849806, -0.9181138119880166, -1.377170717982025, 6.937975198874501, 8.672468998593125, 7.025463223109884, 8.196373760294865, -3.6724552479520662, -4.131512153946074, 17.34493799718625, 19.079431796904878, 14.050926446219767, 15.221836983404748, -6.426796683916116, -6.885853589910124, 27.751900795498003, 29.486394595216627, 21.07638966932965, 22.24730020651463, -9.181138119880165, -9.640195025874174, 38.158863593809755, 39.893357393528376]
GRAD_W_EVAL = [133.18514744140174, 92.58557057751229, 8.713592204966488]
# BatchNorm2d(3, momentum=None) after batches X, 2X, 3X (as 2x3x2x2): the cumulative average
CMA_MEAN = [0.4859797795210433, -0.08076363685742294, 2.475786684983735]
CMA_VAR = [23.060551196393494, 29.823173508427246, 14.915906053175842]


def x_values():
    return (torch.arange(24, dtype=torch.float64).reshape(4, 3, 2) ** 1.5 % 7) - 3


def close(t, expected, rtol=1e-10):
    got = t.detach().flatten().tolist()
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert abs(g - e) <= rtol * max(1.0, abs(e)), (g, e)


def make_bn():
    bn = torch.nn.BatchNorm1d(3, dtype=torch.float64)
    with torch.no_grad():
        bn.weight.copy_(torch.tensor([1.5, -0.5, 2.0]))
        bn.bias.copy_(torch.tensor([0.1, 0.2, -0.3]))
    return bn


def test_training_normalises_with_batch_statistics_and_updates_the_running_ones():
    bn = make_bn()
    x = x_values().requires_grad_()
    y = bn(x)
    assert name(y) == "NativeBatchNormBackward0"
    (y * torch.arange(24.).reshape(4, 3, 2)).sum().backward()
    close(y, Y)
    close(bn.running_mean, RUNNING_MEAN)
    close(bn.running_var, RUNNING_VAR)
    assert bn.num_batches_tracked.item() == 1 and bn.num_batches_tracked.dtype == torch.int64
    close(x.grad, GRAD_X)
    close(bn.weight.grad, GRAD_W)
    close(bn.bias.grad, GRAD_B)


def test_eval_uses_the_running_statistics():
    bn = make_bn()
    x = x_values().requires_grad_()
    bn(x)
    bn.eval()
    y = bn(x)
    (y * torch.arange(24.).reshape(4, 3, 2)).sum().backward()
    close(y, Y_EVAL)
    close(x.grad, GRAD_X_EVAL)
    close(bn.weight.grad, GRAD_W_EVAL)
    assert bn.num_batches_tracked.item() == 1  # eval leaves the statistics alone
    close(bn.running_mean, RUNNING_MEAN)


def test_momentum_none_is_the_cumulative_average():
    bn = torch.nn.BatchNorm2d(3, momentum=None, dtype=torch.float64)
    for k in range(3):
        bn(x_values().reshape(2, 3, 2, 2) * (k + 1))
    close(bn.running_mean, CMA_MEAN)
    close(bn.running_var, CMA_VAR)
    assert bn.num_batches_tracked.item() == 3


def test_without_running_statistics_batch_statistics_are_used_in_eval_too():
    bn = torch.nn.BatchNorm1d(3, track_running_stats=False, affine=False, dtype=torch.float64)
    assert bn.running_mean is None and bn.num_batches_tracked is None
    bn.eval()
    y = bn(x_values())
    assert abs(y.mean((0, 2))).max().item() < 1e-12


def test_reprs_and_state_dict_keys():
    assert repr(torch.nn.BatchNorm1d(3)) == (
        "BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)")
    assert repr(torch.nn.BatchNorm2d(4, eps=1e-3, momentum=None, affine=False)) == (
        "BatchNorm2d(4, eps=0.001, momentum=None, affine=False, bias=False, track_running_stats=True)")
    assert repr(torch.nn.BatchNorm3d(2, bias=False, track_running_stats=False)) == (
        "BatchNorm3d(2, eps=1e-05, momentum=0.1, affine=True, bias=False, track_running_stats=False)")
    assert list(torch.nn.BatchNorm1d(3).state_dict()) == [
        "weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    assert list(torch.nn.BatchNorm1d(3, affine=False).state_dict()) == [
        "running_mean", "running_var", "num_batches_tracked"]


def test_state_dicts_without_num_batches_tracked_still_load():
    bn = torch.nn.BatchNorm1d(2)
    sd = {"weight": torch.ones(2), "bias": torch.zeros(2), "running_mean": torch.tensor([1., 2.]),
          "running_var": torch.ones(2)}
    # a version-1 state dict (saved before the buffer existed)
    from collections import OrderedDict
    sd = OrderedDict(sd)
    sd._metadata = OrderedDict({"": {"version": 1}})
    bn.load_state_dict(sd)
    assert bn.running_mean.tolist() == [1., 2.] and bn.num_batches_tracked.item() == 0


def test_twice_differentiable():
    x = torch.randn(5, 2, dtype=torch.float64, requires_grad=True)
    w = torch.randn(2, dtype=torch.float64, requires_grad=True)
    b = torch.randn(2, dtype=torch.float64, requires_grad=True)
    f = torch.nn.functional.batch_norm
    assert torch.autograd.gradgradcheck(lambda x, w, b: f(x, None, None, w, b, training=True), (x, w, b))
    rm, rv = torch.zeros(2, dtype=torch.float64), torch.ones(2, dtype=torch.float64)
    assert torch.autograd.gradgradcheck(lambda x, w, b: f(x, rm, rv, w, b), (x, w, b))


@pytest.mark.parametrize("call,etype,msg", [
    (lambda: torch.nn.functional.batch_norm(torch.zeros(4, 3), torch.zeros(4), torch.ones(4)),
     RuntimeError, "running_mean should contain 3 elements not 4"),
    (lambda: torch.nn.functional.batch_norm(torch.zeros(4, 3), None, None),
     RuntimeError, "running_mean must be defined in evaluation mode"),
    (lambda: torch.nn.functional.batch_norm(torch.zeros(4, 3), torch.zeros(3), None),
     RuntimeError, "running_var must be defined in evaluation mode"),
    (lambda: torch.nn.functional.batch_norm(torch.zeros(4, 3), None, None, torch.ones(2), training=True),
     RuntimeError, "weight should contain 3 elements not 2"),
    (lambda: torch.nn.functional.batch_norm(torch.zeros(1, 3, 1), None, None, training=True),
     ValueError, "Expected more than 1 value per channel when training, got input size torch.Size([1, 3, 1])"),
    (lambda: torch.nn.functional.batch_norm(torch.zeros(4, 3), None, None, training=True, eps=0),
     ValueError, "batch_norm eps must be positive during training, but got 0"),
    (lambda: torch.nn.BatchNorm1d(3)(torch.zeros(2, 3, 4, 5)), ValueError, "expected 2D or 3D input (got 4D input)"),
    (lambda: torch.nn.BatchNorm2d(3)(torch.zeros(2, 3, 4)), ValueError, "expected 4D input (got 3D input)"),
    (lambda: torch.nn.BatchNorm3d(3)(torch.zeros(2, 3, 4, 4)), ValueError, "expected 5D input (got 4D input)"),
])
def test_errors(call, etype, msg):
    raises(call, msg, etype)


def test_instance_norm_normalises_each_sample_and_channel():
    torch.manual_seed(0)
    x = torch.randn(2, 3, 4, 5, dtype=torch.float64, requires_grad=True)
    m = torch.nn.InstanceNorm2d(3, affine=True, track_running_stats=True, dtype=torch.float64)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([1., 2., 3.]))
    y = m(x)
    assert name(y) == "ViewBackward0"  # batch norm of (1, N*C, H, W), viewed back
    mean = x.mean((2, 3), keepdim=True)
    var = x.var((2, 3), unbiased=False, keepdim=True)
    expected = (x - mean) / (var + 1e-5).sqrt() * torch.tensor([1., 2., 3.], dtype=torch.float64).view(1, 3, 1, 1)
    assert torch.allclose(y, expected, atol=1e-12)
    # running stats: the batch's update averaged over the samples
    assert torch.allclose(m.running_mean, 0.1 * mean.view(2, 3).mean(0))
    assert torch.allclose(m.running_var, 0.9 + 0.1 * x.var((2, 3)).mean(0))
    assert torch.autograd.gradcheck(lambda x: torch.nn.functional.instance_norm(x), (x.detach()[:, :, :2, :2].requires_grad_(),))
    assert repr(torch.nn.InstanceNorm2d(3)) == (
        "InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)")
    one = torch.nn.InstanceNorm1d(2)(torch.tensor([[1., 3.], [0., 4.]]))  # no batch dim
    assert torch.allclose(one, torch.tensor([[-1., 1.], [-1., 1.]]), atol=1e-5)


def test_instance_norm_errors_and_warning():
    raises(lambda: torch.nn.InstanceNorm2d(3)(torch.zeros(2, 3)), "expected 3D or 4D input (got 2D input)", ValueError)
    raises(lambda: torch.nn.InstanceNorm2d(3, affine=True)(torch.zeros(1, 2, 3, 3)),
           "expected input's size at dim=1 to match num_features (3), but got: 2.", ValueError)
    raises(lambda: torch.nn.functional.instance_norm(torch.zeros(2, 3, 1)),
           "Expected more than 1 spatial element when training, got input size torch.Size([2, 3, 1])", ValueError)
    with pytest.warns(UserWarning, match="input's size at dim=1 does not match num_features"):
        torch.nn.InstanceNorm2d(3)(torch.zeros(1, 2, 3, 3))
    # parameters of another dtype than the input are refused, as by PyTorch's CPU kernel
    raises(lambda: torch.nn.BatchNorm1d(3)(torch.zeros(4, 3, dtype=torch.float64)),
           "mixed dtype (CPU): all inputs must share same datatype.")


def test_data_parallel_calls_the_module():
    lin = torch.nn.Linear(2, 1)
    dp = torch.nn.DataParallel(lin)
    assert list(dp.state_dict()) == ["module.weight", "module.bias"]
    assert repr(dp) == "DataParallel(\n  (module): Linear(in_features=2, out_features=1, bias=True)\n)"
    x = torch.ones(3, 2)
    if torch.cuda.is_available():  # one device: the module must be there already
        raises(lambda: dp(x), "module must have its parameters and buffers on device cuda:0 (device_ids[0]) but "
               "found one of them on device: cpu")
        lin.cuda()
    assert torch.equal(dp(x), lin(x.to(lin.weight.device)))


def test_group_norm():
    x = torch.arange(12.0).reshape(2, 6) ** 1.5
    x.requires_grad_()
    w = torch.tensor([1.0, 2.0, -1.0, 0.5, 1.5, 3.0], requires_grad=True)
    b = torch.tensor([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], requires_grad=True)
    y = torch.nn.functional.group_norm(x, 3, w, b, eps=1e-3)
    assert type(y.grad_fn).__name__ == "NativeGroupNormBackward0"
    assert y[0].tolist() == pytest.approx([-0.898, 2.196, 1.2996, 0.8998, -0.9997, 3.5994], abs=1e-4)
    gy = torch.tensor([[1.0, -2.0, 0.5, 0.25, 3.0, -1.0]] * 2)
    gx, gw, gb = torch.autograd.grad(y, [x, w, b], gy)
    assert gx[0].tolist() == pytest.approx([0.0199, -0.0199, -0.0002, 0.0002, 0.0009, -0.0009], abs=1e-4)
    assert gw.tolist() == pytest.approx([-1.9979, -3.9957, -0.9998, 0.4999, -5.9992, -1.9997], abs=1e-4)
    assert gb.tolist() == [2.0, -4.0, 1.0, 0.5, 6.0, -2.0]
    m = torch.nn.GroupNorm(3, 6)
    assert repr(m) == "GroupNorm(3, 6, eps=1e-05, affine=True, bias=True)" and list(m.state_dict()) == ["weight", "bias"]
    assert repr(torch.nn.GroupNorm(2, 4, affine=False)) == "GroupNorm(2, 4, eps=1e-05, affine=False, bias=False)"
    with pytest.raises(ValueError, match=r"^num_channels \(6\) must be divisible by num_groups \(4\)$"):
        torch.nn.GroupNorm(4, 6)
    with pytest.raises(RuntimeError, match="^Expected number of channels in input to be divisible by num_groups, "
                                           r"but got input of shape \[2, 6, 3\] and num_groups=4$"):
        torch.nn.functional.group_norm(torch.zeros(2, 6, 3), 4)
    with pytest.raises(NotImplementedError, match="\"GroupNormKernelImpl\" not implemented for 'Long'"):
        torch.nn.functional.group_norm(torch.tensor([[1, 2]]), 1)
    with pytest.raises(ValueError, match="^Expected more than 1 value per channel when training"):
        torch.nn.functional.group_norm(torch.zeros(1, 2, 1), 2)
