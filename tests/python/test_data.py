"""torch.utils.data: datasets, samplers, collation and the DataLoader, with PyTorch's batches
for a seed (the shuffles, random_split and the draws a DataLoader makes when an epoch starts
are recorded from torch 2.15). With LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import collections
import warnings

import pytest

from support import raises_exactly as raises

import leafgrad as torch
from leafgrad.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset, IterableDataset,
                                 RandomSampler, SequentialSampler, StackDataset, Subset,
                                 SubsetRandomSampler, TensorDataset, WeightedRandomSampler,
                                 default_collate, random_split)


def dataset():
    return TensorDataset(torch.arange(30.).reshape(10, 3), torch.arange(10))


def epochs(loader, n=2):
    """The first batch's labels of `n` epochs, and a draw of the default generator after each."""
    out = []
    for _ in range(n):
        for x, y in loader:
            assert x.shape[1:] == (3,) and x[:, 0].tolist() == (y * 3.).tolist()
            out.append(y.tolist())
            break
        out.append(round(torch.rand(1).item(), 6))
    return out


def test_batches_in_order():
    torch.manual_seed(0)
    loader = DataLoader(dataset(), batch_size=4)
    assert len(loader) == 3
    assert [y.tolist() for _, y in loader] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    # each epoch draws one number from the default generator, as PyTorch's loader does
    assert epochs(loader) == [[0, 1, 2, 3], 0.307423, [0, 1, 2, 3], 0.896445]


def test_shuffled_batches_are_pytorchs_for_a_seed():
    torch.manual_seed(0)
    loader = DataLoader(dataset(), batch_size=4, shuffle=True)
    assert epochs(loader) == [[6, 7, 1, 4], 0.307423, [1, 3, 4, 7], 0.632306]
    torch.manual_seed(0)
    loader = DataLoader(dataset(), batch_size=3, shuffle=True, drop_last=True)
    assert len(loader) == 3
    assert [y.tolist() for _, y in loader] == [[6, 7, 1], [4, 2, 0], [9, 8, 3]]
    loader = DataLoader(dataset(), batch_size=2, shuffle=True, generator=torch.Generator().manual_seed(5))
    torch.manual_seed(0)
    assert epochs(loader) == [[7, 4], 0.496257, [2, 1], 0.768222]


def test_without_batching_samples_come_one_by_one():
    loader = DataLoader(dataset(), batch_size=None)
    assert len(loader) == 10
    x, y = next(iter(loader))
    assert x.tolist() == [0., 1., 2.] and y.item() == 0


