"""`div(rounding_mode=)`, floor division's rounding, `round(decimals=)` and `tan`: values, nodes
and gradients recorded from PyTorch 2.15 (LEAFGRAD_TEST_TORCH=1 runs this file against it)."""
import pytest

import leafgrad as torch


def test_div_rounding_modes_values_nodes_and_zero_gradients():
    a = torch.tensor([-7., 7., 5., 1.0, -1.0, 0.0, -0.0], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([2., -2., 0., 0.1, 0.1, -3.0, 3.0], dtype=torch.float64)
    expected = {"floor": [-4.0, -4.0, float("inf"), 9.0, -10.0, -0.0, -0.0],
                "trunc": [-3.0, -3.0, float("inf"), 10.0, -10.0, -0.0, -0.0]}
    for mode, values in expected.items():
        r = torch.div(a, b, rounding_mode=mode)
        assert r.tolist() == values
        assert [str(v) for v in r.tolist()] == [str(v) for v in values]  # the signs of zeros
        assert type(r.grad_fn).__name__ == "DivBackward2" and r.grad_fn._saved_rounding_mode == mode
        r.sum().backward()
        assert a.grad.tolist() == [0.0] * 7
        a.grad = None
    r = a.div(3, rounding_mode="floor")
    assert r.tolist() == [-3.0, 2.0, 1.0, 0.0, -1.0, 0.0, -0.0] and type(r.grad_fn).__name__ == "DivBackward2"


def test_div_rounding_modes_on_integers_keep_the_dtype():
    ai, bi = torch.tensor([-7, 7, 5, -9]), torch.tensor([2, -2, 3, 4])
    assert torch.div(ai, bi, rounding_mode="floor").tolist() == [-4, -4, 1, -3]
    assert torch.div(ai, bi, rounding_mode="trunc").tolist() == [-3, -3, 1, -2]
    assert torch.div(ai, 2, rounding_mode="trunc").dtype == torch.int64
    assert torch.div(ai, 2.5, rounding_mode="floor").tolist() == [-3.0, 2.0, 2.0, -4.0]
    for mode in ("floor", "trunc"):
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            torch.div(ai, torch.tensor([0, 1, 1, 1]), rounding_mode=mode)
    with pytest.raises(RuntimeError, match="div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                                           "but found 'x'"):
        torch.div(ai, bi, rounding_mode="x")


def test_div_rounding_mode_in_place_and_out():
    x = torch.tensor([5.])
    x.div_(2, rounding_mode="floor")
    assert x.tolist() == [2.0]
    y = torch.tensor([-5])
    y.div_(2, rounding_mode="trunc")
    assert y.tolist() == [-2]
    o = torch.empty(2)
    r = torch.div(torch.tensor([5., -5.]), 2, rounding_mode="floor", out=o)
    assert r is o and o.tolist() == [2.0, -3.0]


def test_floor_division_of_floats_is_pythons():
    # PyTorch (and Python) floor the quotient of a - fmod(a, b): 1 // 0.1 is 9, not floor(10.000000000000002)
    a = torch.tensor([1.0, -1.0, 7.5, 0.0, -0.0, 5.0], dtype=torch.float64)
    b = torch.tensor([0.1, 0.1, -2.0, -3.0, 3.0, 0.0], dtype=torch.float64)
    assert [str(v) for v in (a // b).tolist()] == ["9.0", "-10.0", "-4.0", "-0.0", "-0.0", "inf"]
    assert (a.float() // b.float()).tolist() == [9.0, -10.0, -4.0, -0.0, -0.0, float("inf")]
    assert (torch.tensor([1.0]) // 0.1).tolist() == [9.0]


def test_round_decimals():
    x = torch.tensor([1.2345, -2.5, 2.5, 0.125, 1234.5, 0.285])
    assert x.round(decimals=2).tolist() == [1.2300000190734863, -2.5, 2.5, 0.11999999731779099, 1234.5,
                                            0.2800000011920929]
    assert torch.round(torch.tensor([1234.5, 0.285], dtype=torch.float64), decimals=-2).tolist() == [1200.0, 0.0]
    assert torch.tensor([0.285, 2.675], dtype=torch.float64).round(decimals=2).tolist() == [0.28, 2.68]
    g = torch.tensor([1.25], requires_grad=True)
    r = g.round(decimals=1)
    assert r.tolist() == [1.2000000476837158] and type(r.grad_fn).__name__ == "RoundBackward1"
    r.backward()
    assert g.grad.tolist() == [0.0]
    assert type(g.round().grad_fn).__name__ == "RoundBackward0"
    with pytest.raises(NotImplementedError, match="\"round_cpu\" not implemented for 'Long'"):
        torch.tensor([15]).round(decimals=1)
    assert torch.tensor([15]).round().tolist() == [15]
    y = torch.tensor([1.25, 2.5])
    y.round_(decimals=1)
    assert y.tolist() == [1.2000000476837158, 2.5]


def test_tan_values_node_and_gradient():
    assert torch.tan(torch.tensor([0.3, -1.2, 100.0])).tolist() == [0.30933627486228943, -2.5721518993377686,
                                                                    -0.587213933467865]
    z = torch.tan(torch.tensor([1 + 2j, 0.5 - 0.1j], dtype=torch.complex128)).tolist()
    want = [(0.03381282607989669 + 1.0147936161466335j), (0.5392768964579927 - 0.12903101420711138j)]
    assert all(abs(u - v) < 1e-15 for u, v in zip(z, want))
    x = torch.tensor([0.3, 1.2], requires_grad=True)
    y = x.tan()
    assert type(y.grad_fn).__name__ == "TanBackward0" and y.grad_fn._saved_result.tolist() == y.tolist()
    w = torch.tensor([0.3, 1.2], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(torch.tan, (w,))
    assert torch.autograd.gradgradcheck(torch.tan, (w,))
    c = torch.tensor([0.3 + 0.2j], dtype=torch.complex128, requires_grad=True)
    assert torch.autograd.gradcheck(torch.tan, (c,))
    v = torch.tensor([0.5])
    v.tan_()
    assert v.tolist() == [0.5463024973869324]
