//! The meta backend: tensors with a shape and a dtype and no memory. Every kernel computes
//! its result's shape and dtype only, as PyTorch's meta kernels do; reading data raises.
use super::{ArgReduceKernel, Backend, BinaryKernel, ReduceKernel, ScanKernel, UnaryKernel};
use crate::backend::Strided;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{meta_has_no_data, Error, Result};
use crate::shape::broadcast_shapes;
use num_complex::Complex64;

pub struct Meta;

/// The operands of one meta kernel share the meta device; a 0-d CPU tensor travels as a
/// number. Anything else is PyTorch's error naming the first operand's device as expected.
fn same_device(ts: &[&Strided]) -> Result<()> {
    let scalar = |t: &Strided| t.device() == Device::Cpu && t.ndim() == 0;
    let Some(first) = ts.iter().find(|t| !scalar(t)) else {
        return Ok(());
    };
    let expected = first.device();
    for t in ts {
        if t.device() != expected && !scalar(t) {
            return Err(Error::Runtime(format!(
                "Tensor on device {} is not on the expected device {}!",
                t.device(),
                expected
            )));
        }
    }
    Ok(())
}

fn meta(shape: &[usize], dtype: DType) -> Result<Strided> {
    Strided::meta(shape, dtype)
}

impl Backend for Meta {
    fn empty(&self, shape: &[usize], dtype: DType, _device: Device) -> Result<Strided> {
        meta(shape, dtype)
    }
    fn fill(&self, _t: &Strided, _value: Complex64) -> Result<()> {
        Ok(()) // no values to set (PyTorch's fill_ of a meta tensor)
    }
    fn copy_into(&self, dst: &Strided, _src: &Strided) -> Result<()> {
        if dst.device().is_meta() {
            Ok(()) // nothing to write (as PyTorch's copy_ into a meta tensor)
        } else {
            Err(meta_has_no_data())
        }
    }
    fn to_device(&self, x: &Strided, device: Device) -> Result<Strided> {
        if device.is_meta() {
            // only the shape and dtype travel
            meta(&x.shape(), x.dtype())
        } else {
            Err(meta_has_no_data())
        }
    }
    fn where_(&self, cond: &Strided, a: &Strided, b: &Strided) -> Result<Strided> {
        same_device(&[cond, a, b])?;
        let s = broadcast_shapes(&broadcast_shapes(&cond.shape(), &a.shape())?, &b.shape())?;
        meta(&s, a.dtype())
    }
    fn fill_where(&self, t: &Strided, mask: &Strided, _value: Complex64) -> Result<()> {
        same_device(&[t, mask])
    }
    fn copy_where(&self, out: &Strided, cond: &Strided, src: &Strided) -> Result<()> {
        same_device(&[out, cond, src])
    }
    fn unary(&self, k: UnaryKernel, x: &Strided) -> Result<Strided> {
        let dt = match k {
            UnaryKernel::Abs | UnaryKernel::Angle => x.dtype().to_real(),
            _ => x.dtype(),
        };
        meta(&x.shape(), dt)
    }
    fn binary(&self, k: BinaryKernel, a: &Strided, b: &Strided, dt: DType) -> Result<Strided> {
        same_device(&[a, b])?;
        let s = broadcast_shapes(&a.shape(), &b.shape())?;
        let dt = match k {
            BinaryKernel::Cmp(_) | BinaryKernel::And | BinaryKernel::Or | BinaryKernel::Xor => {
                DType::Bool
            }
            _ => dt,
        };
        meta(&s, dt)
    }
    fn clamp(&self, x: &Strided, _lo: f64, _hi: f64) -> Result<Strided> {
        meta(&x.shape(), x.dtype())
    }
    fn reduce(
        &self,
        k: ReduceKernel,
        x: &Strided,
        dims: &[usize],
        keepdim: bool,
    ) -> Result<Strided> {
        let shape = crate::shape::reduced_shape(&x.shape, dims, keepdim);
        let dt = x.dtype();
        let dt = match k {
            ReduceKernel::Sum if !dt.is_floating() && !dt.is_complex() => DType::Int64,
            _ => dt,
        };
        meta(&shape, dt)
    }
    fn argreduce(&self, _k: ArgReduceKernel, x: &Strided, dim: usize) -> Result<Strided> {
        let mut shape = x.shape().to_vec();
        if let Some(d) = shape.get_mut(dim) {
            *d = 1;
        }
        meta(&shape, DType::Int64)
    }
    fn scan(
        &self,
        _k: ScanKernel,
        x: &Strided,
        _dim: usize,
        _reverse: bool,
        _exclusive: bool,
    ) -> Result<Strided> {
        meta(&x.shape(), x.dtype())
    }
    fn take(&self, x: &Strided, _plan: &[usize], shape: &[usize]) -> Result<Strided> {
        meta(shape, x.dtype())
    }
    fn put(&self, out: &Strided, _plan: &[usize], vals: &Strided, _add: bool) -> Result<()> {
        same_device(&[out, vals])
    }
    fn mm(&self, a: &Strided, b: &Strided) -> Result<Strided> {
        same_device(&[a, b])?;
        match (a.shape().as_slice(), b.shape().as_slice()) {
            ([m, _], [_, n]) => meta(&[*m, *n], a.dtype()),
            _ => Err(Error::Runtime("mm: operands must be matrices".into())),
        }
    }
    fn bmm(&self, a: &Strided, b: &Strided) -> Result<Strided> {
        same_device(&[a, b])?;
        match (a.shape().as_slice(), b.shape().as_slice()) {
            ([bt, m, _], [_, _, n]) => meta(&[*bt, *m, *n], a.dtype()),
            _ => Err(Error::Runtime("bmm: operands must be 3-D".into())),
        }
    }
}
