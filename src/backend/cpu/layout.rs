//! The memory layout of elementwise results, as PyTorch's TensorIterator chooses it: the
//! result's dims are laid out in the order of its operands' strides, so `x.t().exp()` is
//! transposed like `x.t()` (and elementwise loops over such inputs run contiguously).
use crate::backend::Strided;
use crate::error::Result;

/// The strides PyTorch's TensorIterator gives an elementwise result of shape `shape`, or None
/// for row-major. Operands are (shape, strides), broadcast to `shape` from the right.
///
/// Operands of the result's own shape take the fast paths: all row-major gives row-major, all
/// channels-last (4-d) gives channels-last, all dense with equal strides gives those strides.
/// Otherwise the dims are insertion-sorted by the operands' strides (innermost first): for a
/// pair of dims the first operand with a strict stride order decides, a broadcast (stride-0)
/// dim never decides, and equal strides put the smaller dim inside.
pub fn result_strides(shape: &[usize], operands: &[(&[usize], &[isize])]) -> Option<Vec<isize>> {
    let nd = shape.len();
    if nd <= 1 {
        return None;
    }
    if operands.iter().all(|(s, _)| *s == shape) {
        if shape.contains(&0) {
            // (operands of the result's shape are all contiguous when empty: row-major)
            return None;
        }
        if operands.iter().all(|(s, st)| is_rowmajor(s, st)) {
            return None;
        }
        if nd == 4 && operands.iter().all(|(s, st)| is_channels_last(s, st)) {
            let (c, h, w) = (shape[1] as isize, shape[2] as isize, shape[3] as isize);
            return Some(vec![h * w * c, 1, w * c, c]);
        }
        let (_, last) = operands[operands.len() - 1];
        if operands
            .iter()
            .all(|(s, st)| is_dense(s, st) && *st == last)
        {
            return Some(last.to_vec());
        }
    }
    let ord = order(shape, operands)?;
    // (a size-0 dim zeroes the strides outside it, as TensorIterator's permuted outputs have)
    let mut strides = vec![0isize; nd];
    let mut acc = 1isize;
    for &d in ord.iter().rev() {
        strides[d] = acc;
        acc *= shape[d] as isize;
    }
    Some(strides)
}

/// Row-major, ignoring the strides of size-1 dims (PyTorch's `is_contiguous`).
fn is_rowmajor(shape: &[usize], strides: &[isize]) -> bool {
    let mut expect = 1isize;
    for d in (0..shape.len()).rev() {
        if shape[d] != 1 {
            if strides[d] != expect {
                return false;
            }
            expect *= shape[d] as isize;
        }
    }
    true
}

/// 4-d channels-last (dims 1, 3, 2, 0 from the inside), ignoring size-1 dims.
fn is_channels_last(shape: &[usize], strides: &[isize]) -> bool {
    let mut expect = 1isize;
    for d in [1, 3, 2, 0] {
        if shape[d] != 1 {
            if strides[d] != expect {
                return false;
            }
            expect *= shape[d] as isize;
        }
    }
    true
}

/// TensorIterator's `reorder_dimensions`: the dims of `shape`, innermost first, by the
/// operands' `strides` (outputs first). With `reduction`, the first operand is a reduction's
/// output and its reduced dims (stride 0) go innermost.
pub fn reorder_dims(shape: &[usize], strides: &[&[isize]], reduction: bool) -> Vec<usize> {
    let nd = shape.len();
    // 1: d0 goes outside d1; -1: inside; 0: no operand decides
    let should_swap = |d0: usize, d1: usize| -> i32 {
        for (k, st) in strides.iter().enumerate() {
            let (s0, s1) = (st[d0], st[d1]);
            if reduction && k == 0 && (s0 == 0) != (s1 == 0) {
                return if s1 == 0 { 1 } else { -1 };
            }
            if s0 == 0 || s1 == 0 {
                continue;
            }
            if s0 < s1 {
                return -1;
            }
            if s0 > s1 {
                return 1;
            }
            if shape[d0] > shape[d1] {
                return 1;
            }
        }
        0
    };
    // insertion sort that tolerates ambiguous comparisons, as ATen's
    let mut perm: Vec<usize> = (0..nd).rev().collect();
    for i in 1..nd {
        let mut d1 = i;
        for d0 in (0..i).rev() {
            match should_swap(perm[d0], perm[d1]) {
                c if c > 0 => {
                    perm.swap(d0, d1);
                    d1 = d0;
                }
                c if c < 0 => break,
                _ => {}
            }
        }
    }
    perm
}

