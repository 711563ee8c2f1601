"""`torch.utils.data`: datasets, samplers and the DataLoader, with PyTorch's batching, collation
and random draws (a shuffled DataLoader gives PyTorch's batches for a seed).

>>> ds = torch.utils.data.TensorDataset(torch.arange(6.), torch.arange(6) % 2)
>>> for x, y in torch.utils.data.DataLoader(ds, batch_size=4):
...     print(x, y)
tensor([0., 1., 2., 3.]) tensor([0, 1, 0, 1])
tensor([4., 5.]) tensor([0, 1])
"""
from .dataloader import DataLoader, default_collate, default_convert, get_worker_info
from . import distributed  # noqa: F401  (torch.utils.data.distributed)
from .dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = [
    "BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset",
    "RandomSampler", "Sampler", "SequentialSampler", "StackDataset", "Subset", "SubsetRandomSampler",
    "TensorDataset", "WeightedRandomSampler", "default_collate", "default_convert", "get_worker_info",
    "random_split",
]
