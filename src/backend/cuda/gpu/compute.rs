//! Elementwise kernels (unary, binary, where), reductions, arg-reductions and scans.

use super::*;

/// float16 / bfloat16 compute in float32 (the result rounds once, back to the half type).
pub(super) fn wide(x: &Strided) -> Result<Strided> {
    (x).cast(DType::Float32)
}

pub fn unary(op: UnaryKernel, x: &Strided) -> Result<Strided> {
    if x.dtype().is_half() {
        return unary(op, &wide(x)?)?.cast(x.dtype());
    }
    let i = device_of(x)?;
    let d = dev(i)?;
    let (shape, dt) = (x.shape(), x.dtype());
    let name = format!("unary_{}_{}", op.name(), type_name(dt)?);
    // |z| and arg z of complex numbers are real.
    let out_dt = if dt.is_complex() && matches!(op, UnaryKernel::Abs | UnaryKernel::Angle) {
        dt.to_real()
    } else {
        dt
    };
    let out = empty(&shape, out_dt, Device::Cuda(i))?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let xd = x;
    let l = strided(
        &shape,
        &[(&contiguous_strides(&shape), 0), (&xd.strides, xd.offset)],
    )?;
    let args = [
        Arg::L(l),
        Arg::P(base(&out)),
        Arg::P(xd.storage.device_ptr()),
    ];
    launch(d, &name, grid_dense(&l, 2, 0), &args)?;
    Ok(out)
}

/// A CPU 0-d operand becomes a kernel scalar; anything else must be on `dev`.
pub(super) fn operand(t: &Strided, device: Device) -> Result<Option<Complex64>> {
    let here = t.storage.device();
    if here == device {
        return Ok(None);
    }
    if here == Device::Cpu && t.ndim() == 0 {
        return Ok(Some(t.item()?));
    }
    Err(crate::device::mismatch(device, here))
}

pub fn binary(op: BinaryKernel, a: &Strided, b: &Strided, dt: DType) -> Result<Strided> {
    if dt.is_half() {
        let r = binary(op, &wide(a)?, &wide(b)?, DType::Float32)?;
        return if r.dtype() == DType::Bool {
            Ok(r)
        } else {
            r.cast(dt)
        };
    }
    let device = super::super::common_device(&[a, b])?;
    let Device::Cuda(i) = device else {
        return Err(Error::Runtime(
            "internal error: a CPU operation reached the CUDA backend".into(),
        ));
    };
    let d = dev(i)?;
    let (sa, sb) = (operand(a, device)?, operand(b, device)?);
    let shape = crate::shape::broadcast_shapes(&a.shape(), &b.shape())?;
    let comparison = matches!(op, BinaryKernel::Cmp(_));
    let out_dt = if comparison { DType::Bool } else { dt };
    let name = format!("binary_{}_{}", op.name(), type_name(dt)?);
    let out = empty(&shape, out_dt, device)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let (da, db) = (a, b);
    let zeros: Vec<isize> = vec![0; shape.len()];
    let stra = if sa.is_some() {
        zeros.clone()
    } else {
        broadcast_strides(&da.shape, &da.strides, &shape).to_vec()
    };
    let strb = if sb.is_some() {
        zeros
    } else {
        broadcast_strides(&db.shape, &db.strides, &shape).to_vec()
    };
    let l = strided(
        &shape,
        &[
            (&contiguous_strides(&shape), 0),
            (&stra, da.offset),
            (&strb, db.offset),
        ],
    )?;
    let mode = sa.is_some() as i32 | ((sb.is_some() as i32) << 1);
    let ptr = |t: &crate::backend::Strided, s: &Option<Complex64>| {
        if s.is_some() {
            0
        } else {
            t.storage.device_ptr()
        }
    };
    let args = [
        Arg::L(l),
        Arg::P(base(&out)),
        Arg::P(ptr(da, &sa)),
        Arg::P(ptr(db, &sb)),
        scalar_arg(dt, sa.unwrap_or_default()),
        scalar_arg(dt, sb.unwrap_or_default()),
        Arg::I32(mode),
    ];
    launch(d, &name, grid_dense(&l, 3, (mode as u32) << 1), &args)?;
    Ok(out)
}

