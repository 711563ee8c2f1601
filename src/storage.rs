//! Flat byte buffers shared by a tensor and its views. A buffer is either owned (allocated here)
//! or borrowed from a foreign owner (a numpy array) that is kept alive for as long as we are.
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use std::any::Any;

pub struct Storage {
    ptr: *mut u8,
    nbytes: usize,
    owner: Owner,
}

enum Owner {
    /// u64 words so every element type is aligned.
    Owned(#[allow(dead_code)] Vec<u64>),
    Foreign(#[allow(dead_code)] Box<dyn Any + Send + Sync>),
}

// SAFETY: the buffer is plain memory; concurrent writes are the caller's race to avoid, exactly as
// with PyTorch's storages (the Python layer serialises through the GIL).
unsafe impl Send for Storage {}
unsafe impl Sync for Storage {}

impl Storage {
    pub fn zeroed(nbytes: usize) -> Result<Storage> {
        let words = nbytes.div_ceil(8);
        let mut v: Vec<u64> = Vec::new();
        v.try_reserve_exact(words).map_err(|_| {
            Error::Runtime(format!(
                "[enforce fail at alloc_cpu.cpp] DefaultCPUAllocator: can't allocate memory: you tried to allocate {} bytes.",
                nbytes
            ))
        })?;
        v.resize(words, 0);
        let ptr = v.as_mut_ptr() as *mut u8;
        Ok(Storage {
            ptr,
            nbytes,
            owner: Owner::Owned(v),
        })
    }

    pub fn from_vec<T: Element>(data: Vec<T>) -> Storage {
        let n = data.len() * std::mem::size_of::<T>();
        let s = Storage::zeroed(n).expect("allocation of a buffer that already exists");
        // SAFETY: both regions are n bytes, distinct allocations.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr() as *const u8, s.ptr, n) };
        s
    }

    /// Wrap foreign memory. SAFETY: `ptr` must stay valid for `nbytes` while `owner` lives.
    pub unsafe fn foreign(
        ptr: *mut u8,
        nbytes: usize,
        owner: Box<dyn Any + Send + Sync>,
    ) -> Storage {
        Storage {
            ptr,
            nbytes,
            owner: Owner::Foreign(owner),
        }
    }

    pub fn nbytes(&self) -> usize {
        self.nbytes
    }
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }
    pub fn is_foreign(&self) -> bool {
        matches!(self.owner, Owner::Foreign(_))
    }

    /// Typed view of the whole buffer.
    ///
    /// SAFETY: the caller picks `T` matching the tensor's dtype; aliasing writes through views are
    /// the same contract PyTorch has.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn slice_mut<T: Element>(&self) -> &mut [T] {
        std::slice::from_raw_parts_mut(self.ptr as *mut T, self.nbytes / std::mem::size_of::<T>())
    }
    #[inline]
    pub unsafe fn slice<T: Element>(&self) -> &[T] {
        std::slice::from_raw_parts(self.ptr as *const T, self.nbytes / std::mem::size_of::<T>())
    }
}

pub fn check_elem<T: Element>(d: DType) {
    debug_assert_eq!(T::DTYPE, d);
}
