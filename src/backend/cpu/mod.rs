//! CPU kernels: strided element loops, casts and copies, reductions and matrix products.
//! Kernels know nothing of autograd; ops (src/ops) call them and record the graph.
pub mod elementwise;
pub mod index;
pub mod layout;
pub mod matmul;
pub mod reduce;

use super::{cast, contiguous, Backend};
use crate::device::Device;
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::shape::{broadcast_shapes, broadcast_strides, MultiIndex};
use crate::tensor::Tensor;
use num_complex::Complex64;

/// The CPU backend.
pub struct Cpu;

impl Backend for Cpu {
    fn empty(&self, shape: &[usize], dtype: DType, _device: Device) -> Result<Tensor> {
        Tensor::zeros(shape, dtype)
    }
    fn fill(&self, t: &Tensor, value: Complex64) -> Result<()> {
        fill(t, value)
    }
    fn copy_into(&self, dst: &Tensor, src: &Tensor) -> Result<()> {
        copy_into(dst, src)
    }
    fn to_device(&self, x: &Tensor, _device: Device) -> Result<Tensor> {
        contiguous(x)
    }
    fn where_(&self, cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
        where_(cond, a, b)
    }
    fn fill_where(&self, t: &Tensor, mask: &Tensor, value: Complex64) -> Result<()> {
        fill_where(t, mask, value)
    }
    fn copy_where(&self, out: &Tensor, cond: &Tensor, src: &Tensor) -> Result<()> {
        copy_where(out, cond, src)
    }
    fn unary(&self, k: super::UnaryKernel, x: &Tensor) -> Result<Tensor> {
        elementwise::unary(k, x)
    }
    fn binary(&self, k: super::BinaryKernel, a: &Tensor, b: &Tensor, dt: DType) -> Result<Tensor> {
        elementwise::binary(k, a, b, dt)
    }
    fn clamp(&self, x: &Tensor, lo: f64, hi: f64) -> Result<Tensor> {
        elementwise::clamp(x, lo, hi)
    }
    fn reduce(
        &self,
        k: super::ReduceKernel,
        x: &Tensor,
        dims: &[usize],
        keepdim: bool,
    ) -> Result<Tensor> {
        reduce::reduce(k, x, dims, keepdim)
    }
    fn argreduce(&self, k: super::ArgReduceKernel, x: &Tensor, dim: usize) -> Result<Tensor> {
        reduce::argreduce(k, x, dim)
    }
    fn scan(
        &self,
        k: super::ScanKernel,
        x: &Tensor,
        dim: usize,
        reverse: bool,
        exclusive: bool,
    ) -> Result<Tensor> {
        reduce::scan(k, x, dim, reverse, exclusive)
    }
    fn take(&self, x: &Tensor, plan: &[usize], shape: &[usize]) -> Result<Tensor> {
        index::take(x, plan, shape)
    }
    fn put(&self, out: &Tensor, plan: &[usize], vals: &Tensor, add: bool) -> Result<()> {
        index::put(out, plan, vals, add)
    }
    fn mm(&self, a: &Tensor, b: &Tensor) -> Result<Tensor> {
        matmul::mm(a, b)
    }
    fn bmm(&self, a: &Tensor, b: &Tensor) -> Result<Tensor> {
        matmul::bmm(a, b)
    }
}

/// Types that support + - * / (every dtype but bool).
#[macro_export]
macro_rules! with_numeric {
    ($dt:expr, $T:ident, $body:block) => {
        match $dt {
            $crate::dtype::DType::Bool => unreachable!("bool is promoted before arithmetic"),
            $crate::dtype::DType::UInt8 => {
                type $T = u8;
                $body
            }
            $crate::dtype::DType::Int32 => {
                type $T = i32;
                $body
            }
            $crate::dtype::DType::Int64 => {
                type $T = i64;
                $body
            }
            $crate::dtype::DType::Float16 => {
                type $T = half::f16;
                $body
            }
            $crate::dtype::DType::BFloat16 => {
                type $T = half::bf16;
                $body
            }
            $crate::dtype::DType::Float32 => {
                type $T = f32;
                $body
            }
            $crate::dtype::DType::Float64 => {
                type $T = f64;
                $body
            }
            $crate::dtype::DType::Complex64 => {
                type $T = num_complex::Complex32;
                $body
            }
            $crate::dtype::DType::Complex128 => {
                type $T = num_complex::Complex64;
                $body
            }
        }
    };
}