/// The dims of `shape` ordered from outermost to innermost by the operands' strides (PyTorch's
/// `reorder_dimensions`), or None when that order is the row-major one.
fn order(shape: &[usize], operands: &[(&[usize], &[isize])]) -> Option<Vec<usize>> {
    let nd = shape.len();
    if nd <= 1 {
        return None;
    }
    let strides: Vec<Vec<isize>> = operands
        .iter()
        .map(|(s, st)| {
            let off = nd.saturating_sub(s.len());
            (0..nd)
                .map(|i| {
                    if i < off {
                        return 0;
                    }
                    let j = i - off;
                    if s[j] == 1 && shape[i] != 1 {
                        0
                    } else {
                        st[j]
                    }
                })
                .collect()
        })
        .collect();
    let refs: Vec<&[isize]> = strides.iter().map(|s| s.as_slice()).collect();
    let mut perm = reorder_dims(shape, &refs, false);
    perm.reverse(); // outermost first
    if perm.iter().enumerate().all(|(i, &p)| i == p) {
        None
    } else {
        Some(perm)
    }
}

/// The dims from outermost to innermost in memory for dense `strides` (size-1 dims, whose
/// strides are arbitrary, sorted by size among equal strides).
pub fn dims_by_stride(shape: &[usize], strides: &[isize]) -> Vec<usize> {
    let mut ord: Vec<usize> = (0..shape.len()).collect();
    ord.sort_by_key(|&d| std::cmp::Reverse((strides[d], shape[d])));
    ord
}

/// Runs `kernel` over the operands broadcast to `shape`, with the dims permuted so that a
/// row-major result of the permuted shape has the (dense) `strides`, and returns that result
/// seen with `strides`.
pub fn run_with_strides(
    shape: &[usize],
    strides: &[isize],
    inputs: &[&Strided],
    kernel: impl FnOnce(&[Strided], &[usize]) -> Result<Strided>,
) -> Result<Strided> {
    let ord = dims_by_stride(shape, strides);
    let pshape: Vec<usize> = ord.iter().map(|&d| shape[d]).collect();
    let permuted: Vec<Strided> = inputs
        .iter()
        .map(|t| {
            let (s, st, off) = {
                let d = t;
                (d.shape.clone(), d.strides.clone(), d.offset)
            };
            let b = crate::shape::broadcast_strides(&s, &st, shape);
            let pst: Vec<isize> = ord.iter().map(|&d| b[d]).collect();
            t.restrided(&pshape, &pst, off)
        })
        .collect();
    let r = kernel(&permuted, &pshape)?;
    // the result is row-major in `ord`, which is `strides` (size-1 dims may take any stride)
    let off = r.offset;
    Ok(r.restrided(shape, strides, off))
}

/// A fresh tensor of `x`'s shape in `dtype`, laid out as PyTorch lays out an elementwise result
/// of `x` (`clone()`, `to(dtype)`).
pub fn copy_with_layout(x: &Strided, dtype: crate::dtype::DType) -> Result<Strided> {
    let (shape, strides, cuda) = {
        let d = x;
        (d.shape.clone(), d.strides.clone(), d.storage.is_cuda())
    };
    let target = if cuda {
        None
    } else {
        result_strides(&shape, &[(&shape, &strides)])
    };
    match target {
        None => (x).cast(dtype),
        Some(st) => run_with_strides(&shape, &st, &[x], |ins, _| ins[0].cast(dtype)),
    }
}

