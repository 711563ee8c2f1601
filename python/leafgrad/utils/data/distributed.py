"""`torch.utils.data.distributed.DistributedSampler`: each of `num_replicas` processes reads its
own share of a dataset (every `num_replicas`-th index from `rank`), padded by wrapping around
(or trimmed with `drop_last`) to equal shares, shuffled per epoch from `seed + epoch` with
PyTorch's generator, so the shares are PyTorch's. Without a process group (leafgrad has no
distributed backend) `num_replicas` and `rank` must be given."""
import math

from ... import distributed as _dist
from .sampler import Sampler

__all__ = ["DistributedSampler"]


class DistributedSampler(Sampler):
    """The indices of replica `rank` of `num_replicas`.

    >>> s = torch.utils.data.distributed.DistributedSampler(range(10), num_replicas=4, rank=3, shuffle=False)
    >>> list(s), len(s)
    ([3, 7, 1], 3)
    """

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False):
        if num_replicas is None or rank is None:
            if not _dist.is_available():
                raise RuntimeError("Requires distributed package to be available")
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        n = len(dataset)
        if drop_last and n % num_replicas != 0:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self):
        import leafgrad

        n = len(self.dataset)
        if self.shuffle:
            g = leafgrad.Generator()
            g.manual_seed(self.seed + self.epoch)
            order = leafgrad.randperm(n, generator=g).tolist()
        else:
            order = list(range(n))
        if self.drop_last:
            order = order[:self.total_size]
        else:
            missing = self.total_size - len(order)
            # wrap around (repeating the whole order as often as needed)
            repeats = order * math.ceil(missing / len(order)) if missing > len(order) else order
            order += repeats[:missing]
        if len(order) != self.total_size:
            raise AssertionError(f"Number of indices ({len(order)}) does not match total_size ({self.total_size})")
        mine = order[self.rank:self.total_size:self.num_replicas]
        if len(mine) != self.num_samples:
            raise AssertionError(
                f"Number of subsampled indices ({len(mine)}) does not match num_samples ({self.num_samples})")
        return iter(mine)

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        """The epoch whose shuffle the next iteration uses.

        >>> s = torch.utils.data.distributed.DistributedSampler(range(4), num_replicas=2, rank=0)
        >>> s.set_epoch(3); s.epoch
        3
        """
        self.epoch = epoch