/// Floating and complex types (transcendental functions).
#[macro_export]
macro_rules! with_float {
    ($dt:expr, $T:ident, $body:block) => {
        match $dt {
            $crate::dtype::DType::Float32 => {
                type $T = f32;
                $body
            }
            $crate::dtype::DType::Float64 => {
                type $T = f64;
                $body
            }
            $crate::dtype::DType::Complex64 => {
                type $T = num_complex::Complex32;
                $body
            }
            $crate::dtype::DType::Complex128 => {
                type $T = num_complex::Complex64;
                $body
            }
            _ => unreachable!("integer and half inputs are promoted to float before this kernel"),
        }
    };
}

/// Real types with an order (comparisons, relu, max).
#[macro_export]
macro_rules! with_real {
    ($dt:expr, $T:ident, $body:block) => {
        match $dt {
            $crate::dtype::DType::Bool => {
                type $T = bool;
                $body
            }
            $crate::dtype::DType::UInt8 => {
                type $T = u8;
                $body
            }
            $crate::dtype::DType::Int32 => {
                type $T = i32;
                $body
            }
            $crate::dtype::DType::Int64 => {
                type $T = i64;
                $body
            }
            $crate::dtype::DType::Float16 => {
                type $T = half::f16;
                $body
            }
            $crate::dtype::DType::BFloat16 => {
                type $T = half::bf16;
                $body
            }
            $crate::dtype::DType::Float32 => {
                type $T = f32;
                $body
            }
            $crate::dtype::DType::Float64 => {
                type $T = f64;
                $body
            }
            _ => unreachable!("complex inputs are rejected before this kernel"),
        }
    };
}

/// A new contiguous tensor of `shape`, each element `f(input elements...)`.
/// SAFETY of the unsafe blocks below: every `T`/`U` is chosen by the caller to match the dtypes.
/// Element counts from which a loop is split over threads (small tensors never pay for them).
const PARALLEL_FROM: usize = 1 << 16;

/// Threads for an n-element loop: all cores (up to 8) from PARALLEL_FROM elements, else one.
fn threads_for(n: usize) -> usize {
    if n >= PARALLEL_FROM {
        std::thread::available_parallelism()
            .map(|p| p.get())
            .unwrap_or(1)
            .min(8)
    } else {
        1
    }
}

/// Fill `out` with n elements: `fill(start, part)` writes `part` = out[start..start+len], on
/// all cores for large outputs.
fn fill_par<U: Element>(
    out: &mut Vec<U>,
    n: usize,
    fill: impl Fn(usize, &mut [std::mem::MaybeUninit<U>]) + Sync,
) {
    let threads = threads_for(n);
    let spare = &mut out.spare_capacity_mut()[..n];
    if threads <= 1 {
        fill(0, spare);
    } else {
        let chunk = n.div_ceil(threads);
        std::thread::scope(|sc| {
            for (k, part) in spare.chunks_mut(chunk).enumerate() {
                let fill = &fill;
                sc.spawn(move || fill(k * chunk, part));
            }
        });
    }
    // SAFETY: every one of the first n slots was written above.
    unsafe { out.set_len(n) };
}

/// The error of a CPU loop reached with device memory (an op without a CUDA kernel) or with a
/// meta tensor (no memory at all).
fn host_only(ts: &[&crate::tensor::TensorData]) -> Result<()> {
    if ts.iter().any(|d| d.storage.device.is_meta()) {
        return Err(crate::error::no_meta_kernel());
    }
    if ts.iter().any(|d| d.storage.is_cuda()) {
        return Err(crate::error::no_cuda_kernel("this operation"));
    }
    Ok(())
}

