//! Shapes, strides and broadcasting: the index arithmetic every kernel and view shares.
use crate::error::{Error, Result};
use smallvec::SmallVec;

pub type Shape = SmallVec<[usize; 4]>;
pub type Strides = SmallVec<[isize; 4]>;

pub fn numel(shape: &[usize]) -> usize {
    shape.iter().product()
}

pub fn contiguous_strides(shape: &[usize]) -> Strides {
    let mut st: Strides = SmallVec::from_elem(0, shape.len());
    let mut acc = 1isize;
    for i in (0..shape.len()).rev() {
        st[i] = acc;
        acc *= shape[i].max(1) as isize;
    }
    st
}

pub fn is_contiguous(shape: &[usize], strides: &[isize]) -> bool {
    // An empty tensor is contiguous whatever its strides (PyTorch's rule).
    if shape.contains(&0) {
        return true;
    }
    let mut acc = 1isize;
    for i in (0..shape.len()).rev() {
        if shape[i] != 1 && strides[i] != acc {
            return false;
        }
        acc *= shape[i] as isize;
    }
    true
}

/// `[2, 3]` as PyTorch prints sizes in messages.
pub fn fmt_shape(shape: &[usize]) -> String {
    let parts: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

/// Normalise a possibly negative dim against `ndim` (a 0-d tensor accepts -1 and 0).
pub fn wrap_dim(dim: i64, ndim: usize) -> Result<usize> {
    let n = ndim.max(1) as i64;
    if dim < -n || dim >= n {
        return Err(Error::Index(format!(
            "Dimension out of range (expected to be in range of [{}, {}], but got {})",
            -n,
            n - 1,
            dim
        )));
    }
    Ok(if dim < 0 { dim + n } else { dim } as usize)
}

pub fn broadcast_shapes(a: &[usize], b: &[usize]) -> Result<Shape> {
    let n = a.len().max(b.len());
    let mut out: Shape = SmallVec::from_elem(0, n);
    // from the last dim, as PyTorch's infer_size (which mismatch it names)
    for i in (0..n).rev() {
        let da = if i + a.len() >= n {
            a[i + a.len() - n]
        } else {
            1
        };
        let db = if i + b.len() >= n {
            b[i + b.len() - n]
        } else {
            1
        };
        out[i] = if da == db || db == 1 {
            da
        } else if da == 1 {
            db
        } else {
            return Err(Error::Runtime(format!(
                "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
                da, db, i
            )));
        };
    }
    Ok(out)
}

/// Strides that read a tensor of `shape`/`strides` as if expanded to `target` (0 on broadcast dims).
/// The strides of a layout (`shape`, `strides`) seen with `target` (size-1 dims get stride 0),
/// or the error of a shape that does not broadcast to `target`.
pub fn expand_strides(shape: &[usize], strides: &[isize], target: &[usize]) -> Result<Strides> {
    if shape.len() > target.len() || broadcast_shapes(shape, target)?.as_slice() != target {
        return Err(Error::Runtime(format!(
            "The expanded size of the tensor must match the existing size: {:?} cannot be broadcast to {:?}",
            shape, target
        )));
    }
    Ok(broadcast_strides(shape, strides, target))
}

/// The shape of a reduction over `dims`: those dims dropped, or kept as 1.
pub fn reduced_shape(shape: &[usize], dims: &[usize], keepdim: bool) -> Shape {
    shape
        .iter()
        .enumerate()
        .filter_map(|(i, &s)| match (dims.contains(&i), keepdim) {
            (false, _) => Some(s),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

pub fn broadcast_strides(shape: &[usize], strides: &[isize], target: &[usize]) -> Strides {
    let off = target.len() - shape.len();
    let mut out: Strides = SmallVec::from_elem(0, target.len());
    for i in 0..shape.len() {
        out[i + off] = if shape[i] == 1 && target[i + off] != 1 {
            0
        } else {
            strides[i]
        };
    }
    out
}

/// Odometer over a shape that yields the storage offset of each element for several operands.
pub struct MultiIndex<const N: usize> {
    shape: Shape,
    strides: [Strides; N],
    idx: Shape,
    pub offsets: [isize; N],
    remaining: usize,
}

impl<const N: usize> MultiIndex<N> {
    /// The strides of operand `k` (for splitting off the innermost dim).
    pub fn strides_of(&self, k: usize) -> &Strides {
        &self.strides[k]
    }
    pub fn new(shape: &[usize], strides: [Strides; N], base: [isize; N]) -> Self {
        MultiIndex {
            shape: shape.into(),
            strides,
            idx: SmallVec::from_elem(0, shape.len()),
            offsets: base,
            remaining: numel(shape),
        }
    }
    /// Current offsets, then advance. Returns None when exhausted.
    #[inline]
    pub fn next_offsets(&mut self) -> Option<[isize; N]> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let cur = self.offsets;
        let nd = self.shape.len();
        for d in (0..nd).rev() {
            self.idx[d] += 1;
            for k in 0..N {
                self.offsets[k] += self.strides[k][d];
            }
            if self.idx[d] < self.shape[d] {
                break;
            }
            for k in 0..N {
                self.offsets[k] -= self.strides[k][d] * self.shape[d] as isize;
            }
            self.idx[d] = 0;
        }
        Some(cur)
    }
}

/// The element count of `shape`, or PyTorch's overflow error.
pub fn checked_numel(shape: &[usize]) -> Result<usize> {
    let n = shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| Error::Runtime("numel: integer multiplication overflow".into()))?;
    // An empty shape still has row-major strides (sizes counted as at least 1), which must fit
    // in an i64 as in PyTorch.
    if n == 0
        && shape
            .iter()
            .skip(1)
            .try_fold(1i64, |acc, &d| acc.checked_mul(d.max(1) as i64))
            .is_none()
    {
        return Err(Error::Runtime("Stride calculation overflowed".into()));
    }
    Ok(n)
}

/// Sizes from signed dims, or PyTorch's error for a negative one.
pub fn sizes_of(shape: &[i64]) -> Result<Vec<usize>> {
    shape
        .iter()
        .map(|&d| {
            if d < 0 {
                Err(crate::error::Error::Runtime(format!(
                    "Trying to create tensor with negative dimension {}: [{}]",
                    d,
                    shape
                        .iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            } else {
                Ok(d as usize)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn broadcast() {
        assert_eq!(
            broadcast_shapes(&[3, 1], &[1, 4]).unwrap().as_slice(),
            &[3, 4]
        );
        assert_eq!(broadcast_shapes(&[], &[2]).unwrap().as_slice(), &[2]);
        assert!(broadcast_shapes(&[3], &[2]).is_err());
    }
    #[test]
    fn odometer() {
        let mut it = MultiIndex::new(&[2, 2], [SmallVec::from_slice(&[1, 2])], [0]);
        let mut v = vec![];
        while let Some([o]) = it.next_offsets() {
            v.push(o);
        }
        assert_eq!(v, vec![0, 2, 1, 3]);
    }
}