def test_default_collate_by_element_type():
    class D(Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return {"x": float(i), "y": [i, i * 2], "s": f"n{i}", "t": torch.full((2,), i)}

    batches = list(DataLoader(D(), batch_size=2))
    assert len(batches) == 3
    b = batches[0]
    assert b["x"].dtype == torch.float64 and b["x"].tolist() == [0., 1.]
    assert [t.tolist() for t in b["y"]] == [[0, 1], [0, 2]]
    assert b["s"] == ["n0", "n1"] and b["t"].tolist() == [[0, 0], [1, 1]]
    P = collections.namedtuple("P", "a b")
    p = default_collate([P(1, 2.0), P(3, 4.0)])
    assert type(p) is P and p.a.tolist() == [1, 3] and p.b.dtype == torch.float64
    assert default_collate([True, False]).dtype == torch.bool
    raises(lambda: default_collate([object()]),
           "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found <class 'object'>",
           TypeError)
    raises(lambda: default_collate([[1, 2], [3]]), "each element in list of batch should be of equal size")


def test_numpy_samples_become_tensors():
    import numpy as np

    b = default_collate([np.array([1., 2.]), np.array([3., 4.])])
    assert b.dtype == torch.float64 and b.tolist() == [[1., 2.], [3., 4.]]
    assert default_collate([np.float32(1.5), np.float32(2.5)]).dtype == torch.float32


def test_iterable_datasets_are_batched_as_they_stream():
    class It(IterableDataset):
        def __iter__(self):
            return iter(range(7))

    assert [b.tolist() for b in DataLoader(It(), batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [b.tolist() for b in DataLoader(It(), batch_size=3, drop_last=True)] == [[0, 1, 2], [3, 4, 5]]
    assert list(DataLoader(It(), batch_size=None))[:3] == [0, 1, 2]


def test_random_split():
    torch.manual_seed(0)
    a, b, c = random_split(range(11), [0.5, 0.3, 0.2])  # 5, 3, 2, the remainder to the first
    assert (list(a), list(b), list(c)) == ([10, 0, 4, 3, 5, 8], [2, 1, 9], [7, 6])
    assert list(random_split(range(4), [1, 3], generator=torch.Generator().manual_seed(1))[1]) == [3, 2, 0]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert len(random_split(range(3), [0.5, 0.5, 0.0])) == 3
    assert [str(x.message) for x in w] == ["Length of split at index 2 is 0. This might result in an empty dataset."]
    raises(lambda: random_split(range(5), [2, 2]), "Sum of input lengths does not equal the length of the input dataset!",
           ValueError)
    raises(lambda: random_split(range(5), [1.2, -0.2]), "Fraction at index 0 is not between 0 and 1", ValueError)


def test_samplers():
    assert list(BatchSampler(SequentialSampler(range(7)), 3, True)) == [[0, 1, 2], [3, 4, 5]]
    assert len(BatchSampler(range(7), 3, False)) == 3
    torch.manual_seed(0)
    assert list(RandomSampler(range(6), replacement=True, num_samples=40))[:8] == [0, 2, 2, 3, 3, 5, 3, 0]
    counts = collections.Counter(RandomSampler(range(4), num_samples=9))  # two permutations, then one
    assert sorted(counts.values()) == [2, 2, 2, 3]
    assert list(RandomSampler(range(5), generator=torch.Generator().manual_seed(0))) == [4, 0, 1, 3, 2]
    assert list(SubsetRandomSampler([10, 20, 30], generator=torch.Generator().manual_seed(0))) == [30, 10, 20]
    assert list(WeightedRandomSampler([0.1, 0.9], 5, generator=torch.Generator().manual_seed(0))) == [1, 1, 1, 1, 1]
    assert sorted(WeightedRandomSampler([1., 2., 3.], 3, replacement=False)) == [0, 1, 2]


def test_composed_datasets():
    cd = ConcatDataset([range(3), range(10, 12)])
    assert (len(cd), cd[3], cd[-1], cd.cumulative_sizes) == (5, 10, 11, [3, 5])
    s = Subset([10, 11, 12, 13], [3, 0])
    assert (len(s), s[0], s[1]) == (2, 13, 10)
    assert StackDataset(x=[1, 2], y=["a", "b"])[1] == {"x": 2, "y": "b"}
    raises(lambda: TensorDataset(torch.zeros(2), torch.zeros(3)), "Size mismatch between tensors", AssertionError)


def test_workers_load_the_same_batches():
    torch.manual_seed(0)
    a = [y.tolist() for _, y in DataLoader(dataset(), batch_size=4, shuffle=True)]
    torch.manual_seed(0)
    b = [y.tolist() for _, y in DataLoader(dataset(), batch_size=4, shuffle=True, num_workers=2)]
    assert a == b


@pytest.mark.parametrize("call,msg", [
    (lambda: DataLoader(dataset(), num_workers=-1),
     "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing."),
    (lambda: DataLoader(dataset(), sampler=SequentialSampler(range(10)), shuffle=True),
     "sampler option is mutually exclusive with shuffle"),
    (lambda: DataLoader(dataset(), batch_sampler=BatchSampler(range(3), 2, False), batch_size=3),
     "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last"),
    (lambda: DataLoader(dataset(), batch_size=None, drop_last=True),
     "batch_size=None option disables auto-batching and is mutually exclusive with drop_last"),
    (lambda: BatchSampler(range(3), 0, False), "batch_size should be a positive integer value, but got batch_size=0"),
    (lambda: BatchSampler(range(3), 2, 1), "drop_last should be a boolean value, but got drop_last=1"),
    (lambda: RandomSampler(range(3), num_samples=0), "num_samples should be a positive integer value, but got num_samples=0"),
    (lambda: setattr(DataLoader(dataset()), "batch_size", 3),
     "batch_size attribute should not be set after DataLoader is initialized"),
])
def test_errors(call, msg):
    raises(call, msg, ValueError)


def test_the_iterator_of_a_loader_without_workers_is_pytorchs():
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(5)), batch_size=2)
    it = iter(loader)
    assert type(it).__name__ == "_SingleProcessDataLoaderIter"
    assert len(it) == 3 and iter(it) is it
    assert next(it)[0].tolist() == [0, 1]
    assert not hasattr(it, "next")  # Python 2's spelling, gone from PyTorch's iterators too
    assert [b[0].tolist() for b in it] == [[2, 3], [4]]
    with pytest.raises(StopIteration):
        next(it)