/// `host_only` for tensors: an op that reads host memory directly refuses meta tensors.
pub fn no_meta(ts: &[&Tensor]) -> Result<()> {
    if ts.iter().any(|t| t.device().is_meta()) {
        return Err(crate::error::no_meta_kernel());
    }
    Ok(())
}

/// The error of a host-only op when an operand is on a CUDA device.
pub fn no_cuda(ts: &[&Tensor], what: &str) -> Result<()> {
    if ts.iter().any(|t| t.is_cuda()) {
        return Err(crate::error::no_cuda_kernel(what));
    }
    Ok(())
}

pub fn map1<T: Element, U: Element>(x: &Tensor, f: impl Fn(T) -> U + Sync) -> Result<Tensor> {
    let ord = {
        let d = x.data();
        host_only(&[&d])?;
        if d.is_contiguous() {
            None
        } else {
            layout::result_strides(&d.shape, &[(&d.shape, &d.strides)])
        }
    };
    match ord {
        None => map1_rowmajor(x, f),
        Some(st) => {
            let shape = x.shape();
            layout::run_with_strides(&shape, &st, &[x], |ins, _| map1_rowmajor(&ins[0], f))
        }
    }
}

fn map1_rowmajor<T: Element, U: Element>(x: &Tensor, f: impl Fn(T) -> U + Sync) -> Result<Tensor> {
    let d = x.data();
    let n = d.numel();
    let mut out: Vec<U> = alloc_vec(n)?;
    unsafe {
        if let Some(s) = d.contiguous_slice::<T>() {
            fill_par(&mut out, n, |start, part| {
                let end = start + part.len();
                for (o, &v) in part.iter_mut().zip(&s[start..end]) {
                    o.write(f(v));
                }
            });
        } else {
            let src = d.storage.slice::<T>();
            let mut it = MultiIndex::new(&d.shape, [d.strides.clone()], [d.offset as isize]);
            while let Some([o]) = it.next_offsets() {
                out.push(f(src[o as usize]));
            }
        }
    }
    Tensor::from_vec(out, &d.shape)
}

/// Elementwise over two tensors of element types A and B, broadcast to `shape`.
pub fn map2<A: Element, B: Element, U: Element>(
    a: &Tensor,
    b: &Tensor,
    shape: &[usize],
    f: impl Fn(A, B) -> U + Sync,
) -> Result<Tensor> {
    let ord = {
        let (da, db) = (a.data(), b.data());
        host_only(&[&da, &db])?;
        if da.is_contiguous() && db.is_contiguous() {
            None
        } else {
            layout::result_strides(shape, &[(&da.shape, &da.strides), (&db.shape, &db.strides)])
        }
    };
    match ord {
        None => map2_rowmajor(a, b, shape, f),
        Some(st) => layout::run_with_strides(shape, &st, &[a, b], |ins, ps| {
            map2_rowmajor(&ins[0], &ins[1], ps, f)
        }),
    }
}

