//! What a kernel sees of a tensor: its storage, its layout (shape, strides, offset) and its
//! dtype. Kernels take and return these, never a `Tensor`: autograd metadata, a view's base,
//! the version counter and the wrapped-number flag stay above the backend, in src/tensor.rs.
//! The dispatch functions of `backend` (`backend::unary(k, &tensor)`, ...) convert at the
//! boundary: `Tensor::strided` in, `Tensor::from_strided` out.
use crate::device::Device;
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::shape::{contiguous_strides, is_contiguous, numel, Shape, Strides};
use crate::storage::Storage;
use std::sync::Arc;

/// A storage and a layout over it, with the element type.
#[derive(Clone)]
pub struct Strided {
    pub storage: Arc<Storage>,
    pub shape: Shape,
    pub strides: Strides,
    /// In elements.
    pub offset: usize,
    pub dtype: DType,
}

impl std::fmt::Debug for Strided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Strided({:?}, {:?}, {:?}, +{}, {})",
            self.dtype,
            self.shape.as_slice(),
            self.strides.as_slice(),
            self.offset,
            self.device()
        )
    }
}

fn nbytes(shape: &[usize], dtype: DType) -> Result<usize> {
    crate::shape::checked_numel(shape)?
        .checked_mul(dtype.size())
        .ok_or_else(|| Error::Runtime("Storage size calculation overflowed".into()))
}

impl Strided {
    /// The whole of `storage`, row-major.
    #[inline]
    pub fn contiguous_over(storage: Storage, shape: &[usize], dtype: DType) -> Strided {
        Strided {
            storage: Arc::new(storage),
            shape: Shape::from_slice(shape),
            strides: contiguous_strides(shape),
            offset: 0,
            dtype,
        }
    }

    /// A Vec's elements, row-major, without copying.
    #[inline]
    pub fn from_vec<T: Element>(v: Vec<T>, shape: &[usize]) -> Result<Strided> {
        if v.len() != numel(shape) {
            return Err(Error::Runtime(format!(
                "shape '{}' is invalid for input of size {}",
                crate::shape::fmt_shape(shape),
                v.len()
            )));
        }
        Ok(Strided::contiguous_over(
            Storage::from_vec(v),
            shape,
            T::DTYPE,
        ))
    }

    /// Zeros in host memory.
    pub fn zeros(shape: &[usize], dtype: DType) -> Result<Strided> {
        let n = nbytes(shape, dtype)?;
        Ok(Strided::contiguous_over(Storage::zeroed(n)?, shape, dtype))
    }

    /// `value` everywhere, in host memory.
    pub fn full(shape: &[usize], value: num_complex::Complex64, dtype: DType) -> Result<Strided> {
        let t = Strided::zeros(shape, dtype)?;
        super::cpu::fill(&t, value)?;
        Ok(t)
    }

    /// A shape and a dtype on the meta device, no memory.
    pub fn meta(shape: &[usize], dtype: DType) -> Result<Strided> {
        nbytes(shape, dtype)?;
        Ok(Strided::contiguous_over(Storage::meta(), shape, dtype))
    }

    /// The same memory seen with another layout.
    #[inline]
    pub fn restrided(&self, shape: &[usize], strides: &[isize], offset: usize) -> Strided {
        Strided {
            storage: self.storage.clone(),
            shape: Shape::from_slice(shape),
            strides: Strides::from_slice(strides),
            offset,
            dtype: self.dtype,
        }
    }

