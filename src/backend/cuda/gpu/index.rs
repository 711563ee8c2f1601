//! Gathers and scatters by a flat index plan (indexing, gather, im2col, nll_loss): a host-built
//! plan (uploaded per call) or an int64 index tensor already on the device; and the plans of
//! convolution (kept per geometry) and max pooling (from the data), built by kernels.

use super::*;

pub fn take(x: &Strided, plan: &[usize], shape: &[usize]) -> Result<Strided> {
    let device = Device::Cuda(device_of(x)?);
    if plan.is_empty() {
        return empty(shape, x.dtype(), device);
    }
    take_idx(x, &plan_on(plan, device)?, shape)
}

/// `out[i] = x.flat[idx[i]]`, `idx` an int64 tensor on x's device (contiguous).
pub fn take_idx(x: &Strided, idx: &Strided, shape: &[usize]) -> Result<Strided> {
    let i = device_of(x)?;
    let d = dev(i)?;
    let device = Device::Cuda(i);
    let src = contiguous(x)?;
    let dt = src.dtype();
    let name = format!("take_{}", type_name(dt)?);
    let out = empty(shape, dt, device)?;
    let n = idx.numel() as i64;
    if n == 0 {
        return Ok(out);
    }
    let idx = contiguous(idx)?;
    let esz = dt.size() as u64;
    let args = [
        Arg::I64(n),
        Arg::P(base(&out)),
        Arg::P(src.storage.device_ptr() + src.offset as u64 * esz),
        Arg::P(at(&idx)),
    ];
    launch(d, &name, grid(n), &args)?;
    Ok(out)
}

pub fn put(out: &Strided, plan: &[usize], vals: &Strided, add: bool) -> Result<()> {
    if plan.is_empty() {
        return Ok(());
    }
    let device = Device::Cuda(device_of(out)?);
    put_idx(out, &plan_on(plan, device)?, vals, add)
}

/// `out.flat[idx[i]] = vals[i]` (`add`: `+=`, atomically), `idx` an int64 tensor on the device.
pub fn put_idx(out: &Strided, idx: &Strided, vals: &Strided, add: bool) -> Result<()> {
    if add && out.dtype().is_half() {
        // Accumulate half types in float32 (no 16-bit atomics), then round once.
        let acc = wide(out)?;
        put_idx(&acc, idx, &wide(vals)?, true)?;
        return copy_into(out, &acc);
    }
    let i = device_of(out)?;
    let d = dev(i)?;
    let device = Device::Cuda(i);
    let n = idx.numel() as i64;
    if n == 0 {
        return Ok(());
    }
    let idx = contiguous(idx)?;
    let dt = out.dtype();
    let v = contiguous(&on_device(vals, device)?.cast(dt)?)?;
    let name = format!("{}_{}", if add { "put_add" } else { "put" }, type_name(dt)?);
    let esz = dt.size() as u64;
    let args = [
        Arg::I64(n),
        Arg::P(out.storage.device_ptr() + out.offset as u64 * esz),
        Arg::P(at(&idx)),
        Arg::P(at(&v)),
    ];
    launch(d, &name, grid(n), &args)
}

/// The device address of `t`'s first element.
fn at(t: &Strided) -> u64 {
    t.storage.device_ptr() + (t.offset * t.dtype().size()) as u64
}

/// Plans kept on the devices, newest last, up to `PLAN_CACHE_BYTES` in all.
type PlanCache = Vec<((Im2col, usize), Strided)>;
static PLANS: OnceLock<Mutex<PlanCache>> = OnceLock::new();
const PLAN_CACHE_BYTES: usize = 256 << 20;

/// The im2col plan of `g` on `device`: built by a kernel at first use and kept for the next
/// step of a training loop (one per geometry, oldest dropped past 256 MiB).
pub fn im2col_index(g: &Im2col, device: Device) -> Result<Strided> {
    let i = match device {
        Device::Cuda(i) => i,
        _ => {
            return Err(Error::Runtime(
                "internal error: im2col_index off the GPU".into(),
            ))
        }
    };
    let key = (*g, i);
    let cache = PLANS.get_or_init(Default::default);
    if let Some((_, t)) = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(k, _)| *k == key)
    {
        return Ok(t.clone());
    }
    let total = g.n * g.c * g.kh * g.kw * g.ho * g.wo;
    let idx = empty(&[total], DType::Int64, device)?;
    if total > 0 {
        let l = |v: usize| Arg::I64(v as i64);
        let args = [
            l(total),
            Arg::P(base(&idx)),
            l(g.hp),
            l(g.wp),
            l(g.kh),
            l(g.kw),
            l(g.ho),
            l(g.wo),
            l(g.stride.0),
            l(g.stride.1),
            l(g.dilation.0),
            l(g.dilation.1),
        ];
        launch(dev(i)?, "im2col_index", grid(total as i64), &args)?;
    }
    let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
    c.push((key, idx.clone()));
    let mut bytes: usize = c.iter().map(|(_, t)| t.numel() * 8).sum();
    while bytes > PLAN_CACHE_BYTES && c.len() > 1 {
        bytes -= c[0].1.numel() * 8;
        c.remove(0);
    }
    Ok(idx)
}

/// For each window of `x` ([N, C, H, W], float32/float64), the flat index (into x's contiguous
/// layout) of its maximum, as an int64 tensor on x's device; None for other dtypes.
pub fn max_pool_index(x: &Strided, g: &PoolWindows) -> Result<Option<Strided>> {
    let name = match x.dtype() {
        DType::Float32 => "max_pool_index_f32",
        DType::Float64 => "max_pool_index_f64",
        _ => return Ok(None),
    };
    let i = device_of(x)?;
    let src = contiguous(x)?;
    let planes = x.numel() / (g.h * g.w).max(1);
    let total = planes * g.ho * g.wo;
    let idx = empty(&[total], DType::Int64, Device::Cuda(i))?;
    if total > 0 {
        let l = |v: usize| Arg::I64(v as i64);
        let esz = src.dtype().size() as u64;
        let args = [
            l(total),
            Arg::P(base(&idx)),
            Arg::P(src.storage.device_ptr() + src.offset as u64 * esz),
            l(g.h),
            l(g.w),
            l(g.ho),
            l(g.wo),
            l(g.kernel.0),
            l(g.kernel.1),
            l(g.stride.0),
            l(g.stride.1),
            l(g.padding.0),
            l(g.padding.1),
            l(g.dilation.0),
            l(g.dilation.1),
        ];
        launch(dev(i)?, name, grid(total as i64), &args)?;
    }
    Ok(Some(idx))
}
