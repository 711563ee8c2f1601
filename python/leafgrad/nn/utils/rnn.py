"""Variable-length sequences for the recurrent layers, as `torch.nn.utils.rnn`: padding a list of
sequences into one tensor and packing a padded batch into a `PackedSequence` (the time steps'
rows one after another, `batch_sizes[t]` rows at step t), and back. Everything is composed of
differentiable ops (slicing, cat, stack), so gradients flow from the packed or padded result to
the sequences."""
from collections import namedtuple
from collections.abc import Iterable

__all__ = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpad_sequence",
    "pack_sequence",
    "unpack_sequence",
]


def _torch():
    import leafgrad

    return leafgrad


_PackedSequenceBase = namedtuple(
    "PackedSequence_", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"]
)


def _bind(optional, fn):
    return None if optional is None else fn(optional)


class PackedSequence(_PackedSequenceBase):
    """A batch of variable-length sequences packed time step by time step: `data` holds the rows
    of step 0 of every sequence, then those of step 1 of the sequences still running, and so on;
    `batch_sizes[t]` says how many rows step t has. Made by `pack_padded_sequence` and
    `pack_sequence`; the recurrent layers take one and give one back. `sorted_indices` (when the
    lengths were not sorted) is the order the sequences were packed in, `unsorted_indices` its
    inverse.

    >>> pack_sequence = torch.nn.utils.rnn.pack_sequence
    >>> p = pack_sequence([torch.tensor([1., 2., 3.]), torch.tensor([4., 5.])])
    >>> p.data
    tensor([1., 4., 2., 5., 3.])
    >>> p.batch_sizes
    tensor([2, 2, 1])
    >>> p.sorted_indices is None
    True
    """

    __slots__ = ()

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        return super().__new__(
            cls, *_packed_sequence_init_args(data, batch_sizes, sorted_indices, unsorted_indices)
        )

    def pin_memory(self):
        return type(self)(
            self.data.pin_memory(),
            self.batch_sizes,
            _bind(self.sorted_indices, lambda t: t.pin_memory()),
            _bind(self.unsorted_indices, lambda t: t.pin_memory()),
        )

    def to(self, *args, **kwargs):
        """`data` converted as `Tensor.to` converts it; the index tensors follow `data` to its
        device, `batch_sizes` stays on the CPU. Returns `self` when nothing changes."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        non_blocking = kwargs.get("non_blocking", False)

        def call_to(t):
            return t.to(data.device, non_blocking=non_blocking)

        return type(self)(
            data, self.batch_sizes, _bind(self.sorted_indices, call_to), _bind(self.unsorted_indices, call_to)
        )

    def cuda(self, *args, **kwargs):
        torch = _torch()
        ex = torch.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if ex.is_cuda:
            return self.to(*args, **kwargs)
        kwargs["device"] = "cuda"
        return self.to(*args, **kwargs)

    def cpu(self, *args, **kwargs):
        torch = _torch()
        ex = torch.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if ex.device.type == "cpu":
            return self.to(*args, **kwargs)
        kwargs["device"] = "cpu"
        return self.to(*args, **kwargs)

    def double(self):
        return self.to(dtype=_torch().double)

    def float(self):
        return self.to(dtype=_torch().float)

    def half(self):
        return self.to(dtype=_torch().half)

    def long(self):
        return self.to(dtype=_torch().long)

    def int(self):
        return self.to(dtype=_torch().int)

    def short(self):
        return self.to(dtype=_torch().short)

    def char(self):
        return self.to(dtype=_torch().int8)

    def byte(self):
        return self.to(dtype=_torch().uint8)

    @property
    def is_cuda(self):
        """Whether `data` is on a CUDA device."""
        return self.data.is_cuda

    def is_pinned(self):
        """Whether `data` is in pinned memory (leafgrad has none: False)."""
        is_pinned = getattr(self.data, "is_pinned", None)
        return bool(is_pinned()) if is_pinned is not None else False


def _packed_sequence_init_args(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
    if unsorted_indices is None:
        unsorted_indices = invert_permutation(sorted_indices)
    if batch_sizes is not None:
        if batch_sizes.device.type != "cpu":
            raise ValueError(
                "batch_sizes should always be on CPU. "
                "Instances of PackedSequence should never be created manually. "
                "They should be instantiated by functions like pack_sequence "
                "and pack_padded_sequences in nn.utils.rnn. "
                "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence"
            )
        return data, batch_sizes, sorted_indices, unsorted_indices
    # PackedSequence((data, batch_sizes), ...)
    if not (isinstance(data, (list, tuple)) and len(data) == 2):
        raise AssertionError("Expected data to be a list or tuple of length 2")
    return data[0], data[1], sorted_indices, unsorted_indices


def invert_permutation(permutation):
    """The inverse of a permutation of 0..n-1 (None for None).

    >>> invert_permutation = torch.nn.utils.rnn.invert_permutation
    >>> invert_permutation(torch.tensor([2, 0, 1]))
    tensor([1, 2, 0])
    """
    if permutation is None:
        return None
    torch = _torch()
    output = torch.empty_like(permutation)
    output.scatter_(0, permutation, torch.arange(0, permutation.numel(), device=permutation.device))
    return output


_SCALAR_NAMES = {
    "float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "int64": "Long",
    "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
    "complex64": "ComplexFloat", "complex128": "ComplexDouble",
}


def _scalar_name(dtype):
    name = str(dtype).replace("torch.", "")
    return _SCALAR_NAMES.get(name, name)


def _check_long_1d(t, what):
    torch = _torch()
    if t.dim() != 1 or t.device.type != "cpu" or t.dtype != torch.int64:
        raise RuntimeError(
            f"'{what}' argument should be a 1D CPU int64 tensor, but got {t.dim()}D "
            f"{t.device.type} {_scalar_name(t.dtype)} tensor"
        )


def _runs(sizes):
    """[(start, stop, size)] for the runs of equal values in `sizes`."""
    runs = []
    start = 0
    for i in range(1, len(sizes) + 1):
        if i == len(sizes) or sizes[i] != sizes[start]:
            runs.append((start, i, sizes[start]))
            start = i
    return runs


def _pack_padded(input, lengths, batch_first):
    """(data, batch_sizes) from a padded time-major (or batch-major) batch sorted by length."""
    torch = _torch()
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if batch_first:
        input = input.transpose(0, 1)
    _check_long_1d(lengths, "lengths")
    batch_size = input.size(1)
    lens = lengths.tolist()
    if len(lens) != batch_size:
        raise RuntimeError(
            f"Expected `len(lengths)` to be equal to batch_size, but got {len(lens)} (batch_size={batch_size})"
        )
    if lens[batch_size - 1] <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0"
        )
    for i in range(batch_size - 1):
        if lens[batch_size - 1 - i] > lens[batch_size - 2 - i]:
            raise RuntimeError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can "
                "pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this "
                "requirement if you do not need ONNX exportability."
            )
    # batch_sizes[t]: how many sequences are longer than t
    sizes = []
    b = batch_size
    for t in range(lens[0]):
        while b > 0 and lens[b - 1] <= t:
            b -= 1
        sizes.append(b)
    trailing = tuple(input.shape[2:])
    pieces = [input[start:stop, :size].reshape((-1,) + trailing) for start, stop, size in _runs(sizes)]
    data = pieces[0] if len(pieces) == 1 else torch.cat(pieces, 0)
    return data, torch.tensor(sizes, dtype=torch.int64)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack a padded batch (T, B, *) (or (B, T, *) with batch_first) of sequences of the given
    lengths. With enforce_sorted=True the lengths must be in decreasing order; otherwise the
    batch is sorted first and the order kept in `sorted_indices`.

    >>> pack_padded_sequence = torch.nn.utils.rnn.pack_padded_sequence
    >>> padded = torch.tensor([[1., 2., 3.], [4., 5., 0.]])
    >>> p = pack_padded_sequence(padded, [3, 2], batch_first=True)
    >>> p.data, p.batch_sizes
    (tensor([1., 4., 2., 5., 3.]), tensor([2, 2, 1]))
    >>> pack_padded_sequence(padded.flip(0), [2, 3], batch_first=True, enforce_sorted=False).sorted_indices
    tensor([1, 0])
    """
    torch = _torch()
    if not isinstance(lengths, torch.Tensor):
        lengths = torch.as_tensor(lengths, dtype=torch.int64, device="cpu")
    else:
        lengths = lengths.to(dtype=torch.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        batch_dim = 0 if batch_first else 1
        input = input.index_select(batch_dim, sorted_indices)
    data, batch_sizes = _pack_padded(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _pad_packed(data, batch_sizes, batch_first, padding_value, total_length):
    torch = _torch()
    _check_long_1d(batch_sizes, "batch_sizes")
    sizes = batch_sizes.tolist()
    max_batch = sizes[0]
    steps = len(sizes)
    trailing = tuple(data.shape[1:])
    pieces = []
    offset = 0
    for start, stop, size in _runs(sizes):
        n = size * (stop - start)
        block = data[offset:offset + n].reshape((stop - start, size) + trailing)
        offset += n
        if size < max_batch:
            pad = torch.full((stop - start, max_batch - size) + trailing, padding_value,
                             dtype=data.dtype, device=data.device)
            block = torch.cat([block, pad], 1)
        pieces.append(block)
    if total_length > steps:
        pieces.append(torch.full((total_length - steps, max_batch) + trailing, padding_value,
                                 dtype=data.dtype, device=data.device))
    output = pieces[0] if len(pieces) == 1 else torch.cat(pieces, 0)
    # lengths[b]: the number of steps with more than b rows
    lengths = [0] * max_batch
    for b in range(max_batch):
        lengths[b] = sum(1 for s in sizes if s > b)
    if batch_first:
        output = output.transpose(0, 1)
    return output, torch.tensor(lengths, dtype=torch.int64)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Undo `pack_padded_sequence`: (padded batch, lengths), the batch (T, B, *) or (B, T, *)
    with batch_first, padded with `padding_value` to the longest length or to `total_length`.

    >>> pack_sequence, pad_packed_sequence = torch.nn.utils.rnn.pack_sequence, torch.nn.utils.rnn.pad_packed_sequence
    >>> p = pack_sequence([torch.tensor([1., 2., 3.]), torch.tensor([4., 5.])])
    >>> pad_packed_sequence(p, batch_first=True)
    (tensor([[1., 2., 3.],
            [4., 5., 0.]]), tensor([3, 2]))
    """
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in input, but got "
                f"total_length={total_length} and max sequence length being {max_seq_length}"
            )
        max_seq_length = total_length
    padded_output, lengths = _pad_packed(
        sequence.data, sequence.batch_sizes, batch_first, padding_value, max_seq_length
    )
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        batch_dim = 0 if batch_first else 1
        return padded_output.index_select(batch_dim, unsorted_indices), lengths[unsorted_indices.cpu()]
    return padded_output, lengths


def _copy_shape_check(dest, src):
    """The error `dest.copy_(src)` gives when src does not broadcast to dest."""
    nd = max(len(dest), len(src))
    for k in range(1, nd + 1):
        a = dest[-k] if k <= len(dest) else 1
        b = src[-k] if k <= len(src) else 1
        if a != b and b != 1:
            raise RuntimeError(
                f"The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {nd - k}"
            )


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack sequences of different lengths (L_i, *) into one (T, B, *) tensor ((B, T, *) with
    batch_first), padded with `padding_value` on the right (or on the left) to the longest.

    >>> pad_sequence = torch.nn.utils.rnn.pad_sequence
    >>> seqs = [torch.tensor([1, 2, 3]), torch.tensor([4, 5])]
    >>> pad_sequence(seqs, batch_first=True)
    tensor([[1, 2, 3],
            [4, 5, 0]])
    >>> pad_sequence(seqs, batch_first=True, padding_value=-1, padding_side="left")
    tensor([[ 1,  2,  3],
            [-1,  4,  5]])
    """
    torch = _torch()
    if not isinstance(sequences, Iterable):
        raise RuntimeError(
            "pad_sequence: Expected iterable for input sequences, but got arg of type: "
            f"{type(sequences)}"
        )
    sequences = tuple(sequences)
    if len(sequences) == 0:
        raise RuntimeError("received an empty list of sequences")
    first = sequences[0]
    if first.dim() == 0:
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
    trailing = tuple(first.shape[1:])
    max_len = max(s.size(0) for s in sequences)
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    dtype, device = first.dtype, first.device
    columns = []
    for seq in sequences:
        length = seq.size(0)
        slot = (length,) + trailing
        _copy_shape_check(slot, tuple(seq.shape))
        piece = seq.to(dtype=dtype, device=device)
        if tuple(piece.shape) != slot:
            piece = piece.expand(slot)
        if length < max_len:
            pad = torch.full((max_len - length,) + trailing, padding_value, dtype=dtype, device=device)
            piece = torch.cat([piece, pad] if padding_side == "right" else [pad, piece], 0)
        columns.append(piece)
    return torch.stack(columns, 0 if batch_first else 1)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """Split a padded batch back into its sequences (a list of (L_i, *) tensors). As PyTorch's,
    with batch_first=False it transposes `padded_sequences` in place to batch-major first.

    >>> unpad_sequence = torch.nn.utils.rnn.unpad_sequence
    >>> padded = torch.tensor([[1., 2., 3.], [4., 5., 0.]])
    >>> unpad_sequence(padded, torch.tensor([3, 2]), batch_first=True)
    [tensor([1., 2., 3.]), tensor([4., 5.])]
    """
    torch = _torch()
    unpadded_sequences = []
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    max_length = padded_sequences.shape[1]
    idx = torch.arange(max_length, device=lengths.device)
    for seq, length in zip(padded_sequences, lengths, strict=True):
        mask = idx < length
        unpadded_sequences.append(seq[mask])
    return unpadded_sequences


def pack_sequence(sequences, enforce_sorted=True):
    """Pack a list of sequences (L_i, *) (longest first unless enforce_sorted=False).

    >>> pack_sequence = torch.nn.utils.rnn.pack_sequence
    >>> p = pack_sequence([torch.tensor([1.]), torch.tensor([2., 3.])], enforce_sorted=False)
    >>> p.data, p.batch_sizes, p.sorted_indices
    (tensor([2., 1., 3.]), tensor([2, 1]), tensor([1, 0]))
    """
    torch = _torch()
    lengths = torch.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences a PackedSequence holds, in their original order.

    >>> pack_sequence, unpack_sequence = torch.nn.utils.rnn.pack_sequence, torch.nn.utils.rnn.unpack_sequence
    >>> unpack_sequence(pack_sequence([torch.tensor([1.]), torch.tensor([2., 3.])], enforce_sorted=False))
    [tensor([1.]), tensor([2., 3.])]
    """
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
