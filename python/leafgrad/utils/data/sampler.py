"""Samplers: the order in which a DataLoader visits a map-style dataset's indices, drawn as
PyTorch draws it (a shuffle seeds a fresh Generator from the default one, then `randperm`)."""

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler",
           "WeightedRandomSampler", "BatchSampler"]


class Sampler:
    """Iterates over indices (or lists of indices) of a dataset; subclasses define `__iter__`
    (and `__len__` when they can).

    >>> class Evens(torch.utils.data.Sampler):
    ...     def __iter__(self):
    ...         return iter([0, 2, 4])
    >>> [b.tolist() for b in torch.utils.data.DataLoader(torch.arange(6) * 10, sampler=Evens())]
    [[0], [20], [40]]
    """

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1.

    >>> list(torch.utils.data.SequentialSampler(range(3)))
    [0, 1, 2]
    """

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


def _fresh_generator():
    # PyTorch seeds a new generator from one 64-bit draw of the default one
    from ... import Generator, empty, int64

    seed = int(empty((), dtype=int64).random_().item())
    return Generator().manual_seed(seed)


class RandomSampler(Sampler):
    """The indices in random order (a permutation per pass over the data), or `num_samples`
    drawn with replacement.

    >>> list(torch.utils.data.RandomSampler(range(5), generator=torch.Generator().manual_seed(0)))
    [4, 0, 1, 3, 2]
    """

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        from ... import int64, randint, randperm

        n = len(self.data_source)
        generator = _fresh_generator() if self.generator is None else self.generator
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from randint(high=n, size=(32,), dtype=int64, generator=generator).tolist()
            yield from randint(high=n, size=(self.num_samples % 32,), dtype=int64, generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from randperm(n, generator=generator).tolist()
            yield from randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in random order.

    >>> list(torch.utils.data.SubsetRandomSampler([10, 20, 30], generator=torch.Generator().manual_seed(0)))
    [30, 10, 20]
    """

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        from ... import randperm

        for i in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """`num_samples` indices drawn with probabilities proportional to `weights` (`multinomial`).

    >>> s = torch.utils.data.WeightedRandomSampler([0.1, 0.9], 5, generator=torch.Generator().manual_seed(0))
    >>> list(s)
    [1, 1, 1, 1, 1]
    """

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        from ... import as_tensor, float64

        weights_tensor = as_tensor(weights, dtype=float64)
        if len(weights_tensor.shape) != 1:
            raise ValueError("weights should be a 1d sequence but given "
                             f"weights have shape {tuple(weights_tensor.shape)}")
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        from ... import multinomial

        rand_tensor = multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator)
        yield from iter(rand_tensor.tolist())

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Groups another sampler's indices into lists of `batch_size` (the last one shorter unless
    `drop_last`).

    >>> list(torch.utils.data.BatchSampler(range(5), 2, drop_last=False))
    [[0, 1], [2, 3], [4]]
    """

    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        it = iter(self.sampler)
        while True:
            batch = []
            for idx in it:
                batch.append(idx)
                if len(batch) == self.batch_size:
                    break
            if len(batch) == self.batch_size or (batch and not self.drop_last):
                yield batch
            if len(batch) < self.batch_size:
                return

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
