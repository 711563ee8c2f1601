"""nn.utils.parametrize and nn.utils.parametrizations (weight_norm, spectral_norm).

Written against the PyTorch API; values recorded from PyTorch 2.15; every test also passes with
LEAFGRAD_TEST_TORCH=1.
"""
import copy
import pickle

import leafgrad as torch
import pytest
from leafgrad import nn
from leafgrad.nn.utils import parametrize as P
from leafgrad.nn.utils.parametrizations import spectral_norm, weight_norm


class Double(nn.Module):
    def forward(self, X):
        return 2 * X

    def right_inverse(self, Y):
        return Y / 2


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


class RankOne(nn.Module):
    def forward(self, x, y):
        return x.unsqueeze(-1) @ y.unsqueeze(-2)

    def right_inverse(self, Z):
        return Z[:, 0], Z[0, :]


def close(t, values, tol=1e-4):
    got = t.detach().flatten()[: len(values)].tolist()
    assert got == pytest.approx(values, rel=tol, abs=tol), got


def test_register_swaps_class_and_moves_the_parameter():
    m = nn.Linear(3, 3, bias=False)
    orig = m.weight
    with torch.no_grad():
        m.weight.copy_(torch.arange(9.).view(3, 3))
    P.register_parametrization(m, "weight", Symmetric())
    assert type(m).__name__ == "ParametrizedLinear"
    assert isinstance(m, nn.Linear) and type(m).__bases__ == (nn.Linear,)
    assert P.type_before_parametrizations(m) is nn.Linear
    assert m.parametrizations.weight.original is orig
    assert isinstance(m.parametrizations, nn.ModuleDict)
    assert isinstance(m.parametrizations.weight, P.ParametrizationList)
    assert m.weight.tolist() == [[0., 1., 2.], [1., 4., 5.], [2., 5., 8.]]
    assert m.weight.grad_fn is not None
    assert [n for n, _ in m.named_parameters()] == ["parametrizations.weight.original"]
    assert list(m.state_dict()) == ["parametrizations.weight.original"]
    assert P.is_parametrized(m) and P.is_parametrized(m, "weight")
    assert not P.is_parametrized(m, "bias")
    assert not P.is_parametrized(nn.Linear(2, 2))
    # gradients flow to the original
    m.weight.sum().backward()
    assert orig.grad.tolist() == [[1., 2., 2.], [0., 1., 2.], [0., 0., 1.]]


def test_right_inverse_assignment_chain_and_removal():
    m = nn.Linear(2, 2)
    with torch.no_grad():
        m.bias.copy_(torch.tensor([1., 2.]))
    P.register_parametrization(m, "bias", Double())
    # right_inverse ran at registration: the original is bias / 2, so bias is unchanged
    assert m.parametrizations.bias.original.tolist() == [0.5, 1.0]
    assert m.bias.tolist() == [1., 2.]
    m.bias = torch.tensor([4., 6.])
    assert m.parametrizations.bias.original.tolist() == [2., 3.]
    P.register_parametrization(m, "bias", Double())
    assert len(m.parametrizations.bias) == 2
    assert m.bias.tolist() == [8., 12.]
    P.remove_parametrizations(m, "bias")
    assert type(m) is nn.Linear
    assert not hasattr(m, "parametrizations")
    assert isinstance(m.bias, nn.Parameter) and m.bias.tolist() == [8., 12.]
    assert list(m.state_dict()) == ["weight", "bias"]


def test_remove_leave_parametrized_false_keeps_the_original():
    m = nn.Linear(2, 2)
    with torch.no_grad():
        m.bias.copy_(torch.tensor([1., 2.]))
    P.register_parametrization(m, "bias", Double())
    P.register_parametrization(m, "weight", Symmetric())
    P.remove_parametrizations(m, "bias", leave_parametrized=False)
    assert type(m).__name__ == "ParametrizedLinear"
    assert m.bias.tolist() == [0.5, 1.0]
    P.remove_parametrizations(m, "weight")
    assert type(m) is nn.Linear
    with pytest.raises(ValueError, match="does not have a parametrization on weight"):
        P.remove_parametrizations(m, "weight")


def test_tuple_right_inverse_originals():
    m = nn.Linear(3, 3, bias=False)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([[1., 2., 3.], [2., 4., 6.], [3., 6., 9.]]))
    P.register_parametrization(m, "weight", RankOne())
    pl = m.parametrizations.weight
    assert not pl.is_tensor and pl.ntensors == 2
    assert list(m.state_dict()) == ["parametrizations.weight.original0", "parametrizations.weight.original1"]
    assert isinstance(pl.original0, nn.Parameter)
    assert pl.original0.tolist() == [1., 2., 3.]
    assert m.weight.tolist() == [[1., 2., 3.], [2., 4., 6.], [3., 6., 9.]]
    with pytest.raises(ValueError, match="Cannot leave unparametrized"):
        P.remove_parametrizations(m, "weight", leave_parametrized=False)
    P.remove_parametrizations(m, "weight")
    assert isinstance(m.weight, nn.Parameter)


