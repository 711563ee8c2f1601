"""EmbeddingBag (`torch.nn.modules.sparse`): a lookup table whose forward reduces each bag of
rows (sum, mean or max) with `F.embedding_bag`, with PyTorch's arguments, initialisation
(N(0, 1), the padding row zeroed), `from_pretrained` and repr. (Embedding is in `layers`.)"""
from ..._grad_mode import no_grad
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .layers import _empty, _padding_index
from .module import Module

__all__ = ["EmbeddingBag"]


class EmbeddingBag(Module):
    """The sums, means or maxima of bags of rows of `weight` (num_embeddings, embedding_dim):
    `forward(input, offsets=None, per_sample_weights=None)` as `F.embedding_bag`.

    >>> bag = torch.nn.EmbeddingBag.from_pretrained(torch.tensor([[1., 2.], [3., 4.], [5., 6.]]), mode="sum")
    >>> bag
    EmbeddingBag(3, 2, mode='sum')
    >>> bag(torch.tensor([0, 1, 2]), torch.tensor([0, 1]))
    tensor([[ 1.,  2.],
            [ 8., 10.]])
    """

    __constants__ = ["num_embeddings", "embedding_dim", "max_norm", "norm_type", "scale_grad_by_freq", "mode",
                     "sparse", "include_last_offset", "padding_idx"]

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.padding_idx = _padding_index(padding_idx, num_embeddings, "padding_idx")
        if _weight is None:
            self.weight = Parameter(_empty((num_embeddings, embedding_dim), dtype, device))
            self.reset_parameters()
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def reset_parameters(self):
        """Draw the weight from N(0, 1) again, the padding row zeroed.

        >>> bag = torch.nn.EmbeddingBag(4, 2, padding_idx=0)
        >>> bag.reset_parameters()
        >>> bag.weight[0]
        tensor([0., 0.], grad_fn=<SelectBackward0>)
        """
        init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self):
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                               self.mode, self.sparse, per_sample_weights, self.include_last_offset,
                               self.padding_idx)

    def extra_repr(self):
        s = "{num_embeddings}, {embedding_dim}"
        if self.max_norm is not None:
            s += ", max_norm={max_norm}"
        if self.norm_type != 2:
            s += ", norm_type={norm_type}"
        if self.scale_grad_by_freq is not False:
            s += ", scale_grad_by_freq={scale_grad_by_freq}"
        s += ", mode={mode}"
        if self.padding_idx is not None:
            s += ", padding_idx={padding_idx}"
        return s.format(**{k: repr(v) for k, v in self.__dict__.items()})

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                        mode="mean", sparse=False, include_last_offset=False, padding_idx=None):
        """An EmbeddingBag over the 2-D `embeddings` (its rows the table), frozen unless
        `freeze=False`.

        >>> bag = torch.nn.EmbeddingBag.from_pretrained(torch.tensor([[1., 2.3, 3.], [4., 5.1, 6.3]]))
        >>> bag(torch.tensor([[1, 0]]))
        tensor([[2.5000, 3.7000, 4.6500]])
        """
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        bag = cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, max_norm=max_norm,
                  norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, mode=mode, sparse=sparse,
                  include_last_offset=include_last_offset, padding_idx=padding_idx)
        bag.weight.requires_grad = not freeze
        return bag
