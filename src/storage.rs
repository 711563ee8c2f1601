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
    memory: Memory,
    pub version: std::sync::Arc<AtomicU32>,
}

/// Where a storage's bytes live: the one enum over the devices' memory.
pub enum Memory {
    /// Host memory that CPU loops read and write.
    Host {
        ptr: *mut u8,
        nbytes: usize,
        owner: Owner,
    },
    /// Memory of the CUDA device `ordinal` at device address `ptr`, freed when `owner` drops.
    Cuda {
        ptr: u64,
        nbytes: usize,
        ordinal: usize,
        owner: Box<dyn Any + Send + Sync>,
    },
    /// A meta tensor's storage: a device and no memory.
    Meta,
}

/// Who frees host memory.
pub enum Owner {
    /// A buffer from `alloc`/a Vec, freed with the layout it was allocated with.
    Raw(Layout),
    /// Memory of a foreign owner (a numpy array), kept alive while we are.
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
    fn new(memory: Memory) -> Storage {
        Storage {
            memory,
            version: std::sync::Arc::new(AtomicU32::new(0)),
        }
    }

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
        Ok(Storage::new(Memory::Host {
            ptr,
            nbytes,
            owner: Owner::Raw(layout),
        }))
    }

    /// Take over a Vec's buffer without copying.
    pub fn from_vec<T: Element>(data: Vec<T>) -> Storage {
        let mut data = std::mem::ManuallyDrop::new(data);
        let nbytes = data.len() * std::mem::size_of::<T>();
        let layout = Layout::array::<T>(data.capacity()).expect("a Vec's own layout");
        let ptr = data.as_mut_ptr() as *mut u8;
        Storage::new(Memory::Host {
            ptr,
            nbytes,
            owner: Owner::Raw(layout),
        })
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
        Storage::new(Memory::Host {
            ptr,
            nbytes,
            owner: Owner::Foreign(owner),
        })
    }

    /// Memory of CUDA device `ordinal` at `ptr` (a device address), freed when `owner` drops.
    ///
    /// # Safety
    /// `ptr` must address `nbytes` of memory on that device while `owner` lives.
    pub unsafe fn device_memory(
        ptr: u64,
        nbytes: usize,
        ordinal: usize,
        owner: Box<dyn Any + Send + Sync>,
    ) -> Storage {
        Storage::new(Memory::Cuda {
            ptr,
            nbytes,
            ordinal,
            owner,
        })
    }

    /// Storage of a meta tensor: a device and no memory (`as_ptr` is null, as PyTorch's
    /// `data_ptr()` of a meta tensor is 0).
    pub fn meta() -> Storage {
        Storage::new(Memory::Meta)
    }

    pub fn memory(&self) -> &Memory {
        &self.memory
    }
    /// The device the memory lives on.
    pub fn device(&self) -> Device {
        match self.memory {
            Memory::Host { .. } => Device::Cpu,
            Memory::Cuda { ordinal, .. } => Device::Cuda(ordinal),
            Memory::Meta => Device::Meta,
        }
    }
    pub fn is_cuda(&self) -> bool {
        matches!(self.memory, Memory::Cuda { .. })
    }
    /// Whether the memory is host memory that CPU loops may read.
    pub fn is_host(&self) -> bool {
        matches!(self.memory, Memory::Host { .. })
    }
    /// The device address of CUDA memory (0 for other memory).
    pub fn device_ptr(&self) -> u64 {
        match self.memory {
            Memory::Cuda { ptr, .. } => ptr,
            _ => 0,
        }
    }

    pub fn nbytes(&self) -> usize {
        match self.memory {
            Memory::Host { nbytes, .. } | Memory::Cuda { nbytes, .. } => nbytes,
            Memory::Meta => 0,
        }
    }
    /// The address of the first byte: a host address, a device address for CUDA memory,
    /// null for a meta storage.
    pub fn as_ptr(&self) -> *mut u8 {
        match self.memory {
            Memory::Host { ptr, .. } => ptr,
            Memory::Cuda { ptr, .. } => ptr as usize as *mut u8,
            Memory::Meta => std::ptr::null_mut(),
        }
    }

    /// The host bytes, when the memory is on the host.
    fn host(&self) -> Option<(*mut u8, usize)> {
        match self.memory {
            Memory::Host { ptr, nbytes, .. } => Some((ptr, nbytes)),
            _ => None,
        }
    }

    /// Typed view of the whole buffer.
    ///
    /// # Safety
    /// The caller picks `T` matching the tensor's dtype; aliasing writes through views are the
    /// same contract PyTorch has.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn slice_mut<T: Element>(&self) -> &mut [T] {
        // Device memory is never host-addressable (and meta tensors have none): a CPU kernel
        // reached with one (a missed device check) sees no elements rather than reading a
        // device address.
        match self.host() {
            Some((ptr, nbytes)) => {
                std::slice::from_raw_parts_mut(ptr as *mut T, nbytes / std::mem::size_of::<T>())
            }
            None => &mut [],
        }
    }
    /// # Safety
    /// `T` must match the tensor's dtype.
    #[inline]
    pub unsafe fn slice<T: Element>(&self) -> &[T] {
        match self.host() {
            Some((ptr, nbytes)) => {
                std::slice::from_raw_parts(ptr as *const T, nbytes / std::mem::size_of::<T>())
            }
            None => &[],
        }
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        if let Memory::Host {
            ptr,
            owner: Owner::Raw(layout),
            ..
        } = self.memory
        {
            if layout.size() != 0 {
                // SAFETY: `ptr` was allocated with exactly this layout (zeroed / from_vec).
                unsafe { std::alloc::dealloc(ptr, layout) };
            }
        }
    }
}
