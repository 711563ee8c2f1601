"""`torch.distributions` for leafgrad: probability distributions built on leafgrad tensors, so
`log_prob`, `entropy` and `rsample` are differentiable, and sampling draws from leafgrad's
generator through the calls PyTorch's distributions make (`torch.multinomial`,
`torch.bernoulli`, `normal_`, `torch.rand`, `uniform_`, `exponential_`): with the same
`torch.manual_seed`, samples equal PyTorch's.

Distributions: `Bernoulli`, `Binomial` (no `sample`), `Categorical`, `Exponential`,
`Independent`, `Laplace`, `LogNormal`, `Multinomial`, `MultivariateNormal`, `Normal`,
`OneHotCategorical`, `OneHotCategoricalStraightThrough`, `Poisson` (no `sample`),
`TransformedDistribution`, `Uniform`; the bases `Distribution` and `ExponentialFamily`; `kl_divergence`, `register_kl`;
the modules `constraints`, `transforms`, `kl`, `utils`. Gamma, Beta, Dirichlet and the
distributions built on them are absent: leafgrad has no gamma sampler (`torch._standard_gamma`).
"""
from . import constraints, kl, transforms, utils  # noqa: F401
from .bernoulli import Bernoulli
from .binomial import Binomial
from .categorical import Categorical
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .log_normal import LogNormal
from .multinomial import Multinomial
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .poisson import Poisson
from .transformed_distribution import TransformedDistribution
from .transforms import (
    AbsTransform,
    AffineTransform,
    ComposeTransform,
    ExpTransform,
    PowerTransform,
    SigmoidTransform,
    SoftplusTransform,
    TanhTransform,
    Transform,
    identity_transform,
)
from .uniform import Uniform

__all__ = [
    "Bernoulli",
    "Binomial",
    "Categorical",
    "Distribution",
    "Exponential",
    "ExponentialFamily",
    "Independent",
    "Laplace",
    "LogNormal",
    "Multinomial",
    "MultivariateNormal",
    "Normal",
    "OneHotCategorical",
    "OneHotCategoricalStraightThrough",
    "Poisson",
    "TransformedDistribution",
    "Uniform",
    "kl_divergence",
    "register_kl",
    "AbsTransform",
    "AffineTransform",
    "ComposeTransform",
    "ExpTransform",
    "PowerTransform",
    "SigmoidTransform",
    "SoftplusTransform",
    "TanhTransform",
    "Transform",
    "identity_transform",
]
