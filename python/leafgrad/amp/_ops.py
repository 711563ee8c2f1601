"""Which ops autocast changes, and how: PyTorch 2.15's cast policies per device type
(aten/src/ATen/autocast_mode.cpp and .h, the "Autocast Op Reference"), for the ops leafgrad has.

Policies, applied to the tensor arguments (and lists of them) on the region's device type:
- LOWER: floating inputs (not float64) cast to the region's dtype (bfloat16 or float16);
- FP32: floating inputs (not float64) cast to float32;
- OPT (`fp32_set_opt_dtype`, and `fp32_append_dtype` for norm): when the first input is such a
  tensor, `dtype=torch.float32` is passed unless a dtype was given;
- PROMOTE: floating inputs (not float64) cast to the widest of them (float32 over the region's
  dtype; another lower-precision dtype is PyTorch's "Unexpected floating ScalarType" error);
- BANNED: PyTorch's error (binary_cross_entropy under CUDA autocast).

An op runs with autocast off for its device type (the ops it is composed of are not cast
again); ops on no list run as they are, and those composed of listed ops are cast through them
(torch.einsum on the CPU runs its bmm in bfloat16, as PyTorch's does).

Each op is named by its spellings: `torch.<name>`, `Tensor.<name>`, `F.<name>`
(torch.nn.functional), `linalg.<name>` and `fft.<name>`; a spelling leafgrad does not have (yet) is skipped.
Ops with an `out=` tensor are not cast (PyTorch's `out` overloads have no autocast kernel).
"""
LOWER, FP32, OPT, PROMOTE, BANNED = "lower", "fp32", "fp32_set_opt_dtype", "promote", "banned"


class Op:
    """One op: its policy per device type, the names it is reached by, an optional `when(args,
    kwargs)` that says whether a call is the op autocast knows (F.pad is reflection_pad2d only
    for mode='reflect'), and where a positional `dtype` sits in each spelling (OPT ops)."""

    __slots__ = ("name", "policy", "spellings", "when", "dtype_at")

    def __init__(self, name, spellings, cpu=None, cuda=None, when=None, dtype_at=None):
        self.name = name
        self.policy = {d: p for d, p in (("cpu", cpu), ("cuda", cuda)) if p is not None}
        self.spellings = tuple(spellings.split())
        self.when = when
        self.dtype_at = dtype_at or {}

    def __repr__(self):
        return f"Op({self.name!r}, {self.policy})"


def _arg(args, kwargs, i, name, default):
    return args[i] if len(args) > i else kwargs.get(name, default)


def _padding_op(args, kwargs):
    """F.pad reaches reflection_pad1d/2d and replication_pad1d/2d/3d (CPU autocast's FP32 ops)."""
    mode = _arg(args, kwargs, 2, "mode", "constant")
    dims = len(_arg(args, kwargs, 1, "pad", ())) // 2
    return (mode == "reflect" and dims in (1, 2)) or (mode == "replicate" and dims in (1, 2, 3))


def _upsample_op(args, kwargs):
    """F.interpolate reaches an upsample_* op (CUDA autocast's FP32 ops) except for mode='area'."""
    return _arg(args, kwargs, 3, "mode", "nearest") != "area"


def _both(name, spellings, policy, **kw):
    return Op(name, spellings, cpu=policy, cuda=policy, **kw)


