"""torch.distributions: values, shapes, reprs, validation errors, seeded samples, KL divergences
and gradients, with expectations recorded from PyTorch 2.15 (these run against it with
LEAFGRAD_TEST_TORCH=1)."""
import math
import warnings

import pytest

import leafgrad as torch
from support import leafgrad_only

D = torch.distributions
C = torch.distributions.constraints
t = torch.tensor
f64 = torch.float64

P = t([0.2, 0.3, 0.5])
P2 = t([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]])
L2 = t([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0]])
LOC = t([0.0, 1.0, -2.0])
SCALE = t([1.0, 0.5, 2.0])
BP = t([0.1, 0.5, 0.9, 0.0])
MU = t([1.0, -1.0])
COV = t([[2.0, 0.5], [0.5, 1.0]])


def seeded(fn):
    def run():
        torch.manual_seed(0)
        return fn()
    return run


# ---- seeded draws: leafgrad's generator gives PyTorch's bits for these samplers ----

SAMPLE_CASES = {
    "categorical": seeded(lambda: D.Categorical(P2).sample((4,))),
    "categorical_scalar": seeded(lambda: D.Categorical(P).sample()),
    "categorical_logits": seeded(lambda: D.Categorical(logits=L2).sample((2, 3))),
    "one_hot": seeded(lambda: D.OneHotCategorical(P2).sample((2,))),
    "normal_sample": seeded(lambda: D.Normal(LOC, SCALE).sample((2,))),
    "normal_rsample": seeded(lambda: D.Normal(LOC, SCALE).rsample((2,))),
    "normal_scalar": seeded(lambda: D.Normal(0.0, 1.0).sample((3,))),
    "bernoulli": seeded(lambda: D.Bernoulli(BP).sample((3,))),
    "bernoulli_logits": seeded(lambda: D.Bernoulli(logits=t([0.2, -1.0])).sample((5,))),
    "uniform": seeded(lambda: D.Uniform(t([0.0, -1.0]), t([1.0, 3.0])).sample((3,))),
    "uniform_rsample": seeded(lambda: D.Uniform(0.0, 5.0).rsample((4,))),
    "exponential": seeded(lambda: D.Exponential(t([1.0, 2.0])).sample((3,))),
    "exponential_rsample": seeded(lambda: D.Exponential(0.5).rsample((3,))),
    "mvn": seeded(lambda: D.MultivariateNormal(MU, COV).sample((3,))),
    "lognormal": seeded(lambda: D.LogNormal(t([0.0, 1.0]), t([1.0, 0.5])).rsample((2,))),
    "independent": seeded(lambda: D.Independent(D.Normal(LOC, SCALE), 1).rsample((2,))),
    "tanh_affine": seeded(lambda: D.TransformedDistribution(
        D.Normal(t([0.0, 1.0]), t([1.0, 0.5])), [D.TanhTransform(), D.AffineTransform(0.0, 2.0)]).sample((2,))),
    "normal_float64": seeded(lambda: D.Normal(torch.zeros(3, dtype=f64), 2.0).rsample()),
}

@pytest.mark.parametrize("name", sorted(SAMPLE_CASES))
def test_seeded_samples_are_pytorchs(name):
    got = SAMPLE_CASES[name]()
    dtype, want = SAMPLES[name]
    assert str(got.dtype) == dtype
    assert got.tolist() == want


def test_laplace_sample_matches_pytorch_to_an_ulp():
    torch.manual_seed(0)
    got = D.Laplace(t([0.0, 1.0]), t([1.0, 2.0])).sample((3,))
    want = LAPLACE_SAMPLE
    assert got.shape == (3, 2)
    for g, w in zip(got.flatten().tolist(), [x for row in want for x in row]):
        assert abs(g - w) <= 2e-7 * max(1.0, abs(w))


# ---- values: log_prob, entropy, cdf, icdf, moments ----

