"""`torch.special`: the special functions under their `torch.special` names (the same ops as
`torch.erf`, `torch.sigmoid`, ...: values, nodes and gradients are theirs).

>>> torch.special.expit(torch.tensor([0.0]))
tensor([0.5000])
"""
import sys


def _torch():
    return sys.modules[__name__.rsplit(".", 1)[0]]

__all__ = ["erf", "erfc", "erfinv", "expit", "exp2", "expm1", "log1p", "logsumexp", "softmax",
           "log_softmax", "round", "xlogy", "gammaln", "digamma", "psi", "polygamma",
           "multigammaln", "gammainc", "gammaincc", "logit", "i0", "sinc", "ndtr", "ndtri", "i0e", "i1", "i1e", "entr",
           "xlog1py"]


def erf(input, *, out=None):
    """The error function (`torch.erf`).

    >>> torch.special.erf(torch.tensor([0.5]))
    tensor([0.5205])
    """
    return _torch().erf(input, out=out)


def erfc(input, *, out=None):
    """1 - erf(x) (`torch.erfc`).

    >>> torch.special.erfc(torch.tensor([0.5]))
    tensor([0.4795])
    """
    return _torch().erfc(input, out=out)


def erfinv(input, *, out=None):
    """The inverse error function (`torch.erfinv`).

    >>> torch.special.erfinv(torch.tensor([0.5]))
    tensor([0.4769])
    """
    return _torch().erfinv(input, out=out)


def expit(input, *, out=None):
    """The logistic sigmoid 1 / (1 + e^-x) (`torch.sigmoid`).

    >>> torch.special.expit(torch.tensor([2.0]))
    tensor([0.8808])
    """
    r = input.sigmoid()
    return r if out is None else out.copy_(r)


def exp2(input, *, out=None):
    """2 ** x (`torch.exp2`).

    >>> torch.special.exp2(torch.tensor([3.0]))
    tensor([8.])
    """
    return _torch().exp2(input, out=out)


def expm1(input, *, out=None):
    """e ** x - 1 (`torch.expm1`).

    >>> torch.special.expm1(torch.tensor([1e-10]))
    tensor([1.0000e-10])
    """
    return _torch().expm1(input, out=out)


def log1p(input, *, out=None):
    """log(1 + x) (`torch.log1p`).

    >>> torch.special.log1p(torch.tensor([1e-10]))
    tensor([1.0000e-10])
    """
    return _torch().log1p(input, out=out)


def logsumexp(input, dim, keepdim=False, *, out=None):
    """log(sum(exp(x))) along `dim`, computed stably (`torch.logsumexp`).

    >>> torch.special.logsumexp(torch.tensor([0.0, 0.0]), 0)
    tensor(0.6931)
    """
    r = input.logsumexp(dim, keepdim)
    return r if out is None else out.copy_(r)


def softmax(input, dim, *, dtype=None):
    """exp(x) / sum(exp(x)) along `dim` (`torch.softmax`).

    >>> torch.special.softmax(torch.tensor([0.0, 0.0]), 0)
    tensor([0.5000, 0.5000])
    """
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    """log(softmax(x)) along `dim` (`torch.log_softmax`).

    >>> torch.special.log_softmax(torch.tensor([0.0, 0.0]), 0)
    tensor([-0.6931, -0.6931])
    """
    return input.log_softmax(dim, dtype=dtype)


def round(input, decimals=0, *, out=None):
    """Round half to even (`torch.round`).

    >>> torch.special.round(torch.tensor([0.5, 1.5]))
    tensor([0., 2.])
    """
    r = input.round(decimals=decimals) if decimals else input.round()
    return r if out is None else out.copy_(r)


def xlogy(input, other, *, out=None):
    """input * log(other), 0 where input is 0 (`torch.xlogy`).

    >>> torch.special.xlogy(torch.tensor([0., 2.]), torch.tensor([0., 3.]))
    tensor([0.0000, 2.1972])
    """
    return _torch().xlogy(input, other, out=out)


def _into(r, out):
    return r if out is None else out.resize_(r.shape).copy_(r)


def gammaln(input, *, out=None):
    """log |Γ(x)| (`torch.lgamma`).

    >>> torch.special.gammaln(torch.tensor([0.5]))
    tensor([0.5724])
    """
    return _into(_torch().lgamma(input), out)


def digamma(input, *, out=None):
    """ψ(x), the derivative of log Γ(x) (`torch.digamma`).

    >>> torch.special.digamma(torch.tensor([1.0]))
    tensor([-0.5772])
    """
    return _into(_torch().digamma(input), out)


psi = digamma


def multigammaln(input, p, *, out=None):
    """The multivariate log-gamma function (`torch.mvlgamma`).

    >>> torch.special.multigammaln(torch.tensor([2.5]), 3)
    tensor([1.8810])
    """
    return _torch().mvlgamma(input, p, out=out)


def polygamma(n, input, *, out=None):
    """The n-th derivative of ψ (`torch.polygamma`).

    >>> torch.special.polygamma(1, torch.tensor([1.0]))
    tensor([1.6449])
    """
    return _torch().polygamma(n, input, out=out)


def gammainc(input, other, *, out=None):
    """The regularized lower incomplete gamma function P(input, other) (`torch.igamma`).

    >>> torch.special.gammainc(torch.tensor([2.0]), torch.tensor([3.0]))
    tensor([0.8009])
    """
    from ._special_gamma import _special_gammainc

    return _special_gammainc(input, other, out)


def gammaincc(input, other, *, out=None):
    """The regularized upper incomplete gamma function Q(input, other) = 1 - P(input, other)
    (`torch.igammac`).

    >>> torch.special.gammaincc(torch.tensor([2.0]), torch.tensor([3.0]))
    tensor([0.1991])
    """
    from ._special_gamma import _special_gammaincc

    return _special_gammaincc(input, other, out)


def logit(input, eps=None, *, out=None):
    """log(p / (1 - p)), p clamped to [eps, 1 - eps] when `eps` is given (`torch.logit`).

    >>> torch.special.logit(torch.tensor([0.25]))
    tensor([-1.0986])
    """
    return _torch().logit(input, eps, out=out)


def i0(input, *, out=None):
    """The modified Bessel function of the first kind, order 0 (`torch.i0`).

    >>> torch.special.i0(torch.tensor([1.0]))
    tensor([1.2661])
    """
    return _torch().i0(input, out=out)


def sinc(input, *, out=None):
    """sin(pi x) / (pi x), 1 at 0 (`torch.sinc`).

    >>> torch.special.sinc(torch.tensor([0.5]))
    tensor([0.6366])
    """
    return _torch().sinc(input, out=out)


from ._special_more import entr, i0e, i1, i1e, ndtr, ndtri, xlog1py  # noqa: E402
