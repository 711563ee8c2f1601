"""`torch.einsum`: Einstein summation as PyTorch's kernel computes it (any number of operands,
the implicit output, `...`, repeated subscripts, the sublist form), contracted pairwise from the
left through permute/reshape/bmm so values and grad_fn are PyTorch's."""
import builtins

from ._core import Tensor

__all__ = ["einsum"]


def einsum(*args):
    """Sums the products of the operands' elements over the subscripts left out of the output
    (Einstein summation), as PyTorch's kernel: any number of operands, the implicit output
    (the subscripts seen once, sorted, after the ellipsis dims), `...`, repeated subscripts
    (diagonals), size-1 broadcasting and the sublist form `einsum(a, [0, 1], b, [1, 2], [0, 2])`;
    the operands are contracted pairwise from the left through permute, reshape and `bmm` (or
    `mul` where nothing is summed), so values and `grad_fn` are PyTorch's.

    >>> a, b = torch.arange(6.).reshape(2, 3), torch.arange(12.).reshape(3, 4)
    >>> torch.einsum("ij,jk->ik", a, b)
    tensor([[20., 23., 26., 29.],
            [56., 68., 80., 92.]])
    >>> torch.einsum("ii", torch.arange(9.).reshape(3, 3)), torch.einsum("i,j", torch.ones(2), torch.ones(3)).shape
    (tensor(12.), torch.Size([2, 3]))
    >>> torch.einsum("b...i,bij,j->b...", torch.ones(2, 5, 3), torch.ones(2, 3, 4), torch.ones(4)).shape
    torch.Size([2, 5])
    >>> torch.einsum(a, [0, 1], [1])
    tensor([3., 5., 7.])
    """
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], Tensor):
        # the sublist form: subscripts 0..25 are the letters A..Z, 26..51 a..z
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

        def letter(n):
            if n is Ellipsis:
                return "..."
            if not 0 <= n < len(letters):
                raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")
            return letters[n]

        equation = ",".join("".join(letter(s) for s in sub) for sub in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(letter(s) for s in args[-1])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    else:
        equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        return einsum(equation, *operands[0])
    if not isinstance(equation, str):
        raise TypeError(f"einsum(): argument 'equation' (position 1) must be str, not {type(equation).__name__}")
    for i, op in enumerate(operands):
        if not isinstance(op, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 1, but got {type(op).__name__}")
    return _einsum(equation, list(operands))


_EINSUM_LETTERS = 26
_EINSUM_ELLIPSIS = 2 * _EINSUM_LETTERS  # labels are 0..51: 'A'..'Z' then 'a'..'z', as PyTorch's


def _einsum_label(s):
    return chr(s + ord("A")) if s < _EINSUM_LETTERS else chr(s - _EINSUM_LETTERS + ord("a"))


def _einsum(equation, operands):
    """PyTorch's `at::native::einsum` (aten/src/ATen/native/Linear.cpp) without a path: the same
    checks and messages, the same ops in the same order."""
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    num_ops = len(operands)
    eq = equation.encode("utf-8")  # PyTorch indexes the equation's bytes
    arrow = eq.find(b"->")
    lhs = eq if arrow < 0 else eq[:arrow]
    letters = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

    def subscript(c):
        return c - 65 if 65 <= c <= 90 else c - 97 + _EINSUM_LETTERS

    op_labels = [[] for _ in range(num_ops)]
    ell_in_input = False
    curr = 0
    i = 0
    while i < len(lhs):
        c = lhs[i]
        if c == 32:  # ' '
            pass
        elif c == 46:  # '.'
            if ell_in_input:
                raise RuntimeError(f"einsum(): found '.' for operand {curr} for which an ellipsis was already found")
            if not (i + 2 < len(lhs) and lhs[i + 1] == 46 and lhs[i + 2] == 46):
                raise RuntimeError(f"einsum(): found '.' for operand {curr} that is not part of any ellipsis")
            i += 2
            op_labels[curr].append(_EINSUM_ELLIPSIS)
            ell_in_input = True
        elif c == 44:  # ','
            curr += 1
            if curr >= num_ops:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
            ell_in_input = False
        else:
            if c not in letters:
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the equation string, "
                                   f"subscripts must be in [a-zA-Z]")
            op_labels[curr].append(subscript(c))
        i += 1
    if curr != num_ops - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")

    label_count = [0] * _EINSUM_ELLIPSIS
    ell_num_dim = 0
    for k, (op, labels) in enumerate(zip(operands, op_labels)):
        ndims = op.dim()
        nlabels = len(labels)
        has_ellipsis = _EINSUM_ELLIPSIS in labels
        if has_ellipsis:
            nlabels -= 1
            ell_num_dim = builtins.max(ell_num_dim, ndims - nlabels)
        for s in labels:
            if s != _EINSUM_ELLIPSIS:
                label_count[s] += 1
        if not (nlabels <= ndims if has_ellipsis else nlabels == ndims):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({nlabels}"
                + (") is more than the number of dimensions (" if has_ellipsis
                   else ") does not match the number of dimensions (")
                + f"{ndims}) for operand {k}" + ("" if has_ellipsis else " and no ellipsis was given"))

    label_perm_index = [-1] * _EINSUM_ELLIPSIS
    perm_index = 0
    ell_index = 0
    ell_in_output = False
    if arrow < 0:
        perm_index = ell_num_dim
        ell_in_output = True
        for s in range(_EINSUM_ELLIPSIS):
            if label_count[s] == 1:
                label_perm_index[s] = perm_index
                perm_index += 1
    else:
        rhs = eq[arrow + 2:]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == 32:
                pass
            elif c == 46:
                if ell_in_output:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found")
                if not (i + 2 < len(rhs) and rhs[i + 1] == 46 and rhs[i + 2] == 46):
                    raise RuntimeError("einsum(): found '.' for output that is not part of any ellipsis (...)")
                i += 2
                ell_index = perm_index
                perm_index += ell_num_dim
                ell_in_output = True
            else:
                if c not in letters:
                    raise RuntimeError(f"einsum(): invalid subscript given at index {len(lhs) + 2 + i} in the "
                                       f"equation string, subscripts must be in [a-zA-Z]")
                s = subscript(c)
                if not (label_count[s] > 0 and label_perm_index[s] == -1):
                    why = (" appears more than once in the output" if label_perm_index[s] > -1
                           else " does not appear in the equation for any input operand")
                    raise RuntimeError(f"einsum(): output subscript {chr(c)}{why}")
                label_perm_index[s] = perm_index
                perm_index += 1
            i += 1
    out_num_dim = perm_index
    if not ell_in_output:
        ell_index = perm_index
        perm_index += ell_num_dim
    for s in range(_EINSUM_ELLIPSIS):
        if label_count[s] > 0 and label_perm_index[s] == -1:
            label_perm_index[s] = perm_index
            perm_index += 1

    # diagonals for repeated subscripts, size-1 dims for missing ones, every operand permuted to
    # (output dims, contracted dims); dim_counts: how many operands have each dim not of size 1
    label_size = [1] * _EINSUM_ELLIPSIS
    ell_sizes = [1] * ell_num_dim
    dim_counts = [0] * perm_index
    ops = []
    for k in range(num_ops):
        op = operands[k]
        permutation = [-1] * perm_index
        dim = 0
        for s in op_labels[k]:
            if s == _EINSUM_ELLIPSIS:
                ndim = operands[k].dim() - (len(op_labels[k]) - 1)
                for j in range(ell_num_dim - ndim, ell_num_dim):
                    size = op.shape[dim]
                    if size != 1:
                        if not (ell_sizes[j] == 1 or ell_sizes[j] == size):
                            raise RuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in operand {k}has size {size} "
                                f"which does not broadcast with previously seen ellipsis with size {ell_sizes[j]} "
                                f"for the respective dimension")
                        ell_sizes[j] = size
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[label_perm_index[s]] == -1:
                size = op.shape[dim]
                if size != 1:
                    if not (label_size[s] == 1 or label_size[s] == size):
                        raise RuntimeError(
                            f"einsum(): subscript {_einsum_label(s)} has size {size} for operand {k} which does "
                            f"not broadcast with previously seen size {label_size[s]}")
                    label_size[s] = size
                    dim_counts[label_perm_index[s]] += 1
                permutation[label_perm_index[s]] = dim
                dim += 1
            else:
                prev_dim = permutation[label_perm_index[s]]
                if op.shape[dim] != op.shape[prev_dim]:
                    raise RuntimeError(
                        f"einsum(): subscript {_einsum_label(s)} is repeated for operand {k} but the sizes don't "
                        f"match, {op.shape[dim]} != {op.shape[prev_dim]}")
                op = op.diagonal(0, prev_dim, dim).movedim(-1, prev_dim)
        for p, val in enumerate(permutation):
            if val == -1:
                op = op.unsqueeze(dim)
                permutation[p] = dim
                dim += 1
        ops.append(op.permute(permutation))

    while len(ops) > 1:
        a, b = ops[0], ops[1]
        del ops[:2]
        sum_dims, a_dims, b_dims = [], [], []
        for dim in range(out_num_dim, perm_index):
            if a.shape[dim] != 1 and b.shape[dim] != 1:
                dim_counts[dim] -= 1
                if dim_counts[dim] == 1:
                    sum_dims.append(dim)
                    dim_counts[dim] = 0
            elif dim_counts[dim] == 1:
                if a.shape[dim] != 1:
                    a_dims.append(dim)
                    dim_counts[dim] = 0
                elif b.shape[dim] != 1:
                    b_dims.append(dim)
                    dim_counts[dim] = 0
        if a_dims:
            a = a.sum(a_dims, True)
        if b_dims:
            b = b.sum(b_dims, True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))

    if perm_index - out_num_dim > 0:
        if num_ops > 1:  # the contracted dims are all of size 1 by now
            return ops[0].view(list(ops[0].shape)[:out_num_dim])
        return ops[0].sum(list(range(out_num_dim, perm_index)))
    return ops[0]


def _sumproduct_pair(left, right, sum_dims_):
    """`(left * right).sum(sum_dims_, keepdim=True)` through one `bmm`, as PyTorch's
    `sumproduct_pair` (both operands already of the same rank)."""
    if not sum_dims_:
        return left * right
    dim = left.dim()
    sum_dims = set(sum_dims_)
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(dim):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                if left.shape[i] != right.shape[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                sum_size *= left.shape[i]
            elif sl:
                left = left.sum(i, True)
            elif sr:
                right = right.sum(i, True)
        elif sl and sr:
            if left.shape[i] != right.shape[i]:
                raise RuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    out_size = ([left.shape[d] for d in lro] + [left.shape[d] for d in lo] + [1] * len(sum_dims_)
                + [right.shape[d] for d in ro])
    lperm = lro + lo + list(sum_dims_) + ro
    rperm = lro + list(sum_dims_) + ro + lo
    operm = [-1] * len(out_size)
    for pos, d in enumerate(lro + lo + list(sum_dims_) + ro):
        operm[d] = pos
    left = left.permute(lperm).reshape(lro_size, lo_size, sum_size)
    right = right.permute(rperm).reshape(lro_size, sum_size, ro_size)
    return left.bmm(right).view(out_size).permute(operm)