    #[inline]
    pub fn shape(&self) -> Shape {
        Shape::from_slice(&self.shape)
    }
    #[inline]
    pub fn dtype(&self) -> DType {
        self.dtype
    }
    #[inline]
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }
    #[inline]
    pub fn numel(&self) -> usize {
        numel(&self.shape)
    }
    #[inline]
    pub fn is_contiguous(&self) -> bool {
        is_contiguous(&self.shape, &self.strides)
    }
    #[inline]
    pub fn device(&self) -> Device {
        self.storage.device()
    }
    #[inline]
    pub fn is_cuda(&self) -> bool {
        self.storage.is_cuda()
    }

    /// The elements in logical order, when the layout allows a plain host slice.
    ///
    /// # Safety
    /// `T` must match `dtype`.
    pub unsafe fn contiguous_slice<T: Element>(&self) -> Option<&[T]> {
        if !self.storage.is_host() || !self.is_contiguous() {
            return None;
        }
        let n = self.numel();
        if n == 0 {
            return Some(&[]);
        }
        let s = self.storage.slice::<T>();
        Some(&s[self.offset..self.offset + n])
    }

    /// Seen with `shape` (broadcast: size-1 dims get stride 0), sharing the memory.
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Strided> {
        if self.shape.as_slice() == shape {
            return Ok(self.clone());
        }
        let strides = crate::shape::expand_strides(&self.shape, &self.strides, shape)?;
        Ok(self.restrided(shape, &strides, self.offset))
    }

    /// A contiguous copy in `dtype` on the same device (fresh memory even when nothing changes).
    pub fn cast(&self, dtype: DType) -> Result<Strided> {
        let dev = self.device();
        let b = super::on(dev);
        let out = b.empty(&self.shape, dtype, dev)?;
        b.copy_into(&out, self)?;
        Ok(out)
    }

    /// A contiguous copy.
    pub fn contiguous(&self) -> Result<Strided> {
        self.cast(self.dtype)
    }

    /// `cast` keeping the memory layout as PyTorch's elementwise results do.
    pub fn cast_keep(&self, dtype: DType) -> Result<Strided> {
        if self.numel() == 0 {
            // TensorIterator counts an empty operand as contiguous: a row-major result
            let mut out = self.cast(dtype)?;
            out.strides = crate::shape::contiguous_strides(&self.shape);
            return Ok(out);
        }
        if self.is_contiguous() {
            return self.cast(dtype);
        }
        super::cpu::layout::copy_with_layout(self, dtype)
    }

    /// [`Strided::cast_keep`], but an empty tensor keeps its strides exactly: PyTorch counts
    /// every empty tensor as contiguous, so its preserve_format copies (`clone()`, `.double()`)
    /// keep them (`empty(0, 3).t().double().stride()` is (1, 3)), and TensorIterator reads
    /// the layout of an operand it casts from the operand itself.
    pub fn cast_exact(&self, dtype: DType) -> Result<Strided> {
        if self.numel() == 0 {
            let mut out = self.cast(dtype)?;
            out.strides = self.strides.clone();
            return Ok(out);
        }
        self.cast_keep(dtype)
    }
}

impl Strided {
    /// The elements in logical order as `T` (converted from the stored dtype), copied to the
    /// host.
    pub fn try_to_vec<T: Element>(&self) -> Result<Vec<T>> {
        if self.device().is_meta() {
            return Err(crate::error::meta_has_no_data());
        }
        if self.is_cuda() {
            return super::on(self.device())
                .to_device(self, Device::Cpu)?
                .try_to_vec();
        }
        let c = self.cast(T::DTYPE)?;
        // SAFETY: `cast` returns contiguous host memory of T::DTYPE.
        unsafe { c.contiguous_slice::<T>() }
            .map(|s| s.to_vec())
            .ok_or_else(|| Error::Runtime("internal error: a cast is not contiguous".into()))
    }
}

impl Strided {
    /// The single element of host memory as a complex number (real dtypes have im = 0).
    pub fn item(&self) -> Result<num_complex::Complex64> {
        let n = self.numel();
        if n != 1 {
            return Err(Error::Runtime(format!(
                "a Tensor with {} elements cannot be converted to Scalar",
                n
            )));
        }
        let v = self.try_to_vec::<num_complex::Complex64>()?;
        Ok(v[0])
    }
}