VALUE_CASES = {
    "cat_log_prob": lambda: D.Categorical(P2).log_prob(t([[0, 2], [1, 1], [2, 0]])),
    "cat_log_prob_logits": lambda: D.Categorical(logits=L2).log_prob(t([2, 1])),
    "cat_entropy": lambda: D.Categorical(P2).entropy(),
    "cat_entropy_zero_prob": lambda: D.Categorical(t([0.0, 0.5, 0.5])).entropy(),
    "cat_probs_from_logits": lambda: D.Categorical(logits=L2).probs,
    "cat_logits_from_probs": lambda: D.Categorical(P2).logits,
    "cat_normalises": lambda: D.Categorical(t([1.0, 3.0])).probs,
    "cat_mean_is_nan": lambda: D.Categorical(P2).mean,
    "cat_mode": lambda: D.Categorical(P2).mode,
    "cat_perplexity": lambda: D.Categorical(P2).perplexity(),
    "one_hot_log_prob": lambda: D.OneHotCategorical(P2).log_prob(t([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])),
    "one_hot_mode": lambda: D.OneHotCategorical(P2).mode,
    "one_hot_variance": lambda: D.OneHotCategorical(P2).variance,
    "normal_log_prob": lambda: D.Normal(LOC, SCALE).log_prob(t([0.5, 0.5, 0.5])),
    "normal_log_prob_f64": lambda: D.Normal(LOC.double(), SCALE.double()).log_prob(t([0.5, 0.5, 0.5], dtype=f64)),
    "normal_cdf": lambda: D.Normal(LOC, SCALE).cdf(t([0.5, 0.5, 0.5])),
    "normal_icdf": lambda: D.Normal(LOC, SCALE).icdf(t([0.1, 0.5, 0.9])),
    "normal_entropy": lambda: D.Normal(LOC, SCALE).entropy(),
    "normal_variance": lambda: D.Normal(LOC, SCALE).variance,
    "normal_no_validation": lambda: D.Normal(0.0, -1.0, validate_args=False).log_prob(t(0.0)),
    "bernoulli_log_prob": lambda: D.Bernoulli(BP).log_prob(t([1.0, 0.0, 1.0, 0.0])),
    "bernoulli_log_prob_logits": lambda: D.Bernoulli(logits=t([0.2, -1.0])).log_prob(t([1.0, 0.0])),
    "bernoulli_entropy": lambda: D.Bernoulli(BP).entropy(),
    "bernoulli_mode": lambda: D.Bernoulli(BP).mode,
    "bernoulli_variance": lambda: D.Bernoulli(BP).variance,
    "bernoulli_logits": lambda: D.Bernoulli(BP).logits,
    "uniform_log_prob": lambda: D.Uniform(t([0.0, -1.0]), t([1.0, 3.0])).log_prob(t([0.5, 2.0])),
    "uniform_log_prob_outside": lambda: D.Uniform(0.0, 1.0, validate_args=False).log_prob(t([1.5, 0.0, 1.0])),
    "uniform_cdf": lambda: D.Uniform(0.0, 2.0).cdf(t([0.5, 1.5])),
    "uniform_icdf": lambda: D.Uniform(0.0, 2.0).icdf(t([0.5, 0.25])),
    "uniform_entropy": lambda: D.Uniform(t([0.0, -1.0]), t([1.0, 3.0])).entropy(),
    "uniform_stddev": lambda: D.Uniform(t([0.0, -1.0]), t([1.0, 3.0])).stddev,
    "exponential_log_prob": lambda: D.Exponential(t([1.0, 2.0])).log_prob(t([0.5, 1.5])),
    "exponential_cdf": lambda: D.Exponential(t([1.0, 2.0])).cdf(t([0.5, 1.5])),
    "exponential_icdf": lambda: D.Exponential(t([1.0, 2.0])).icdf(t([0.5, 0.9])),
    "exponential_entropy": lambda: D.Exponential(t([1.0, 2.0])).entropy(),
    "laplace_log_prob": lambda: D.Laplace(t([0.0, 1.0]), t([1.0, 2.0])).log_prob(t([0.5, -1.0])),
    "laplace_cdf": lambda: D.Laplace(t([0.0, 1.0]), t([1.0, 2.0])).cdf(t([0.5, -1.0])),
    "laplace_icdf": lambda: D.Laplace(t([0.0, 1.0]), t([1.0, 2.0])).icdf(t([0.2, 0.7])),
    "laplace_entropy": lambda: D.Laplace(t([0.0, 1.0]), t([1.0, 2.0])).entropy(),
    "lognormal_log_prob": lambda: D.LogNormal(t([0.0, 1.0]), t([1.0, 0.5])).log_prob(t([0.5, 2.0])),
    "lognormal_cdf": lambda: D.LogNormal(t([0.0, 1.0]), t([1.0, 0.5])).cdf(t([0.5, 2.0])),
    "lognormal_icdf": lambda: D.LogNormal(t([0.0, 1.0]), t([1.0, 0.5])).icdf(t([0.5, 0.2])),
    "lognormal_entropy": lambda: D.LogNormal(t([0.0, 1.0]), t([1.0, 0.5])).entropy(),
    "lognormal_mean": lambda: D.LogNormal(t([0.0, 1.0]), t([1.0, 0.5])).mean,
    "lognormal_variance": lambda: D.LogNormal(t([0.0, 1.0]), t([1.0, 0.5])).variance,
    "independent_log_prob": lambda: D.Independent(D.Normal(LOC, SCALE), 1).log_prob(
        t([[0.5, 0.5, 0.5], [0.0, 1.0, 2.0]])),
    "independent_entropy": lambda: D.Independent(D.Normal(LOC, SCALE), 1).entropy(),
    "mvn_log_prob": lambda: D.MultivariateNormal(MU, COV).log_prob(t([[0.5, 0.5], [1.0, -1.0], [2.0, 0.0]])),
    "mvn_log_prob_precision": lambda: D.MultivariateNormal(MU, precision_matrix=torch.linalg.inv(COV)).log_prob(
        t([[0.5, 0.5], [1.0, -1.0]])),
    "mvn_log_prob_scale_tril": lambda: D.MultivariateNormal(MU, scale_tril=torch.linalg.cholesky(COV)).log_prob(
        t([[0.5, 0.5], [1.0, -1.0]])),
    "mvn_log_prob_batched": lambda: D.MultivariateNormal(
        torch.zeros(3, 2), torch.stack([COV, 2 * COV, COV + torch.eye(2)])).log_prob(
        t([[0.5, 0.5], [1.0, -1.0], [2.0, 0.0]])),
    "mvn_entropy": lambda: D.MultivariateNormal(MU, COV).entropy(),
    "mvn_entropy_batched": lambda: D.MultivariateNormal(torch.zeros(3, 2), COV).entropy(),
    "mvn_variance": lambda: D.MultivariateNormal(MU, COV).variance,
    "mvn_precision_matrix": lambda: D.MultivariateNormal(MU, COV).precision_matrix,
    "mvn_scale_tril": lambda: D.MultivariateNormal(MU, COV).scale_tril,
    "mvn_covariance_from_precision": lambda: D.MultivariateNormal(MU, precision_matrix=COV).covariance_matrix,
    "poisson_log_prob": lambda: D.Poisson(t([1.0, 2.5, 0.0])).log_prob(t([0.0, 3.0, 0.0])),
    "binomial_log_prob": lambda: D.Binomial(10, t([0.2, 0.5, 0.9])).log_prob(t([2.0, 5.0, 10.0])),
    "binomial_log_prob_logits": lambda: D.Binomial(t([5.0, 10.0]), logits=t([0.3, -1.0])).log_prob(t([2.0, 5.0])),
    "binomial_entropy": lambda: D.Binomial(4, t([0.2, 0.5])).entropy(),
    "binomial_mode": lambda: D.Binomial(4, t([0.2, 0.5])).mode,
    "binomial_enumerate": lambda: D.Binomial(2, t([0.2, 0.5])).enumerate_support(),
    "tanh_log_prob": lambda: D.TransformedDistribution(
        D.Normal(t([0.0, 1.0]), t([1.0, 0.5])), [D.TanhTransform()]).log_prob(t([0.3, -0.5])),
    "affine_log_prob": lambda: D.TransformedDistribution(
        D.Normal(t([0.0, 1.0]), t([1.0, 0.5])), [D.AffineTransform(1.0, t([2.0, -3.0]))]).log_prob(t([0.3, -0.5])),
    "affine_cdf_negative_scale": lambda: D.TransformedDistribution(
        D.Normal(t([0.0, 1.0]), t([1.0, 0.5])), [D.AffineTransform(1.0, t([2.0, -3.0]))]).cdf(t([0.3, -0.5])),
    "sigmoid_power_log_prob": lambda: D.TransformedDistribution(
        D.Normal(t([0.0, 1.0]), t([1.0, 0.5])), [D.SigmoidTransform(), D.PowerTransform(t(2.0))]).log_prob(t([0.3, 0.5])),
    "softplus_log_prob": lambda: D.TransformedDistribution(D.Normal(0.0, 1.0), [D.SoftplusTransform()]).log_prob(
        t([0.3, 2.0])),
    "clamp_probs": lambda: D.utils.clamp_probs(t([0.0, 0.5, 1.0])),
    "probs_to_logits_binary": lambda: D.utils.probs_to_logits(t([0.0, 0.5, 1.0]), is_binary=True),
    "vec_to_tril": lambda: D.utils.vec_to_tril_matrix(t([1.0, 2.0, 3.0])),
}

# KL divergences (closed forms registered with register_kl)
KL_CASES = {
    "normal_normal": lambda: D.kl_divergence(D.Normal(LOC, SCALE), D.Normal(t(0.5), t(1.5))),
    "categorical_categorical": lambda: D.kl_divergence(D.Categorical(P2), D.Categorical(t([0.0, 0.5, 0.5]))),
    "categorical_zero_p": lambda: D.kl_divergence(D.Categorical(t([0.0, 0.5, 0.5])), D.Categorical(P2)),
    "one_hot": lambda: D.kl_divergence(D.OneHotCategorical(P2), D.OneHotCategorical(P)),
    "bernoulli_bernoulli": lambda: D.kl_divergence(D.Bernoulli(BP), D.Bernoulli(t([0.3, 0.0, 1.0, 0.2]))),
    "bernoulli_scalar_q": lambda: D.kl_divergence(D.Bernoulli(t([0.3, 1.0])), D.Bernoulli(t(0.5))),
    "mvn_mvn": lambda: D.kl_divergence(D.MultivariateNormal(MU, COV),
                                       D.MultivariateNormal(torch.zeros(2), t([[1.0, 0.2], [0.2, 3.0]]))),
    "mvn_mvn_batched": lambda: D.kl_divergence(
        D.MultivariateNormal(torch.zeros(3, 2), COV),
        D.MultivariateNormal(MU, torch.stack([COV, 2 * COV, COV + torch.eye(2)]))),
    "independent": lambda: D.kl_divergence(D.Independent(D.Normal(LOC, SCALE), 1),
                                           D.Independent(D.Normal(torch.zeros(3), torch.ones(3)), 1)),
    "uniform_uniform": lambda: D.kl_divergence(D.Uniform(t([0.0, 0.0]), t([1.0, 1.0])),
                                               D.Uniform(t([-1.0, 0.5]), t([2.0, 2.0]))),
    "exponential_exponential": lambda: D.kl_divergence(D.Exponential(t([1.0, 2.0])), D.Exponential(t([3.0, 0.5]))),
    "laplace_laplace": lambda: D.kl_divergence(D.Laplace(t([0.0, 1.0]), t([1.0, 2.0])), D.Laplace(t(0.5), t(1.5))),
    "lognormal_lognormal": lambda: D.kl_divergence(D.LogNormal(t([0.0, 1.0]), t([1.0, 0.5])), D.LogNormal(0.5, 2.0)),
    "poisson_poisson": lambda: D.kl_divergence(D.Poisson(t([1.0, 2.5])), D.Poisson(t([2.0, 2.0]))),
    "binomial_binomial": lambda: D.kl_divergence(D.Binomial(4, t([0.2, 0.5])), D.Binomial(4, t([0.3, 0.6]))),
    "normal_uniform": lambda: D.kl_divergence(D.Normal(0.0, 1.0), D.Uniform(0.0, 1.0)),
    "uniform_normal": lambda: D.kl_divergence(D.Uniform(t([0.0, 1.0]), t([1.0, 3.0])), D.Normal(t(0.5), t(2.0))),
    "uniform_exponential": lambda: D.kl_divergence(D.Uniform(t([0.0, -1.0]), t([1.0, 3.0])), D.Exponential(t(2.0))),
    "exponential_normal": lambda: D.kl_divergence(D.Exponential(t([1.0, 2.0])), D.Normal(t(0.5), t(2.0))),
    "laplace_normal": lambda: D.kl_divergence(D.Laplace(t([0.0, 1.0]), t([1.0, 2.0])), D.Normal(t(0.5), t(2.0))),
    "normal_laplace": lambda: D.kl_divergence(D.Normal(t([0.0, 1.0]), t([1.0, 2.0])), D.Laplace(t(0.5), t(2.0))),
    "bernoulli_poisson": lambda: D.kl_divergence(D.Bernoulli(t([0.2, 0.7])), D.Poisson(t(0.5))),
}

