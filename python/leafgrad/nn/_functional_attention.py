"""Attention as functions (re-exported by `functional`): `scaled_dot_product_attention`, composed
as PyTorch's math kernel composes it (`_scaled_dot_product_attention_math`: q and k each scaled
by sqrt(scale), the bool mask turned additive, `_safe_softmax` so fully masked rows give 0,
dropout drawn as `at::dropout` draws it), and `multi_head_attention_forward`, the slow path of
`nn.MultiheadAttention`, with PyTorch's shape checks, mask canonicalisation and messages."""
import math
import warnings

from .. import _core

_NEG_INF = float("-inf")

# dtype names as ATen's TypeMeta prints them (in sdpa's messages)
_TYPEMETA_NAMES = {
    "float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
    "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
    "bool": "bool", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>",
}


def _typemeta(dtype):
    return _TYPEMETA_NAMES.get(dtype._name, dtype._name)


def _validate_sdpa_input(query, key, value, attn_mask):
    if not (query.dtype == key.dtype and query.dtype == value.dtype):
        raise RuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{_typemeta(query.dtype)} key.dtype: {_typemeta(key.dtype)} and value.dtype: "
            f"{_typemeta(value.dtype)} instead.")
    if not (query.device == key.device and query.device == value.device):
        raise RuntimeError(
            "Expected query, key, and value to have the same device type, but got query.device: "
            f"{query.device} key.device: {key.device} and value.device: {value.device} instead.")
    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise RuntimeError(
            "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
            f"{query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.")
    if attn_mask is not None:
        if attn_mask.dim() < 2:  # PyTorch's kernel choice reads the mask's size(-2) first
            raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got -2)")
        mdt = attn_mask.dtype
        if not (mdt == _core.bool or mdt == _core.float32 or mdt == query.dtype):
            raise RuntimeError(
                "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: "
                f"{_typemeta(mdt)} and  query.dtype: {_typemeta(query.dtype)} instead.")


def _bool_mask_to_additive(mask, dtype):
    """ATen's convert_boolean_attn_mask: 0 where `mask` is True, -inf where it is False."""
    from .. import where, zeros

    return where(mask.logical_not(), _NEG_INF, zeros((), dtype=dtype, device=mask.device))


def _safe_softmax(x, dim=-1):
    """softmax along `dim`, with 0 (not NaN) in the rows that are -inf throughout, and a
    gradient of 0 into those rows (ATen's `_safe_softmax`, whose backward is softmax's)."""
    from .. import where

    with _no_grad():
        masked_rows = x.eq(_NEG_INF).all(dim, keepdim=True)
    if not bool(masked_rows.any()):
        return x.softmax(dim)
    # softmax of a finite stand-in for those rows, then zeros: no NaN reaches the graph
    out = where(masked_rows, 0.0, x).softmax(dim)
    return where(masked_rows, 0.0, out)


def _no_grad():
    from .._grad_mode import no_grad

    return no_grad()


