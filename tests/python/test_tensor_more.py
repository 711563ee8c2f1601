"""einsum (any number of operands, implicit output, `...`, diagonals, sublists), index_put/put,
fill_diagonal_, unfold, the *_scatter family, repeat_interleave, the metadata queries,
apply_/map_, the torch.* spellings of functional ops and the window functions: values, dtypes,
strides of views, nodes, gradients and errors as PyTorch 2.15 gives them (these expectations
run against it with LEAFGRAD_TEST_TORCH=1)."""
import math
import re

import pytest

import leafgrad as torch


def tree(fn):
    """The graph below `fn` as nested [name, children...] lists (leaves left out)."""
    if fn is None:
        return None
    kids = [tree(f) for f, _ in fn.next_functions if f is not None and "AccumulateGrad" not in f.name()]
    return [fn.name()] + kids


def f64(*shape, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g, dtype=torch.float64).requires_grad_()


def gradcheck(fn, inputs):
    return torch.autograd.gradcheck(fn, inputs)


# --- einsum ----------------------------------------------------------------------------------

def test_einsum_batch_letters_values_graph_and_gradient():
    a = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
    b = torch.arange(40.).reshape(2, 4, 5).requires_grad_()
    y = torch.einsum("bij,bjk->bik", a, b)
    assert y.tolist() == [[[70.0, 76.0, 82.0, 88.0, 94.0], [190.0, 212.0, 234.0, 256.0, 278.0],
                           [310.0, 348.0, 386.0, 424.0, 462.0]],
                          [[1510.0, 1564.0, 1618.0, 1672.0, 1726.0], [1950.0, 2020.0, 2090.0, 2160.0, 2230.0],
                           [2390.0, 2476.0, 2562.0, 2648.0, 2734.0]]]
    assert y.stride() == (15, 5, 1)
    side = ["ViewBackward0", ["PermuteBackward0", ["PermuteBackward0", ["UnsqueezeBackward0"]]]]
    assert tree(y.grad_fn) == ["ViewBackward0", ["PermuteBackward0", ["ViewBackward0", ["BmmBackward0", side, side]]]]
    ga, gb = torch.autograd.grad(y.sum(), [a, b])
    assert ga[1].tolist() == [[110.0, 135.0, 160.0, 185.0]] * 3
    assert gb[0, :, 0].tolist() == [12.0, 15.0, 18.0, 21.0]


def test_einsum_three_operands_contract_left_to_right():
    p, q, r = torch.arange(6.).reshape(2, 3), torch.arange(12.).reshape(3, 4), torch.arange(8.).reshape(4, 2)
    assert torch.einsum("ij,jk,kl->il", p, q, r).tolist() == [[324.0, 422.0], [1008.0, 1304.0]]
    ones = [torch.ones(2, 3, requires_grad=True), torch.ones(3, 4, requires_grad=True), torch.ones(4, 5, requires_grad=True)]
    y = torch.einsum("ij,jk,kl->il", *ones)
    inner = ["ViewBackward0", ["PermuteBackward0", ["PermuteBackward0", ["UnsqueezeBackward0", ["UnsqueezeBackward0"]]]]]
    first = ["ViewBackward0", ["PermuteBackward0", ["PermuteBackward0", ["ViewBackward0", ["BmmBackward0", inner, inner]]]]]
    assert tree(y.grad_fn) == ["ViewBackward0", ["PermuteBackward0", ["ViewBackward0", ["BmmBackward0", first, inner]]]]
    # the operands as one list, and the sublist format
    assert torch.einsum("ij,jk,kl->il", [p, q, r]).tolist() == [[324.0, 422.0], [1008.0, 1304.0]]
    assert torch.einsum(p, [0, 1], q, [1, 2], r, [2, 3], [0, 3]).tolist() == [[324.0, 422.0], [1008.0, 1304.0]]
    assert torch.einsum(p, [Ellipsis, 1], [1]).tolist() == [3.0, 5.0, 7.0]


def test_einsum_implicit_output_diagonals_and_single_operand_sums():
    x = torch.tensor([[0., 1., 2.], [3., 4., 5.], [6., 7., 8.]])
    d = torch.einsum("ii->i", x)
    assert d.tolist() == [0.0, 4.0, 8.0] and d._base is x and d.stride() == (4,)
    assert torch.einsum("ii", x).item() == 12.0
    assert torch.einsum("iij->ji", torch.arange(18.).reshape(3, 3, 2)).tolist() == [[0.0, 8.0, 16.0], [1.0, 9.0, 17.0]]
    # implicit output: the letters seen once, upper case before lower case
    t = torch.einsum("ba", torch.arange(6.).reshape(2, 3))
    assert t.shape == (3, 2) and t._base is not None and t.stride() == (1, 3)
    assert torch.einsum("bA", torch.zeros(2, 3)).shape == (3, 2)
    assert torch.einsum("Ab,bA", torch.arange(6.).reshape(2, 3), torch.arange(6.).reshape(3, 2)).item() == 50.0
    p = torch.arange(6.).reshape(2, 3).requires_grad_()
    y = torch.einsum("ij->j", p)
    assert y.tolist() == [3.0, 5.0, 7.0] and tree(y.grad_fn) == ["SumBackward1", ["PermuteBackward0"]]
    y = torch.einsum("i,j->ij", torch.ones(2, requires_grad=True), torch.ones(3, requires_grad=True))
    arm = ["PermuteBackward0", ["UnsqueezeBackward0"]]
    assert tree(y.grad_fn) == ["MulBackward0", arm, arm]


def test_einsum_ellipsis_and_broadcasting():
    assert torch.einsum("...ij,...jk->...ik", torch.ones(2, 1, 3, 4), torch.ones(5, 4, 2)).shape == (2, 5, 3, 2)
    y = torch.einsum("ij,ij->ij", torch.arange(6.).reshape(2, 3), torch.tensor([[1., 2., 3.]]))
    assert y.tolist() == [[0.0, 2.0, 6.0], [3.0, 8.0, 15.0]]
    y = torch.einsum("b...i,bij,j->b...", torch.arange(6.).reshape(2, 1, 3), torch.arange(12.).reshape(2, 3, 2),
                     torch.tensor([1., 2.]))
    assert y.tolist() == [[36.0], [324.0]]
    assert torch.einsum("i j , j k -> i k", torch.ones(2, 3), torch.ones(3, 4)).shape == (2, 4)