pub fn where_(cond: &Strided, a: &Strided, b: &Strided) -> Result<Strided> {
    let device = super::super::common_device(&[cond, a, b])?;
    let Device::Cuda(i) = device else {
        return Err(Error::Runtime(
            "internal error: a CPU operation reached the CUDA backend".into(),
        ));
    };
    let d = dev(i)?;
    // CPU 0-d operands are moved over (a few bytes).
    let on = |t: &Strided| -> Result<Strided> {
        if t.storage.device() == device {
            Ok(t.clone())
        } else {
            to_device(t, device)
        }
    };
    let (c, a, b) = (on(cond)?, on(a)?, on(b)?);
    let shape = crate::shape::broadcast_shapes(
        &crate::shape::broadcast_shapes(&c.shape(), &a.shape())?,
        &b.shape(),
    )?;
    let dt = a.dtype();
    let name = format!("where_{}", type_name(dt)?);
    let out = empty(&shape, dt, device)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let (dc, da, db) = (c, a, b);
    let bs = |t: &crate::backend::Strided| broadcast_strides(&t.shape, &t.strides, &shape);
    let (sc, sa, sb) = (bs(&dc), bs(&da), bs(&db));
    let l = strided(
        &shape,
        &[
            (&contiguous_strides(&shape), 0),
            (&sc, dc.offset),
            (&sa, da.offset),
            (&sb, db.offset),
        ],
    )?;
    let args = [
        Arg::L(l),
        Arg::P(base(&out)),
        Arg::P(dc.storage.device_ptr()),
        Arg::P(da.storage.device_ptr()),
        Arg::P(db.storage.device_ptr()),
    ];
    launch(d, &name, grid(l.n), &args)?;
    Ok(out)
}

