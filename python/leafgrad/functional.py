"""`torch.functional`: the module PyTorch defines its Python-level tensor functions in
(`import torch.functional as F` in older tutorials). The same functions as the top-level names.

>>> import leafgrad.functional as F
>>> F.einsum("ij->j", torch.ones(2, 3))
tensor([2., 2., 2.])
>>> F.broadcast_shapes((2, 1), (1, 3))
torch.Size([2, 3])

`stft`, `istft`, `pca_lowrank` and `svd_lowrank` are not provided (leafgrad lacks them).
"""
from . import (atleast_1d, atleast_2d, atleast_3d, block_diag, broadcast_shapes, broadcast_tensors,
               cartesian_prod, cdist, chain_matmul, einsum, lu, meshgrid, norm, split, tensordot, unique,
               unique_consecutive, unravel_index)

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors", "cartesian_prod",
           "block_diag", "cdist", "chain_matmul", "einsum", "lu", "norm", "meshgrid", "split", "tensordot",
           "unique", "unique_consecutive", "unravel_index"]
