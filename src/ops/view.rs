//! Views: ops whose result shares storage (and the version counter) with the input. Each
//! backward maps the gradient back onto the input's shape.
use super::*;
use crate::backend;
use crate::dtype::DType;
use crate::grads;
use crate::shape::{contiguous_strides, fmt_shape, numel, wrap_dim, Shape, Strides};
use smallvec::SmallVec;

fn record_view(name: &'static str, x: &Tensor, out: &Tensor, backward: BackwardFn) -> Result<()> {
    if needs_grad(&[x])? {
        record(name, &[x], &[out], vec![], backward)?;
    }
    Ok(())
}

/// Resolve one `-1` and check the element count.
pub fn infer_shape(shape: &[i64], n: usize) -> Result<Shape> {
    let mut out: Shape = SmallVec::with_capacity(shape.len());
    let mut infer = None;
    let mut known = 1usize;
    for (i, &d) in shape.iter().enumerate() {
        if d == -1 {
            if infer.is_some() {
                return Err(Error::Runtime("only one dimension can be inferred".into()));
            }
            infer = Some(i);
            out.push(1);
        } else if d < 0 {
            return Err(Error::Runtime(format!("invalid shape dimension {}", d)));
        } else {
            known = known.saturating_mul(d as usize);
            out.push(d as usize);
        }
    }
    let bad = || {
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        Error::Runtime(format!(
            "shape '[{}]' is invalid for input of size {}",
            dims.join(", "),
            n
        ))
    };
    match infer {
        Some(i) => {
            if known == 0 && n == 0 {
                let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
                return Err(Error::Runtime(format!(
                    "cannot reshape tensor of 0 elements into shape [{}] because the unspecified dimension size -1 can be any value and is ambiguous",
                    dims.join(", ")
                )));
            }
            if known == 0 || !n.is_multiple_of(known) {
                return Err(bad());
            }
            out[i] = n / known;
        }
        None => {
            if known != n {
                return Err(bad());
            }
        }
    }
    Ok(out)
}