fn map2_rowmajor<A: Element, B: Element, U: Element>(
    a: &Tensor,
    b: &Tensor,
    shape: &[usize],
    f: impl Fn(A, B) -> U + Sync,
) -> Result<Tensor> {
    let (da, db) = (a.data(), b.data());
    let n = checked_numel(shape)?;
    let mut out: Vec<U> = alloc_vec(n)?;
    unsafe {
        let same = da.shape.as_slice() == shape && db.shape.as_slice() == shape;
        match (same, da.contiguous_slice::<A>(), db.contiguous_slice::<B>()) {
            (true, Some(sa), Some(sb)) => {
                fill_par(&mut out, n, |start, part| {
                    let end = start + part.len();
                    for ((o, &x), &y) in part.iter_mut().zip(&sa[start..end]).zip(&sb[start..end]) {
                        o.write(f(x, y));
                    }
                });
            }
            _ => {
                if da.numel() == 1 && db.shape.as_slice() == shape {
                    if let Some(sb) = db.contiguous_slice::<B>() {
                        let x = da.storage.slice::<A>()[da.offset];
                        out.extend(sb.iter().map(|&y| f(x, y)));
                        return Tensor::from_vec(out, shape);
                    }
                }
                if db.numel() == 1 && da.shape.as_slice() == shape {
                    if let Some(sa) = da.contiguous_slice::<A>() {
                        let y = db.storage.slice::<B>()[db.offset];
                        out.extend(sa.iter().map(|&x| f(x, y)));
                        return Tensor::from_vec(out, shape);
                    }
                }
                let (sa, sb) = (da.storage.slice::<A>(), db.storage.slice::<B>());
                let (ta, tb) = (
                    broadcast_strides(&da.shape, &da.strides, shape),
                    broadcast_strides(&db.shape, &db.strides, shape),
                );
                if shape.is_empty() {
                    out.push(f(sa[da.offset], sb[db.offset]));
                } else {
                    // Odometer over the outer dims, a tight loop over the last one.
                    let nd = shape.len();
                    let (inner, ia, ib) = (shape[nd - 1], ta[nd - 1], tb[nd - 1]);
                    let mut it = MultiIndex::new(
                        &shape[..nd - 1],
                        [ta[..nd - 1].into(), tb[..nd - 1].into()],
                        [da.offset as isize, db.offset as isize],
                    );
                    while let Some([oa, ob]) = it.next_offsets() {
                        for k in 0..inner as isize {
                            out.push(f(sa[(oa + k * ia) as usize], sb[(ob + k * ib) as usize]));
                        }
                    }
                }
            }
        }
    }
    Tensor::from_vec(out, shape)
}

pub use crate::shape::checked_numel;

/// An empty vector with room for `n` elements, or an error naming the size (never an abort).
pub fn alloc_vec<T>(n: usize) -> Result<Vec<T>> {
    let Some(nbytes) = n.checked_mul(std::mem::size_of::<T>()) else {
        return Err(Error::Runtime(format!(
            "Storage size calculation overflowed: {} elements of {} bytes",
            n,
            std::mem::size_of::<T>()
        )));
    };
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        Error::Runtime(format!(
            "[enforce fail at alloc_cpu.cpp] DefaultCPUAllocator: can't allocate memory: you tried to allocate {nbytes} bytes."
        ))
    })?;
    Ok(v)
}

