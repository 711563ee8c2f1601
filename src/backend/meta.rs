//! The meta backend: tensors with a shape and a dtype and no memory. Making, moving, viewing
//! and filling them works; computing on them raises (PyTorch runs ops shape-only there).
use super::Backend;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{meta_has_no_data, no_meta_kernel, Result};
use crate::tensor::Tensor;
use num_complex::Complex64;

pub struct Meta;

impl Backend for Meta {
    fn empty(&self, shape: &[usize], dtype: DType, _device: Device) -> Result<Tensor> {
        Tensor::on_meta(shape, dtype)
    }
    fn fill(&self, _t: &Tensor, _value: Complex64) -> Result<()> {
        Ok(()) // no values to set (PyTorch's fill_ of a meta tensor)
    }
    fn copy_into(&self, dst: &Tensor, _src: &Tensor) -> Result<()> {
        if dst.device().is_meta() {
            Ok(()) // nothing to write (as PyTorch's copy_ into a meta tensor)
        } else {
            Err(meta_has_no_data())
        }
    }
    fn to_device(&self, x: &Tensor, device: Device) -> Result<Tensor> {
        if device.is_meta() {
            // only the shape and dtype travel
            Tensor::on_meta(&x.shape(), x.dtype())
        } else {
            Err(meta_has_no_data())
        }
    }
    fn where_(&self, _cond: &Tensor, _a: &Tensor, _b: &Tensor) -> Result<Tensor> {
        Err(no_meta_kernel())
    }
    fn fill_where(&self, _t: &Tensor, _mask: &Tensor, _value: Complex64) -> Result<()> {
        Err(no_meta_kernel())
    }
    fn copy_where(&self, _out: &Tensor, _cond: &Tensor, _src: &Tensor) -> Result<()> {
        Err(no_meta_kernel())
    }
    fn unary(&self, _k: super::UnaryKernel, _x: &Tensor) -> Result<Tensor> {
        Err(no_meta_kernel())
    }
    fn binary(
        &self,
        _k: super::BinaryKernel,
        _a: &Tensor,
        _b: &Tensor,
        _dt: DType,
    ) -> Result<Tensor> {
        Err(no_meta_kernel())
    }
    fn clamp(&self, _x: &Tensor, _lo: f64, _hi: f64) -> Result<Tensor> {
        Err(no_meta_kernel())
    }
    fn reduce(
        &self,
        _k: super::ReduceKernel,
        _x: &Tensor,
        _dims: &[usize],
        _keepdim: bool,
    ) -> Result<Tensor> {
        Err(no_meta_kernel())
    }
    fn argreduce(&self, _k: super::ArgReduceKernel, _x: &Tensor, _dim: usize) -> Result<Tensor> {
        Err(no_meta_kernel())
    }
    fn scan(
        &self,
        _k: super::ScanKernel,
        _x: &Tensor,
        _dim: usize,
        _reverse: bool,
        _exclusive: bool,
    ) -> Result<Tensor> {
        Err(no_meta_kernel())
    }
    fn take(&self, _x: &Tensor, _plan: &[usize], _shape: &[usize]) -> Result<Tensor> {
        Err(no_meta_kernel())
    }
    fn put(&self, _out: &Tensor, _plan: &[usize], _vals: &Tensor, _add: bool) -> Result<()> {
        Err(no_meta_kernel())
    }
    fn mm(&self, _a: &Tensor, _b: &Tensor) -> Result<Tensor> {
        Err(no_meta_kernel())
    }
    fn bmm(&self, _a: &Tensor, _b: &Tensor) -> Result<Tensor> {
        Err(no_meta_kernel())
    }
}
