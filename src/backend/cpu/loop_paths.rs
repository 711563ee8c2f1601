//! Which of PyTorch's code paths computes each element of a binary elementwise loop, where
//! the paths round differently. `cpu_kernel_vec` runs its `Vectorized` function over whole
//! blocks of two vectors from the start of each row segment TensorIterator hands it (a row
//! after it coalesces dims, cut at each thread's part) when the inputs have unit strides there
//! (or one has stride 0), and `basic_loop` over the rest; the compiler vectorises `basic_loop`
//! in pairs, leaving an odd last element to the scalar code. See `complex_loop` (complex `*`
//! and `/`), the float `maximum`/`minimum` (which of two tied zeros they keep), `atan2` and
//! complex `angle`, `abs` and `sgn` (SLEEF's `atan2`/`hypot` in the vector blocks, the C
//! library's elsewhere).
use super::{alloc_vec, layout, torch_vec};
use crate::backend::Strided;
use crate::dtype::Element;
use crate::error::Result;
use crate::shape::{broadcast_strides, MultiIndex};

/// Which of PyTorch's three code paths computes an element.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Path {
    /// `Vectorized` over a whole block.
    Vector,
    /// `basic_loop`, vectorised by the compiler.
    Pair,
    /// `basic_loop`'s scalar code.
    Scalar,
}

/// How the compiler's loop for `basic_loop` splits a row, by the inputs' inner strides.
pub struct Rules {
    /// The first element by the scalar code, then blocks of four vectorised, the rest scalar
    /// (the loop specialised for a scalar operand).
    pub quads: bool,
    /// Every element outside the vector blocks by the scalar code.
    pub scalar_only: bool,
}

/// `f(x, y, path)` over `a` and `b` broadcast to `shape`, laid out as `map2` lays out its
/// result; `block` is the length of two vectors, `rules(sa, sb, vectorised)` the compiler's
/// split of the rest of a row.
pub fn map2_paths<A: Element, B: Element, U: Element>(
    a: &Strided,
    b: &Strided,
    shape: &[usize],
    block: usize,
    rules: impl Fn(isize, isize, bool) -> Rules,
    f: impl Fn(A, B, Path) -> U,
) -> Result<Strided> {
    let ord = if a.is_contiguous() && b.is_contiguous() && !shape.contains(&0) {
        None
    } else {
        layout::result_strides(shape, &[(&a.shape, &a.strides), (&b.shape, &b.strides)])
    };
    match ord {
        None => rowmajor(a, b, shape, block, rules, f),
        Some(st) => layout::run_with_strides(shape, &st, &[a, b], |ins, ps| {
            rowmajor(&ins[0], &ins[1], ps, block, rules, f)
        }),
    }
}

/// [`map2_paths`] with a row-major result.
fn rowmajor<A: Element, B: Element, U: Element>(
    a: &Strided,
    b: &Strided,
    shape: &[usize],
    block: usize,
    rules: impl Fn(isize, isize, bool) -> Rules,
    f: impl Fn(A, B, Path) -> U,
) -> Result<Strided> {
    let n: usize = shape.iter().product();
    let (ta, tb) = (
        broadcast_strides(&a.shape, &a.strides, shape),
        broadcast_strides(&b.shape, &b.strides, shape),
    );
    let (row, sa, sb) = inner_row(shape, &ta, &tb);
    let vector = matches!((sa, sb), (1, 1) | (0, 1) | (1, 0));
    let r = rules(sa, sb, vector);
    let paths = Paths {
        n,
        row,
        vector,
        quads: r.quads,
        scalar_only: r.scalar_only,
        block,
        chunk: torch_vec::torch_chunk(n),
    };
    let mut out: Vec<U> = alloc_vec(n)?;
    // SAFETY: the dtypes are A and B (the caller dispatches on them).
    let (xa, xb) = unsafe { (a.storage.slice::<A>(), b.storage.slice::<B>()) };
    let mut it = MultiIndex::new(shape, [ta, tb], [a.offset as isize, b.offset as isize]);
    let mut p = 0;
    while let Some([oa, ob]) = it.next_offsets() {
        out.push(f(xa[oa as usize], xb[ob as usize], paths.of(p)));
        p += 1;
    }
    Strided::from_vec(out, shape)
}

/// `f(x, path)` over a tensor, laid out as `map1` lays out its result: the unary loop's
/// vector blocks run where the input has unit (or zero) stride along TensorIterator's row.
pub fn map1_paths<A: Element, U: Element>(
    x: &Strided,
    block: usize,
    f: impl Fn(A, Path) -> U,
) -> Result<Strided> {
    let ord = if x.is_contiguous() {
        None
    } else {
        layout::result_strides(&x.shape, &[(&x.shape, &x.strides)])
    };
    let run = |x: &Strided, shape: &[usize]| -> Result<Strided> {
        let n: usize = shape.iter().product();
        let (row, s, _) = inner_row(shape, &x.strides, &x.strides);
        let paths = Paths {
            n,
            row,
            vector: s == 1 || s == 0,
            quads: false,
            scalar_only: false,
            block,
            chunk: torch_vec::torch_chunk(n),
        };
        let mut out: Vec<U> = alloc_vec(n)?;
        // SAFETY: the dtype is A (the caller dispatches on it).
        let src = unsafe { x.storage.slice::<A>() };
        let mut it = MultiIndex::new(shape, [x.strides.clone()], [x.offset as isize]);
        let mut p = 0;
        while let Some([o]) = it.next_offsets() {
            out.push(f(src[o as usize], paths.of(p)));
            p += 1;
        }
        Strided::from_vec(out, shape)
    };
    match ord {
        None => run(x, &x.shape.clone()),
        Some(st) => {
            layout::run_with_strides(&x.shape.clone(), &st, &[x], |ins, ps| run(&ins[0], ps))
        }
    }
}

