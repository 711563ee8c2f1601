"""float32 scans accumulate in double as PyTorch's CPU kernels; add/sub's float alpha on integers,
addmm's beta, the argument named in a binary op's TypeError, integer division of an empty result,
node names of sgn/deg2rad, bool matrix products, F.embedding's options: values recorded from
PyTorch 2.15 (LEAFGRAD_TEST_TORCH=1 runs this file against it)."""
import pytest

import leafgrad as torch


def test_float32_cumsum_and_cumprod_accumulate_in_double():
    # float32 running sums rounded per element from a double accumulator (2,926 of these 3,000
    # elements differ from a float32 accumulation)
    torch.manual_seed(0)
    x = torch.randn(3000)
    c = x.cumsum(0)
    assert c[-5:].tolist() == [2.827500820159912, 4.469656944274902, 4.143069267272949, 4.509934425354004,
                               3.785446882247925]
    assert torch.equal(c, x.double().cumsum(0).float())
    p = torch.rand(200) + 0.5
    assert torch.equal(p.cumprod(0), p.double().cumprod(0).float())
    z = torch.randn(300, dtype=torch.complex64)
    assert torch.equal(z.cumsum(0), z.to(torch.complex128).cumsum(0).to(torch.complex64))
    h = torch.randn(500).half()
    assert torch.equal(h.cumsum(0), h.float().cumsum(0).half())


def test_float_alpha_is_refused_for_integral_results():
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating "
                                           "point number."):
        torch.tensor([1, 2]).add(torch.tensor([1, 1]), alpha=0.5)
    with pytest.raises(RuntimeError, match="For integral input tensors"):
        torch.sub(torch.tensor([1, 2]), 1, alpha=2.0)
    with pytest.raises(RuntimeError, match="For integral input tensors"):
        torch.tensor([1, 2]).sub_(1, alpha=2.0)
    assert torch.tensor([1., 2.]).sub(torch.tensor([1, 1]), alpha=0.5).tolist() == [0.5, 1.5]
    assert torch.tensor([1, 2]).add(1, alpha=3).tolist() == [4, 5]


def test_addmm_with_beta_zero_ignores_input():
    i = torch.tensor([[float("nan"), 1.], [2., 3.]], requires_grad=True)
    a, b = torch.ones(2, 3), torch.ones(3, 2)
    r = torch.addmm(i, a, b, beta=0)
    assert r.tolist() == [[3.0, 3.0], [3.0, 3.0]] and r.grad_fn.name() == "AddmmBackward0"
    r = torch.addmm(i, a, b, beta=0.5, alpha=2)
    assert r.tolist()[1] == [7.0, 7.5] and r.grad_fn.name() == "AddmmBackward0"


def test_binary_function_names_the_bad_argument():
    with pytest.raises(TypeError, match=r"mul\(\): argument 'other' \(position 2\) must be Tensor, not str"):
        torch.mul(torch.ones(1), "a")


def test_integer_division_of_an_empty_result_ignores_zero_divisors():
    assert (torch.zeros(0, dtype=torch.long) // torch.tensor([0])).tolist() == []
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        torch.tensor([1]) // torch.tensor([0])


def test_sgn_of_reals_and_degree_conversions_record_pytorchs_nodes():
    x = torch.tensor([1., -2.], requires_grad=True)
    assert x.sgn().grad_fn.name() == "SgnBackward0" and x.sign().grad_fn.name() == "SignBackward0"
    y = x.deg2rad()
    assert y.grad_fn.name() == "Deg2RadBackward0" and x.rad2deg().grad_fn.name() == "Rad2DegBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [0.01745329238474369, 0.01745329238474369]
    with pytest.raises(NotImplementedError, match="deg2rad is not supported for complex tensors."):
        torch.tensor([1j]).deg2rad()


def test_matrix_products_of_bools_are_not_implemented():
    b = torch.ones(1, 2, 2, dtype=torch.bool)
    for fn, kernel in [(lambda: torch.bmm(b, b), "bmm"), (lambda: b[0] @ b[0], "addmm_impl_cpu_"),
                       (lambda: b[0, 0].dot(b[0, 0]), "dot"), (lambda: torch.mv(b[0], b[0, 0]), "addmv_impl_cpu")]:
        with pytest.raises(NotImplementedError, match=f"\"{kernel}\" not implemented for 'Bool'"):
            fn()


def test_functional_embedding_padding_frequency_and_max_norm():
    import leafgrad.nn.functional as F

    torch.manual_seed(0)
    w = torch.randn(5, 3, requires_grad=True)
    i = torch.tensor([[0, 2, 2], [4, 1, 2]])
    weights = torch.arange(18.).reshape(2, 3, 3)
    expected = {
        "plain": [[0.0, 1.0, 2.0], [12.0, 13.0, 14.0], [24.0, 27.0, 30.0], [0.0, 0.0, 0.0], [9.0, 10.0, 11.0]],
        "padding": [[0.0, 1.0, 2.0], [12.0, 13.0, 14.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [9.0, 10.0, 11.0]],
        "freq": [[0.0, 1.0, 2.0], [12.0, 13.0, 14.0], [8.0, 9.0, 10.0], [0.0, 0.0, 0.0], [9.0, 10.0, 11.0]],
    }
    for key, kw in [("plain", {}), ("padding", {"padding_idx": 2}), ("padding", {"padding_idx": -3}),
                    ("freq", {"scale_grad_by_freq": True})]:
        w.grad = None
        out = F.embedding(i, w, **kw)
        assert out.grad_fn.name() == "EmbeddingBackward0"
        (out * weights).sum().backward()
        assert w.grad.tolist() == expected[key], kw
    w2 = (torch.randn(5, 3) * 3).requires_grad_()
    F.embedding(i, w2, max_norm=1.0)
    norms = w2.detach().norm(dim=1).tolist()
    assert w2._version == 1 and all(abs(n - 1.0) < 1e-6 for k, n in enumerate(norms) if k != 3) and norms[3] > 5
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        F.embedding(i, w, padding_idx=7)
