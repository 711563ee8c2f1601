"""The `*_like` factories, `clone` and dropout lay their results out as PyTorch 2.15 does
(`memory_format=torch.preserve_format`: the order of the input's strides), so random draws
fill them in PyTorch's order: `rand_like(x.t())` gives PyTorch's numbers for a seed (these
expectations run against it with LEAFGRAD_TEST_TORCH=1)."""
import pytest

import leafgrad as torch

LIKE = ["zeros_like", "ones_like", "empty_like", "rand_like", "randn_like"]


@pytest.mark.parametrize("name", LIKE)
def test_strides_follow_the_input(name):
    f = getattr(torch, name)
    x = torch.full((3, 4), 0.5).t()
    assert f(x).stride() == (1, 4)
    assert f(x, memory_format=torch.contiguous_format).stride() == (3, 1)
    assert f(x[:, ::2]).stride() == (1, 4)  # not dense: dense strides in the same order
    c = torch.ones(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)
    assert f(c).stride() == (60, 1, 15, 3)
    assert f(torch.ones(3, 1).expand(3, 4)).stride() == (4, 1)  # stride 0: order kept
    assert f(torch.ones(1, 3).expand(4, 3)).stride() == (3, 1)
    assert f(torch.ones(2, 3, 4).permute(1, 2, 0)[:, ::2]).stride() == (2, 1, 6)


def test_random_like_draws_in_memory_order():
    x = torch.full((3, 4), 0.5).t()
    torch.manual_seed(0)
    assert torch.rand_like(x).tolist() == [
        [0.49625658988952637, 0.30742281675338745, 0.455627977848053],
        [0.7682217955589294, 0.6340786814689636, 0.6323062777519226],
        [0.08847743272781372, 0.4900934100151062, 0.3488934636116028],
        [0.13203048706054688, 0.8964447379112244, 0.40171730518341064]]
    torch.manual_seed(0)
    assert torch.randn_like(x)[0].tolist() == [1.5409960746765137, -1.0845223665237427, -0.7192575931549072]
    torch.manual_seed(0)
    assert torch.randint_like(x, 10).tolist() == [[4.0, 3.0, 7.0], [9.0, 9.0, 3.0], [3.0, 7.0, 1.0], [0.0, 3.0, 6.0]]


def test_dropout_noise_follows_the_input_layout():
    torch.manual_seed(0)
    y = torch.nn.functional.dropout(torch.ones(3, 4).t(), 0.5)
    assert y.tolist() == [[0.0, 0.0, 0.0], [0.0, 0.0, 2.0], [2.0, 2.0, 2.0], [0.0, 2.0, 2.0]]
    torch.manual_seed(0)
    contiguous = torch.nn.functional.dropout(torch.ones(4, 3), 0.5)
    assert contiguous.tolist() == [[0.0, 0.0, 2.0], [0.0, 0.0, 0.0], [2.0, 2.0, 0.0], [2.0, 2.0, 2.0]]


def test_clone_memory_format():
    x = torch.ones(3, 4, requires_grad=True).t()
    assert x.clone().stride() == (1, 4)
    y = x.clone(memory_format=torch.contiguous_format)
    assert y.stride() == (3, 1) and type(y.grad_fn).__name__ == "CloneBackward0"
    assert torch.clone(x, memory_format=torch.contiguous_format).stride() == (3, 1)
    c = torch.ones(2, 3, 4, 5).clone(memory_format=torch.channels_last)
    assert c.stride() == (60, 1, 15, 3)