def test_errors():
    m = nn.Linear(2, 2)
    with pytest.raises(ValueError, match="does not have a parameter, a buffer, or a parametrized element with name 'foo'"):
        P.register_parametrization(m, "foo", Double())

    class Shape(nn.Module):
        def forward(self, X):
            return X.flatten()

    with pytest.raises(ValueError, match="may not change the shape"):
        P.register_parametrization(m, "weight", Shape())
    P.register_parametrization(m, "weight", Shape(), unsafe=True)
    assert m.weight.shape == (4,)

    class NoInverse(nn.Module):
        def forward(self, X):
            return X + 1

    P.register_parametrization(m, "bias", NoInverse())
    with pytest.raises(RuntimeError, match="parametrization NoInverse does not implement right_inverse."):
        m.bias = torch.zeros(2)
    with pytest.raises(RuntimeError, match="Serialization of parametrized modules is only supported through state_dict()"):
        pickle.dumps(m)


def test_cached_and_buffers_and_deepcopy():
    m = nn.Linear(2, 2)
    P.register_parametrization(m, "bias", Double())
    with P.cached():
        assert m.bias is m.bias
        with P.cached():
            b = m.bias
        assert m.bias is b
    assert m.bias is not m.bias
    bn = nn.BatchNorm1d(2)
    P.register_parametrization(bn, "running_mean", Double())
    assert "parametrizations.running_mean.original" in bn.state_dict()
    assert not any("running_mean" in n for n, _ in bn.named_parameters())
    c = copy.deepcopy(m)
    assert type(c).__name__ == "ParametrizedLinear"
    assert c.bias.tolist() == m.bias.tolist()


def _train(kind):
    torch.manual_seed(0)
    m = nn.Conv2d(2, 3, 2) if kind == "snconv" else nn.Linear(4, 3)
    if kind == "wn":
        m = weight_norm(m)
    if kind == "wnN":
        m = weight_norm(m, dim=None)
    if kind.startswith("sn"):
        m = spectral_norm(m)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    x = torch.randn(5, 2, 4, 4) if kind == "snconv" else torch.randn(5, 4)
    for _ in range(3):
        opt.zero_grad()
        (m(x) ** 2).sum().backward()
        opt.step()
    return m


# Recorded from PyTorch: parameter gradients of the last step, then the state_dict
TRAINED = {
    "wn": ({"bias": [-0.131367, 0.025899, -0.035248],
            "parametrizations.weight.original0": [0.211055, 0.302914, 0.136135],
            "parametrizations.weight.original1": [-0.28896, -0.134182, -0.359299]},
           {"bias": [-0.065016, 0.009312, -0.017917],
            "parametrizations.weight.original0": [0.404769, 0.077368, 0.10278],
            "parametrizations.weight.original1": [0.328237, 0.284326, -0.303668]}),
    "wnN": ({"bias": [-0.21289, -0.119251, -0.058427],
             "parametrizations.weight.original0": [0.395983],
             "parametrizations.weight.original1": [-0.240275, -0.04267, -0.106099]},
            {"bias": [-0.050597, 0.022893, -0.016128],
             "parametrizations.weight.original0": [0.349513],
             "parametrizations.weight.original1": [0.32333, 0.323681, -0.387155]}),
    "sn": ({"bias": [-7.311113, -7.404989, -4.868539],
            "parametrizations.weight.original": [-0.662831, 1.257849, 1.100893]},
           {"bias": [-0.225869, 0.352238, -0.006685],
            "parametrizations.weight.original": [1.072948, -0.247307, -2.47955],
            "parametrizations.weight.0._u": [0.734468, -0.659551, 0.15984],
            "parametrizations.weight.0._v": [0.469023, -0.059234, -0.688591]}),
    "snconv": ({"bias": [-212.812607, -256.527893, 2453.245117],
                "parametrizations.weight.original": [-0.172566, -0.196663, -0.082461]},
               {"bias": [18.864128, 22.720118, -218.052383],
                "parametrizations.weight.original": [2.718194, 4.682369, -2.134984],
                "parametrizations.weight.0._u": [-0.724195, -0.196019, -0.661149],
                "parametrizations.weight.0._v": [-0.33885, -0.606573, 0.319302]}),
}


@pytest.mark.parametrize("kind", sorted(TRAINED))
def test_weight_and_spectral_norm_train_as_pytorch(kind):
    m = _train(kind)
    grads, state = TRAINED[kind]
    assert [n for n, _ in m.named_parameters()] == list(grads)
    for n, p in m.named_parameters():
        close(p.grad, grads[n])
    sd = m.state_dict()
    assert list(sd) == list(state)
    for k, v in state.items():
        close(sd[k], v)