def _close(got, want, rtol):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            _close(g, w, rtol)
        return
    if isinstance(want, float) and math.isnan(want):
        assert math.isnan(got)
    elif isinstance(want, float) and math.isinf(want):
        assert got == want
    else:
        assert abs(got - want) <= rtol * max(1.0, abs(want)), (got, want)


def _check(got, dtype_shape_values, rtol):
    dtype, shape, want = dtype_shape_values
    assert str(got.dtype) == dtype
    assert list(got.shape) == shape
    _close(got.tolist(), want, rtol)


@pytest.mark.parametrize("name", sorted(VALUE_CASES))
def test_values_match_pytorch(name):
    got = VALUE_CASES[name]()
    _check(got, VALUES[name], 1e-6 if VALUES[name][0] == "torch.float32" else 1e-13)


@pytest.mark.parametrize("name", sorted(KL_CASES))
def test_kl_divergence_matches_pytorch(name):
    _check(KL_CASES[name](), KLS[name], 2e-6)


def test_kl_gives_inf_outside_the_support():
    kl = D.kl_divergence(D.Categorical(t([0.5, 0.5, 0.0])), D.Categorical(t([0.0, 0.5, 0.5])))
    assert kl.item() == math.inf
    assert D.kl_divergence(D.Normal(0.0, 1.0), D.Exponential(1.0)).item() == math.inf
    assert D.kl_divergence(D.Poisson(t([0.2, 0.7])), D.Bernoulli(t(0.5))).tolist() == [math.inf, math.inf]


def test_kl_errors_and_register_kl():
    with pytest.raises(NotImplementedError, match=r"^No KL\(p \|\| q\) is implemented for p type Normal and q type Categorical$"):
        D.kl_divergence(D.Normal(0.0, 1.0), D.Categorical(P))
    with pytest.raises(NotImplementedError, match="cross KL-divergence between different exponential families"):
        D.kl_divergence(D.Normal(0.0, 1.0), D.Bernoulli(0.5))
    with pytest.raises(ValueError, match="KL-divergence between two Multivariate Normals with"):
        D.kl_divergence(D.MultivariateNormal(MU, COV), D.MultivariateNormal(torch.zeros(3), torch.eye(3)))

    class MyNormal(D.Normal):
        pass

    # a subclass dispatches to its base class's KL until a more specific pair is registered
    p, q = MyNormal(0.0, 1.0), D.Normal(1.0, 1.0)
    assert D.kl_divergence(p, q).item() == 0.5

    @D.register_kl(MyNormal, D.Normal)
    def _kl_mine(p, q):
        return torch.zeros(())

    try:
        assert D.kl_divergence(p, q).item() == 0.0
        assert D.kl_divergence(q, p).item() == 0.5
    finally:
        del D.kl._KL_REGISTRY[MyNormal, D.Normal]
        D.kl._KL_MEMOIZE.clear()


# ---- shapes, reprs ----

REPRS = [
    (lambda: D.Normal(torch.zeros(2), torch.ones(2)), "Normal(loc: torch.Size([2]), scale: torch.Size([2]))"),
    (lambda: D.Normal(0.0, 1.0), "Normal(loc: 0.0, scale: 1.0)"),
    (lambda: D.Normal(t([0.5]), 1.0), "Normal(loc: tensor([0.5000]), scale: tensor([1.]))"),
    (lambda: D.Categorical(P), "Categorical(probs: torch.Size([3]))"),
    (lambda: D.Categorical(logits=L2), "Categorical(logits: torch.Size([2, 3]))"),
    (lambda: D.Bernoulli(0.3), "Bernoulli(probs: 0.30000001192092896)"),
    (lambda: D.Bernoulli(logits=t([0.2, -1.0])), "Bernoulli(logits: torch.Size([2]))"),
    (lambda: D.Uniform(0.0, t([1.0, 2.0])), "Uniform(low: torch.Size([2]), high: torch.Size([2]))"),
    (lambda: D.Exponential(t([1.0, 2.0])), "Exponential(rate: torch.Size([2]))"),
    (lambda: D.OneHotCategorical(P), "OneHotCategorical()"),
    (lambda: D.MultivariateNormal(MU, COV),
     "MultivariateNormal(loc: torch.Size([2]), covariance_matrix: torch.Size([2, 2]))"),
    (lambda: D.MultivariateNormal(MU, scale_tril=torch.eye(2)),
     "MultivariateNormal(loc: torch.Size([2]), scale_tril: torch.Size([2, 2]))"),
    (lambda: D.Independent(D.Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1),
     "Independent(Normal(loc: torch.Size([2, 3]), scale: torch.Size([2, 3])), 1)"),
    (lambda: D.LogNormal(0.0, 1.0), "LogNormal()"),
    (lambda: D.Poisson(2.0), "Poisson(rate: 2.0)"),
    (lambda: D.Binomial(4, t([0.2, 0.5])), "Binomial(total_count: torch.Size([2]), probs: torch.Size([2]))"),
    (lambda: D.Normal(0.0, 1.0).expand((3,)), "Normal(loc: torch.Size([3]), scale: torch.Size([3]))"),
    (lambda: D.Categorical(P).expand((2,)), "Categorical(probs: torch.Size([2, 3]))"),
    (lambda: D.ComposeTransform([D.ExpTransform(), D.AffineTransform(0.0, 2.0)]),
     "ComposeTransform(\n    ExpTransform(),\n    AffineTransform()\n)"),
    (lambda: D.ExpTransform().inv, "_InverseTransform(ExpTransform())"),
]


@pytest.mark.parametrize("make,want", REPRS)
def test_reprs(make, want):
    assert repr(make()) == want