def test_einsum_gradcheck_one_two_three_operands_ellipsis_and_diagonal():
    assert gradcheck(lambda a: torch.einsum("ij->j", a), [f64(3, 4)])
    assert gradcheck(lambda a: torch.einsum("ii->i", a), [f64(3, 3)])
    assert gradcheck(lambda a: torch.einsum("iij->j", a), [f64(3, 3, 2)])
    assert gradcheck(lambda a, b: torch.einsum("bij,bjk->bik", a, b), [f64(2, 3, 4), f64(2, 4, 2, seed=1)])
    assert gradcheck(lambda a, b: torch.einsum("...ij,...jk->...ik", a, b), [f64(2, 1, 3, 4), f64(3, 4, 2, seed=1)])
    assert gradcheck(lambda a, b, c: torch.einsum("bn,anm,bm->ba", a, b, c),
                     [f64(2, 3), f64(4, 3, 5, seed=1), f64(2, 5, seed=2)])
    assert gradcheck(lambda a, b: torch.einsum("ii,jj", a, b), [f64(3, 3), f64(2, 2, seed=1)])


def test_einsum_errors():
    x, y = torch.ones(2, 3), torch.ones(3, 4)
    cases = [
        (("ij,jk", x), "einsum(): fewer operands were provided than specified in the equation"),
        (("ij", x, y), "einsum(): more operands were provided than specified in the equation"),
        (("ij->k", x), "einsum(): output subscript k does not appear in the equation for any input operand"),
        (("ij->ii", x), "einsum(): output subscript i appears more than once in the output"),
        (("i1", torch.ones(2, 2)), "einsum(): invalid subscript given at index 1 in the equation string, subscripts "
                                   "must be in [a-zA-Z]"),
        (("ij,jk->i2", x, y), "einsum(): invalid subscript given at index 8 in the equation string"),
        (("ijk", x), "einsum(): the number of subscripts in the equation (3) does not match the number of dimensions "
                     "(2) for operand 0 and no ellipsis was given"),
        (("ij...k", x), "einsum(): the number of subscripts in the equation (3) is more than the number of dimensions "
                        "(2) for operand 0"),
        (("i.j", x), "einsum(): found '.' for operand 0 that is not part of any ellipsis"),
        (("ij,kj", x, y), "einsum(): subscript j has size 4 for operand 1 which does not broadcast with previously "
                          "seen size 3"),
        (("ii", x), "einsum(): subscript i is repeated for operand 0 but the sizes don't match, 3 != 2"),
        (("ij,jk", x, y.double()), "expected scalar type Float but found Double"),
    ]
    for args, msg in cases:
        with pytest.raises(RuntimeError, match=re.escape(msg)):
            torch.einsum(*args)
    with pytest.raises(ValueError, match=re.escape("einsum(): must specify the equation string and at least one")):
        torch.einsum("ij")
    with pytest.raises(ValueError, match=re.escape("einsum(): subscript in subscript list is not within the valid "
                                                   "range [0, 52)")):
        torch.einsum(x, [0, 60])
    with pytest.raises(TypeError, match="expected Tensor as element 1 in argument 1, but got int"):
        torch.einsum("i,i", torch.ones(2), 3)


# --- index_put / put -------------------------------------------------------------------------