pub fn reduce(op: ReduceKernel, x: &Strided, dims: &[usize], keepdim: bool) -> Result<Strided> {
    if x.dtype().is_half() {
        return reduce(op, &wide(x)?, dims, keepdim)?.cast(x.dtype());
    }
    let i = device_of(x)?;
    let d = dev(i)?;
    let xd = x;
    let dt = xd.dtype;
    let acc_dt = match (op, dt) {
        (ReduceKernel::Sum | ReduceKernel::Prod, DType::Int32 | DType::UInt8 | DType::Bool) => {
            DType::Int64
        }
        _ => dt,
    };
    let name = format!("reduce_{}_{}", op.name(), type_name(dt)?);
    let kept: Vec<usize> = (0..xd.shape.len()).filter(|k| !dims.contains(k)).collect();
    let kshape: Vec<usize> = kept.iter().map(|&k| xd.shape[k]).collect();
    let rshape: Vec<usize> = dims.iter().map(|&k| xd.shape[k]).collect();
    let out_shape: Vec<usize> = (0..xd.shape.len())
        .filter_map(|k| {
            if dims.contains(&k) {
                keepdim.then_some(1)
            } else {
                Some(xd.shape[k])
            }
        })
        .collect();
    let out = empty(&out_shape, acc_dt, Device::Cuda(i))?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let kst: Vec<isize> = kept.iter().map(|&k| xd.strides[k]).collect();
    let rst: Vec<isize> = dims.iter().map(|&k| xd.strides[k]).collect();
    let kl = strided(
        &kshape,
        &[(&contiguous_strides(&kshape), 0), (&kst, xd.offset)],
    )?;
    let zeros = vec![0isize; rshape.len()];
    let rl = strided(&rshape, &[(&zeros, 0), (&rst, 0)])?;
    // Few outputs over many elements: split each reduction over P blocks, then reduce the P
    // partial results (a second launch over a [outputs, P] tensor).
    let (nout, nred) = (kl.n.max(1) as u64, rl.n.max(0) as u64);
    let parts = if nout < 1024 && nred > 8192 {
        (2048 / nout).clamp(1, nred.div_ceil(4096)).min(65535)
    } else {
        1
    };
    let chunk = nred.div_ceil(parts).max(1);
    let parts = nred.div_ceil(chunk).max(1);
    let target = if parts > 1 {
        empty(&[nout as usize, parts as usize], acc_dt, Device::Cuda(i))?
    } else {
        out.clone()
    };
    let kl = if parts > 1 {
        let ost: Vec<isize> = contiguous_strides(&kshape)
            .iter()
            .map(|s| s * parts as isize)
            .collect();
        strided(&kshape, &[(&ost, 0), (&kst, xd.offset)])?
    } else {
        kl
    };
    let cfg = LaunchConfig {
        grid_dim: (nout.min(1 << 16) as u32, parts as u32, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    let args = [
        Arg::L(kl),
        Arg::L(rl),
        Arg::P(base(&target)),
        Arg::P(xd.storage.device_ptr()),
        Arg::I64(chunk as i64),
    ];
    launch(d, &name, cfg, &args)?;
    if parts > 1 {
        let combined = reduce(op, &target, &[1], false)?;
        return Ok(combined.restrided(&out_shape, &contiguous_strides(&out_shape), 0));
    }
    Ok(out)
}

pub fn argreduce(op: ArgReduceKernel, x: &Strided, dim: usize) -> Result<Strided> {
    if x.dtype().is_half() {
        return argreduce(op, &wide(x)?, dim);
    }
    let i = device_of(x)?;
    let d = dev(i)?;
    let xd = x;
    let name = format!("argreduce_{}_{}", op.name(), type_name(xd.dtype)?);
    let mut out_shape: Vec<usize> = xd.shape.to_vec();
    out_shape[dim] = 1;
    let out = empty(&out_shape, DType::Int64, Device::Cuda(i))?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let kept: Vec<usize> = (0..xd.shape.len()).filter(|&k| k != dim).collect();
    let kshape: Vec<usize> = kept.iter().map(|&k| xd.shape[k]).collect();
    let kst: Vec<isize> = kept.iter().map(|&k| xd.strides[k]).collect();
    let kl = strided(
        &kshape,
        &[(&contiguous_strides(&kshape), 0), (&kst, xd.offset)],
    )?;
    let rl = strided(&[xd.shape[dim]], &[(&[0], 0), (&[xd.strides[dim]], 0)])?;
    let cfg = LaunchConfig {
        grid_dim: ((kl.n.max(1) as u64).min(1 << 16) as u32, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    let args = [
        Arg::L(kl),
        Arg::L(rl),
        Arg::P(base(&out)),
        Arg::P(xd.storage.device_ptr()),
    ];
    launch(d, &name, cfg, &args)?;
    Ok(out)
}

pub fn scan(
    op: ScanKernel,
    x: &Strided,
    dim: usize,
    reverse: bool,
    exclusive: bool,
) -> Result<Strided> {
    if x.dtype().is_half() {
        let r = scan(op, &wide(x)?, dim, reverse, exclusive)?;
        return r.cast(x.dtype());
    }
    let i = device_of(x)?;
    let d = dev(i)?;
    let device = Device::Cuda(i);
    let src = contiguous(x)?;
    let shape = src.shape();
    let name = format!("scan_{}_{}", op.name(), type_name(src.dtype())?);
    let out = empty(&shape, src.dtype(), device)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let st = contiguous_strides(&shape);
    // Lines: every index with `dim` fixed at 0.
    let mut lshape: Vec<usize> = shape.to_vec();
    lshape[dim] = 1;
    let sd = src;
    let kl = strided(&lshape, &[(&st, 0), (&st, sd.offset)])?;
    let args = [
        Arg::L(kl),
        Arg::I64(shape[dim] as i64),
        Arg::I64(st[dim] as i64),
        Arg::P(base(&out)),
        Arg::P(sd.storage.device_ptr()),
        Arg::I32(reverse as i32 | ((exclusive as i32) << 1)),
    ];
    launch(d, &name, grid(kl.n), &args)?;
    Ok(out)
}

/// Normal draws into contiguous float32/float64 `out` (PyTorch's kernel layout over `threads`
/// logical threads, from Philox at (seed, offset); kernels.cu `normal_*`).
pub fn normal_fill(
    out: &Strided,
    threads: u64,
    seed: u64,
    offset: u64,
    mean: f64,
    std: f64,
) -> Result<()> {
    let i = device_of(out)?;
    let (name, m, s) = match out.dtype() {
        DType::Float32 => ("normal_f32", Arg::F32(mean as f32), Arg::F32(std as f32)),
        DType::Float64 => ("normal_f64", Arg::F64(mean), Arg::F64(std)),
        dt => return Err(no_cuda_kernel(&format!("normal draws of {dt:?}"))),
    };
    let n = out.numel() as i64;
    if n == 0 {
        return Ok(());
    }
    let args = [
        Arg::I64(n),
        Arg::P(out.storage.device_ptr() + (out.offset * out.dtype().size()) as u64),
        Arg::I64(threads as i64),
        Arg::I64(seed as i64),
        Arg::I64(offset as i64),
        m,
        s,
    ];
    let cfg = LaunchConfig {
        grid_dim: (threads.div_ceil(256).max(1) as u32, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    launch(dev(i)?, name, cfg, &args)
}