def test_shapes():
    n = D.Normal(torch.zeros(2, 1), torch.ones(3))
    assert n.batch_shape == (2, 3) and n.event_shape == ()
    assert n.sample().shape == (2, 3)
    assert n.sample((4, 5)).shape == (4, 5, 2, 3)
    assert n.rsample(torch.Size([4])).shape == (4, 2, 3)
    assert isinstance(n.batch_shape, torch.Size)

    c = D.Categorical(P2)
    assert (c.batch_shape, c.event_shape, c.param_shape) == ((2,), (), (2, 3))
    assert c.sample().dtype == torch.int64 and c.sample((5,)).shape == (5, 2)
    assert c.enumerate_support().tolist() == [[0, 0], [1, 1], [2, 2]]
    assert c.enumerate_support(expand=False).shape == (3, 1)
    assert c.expand((4, 2)).sample().shape == (4, 2)

    oh = D.OneHotCategorical(P2)
    assert (oh.batch_shape, oh.event_shape) == ((2,), (3,))
    assert oh.sample((5,)).shape == (5, 2, 3)
    assert oh.enumerate_support().shape == (3, 2, 3)

    b = D.Bernoulli(0.3)
    assert b.batch_shape == () and b.sample((2,)).shape == (2,)
    assert D.Bernoulli(BP[:2]).enumerate_support().tolist() == [[0.0, 0.0], [1.0, 1.0]]

    m = D.MultivariateNormal(torch.zeros(3, 2), COV)
    assert (m.batch_shape, m.event_shape) == ((3,), (2,))
    assert m.sample((4,)).shape == (4, 3, 2)
    assert m.log_prob(torch.ones(4, 3, 2)).shape == (4, 3)
    assert m.covariance_matrix.shape == (3, 2, 2)
    assert m.expand((5, 3)).sample().shape == (5, 3, 2)

    i = D.Independent(D.Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1)
    assert (i.batch_shape, i.event_shape) == ((2,), (3,))
    assert D.Independent(D.Normal(torch.zeros(2, 3), torch.ones(2, 3)), 2).event_shape == (2, 3)
    assert i.expand((4, 2)).sample().shape == (4, 2, 3)

    ln = D.LogNormal(t([0.0, 1.0]), t([1.0, 0.5]))
    assert ln.batch_shape == (2,) and ln.expand((3, 2)).batch_shape == (3, 2)
    td = D.TransformedDistribution(D.Normal(t([0.0, 1.0]), t([1.0, 0.5])), [D.AffineTransform(0.0, 1.0, event_dim=1)])
    assert (td.batch_shape, td.event_shape) == ((), (2,))
    assert D.Normal(torch.zeros(2, dtype=f64), 1.0).sample().dtype == f64


def test_properties_and_flags():
    assert D.Normal.has_rsample and not D.Categorical.has_rsample
    assert D.Categorical.has_enumerate_support and D.Bernoulli.has_enumerate_support
    assert D.Independent(D.Normal(LOC, SCALE), 1).has_rsample
    assert not D.Independent(D.Bernoulli(BP), 1).has_enumerate_support
    assert repr(D.Normal.support) == "Real()"
    assert repr(D.Categorical(P).support) == "IntegerInterval(lower_bound=0, upper_bound=2)"
    assert repr(D.Uniform(0.0, 1.0).support) == "Interval(lower_bound=0.0, upper_bound=1.0)"
    assert repr(D.Independent(D.Normal(LOC, SCALE), 1).support) == "IndependentConstraint(Real(), 1)"
    assert repr(D.LogNormal(0.0, 1.0).support) == "GreaterThan(lower_bound=0.0)"
    tanh = D.TransformedDistribution(D.Normal(t([0.0, 1.0]), t([1.0, 0.5])), [D.TanhTransform()])
    assert repr(tanh.support) == "Interval(lower_bound=-1.0, upper_bound=1.0)"
    with pytest.raises(NotImplementedError, match="does not implement mode"):
        D.Distribution(validate_args=False).mode
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert D.Normal(0.0, 1.0).sample_n(3).shape == (3,)
    assert [str(x.message) for x in w] == ["`sample_n(n)` will be deprecated. Use `sample((n,))` instead."]
    assert w[0].category is FutureWarning
    # transforms compare by kind and parameters; they are not hashable (as in PyTorch)
    assert D.ExpTransform() == D.ExpTransform() and D.ExpTransform().inv == D.ExpTransform().inv
    assert D.AffineTransform(0.0, 1.0) == D.AffineTransform(0.0, 1.0) != D.AffineTransform(0.0, 2.0)
    with pytest.raises(TypeError):
        hash(D.ExpTransform())


# ---- validation ----

def _raises(fn, message):
    with pytest.raises(ValueError) as info:
        fn()
    assert str(info.value) == message