def test_index_put_accumulates_repeats_and_agrees_with_setitem():
    x = torch.zeros(3, 4)
    i = torch.tensor([0, 2, 0])
    r = x.index_put((i,), torch.arange(12.).reshape(3, 4), accumulate=True)
    assert r.tolist() == [[8.0, 10.0, 12.0, 14.0], [0.0, 0.0, 0.0, 0.0], [4.0, 5.0, 6.0, 7.0]]
    assert x.tolist() == [[0.0] * 4] * 3
    r = torch.index_put(x, (i, torch.tensor([1, 3, 1])), torch.tensor([1., 2., 3.]), True)
    assert r.tolist() == [[0.0, 4.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 2.0]]
    mask = torch.tensor([True, False, True])
    r = x.index_put((mask,), torch.tensor([5., 6., 7., 8.]))
    s = x.clone()
    s[mask] = torch.tensor([5., 6., 7., 8.])
    assert r.tolist() == s.tolist() == [[5.0, 6.0, 7.0, 8.0], [0.0, 0.0, 0.0, 0.0], [5.0, 6.0, 7.0, 8.0]]
    r = torch.zeros(2, 3, 2).index_put((torch.tensor([[0], [1]]), torch.tensor([1, 2, 2])), torch.ones(2, 3, 2), True)
    assert r.tolist() == [[[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]]
    b = torch.zeros(3, dtype=torch.bool).index_put((torch.tensor([0, 0]),), torch.tensor([True, True]), accumulate=True)
    assert b.dtype == torch.bool and b.tolist() == [True, False, False]


def test_index_put_graph_in_place_and_gradients():
    a = torch.ones(3, requires_grad=True)
    c = a * 2
    v = torch.tensor([5., 6.], requires_grad=True)
    r = c.index_put_((torch.tensor([1, 1]),), v, accumulate=True)
    assert r is c and c.tolist() == [2.0, 13.0, 2.0] and c.grad_fn.name() == "IndexPutBackward0"
    ga, gv = torch.autograd.grad((c * torch.tensor([1., 2., 3.])).sum(), [a, v])
    assert ga.tolist() == [2.0, 4.0, 6.0] and gv.tolist() == [2.0, 2.0]
    base = torch.zeros(2, 3)
    row = base[1]
    row.index_put_((torch.tensor([0, 0]),), torch.tensor([1., 2.]), accumulate=True)
    assert base.tolist() == [[0.0, 0.0, 0.0], [3.0, 0.0, 0.0]] and base._version == 1
    y = torch.zeros(3, 4, dtype=torch.float64, requires_grad=True).index_put((torch.tensor([0]),), torch.ones(4, dtype=torch.float64))
    assert tree(y.grad_fn) == ["IndexPutBackward0"]
    i = torch.tensor([0, 2, 0])
    assert gradcheck(lambda x, v: x.index_put((i,), v, accumulate=True), [f64(3, 4), f64(3, 4, seed=1)])
    assert gradcheck(lambda x, v: x.index_put((i, torch.tensor([1])), v, accumulate=True), [f64(3, 4), f64(1, seed=1)])
    assert gradcheck(lambda x, v: x.t().index_put((torch.tensor([1, 3]),), v), [f64(3, 4), f64(3, seed=1)])
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation."):
        a.index_put_((torch.tensor([0]),), torch.tensor([1.]))


def test_index_put_errors():
    x = torch.zeros(3, 4)
    i = torch.tensor([0, 2, 0])
    with pytest.raises(RuntimeError, match=re.escape("Index put requires the source and destination dtypes match, "
                                                     "got Float for the destination and Double for the source.")):
        x.index_put((i,), torch.ones(4, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=re.escape("shape mismatch: value tensor of shape [1, 3, 4] cannot be "
                                                     "broadcast to indexing result of shape [3, 4]")):
        x.index_put((i,), torch.ones(1, 3, 4), accumulate=True)
    with pytest.raises(TypeError, match=re.escape("index_put(): argument 'indices' (position 2) must be tuple of "
                                                  "Tensors, not Tensor")):
        torch.index_put(x, i, torch.tensor(1.))
    with pytest.raises(TypeError, match=re.escape("index_put(): argument 'values' (position 2) must be Tensor, not float")):
        x.index_put((i,), 1.0)
    with pytest.raises(IndexError, match=re.escape("too many indices for tensor of dimension 2 (got 3)")):
        x.index_put((i, i, i), torch.tensor(1.))
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0 with size 3"):
        x.index_put((torch.tensor([5]),), torch.tensor(1.), accumulate=True)
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool tensors"):
        x.index_put((torch.tensor([0.5]),), torch.tensor(1.))


def test_put_flat_positions_accumulate_graph_and_errors():
    r = torch.zeros(2, 3).put(torch.tensor([0, -1, 0, 4]), torch.tensor([1., 2., 3., 4.]), accumulate=True)
    assert r.tolist() == [[4.0, 0.0, 0.0], [0.0, 4.0, 2.0]]
    t = torch.arange(6.).reshape(2, 3).t()
    r = t.put(torch.tensor([0, 5]), torch.tensor([10., 20.]))
    assert r.tolist() == [[10.0, 3.0], [1.0, 4.0], [2.0, 20.0]] and r.stride() == (1, 3)
    x = torch.zeros(2, 2)
    assert x.put_(torch.tensor([[3, 0]]), torch.tensor([1., 2.])) is x and x.tolist() == [[2.0, 0.0], [0.0, 1.0]]
    y = torch.zeros(2, 3, requires_grad=True).clone()
    y.put_(torch.tensor([1, 1]), torch.tensor([1., 2.], requires_grad=True), accumulate=True)
    assert tree(y.grad_fn) == ["PutBackward0", ["CloneBackward0"]]
    assert gradcheck(lambda a, s: a.put(torch.tensor([0, 4, -1, 1]), s), [f64(2, 3), f64(2, 2, seed=1)])
    assert gradcheck(lambda a, s: torch.put(a, torch.tensor([0, 5, 0]), s, accumulate=True), [f64(2, 3), f64(3, seed=1)])
    z = torch.zeros(2, 3)
    with pytest.raises(IndexError, match=re.escape("put_(): Expected source and index to have the same number of "
                                                   "elements, but got source.numel() = 3, index.numel() = 2")):
        z.put(torch.tensor([0, 1]), torch.tensor([1., 2., 3.]))
    with pytest.raises(RuntimeError, match=re.escape("put_(): Expected a long tensor for index, but got Int")):
        z.put(torch.tensor([0, 1], dtype=torch.int32), torch.tensor([1., 2.]))
    with pytest.raises(IndexError, match=re.escape("out of range: tried to access index 6 on a tensor of 6 elements.")):
        z.put(torch.tensor([0, 6]), torch.tensor([1., 2.]))
    with pytest.raises(RuntimeError, match=re.escape("put_(): self and source expected to have the same dtype, but got "
                                                     "self.dtype = Float and source.dtype = Double")):
        z.put(torch.tensor([0, 1]), torch.tensor([1., 2.], dtype=torch.float64))


# --- fill_diagonal_, unfold ------------------------------------------------------------------

def test_fill_diagonal_values_wrap_graph_and_errors():
    assert torch.zeros(7, 3).fill_diagonal_(5, wrap=True).tolist() == [
        [5.0, 0.0, 0.0], [0.0, 5.0, 0.0], [0.0, 0.0, 5.0], [0.0, 0.0, 0.0], [5.0, 0.0, 0.0], [0.0, 5.0, 0.0],
        [0.0, 0.0, 5.0]]
    assert torch.zeros(7, 3).fill_diagonal_(5)[4:].sum().item() == 0.0
    assert torch.zeros(2, 2, 2).fill_diagonal_(1.).tolist() == [[[1.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 1.0]]]
    t = torch.zeros(4, 3).t().fill_diagonal_(2.)
    assert t.tolist() == [[2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0]] and t.stride() == (1, 3)
    x = torch.zeros(3, 3, dtype=torch.int64)
    assert x.fill_diagonal_(2.7) is x and x.tolist() == [[2, 0, 0], [0, 2, 0], [0, 0, 2]]
    leaf = torch.zeros(3, 3, requires_grad=True)
    y = leaf.clone().fill_diagonal_(2.)
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    (g,) = torch.autograd.grad((y * torch.arange(9.).reshape(3, 3)).sum(), leaf)
    assert g.tolist() == [[0.0, 1.0, 2.0], [3.0, 0.0, 5.0], [6.0, 7.0, 0.0]]
    with pytest.raises(RuntimeError, match="dimensions must larger than 1"):
        torch.zeros(3).fill_diagonal_(5)
    with pytest.raises(RuntimeError, match="all dimensions of input must be of equal length"):
        torch.zeros(2, 3, 2).fill_diagonal_(5)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad is being used in an in-place"):
        torch.zeros(2, 2, requires_grad=True).fill_diagonal_(1.)


def test_unfold_is_a_view_with_pytorchs_strides():
    x = torch.arange(12.).reshape(3, 4).clone()
    u = x.unfold(1, 2, 1)
    assert u.shape == (3, 3, 2) and u.stride() == (4, 1, 1) and u._base is x and not u.is_contiguous()
    assert u[1].tolist() == [[4.0, 5.0], [5.0, 6.0], [6.0, 7.0]]
    u = x.unfold(0, 2, 1)
    assert u.shape == (2, 4, 2) and u.stride() == (4, 1, 4) and u[0, 1].tolist() == [1.0, 5.0]
    u = x.unfold(1, 2, 2)
    assert u.stride() == (4, 2, 1) and u.is_contiguous()
    assert x.unfold(-1, 3, 2).tolist() == [[[0.0, 1.0, 2.0]], [[4.0, 5.0, 6.0]], [[8.0, 9.0, 10.0]]]
    assert x[1:].unfold(1, 2, 1).storage_offset() == 4
    assert x.t().unfold(0, 2, 1).stride() == (1, 4, 1)
    assert x.unfold(1, 0, 1).shape == (3, 5, 0)
    s = torch.tensor(5.).unfold(0, 1, 1)
    assert s.shape == (1,) and s.stride() == (1,)
    # writes show through both ways
    t = torch.zeros(2, 3)
    w = t.unfold(1, 2, 1)
    w[0, 1, 0] = 9.
    assert t.tolist() == [[0.0, 9.0, 0.0], [0.0, 0.0, 0.0]] and t._version == 1
    t.add_(1)
    assert w[0].tolist() == [[1.0, 10.0], [10.0, 1.0]]
    assert gradcheck(lambda a: a.unfold(1, 3, 1), [f64(2, 5)])
    assert gradcheck(lambda a: a.unfold(0, 2, 3).unfold(1, 2, 2), [f64(8, 5)])
    with pytest.raises(RuntimeError, match="maximum size for tensor at dimension 1 is 4 but size is 5"):
        x.unfold(1, 5, 1)
    with pytest.raises(RuntimeError, match="step is 0 but must be > 0"):
        x.unfold(1, 2, 0)
    with pytest.raises(RuntimeError, match="size is -1 but must be >= 0"):
        x.unfold(1, -1, 1)
    with pytest.raises(IndexError, match=re.escape("Dimension out of range (expected to be in range of [-2, 1], but got 2)")):
        x.unfold(2, 1, 1)


# --- the *_scatter family, narrow_copy -------------------------------------------------------

def test_scatter_family_values_strides_nodes_and_gradients():
    x = torch.zeros(3, 4)
    assert x.diagonal_scatter(torch.ones(3), 1).tolist() == [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0],
                                                             [0.0, 0.0, 0.0, 1.0]]
    assert x.t().diagonal_scatter(torch.tensor([1., 2., 3.])).stride() == (1, 4)
    assert x.select_scatter(torch.ones(3), 1, -1).tolist() == [[0.0, 0.0, 0.0, 1.0]] * 3
    assert x.slice_scatter(torch.ones(3, 2), 1, 0, 4, 2).tolist() == [[1.0, 0.0, 1.0, 0.0]] * 3
    assert torch.slice_scatter(x, torch.ones(1, 4), start=2).tolist()[2] == [1.0, 1.0, 1.0, 1.0]
    assert x.as_strided_scatter(torch.tensor([1., 2., 3.]), (3,), (5,)).tolist() == [
        [1.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 3.0, 0.0]]
    assert x.diagonal_scatter(torch.ones(3, dtype=torch.float64)).dtype == torch.float32
    xg = torch.zeros(3, 4, requires_grad=True)
    assert torch.diagonal_scatter(xg, torch.ones(3)).grad_fn.name() == "DiagonalScatterBackward0"
    assert torch.select_scatter(xg, torch.ones(4), 0, 0).grad_fn.name() == "SelectScatterBackward0"
    assert torch.slice_scatter(xg, torch.ones(3, 2), 1, 1, 3).grad_fn.name() == "SliceScatterBackward0"
    assert torch.as_strided_scatter(xg, torch.ones(2), (2,), (1,)).grad_fn.name() == "AsStridedScatterBackward0"
    assert gradcheck(lambda a, s: a.diagonal_scatter(s, 1), [f64(3, 4), f64(3, seed=1)])
    assert gradcheck(lambda a, s: torch.diagonal_scatter(a.t(), s), [f64(3, 4), f64(3, seed=1)])
    assert gradcheck(lambda a, s: a.select_scatter(s, 1, 2), [f64(3, 4), f64(3, seed=1)])
    assert gradcheck(lambda a, s: torch.slice_scatter(a, s, 1, 0, 4, 2), [f64(3, 4), f64(3, 2, seed=1)])
    base = torch.zeros(3, 4, dtype=torch.float64)
    assert gradcheck(lambda s: base.as_strided_scatter(s, (2, 2), (1, 2)), [f64(2, 2, seed=1)])


def test_scatter_family_errors():
    x = torch.zeros(3, 4)
    with pytest.raises(RuntimeError, match=re.escape("expected src to have a size equal to the slice of self. src size "
                                                     "= [2], slice size = [3]")):
        x.diagonal_scatter(torch.ones(2))
    with pytest.raises(RuntimeError, match=re.escape("src size = [1, 4], slice size = [4]")):
        x.select_scatter(torch.ones(1, 4), 0, 0)
    with pytest.raises(IndexError, match=re.escape("select(): index 5 out of range for tensor of size [3, 4] at dimension 0")):
        x.select_scatter(torch.ones(4), 0, 5)
    with pytest.raises(RuntimeError, match="slice step must be positive"):
        x.slice_scatter(torch.ones(3, 2), 1, 0, 4, 0)
    with pytest.raises(RuntimeError, match=re.escape("src size = [3], slice size = [2]")):
        x.as_strided_scatter(torch.ones(3), (2,), (1,))
    with pytest.raises(RuntimeError, match="diagonal dimensions cannot be identical 0, 0"):
        x.diagonal_scatter(torch.ones(3), 0, 0, 0)


def test_narrow_copy():
    x = torch.arange(6.).reshape(2, 3)
    r = torch.narrow_copy(x.t(), 0, 1, 2)
    assert r.tolist() == [[1.0, 4.0], [2.0, 5.0]] and r.stride() == (2, 1) and r._base is None
    assert x.narrow_copy(1, -1, 1).tolist() == [[2.0], [5.0]]
    assert x.narrow_copy(0, torch.tensor(1), 1).tolist() == [[3.0, 4.0, 5.0]]
    assert torch.arange(6., requires_grad=True).narrow_copy(0, 1, 2).grad_fn.name() == "NarrowCopyBackward0"
    assert gradcheck(lambda a: a.narrow_copy(1, 1, 2), [f64(3, 4)])
    with pytest.raises(RuntimeError, match=re.escape("start (2) + length (2) exceeds dimension size (3).")):
        x.narrow_copy(1, 2, 2)
    with pytest.raises(IndexError, match=re.escape("start out of range (expected to be in range of [-3, 3], but got 4)")):
        x.narrow_copy(1, 4, 0)
    with pytest.raises(RuntimeError, match="narrow\\(\\) cannot be applied to a 0-dim tensor."):
        torch.tensor(1.).narrow_copy(0, 0, 1)


# --- repeat_interleave -----------------------------------------------------------------------

def test_repeat_interleave_forms_nodes_and_errors():
    x = torch.arange(6.).reshape(2, 3)
    assert x.repeat_interleave(2).tolist() == [0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 5.0, 5.0]
    assert x.repeat_interleave(2, dim=0).tolist() == [[0.0, 1.0, 2.0], [0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [3.0, 4.0, 5.0]]
    r = x.t().repeat_interleave(2, 0)
    assert r.stride() == (2, 1) and r._base is not None
    assert x.repeat_interleave(torch.tensor([1, 2, 0]), dim=1).tolist() == [[0.0, 1.0, 1.0], [3.0, 4.0, 4.0]]
    assert x.repeat_interleave(torch.tensor([1, 2, 1, 0, 0, 1])).tolist() == [0.0, 1.0, 1.0, 2.0, 5.0]
    assert x.repeat_interleave(torch.tensor(2), dim=0, output_size=4).shape == (4, 3)
    assert torch.repeat_interleave(torch.tensor([1, 0, 3])).tolist() == [0, 2, 2, 2]
    r = torch.repeat_interleave(torch.tensor([1, 2], dtype=torch.int32), output_size=3)
    assert r.dtype == torch.int32 and r.tolist() == [0, 1, 1]
    assert torch.repeat_interleave(repeats=torch.tensor([2])).tolist() == [0, 0]
    xg = torch.arange(6., requires_grad=True).reshape(2, 3)
    assert tree(xg.repeat_interleave(2).grad_fn) == ["ViewBackward0", ["CloneBackward0", ["ExpandBackward0",
                                                     ["UnsqueezeBackward0", ["ViewBackward0", ["ViewBackward0"]]]]]]
    assert tree(xg.repeat_interleave(torch.tensor([1, 2, 0, 0, 1, 1])).grad_fn) == [
        "IndexSelectBackward0", ["ViewBackward0", ["ViewBackward0"]]]
    assert tree(xg.repeat_interleave(2, 1).grad_fn) == ["ViewBackward0", ["CloneBackward0", ["ExpandBackward0",
                                                        ["UnsqueezeBackward0", ["ViewBackward0"]]]]]
    assert gradcheck(lambda a: a.repeat_interleave(torch.tensor([2, 0, 1]), dim=1), [f64(2, 3)])
    assert gradcheck(lambda a: a.repeat_interleave(3), [f64(2, 2)])
    with pytest.raises(RuntimeError, match=re.escape("repeats must have the same size as input along dim, but got "
                                                     "repeats.size(0) = 2 and input.size(1) = 3")):
        x.repeat_interleave(torch.tensor([1, 2]), dim=1)
    with pytest.raises(RuntimeError, match="repeats must be 0-dim or 1-dim tensor"):
        x.repeat_interleave(torch.tensor([[1, 2]]), dim=1)
    with pytest.raises(RuntimeError, match="Repeats must be non-negative"):
        x.repeat_interleave(-1)
    with pytest.raises(RuntimeError, match="repeats can not be negative"):
        torch.repeat_interleave(torch.tensor([1, -2]))
    with pytest.raises(RuntimeError, match="repeat_interleave: Invalid output_size, expected 4 but got 5"):
        x.repeat_interleave(2, dim=0, output_size=5)
    with pytest.raises(RuntimeError, match="allocated size does not match required size"):
        torch.repeat_interleave(torch.tensor([1, 2]), output_size=4)
    with pytest.raises(RuntimeError, match="repeat_interleave only accept 1D vector as repeat"):
        torch.repeat_interleave(torch.tensor(2))
    with pytest.raises(NotImplementedError, match="\"repeat_interleave_cpu\" not implemented for 'Float'"):
        torch.repeat_interleave(torch.tensor([1., 2.]))
    with pytest.raises(TypeError, match=re.escape("repeat_interleave() received an invalid combination of arguments - "
                                                  "got (float), but expected one of:")):
        x.repeat_interleave(2.0)


# --- metadata, sum_to_size, new_empty_strided -------------------------------------------------

def test_metadata_queries():
    signed = {torch.bool: False, torch.uint8: False, torch.int8: True, torch.int16: True, torch.int32: True,
              torch.int64: True, torch.float16: True, torch.bfloat16: True, torch.float32: True,
              torch.float64: True, torch.complex64: True}
    sizes = {torch.bool: 1, torch.uint8: 1, torch.int8: 1, torch.int16: 2, torch.int32: 4, torch.int64: 8,
             torch.float16: 2, torch.bfloat16: 2, torch.float32: 4, torch.float64: 8, torch.complex64: 8}
    for dt, s in signed.items():
        t = torch.zeros(3, dtype=dt)
        assert t.is_signed() is s and torch.is_signed(t) is s
        assert t.itemsize == sizes[dt] and t.nbytes == 3 * sizes[dt] and t[::2].nbytes == 2 * sizes[dt]
    assert torch.zeros(1).expand(5).nbytes == 20 and torch.tensor(1.).nbytes == 4
    t = torch.zeros(2)
    assert t.get_device() == -1 and t.is_cpu is True
    assert torch.tensor([1.5]).is_nonzero() is True and torch.tensor(0.).is_nonzero() is False
    assert torch.is_nonzero(torch.tensor(float("nan"))) is True and torch.tensor([[False]]).is_nonzero() is False
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"):
        torch.tensor([1., 2.]).is_nonzero()
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with no values is ambiguous"):
        torch.tensor([]).is_nonzero()
    assert torch.zeros(2, 3).is_same_size(torch.zeros(2, 3, dtype=torch.int64)) is True
    assert torch.is_same_size(torch.zeros(2, 3), torch.zeros(3, 2)) is False
    with pytest.raises(TypeError, match=re.escape("is_same_size(): argument 'other' (position 1) must be Tensor, not list")):
        torch.zeros(2).is_same_size([2])


def test_sum_to_size_and_new_empty_strided():
    x = torch.arange(6.).reshape(2, 3)
    assert x.sum_to_size(1, 3).tolist() == [[3.0, 5.0, 7.0]]
    assert x.sum_to_size((2, 1)).tolist() == [[3.0], [12.0]]
    assert x.sum_to_size(torch.Size([3])).tolist() == [3.0, 5.0, 7.0]
    assert x.sum_to_size(()).item() == 15.0
    assert torch.ones(2, 3, dtype=torch.int32).sum_to_size(1, 3).dtype == torch.int64
    xg = torch.arange(6., requires_grad=True).reshape(2, 3)
    assert xg.sum_to_size(2, 3) is xg
    assert tree(xg.sum_to_size(3).grad_fn) == ["ViewBackward0", ["SumBackward1", ["ViewBackward0"]]]
    with pytest.raises(RuntimeError, match=re.escape("size {[4]} is not expandable to size {[2, 3]}.")):
        x.sum_to_size(4)
    with pytest.raises(RuntimeError, match=re.escape("size {[1, 2, 3]} is not expandable to size {[2, 3]}.")):
        x.sum_to_size(1, 2, 3)
    d = torch.ones(1, dtype=torch.float64)
    e = d.new_empty_strided((2, 3), (1, 2))
    assert e.shape == (2, 3) and e.stride() == (1, 2) and e.dtype == torch.float64
    e = d.new_empty_strided([2], [1], dtype=torch.int32, requires_grad=False)
    assert e.dtype == torch.int32 and not e.requires_grad
    with pytest.raises(RuntimeError, match=re.escape("dimensionality of sizes (2) must match dimensionality of strides (1)")):
        d.new_empty_strided((2, 3), (1,))


# --- apply_ / map_ ---------------------------------------------------------------------------

def test_apply_and_map():
    x = torch.arange(6.).reshape(2, 3)
    assert x.clone().apply_(lambda v: v * 2).tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]
    assert torch.arange(4).apply_(lambda v: v * 2.7).tolist() == [0, 2, 5, 8]
    assert torch.tensor([True, False]).apply_(lambda v: not v).tolist() == [False, True]
    seen = []
    t = x.clone().t().apply_(lambda v: seen.append(v) or v + 1)
    assert seen == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0] and t.tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
    y = torch.zeros(2)
    assert y.apply_(lambda v: v + 1) is y and y._version == 0
    with pytest.raises(TypeError, match="must be real number, not str"):
        x.clone().apply_(lambda v: "a")
    with pytest.raises(RuntimeError, match="value cannot be converted to type uint8 without overflow"):
        torch.zeros(1, dtype=torch.uint8).apply_(lambda v: 300)
    with pytest.raises(RuntimeError, match=re.escape("Can't call apply_() on Variable that requires grad. Use "
                                                     "var.detach().apply_() instead.")):
        torch.zeros(2, requires_grad=True).apply_(lambda v: 1)
    assert x.clone().map_(torch.ones(3), lambda a, b: a + b).tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    with pytest.raises(TypeError, match=re.escape("map_: expected torch.FloatTensor for 'other' (got torch.LongTensor)")):
        x.clone().map_(torch.ones(2, 3, dtype=torch.int64), lambda a, b: a)
    with pytest.raises(RuntimeError, match=re.escape("Can't call map_() on Variable that requires grad.")):
        torch.zeros(2).map_(torch.ones(2, requires_grad=True), lambda a, b: a + b)


