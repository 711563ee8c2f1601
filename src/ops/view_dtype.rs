//! `Tensor.view(dtype)`: the same bytes read as another dtype.
use super::*;
use crate::dtype::DType;

/// `x.view(dtype)`: x's bytes read as `dtype` (PyTorch's `view_dtype`). With another element
/// size the last dim (of stride 1) grows or shrinks by the ratio. Not differentiable, and not a
/// view in autograd's sense (no `_base`), though it shares x's storage and version counter.
pub fn view_dtype(x: &Tensor, dtype: DType) -> Result<Tensor> {
    let (shape, strides, offset) = {
        let d = x.data();
        (d.shape.to_vec(), d.strides.to_vec(), d.offset)
    };
    if dtype == DType::Bool && x.dtype() != DType::Bool {
        // leafgrad's kernels read bool storage as Rust `bool`, which must be 0 or 1
        return Err(Error::NotImplemented(format!(
            "leafgrad cannot view {} as Bool: its bytes may hold values other than 0 and 1 (use != 0)",
            x.dtype().scalar_type_name()
        )));
    }
    let (old, new) = (x.dtype().size(), dtype.size());
    if old == new {
        return Ok(x.reinterpreted(dtype, &shape, &strides, offset));
    }
    let names = format!(
        "{} as {} (different element sizes)",
        x.dtype().scalar_type_name(),
        dtype.scalar_type_name()
    );
    let err = |m: String| Err(Error::Runtime(m));
    let Some(last) = shape.len().checked_sub(1) else {
        return err(format!("self.dim() cannot be 0 to view {names}"));
    };
    let (mut shape, mut strides) = (shape, strides);
    if old > new {
        let r = old / new;
        if strides[last] != 1 {
            return err(format!(
                "self.stride(-1) must be 1 to view {names}, but got {}",
                strides[last]
            ));
        }
        shape[last] *= r;
        for s in &mut strides[..last] {
            *s *= r as isize;
        }
        return Ok(x.reinterpreted(dtype, &shape, &strides, offset * r));
    }
    let r = new / old;
    if shape[last] % r != 0 {
        return err(format!(
            "self.size(-1) must be divisible by {r} to view {names}, but got {}",
            shape[last]
        ));
    }
    if offset % r != 0 {
        return err(format!(
            "self.storage_offset() must be divisible by {r} to view {names}, but got {offset}"
        ));
    }
    if strides[last] != 1 {
        return err(format!(
            "self.stride(-1) must be 1 to view {names}, but got {}",
            strides[last]
        ));
    }
    for (d, s) in strides[..last].iter_mut().enumerate() {
        if *s % r as isize != 0 {
            return err(format!(
                "self.stride({d}) must be divisible by {r} to view {names}, but got {s}"
            ));
        }
        *s /= r as isize;
    }
    shape[last] /= r;
    Ok(x.reinterpreted(dtype, &shape, &strides, offset / r))
}
