//! Reading and writing by index plans (for each element, a flat index): the CPU side of
//! advanced indexing, gather/scatter and embedding.
use super::alloc_vec;
use crate::backend::Strided;
use crate::error::Result;

#[macro_export]
macro_rules! with_numeric_or_bool {
    ($dt:expr, $T:ident, $body:block) => {
        match $dt {
            $crate::dtype::DType::Bool => {
                type $T = bool;
                $body
            }
            d => $crate::with_numeric!(d, $T, $body),
        }
    };
}

trait AddElem {
    fn add_elem(self, o: Self) -> Self;
}
fn add_elem<T: AddElem>(a: T, b: T) -> T {
    a.add_elem(b)
}
impl AddElem for bool {
    fn add_elem(self, o: bool) -> bool {
        self || o
    }
}
macro_rules! add_elem_num {
    ($($t:ty),*) => {$(impl AddElem for $t { fn add_elem(self, o: $t) -> $t { self + o } })*};
}
add_elem_num!(
    u8,
    u16,
    u32,
    u64,
    i8,
    i16,
    i32,
    i64,
    f32,
    f64,
    half::f16,
    half::bf16,
    num_complex::Complex32,
    num_complex::Complex64
);

/// `out[i] = x.flat[plan[i]]` (x in logical order), shaped `shape`.
pub fn take(x: &Strided, plan: &[usize], shape: &[usize]) -> Result<Strided> {
    let src = x.contiguous()?;
    crate::with_dtype!(src.dtype(), T, {
        let v = src.try_to_vec::<T>()?;
        let mut o = alloc_vec::<T>(plan.len())?;
        o.extend(plan.iter().map(|&i| v[i]));
        Strided::from_vec(o, shape)
    })
}

/// `out.flat[plan[i]] = vals[i]` (`add`: `+=`; logical or for bools) into contiguous `out`,
/// in place.
pub fn put(out: &Strided, plan: &[usize], vals: &Strided, add: bool) -> Result<()> {
    let d = out;
    super::host_only(&[d])?;
    let off = d.offset;
    crate::with_numeric_or_bool!(d.dtype, T, {
        let v = vals.try_to_vec::<T>()?;
        // SAFETY: T matches dtype; plan entries index the contiguous `out` from its offset.
        let o = unsafe { d.storage.slice_mut::<T>() };
        for (&i, &x) in plan.iter().zip(&v) {
            o[off + i] = if add { add_elem(o[off + i], x) } else { x };
        }
    });
    Ok(())
}