# --- torch.* spellings of functional ops -----------------------------------------------------

def test_top_level_losses_take_an_int_reduction_and_default_to_none():
    x = torch.tensor([0.3, 2., -1.])
    s = torch.tensor([1., -1., 1.])
    assert torch.hinge_embedding_loss(x, s).shape == (3,)
    assert torch.hinge_embedding_loss(x, s, 1.0, 1).item() == pytest.approx(-0.7 / 3)
    assert torch.hinge_embedding_loss(x, s, 1.0, 2).item() == pytest.approx(-0.7)
    assert torch.kl_div(torch.tensor([-1., -2.]), torch.tensor([0.5, 0.5])).shape == (2,)
    assert torch.kl_div(torch.tensor([-1., -2.]), torch.tensor([0.5, 0.5]), 2).item() == pytest.approx(0.80685282)
    assert torch.binary_cross_entropy_with_logits(torch.zeros(2), torch.tensor([1., 0.])).shape == (2,)
    lp = torch.zeros(3, 1, 2).log_softmax(2)
    assert torch.ctc_loss(lp, torch.tensor([[1]]), [3], [1]).shape == (1,)
    with pytest.raises(TypeError, match="binary_cross_entropy_with_logits\\(\\): argument 'reduction' must be int, "
                                        "not str"):
        torch.binary_cross_entropy_with_logits(torch.zeros(2), torch.zeros(2), reduction="mean")