/// Strides for viewing (shape, strides) as `new`, if possible without a copy (PyTorch's rule).
pub(crate) fn view_strides(shape: &[usize], strides: &[isize], new: &[usize]) -> Option<Strides> {
    // PyTorch's computeStride, special cases included: strides of size-1 dims follow the
    // input's (an expanded tensor's views keep stride 0)
    if shape.is_empty() {
        return Some(SmallVec::from_elem(1, new.len()));
    }
    if numel(shape) == 0 {
        if shape == new {
            return Some(strides.into());
        }
        let mut out: Strides = SmallVec::from_elem(1, new.len());
        for d in (0..new.len().saturating_sub(1)).rev() {
            out[d] = (new[d + 1].max(1) as isize) * out[d + 1];
        }
        return Some(out);
    }
    let mut out: Strides = SmallVec::from_elem(0, new.len());
    let mut view_d = new.len() as isize - 1;
    let mut chunk_base_stride = *strides.last().unwrap_or(&1);
    let mut tensor_numel = 1usize;
    let mut view_numel = 1usize;
    for tensor_d in (0..shape.len()).rev() {
        tensor_numel *= shape[tensor_d];
        if tensor_d == 0
            || (shape[tensor_d - 1] != 1
                && strides[tensor_d - 1] != (tensor_numel as isize) * chunk_base_stride)
        {
            while view_d >= 0 && (view_numel < tensor_numel || new[view_d as usize] == 1) {
                out[view_d as usize] = (view_numel as isize) * chunk_base_stride;
                view_numel *= new[view_d as usize];
                view_d -= 1;
            }
            if view_numel != tensor_numel {
                return None;
            }
            if tensor_d > 0 {
                chunk_base_stride = strides[tensor_d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    if view_d != -1 {
        return None;
    }
    Some(out)
}

pub fn view(x: &Tensor, shape: &[i64]) -> Result<Tensor> {
    edges_first(&[x])?;
    let (old, st, off) = {
        let d = x.data();
        (d.shape.clone(), d.strides.clone(), d.offset)
    };
    let new = infer_shape(shape, numel(&old))?;
    let Some(ns) = view_strides(&old, &st, &new) else {
        return Err(Error::Runtime("view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.".into()));
    };
    let out = x.view_with(&new, &ns, off);
    // d view(x) = reshape(dL)
    record_view(
        "ViewBackward0",
        x,
        &out,
        Box::new(move |_, g| grads![reshape_shape(&g[0], &old)?]),
    )?;
    Ok(out)
}

pub(crate) fn reshape_shape(x: &Tensor, shape: &[usize]) -> Result<Tensor> {
    reshape(x, &shape.iter().map(|&d| d as i64).collect::<Vec<_>>())
}

/// A view recorded as UnsafeViewBackward0 (how matmul folds batch dims back).
pub fn unsafe_view(x: &Tensor, shape: &[i64]) -> Result<Tensor> {
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        view(x, shape)?
    };
    mark_views(x, &[&out], crate::tensor::CreationMeta::Default);
    let old = x.shape();
    record_view(
        "UnsafeViewBackward0",
        x,
        &out,
        Box::new(move |_, g| grads![reshape_shape(&g[0], &old)?]),
    )?;
    Ok(out)
}

/// A view when the layout allows, else a copy (CloneBackward0 then UnsafeViewBackward0).
pub fn reshape(x: &Tensor, shape: &[i64]) -> Result<Tensor> {
    let (old, st) = {
        let d = x.data();
        (d.shape.clone(), d.strides.clone())
    };
    let new = infer_shape(shape, numel(&old))?;
    if view_strides(&old, &st, &new).is_some() {
        if x.is_contiguous() {
            return view(x, shape);
        }
        // a view of a non-contiguous tensor: PyTorch's _reshape_alias
        let out = {
            let _g = crate::grad_mode::GradModeGuard::new(false);
            view(x, shape)?
        };
        mark_views(x, &[&out], crate::tensor::CreationMeta::Default);
        record_view(
            "ReshapeAliasBackward0",
            x,
            &out,
            Box::new(move |_, g| grads![reshape_shape(&g[0], &old)?]),
        )?;
        return Ok(out);
    }
    let c = clone(x)?;
    let out = c.detached();
    {
        let d = out.data();
        drop(d);
    }
    let out = Tensor::from_data(crate::tensor::TensorData {
        shape: new.clone(),
        strides: contiguous_strides(&new),
        ..out.data().clone()
    });
    if needs_grad(&[&c])? {
        record(
            "UnsafeViewBackward0",
            &[&c],
            &[&out],
            vec![],
            Box::new(move |_, g| grads![reshape_shape(&g[0], &old)?]),
        )?;
    }
    Ok(out)
}

pub fn transpose(x: &Tensor, d0: i64, d1: i64) -> Result<Tensor> {
    edges_first(&[x])?;
    let nd = x.ndim();
    let (a, b) = (wrap_dim(d0, nd)?, wrap_dim(d1, nd)?);
    let out = {
        let d = x.data();
        let (mut sh, mut st) = (d.shape.clone(), d.strides.clone());
        if nd > 0 {
            sh.swap(a, b);
            st.swap(a, b);
        }
        x.view_with(&sh, &st, d.offset)
    };
    record_view(
        "TransposeBackward0",
        x,
        &out,
        Box::new(move |_, g| grads![transpose(&g[0], a as i64, b as i64)?]),
    )?;
    set_attrs(&out, || {
        vec![
            ("dim0", crate::graph::node::SavedAttr::Int(d0)),
            ("dim1", crate::graph::node::SavedAttr::Int(d1)),
        ]
    });
    Ok(out)
}

/// `t()`: transpose of a matrix, identity for 0-d and 1-d.
pub fn t(x: &Tensor) -> Result<Tensor> {
    edges_first(&[x])?;
    let nd = x.ndim();
    if nd > 2 {
        return Err(Error::Runtime(format!(
            "t() expects a tensor with <= 2 dimensions, but self is {}D",
            nd
        )));
    }
    let out = {
        let d = x.data();
        let (mut sh, mut st) = (d.shape.clone(), d.strides.clone());
        sh.reverse();
        st.reverse();
        x.view_with(&sh, &st, d.offset)
    };
    record_view("TBackward0", x, &out, Box::new(|_, g| grads![t(&g[0])?]))?;
    Ok(out)
}

pub fn permute(x: &Tensor, dims: &[i64]) -> Result<Tensor> {
    edges_first(&[x])?;
    let nd = x.ndim();
    if dims.len() != nd {
        return Err(Error::Runtime(format!(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {} is not equal to len(dims) = {}",
            nd,
            dims.len()
        )));
    }
    let mut perm = Vec::with_capacity(nd);
    for &d in dims {
        let w = wrap_dim(d, nd)?;
        if perm.contains(&w) {
            return Err(Error::Runtime(
                "permute(): duplicate dims are not allowed.".into(),
            ));
        }
        perm.push(w);
    }
    let out = {
        let d = x.data();
        let sh: Shape = perm.iter().map(|&p| d.shape[p]).collect();
        let st: Strides = perm.iter().map(|&p| d.strides[p]).collect();
        x.view_with(&sh, &st, d.offset)
    };
    let mut inv = vec![0i64; nd];
    for (i, &p) in perm.iter().enumerate() {
        inv[p] = i as i64;
    }
    record_view(
        "PermuteBackward0",
        x,
        &out,
        Box::new(move |_, g| grads![permute(&g[0], &inv)?]),
    )?;
    set_attrs(&out, || {
        vec![("dims", crate::graph::node::SavedAttr::Ints(dims.to_vec()))]
    });
    Ok(out)
}

pub fn unsqueeze(x: &Tensor, dim: i64) -> Result<Tensor> {
    edges_first(&[x])?;
    let nd = x.ndim();
    let d = wrap_dim(dim, nd + 1)?;
    let out = {
        let td = x.data();
        let mut sh = td.shape.clone();
        let mut st = td.strides.clone();
        let s = if d < nd { st[d] * sh[d] as isize } else { 1 };
        sh.insert(d, 1);
        st.insert(d, s);
        x.view_with(&sh, &st, td.offset)
    };
    record_view(
        "UnsqueezeBackward0",
        x,
        &out,
        Box::new(move |_, g| grads![squeeze_dim(&g[0], d as i64)?]),
    )?;
    set_attrs(&out, || {
        vec![("dim", crate::graph::node::SavedAttr::Int(dim))]
    });
    Ok(out)
}

/// `squeeze()`: drop every size-1 dim (SqueezeBackward0).
pub fn squeeze(x: &Tensor) -> Result<Tensor> {
    edges_first(&[x])?;
    let (old, out) = {
        let d = x.data();
        let keep: Vec<usize> = (0..d.shape.len()).filter(|&i| d.shape[i] != 1).collect();
        let sh: Shape = keep.iter().map(|&i| d.shape[i]).collect();
        let st: Strides = keep.iter().map(|&i| d.strides[i]).collect();
        (d.shape.clone(), x.view_with(&sh, &st, d.offset))
    };
    record_view(
        "SqueezeBackward0",
        x,
        &out,
        Box::new(move |_, g| grads![reshape_shape(&g[0], &old)?]),
    )?;
    Ok(out)
}

/// `squeeze(dim)` (SqueezeBackward1): a no-op view when that dim is not 1.
pub fn squeeze_dim(x: &Tensor, dim: i64) -> Result<Tensor> {
    edges_first(&[x])?;
    let nd = x.ndim();
    let d = wrap_dim(dim, nd)?;
    let out = {
        let td = x.data();
        let (mut sh, mut st) = (td.shape.clone(), td.strides.clone());
        if nd > 0 && sh[d] == 1 {
            sh.remove(d);
            st.remove(d);
        }
        x.view_with(&sh, &st, td.offset)
    };
    let squeezed = out.ndim() != nd;
    record_view(
        "SqueezeBackward1",
        x,
        &out,
        Box::new(move |_, g| {
            grads![if squeezed {
                unsqueeze(&g[0], d as i64)?
            } else {
                g[0].clone()
            }]
        }),
    )?;
    set_attrs(&out, || {
        vec![("dim", crate::graph::node::SavedAttr::Int(dim))]
    });
    Ok(out)
}

/// `squeeze(dims)` for a tuple of dims (SqueezeBackward2): the listed dims of size 1 go.
pub fn squeeze_dims(x: &Tensor, dims: &[i64]) -> Result<Tensor> {
    edges_first(&[x])?;
    let nd = x.ndim();
    let mut wrapped: Vec<usize> = Vec::with_capacity(dims.len());
    for &d in dims {
        let w = wrap_dim(d, nd)?;
        if wrapped.contains(&w) {
            return Err(Error::Runtime(format!(
                "dim {} appears multiple times in the list of dims",
                w
            )));
        }
        wrapped.push(w);
    }
    let old = x.shape();
    let out = {
        let td = x.data();
        let keep: Vec<usize> = (0..nd)
            .filter(|&i| !(wrapped.contains(&i) && td.shape[i] == 1))
            .collect();
        let sh: Vec<usize> = keep.iter().map(|&i| td.shape[i]).collect();
        let st: Vec<isize> = keep.iter().map(|&i| td.strides[i]).collect();
        x.view_with(&sh, &st, td.offset)
    };
    record_view(
        "SqueezeBackward2",
        x,
        &out,
        Box::new(move |_, g| grads![reshape_shape(&g[0], &old)?]),
    )?;
    Ok(out)
}

pub fn expand(x: &Tensor, shape: &[usize]) -> Result<Tensor> {
    expand_i64(x, &shape.iter().map(|&d| d as i64).collect::<Vec<_>>())
}

/// `expand(*sizes)`; -1 keeps a dim.
pub fn expand_i64(x: &Tensor, sizes: &[i64]) -> Result<Tensor> {
    edges_first(&[x])?;
    let (old, out) = {
        let d = x.data();
        let nd = d.shape.len();
        if sizes.len() < nd {
            return Err(Error::Runtime(format!(
                "expand({}{{{}}}, size=[{}]): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
                d.dtype.legacy_type_name(),
                fmt_shape(&d.shape),
                sizes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", "),
                sizes.len(),
                nd
            )));
        }
        let lead = sizes.len() - nd;
        let mut sh: Shape = SmallVec::from_elem(0, sizes.len());
        let mut st: Strides = SmallVec::from_elem(0, sizes.len());
        // from the last dim, as PyTorch's inferExpandGeometry (which mismatch it names)
        for (i, &s) in sizes.iter().enumerate().rev() {
            if i < lead {
                if s < 0 {
                    return Err(Error::Runtime(format!("The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension {}", i)));
                }
                sh[i] = s as usize;
                // a new dim of size 1 gets the stride a contiguous layout would give it (the
                // next dim's extent; 0 after the last), one of another size stride 0
                st[i] = if s == 1 && i + 1 < sizes.len() {
                    sh[i + 1] as isize * st[i + 1]
                } else {
                    0
                };
            } else {
                let (cur, cs) = (d.shape[i - lead], d.strides[i - lead]);
                let s = if s == -1 { cur as i64 } else { s };
                if cur as i64 == s {
                    sh[i] = cur;
                    st[i] = cs;
                } else if cur == 1 && s >= 0 {
                    sh[i] = s as usize;
                    st[i] = 0;
                } else {
                    return Err(Error::Runtime(format!(
                        "The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension {}.  Target sizes: [{}].  Tensor sizes: {}",
                        s, cur, i,
                        sizes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", "),
                        fmt_shape(&d.shape)
                    )));
                }
            }
        }
        if sh
            .iter()
            .try_fold(1i64, |acc, &n| acc.checked_mul(n as i64))
            .is_none()
        {
            return Err(Error::Runtime(
                "numel: integer multiplication overflow".into(),
            ));
        }
        (d.shape.clone(), x.view_with(&sh, &st, d.offset))
    };
    record_view(
        "ExpandBackward0",
        x,
        &out,
        Box::new(move |_, g| grads![sum_to(&g[0], &old)?]),
    )?;
    Ok(out)
}

/// The window a select/slice takes out of the contiguous layout of `shape`.
fn window(
    shape: &[usize],
    dim: usize,
    start: usize,
    len: usize,
    step: usize,
    drop_dim: bool,
) -> Region {
    let cs = contiguous_strides(shape);
    let mut sh: Shape = shape.into();
    let mut st = cs.clone();
    sh[dim] = len;
    st[dim] = cs[dim] * step as isize;
    if drop_dim {
        sh.remove(dim);
        st.remove(dim);
    }
    Region {
        shape: sh,
        strides: st,
        offset: start * cs[dim] as usize,
    }
}

/// `x[index]` along `dim` (SelectBackward0).
pub fn select(x: &Tensor, dim: i64, index: i64) -> Result<Tensor> {
    edges_first(&[x])?;
    let nd = x.ndim();
    if nd == 0 {
        return Err(Error::Index(
            "select() cannot be applied to a 0-dim tensor.".into(),
        ));
    }
    let d = wrap_dim(dim, nd)?;
    let (shape, out) = {
        let td = x.data();
        let size = td.shape[d] as i64;
        if index < -size || index >= size {
            return Err(Error::Index(format!(
                "index {} is out of bounds for dimension {} with size {}",
                index, d, size
            )));
        }
        let i = if index < 0 { index + size } else { index } as usize;
        let off = (td.offset as isize + i as isize * td.strides[d]) as usize;
        let (mut sh, mut st) = (td.shape.clone(), td.strides.clone());
        sh.remove(d);
        st.remove(d);
        (td.shape.clone(), (x.view_with(&sh, &st, off), i))
    };
    let (out, i) = out;
    let region = window(&shape, d, i, 1, 1, true);
    record_view(
        "SelectBackward0",
        x,
        &out,
        Box::new(move |_, g| grads![embed(&g[0], &shape, &region)?]),
    )?;
    set_attrs(&out, || {
        vec![
            ("dim", crate::graph::node::SavedAttr::Int(dim)),
            ("index", crate::graph::node::SavedAttr::Int(index)),
        ]
    });
    Ok(out)
}

/// `x[start:end:step]` along `dim` (SliceBackward0), Python's clamping rules.
pub fn slice(
    x: &Tensor,
    dim: i64,
    start: Option<i64>,
    end: Option<i64>,
    step: i64,
) -> Result<Tensor> {
    edges_first(&[x])?;
    if step <= 0 {
        return Err(Error::Value("step must be greater than zero".into()));
    }
    let nd = x.ndim();
    if nd == 0 {
        return Err(Error::Index(
            "slice() cannot be applied to a 0-dim tensor.".into(),
        ));
    }
    let d = wrap_dim(dim, nd)?;
    let (shape, out, s, len) = {
        let td = x.data();
        let size = td.shape[d] as i64;
        let clamp = |v: i64| -> i64 {
            let v = if v < 0 { v + size } else { v };
            v.clamp(0, size)
        };
        let s = clamp(start.unwrap_or(0));
        let e = clamp(end.unwrap_or(size)).max(s);
        let len = if e > s { (e - s - 1) / step + 1 } else { 0 };
        let off = (td.offset as isize + s as isize * td.strides[d]) as usize;
        let (mut sh, mut st) = (td.shape.clone(), td.strides.clone());
        sh[d] = len as usize;
        st[d] *= step as isize;
        (
            td.shape.clone(),
            x.view_with(&sh, &st, off),
            s as usize,
            len as usize,
        )
    };
    let region = window(&shape, d, s, len, step as usize, false);
    record_view(
        "SliceBackward0",
        x,
        &out,
        Box::new(move |_, g| grads![embed(&g[0], &shape, &region)?]),
    )?;
    set_attrs(&out, || {
        vec![
            ("dim", crate::graph::node::SavedAttr::Int(d as i64)),
            (
                "start",
                crate::graph::node::SavedAttr::Int(start.unwrap_or(0)),
            ),
            (
                "end",
                crate::graph::node::SavedAttr::Int(end.unwrap_or(i64::MAX)),
            ),
            ("step", crate::graph::node::SavedAttr::Int(step)),
        ]
    });
    Ok(out)
}

/// `x[...]`: a view of the whole tensor (AliasBackward0).
pub fn alias(x: &Tensor) -> Result<Tensor> {
    edges_first(&[x])?;
    let out = {
        let d = x.data();
        x.view_with(&d.shape, &d.strides, d.offset)
    };
    record_view(
        "AliasBackward0",
        x,
        &out,
        Box::new(|_, g| grads![g[0].clone()]),
    )?;
    Ok(out)
}

/// A complex tensor seen as real pairs `[..., 2]` (ViewAsRealBackward0): shares storage.
pub fn view_as_real(x: &Tensor) -> Result<Tensor> {
    edges_first(&[x])?;
    let dt = x.dtype();
    if !dt.is_complex() {
        return Err(Error::Type(
            "view_as_real is only supported for complex tensors".into(),
        ));
    }
    let out = real_pairs(x);
    record_view(
        "ViewAsRealBackward0",
        x,
        &out,
        Box::new(|_, g| grads![view_as_complex_copy(&g[0])?]),
    )?;
    Ok(out)
}

/// Real pairs `[..., 2]` seen as a complex tensor (ViewAsComplexBackward0): shares storage,
/// with PyTorch's checks of the layout (a last dim of size 2 and stride 1, even strides and
/// offset elsewhere).
pub fn view_as_complex(x: &Tensor) -> Result<Tensor> {
    edges_first(&[x])?;
    let dt = x.dtype();
    match dt {
        DType::Float32 | DType::Float64 => {}
        // complex32 (ComplexHalf) does not exist in leafgrad
        DType::Float16 => {
            return Err(Error::NotImplemented(
                "view_as_complex of a float16 tensor would be complex32, which leafgrad does not have"
                    .into(),
            ))
        }
        _ => {
            return Err(Error::NotImplemented(format!(
                "view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: {}",
                dt.scalar_type_name()
            )))
        }
    }
    let d = x.data();
    let n = d.shape.len();
    let problem = if n == 0 {
        Some("Input tensor must have one or more dimensions")
    } else if d.shape[n - 1] != 2 {
        Some("Tensor must have a last dimension of size 2")
    } else if d.strides[n - 1] != 1 {
        Some("Tensor must have a last dimension with stride 1")
    } else if d.strides[..n - 1].iter().any(|s| s % 2 != 0) {
        Some("Tensor must have a stride divisible by 2 for all but last dimension")
    } else if !d.offset.is_multiple_of(2) {
        Some("Tensor must have a storage_offset divisible by 2")
    } else {
        None
    };
    if let Some(msg) = problem {
        return Err(Error::Runtime(msg.into()));
    }
    let inference = x.is_inference();
    let base = (!inference).then(|| d.base.clone().unwrap_or_else(|| x.clone()));
    let out = Tensor::from_data(crate::tensor::TensorData {
        storage: d.storage.clone(),
        shape: d.shape[..n - 1].iter().copied().collect(),
        strides: d.strides[..n - 1].iter().map(|s| s / 2).collect(),
        offset: d.offset / 2,
        dtype: dt.to_complex(),
        version: d.version.clone(),
        base,
        wrapped_number: false,
    });
    drop(d);
    out.init_view_meta(x.view_creation(), inference);
    record_view(
        "ViewAsComplexBackward0",
        x,
        &out,
        Box::new(|_, g| grads![view_as_real(&g[0])?]),
    )?;
    Ok(out)
}

/// The storage of complex `x` as real pairs `[..., 2]` (a view, not recorded).
fn real_pairs(x: &Tensor) -> Tensor {
    let d = x.data();
    let mut shape = d.shape.clone();
    shape.push(2);
    let mut strides: Strides = d.strides.iter().map(|s| s * 2).collect();
    strides.push(1);
    let inference = x.is_inference();
    let base = (!inference).then(|| d.base.clone().unwrap_or_else(|| x.clone()));
    let t = Tensor::from_data(crate::tensor::TensorData {
        storage: d.storage.clone(),
        shape,
        strides,
        offset: d.offset * 2,
        dtype: d.dtype.to_real(),
        version: d.version.clone(),
        base,
        wrapped_number: false,
    });
    drop(d);
    t.init_view_meta(x.view_creation(), inference);
    t
}

/// Real pairs `[..., 2]` back to a complex tensor (a copy; ViewAsComplexBackward0), on `x`'s
/// device.
pub fn view_as_complex_copy(x: &Tensor) -> Result<Tensor> {
    let shape = x.shape();
    if shape.last() != Some(&2) {
        return Err(Error::Runtime(
            "Tensor must have a last dimension of size 2".into(),
        ));
    }
    let cdt = x.dtype().to_complex();
    let out = Tensor::zeros_on(&shape[..shape.len() - 1], cdt, x.device())?;
    backend::copy_into(&real_pairs(&out), &x.detached())?;
    if needs_grad(&[x])? {
        record(
            "ViewAsComplexBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(|_, g| grads![view_as_real(&g[0])?]),
        )?;
    }
    Ok(out)
}
