"""The numpy spelling `keepdims` of every reduction's `keepdim` (PyTorch's argument parser takes
it), and `nn.functional.one_hot` with PyTorch's values and messages. Runs against PyTorch too
(LEAFGRAD_TEST_TORCH=1)."""
import pytest

import leafgrad as torch

F = torch.nn.functional
REDUCTIONS = ["sum", "mean", "prod", "amax", "amin", "std", "var", "logsumexp", "all", "any",
              "argmax", "argmin"]


@pytest.mark.parametrize("name", REDUCTIONS)
def test_keepdims_is_keepdim(name):
    x = torch.arange(6.0).reshape(2, 3)
    for keep in (True, False):
        a = getattr(x, name)(1, keepdims=keep)
        b = getattr(x, name)(1, keepdim=keep)
        assert a.shape == b.shape and torch.equal(a, b)


def test_keepdims_on_max_min_and_functions():
    x = torch.arange(6.0).reshape(2, 3)
    assert x.max(1, keepdims=True).values.shape == (2, 1)
    assert x.min(0, keepdims=True).indices.shape == (1, 3)
    assert torch.sum(x, 1, keepdims=True).shape == (2, 1)
    assert torch.all(x, 1, keepdims=True).shape == (2, 1)
    p = torch.ones(3, 4)
    assert torch.equal(p / p.sum(1, keepdims=True), torch.full((3, 4), 0.25))


def test_one_hot_values():
    r = F.one_hot(torch.tensor([0, 2]), 4)
    assert r.dtype == torch.int64
    assert r.tolist() == [[1, 0, 0, 0], [0, 0, 1, 0]]
    assert F.one_hot(torch.tensor([[1], [0]])).tolist() == [[[0, 1]], [[1, 0]]]
    assert F.one_hot(torch.tensor([], dtype=torch.long), 3).shape == (0, 3)
    assert (F.one_hot(torch.tensor([1, 0, 2])).float() @ torch.tensor([1.0, 2.0, 3.0])).tolist() == [2.0, 1.0, 3.0]


@pytest.mark.parametrize("expr,msg", [
    ("F.one_hot(torch.tensor([0., 2]))", "one_hot is only applicable to index tensor of type LongTensor."),
    ("F.one_hot(torch.tensor([0, 5]), 3)", "Class values must be smaller than num_classes."),
    ("F.one_hot(torch.tensor([0, -1]), 3)", "Class values must be non-negative."),
    ("F.one_hot(torch.tensor([], dtype=torch.long))", "Can not infer total number of classes from empty tensor."),
])
def test_one_hot_errors(expr, msg):
    with pytest.raises(RuntimeError) as info:
        eval(expr, {"torch": torch, "F": F})
    assert str(info.value) == msg