def test_top_level_losses_record_atens_nodes():
    g = torch.Generator().manual_seed(0)
    a, b, c = (torch.randn(3, 4, generator=g, requires_grad=True) for _ in range(3))
    t = torch.tensor([1., -1., 1.])
    u, v = torch.randn(3, generator=g, requires_grad=True), torch.randn(3, generator=g, requires_grad=True)
    y = torch.margin_ranking_loss(u, v, t, 0.1, 2)
    assert tree(y.grad_fn) == ["SumBackward0", ["ClampMinBackward0", ["AddBackward1", ["MulBackward0",
                                                                                       ["SubBackward0"]]]]]
    y = torch.hinge_embedding_loss(u, t)
    assert tree(y.grad_fn) == ["AddBackward0", ["WhereBackward0", ["ClampMinBackward0", ["SubBackward0"]]],
                               ["WhereBackward0"]]
    y = torch.triplet_margin_loss(a, b, c, 1.0, 2, 1e-6, True, 1)
    norm = ["NormBackward1", ["AddBackward1", ["SubBackward0"]]]
    assert tree(y.grad_fn) == ["MeanBackward0", ["ClampMinBackward0", ["SubBackward0", ["AddBackward1", norm],
                                                                       ["MinimumBackward0", norm, norm]]]]
    y = torch.poisson_nll_loss(a[0].abs(), torch.tensor([1., 0., 2., 3.]), False, True, 1e-8, 0)
    assert tree(y.grad_fn)[1][2][1] == ["LogBackward0", ["AddBackward1", ["AbsBackward0", ["SelectBackward0"]]]]
    y = torch.cosine_embedding_loss(a, b, t, 0.2)
    assert tree(y.grad_fn)[2][0:2] == ["WhereBackward0", ["ClampMinBackward0", tree(y.grad_fn)[2][1][1]]]
    assert tree(y.grad_fn)[2][1][1][0] == "SubBackward1"
    y = torch.cosine_similarity(a, b)
    div = ["DivBackward0", ["CloneBackward0", ["LinalgVectorNormBackward0"]]]
    assert tree(y.grad_fn) == ["SumBackward1", ["MulBackward0", div, div]]
    assert torch.pairwise_distance(a, b).grad_fn.name() == "NormBackward1"
    assert gradcheck(lambda u, v, w: torch.triplet_margin_loss(u, v, w, 1.0, 2, 1e-6, True, 1),
                     [f64(3, 4), f64(3, 4, seed=1), f64(3, 4, seed=2)])
    assert gradcheck(lambda u, v: torch.cosine_embedding_loss(u, v, torch.tensor([1., -1., 1.], dtype=torch.float64),
                                                              0.1, 2), [f64(3, 4), f64(3, 4, seed=1)])