OPS = [
    # ---- lower precision on CPU and CUDA
    _both("conv1d", "torch.conv1d F.conv1d", LOWER),
    _both("conv2d", "torch.conv2d F.conv2d", LOWER),
    _both("conv3d", "torch.conv3d F.conv3d", LOWER),
    _both("conv_transpose1d", "torch.conv_transpose1d F.conv_transpose1d", LOWER),
    _both("conv_transpose2d", "torch.conv_transpose2d F.conv_transpose2d", LOWER),
    _both("conv_transpose3d", "torch.conv_transpose3d F.conv_transpose3d", LOWER),
    _both("prelu", "torch.prelu Tensor.prelu F.prelu", LOWER),
    _both("addmm", "torch.addmm Tensor.addmm", LOWER),
    _both("matmul", "torch.matmul Tensor.matmul Tensor.__matmul__ Tensor.__rmatmul__ linalg.matmul", LOWER),
    _both("mm", "torch.mm Tensor.mm", LOWER),
    _both("bmm", "torch.bmm Tensor.bmm", LOWER),
    _both("baddbmm", "torch.baddbmm Tensor.baddbmm", LOWER),
    _both("addbmm", "torch.addbmm Tensor.addbmm", LOWER),
    _both("linear", "F.linear", LOWER),
    _both("linalg_vecdot", "linalg.vecdot", LOWER),
    _both("scaled_dot_product_attention", "F.scaled_dot_product_attention", LOWER),
    # (no spelling: nn.RNN/LSTM/GRU cast their input, weights and states through
    # `_cast.cast_args`, as PyTorch runs a CPU LSTM layer as oneDNN's mkldnn_rnn_layer and a
    # CUDA RNN as cuDNN's _cudnn_rnn, which autocast casts)
    Op("mkldnn_rnn_layer", "", cpu=LOWER),
    Op("_cudnn_rnn", "", cuda=LOWER),
    Op("rnn_cell", "", cuda=LOWER),  # lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell (nn.*Cell)
    # ---- lower precision on CUDA only
    Op("addmv", "torch.addmv Tensor.addmv", cuda=LOWER),
    Op("addr", "torch.addr Tensor.addr", cuda=LOWER),
    Op("mv", "torch.mv Tensor.mv", cuda=LOWER),
    Op("einsum", "torch.einsum", cuda=LOWER),
    Op("linalg_multi_dot", "linalg.multi_dot", cuda=LOWER),
    Op("chain_matmul", "torch.chain_matmul", cuda=LOWER),
    # ---- float32 on CPU and CUDA
    _both("mse_loss", "F.mse_loss", FP32),
    _both("l1_loss", "F.l1_loss", FP32),
    _both("smooth_l1_loss", "F.smooth_l1_loss", FP32),
    _both("huber_loss", "F.huber_loss", FP32),
    _both("nll_loss", "F.nll_loss", FP32),
    _both("kl_div", "torch.kl_div F.kl_div", FP32),
    _both("poisson_nll_loss", "torch.poisson_nll_loss F.poisson_nll_loss", FP32),
    _both("cosine_embedding_loss", "torch.cosine_embedding_loss F.cosine_embedding_loss", FP32),
    _both("hinge_embedding_loss", "torch.hinge_embedding_loss F.hinge_embedding_loss", FP32),
    _both("margin_ranking_loss", "torch.margin_ranking_loss F.margin_ranking_loss", FP32),
    _both("soft_margin_loss", "F.soft_margin_loss", FP32),
    _both("triplet_margin_loss", "torch.triplet_margin_loss F.triplet_margin_loss", FP32),
    _both("multi_margin_loss", "F.multi_margin_loss", FP32),
    _both("multilabel_margin_loss", "F.multilabel_margin_loss", FP32),
    _both("binary_cross_entropy_with_logits",
          "torch.binary_cross_entropy_with_logits F.binary_cross_entropy_with_logits", FP32),
    # (cross_entropy_loss is CPU's; under CUDA its log_softmax and nll_loss run in float32)
    _both("cross_entropy_loss", "F.cross_entropy", FP32),
    _both("cdist", "torch.cdist", FP32),
    *(_both(f"fft_{n}", f"fft.{n}", FP32) for n in (
        "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
        "hfft", "ihfft")),
    # ---- float32 on CPU only
    Op("binary_cross_entropy", "F.binary_cross_entropy", cpu=FP32, cuda=BANNED),
    Op("ctc_loss", "torch.ctc_loss F.ctc_loss", cpu=FP32),
    Op("avg_pool3d", "F.avg_pool3d", cpu=FP32),
    Op("max_pool3d", "torch.max_pool3d F.max_pool3d F.max_pool3d_with_indices", cpu=FP32),
    Op("adaptive_avg_pool3d", "F.adaptive_avg_pool3d", cpu=FP32),
    Op("adaptive_max_pool3d", "F.adaptive_max_pool3d F.adaptive_max_pool3d_with_indices", cpu=FP32),
    Op("fractional_max_pool2d", "F.fractional_max_pool2d F.fractional_max_pool2d_with_indices", cpu=FP32),
    Op("fractional_max_pool3d", "F.fractional_max_pool3d F.fractional_max_pool3d_with_indices", cpu=FP32),
    Op("max_unpool2d", "F.max_unpool2d", cpu=FP32),
    Op("max_unpool3d", "F.max_unpool3d", cpu=FP32),
    Op("reflection_replication_pad", "F.pad", cpu=FP32, when=_padding_op),
    Op("polar", "torch.polar", cpu=FP32),
    Op("quantile", "torch.quantile Tensor.quantile", cpu=FP32),
    Op("nanquantile", "torch.nanquantile Tensor.nanquantile", cpu=FP32),
    Op("trace", "torch.trace Tensor.trace", cpu=FP32),
    Op("view_as_complex", "torch.view_as_complex", cpu=FP32),
    Op("cholesky", "torch.cholesky Tensor.cholesky", cpu=FP32),
    Op("cholesky_inverse", "torch.cholesky_inverse Tensor.cholesky_inverse", cpu=FP32),
    Op("cholesky_solve", "torch.cholesky_solve Tensor.cholesky_solve", cpu=FP32),
    Op("triangular_solve", "torch.triangular_solve Tensor.triangular_solve", cpu=FP32),
    Op("ormqr", "torch.ormqr Tensor.ormqr", cpu=FP32),
    Op("stft", "torch.stft Tensor.stft", cpu=FP32),
    Op("grid_sampler", "F.grid_sample", cpu=FP32, cuda=PROMOTE),
    Op("inverse", "torch.inverse Tensor.inverse", cpu=FP32),
    Op("lu_solve", "torch.lu_solve Tensor.lu_solve", cpu=FP32),
    Op("orgqr", "torch.orgqr Tensor.orgqr", cpu=FP32),
    Op("pinverse", "torch.pinverse Tensor.pinverse", cpu=FP32),
    Op("geqrf", "torch.geqrf Tensor.geqrf", cpu=FP32),
    Op("qr", "torch.qr Tensor.qr", cpu=FP32),
    Op("svd", "torch.svd Tensor.svd", cpu=FP32),
    Op("linalg_cond", "linalg.cond", cpu=FP32),
    Op("linalg_matrix_rank", "linalg.matrix_rank", cpu=FP32),
    Op("linalg_solve", "linalg.solve", cpu=FP32),
    Op("linalg_cholesky", "linalg.cholesky", cpu=FP32),
    Op("linalg_cholesky_ex", "linalg.cholesky_ex", cpu=FP32),
    Op("linalg_svdvals", "linalg.svdvals", cpu=FP32),
    Op("linalg_svd", "linalg.svd", cpu=FP32),
    Op("linalg_eigvals", "linalg.eigvals", cpu=FP32),
    Op("linalg_eigvalsh", "linalg.eigvalsh", cpu=FP32),
    Op("linalg_eig", "linalg.eig", cpu=FP32),
    Op("linalg_eigh", "linalg.eigh", cpu=FP32),
    Op("linalg_inv", "linalg.inv", cpu=FP32),
    Op("linalg_inv_ex", "linalg.inv_ex", cpu=FP32),
    Op("linalg_householder_product", "linalg.householder_product", cpu=FP32),
    Op("linalg_tensorinv", "linalg.tensorinv", cpu=FP32),
    Op("linalg_tensorsolve", "linalg.tensorsolve", cpu=FP32),
    Op("linalg_qr", "linalg.qr", cpu=FP32),
    Op("linalg_lstsq", "linalg.lstsq", cpu=FP32),
    # ---- float32 on CUDA only
    *[Op(n, f"torch.{n} Tensor.{n}", cuda=FP32) for n in (
        "acos", "asin", "cosh", "erfinv", "exp", "expm1", "log", "log10", "log2", "log1p", "reciprocal", "rsqrt",
        "sinh", "tan", "logsumexp", "dist", "renorm")],
    Op("pow", "torch.pow Tensor.pow Tensor.__pow__ Tensor.__rpow__", cuda=FP32),
    Op("softplus", "F.softplus", cuda=FP32),
    Op("layer_norm", "torch.layer_norm F.layer_norm", cuda=FP32),
    Op("rms_norm", "torch.rms_norm F.rms_norm", cuda=FP32),
    Op("group_norm", "torch.group_norm F.group_norm", cuda=FP32),
    Op("cosine_similarity", "torch.cosine_similarity F.cosine_similarity", cuda=FP32),
    Op("pdist", "torch.pdist F.pdist", cuda=FP32),
    Op("upsample", "F.interpolate F.upsample", cuda=FP32, when=_upsample_op),
    # ---- float32 through their dtype argument (CUDA)
    Op("softmax", "torch.softmax Tensor.softmax", cuda=OPT, dtype_at={"torch": 2, "Tensor": 2}),
    Op("log_softmax", "torch.log_softmax Tensor.log_softmax", cuda=OPT, dtype_at={"torch": 2, "Tensor": 2}),
    Op("sum", "torch.sum Tensor.sum", cuda=OPT),
    Op("prod", "torch.prod Tensor.prod", cpu=FP32, cuda=OPT),
    Op("cumsum", "torch.cumsum Tensor.cumsum", cuda=OPT),
    Op("cumprod", "torch.cumprod Tensor.cumprod", cuda=OPT),
    Op("norm", "torch.norm Tensor.norm", cuda=OPT, dtype_at={"torch": 5, "Tensor": 4}),
    Op("linalg_vector_norm", "linalg.vector_norm", cuda=OPT),
    Op("linalg_matrix_norm", "linalg.matrix_norm", cuda=OPT),
    # ---- the widest input type
    Op("cat", "torch.cat torch.concat torch.concatenate", cpu=PROMOTE),
    Op("stack", "torch.stack", cpu=PROMOTE),
    Op("index_copy", "torch.index_copy Tensor.index_copy", cpu=PROMOTE),
    *[Op(n, f"torch.{n} Tensor.{n}", cuda=PROMOTE) for n in (
        "addcdiv", "addcmul", "atan2", "arctan2", "cross", "dot", "vdot", "index_put", "scatter_add")],
    Op("tensordot", "torch.tensordot", cuda=PROMOTE),
    Op("bilinear", "torch.bilinear F.bilinear", cuda=PROMOTE),
]

BY_NAME = {op.name: op for op in OPS}

# PyTorch's message for binary_cross_entropy under CUDA autocast
BCE_BANNED = (
    "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"
    "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
    "In this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\n"
    "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
    "safe to autocast."
)