/// A copy with `x`'s own strides when its layout is non-overlapping and dense (PyTorch's
/// `clone()` copies them exactly, size-1 dims included), else as `copy_with_layout`.
pub fn copy_exact_layout(x: &Strided) -> Result<Strided> {
    let (shape, strides) = (x.shape.clone(), x.strides.clone());
    if x.numel() == 0 {
        return x.cast_exact(x.dtype);
    }
    if x.storage.is_cuda() || !is_dense(&shape, &strides) {
        return copy_with_layout(x, x.dtype);
    }
    run_with_strides(&shape, &strides, &[x], |ins, _| ins[0].cast(ins[0].dtype))
}

/// Is the layout non-overlapping and dense (a permutation of a row-major layout)?
pub fn is_dense(shape: &[usize], strides: &[isize]) -> bool {
    let mut dims: Vec<usize> = (0..shape.len()).filter(|&d| shape[d] != 1).collect();
    dims.sort_by_key(|&d| strides[d]);
    let mut expect = 1isize;
    for d in dims {
        if strides[d] != expect {
            return false;
        }
        expect *= shape[d] as isize;
    }
    true
}

/// The first `.grad` of `var`: a copy of `g` with `var`'s strides when `var` is dense but not
/// row-major (PyTorch's layout contract for gradients), else row-major.
pub fn grad_copy(g: &Strided, var: &Strided) -> Result<Strided> {
    let (shape, strides, cuda) = {
        let d = var;
        (d.shape.clone(), d.strides.clone(), d.storage.is_cuda())
    };
    if cuda || var.is_contiguous() || g.shape() != shape || !is_dense(&shape, &strides) {
        return (g).contiguous();
    }
    run_with_strides(&shape, &strides, &[g], |ins, _| ins[0].contiguous())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_major_operands_give_row_major_results() {
        let s = [2usize, 3, 4];
        assert_eq!(result_strides(&s, &[(&s, &[12, 4, 1])]), None);
        // broadcasting row-major operands stays row-major
        assert_eq!(
            result_strides(&s, &[(&[3, 1][..], &[1, 1][..]), (&[4][..], &[1][..])]),
            None
        );
        // empty results are row-major
        assert_eq!(result_strides(&[2, 0], &[(&[2, 0], &[1, 2])]), None);
    }

    #[test]
    fn a_permuted_operand_gives_its_order() {
        // ones(2, 3, 4).transpose(0, 2): shape (4, 3, 2), strides (1, 4, 12)
        let s = [4usize, 3, 2];
        let t: &[isize] = &[1, 4, 12];
        assert_eq!(result_strides(&s, &[(&s, t)]), Some(vec![1, 4, 12]));
        // the first operand with a strict order decides
        let c: &[isize] = &[6, 2, 1];
        assert_eq!(
            result_strides(&s, &[(&s, t), (&s, c)]),
            Some(vec![1, 4, 12])
        );
        assert_eq!(result_strides(&s, &[(&s, c), (&s, t)]), None);
    }

    #[test]
    fn non_dense_and_channels_last_layouts() {
        // ones(4, 6)[:, ::2].t(): shape (3, 4), strides (2, 6) -> dense in that order
        assert_eq!(
            result_strides(&[3, 4], &[(&[3, 4], &[2, 6])]),
            Some(vec![1, 3])
        );
        // channels-last (1, 2, 1, 2) with strides (1, 1, 4, 2)
        let s = [1usize, 2, 1, 2];
        assert_eq!(
            result_strides(&s, &[(&s, &[1, 1, 4, 2])]),
            Some(vec![4, 1, 4, 2])
        );
    }

    #[test]
    fn density() {
        assert!(is_dense(&[4, 3], &[1, 4]));
        assert!(is_dense(&[2, 1, 3], &[3, 100, 1]));
        assert!(!is_dense(&[3, 4], &[2, 6]));
        assert!(!is_dense(&[2, 2], &[0, 1]));
    }
}