def test_top_level_norms_dropout_and_embedding_signatures():
    x = torch.tensor([[1., 2.], [3., 6.]])
    y = torch.batch_norm(x, None, None, None, None, True, 0.1, 1e-5, False)
    assert torch.allclose(y, torch.tensor([[-1., -1.], [1., 1.]]), atol=1e-4)
    assert torch.batch_norm(torch.ones(1, 3), None, None, None, None, True, 0.1, 1e-5, False).tolist() == [[0.0] * 3]
    rm, rv = torch.zeros(3), torch.ones(3)
    torch.instance_norm(torch.arange(24.).reshape(2, 3, 4), None, None, rm, rv, True, 0.1, 1e-5, False)
    assert torch.allclose(rm, torch.tensor([0.75, 1.15, 1.55])) and torch.allclose(rv, torch.full((3,), 1.0667), atol=1e-4)
    with pytest.raises(RuntimeError, match="Expected running_mean and running_var to be defined when use_input_stats is false"):
        torch.instance_norm(x.unsqueeze(0), None, None, None, None, False, 0.1, 1e-5, False)
    assert torch.group_norm(torch.ones(1, 2, 1), 2).tolist() == [[[0.0], [0.0]]]
    with pytest.raises(IndexError, match=re.escape("Dimension out of range (expected to be in range of [-1, 0], but got 1)")):
        torch.group_norm(torch.ones(4), 2)
    assert torch.layer_norm(torch.tensor([[1., 3.]]), [2], None, None, 1e-5, False).tolist() == [
        [-0.9999949932098389, 0.9999949932098389]]
    w = torch.arange(15.).reshape(5, 3).requires_grad_()
    e = torch.embedding(w, torch.tensor([0, 4, 2, 0]), 0, True)
    assert e.grad_fn.name() == "EmbeddingBackward0" and e[1].tolist() == [12.0, 13.0, 14.0]
    (g,) = torch.autograd.grad(e.sum(), w)
    assert g.tolist() == [[0.0] * 3, [0.0] * 3, [1.0] * 3, [0.0] * 3, [1.0] * 3]
    (g,) = torch.autograd.grad(torch.embedding(w, torch.tensor([0, 4, 0]), -1, True).sum(), w)
    assert g.tolist() == [[1.0] * 3, [0.0] * 3, [0.0] * 3, [0.0] * 3, [1.0] * 3]
    ones = torch.ones(4)
    assert torch.dropout(ones, 0.5, False) is ones
    with pytest.raises(RuntimeError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        torch.dropout(ones, 1.5, True)
    with pytest.raises(TypeError):
        torch.dropout(ones)
    torch.manual_seed(0)
    a = torch.dropout(ones.requires_grad_(), 0.5, True)
    torch.manual_seed(0)
    b = torch.nn.functional.dropout(ones, 0.5, True)
    assert a.tolist() == b.tolist() and a.grad_fn.name() == "MulBackward0"
    z = torch.ones(2, 3)
    assert torch.dropout_(z, 1.0, True) is z and z.sum().item() == 0.0
    torch.manual_seed(0)
    assert torch.feature_dropout(torch.ones(1, 4, 2), 0.5, True).tolist() == [[[0.0, 0.0], [0.0, 0.0], [2.0, 2.0],
                                                                                [0.0, 0.0]]]
    with pytest.raises(RuntimeError, match="Feature dropout requires at least 2 dimensions in the input"):
        torch.feature_alpha_dropout(torch.ones(4), 0.5, True)
    assert torch.alpha_dropout(torch.tensor([1., 2.]), 1.0, True).tolist() == [0.0, 0.0]
    g1 = torch.Generator().manual_seed(3)
    g2 = torch.Generator().manual_seed(3)
    r1 = torch.rrelu(torch.tensor([-1., 2., -3.]), 0.1, 0.3, True, g1)
    r2 = torch.rrelu(torch.tensor([-1., 2., -3.]), 0.1, 0.3, True, g2)
    assert r1.tolist() == r2.tolist() and r1[1].item() == 2.0 and -0.3 <= r1[0].item() <= -0.1


def test_top_level_pools_convs_pads_and_pdist():
    x = torch.tensor([[[1., 3., 2., 0.]]], requires_grad=True)
    y = torch.max_pool1d(x, 2)
    assert y.tolist() == [[[3.0, 2.0]]]
    assert tree(y.grad_fn) == ["SqueezeBackward1", ["MaxPool2DWithIndicesBackward0", ["UnsqueezeBackward0"]]]
    v, i = torch.adaptive_max_pool1d(x, 2)
    assert v.tolist() == [[[3.0, 2.0]]] and i.tolist() == [[[1, 2]]]
    assert torch.avg_pool1d(torch.arange(4.).reshape(1, 1, 4), 2, (), 0, False, True).tolist() == [[[0.5, 2.5]]]
    assert torch.max_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2).tolist() == [[[[5.0, 7.0], [13.0, 15.0]]]]
    assert torch.conv1d(torch.ones(1, 1, 4), torch.ones(1, 1, 2)).tolist() == [[[2.0, 2.0, 2.0]]]
    assert torch.conv_transpose1d(torch.ones(1, 1, 2), torch.ones(1, 1, 2)).tolist() == [[[1.0, 2.0, 1.0]]]
    assert torch.pixel_shuffle(torch.arange(4.).reshape(1, 4, 1, 1), 2).tolist() == [[[[0.0, 1.0], [2.0, 3.0]]]]
    assert torch.channel_shuffle(torch.arange(4.).reshape(1, 4, 1), 2).flatten().tolist() == [0.0, 2.0, 1.0, 3.0]
    p = torch.constant_pad_nd(torch.tensor([[1, 2]]), [1, 0, 0, 1], 9)
    assert p.dtype == torch.int64 and p.tolist() == [[9, 1, 2], [9, 9, 9]]
    assert torch.constant_pad_nd(torch.tensor([1, 2]), [1, 1], 1.5).tolist() == [1, 1, 2, 1]
    with pytest.raises(RuntimeError, match="Length of pad must be even but instead it equals 3"):
        torch.constant_pad_nd(torch.ones(2, 2), [1, 2, 3])
    d = torch.pdist(torch.tensor([[0., 0.], [3., 4.], [6., 8.]], requires_grad=True))
    assert d.tolist() == [5.0, 10.0, 5.0] and d.grad_fn.name() == "PdistBackward0"
    a = torch.tensor([[1., 2.], [1., 2.], [0., 1.]], requires_grad=True)
    (g,) = torch.autograd.grad(torch.pdist(a).sum(), a)
    assert torch.allclose(g, torch.tensor([[0.7071, 0.7071], [0.7071, 0.7071], [-1.4142, -1.4142]]), atol=1e-4)
    assert gradcheck(lambda t: torch.pdist(t, 1.5), [f64(4, 3)])
    with pytest.raises(RuntimeError, match="pdist only supports 2D tensors, got: 1D"):
        torch.pdist(torch.ones(4))
    with pytest.raises(RuntimeError, match="pdist only supports non-negative p values"):
        torch.pdist(torch.ones(4, 3), -1)