/// The declared float functions of two tensors whose vector and scalar code differ in
/// PyTorch: float32 and float64 `atan2` (SLEEF's `atan2f_u10`/`atan2_u10` in the vector
/// blocks, the C library's `atan2f`/`atan2` elsewhere). `None` for the others.
pub fn float_binary(
    op: crate::backend::kernel::FloatBinary,
    a: &Strided,
    b: &Strided,
    shape: &[usize],
) -> Result<Option<Strided>> {
    use crate::backend::kernel::FloatBinary;
    use crate::dtype::DType;
    if op != FloatBinary::Atan2 {
        return Ok(None);
    }
    // SLEEF's function in the vector blocks (two vectors a step: 16 float32 or 8 float64 on
    // AVX2), the C library's elsewhere
    fn by_path<T: Element>(
        (a, b, shape): (&Strided, &Strided, &[usize]),
        block: usize,
        vector: fn(T, T) -> T,
        scalar: fn(T, T) -> T,
    ) -> Result<Strided> {
        let rules = |_, _, _| Rules {
            quads: false,
            scalar_only: false,
        };
        map2_paths(a, b, shape, block, rules, |y: T, x: T, p| {
            if p == Path::Vector {
                vector(y, x)
            } else {
                scalar(y, x)
            }
        })
    }
    let args = (a, b, shape);
    Ok(Some(match a.dtype() {
        DType::Float32 => by_path(
            args,
            2 * torch_vec::lanes(),
            super::sleef::atan2,
            f32::atan2,
        )?,
        DType::Float64 => by_path(args, torch_vec::lanes(), super::sleef64::atan2, f64::atan2)?,
        _ => return Ok(None),
    }))
}

/// TensorIterator's innermost row after it coalesces dims (the output row-major), and the
/// inputs' strides along it (its loop is vectorised where every input has unit stride, or one
/// has stride 0 and the others unit stride).
fn inner_row(shape: &[usize], ta: &[isize], tb: &[isize]) -> (usize, isize, isize) {
    let dims: Vec<usize> = (0..shape.len()).rev().filter(|&d| shape[d] != 1).collect();
    let Some(&inner) = dims.first() else {
        return (1, 1, 1);
    };
    let (sa, sb) = (ta[inner], tb[inner]);
    let mut row = shape[inner];
    for &d in &dims[1..] {
        if ta[d] != sa * row as isize || tb[d] != sb * row as isize {
            break;
        }
        row *= shape[d];
    }
    (row, sa, sb)
}

/// The path of each row-major position of a loop over `n` elements.
struct Paths {
    n: usize,
    row: usize,
    vector: bool,
    /// The compiler's loop for a scalar operand: the first element by the scalar code, then
    /// blocks of four vectorised, the rest scalar (complex64 products).
    quads: bool,
    /// Every element outside the vector blocks by the scalar code (in place).
    scalar_only: bool,
    block: usize,
    chunk: usize,
}

impl Paths {
    fn of(&self, p: usize) -> Path {
        // the segment of p's row inside p's thread part
        let (c0, r0) = (p / self.chunk * self.chunk, p / self.row * self.row);
        let (s, e) = (c0.max(r0), (c0 + self.chunk).min(r0 + self.row).min(self.n));
        let body = if self.vector {
            (e - s) / self.block * self.block
        } else {
            0
        };
        if p - s < body {
            return Path::Vector;
        }
        let (q, rest) = (p - s - body, e - s - body);
        if self.scalar_only {
            return Path::Scalar;
        }
        if self.quads {
            return if q >= 1 && q - 1 < (rest - 1) / 4 * 4 {
                Path::Pair
            } else {
                Path::Scalar
            };
        }
        if q < rest / 2 * 2 {
            Path::Pair
        } else {
            Path::Scalar
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_rows_into_blocks_pairs_and_an_odd_last() {
        let p = Paths {
            n: 19,
            row: 19,
            vector: true,
            quads: false,
            scalar_only: false,
            block: 8,
            chunk: 19,
        };
        let got: Vec<Path> = (0..19).map(|i| p.of(i)).collect();
        assert!(got[..16].iter().all(|&x| x == Path::Vector));
        assert_eq!(got[16..], [Path::Pair, Path::Pair, Path::Scalar]);
        let q = Paths {
            n: 9,
            row: 3,
            vector: false,
            quads: false,
            scalar_only: false,
            block: 8,
            chunk: 9,
        };
        assert_eq!(q.of(2), Path::Scalar);
        assert_eq!(q.of(4), Path::Pair);
        let r = Paths {
            n: 7,
            row: 7,
            vector: true,
            quads: true,
            scalar_only: false,
            block: 8,
            chunk: 7,
        };
        let got: Vec<Path> = (0..7).map(|i| r.of(i)).collect();
        assert_eq!(got[0], Path::Scalar);
        assert!(got[1..5].iter().all(|&x| x == Path::Pair));
        assert_eq!(got[5..], [Path::Scalar, Path::Scalar]);
    }

    #[test]
    fn rows_coalesce_while_strides_continue() {
        assert_eq!(inner_row(&[4, 5], &[5, 1], &[5, 1]), (20, 1, 1));
        assert_eq!(inner_row(&[4, 5], &[5, 1], &[0, 1]), (5, 1, 1));
        assert_eq!(inner_row(&[4, 5], &[1, 4], &[1, 4]), (5, 4, 4));
        assert_eq!(inner_row(&[4, 1], &[1, 1], &[0, 0]), (4, 1, 0));
    }
}
