//! The CUDA backend proper (feature `cuda`): driver probe, per-device context, stream, kernel
//! module and cuBLAS handle, and the launches.
//!
//! - `runtime`: the driver probe, devices, NVRTC compilation and the kernel cache.
//! - `launch`: kernel arguments, strided layouts and launches.
//! - `memory`: device buffers, host/device copies, fills.
//! - `compute`: elementwise kernels, reductions and scans.
//! - `linalg`: cuBLAS matrix products. `index`: gathers and scatters by index plans, and the
//!   plans of convolution and max pooling built on the device.
use super::{
    kernel_table, source, type_name, ArgReduceKernel, BinaryKernel, Im2col, PoolWindows,
    ReduceKernel, ScanKernel, UnaryKernel,
};
use crate::backend::Strided;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{no_cuda_kernel, Error, Result};
use crate::shape::{broadcast_strides, contiguous_strides};
use crate::storage::Storage;
use cudarc::driver::{
    result as dresult, CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DeviceRepr,
    LaunchConfig, PushKernelArg,
};
use num_complex::Complex64;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

mod compute;
mod emulation;
mod index;
mod launch;
mod linalg;
mod memory;
mod runtime;

pub use compute::{argreduce, binary, normal_fill, reduce, scan, unary, where_};
pub use index::{im2col_index, max_pool_index, put, put_idx, take, take_idx};
pub use launch::launch_counts;
pub use linalg::bmm;
pub use memory::{copy_into, empty, fill, memory_allocated, to_device};
pub use runtime::{compile_ptx, driver, properties, rng_launch, synchronize};

use compute::*;
use launch::*;
use memory::*;
use runtime::*;