# --- window functions ------------------------------------------------------------------------

def test_window_values_bit_for_bit():
    assert torch.hann_window(8).tolist() == [0.0, 0.1464466154575348, 0.5, 0.8535534143447876, 1.0,
                                             0.853553295135498, 0.5, 0.14644649624824524]
    assert torch.hamming_window(6, False, dtype=torch.float64).tolist() == [
        0.08000000000000002, 0.3978521825875242, 0.9121478174124757, 0.912147817412476, 0.3978521825875243,
        0.08000000000000002]
    assert torch.bartlett_window(7).tolist() == [0.0, 0.2857142984867096, 0.5714285969734192, 0.8571429252624512,
                                                 0.8571428060531616, 0.5714285373687744, 0.28571414947509766]
    w = torch.bartlett_window(7, dtype=torch.float16)
    assert w.dtype == torch.float16 and w.tolist() == [0.0, 0.28564453125, 0.5712890625, 0.85693359375,
                                                       0.857421875, 0.572265625, 0.2861328125]
    assert torch.kaiser_window(7).tolist() == [5.2773437346331775e-05, 0.03276829048991203, 0.3308985233306885,
                                               0.8888683915138245, 0.8888683915138245, 0.3308985233306885,
                                               0.03276829048991203]
    assert torch.kaiser_window(6, False, 5.0, dtype=torch.float64).tolist() == [
        0.036710892271286676, 0.4149036392433668, 0.9138124838692001, 0.9138124838692001, 0.4149036392433668,
        0.036710892271286676]
    assert torch.kaiser_window(9, dtype=torch.bfloat16).tolist() == [
        5.269050598144531e-05, 0.01470947265625, 0.1455078125, 0.51953125, 0.9296875, 0.9296875, 0.51953125,
        0.1455078125, 0.01470947265625]
    assert torch.hann_window(10, dtype=torch.float16).tolist() == [
        0.0, 0.095458984375, 0.345703125, 0.654296875, 0.904296875, 1.0, 0.904296875, 0.654296875, 0.34521484375,
        0.094970703125]
    assert torch.blackman_window(10, dtype=torch.bfloat16).tolist() == [
        0.0, 0.041015625, 0.201171875, 0.51171875, 0.8515625, 1.0, 0.84375, 0.50390625, 0.1982421875, 0.041015625]


def test_window_shapes_options_and_errors():
    assert torch.hann_window(0, dtype=torch.float64).shape == (0,)
    w = torch.blackman_window(1, requires_grad=True)
    assert w.tolist() == [1.0] and w.requires_grad and w.is_leaf
    assert torch.hamming_window(5, True, 0.5, 0.5).tolist() == torch.hann_window(5).tolist()
    assert torch.kaiser_window(5, periodic=False, beta=3.0).shape == (5,)
    assert torch.bartlett_window(5).dtype == torch.float32 and torch.bartlett_window(5).stride() == (1,)
    with pytest.raises(RuntimeError, match=re.escape("hann_window expects floating point dtypes, got: "
                                                     "TensorOptions(dtype=long int, device=cpu, layout=Strided "
                                                     "(default), requires_grad=false (default), pinned_memory=false, "
                                                     "memory_format=(nullopt))")):
        torch.hann_window(4, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="kaiser_window requires non-negative window_length, got window_length=-1"):
        torch.kaiser_window(-1)
    with pytest.raises(TypeError, match=re.escape("hann_window(): argument 'window_length' (position 1) must be int, "
                                                  "not float")):
        torch.hann_window(2.5)
    assert math.isclose(torch.hann_window(4).sum().item(), 2.0)
