//! Flat byte buffers shared by a tensor and its views. A buffer is either owned (allocated here
//! or taken over from a kernel's Vec) or borrowed from a foreign owner (a numpy array) that is
//! kept alive for as long as we are. The version counter lives here too: every tensor over a
//! storage (views, `detach()` results) shares it.
use crate::device::Device;
use crate::dtype::Element;
use crate::error::{Error, Result};
use std::alloc::Layout;
use std::any::Any;
use std::sync::atomic::AtomicU32;

pub struct Storage {
    /// Host address, or the device address for CUDA memory.
    ptr: *mut u8,
    nbytes: usize,
    owner: Owner,
    pub version: AtomicU32,
    pub device: Device,
}

enum Owner {
    /// A buffer from `alloc`/a Vec, freed with the layout it was allocated with.
    Raw(Layout),
    Foreign(#[allow(dead_code)] Box<dyn Any + Send + Sync>),
}

// SAFETY: the buffer is plain memory; concurrent writes are the caller's race to avoid, exactly as
// with PyTorch's storages (the Python layer serialises through the GIL).
unsafe impl Send for Storage {}
unsafe impl Sync for Storage {}

fn alloc_error(nbytes: usize) -> Error {
    Error::Runtime(format!(
        "[enforce fail at alloc_cpu.cpp] DefaultCPUAllocator: can't allocate memory: you tried to allocate {} bytes.",
        nbytes
    ))
}

impl Storage {
    pub fn zeroed(nbytes: usize) -> Result<Storage> {
        // 16-byte alignment covers every element type (complex128 included).
        let layout = Layout::from_size_align(nbytes, 16).map_err(|_| alloc_error(nbytes))?;
        let ptr = if nbytes == 0 {
            layout.align() as *mut u8
        } else {
            // SAFETY: non-zero size.
            let p = unsafe { std::alloc::alloc_zeroed(layout) };
            if p.is_null() {
                return Err(alloc_error(nbytes));
            }
            p
        };
        Ok(Storage {
            ptr,
            nbytes,
            owner: Owner::Raw(layout),
            version: AtomicU32::new(0),
            device: Device::Cpu,
        })
    }

    /// Take over a Vec's buffer without copying.
    pub fn from_vec<T: Element>(data: Vec<T>) -> Storage {
        let mut data = std::mem::ManuallyDrop::new(data);
        let nbytes = data.len() * std::mem::size_of::<T>();
        let layout = Layout::array::<T>(data.capacity()).expect("a Vec's own layout");
        let ptr = data.as_mut_ptr() as *mut u8;
        Storage {
            ptr,
            nbytes,
            owner: Owner::Raw(layout),
            version: AtomicU32::new(0),
            device: Device::Cpu,
        }
    }

    /// Wrap foreign memory.
    ///
    /// # Safety
    /// `ptr` must stay valid for `nbytes` while `owner` lives.
    pub unsafe fn foreign(
        ptr: *mut u8,
        nbytes: usize,
        owner: Box<dyn Any + Send + Sync>,
    ) -> Storage {
        Storage {
            ptr,
            nbytes,
            owner: Owner::Foreign(owner),
            version: AtomicU32::new(0),
            device: Device::Cpu,
        }
    }

    /// Device memory at `ptr` (a CUDA device address), freed when `owner` drops.
    ///
    /// # Safety
    /// `ptr` must address `nbytes` of memory on `device` while `owner` lives.
    pub unsafe fn device_memory(
        ptr: u64,
        nbytes: usize,
        device: Device,
        owner: Box<dyn Any + Send + Sync>,
    ) -> Storage {
        Storage {
            ptr: ptr as usize as *mut u8,
            nbytes,
            owner: Owner::Foreign(owner),
            version: AtomicU32::new(0),
            device,
        }
    }

    pub fn is_cuda(&self) -> bool {
        self.device.is_cuda()
    }
    /// Storage of a meta tensor: a device and no memory (`as_ptr` is null, as PyTorch's
    /// `data_ptr()` of a meta tensor is 0).
    pub fn meta() -> Storage {
        Storage {
            ptr: std::ptr::null_mut(),
            nbytes: 0,
            owner: Owner::Foreign(Box::new(())),
            version: AtomicU32::new(0),
            device: crate::device::Device::Meta,
        }
    }
    /// Whether the memory is host memory that CPU loops may read.
    pub fn is_host(&self) -> bool {
        self.device == crate::device::Device::Cpu
    }
    /// The device address of CUDA memory.
    pub fn device_ptr(&self) -> u64 {
        self.ptr as usize as u64
    }

    pub fn nbytes(&self) -> usize {
        self.nbytes
    }
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }

    /// Typed view of the whole buffer.
    ///
    /// # Safety
    /// The caller picks `T` matching the tensor's dtype; aliasing writes through views are the
    /// same contract PyTorch has.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn slice_mut<T: Element>(&self) -> &mut [T] {
        if !self.is_host() {
            // Device memory is never host-addressable (and meta tensors have none): a CPU
            // kernel reached with one (a missed device check) sees no elements rather than
            // reading a device address.
            return &mut [];
        }
        std::slice::from_raw_parts_mut(self.ptr as *mut T, self.nbytes / std::mem::size_of::<T>())
    }
    /// # Safety
    /// `T` must match the tensor's dtype.
    #[inline]
    pub unsafe fn slice<T: Element>(&self) -> &[T] {
        if !self.is_host() {
            return &[];
        }
        std::slice::from_raw_parts(self.ptr as *const T, self.nbytes / std::mem::size_of::<T>())
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        if let Owner::Raw(layout) = self.owner {
            if layout.size() != 0 {
                // SAFETY: `ptr` was allocated with exactly this layout (zeroed / from_vec).
                unsafe { std::alloc::dealloc(self.ptr, layout) };
            }
        }
    }
}