def _gqa_expand(query, key, value, enable_gqa):
    """ATen's pre_process_group_query_attention_input: repeat_interleave the key/value heads up
    to the query's (dim -3)."""
    if not enable_gqa:
        return key, value
    from .. import repeat_interleave

    hq, hk, hv = query.size(-3), key.size(-3), value.size(-3)
    all_equal = hq == hk and hk == hv
    if not (all_equal or (hq % hk == 0 and hq % hv == 0)):
        raise RuntimeError("Number of heads in key and value must divide the number of heads in query")
    if all_equal:
        return key, value
    return repeat_interleave(key, hq // hk, -3), repeat_interleave(value, hq // hv, -3)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *,
                                 scale=None, enable_gqa=False):
    """softmax(query @ key.transpose(-2, -1) * scale + mask) @ value, over the last two dims
    (`scale` defaults to 1/sqrt(E)). A bool `attn_mask` is True where a query may attend, a float
    one is added to the scores; `is_causal` masks the upper triangle. Rows that may attend
    nothing give 0. `dropout_p` is applied to the attention weights always (no `training` flag).

    >>> q = torch.tensor([[[1., 0.], [0., 1.]]])
    >>> v = torch.tensor([[[1., 2.], [3., 4.]]])
    >>> torch.nn.functional.scaled_dot_product_attention(q, q, v)
    tensor([[[1.6605, 2.6605],
             [2.3395, 3.3395]]])
    >>> torch.nn.functional.scaled_dot_product_attention(q, q, v, is_causal=True)
    tensor([[[1.0000, 2.0000],
             [2.3395, 3.3395]]])
    """
    from .. import ones

    _validate_sdpa_input(query, key, value, attn_mask)
    if attn_mask is not None and attn_mask.dtype == _core.bool:
        attn_mask = _bool_mask_to_additive(attn_mask, query.dtype)

    origin_dtype = query.dtype
    low = origin_dtype in (_core.float16, _core.bfloat16)
    if low:  # the math kernel keeps half and bfloat16 inputs in float32 throughout
        query, key, value = query.float(), key.float(), value.float()

    negative = scale is not None and scale < 0.0
    if scale is None:
        factor = 1.0 / math.sqrt(query.size(-1))
    else:
        factor = abs(scale) if negative else scale
    factor = math.sqrt(factor)
    query = query * ((0.0 - factor) if negative else factor)
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
        L, S = query.size(-2), key.size(-2)
        causal = ones(L, S, dtype=_core.bool, device=query.device).tril()
        attn_mask = _bool_mask_to_additive(causal, query.dtype)
    key, value = _gqa_expand(query, key, value, enable_gqa)
    attn = query.matmul(key.transpose(-2, -1) * factor)
    if attn_mask is not None:
        if attn_mask.dtype != attn.dtype:  # ATen adds it in place: the scores keep their dtype
            attn_mask = attn_mask.to(attn.dtype)
        attn = attn + attn_mask
    attn = _safe_softmax(attn, -1)
    if dropout_p > 0.0:
        if dropout_p > 1.0:  # at::dropout's check (NaN and p <= 0 skip dropout, as in ATen)
            raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {_cnum(dropout_p)}")
        from .functional import dropout

        attn = dropout(attn, dropout_p, True)
    out = attn.matmul(value)
    return out.to(origin_dtype) if low else out


def _cnum(x):
    """A double as C++'s ostream prints it (6 significant digits)."""
    return f"{x:g}"


