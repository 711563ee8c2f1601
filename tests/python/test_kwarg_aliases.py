"""The keyword spellings PyTorch 2.15's argument parser takes besides a parameter's own name:
NumPy's `axis=` for `dim=` and `keepdims=` for `keepdim=` on the C++-bound functions and
methods (not on those PyTorch writes in Python: `torch.norm`, `Tensor.split`, ...), the sizes
of `*size` functions as one keyword (`torch.zeros(size=...)`, `x.view(size=...)`,
`x.permute(dims=...)`), and the first argument as `input=`. Values recorded from torch; with
LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import pytest

import leafgrad as torch


def _x():
    return torch.tensor([[1., 5., 2.], [7., 0., 3.]])


@pytest.mark.parametrize("call, expected", [
    (lambda x: x.argmax(axis=1), [1, 0]),
    (lambda x: torch.argmax(x, axis=1), [1, 0]),
    (lambda x: x.argmin(axis=0), [0, 1, 0]),
    (lambda x: x.sum(axis=0), [8., 5., 5.]),
    (lambda x: torch.sum(x, axis=0), [8., 5., 5.]),
    (lambda x: torch.sum(x, 1, keepdims=True), [[8.], [10.]]),
    (lambda x: x.sum(keepdims=True, axis=1), [[8.], [10.]]),
    (lambda x: x.mean(axis=1), [8 / 3, 10 / 3]),
    (lambda x: torch.mean(x, axis=0, keepdims=True), [[4., 2.5, 2.5]]),
    (lambda x: x.max(axis=1).values, [5., 7.]),
    (lambda x: torch.min(x, axis=1).indices, [0, 1]),
    (lambda x: x.amax(axis=1), [5., 7.]),
    (lambda x: x.any(axis=1), [True, True]),
    (lambda x: x.all(axis=0), [True, False, True]),
    (lambda x: x.cumsum(axis=1), [[1., 6., 8.], [7., 7., 10.]]),
    (lambda x: x.prod(axis=1), [10., 0.]),
    (lambda x: x.var(axis=0, keepdims=True), [[18., 12.5, 0.5]]),
    (lambda x: x.softmax(axis=0).argmax(axis=0), [1, 0, 1]),
    (lambda x: torch.log_softmax(x, axis=1).argmax(1), [1, 0]),
    (lambda x: x.sort(axis=1).values, [[1., 2., 5.], [0., 3., 7.]]),
    (lambda x: torch.topk(x, 1, axis=1).values, [[5.], [7.]]),
    (lambda x: x.unsqueeze(axis=0).shape, [1, 2, 3]),
    (lambda x: x[None].squeeze(axis=0).shape, [2, 3]),
    (lambda x: torch.cat([x, x], axis=0).shape, [4, 3]),
    (lambda x: torch.stack([x, x], axis=1).shape, [2, 2, 3]),
    (lambda x: torch.concat([x, x], axis=1).shape, [2, 6]),
    (lambda x: x.gather(axis=1, index=torch.zeros(2, 1, dtype=torch.long)), [[1.], [7.]]),
    (lambda x: x.index_select(axis=0, index=torch.tensor([1])), [[7., 0., 3.]]),
    (lambda x: x.chunk(3, axis=1)[2], [[2.], [3.]]),
    (lambda x: x.unbind(axis=1)[1], [5., 0.]),
    (lambda x: x.median(axis=1).values, [2., 3.]),
    (lambda x: x.count_nonzero(axis=1), [3, 2]),
    (lambda x: torch.logsumexp(x, axis=1).shape, [2]),
    (lambda x: x.std(axis=1, keepdims=True).shape, [2, 1]),
])
def test_numpy_names(call, expected):
    r = call(_x())
    got = list(r) if isinstance(r, torch.Size) else r.tolist()
    assert got == pytest.approx(expected) if isinstance(expected[0], float) else got == expected


@pytest.mark.parametrize("call, message", [
    (lambda x: torch.norm(x, axis=1), "got an unexpected keyword argument 'axis'"),
    (lambda x: x.norm(axis=1), "got an unexpected keyword argument 'axis'"),
    (lambda x: x.sum(axis=0, dim=0), "sum() got an unexpected keyword argument 'axis'"),
    (lambda x: torch.nn.functional.softmax(x, axis=1), "got an unexpected keyword argument 'axis'"),
])
def test_numpy_names_where_pytorch_refuses_them(call, message):
    with pytest.raises(TypeError) as e:
        call(_x())
    assert message in str(e.value)


@pytest.mark.parametrize("call, expected", [
    (lambda x: torch.zeros(size=(2,)).tolist(), [0., 0.]),
    (lambda x: torch.ones(size=(1, 2)).tolist(), [[1., 1.]]),
    (lambda x: list(torch.empty(size=(2, 1)).shape), [2, 1]),
    (lambda x: list(torch.rand(size=(3,)).shape), [3]),
    (lambda x: list(torch.randn(size=(2, 2)).shape), [2, 2]),
    (lambda x: x.new_zeros(size=(2,)).tolist(), [0., 0.]),
    (lambda x: x.new_ones(size=(1,)).tolist(), [1.]),
    (lambda x: list(x.new_empty(size=(4,)).shape), [4]),
    (lambda x: x.view(size=(3, 2)).tolist(), [[1., 5.], [2., 7.], [0., 3.]]),
    (lambda x: list(x.reshape(shape=(6,)).shape), [6]),
    (lambda x: list(torch.reshape(x, shape=(3, 2)).shape), [3, 2]),
    (lambda x: list(x.expand(size=(2, 2, 3)).shape), [2, 2, 3]),
    (lambda x: list(x.repeat(repeats=(2, 1)).shape), [4, 3]),
    (lambda x: list(x.permute(dims=(1, 0)).shape), [3, 2]),
    (lambda x: list(torch.permute(x, dims=(1, 0)).shape), [3, 2]),
    (lambda x: x.flip(dims=(1,)).tolist(), [[2., 5., 1.], [3., 0., 7.]]),
    (lambda x: list(x.tile(dims=(2,)).shape), [2, 6]),
])
def test_sizes_as_one_keyword(call, expected):
    assert call(_x()) == expected


@pytest.mark.parametrize("call, expected", [
    (lambda x: torch.diag(input=x[0]).tolist(), [[1., 0., 0.], [0., 5., 0.], [0., 0., 2.]]),
    (lambda x: torch.triu(input=x, diagonal=1).tolist(), [[0., 5., 2.], [0., 0., 3.]]),
    (lambda x: torch.tril(input=x).tolist(), [[1., 0., 0.], [7., 0., 0.]]),
    (lambda x: torch.trace(input=x).item(), 1.),
    (lambda x: torch.roll(input=x, shifts=1, dims=1).tolist(), [[2., 1., 5.], [3., 7., 0.]]),
    (lambda x: torch.flip(input=x, dims=(0,)).tolist(), [[7., 0., 3.], [1., 5., 2.]]),
    (lambda x: torch.angle(input=-x[0]).tolist(), [3.1415927410125732] * 3),
    (lambda x: torch.numel(input=x), 6),
    (lambda x: torch.is_floating_point(input=x), True),
    (lambda x: torch.is_complex(input=x), False),
    (lambda x: torch.dot(input=x[0], tensor=x[1]).item(), 13.),
    (lambda x: x[0].dot(tensor=x[1]).item(), 13.),
    (lambda x: [t.tolist() for t in torch.split(tensor=x, split_size_or_sections=2, dim=1)],
     [[[1., 5.], [7., 0.]], [[2.], [3.]]]),
    (lambda x: [t.shape[1] for t in x.split(split_size=2, dim=1)], [2, 1]),
])
def test_argument_names(call, expected):
    assert call(_x()) == expected