/// Write `src` (broadcast to dst's shape, converted to dst's dtype) into `dst` in place; both
/// in host memory.
pub fn copy_into(dst: &Tensor, src: &Tensor) -> Result<()> {
    let (dd, ds) = (dst.data(), src.data());
    host_only(&[&dd, &ds])?;
    let shape = dd.shape.clone();
    let n = dd.numel();
    if n == 0 {
        return Ok(());
    }
    let same_layout = ds.shape == shape && dd.is_contiguous() && ds.is_contiguous();
    let overlap = std::ptr::eq(dd.storage.as_ptr(), ds.storage.as_ptr());
    if same_layout && !overlap {
        // The common case (in-place ops, casts, clones): one pass over two flat slices.
        crate::with_dtype!(dd.dtype, D, {
            crate::with_dtype!(ds.dtype, S, {
                // SAFETY: D and S match the dtypes; both ranges lie inside their storages.
                unsafe {
                    let out = &mut dd.storage.slice_mut::<D>()[dd.offset..dd.offset + n];
                    let inp = &ds.storage.slice::<S>()[ds.offset..ds.offset + n];
                    if D::DTYPE == S::DTYPE {
                        std::ptr::copy_nonoverlapping(
                            inp.as_ptr() as *const D,
                            out.as_mut_ptr(),
                            n,
                        );
                    } else {
                        for (o, &i) in out.iter_mut().zip(inp) {
                            *o = convert::<S, D>(i);
                        }
                    }
                }
            })
        });
        return Ok(());
    }
    let sstr = broadcast_strides(&ds.shape, &ds.strides, &shape);
    crate::with_dtype!(dd.dtype, D, {
        crate::with_dtype!(ds.dtype, S, {
            // SAFETY: D and S match the dtypes; offsets come from valid layouts.
            unsafe {
                let out = dd.storage.slice_mut::<D>();
                let inp = ds.storage.slice::<S>();
                let mut it = MultiIndex::new(
                    &shape,
                    [dd.strides.clone(), sstr],
                    [dd.offset as isize, ds.offset as isize],
                );
                // Read everything first when the two overlap (x.copy_(x.t())).
                if std::ptr::eq(dd.storage.as_ptr(), ds.storage.as_ptr()) {
                    let mut vals: Vec<(usize, D)> = Vec::with_capacity(dd.numel());
                    while let Some([o, i]) = it.next_offsets() {
                        vals.push((o as usize, convert::<S, D>(inp[i as usize])));
                    }
                    for (o, v) in vals {
                        out[o] = v;
                    }
                } else if shape.is_empty() {
                    out[dd.offset] = convert::<S, D>(inp[ds.offset]);
                } else {
                    // Walk the outer dims with the odometer and the last dim in a tight loop.
                    let nd = shape.len();
                    let (inner, so, si) = (shape[nd - 1], dd.strides[nd - 1], it_last_stride(&it));
                    let mut outer = MultiIndex::new(
                        &shape[..nd - 1],
                        [dd.strides[..nd - 1].into(), it_outer_strides(&it)],
                        [dd.offset as isize, ds.offset as isize],
                    );
                    while let Some([o, i]) = outer.next_offsets() {
                        for k in 0..inner as isize {
                            out[(o + k * so) as usize] =
                                convert::<S, D>(inp[(i + k * si) as usize]);
                        }
                    }
                }
            }
        })
    });
    Ok(())
}

fn it_last_stride(it: &MultiIndex<2>) -> isize {
    *it.strides_of(1).last().expect("non-empty shape")
}

fn it_outer_strides(it: &MultiIndex<2>) -> crate::shape::Strides {
    let s = it.strides_of(1);
    s[..s.len() - 1].into()
}

#[inline(always)]
pub fn convert<S: Element, D: Element>(v: S) -> D {
    if S::DTYPE == D::DTYPE {
        // SAFETY: same type.
        unsafe { std::mem::transmute_copy::<S, D>(&v) }
    } else if S::DTYPE.is_complex() || D::DTYPE.is_complex() {
        D::from_c64(v.to_c64())
    } else {
        D::from_f64(v.to_f64())
    }
}

/// Every element of host tensor `t` (a view, maybe) set to `value`.
pub fn fill(t: &Tensor, value: Complex64) -> Result<()> {
    let d = t.data();
    host_only(&[&d])?;
    if d.numel() == 0 {
        return Ok(());
    }
    crate::with_dtype!(d.dtype, T, {
        let v = T::from_c64(value);
        // SAFETY: T matches dtype.
        unsafe {
            let out = d.storage.slice_mut::<T>();
            if d.is_contiguous() {
                out[d.offset..d.offset + d.numel()].fill(v);
            } else {
                let mut it = MultiIndex::new(&d.shape, [d.strides.clone()], [d.offset as isize]);
                while let Some([o]) = it.next_offsets() {
                    out[o as usize] = v;
                }
            }
        }
    });
    Ok(())
}

/// `t[mask] = value` in place (mask already broadcast to t's shape, contiguous t).
pub fn fill_where(t: &Tensor, mask: &Tensor, value: Complex64) -> Result<()> {
    let m = contiguous(&super::broadcast_to(mask, &t.shape())?)?.try_to_vec::<bool>()?;
    let d = t.data();
    crate::with_dtype!(d.dtype, T, {
        let v = T::from_c64(value);
        // SAFETY: T matches dtype; t is a fresh contiguous tensor.
        let out = unsafe { &mut d.storage.slice_mut::<T>()[d.offset..d.offset + d.numel()] };
        for (o, &b) in out.iter_mut().zip(&m) {
            if b {
                *o = v;
            }
        }
    });
    Ok(())
}

