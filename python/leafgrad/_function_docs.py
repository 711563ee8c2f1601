"""Docstrings, with examples, of the functions python/leafgrad/_functions.py generates
(`torch.add`, `torch.exp`, ...). Each example prints what PyTorch prints; test_doctests.py
runs them."""

DOCS = {
    "add": """`input + alpha * other`, with broadcasting; a number is accepted on either side.

    >>> torch.add(torch.tensor([1., 2.]), torch.tensor([10., 20.]), alpha=2)
    tensor([21., 42.])
    """,
    "sub": """`input - alpha * other`, with broadcasting.

    >>> torch.sub(torch.tensor([5., 7.]), 1)
    tensor([4., 6.])
    """,
    "mul": """Elementwise product, with broadcasting.

    >>> torch.mul(torch.tensor([[1.], [2.]]), torch.tensor([3., 4.]))
    tensor([[3., 4.],
            [6., 8.]])
    """,
    "div": """Elementwise true division (integers give floats).

    >>> torch.div(torch.tensor([1, 2, 3]), 2)
    tensor([0.5000, 1.0000, 1.5000])
    """,
    "matmul": """Matrix product of 1-D, 2-D or batched tensors (the `@` operator).

    >>> torch.matmul(torch.ones(2, 3), torch.ones(3))
    tensor([3., 3.])
    """,
    "mm": """Product of two matrices.

    >>> torch.mm(torch.tensor([[1., 2.]]), torch.tensor([[3.], [4.]]))
    tensor([[11.]])
    """,
    "bmm": """Batched product of matrices: (b, n, m) @ (b, m, p).

    >>> torch.bmm(torch.ones(2, 1, 3), torch.ones(2, 3, 1)).shape
    torch.Size([2, 1, 1])
    """,
    "dot": """Inner product of two 1-D tensors.

    >>> torch.dot(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    tensor(11.)
    """,
    "mv": """Product of a matrix and a vector.

    >>> torch.mv(torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([1., 1.]))
    tensor([3., 7.])
    """,
    "relu": """Elementwise max(x, 0).

    >>> torch.relu(torch.tensor([-1., 0., 2.]))
    tensor([0., 0., 2.])
    """,
    "abs": """Elementwise absolute value.

    >>> torch.abs(torch.tensor([-1.5, 2.0]))
    tensor([1.5000, 2.0000])
    """,
    "neg": """Elementwise negation.

    >>> torch.neg(torch.tensor([1, -2]))
    tensor([-1,  2])
    """,
    "sum": """The sum of all elements, or along `dim` (keeping it with `keepdim=True`).

    >>> x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    >>> torch.sum(x)
    tensor(10., grad_fn=<SumBackward0>)
    >>> torch.sum(x, 1, keepdim=True)
    tensor([[3.],
            [7.]], grad_fn=<SumBackward1>)
    """,
    "mean": """The mean of all elements, or along `dim`.

    >>> torch.mean(torch.tensor([[1., 2.], [3., 4.]]), dim=0)
    tensor([2., 3.])
    """,
    "transpose": """A view with dimensions `dim0` and `dim1` swapped.

    >>> torch.transpose(torch.tensor([[1, 2, 3]]), 0, 1)
    tensor([[1],
            [2],
            [3]])
    """,
    "permute": """A view with the dimensions reordered.

    >>> torch.permute(torch.zeros(2, 3, 4), (2, 0, 1)).shape
    torch.Size([4, 2, 3])
    """,
    "reshape": """The same elements in a new shape (a view when possible); -1 is inferred.

    >>> torch.reshape(torch.arange(6), (2, -1))
    tensor([[0, 1, 2],
            [3, 4, 5]])
    """,
    "unsqueeze": """A view with a new dimension of size 1 at `dim`.

    >>> torch.unsqueeze(torch.tensor([1, 2]), 1)
    tensor([[1],
            [2]])
    """,
    "squeeze": """A view without the dimensions of size 1 (or only `dim`).

    >>> torch.squeeze(torch.zeros(2, 1, 3)).shape
    torch.Size([2, 3])
    """,
    "t": """The transpose of a matrix (a 1-D tensor is returned as is).

    >>> torch.t(torch.tensor([[1, 2], [3, 4]]))
    tensor([[1, 3],
            [2, 4]])
    """,
    "clone": """A copy that stays in the graph (CloneBackward0), unlike `detach`.

    >>> x = torch.ones(2, requires_grad=True)
    >>> torch.clone(x)
    tensor([1., 1.], grad_fn=<CloneBackward0>)
    """,
    "flatten": """The elements from `start_dim` to `end_dim` merged into one dimension.

    >>> torch.flatten(torch.zeros(2, 3, 4), start_dim=1).shape
    torch.Size([2, 12])
    """,
    "sign": """Elementwise -1, 0 or 1.

    >>> torch.sign(torch.tensor([-3., 0., 2.]))
    tensor([-1.,  0.,  1.])
    """,
    "square": """Elementwise x * x.

    >>> torch.square(torch.tensor([2., -3.]))
    tensor([4., 9.])
    """,
    "argmax": """The index of the largest element (of the flattened tensor, or along `dim`).

    >>> torch.argmax(torch.tensor([[1, 5], [7, 2]]))
    tensor(2)
    >>> torch.argmax(torch.tensor([[1, 5], [7, 2]]), dim=1)
    tensor([1, 0])
    """,
    "argmin": """The index of the smallest element (of the flattened tensor, or along `dim`).

    >>> torch.argmin(torch.tensor([3, 1, 2]))
    tensor(1)
    """,
    "max": """The largest element; with `dim`, the named tuple `(values, indices)`.

    >>> x = torch.tensor([[1., 5.], [7., 2.]])
    >>> torch.max(x)
    tensor(7.)
    >>> torch.max(x, dim=1)
    torch.return_types.max(
    values=tensor([5., 7.]),
    indices=tensor([1, 0]))
    """,
    "min": """The smallest element; with `dim`, the named tuple `(values, indices)`.

    >>> torch.min(torch.tensor([[1., 5.], [7., 2.]]), dim=0).values
    tensor([1., 2.])
    """,
    "conj": """The complex conjugate (a real tensor is returned as is).

    >>> torch.conj(torch.tensor([1 + 2j]))
    tensor([1.-2.j])
    """,
    "split": """Pieces of `split_size_or_sections` elements along `dim` (views).

    >>> torch.split(torch.arange(5), 2)
    (tensor([0, 1]), tensor([2, 3]), tensor([4]))
    """,
    "chunk": """`chunks` pieces of (nearly) equal size along `dim` (views).

    >>> torch.chunk(torch.arange(6), 3)
    (tensor([0, 1]), tensor([2, 3]), tensor([4, 5]))
    """,
    "unbind": """The slices along `dim`, as a tuple.

    >>> torch.unbind(torch.tensor([[1, 2], [3, 4]]))
    (tensor([1, 2]), tensor([3, 4]))
    """,
    "softmax": """exp(x) / sum(exp(x)) along `dim`.

    >>> torch.softmax(torch.tensor([1., 2., 3.]), dim=0)
    tensor([0.0900, 0.2447, 0.6652])
    """,
    "log_softmax": """log(softmax(x)) along `dim`, computed stably.

    >>> torch.log_softmax(torch.tensor([1., 2., 3.]), dim=0)
    tensor([-2.4076, -1.4076, -0.4076])
    """,
    "gather": """Values of `input` at `index` along `dim`.

    >>> torch.gather(torch.tensor([[1, 2], [3, 4]]), 1, torch.tensor([[1], [0]]))
    tensor([[2],
            [3]])
    """,
    "index_select": """The entries of `index` along `dim`.

    >>> torch.index_select(torch.tensor([10, 20, 30]), 0, torch.tensor([2, 0]))
    tensor([30, 10])
    """,
    "masked_fill": """`value` where `mask` is True, `input` elsewhere.

    >>> torch.masked_fill(torch.zeros(3), torch.tensor([True, False, True]), 1.0)
    tensor([1., 0., 1.])
    """,
    "prod": """The product of all elements, or along `dim`.

    >>> torch.prod(torch.tensor([1., 2., 3., 4.]))
    tensor(24.)
    """,
    "amax": """The largest values along `dim` (all dims by default); gradient shared among ties.

    >>> torch.amax(torch.tensor([[1, 5], [7, 2]]), dim=0)
    tensor([7, 5])
    """,
    "amin": """The smallest values along `dim` (all dims by default).

    >>> torch.amin(torch.tensor([[1, 5], [7, 2]]), dim=1)
    tensor([1, 2])
    """,
    "var": """The variance (with Bessel's correction unless `correction=0`).

    >>> torch.var(torch.tensor([1., 2., 3., 4.]))
    tensor(1.6667)
    >>> torch.var(torch.tensor([1., 2., 3., 4.]), correction=0)
    tensor(1.2500)
    """,
    "std": """The standard deviation (with Bessel's correction unless `correction=0`).

    >>> torch.std(torch.tensor([1., 2., 3., 4.]))
    tensor(1.2910)
    """,
    "logsumexp": """log(sum(exp(x))) along `dim`, computed stably.

    >>> torch.logsumexp(torch.tensor([1., 2., 3.]), dim=0)
    tensor(3.4076)
    """,
    "norm": """The vector p-norm (2 by default) of all elements or along `dim`.

    >>> torch.norm(torch.tensor([3., 4.]))
    tensor(5.)
    >>> torch.norm(torch.tensor([3., -4.]), p=1)
    tensor(7.)
    """,
    "clamp": """Each element limited to [`min`, `max`] (either bound may be left out).

    >>> torch.clamp(torch.tensor([-2., 0.5, 3.]), min=0, max=1)
    tensor([0.0000, 0.5000, 1.0000])
    """,
    "clamp_min": """Each element at least `min` (ClampMinBackward0; ClampMinBackward1 for a tensor `min`).

    >>> torch.clamp_min(torch.tensor([-2., 0.5]), 0)
    tensor([0.0000, 0.5000])
    """,
    "clamp_max": """Each element at most `max` (ClampMaxBackward0; ClampMaxBackward1 for a tensor `max`).

    >>> torch.clamp_max(torch.tensor([-2., 0.5]), 0)
    tensor([-2.,  0.])
    """,
    "clip": """An alias of `clamp`.

    >>> torch.clip(torch.tensor([-2., 3.]), max=1)
    tensor([-2.,  1.])
    """,
    "detach": """A new leaf sharing the data, cut off from the graph.

    >>> x = torch.ones(2, requires_grad=True)
    >>> y = torch.detach(x * 2)
    >>> y, y.is_leaf
    (tensor([2., 2.]), True)
    """,
    "cumsum": """Cumulative sum along `dim` (integer and bool inputs sum in int64).

    >>> torch.cumsum(torch.tensor([1., 2., 3.]), 0)
    tensor([1., 3., 6.])
    """,
    "cumprod": """Cumulative product along `dim` (integer and bool inputs multiply in int64);
    its gradient is PyTorch's, exact at zeros too.

    >>> torch.cumprod(torch.tensor([1., 2., 3., 0., 5.]), 0)
    tensor([1., 2., 6., 0., 0.])
    """,
    "frac": """The fractional part `input - trunc(input)` of a float tensor (FracBackward0).

    >>> torch.frac(torch.tensor([-2.5, 0.5, 1.0]))
    tensor([-0.5000,  0.5000,  0.0000])
    """,
    "frac_": """`frac` in place.

    >>> x = torch.tensor([1.25])
    >>> torch.frac_(x), x
    (tensor([0.2500]), tensor([0.2500]))
    """,
    "logit": """`log(p / (1 - p))`, `p` clamped to `[eps, 1 - eps]` first when `eps` is given
    (LogitBackward0: its gradient is NaN outside [0, 1] without `eps`, 0 outside the clamp with
    it, as PyTorch's).

    >>> torch.logit(torch.tensor([0.25, 0.5, 1.0]))
    tensor([-1.0986,  0.0000,     inf])
    >>> torch.logit(torch.tensor([0.0, 1.0]), eps=1e-6)
    tensor([-13.8155,  13.8023])
    """,
    "logit_": """`logit` in place.

    >>> x = torch.tensor([0.25])
    >>> torch.logit_(x), x
    (tensor([-1.0986]), tensor([-1.0986]))
    """,
    "nan_to_num": """NaN, inf and -inf replaced by `nan` (0), `posinf` and `neginf` (by default the
    dtype's largest and lowest finite values) (NanToNumBackward0: the gradient passes where the
    input is finite); integer and bool tensors come back as a copy.

    >>> torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5]))
    tensor([ 0.0000e+00,  3.4028e+38, -3.4028e+38,  1.5000e+00])
    """,
    "nan_to_num_": """`nan_to_num` in place.

    >>> x = torch.tensor([float("nan"), 2.0])
    >>> torch.nan_to_num_(x), x
    (tensor([0., 2.]), tensor([0., 2.]))
    """,
    "lgamma": """log |Γ(x)| elementwise (LgammaBackward0; its gradient is digamma(x)); integers compute
    in the default float dtype.

    >>> torch.lgamma(torch.tensor([0.5, 1.0, 10.0]))
    tensor([ 0.5724,  0.0000, 12.8018])
    """,
    "digamma": """The digamma function ψ(x) = d/dx log Γ(x) elementwise, PyTorch's (Cephes') algorithm
    in each precision (DigammaBackward0; its gradient is polygamma(1, x)).

    >>> torch.digamma(torch.tensor([1.0, 0.5]))
    tensor([-0.5772, -1.9635])
    """,
    "as_strided": """A view of the input's memory with the given sizes, strides and storage offset
    (by default the input's own); its gradient adds back at each memory position.

    >>> torch.as_strided(torch.arange(9.), (2, 2), (3, 1), 1)
    tensor([[1., 2.],
            [4., 5.]])
    """,
    "diagonal": """The diagonal `offset` of the plane (`dim1`, `dim2`) as a view, as the last dim.

    >>> torch.diagonal(torch.arange(12.).view(3, 4), -1)
    tensor([4., 9.])
    """,
    "swapaxes": """An alias of `transpose`.

    >>> torch.swapaxes(torch.ones(2, 3), 0, 1).shape
    torch.Size([3, 2])
    """,
    "swapdims": """An alias of `transpose`.

    >>> torch.swapdims(torch.ones(2, 3), 0, 1).shape
    torch.Size([3, 2])
    """,
    "split_with_sizes": """`split` with a list of sizes.

    >>> torch.split_with_sizes(torch.arange(5.), [2, 3])
    (tensor([0., 1.]), tensor([2., 3., 4.]))
    """,
    "unsafe_split": """`split` whose pieces are not views for autograd (see `Tensor.unsafe_split`).

    >>> torch.unsafe_split(torch.arange(5.), 2)
    (tensor([0., 1.]), tensor([2., 3.]), tensor([4.]))
    """,
    "unsafe_chunk": """`chunk` whose pieces are not views for autograd.

    >>> torch.unsafe_chunk(torch.arange(5.), 2)
    (tensor([0., 1., 2.]), tensor([3., 4.]))
    """,
}
