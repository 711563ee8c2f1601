//! `_core._factor`: the faer factorizations of `backend::cpu::factor` over a batch of
//! row-major double-precision matrices passed as bytes (`_linalg_faer.py` turns numpy arrays
//! into these and back). The GIL is released while they run.
use crate::backend::cpu::factor::{self, Scalar};
use num_complex::Complex64;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Plain-old-data elements that travel as native-endian bytes.
trait Pod: Copy + Default {}
impl Pod for f64 {}
impl Pod for Complex64 {}

fn from_bytes<T: Pod>(b: &[u8]) -> Vec<T> {
    let size = std::mem::size_of::<T>();
    let mut out = vec![T::default(); b.len() / size];
    // SAFETY: `out` holds `b.len() / size` elements of a plain-old-data type, and every bit
    // pattern of f64 / Complex<f64> is valid.
    unsafe {
        std::ptr::copy_nonoverlapping(b.as_ptr(), out.as_mut_ptr() as *mut u8, out.len() * size);
    }
    out
}

fn to_bytes<T: Pod>(v: &[T]) -> Vec<u8> {
    let bytes = std::mem::size_of_val(v);
    let mut out = vec![0u8; bytes];
    // SAFETY: both buffers hold `bytes` bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(v.as_ptr() as *const u8, out.as_mut_ptr(), bytes);
    }
    out
}

/// `f` on each matrix of a batch, its two outputs concatenated over the batch.
fn concat2<A, B>(batch: usize, mut f: impl FnMut(usize) -> (Vec<A>, Vec<B>)) -> (Vec<A>, Vec<B>) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for i in 0..batch {
        let (x, y) = f(i);
        a.extend(x);
        b.extend(y);
    }
    (a, b)
}

/// One factorization's outputs (concatenated over the batch, row-major) and each matrix's
/// LAPACK-style `info` (0 on success).
type Outputs = (Vec<Vec<u8>>, Vec<i64>);