# ------------------------------------------------------------------------------ multi-head attention
def _none_or_dtype(input):
    if input is None:
        return None
    if isinstance(input, _core.Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A bool mask (True: masked out) as an additive float mask of `target_type` (-inf where
    True); a float mask unchanged. Warns (PyTorch's deprecation) when `other_type` differs."""
    if mask is not None:
        mask_is_float = mask.is_floating_point()
        if mask.dtype != _core.bool and not mask_is_float:
            raise AssertionError(f"only bool and floating types of {mask_name} are supported")
        if check_other and other_type is not None and mask.dtype != other_type:
            warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. "
                          "Use same type for both instead.", stacklevel=2)
        if not mask_is_float:
            from .. import zeros_like

            mask = zeros_like(mask, dtype=target_type).masked_fill_(mask, _NEG_INF)
    return mask


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """Whether the input is batched (3-D query) or not (2-D), with PyTorch's shape assertions."""
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError(
                "For batched (3-D) `query`, expected `key` and `value` to be 3-D"
                f" but found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError(
                "For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D"
                f" but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError(
                "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                f" but found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError(
                "For unbatched (2-D) `query`, expected `key` and `value` to be 2-D"
                f" but found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError(
                "For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D"
                f" but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError(
                    "For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                    f" but found {attn_mask.dim()}-D tensor instead")
            if attn_mask.dim() == 3:
                expected = (num_heads, query.shape[0], key.shape[0])
                if tuple(attn_mask.shape) != expected:
                    raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}")
        return False
    raise AssertionError(
        f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query tensor")


def _in_projection_packed(q, k, v, w, b=None):
    """q, k, v projected by the packed (3E, E) weight `w` (and (3E,) bias `b`), as PyTorch
    splits the work: one matmul for self-attention, two when only key is value, else three."""
    from .functional import linear

    E = q.size(-1)
    if k is v:
        if q is k:
            proj = linear(q, w, b)
            proj = proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        q_proj = linear(q, w_q, b_q)
        kv_proj = linear(k, w_kv, b_kv)
        kv_proj = kv_proj.unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return q_proj, kv_proj[0], kv_proj[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """q, k, v projected by their own weights (kdim/vdim differing from embed_dim)."""
    from .functional import linear

    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    for name, t, shape in (("query weights", w_q, (Eq, Eq)), ("key weights", w_k, (Eq, Ek)),
                           ("value weights", w_v, (Eq, Ev)), ("query bias", b_q, (Eq,)),
                           ("key bias", b_k, (Eq,)), ("value bias", b_v, (Eq,))):
        if t is not None and tuple(t.shape) != shape:
            raise AssertionError(f"expecting {name} shape of {shape}, but got {t.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _pad_last(t):
    """`F.pad(t, (0, 1))`: one zero column appended on the last dim."""
    from .. import cat, zeros

    return cat([t, zeros(*t.shape[:-1], 1, dtype=t.dtype, device=t.device)], dim=-1)


def _check_key_padding_mask(key_padding_mask, src_len, bsz):
    if key_padding_mask.shape[0] != bsz:
        raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got {key_padding_mask.shape[0]}")
    if key_padding_mask.shape[1] != src_len:
        raise AssertionError(
            f"Expected key_padded_mask.shape[1] to be {src_len}, but got {key_padding_mask.shape[1]}")


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """The forward of `nn.MultiheadAttention` (sequence-first: query (L, N, E) or unbatched
    (L, E)): in-projection, scaled dot-product attention per head, out-projection. Returns the
    output and, with `need_weights`, the attention weights (averaged over heads unless
    `average_attn_weights=False`), else None.

    >>> x = torch.tensor([[[1., 0.]], [[0., 1.]]])
    >>> w, b = torch.eye(2).repeat(3, 1), torch.zeros(6)
    >>> out, weights = torch.nn.functional.multi_head_attention_forward(
    ...     x, x, x, 2, 1, w, b, None, None, False, 0.0, torch.eye(2), torch.zeros(2))
    >>> out
    tensor([[[0.6698, 0.3302]],
    <BLANKLINE>
            [[0.3302, 0.6698]]])
    >>> weights
    tensor([[[0.6698, 0.3302],
             [0.3302, 0.6698]]])
    """
    from .. import baddbmm, bmm, cat, zeros
    from .functional import dropout, linear

    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)

    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]

    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask),
                                       "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer module method "
            "`generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        # the hint goes to scaled_dot_product_attention in place of the mask
        attn_mask = None
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False  # the merged mask is no longer causal

    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if tuple(key.shape[:2]) != tuple(value.shape[:2]):
            raise AssertionError(
                f"key's sequence and batch dims {key.shape[:2]} do not match value's {value.shape[:2]}")
    elif tuple(key.shape) != tuple(value.shape):
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    # in-projection
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q_proj_weight", q_proj_weight), ("k_proj_weight", k_proj_weight),
                        ("v_proj_weight", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name} is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)

    # the attention mask as 3-D
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            correct = (tgt_len, src_len)
            if tuple(attn_mask.shape) != correct:
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be {correct}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            correct = (bsz * num_heads, tgt_len, src_len)
            if tuple(attn_mask.shape) != correct:
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be {correct}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    # bias_k / bias_v along the sequence
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)
    else:
        if bias_k is not None:
            raise AssertionError("bias_k is set but bias_v is None")
        if bias_v is not None:
            raise AssertionError("bias_v is set but bias_k is None")

    # heads into the batch: (N * num_heads, L, head_dim)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        if static_k.size(0) != bsz * num_heads:
            raise AssertionError(f"expecting static_k.size(0) of {bsz * num_heads}, but got {static_k.size(0)}")
        if static_k.size(2) != head_dim:
            raise AssertionError(f"expecting static_k.size(2) of {head_dim}, but got {static_k.size(2)}")
        k = static_k
    if static_v is None:
        v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        if static_v.size(0) != bsz * num_heads:
            raise AssertionError(f"expecting static_v.size(0) of {bsz * num_heads}, but got {static_v.size(0)}")
        if static_v.size(2) != head_dim:
            raise AssertionError(f"expecting static_v.size(2) of {head_dim}, but got {static_v.size(2)}")
        v = static_v

    if add_zero_attn:
        zero_shape = (bsz * num_heads, 1, head_dim)
        k = cat([k, zeros(zero_shape, dtype=k.dtype, device=k.device)], dim=1)
        v = cat([v, zeros(zero_shape, dtype=v.dtype, device=v.device)], dim=1)
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)

    src_len = k.size(1)

    if key_padding_mask is not None:
        _check_key_padding_mask(key_padding_mask, src_len, bsz)
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
                            .reshape(bsz * num_heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask

    if not training:
        dropout_p = 0.0

    if need_weights:
        E = q.shape[2]
        q_scaled = q * math.sqrt(1.0 / float(E))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:  # (under autocast baddbmm casts the mask as well)
            weights = baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = bmm(q_scaled, k.transpose(-2, -1))
        weights = weights.softmax(-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        out = bmm(weights, v)
        out = out.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias)
        out = out.view(tgt_len, bsz, out.size(1))
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            out = out.squeeze(1)
            weights = weights.squeeze(0)
        return out, weights

    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.size(1))
    if not is_batched:
        out = out.squeeze(1)
    return out, None