/// `out = where(cond, src, out)` for contiguous `out` and `src` of out's shape and dtype.
pub fn copy_where(out: &Tensor, cond: &Tensor, src: &Tensor) -> Result<()> {
    let m = contiguous(cond)?.try_to_vec::<bool>()?;
    let src = cast(src, out.dtype())?;
    let d = out.data();
    crate::with_dtype!(d.dtype, T, {
        let s = src.try_to_vec::<T>()?;
        // SAFETY: T matches dtype; out is contiguous with numel elements from offset.
        let o = unsafe { &mut d.storage.slice_mut::<T>()[d.offset..d.offset + d.numel()] };
        for ((o, &b), &v) in o.iter_mut().zip(&m).zip(&s) {
            if b {
                *o = v;
            }
        }
    });
    Ok(())
}

/// `cond ? a : b` broadcast, a and b of one dtype, in PyTorch's result layout.
pub fn where_(cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let shape = broadcast_shapes(&broadcast_shapes(&cond.shape(), &a.shape())?, &b.shape())?;
    let rowmajor = |c: &Tensor, a: &Tensor, b: &Tensor, shape: &[usize]| -> Result<Tensor> {
        let out = contiguous(&super::broadcast_to(b, shape)?)?;
        let av = contiguous(&super::broadcast_to(a, shape)?)?;
        copy_where(&out, &super::broadcast_to(c, shape)?, &av)?;
        Ok(out)
    };
    let ord = if [cond, a, b].iter().all(|t| t.is_contiguous()) {
        None
    } else {
        let ds = [cond.data(), a.data(), b.data()];
        let ops: Vec<(&[usize], &[isize])> =
            ds.iter().map(|d| (&d.shape[..], &d.strides[..])).collect();
        layout::result_strides(&shape, &ops)
    };
    match ord {
        None => rowmajor(cond, a, b, &shape),
        Some(st) => layout::run_with_strides(&shape, &st, &[cond, a, b], |i, ps| {
            rowmajor(&i[0], &i[1], &i[2], ps)
        }),
    }
}

/// `out = f(a, b)` written straight into `out`'s memory, for contiguous same-shape operands
/// (the `out=` fast path). Returns false (nothing written) when the layouts do not allow it.
pub fn map2_into<T: Element>(
    a: &Tensor,
    b: &Tensor,
    out: &Tensor,
    f: impl Fn(T, T) -> T + Sync,
) -> bool {
    let (da, db, dout) = (a.data(), b.data(), out.data());
    if !da.storage.is_host() || !db.storage.is_host() || !dout.storage.is_host() {
        return false;
    }
    if da.shape != dout.shape || db.shape != dout.shape || !dout.is_contiguous() {
        return false;
    }
    // SAFETY: T matches the dtypes (checked by the caller); ranges lie inside the storages;
    // the output does not alias an input (checked).
    unsafe {
        let (Some(sa), Some(sb)) = (da.contiguous_slice::<T>(), db.contiguous_slice::<T>()) else {
            return false;
        };
        if std::ptr::eq(dout.storage.as_ptr(), da.storage.as_ptr())
            || std::ptr::eq(dout.storage.as_ptr(), db.storage.as_ptr())
        {
            return false;
        }
        let n = dout.numel();
        if n == 0 {
            return true;
        }
        let o = &mut dout.storage.slice_mut::<T>()[dout.offset..dout.offset + n];
        let threads = threads_for(n);
        let chunk = n.div_ceil(threads).max(1);
        std::thread::scope(|sc| {
            for (k, part) in o.chunks_mut(chunk).enumerate() {
                let f = &f;
                let (xa, xb) = (
                    &sa[k * chunk..k * chunk + part.len()],
                    &sb[k * chunk..k * chunk + part.len()],
                );
                sc.spawn(move || {
                    for ((o, &x), &y) in part.iter_mut().zip(xa).zip(xb) {
                        *o = f(x, y);
                    }
                });
            }
        });
    }
    true
}
