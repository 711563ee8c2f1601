"""The sampling functions (`torch.randperm`, `bernoulli`, `normal`, `multinomial`): PyTorch's
draws for a seed, from the given generator or the default one."""
from . import _core, _out
from ._core import Tensor

__all__ = ["randperm", "bernoulli", "normal", "multinomial"]


def randperm(n, *, generator=None, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False,
             out=None):
    """A random permutation of 0 .. n-1 (int64): PyTorch's for a seed.

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.randperm(5, generator=g)
    tensor([4, 0, 1, 3, 2])
    """
    from ._device import check_device, _with_default
    from ._factories import _generator, _into_out
    from ._layout import _factory_options

    device = _with_default(device)
    _factory_options("randperm", layout, pin_memory, device=device)
    if out is not None:
        return _into_out("randperm", out, dtype, device, requires_grad,
                         lambda dt, dev: randperm(n, generator=generator, dtype=dt, device=dev), (n,), args=(n,))
    t = _core._randperm(n, dtype or _core.int64, _generator(generator, "randperm"), check_device(device))
    if device is not None:
        t = t.to(device)
    if requires_grad:
        t.requires_grad_()
    return t


def bernoulli(input, p=None, *, generator=None, out=None):
    """Zeros and ones drawn with the probabilities in `input` (or the number `p`).

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.bernoulli(torch.full((4,), 0.5), generator=g)
    tensor([1., 0., 1., 1.])
    """
    r = input.bernoulli(p, generator=generator)
    if out is not None:
        return out.copy_(r)
    return r


def normal(mean=0.0, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           pin_memory=False, requires_grad=False):
    """Normal samples: tensors of means and/or standard deviations (broadcast), or numbers and
    a `size`. PyTorch's numbers for a seed.

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.normal(2.0, 3.0, (3,), generator=g)
    tensor([ 6.6230,  1.1197, -4.5364])
    >>> torch.normal(torch.zeros(2), torch.tensor([1.0, 10.0]), generator=g)
    tensor([  0.5684, -10.8452])
    """
    from ._layout import _factory_options

    _factory_options("normal", layout, pin_memory, device=device)
    mt, st = isinstance(mean, Tensor), isinstance(std, Tensor)
    if out is not None:
        if not mt and not st and size is not None:
            from ._factories import _into_out

            shape = tuple(size) if isinstance(size, (tuple, list)) else (size,)
            return _into_out("normal", out, dtype, device, requires_grad,
                             lambda dt, dev: normal(mean, std, size, generator=generator, dtype=dt, device=dev),
                             shape, args=(mean, std, size))
        return _out.write("normal", _out.Spec("normal", _out.CAST),
                          lambda: normal(mean, std, size, generator=generator), _out.tensors((mean, std)), out)
    if not mt and not st:
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments - got (float, float), but expected (float mean, float std, tuple of ints size, *, torch.Generator generator, Tensor out, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)")
        from ._factories import empty

        # on the CPU unless `device=` says otherwise: PyTorch's normal does not take the default
        # device of set_default_device
        r = empty(*size if isinstance(size, (tuple, list)) else (size,), dtype=dtype, device="cpu")
        r.normal_(mean, std, generator=generator)
        if device is not None:
            r = r.to(device)
        if requires_grad:
            r.requires_grad_()
    else:
        # a sample's gradient with respect to mean and std is zero in PyTorch (NormalBackward1:
        # tensor mean, 2: tensor std, 3: both), not the reparameterised one
        from ._grad_mode import no_grad

        with no_grad():
            if mt and not st:
                if std < 0:
                    raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
                r = _core._draw("normal", tuple(mean.shape), None, mean.dtype, 0.0, float(std), generator,
                                mean.device).to(mean.device) + mean
            else:
                shape = _broadcast(tuple(mean.shape), tuple(std.shape)) if mt else tuple(std.shape)
                dt = mean.dtype if mt else std.dtype
                if bool((std < 0).any()):
                    raise RuntimeError("normal expects all elements of std >= 0.0")
                dev = mean.device if mt else std.device
                r = _core._draw("normal", shape, None, dt, 0.0, 1.0, generator, dev).to(dev) * std + mean
        params = [t for t in (mean, std) if isinstance(t, Tensor)]
        _core._zero_gradient(params, r, f"NormalBackward{1 if not st else 2 if not mt else 3}")
    return r


def _broadcast(a, b):
    import builtins

    n = builtins.max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y and 1 not in (x, y):
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton dimension {i}")
        out.append(y if x == 1 else x)
    return tuple(out)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """`num_samples` category indices per row of the (unnormalised) probabilities `input`
    (1-D or 2-D), with or without replacement: PyTorch's draws for a seed.

    >>> g = torch.Generator().manual_seed(2147483647)
    >>> torch.multinomial(torch.tensor([0.6, 0.3, 0.1]), 5, replacement=True, generator=g)
    tensor([1, 1, 1, 0, 0])
    """
    from ._factories import _generator

    r = _core._multinomial(input, int(num_samples), bool(replacement), _generator(generator, "multinomial"))
    if input.is_cuda:
        r = r.to(input.device)
    if out is not None:
        return out.copy_(r)
    return r
