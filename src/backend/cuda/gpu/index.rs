//! Gathers and scatters by a host-built flat index plan (indexing, gather, im2col, nll_loss).

use super::*;

pub fn take(x: &Strided, plan: &[usize], shape: &[usize]) -> Result<Strided> {
    let i = device_of(x)?;
    let d = dev(i)?;
    let device = Device::Cuda(i);
    let src = contiguous(x)?;
    let dt = src.dtype();
    let name = format!("take_{}", type_name(dt)?);
    let out = empty(shape, dt, device)?;
    if plan.is_empty() {
        return Ok(out);
    }
    let idx = plan_on(plan, device)?;
    let sd = src;
    let esz = dt.size() as u64;
    let n = plan.len() as i64;
    let args = [
        Arg::I64(n),
        Arg::P(base(&out)),
        Arg::P(sd.storage.device_ptr() + sd.offset as u64 * esz),
        Arg::P(base(&idx)),
    ];
    launch(d, &name, grid(n), &args)?;
    Ok(out)
}

pub fn put(out: &Strided, plan: &[usize], vals: &Strided, add: bool) -> Result<()> {
    if add && out.dtype().is_half() {
        // Accumulate half types in float32 (no 16-bit atomics), then round once.
        let acc = wide(out)?;
        put(&acc, plan, &wide(vals)?, true)?;
        return copy_into(out, &acc);
    }
    let i = device_of(out)?;
    let d = dev(i)?;
    let device = Device::Cuda(i);
    if plan.is_empty() {
        return Ok(());
    }
    let dt = out.dtype();
    let v = on_device(vals, device)?.cast(dt)?;
    let name = format!("{}_{}", if add { "put_add" } else { "put" }, type_name(dt)?);
    let idx = plan_on(plan, device)?;
    let od = out;
    let esz = dt.size() as u64;
    let n = plan.len() as i64;
    let args = [
        Arg::I64(n),
        Arg::P(od.storage.device_ptr() + od.offset as u64 * esz),
        Arg::P(base(&idx)),
        Arg::P(base(&v)),
    ];
    launch(d, &name, grid(n), &args)
}
