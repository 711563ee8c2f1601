"""Indexing with a Python `range`, an empty list and numpy arrays, reading and writing, as
PyTorch 2.15 does (makemore's `logprobs[range(n), Yb]`; values recorded from PyTorch; also runs
against it with LEAFGRAD_TEST_TORCH=1)."""
import numpy as np

import leafgrad as torch


def test_range_indexes_as_its_list():
    t = torch.arange(6.).view(2, 3)
    assert t[range(2), torch.tensor([0, 2])].tolist() == [0.0, 5.0]
    assert t[range(2)].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert t[:, range(1, 3)].tolist() == [[1.0, 2.0], [4.0, 5.0]]
    assert t[range(1, 2), 1:].tolist() == [[4.0, 5.0]]
    assert t[range(-1, 0)].tolist() == [[3.0, 4.0, 5.0]]
    assert t[range(0)].shape == (0, 3) and t[[]].shape == (0, 3)


def test_range_write_and_gradient():
    d = torch.arange(6.).view(2, 3).clone()
    d[range(2), torch.tensor([0, 2])] = -1.0
    assert d.tolist() == [[-1.0, 1.0, 2.0], [3.0, 4.0, -1.0]]
    x = torch.zeros(4, 3, requires_grad=True)
    y = x[range(4), [0, 1, 2, 0]]
    assert type(y.grad_fn).__name__ == "IndexBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]


def test_numpy_arrays_index_as_tensors():
    t = torch.arange(6.).view(2, 3)
    assert t[np.array([1, 0])].tolist() == [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]]
    assert t[np.array([True, False])].tolist() == [[0.0, 1.0, 2.0]]
    assert t[:, np.array([2])].tolist() == [[2.0], [5.0]]
