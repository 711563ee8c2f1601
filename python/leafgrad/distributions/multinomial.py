"""`Multinomial`: the counts of each of K classes in `total_count` independent categorical
draws. A sample draws `total_count` class indices with `Categorical.sample` (one
`torch.multinomial` call, as PyTorch's does) and counts them, so a seed gives PyTorch's counts."""
import math

import leafgrad as torch

from . import constraints
from .binomial import Binomial
from .categorical import Categorical
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["Multinomial"]


class Multinomial(Distribution):
    """Multinomial(total_count=1, probs=None, logits=None, validate_args=None).

    >>> m = Multinomial(4, torch.tensor([0.25, 0.75]))
    >>> m.log_prob(torch.tensor([1., 3.]))
    tensor(-0.7472)
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Multinomial, _instance)
        batch_shape = torch.Size(batch_shape)
        new.total_count = self.total_count
        new._categorical = self._categorical.expand(batch_shape)
        super(Multinomial, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _new(self, *args, **kwargs):
        return self._categorical._new(*args, **kwargs)

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self):
        return constraints.multinomial(self.total_count)

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def param_shape(self):
        return self._categorical.param_shape

    def sample(self, sample_shape=torch.Size()):
        sample_shape = torch.Size(sample_shape)
        # class indices shaped (total_count, *sample_shape, *batch_shape): the draws come first
        draws = self._categorical.sample(torch.Size((self.total_count,)) + sample_shape)
        draws = draws.permute(*range(1, draws.dim()), 0)
        counts = draws.new_zeros(self._extended_shape(sample_shape))
        counts.scatter_add_(-1, draws, torch.ones_like(draws))
        return counts.type_as(self.probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        logits = logits.clone(memory_format=torch.contiguous_format)
        # a class of probability 0 that was not drawn adds 0 * -inf: nothing
        logits[(value == 0) & (logits == -math.inf)] = 0
        log_coefficient = torch.lgamma(value.sum(-1) + 1) - torch.lgamma(value + 1).sum(-1)
        return log_coefficient + (logits * value).sum(-1)

    def entropy(self):
        n = torch.tensor(self.total_count)
        # the categorical part, less the multinomial coefficient's expectation, written with
        # the binomial marginals of each class
        counts = self._binomial.enumerate_support(expand=False)[1:]
        marginals = torch.exp(self._binomial.log_prob(counts))
        expected_log_fact = (marginals * torch.lgamma(counts + 1)).sum([0, -1])
        return n * self._categorical.entropy() - torch.lgamma(n + 1) + expected_log_fact