def test_weight_norm_values():
    torch.manual_seed(0)
    m = weight_norm(nn.Linear(3, 2))
    assert type(m).__name__ == "ParametrizedLinear"
    g = m.parametrizations.weight.original0
    v = m.parametrizations.weight.original1
    assert isinstance(g, nn.Parameter) and g.shape == (2, 1)
    close(g, [0.567192, 0.503877])
    close(m.weight, [-0.004316, 0.309668, -0.475163, -0.424863, -0.222366, 0.154786])
    assert torch.allclose(m.weight, v * (g / v.norm(2, 1, keepdim=True)))
    m1 = weight_norm(nn.Linear(3, 2), dim=1)
    assert m1.parametrizations.weight.original0.shape == (1, 3)
    mn = weight_norm(nn.Linear(3, 2), dim=None)
    assert mn.parametrizations.weight.original0.shape == ()


def test_spectral_norm_values_and_modes():
    torch.manual_seed(0)
    m = spectral_norm(nn.Linear(3, 2))
    close(m.weight, [-0.006574, 0.471011, -0.722639, -0.646131, -0.338131, 0.235364])
    sn = m.parametrizations.weight[0]
    close(sn._u, [0.785603, -0.618731])
    u = sn._u.clone()
    m.eval()
    m.weight
    assert torch.equal(sn._u, u)
    m.train()
    m.weight
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original",
                                    "parametrizations.weight.0._u", "parametrizations.weight.0._v"]
    with pytest.raises(ValueError, match="has no parameter or buffer with name 'foo'"):
        spectral_norm(nn.Linear(2, 2), name="foo")
    with pytest.raises(ValueError, match="Expected n_power_iterations to be positive"):
        spectral_norm(nn.Linear(2, 2), n_power_iterations=0)
    ct = spectral_norm(nn.ConvTranspose2d(2, 3, 2))
    assert ct.parametrizations.weight[0].dim == 1


def test_old_weight_norm_hook_api():
    import warnings

    torch.manual_seed(0)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m = torch.nn.utils.weight_norm(nn.Linear(3, 2))
    assert [(x.category, str(x.message)) for x in w] == [(FutureWarning, (
        "`torch.nn.utils.weight_norm` is deprecated in favor of "
        "`torch.nn.utils.parametrizations.weight_norm`."))]
    assert type(m) is nn.Linear
    assert list(m.state_dict()) == ["bias", "weight_g", "weight_v"]
    close(m.weight_g, [0.567192, 0.503877])
    close(m.weight, [-0.004316, 0.309668, -0.475163, -0.424863, -0.222366, 0.154786])
    with torch.no_grad():
        m.weight_g.mul_(2)
    out = m(torch.ones(1, 3))  # the pre-hook recomputes the weight
    close(m.weight, [-0.008632, 0.619336, -0.950326])
    out.sum().backward()
    assert m.weight_g.grad is not None and m.weight_v.grad is not None
    with pytest.raises(RuntimeError, match="Cannot register two weight_norm hooks on the same parameter weight"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.nn.utils.weight_norm(m)
    torch.nn.utils.remove_weight_norm(m)
    assert list(m.state_dict()) == ["bias", "weight"]
    assert isinstance(m.weight, nn.Parameter)
    close(m.weight, [-0.008632, 0.619336, -0.950326])
    with pytest.raises(ValueError, match="weight_norm of 'weight' not found in Linear"):
        torch.nn.utils.remove_weight_norm(m)


def test_old_spectral_norm_hook_api():
    torch.manual_seed(0)
    m = torch.nn.utils.spectral_norm(nn.Linear(4, 3))
    assert type(m) is nn.Linear
    assert list(m.state_dict()) == ["bias", "weight_orig", "weight_u", "weight_v"]
    close(m.weight_u, [0.5964, 0.8014, -0.0446])
    x = torch.randn(5, 4)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        (m(x) ** 2).sum().backward()
        opt.step()
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight_orig"]
    close(m.weight_orig.grad, [2.809705, -0.542933, 1.437788])
    close(m.bias.grad, [-0.650225, 0.016182, -0.371453])
    sd = m.state_dict()
    close(sd["weight_orig"], [1.034568, -0.435125, -2.798623])
    close(sd["weight_u"], [0.820623, 0.375802, 0.430523])
    close(sd["weight_v"], [0.321851, -0.09916, -0.791864])
    m.eval()
    u = m.weight_u.clone()
    m(x)
    assert torch.equal(u, m.weight_u)
    with pytest.raises(RuntimeError, match="Cannot register two spectral_norm hooks on the same parameter weight"):
        torch.nn.utils.spectral_norm(m)
    torch.nn.utils.remove_spectral_norm(m)
    assert list(m.state_dict()) == ["bias", "weight"]
    close(m.weight, [0.247631, -0.10415, -0.669869])
    with pytest.raises(ValueError, match="spectral_norm of 'weight' not found in Linear"):
        torch.nn.utils.remove_spectral_norm(m)
    ct = torch.nn.utils.spectral_norm(nn.ConvTranspose2d(2, 3, 2))
    assert ct.weight_u.shape == (3,)