/// Runs `op` on each of the `batch` matrices [m, n] of `a` (and [m, k] of `b` for "solve").
#[allow(clippy::too_many_arguments)]
fn run<T: Scalar + Pod>(
    op: &str,
    a: &[u8],
    (batch, m, n): (usize, usize, usize),
    b: Option<&[u8]>,
    k: usize,
    flag: bool,
) -> Result<Outputs, String> {
    let a: Vec<T> = from_bytes(a);
    if a.len() != batch * m * n {
        return Err(format!(
            "_factor: {} elements for a batch of {batch} [{m}, {n}]",
            a.len()
        ));
    }
    let mats = |i: usize| &a[i * m * n..(i + 1) * m * n];
    let mut infos = vec![0i64; batch];
    let square = || {
        if m == n {
            Ok(())
        } else {
            Err(format!(
                "_factor: {op} needs square matrices, got [{m}, {n}]"
            ))
        }
    };
    let outs = match op {
        "solve" | "inv" => {
            square()?;
            let b: Vec<T> = b.map(from_bytes).unwrap_or_default();
            if op == "solve" && b.len() != batch * n * k {
                return Err(format!(
                    "_factor: solve's right side has {} elements",
                    b.len()
                ));
            }
            let width = if op == "solve" { k } else { n };
            let mut x = vec![T::real(0.0); batch * n * width];
            let mut lu = factor::Lu::new(n, width);
            for (i, info) in infos.iter_mut().enumerate() {
                *info = lu.factor(mats(i)) as i64;
                if *info == 0 {
                    let v = if op == "solve" {
                        lu.solve(&b[i * n * k..(i + 1) * n * k], k)
                    } else {
                        lu.inverse()
                    };
                    x[i * n * width..(i + 1) * n * width].copy_from_slice(&v);
                }
            }
            vec![to_bytes(&x)]
        }
        "det" | "slogdet" => {
            square()?;
            let mut lu = factor::Lu::new(n, 0);
            let (mut d, mut logabs) = (Vec::with_capacity(batch), Vec::with_capacity(batch));
            for i in 0..batch {
                lu.factor(mats(i));
                if op == "det" {
                    d.push(lu.det());
                } else {
                    let (sign, l) = lu.slogdet();
                    d.push(sign);
                    logabs.push(l);
                }
            }
            if op == "det" {
                vec![to_bytes(&d)]
            } else {
                vec![to_bytes(&d), to_bytes(&logabs)]
            }
        }
        "cholesky" => {
            square()?;
            let mut l = vec![T::real(0.0); batch * n * n];
            for (i, info) in infos.iter_mut().enumerate() {
                match factor::cholesky(mats(i), n) {
                    Ok(v) => l[i * n * n..(i + 1) * n * n].copy_from_slice(&v),
                    Err(e) => *info = e as i64,
                }
            }
            vec![to_bytes(&l)]
        }
        "qr" => {
            let (q, r) = concat2(batch, |i| factor::qr(mats(i), m, n, flag));
            vec![to_bytes(&q), to_bytes(&r)]
        }
        "geqrf" => {
            let (h, tau) = concat2(batch, |i| factor::geqrf(mats(i), m, n));
            vec![to_bytes(&h), to_bytes(&tau)]
        }
        "eigh" => {
            square()?;
            let (w, v) = concat2(batch, |i| {
                factor::eigh(mats(i), n, flag, k != 0).unwrap_or_else(|| {
                    infos[i] = 1;
                    let vectors = if k != 0 { n * n } else { 0 };
                    (vec![f64::NAN; n], vec![T::real(f64::NAN); vectors])
                })
            });
            vec![to_bytes(&w), to_bytes(&v)]
        }
        "eig" => {
            square()?;
            let nan = Complex64::new(f64::NAN, f64::NAN);
            let (w, v) = concat2(batch, |i| {
                factor::eig(mats(i), n).unwrap_or_else(|| {
                    infos[i] = 1;
                    (vec![nan; n], vec![nan; n * n])
                })
            });
            vec![to_bytes(&w), to_bytes(&v)]
        }
        "svd" => {
            let (mut s, mut u, mut vh) = (Vec::new(), Vec::new(), Vec::new());
            let kk = m.min(n);
            let (um, vn) = if flag { (m, n) } else { (kk, kk) };
            for (i, info) in infos.iter_mut().enumerate() {
                let vectors = k != 0;
                let (si, ui, vi) = factor::svd(mats(i), m, n, flag, vectors).unwrap_or_else(|| {
                    *info = 1;
                    let (nu, nv) = if vectors { (m * um, vn * n) } else { (0, 0) };
                    let nan = T::real(f64::NAN);
                    (vec![f64::NAN; kk], vec![nan; nu], vec![nan; nv])
                });
                s.extend(si);
                u.extend(ui);
                vh.extend(vi);
            }
            vec![to_bytes(&s), to_bytes(&u), to_bytes(&vh)]
        }
        _ => return Err(format!("_factor: unknown operation {op:?}")),
    };
    Ok((outs, infos))
}

/// `_factor(op, a, complex, (batch, m, n), b=None, k=0, flag=False)` → (list of bytes, infos).
/// `op` is "solve" (`b` [batch, n, k]), "inv", "det", "slogdet", "cholesky", "qr" (`flag`:
/// complete), "geqrf", "eigh" (`flag`: lower triangle, `k`: eigenvectors), "eig" or "svd" (`flag`: full
/// matrices, `k`: vectors). Elements are float64, or complex128 with `complex`.
#[pyfunction]
#[pyo3(signature = (op, a, complex, shape, b=None, k=0, flag=false))]
#[allow(clippy::too_many_arguments)]
fn _factor(
    py: Python<'_>,
    op: &str,
    a: &[u8],
    complex: bool,
    shape: (usize, usize, usize),
    b: Option<&[u8]>,
    k: usize,
    flag: bool,
) -> PyResult<(Vec<Py<PyBytes>>, Vec<i64>)> {
    let (outs, infos) = py
        .detach(|| {
            if complex {
                run::<Complex64>(op, a, shape, b, k, flag)
            } else {
                run::<f64>(op, a, shape, b, k, flag)
            }
        })
        .map_err(PyValueError::new_err)?;
    let outs = outs.iter().map(|o| PyBytes::new(py, o).unbind()).collect();
    Ok((outs, infos))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_factor, m)?)
}