def test_parameter_validation_errors():
    _raises(lambda: D.Normal(t([0.0, 1.0]), t([1.0, -1.0])),
            "Expected parameter scale (Tensor of shape (2,)) of distribution Normal(loc: torch.Size([2]), "
            "scale: torch.Size([2])) to satisfy the constraint GreaterThan(lower_bound=0.0), but found invalid "
            "values:\ntensor([ 1., -1.])")
    _raises(lambda: D.Normal(0.0, -1.0),
            "Expected parameter scale (Tensor of shape ()) of distribution Normal(loc: 0.0, scale: -1.0) to satisfy "
            "the constraint GreaterThan(lower_bound=0.0), but found invalid values:\n-1.0")
    _raises(lambda: D.Normal(t([math.nan]), t([1.0])),
            "Expected parameter loc (Tensor of shape (1,)) of distribution Normal(loc: tensor([nan]), "
            "scale: tensor([1.])) to satisfy the constraint Real(), but found invalid values:\ntensor([nan])")
    _raises(lambda: D.Categorical(t([0.5, -0.1, 0.6])),
            "Expected parameter probs (Tensor of shape (3,)) of distribution Categorical(probs: torch.Size([3])) "
            "to satisfy the constraint Simplex(), but found invalid values:\ntensor([ 0.5000, -0.1000,  0.6000])")
    _raises(lambda: D.Bernoulli(t([0.3, 1.5])),
            "Expected parameter probs (Tensor of shape (2,)) of distribution Bernoulli(probs: torch.Size([2])) to "
            "satisfy the constraint Interval(lower_bound=0.0, upper_bound=1.0), but found invalid values:\n"
            "tensor([0.3000, 1.5000])")
    _raises(lambda: D.Uniform(1.0, 0.0),
            "Expected parameter low (Tensor of shape ()) of distribution Uniform(low: 1.0, high: 0.0) to satisfy "
            "the constraint LessThan(upper_bound=0.0), but found invalid values:\n1.0")
    _raises(lambda: D.MultivariateNormal(torch.zeros(2), t([[1.0, 2.0], [2.0, 1.0]])),
            "Expected parameter covariance_matrix (Tensor of shape (2, 2)) of distribution MultivariateNormal("
            "loc: torch.Size([2]), covariance_matrix: torch.Size([2, 2])) to satisfy the constraint "
            "PositiveDefinite(), but found invalid values:\ntensor([[1., 2.],\n        [2., 1.]])")
    _raises(lambda: D.MultivariateNormal(torch.zeros(2), scale_tril=t([[1.0, 2.0], [0.0, 1.0]])),
            "Expected parameter scale_tril (Tensor of shape (2, 2)) of distribution MultivariateNormal("
            "loc: torch.Size([2]), scale_tril: torch.Size([2, 2])) to satisfy the constraint LowerCholesky(), "
            "but found invalid values:\ntensor([[1., 2.],\n        [0., 1.]])")
    _raises(lambda: D.Normal(t([0.0], requires_grad=True), t([-1.0])),
            "Expected parameter scale (Tensor of shape (1,)) of distribution Normal(loc: tensor([0.], "
            "requires_grad=True), scale: tensor([-1.])) to satisfy the constraint GreaterThan(lower_bound=0.0), "
            "but found invalid values:\ntensor([-1.])")
    _raises(lambda: D.Categorical(P, logits=P), "Either `probs` or `logits` must be specified, but not both.")
    _raises(lambda: D.Bernoulli(), "Either `probs` or `logits` must be specified, but not both.")
    _raises(lambda: D.Categorical(t(0.5)), "`probs` parameter must be at least one-dimensional.")
    _raises(lambda: D.MultivariateNormal(torch.zeros(2)),
            "Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
    _raises(lambda: D.MultivariateNormal(t(0.0), COV), "loc must be at least one-dimensional.")
    _raises(lambda: D.MultivariateNormal(torch.zeros(2), scale_tril=t([1.0, 2.0])),
            "scale_tril matrix must be at least two-dimensional, with optional leading batch dimensions")
    _raises(lambda: D.Independent(D.Normal(LOC, SCALE), 2),
            "Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), actual 2 vs 1")


def test_value_validation_errors():
    _raises(lambda: D.Normal(0.0, 1.0).log_prob(1.0), "The value argument to log_prob must be a Tensor")
    _raises(lambda: D.Normal(torch.zeros(2), 1.0).log_prob(torch.zeros(3)),
            "Value is not broadcastable with batch_shape+event_shape: torch.Size([3]) vs torch.Size([2]).")
    _raises(lambda: D.MultivariateNormal(MU, COV).log_prob(torch.zeros(3)),
            "The right-most size of value must match event_shape: torch.Size([3]) vs torch.Size([2]).")
    _raises(lambda: D.Bernoulli(t([0.3, 0.5])).log_prob(t([0.0, 0.5])),
            "Expected value argument (Tensor of shape (2,)) to be within the support (Boolean()) of the "
            "distribution Bernoulli(probs: torch.Size([2])), but found invalid values:\ntensor([0.0000, 0.5000])")
    _raises(lambda: D.Categorical(P).log_prob(t(3)),
            "Expected value argument (Tensor of shape ()) to be within the support (IntegerInterval(lower_bound=0, "
            "upper_bound=2)) of the distribution Categorical(probs: torch.Size([3])), but found invalid values:\n3")
    _raises(lambda: D.Uniform(0.0, 1.0).log_prob(t(2.0)),
            "Expected value argument (Tensor of shape ()) to be within the support (Interval(lower_bound=0.0, "
            "upper_bound=1.0)) of the distribution Uniform(low: 0.0, high: 1.0), but found invalid values:\n2.0")
    _raises(lambda: D.Exponential(1.0).log_prob(t(-1.0)),
            "Expected value argument (Tensor of shape ()) to be within the support (GreaterThanEq(lower_bound=0.0)) "
            "of the distribution Exponential(rate: 1.0), but found invalid values:\n-1.0")
    _raises(lambda: D.OneHotCategorical(P).log_prob(t([1.0, 1.0, 0.0])),
            "Expected value argument (Tensor of shape (3,)) to be within the support (OneHot()) of the distribution "
            "OneHotCategorical(), but found invalid values:\ntensor([1., 1., 0.])")
    _raises(lambda: D.Poisson(t([1.0, 2.5])).log_prob(t([0.5, 1.0])),
            "Expected value argument (Tensor of shape (2,)) to be within the support (IntegerGreaterThan("
            "lower_bound=0)) of the distribution Poisson(rate: torch.Size([2])), but found invalid values:\n"
            "tensor([0.5000, 1.0000])")
    # Independent leaves the check to its base distribution
    _raises(lambda: D.Independent(D.Bernoulli(t([0.3, 0.5])), 1).log_prob(t([0.0, 0.5])),
            "Expected value argument (Tensor of shape (2,)) to be within the support (Boolean()) of the "
            "distribution Bernoulli(probs: torch.Size([2])), but found invalid values:\ntensor([0.0000, 0.5000])")


def test_set_default_validate_args():
    assert D.Distribution._validate_args is True
    D.Distribution.set_default_validate_args(False)
    try:
        d = D.Normal(0.0, -1.0)  # not checked
        assert d.log_prob(t(0.5)).isnan().item()
        assert D.Uniform(0.0, 1.0).log_prob(t(2.0)).item() == -math.inf  # value not checked either
    finally:
        D.Distribution.set_default_validate_args(True)
    with pytest.raises(ValueError):
        D.Normal(0.0, -1.0)
    with pytest.raises(ValueError):
        D.Distribution.set_default_validate_args(3)
    # validate_args=False turns checking off for one distribution
    assert D.Normal(0.0, -1.0, validate_args=False).scale.item() == -1.0


# ---- constraints ----

def test_constraints():
    reprs = [repr(c) for c in [
        C.real, C.positive, C.nonnegative, C.unit_interval, C.simplex, C.boolean, C.one_hot, C.real_vector,
        C.lower_cholesky, C.positive_definite, C.nonnegative_integer, C.positive_integer, C.interval(0, 2),
        C.half_open_interval(0.0, 1.0), C.integer_interval(0, 3), C.greater_than(1.5), C.less_than(2),
        C.greater_than_eq(0), C.independent(C.positive, 2), C.dependent, C.square, C.symmetric]]
    assert reprs == [
        "Real()", "GreaterThan(lower_bound=0.0)", "GreaterThanEq(lower_bound=0.0)",
        "Interval(lower_bound=0.0, upper_bound=1.0)", "Simplex()", "Boolean()", "OneHot()",
        "IndependentConstraint(Real(), 1)", "LowerCholesky()", "PositiveDefinite()",
        "IntegerGreaterThan(lower_bound=0)", "IntegerGreaterThan(lower_bound=1)",
        "Interval(lower_bound=0, upper_bound=2)", "HalfOpenInterval(lower_bound=0.0, upper_bound=1.0)",
        "IntegerInterval(lower_bound=0, upper_bound=3)", "GreaterThan(lower_bound=1.5)",
        "LessThan(upper_bound=2)", "GreaterThanEq(lower_bound=0)", "IndependentConstraint(GreaterThan(lower_bound=0.0), 2)",
        "Dependent()", "Square()", "Symmetric()"]
    assert C.positive.check(t([1.0, 0.0, -1.0])).tolist() == [True, False, False]
    assert C.simplex.check(t([[0.5, 0.5], [0.6, 0.6]])).tolist() == [True, False]
    assert C.real.check(t([math.nan, 1.0])).tolist() == [False, True]
    assert C.integer_interval(0, 3).check(t([0.0, 3.0, 4.0, 1.5])).tolist() == [True, True, False, False]
    pd = t([[[2.0, 1.0], [1.0, 2.0]], [[1.0, 2.0], [2.0, 1.0]]])
    assert C.positive_definite.check(pd).tolist() == [True, False]
    assert C.positive_semidefinite.check(t([[1.0, 0.0], [0.0, 0.0]])).item() is True
    assert C.symmetric.check(t([[1.0, 2.0], [3.0, 1.0]])).item() is False
    assert C.lower_cholesky.check(torch.eye(2)).item() is True
    assert C.independent(C.positive, 1).check(t([[1.0, 2.0], [1.0, -1.0]])).tolist() == [True, False]
    assert C.one_hot.check(t([[0.0, 1.0], [1.0, 1.0]])).tolist() == [True, False]
    assert C.cat([C.positive, C.real], 0, [1, 2]).check(t([1.0, -1.0, 2.0])).tolist() == [True, True, True]
    assert C.stack([C.positive, C.real], 0).check(t([[1.0, -1.0], [-2.0, 2.0]])).tolist() == [[True, False],
                                                                                            [True, True]]
    assert (C.simplex.event_dim, C.real_vector.event_dim, C.positive_definite.event_dim) == (1, 1, 2)
    assert C.boolean.is_discrete and not C.real.is_discrete
    assert C.is_dependent(C.dependent) and C.is_dependent(D.Uniform.support) and not C.is_dependent(C.real)
    with pytest.raises(ValueError, match="Cannot determine validity of dependent constraint"):
        C.dependent.check(t(1.0))
    with pytest.raises(NotImplementedError, match=r"\.event_dim cannot be determined statically"):
        C.dependent.event_dim


# ---- gradients ----

def _p(values):
    return torch.tensor(values, dtype=f64, requires_grad=True)


def _reseeded(fn):
    def run(*args):
        torch.manual_seed(0)
        return fn(*args)
    return run


X3 = [0.3, -0.7, 1.5]
GRADCHECKS = {
    "normal_log_prob": (lambda m, s: D.Normal(m, s).log_prob(t(X3, dtype=f64)),
                        [[0.1, 0.2, -0.3], [1.0, 0.5, 2.0]]),
    "normal_rsample": (_reseeded(lambda m, s: D.Normal(m, s).rsample((2,))), [[0.1, 0.2, -0.3], [1.0, 0.5, 2.0]]),
    "normal_cdf": (lambda m, s: D.Normal(m, s).cdf(t(X3, dtype=f64)), [[0.1, 0.2, -0.3], [1.0, 0.5, 2.0]]),
    "normal_entropy": (lambda s: D.Normal(0.0, s).entropy(), [[1.0, 0.5]]),
    "categorical_log_prob_logits": (lambda lg: D.Categorical(logits=lg).log_prob(t([0, 2])),
                                    [[[0.1, 0.2, -0.3], [1.0, 0.5, 2.0]]]),
    "categorical_log_prob_probs": (lambda p: D.Categorical(probs=p).log_prob(t([0, 2])),
                                   [[[0.1, 0.2, 0.7], [0.3, 0.5, 0.2]]]),
    "categorical_entropy": (lambda lg: D.Categorical(logits=lg).entropy(), [[[0.1, 0.2, -0.3], [1.0, 0.5, 2.0]]]),
    "bernoulli_log_prob": (lambda p: D.Bernoulli(p).log_prob(t([1.0, 0.0], dtype=f64)), [[0.3, 0.6]]),
    "bernoulli_entropy": (lambda p: D.Bernoulli(p).entropy(), [[0.3, 0.6]]),
    "uniform_rsample": (_reseeded(lambda a, b: D.Uniform(a, b).rsample((3,))), [[0.0, -1.0], [1.0, 2.0]]),
    "exponential_rsample": (_reseeded(lambda r: D.Exponential(r).rsample((2,))), [[1.0, 0.5]]),
    "laplace_rsample": (_reseeded(lambda m, s: D.Laplace(m, s).rsample((2,))), [[0.1, 0.2], [1.0, 0.5]]),
    "lognormal_rsample": (_reseeded(lambda m, s: D.LogNormal(m, s).rsample((2,))), [[0.1, 0.2], [1.0, 0.5]]),
    "lognormal_log_prob": (lambda m, s: D.LogNormal(m, s).log_prob(t([0.5, 2.0], dtype=f64)), [[0.1, 0.2], [1.0, 0.5]]),
    "mvn_rsample": (_reseeded(lambda m, L: D.MultivariateNormal(m, scale_tril=L.tril()).rsample((2,))),
                    [[0.5, -0.5], [[1.0, 0.0], [0.3, 0.8]]]),
    "mvn_log_prob_covariance": (
        lambda m, A: D.MultivariateNormal(m, covariance_matrix=A @ A.mT + torch.eye(2, dtype=f64)).log_prob(
            t([[0.2, 0.1], [1.0, -1.0]], dtype=f64)), [[0.5, -0.5], [[1.0, 0.2], [0.3, 0.8]]]),
    "mvn_log_prob_precision": (
        lambda m, A: D.MultivariateNormal(m, precision_matrix=A @ A.mT + torch.eye(2, dtype=f64)).log_prob(
            t([[0.2, 0.1], [1.0, -1.0]], dtype=f64)), [[0.5, -0.5], [[1.0, 0.2], [0.3, 0.8]]]),
    "independent_log_prob": (lambda m, s: D.Independent(D.Normal(m, s), 1).log_prob(t(X3, dtype=f64)),
                             [[0.1, 0.2, -0.3], [1.0, 0.5, 2.0]]),
    "tanh_log_prob": (lambda m, s: D.TransformedDistribution(D.Normal(m, s), [D.TanhTransform()]).log_prob(
        t([0.3, -0.5], dtype=f64)), [[0.1, 0.2], [1.0, 0.5]]),
    "poisson_log_prob": (lambda r: D.Poisson(r).log_prob(t([0.0, 3.0], dtype=f64)), [[1.0, 2.5]]),
    "binomial_log_prob": (lambda p: D.Binomial(5, p).log_prob(t([0.0, 3.0], dtype=f64)), [[0.3, 0.6]]),
    "kl_normal_normal": (lambda m, s: D.kl_divergence(D.Normal(m, s), D.Normal(0.0, 1.0)), [[0.1, 0.2], [1.5, 0.5]]),
    "kl_categorical": (lambda lg: D.kl_divergence(D.Categorical(logits=lg), D.Categorical(t([0.2, 0.3, 0.5], dtype=f64))),
                       [[[0.1, 0.2, -0.3], [1.0, 0.5, 2.0]]]),
    "kl_bernoulli_scalar_q": (lambda p: D.kl_divergence(D.Bernoulli(p), D.Bernoulli(t(0.4, dtype=f64))), [[0.3, 0.6]]),
    "kl_mvn": (lambda m, A: D.kl_divergence(D.MultivariateNormal(m, scale_tril=A.tril() + torch.eye(2, dtype=f64)),
                                            D.MultivariateNormal(torch.zeros(2, dtype=f64), torch.eye(2, dtype=f64))),
               [[0.5, -0.5], [[1.0, 0.0], [0.3, 0.8]]]),
}


@pytest.mark.parametrize("name", sorted(GRADCHECKS))
def test_gradcheck(name):
    fn, args = GRADCHECKS[name]
    assert torch.autograd.gradcheck(fn, tuple(_p(a) for a in args))


def test_rsample_carries_gradients_and_sample_does_not():
    loc = t([0.5, -1.0], requires_grad=True)
    scale = t([1.0, 2.0], requires_grad=True)
    torch.manual_seed(0)
    z = D.Normal(loc, scale).rsample()
    z.sum().backward()
    torch.manual_seed(0)
    eps = torch.empty(2).normal_()
    assert loc.grad.tolist() == [1.0, 1.0]
    assert scale.grad.tolist() == eps.tolist()
    # a parameter that already has the batch shape is kept as it is (PyTorch's broadcast_tensors)
    assert D.Normal(loc, scale).loc is loc and D.Normal(loc, 1.0).loc is loc
    assert D.Normal(loc, torch.ones(3, 2)).loc.grad_fn is not None
    assert not D.Normal(loc, scale).sample().requires_grad
    assert D.Normal(loc, scale).rsample().requires_grad
    assert D.Categorical(logits=loc).sample().requires_grad is False


def test_reinforce_step():
    """pytorch/examples reinforcement_learning/reinforce.py, one episode of three steps."""
    torch.manual_seed(0)
    policy = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    log_probs, actions = [], []
    for step in range(3):
        state = torch.full((1, 4), 0.1 * step)
        probs = torch.softmax(policy(state), dim=1)
        m = D.Categorical(probs)
        action = m.sample()
        assert action.shape == (1,) and action.dtype == torch.int64
        actions.append(action.item())
        log_probs.append(m.log_prob(action))
    rewards = t([1.0, 0.5, 2.0])
    loss = torch.cat([-lp * r for lp, r in zip(log_probs, rewards)]).sum()
    optimizer.zero_grad()
    loss.backward()
    for p in policy.parameters():
        assert p.grad is not None and p.grad.abs().sum().item() > 0
    before = [p.detach().clone() for p in policy.parameters()]
    optimizer.step()
    assert all(not torch.equal(b, p) for b, p in zip(before, policy.parameters()))
    assert actions == REINFORCE_ACTIONS
    _close(loss.item(), REINFORCE_LOSS, 1e-5)


def test_vae_style_kl_and_rsample():
    enc = torch.nn.Linear(3, 4)
    x = torch.ones(5, 3)
    h = enc(x)
    mu, logvar = h[:, :2], h[:, 2:]
    q = D.Independent(D.Normal(mu, torch.exp(0.5 * logvar)), 1)
    prior = D.Independent(D.Normal(torch.zeros(5, 2), torch.ones(5, 2)), 1)
    z = q.rsample()
    kl = D.kl_divergence(q, prior)
    assert z.shape == (5, 2) and kl.shape == (5,)
    closed = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(-1)
    assert torch.allclose(kl, closed, atol=1e-5)
    (kl.sum() + z.sum()).backward()
    assert enc.weight.grad is not None and enc.weight.grad.abs().sum().item() > 0


@leafgrad_only
def test_samplers_leafgrad_lacks_raise():
    with pytest.raises(NotImplementedError, match="torch.poisson"):
        D.Poisson(t([1.0])).sample()
    with pytest.raises(NotImplementedError, match="torch.binomial"):
        D.Binomial(3, t([0.5])).sample()
    assert not hasattr(D, "Gamma") and not hasattr(D, "Beta") and not hasattr(D, "Dirichlet")


# ---- expectations recorded from PyTorch 2.15 ----
nan, inf = math.nan, math.inf

SAMPLES = {
    'bernoulli': ('torch.float32', [[0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 0.0]]),
    'bernoulli_logits': ('torch.float32', [[1.0, 0.0], [1.0, 1.0], [1.0, 0.0], [1.0, 0.0], [1.0, 0.0]]),
    'categorical': ('torch.int64', [[2, 1], [2, 2], [2, 0], [2, 0]]),
    'categorical_logits': ('torch.int64', [[[2, 0], [2, 0], [2, 1]], [[2, 0], [2, 0], [2, 0]]]),
    'categorical_scalar': ('torch.int64', 2),
    'exponential': ('torch.float32', [[3.508326292037964, 0.6151923537254333], [0.615044116973877, 1.267559289932251], [1.0357054471969604, 0.7830644249916077]]),
    'exponential_rsample': ('torch.float32', [7.016652584075928, 2.4607694149017334, 1.230088233947754]),
    'independent': ('torch.float32', [[1.5409960746765137, 0.853285551071167, -6.357578754425049], [0.5684312582015991, 0.45773881673812866, -4.7971906661987305]]),
    'lognormal': ('torch.float32', [[4.669239044189453, 2.347346544265747], [0.11317846179008484, 3.6118340492248535]]),
    'mvn': ('torch.float32', [[3.17929744720459, -0.7296532392501831], [-2.081273317337036, -1.2385995388031006], [-0.5337462425231934, -2.6917028427124023]]),
    'normal_float64': ('torch.float64', [3.0819922164880866, -0.5868578115218928, -4.357578764149115]),
    'normal_rsample': ('torch.float32', [[1.5409960746765137, 0.853285551071167, -6.357578754425049], [0.5684312582015991, 0.45773881673812866, -4.7971906661987305]]),
    'normal_sample': ('torch.float32', [[1.5409960746765137, 0.853285551071167, -6.357578754425049], [0.5684312582015991, 0.45773881673812866, -4.7971906661987305]]),
    'normal_scalar': ('torch.float32', [1.5409960746765137, -0.293428897857666, -2.1787893772125244]),
    'one_hot': ('torch.float32', [[[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]], [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]]),
    'tanh_affine': ('torch.float32', [[1.8245751857757568, 1.3855640888214111], [-1.9494105577468872, 1.7152081727981567]]),
    'uniform': ('torch.float32', [[0.49625658988952637, 2.0728871822357178], [0.08847743272781372, -0.4718780517578125], [0.30742281675338745, 1.5363147258758545]]),
    'uniform_rsample': ('torch.float32', [2.481282949447632, 3.841109037399292, 0.4423871636390686, 0.6601524353027344]),
}
LAPLACE_SAMPLE = [[-0.007514926604926586, 2.537654399871826], [-1.7318599224090576, -1.6631495952606201], [-0.4863838851451874, 1.6243796348571777]]
VALUES = {
    'affine_cdf_negative_scale': ('torch.float32', [2], [0.3631693720817566, 0.8413447141647339]),
    'affine_log_prob': ('torch.float32', [2], [-1.6733356714248657, -1.8244036436080933]),
    'bernoulli_entropy': ('torch.float32', [4], [0.32508301734924316, 0.6931471824645996, 0.32508301734924316, 0.0]),
    'bernoulli_log_prob': ('torch.float32', [4], [-2.3025851249694824, -0.6931471824645996, -0.10536053776741028, -0.0]),
    'bernoulli_log_prob_logits': ('torch.float32', [2], [-0.5981388688087463, -0.3132617473602295]),
    'bernoulli_logits': ('torch.float32', [4], [-2.1972246170043945, 0.0, 2.1972243785858154, -15.942384719848633]),
    'bernoulli_mode': ('torch.float32', [4], [0.0, nan, 1.0, 0.0]),
    'bernoulli_variance': ('torch.float32', [4], [0.08999999612569809, 0.25, 0.09000001847743988, 0.0]),
    'binomial_entropy': ('torch.float32', [2], [1.1230802536010742, 1.40753173828125]),
    'binomial_enumerate': ('torch.float32', [3, 2], [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]),
    'binomial_log_prob': ('torch.float32', [3], [-1.197361946105957, -1.4020423889160156, -1.0536060333251953]),
    'binomial_log_prob_logits': ('torch.float32', [2], [-1.36919105052948, -2.6031875610351562]),
    'binomial_mode': ('torch.float32', [2], [1.0, 2.0]),
    'cat_entropy': ('torch.float32', [2], [0.8018185496330261, 1.0397207736968994]),
    'cat_entropy_zero_prob': ('torch.float32', [], 0.6931471824645996),
    'cat_log_prob': ('torch.float32', [3, 2], [[-2.3025851249694824, -1.3862943649291992], [-1.6094379425048828, -1.3862943649291992], [-0.3566749691963196, -0.6931471824645996]]),
    'cat_log_prob_logits': ('torch.float32', [2], [-0.4076058864593506, -2.104130744934082]),
    'cat_logits_from_probs': ('torch.float32', [2, 3], [[-2.3025851249694824, -1.6094379425048828, -0.3566749691963196], [-0.6931471824645996, -1.3862943649291992, -1.3862943649291992]]),
    'cat_mean_is_nan': ('torch.float32', [2], [nan, nan]),
    'cat_mode': ('torch.int64', [2], [2, 0]),
    'cat_normalises': ('torch.float32', [2], [0.25, 0.75]),
    'cat_perplexity': ('torch.float32', [2], [2.2295918464660645, 2.8284270763397217]),
    'cat_probs_from_logits': ('torch.float32', [2, 3], [[0.09003057330846786, 0.2447284758090973, 0.6652409434318542], [0.546549379825592, 0.1219516396522522, 0.3314989507198334]]),
    'clamp_probs': ('torch.float32', [3], [1.1920928955078125e-07, 0.5, 0.9999998807907104]),
    'exponential_cdf': ('torch.float32', [2], [0.39346933364868164, 0.9502129554748535]),
    'exponential_entropy': ('torch.float32', [2], [1.0, 0.3068528175354004]),
    'exponential_icdf': ('torch.float32', [2], [0.6931471824645996, 1.1512924432754517]),
    'exponential_log_prob': ('torch.float32', [2], [-0.5, -2.3068528175354004]),
    'independent_entropy': ('torch.float32', [], 4.2568159103393555),
    'independent_log_prob': ('torch.float32', [2], [-4.1630659103393555, -4.7568159103393555]),
    'laplace_cdf': ('torch.float32', [2], [0.6967346668243408, 0.18393972516059875]),
    'laplace_entropy': ('torch.float32', [2], [1.6931471824645996, 2.386294364929199]),
    'laplace_icdf': ('torch.float32', [2], [-0.916290819644928, 2.021651268005371]),
    'laplace_log_prob': ('torch.float32', [2], [-1.1931471824645996, -2.386294364929199]),
    'lognormal_cdf': ('torch.float32', [2], [0.24410858750343323, 0.2697049379348755]),
    'lognormal_entropy': ('torch.float32', [2], [1.4189385175704956, 1.725791335105896]),
    'lognormal_icdf': ('torch.float32', [2], [1.0, 1.7845911979675293]),
    'lognormal_log_prob': ('torch.float32', [2], [-0.46601784229278564, -1.1072558164596558]),
    'lognormal_mean': ('torch.float32', [2], [1.6487212181091309, 3.080216884613037]),
    'lognormal_variance': ('torch.float32', [2], [4.670774459838867, 2.694758176803589]),
    'mvn_covariance_from_precision': ('torch.float32', [2, 2], [[0.571428656578064, -0.285714328289032], [-0.285714328289032, 1.1428571939468384]]),
    'mvn_entropy': ('torch.float32', [], 3.117684841156006),
    'mvn_entropy_batched': ('torch.float32', [3], [3.117684841156006, 3.117684841156006, 3.117684841156006]),
    'mvn_log_prob': ('torch.float32', [3], [-3.6891133785247803, -2.117684841156006, -2.6891133785247803]),
    'mvn_log_prob_batched': ('torch.float32', [3], [-2.2605419158935547, -3.38226056098938, -3.4081292152404785]),
    'mvn_log_prob_precision': ('torch.float32', [2], [-3.6891133785247803, -2.117684841156006]),
    'mvn_log_prob_scale_tril': ('torch.float32', [2], [-3.6891133785247803, -2.117684841156006]),
    'mvn_precision_matrix': ('torch.float32', [2, 2], [[0.5714285373687744, -0.2857142686843872], [-0.2857142686843872, 1.1428570747375488]]),
    'mvn_scale_tril': ('torch.float32', [2, 2], [[1.4142135381698608, 0.0], [0.3535533845424652, 0.9354143738746643]]),
    'mvn_variance': ('torch.float32', [2], [1.9999998807907104, 1.0]),
    'normal_cdf': ('torch.float32', [3], [0.6914624571800232, 0.15865525603294373, 0.8943502306938171]),
    'normal_entropy': ('torch.float32', [3], [1.4189385175704956, 0.725791335105896, 2.1120858192443848]),
    'normal_icdf': ('torch.float32', [3], [-1.2815515995025635, 1.0, 0.5631029605865479]),
    'normal_log_prob': ('torch.float32', [3], [-1.0439385175704956, -0.725791335105896, -2.3933358192443848]),
    'normal_log_prob_f64': ('torch.float64', [3], [-1.0439385332046727, -0.7257913526447274, -2.393335713764618]),
    'normal_no_validation': ('torch.float32', [], nan),
    'normal_variance': ('torch.float32', [3], [1.0, 0.25, 4.0]),
    'one_hot_log_prob': ('torch.float32', [2], [-0.3566749691963196, -0.6931471824645996]),
    'one_hot_mode': ('torch.float32', [2, 3], [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]),
    'one_hot_variance': ('torch.float32', [2, 3], [[0.08999999612569809, 0.1600000113248825, 0.21000000834465027], [0.25, 0.1875, 0.1875]]),
    'poisson_log_prob': ('torch.float32', [3], [-1.0, -1.5428872108459473, 0.0]),
    'probs_to_logits_binary': ('torch.float32', [3], [-15.942384719848633, 0.0, 15.942384719848633]),
    'sigmoid_power_log_prob': ('torch.float32', [2], [0.367015540599823, 0.9740113019943237]),
    'softplus_log_prob': ('torch.float32', [2], [-0.12019979953765869, -2.4932708740234375]),
    'tanh_log_prob': ('torch.float32', [2], [-0.8725290894508362, -4.738808631896973]),
    'uniform_cdf': ('torch.float32', [2], [0.25, 0.75]),
    'uniform_entropy': ('torch.float32', [2], [0.0, 1.3862943649291992]),
    'uniform_icdf': ('torch.float32', [2], [1.0, 0.5]),
    'uniform_log_prob': ('torch.float32', [2], [0.0, -1.3862943649291992]),
    'uniform_log_prob_outside': ('torch.float32', [3], [-inf, 0.0, -inf]),
    'uniform_stddev': ('torch.float32', [2], [0.28867512941360474, 1.154700517654419]),
    'vec_to_tril': ('torch.float32', [2, 2], [[1.0, 0.0], [2.0, 3.0]]),
}
KLS = {
    'bernoulli_bernoulli': ('torch.float32', [4], [0.11632174998521805, inf, inf, 0.22314342856407166]),
    'bernoulli_poisson': ('torch.float32', [2], [0.13822698593139648, 0.3743387460708618]),
    'bernoulli_scalar_q': ('torch.float32', [2], [0.08228287100791931, 0.6931470632553101]),
    'binomial_binomial': ('torch.float32', [2], [0.10292840003967285, 0.08164405822753906]),
    'categorical_categorical': ('torch.float32', [2], [inf, inf]),
    'categorical_zero_p': ('torch.float32', [2], [0.2899092733860016, 0.6931471824645996]),
    'exponential_exponential': ('torch.float32', [2], [0.9013876914978027, 0.6362943649291992]),
    'exponential_normal': ('torch.float32', [2], [0.7683357000350952, 1.3364830017089844]),
    'independent': ('torch.float32', [], 3.625),
    'laplace_laplace': ('torch.float32', [2], [0.14315223693847656, 0.08405232429504395]),
    'laplace_normal': ('torch.float32', [2], [0.20018863677978516, 0.257041335105896]),
    'lognormal_lognormal': ('torch.float32', [2], [0.3493971824645996, 0.9487943649291992]),
    'mvn_mvn': ('torch.float32', [], 1.154678463935852),
    'mvn_mvn_batched': ('torch.float32', [3], [1.1428570747375488, 0.764575719833374, 0.6817485094070435]),
    'normal_laplace': ('torch.float32', [2], [0.4151524305343628, 0.09689807891845703]),
    'normal_normal': ('torch.float32', [3], [0.18324285745620728, 0.7097234129905701, 1.490095615386963]),
    'normal_uniform': ('torch.float32', [], inf),
    'one_hot': ('torch.float32', [2], [0.08512279391288757, 0.23927819728851318]),
    'poisson_poisson': ('torch.float32', [2], [0.3068528175354004, 0.057858943939208984]),
    'uniform_exponential': ('torch.float32', [2], [0.3068528175354004, inf]),
    'uniform_normal': ('torch.float32', [2], [1.622502326965332, 1.2418551445007324]),
    'uniform_uniform': ('torch.float32', [2], [1.0986123085021973, inf]),
}
REINFORCE_ACTIONS = [1, 1, 0]
REINFORCE_LOSS = 2.659985065460205


def test_multinomial():
    # seeded counts (one torch.multinomial draw of total_count indices per sample, counted),
    # moments, log_prob, entropy and expand, recorded from torch 2.15
    Multinomial = torch.distributions.multinomial.Multinomial
    assert Multinomial is D.Multinomial

    def close(got, want):
        return torch.allclose(got, t(want), atol=1e-4, rtol=0)

    torch.manual_seed(0)
    fair = torch.ones([6]) / 6
    assert Multinomial(1, fair).sample().tolist() == [0., 0., 1., 0., 0., 0.]
    assert Multinomial(10, fair).sample().tolist() == [0., 3., 5., 2., 0., 0.]
    assert Multinomial(1000, fair).sample().tolist() == [163., 176., 160., 176., 167., 158.]
    s = Multinomial(10, fair).sample((500,))
    assert s.shape == (500, 6) and s.sum(0).tolist() == [821., 849., 833., 836., 804., 857.]
    m = Multinomial(5, t([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]]))
    x = m.sample((2,))
    assert x.tolist() == [[[0., 1., 4.], [0., 3., 2.]], [[1., 3., 1.], [1., 0., 4.]]]
    assert (m.batch_shape, m.event_shape) == ((2,), (3,))
    assert close(m.mean, [[1.0, 1.5, 2.5], [0.5, 0.5, 4.0]])
    assert close(m.variance, [[0.8, 1.05, 1.25], [0.45, 0.45, 0.8]])
    assert close(m.log_prob(x), [[-2.3671, -5.0515], [-2.9188, -1.5857]])
    assert m.entropy().tolist() == pytest.approx([2.5918, 1.8136], abs=1e-4)
    m2 = Multinomial(7, logits=t([0., 1., -1.]))
    assert m2.sample().tolist() == [0., 7., 0.]
    assert m2.log_prob(t([3., 3., 1.])).item() == pytest.approx(-2.9116, abs=1e-4)
    assert m2.entropy().item() == pytest.approx(2.5279, abs=1e-4)
    # a class of probability 0 that was not drawn adds nothing
    assert Multinomial(4, t([0., 0.5, 0.5])).log_prob(t([0., 2., 2.])).item() == pytest.approx(-0.9808, abs=1e-4)
    e = m.expand((3, 2))
    assert e.batch_shape == (3, 2) and e.sample().shape == (3, 2, 3)
    p = t([0.2, 0.8], requires_grad=True)
    Multinomial(3, p).log_prob(t([1., 2.])).backward()
    assert p.grad.tolist() == pytest.approx([2.0, -0.5])
    with pytest.raises(NotImplementedError, match="inhomogeneous total_count is not supported"):
        Multinomial(t(3), fair)
