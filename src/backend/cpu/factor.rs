//! The dense factorizations behind `torch.linalg` on the CPU, through faer: LU with partial
//! pivoting (solve, inverse, determinant), Cholesky, Householder QR, the self-adjoint and the
//! general eigendecompositions, and the SVD. Matrices are row-major slices in double precision
//! (`f64` or `Complex<f64>`); the Python layer batches, broadcasts and rounds to the dtype.
//!
//! Failures on values come back as LAPACK's `info` (1-based index of the failing pivot), so the
//! caller can word PyTorch's message for the right matrix of a batch.
use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::linalg::solvers::{Eigen, Llt, Qr, SelfAdjointEigen, Svd};
use faer::perm::PermRef;
use faer::{Mat, MatRef, Par, Side};
use num_complex::Complex64;

/// The two element types the factorizations run in.
pub trait Scalar: faer::traits::ComplexField<Real = f64> + Copy + Send + Sync + 'static {
    /// Whether this is the complex type.
    const COMPLEX: bool;
    /// |x|.
    fn modulus(self) -> f64;
    /// A real number as this type.
    fn real(x: f64) -> Self;
    /// x / |x| (x nonzero).
    fn unit(self) -> Self;
    /// x * y.
    fn times(self, y: Self) -> Self;
    /// This value as a complex number.
    fn complex(self) -> Complex64;
    /// 1 / x.
    fn recip(self) -> Self;
}

impl Scalar for f64 {
    const COMPLEX: bool = false;
    fn modulus(self) -> f64 {
        self.abs()
    }
    fn real(x: f64) -> Self {
        x
    }
    fn unit(self) -> Self {
        self.signum()
    }
    fn times(self, y: Self) -> Self {
        self * y
    }
    fn complex(self) -> Complex64 {
        Complex64::new(self, 0.0)
    }
    fn recip(self) -> Self {
        1.0 / self
    }
}

impl Scalar for Complex64 {
    const COMPLEX: bool = true;
    fn modulus(self) -> f64 {
        self.norm()
    }
    fn real(x: f64) -> Self {
        Complex64::new(x, 0.0)
    }
    fn unit(self) -> Self {
        self / self.norm()
    }
    fn times(self, y: Self) -> Self {
        self * y
    }
    fn complex(self) -> Complex64 {
        self
    }
    fn recip(self) -> Self {
        Complex64::new(1.0, 0.0) / self
    }
}

/// A row-major [m, n] slice as a faer matrix.
fn mat<T: Scalar>(a: &[T], m: usize, n: usize) -> Mat<T> {
    Mat::from_fn(m, n, |i, j| a[i * n + j])
}

/// A faer matrix as a row-major vector.
fn rows<T: Scalar>(a: MatRef<'_, T>) -> Vec<T> {
    let (m, n) = a.shape();
    let mut out = Vec::with_capacity(m * n);
    for i in 0..m {
        for j in 0..n {
            out.push(a[(i, j)]);
        }
    }
    out
}

/// LU with partial pivoting of one n×n matrix after another, reusing its buffers (a batch of
/// small matrices pays no allocation per matrix).
pub struct Lu<T: Scalar> {
    n: usize,
    lu: Mat<T>,
    fwd: Vec<usize>,
    bwd: Vec<usize>,
    mem: MemBuffer,
    transpositions: usize,
}

impl<T: Scalar> Lu<T> {
    /// A workspace for n×n matrices and right sides of `rhs` columns.
    pub fn new(n: usize, rhs: usize) -> Self {
        use faer::linalg::lu::partial_pivoting::{factor, inverse, solve};
        let par = Par::Seq;
        let req = StackReq::any_of(&[
            factor::lu_in_place_scratch::<usize, T>(n, n, par, Default::default()),
            solve::solve_in_place_scratch::<usize, T>(n, rhs.max(1), par),
            inverse::inverse_scratch::<usize, T>(n, par),
        ]);
        Lu {
            n,
            lu: Mat::zeros(n, n),
            fwd: vec![0; n],
            bwd: vec![0; n],
            mem: MemBuffer::new(req),
            transpositions: 0,
        }
    }

    /// Factors the row-major `a` [n, n]; returns LAPACK getrf's `info`: the 1-based index of
    /// the first exactly-zero pivot of U, or 0.
    pub fn factor(&mut self, a: &[T]) -> usize {
        let n = self.n;
        fill(&mut self.lu, a);
        let (info, _) = faer::linalg::lu::partial_pivoting::factor::lu_in_place(
            self.lu.as_mut(),
            &mut self.fwd,
            &mut self.bwd,
            Par::Seq,
            MemStack::new(&mut self.mem),
            Default::default(),
        );
        self.transpositions = info.transposition_count;
        (0..n)
            .find(|&i| self.lu[(i, i)].modulus() == 0.0)
            .map_or(0, |i| i + 1)
    }

    /// `A⁻¹ B` for the factored A and the row-major `b` [n, k].
    pub fn solve(&mut self, b: &[T], k: usize) -> Vec<T> {
        let mut x = Mat::from_fn(self.n, k, |i, j| b[i * k + j]);
        let perm = PermRef::new_checked(&self.fwd, &self.bwd, self.n);
        faer::linalg::lu::partial_pivoting::solve::solve_in_place(
            self.lu.as_ref(),
            self.lu.as_ref(),
            perm,
            x.as_mut(),
            Par::Seq,
            MemStack::new(&mut self.mem),
        );
        rows(x.as_ref())
    }

    /// `A⁻¹` of the factored A, row-major.
    pub fn inverse(&mut self) -> Vec<T> {
        let mut out = Mat::zeros(self.n, self.n);
        let perm = PermRef::new_checked(&self.fwd, &self.bwd, self.n);
        faer::linalg::lu::partial_pivoting::inverse::inverse(
            out.as_mut(),
            self.lu.as_ref(),
            self.lu.as_ref(),
            perm,
            Par::Seq,
            MemStack::new(&mut self.mem),
        );
        rows(out.as_ref())
    }

    /// `(sign, log|det|)` of the factored A, as numpy's slogdet reports them: sign 0 and
    /// log|det| -inf for a singular matrix; a unit complex sign for complex input.
    pub fn slogdet(&self) -> (T, f64) {
        let mut sign = T::real(self.parity());
        let mut logabs = 0.0;
        for i in 0..self.n {
            let d = self.lu[(i, i)];
            let r = d.modulus();
            if r == 0.0 {
                return (T::real(0.0), f64::NEG_INFINITY);
            }
            sign = sign.times(d.unit());
            logabs += r.ln();
        }
        (sign, logabs)
    }

    /// `det(A)` of the factored A: U's diagonal times the permutation's sign.
    pub fn det(&self) -> T {
        (0..self.n).fold(T::real(self.parity()), |acc, i| acc.times(self.lu[(i, i)]))
    }

    fn parity(&self) -> f64 {
        if self.transpositions.is_multiple_of(2) {
            1.0
        } else {
            -1.0
        }
    }
}

/// Copies the row-major `a` into `m` (same shape).
fn fill<T: Scalar>(m: &mut Mat<T>, a: &[T]) {
    let n = m.ncols();
    for j in 0..n {
        for (i, x) in m.col_mut(j).iter_mut().enumerate() {
            *x = a[i * n + j];
        }
    }
}

/// `A⁻¹ B` for square `a` [n, n] and `b` [n, k] (row-major), or getrf's `info` when U has a
/// zero pivot.
pub fn solve<T: Scalar>(a: &[T], n: usize, b: &[T], k: usize) -> Result<Vec<T>, usize> {
    let mut lu = Lu::new(n, k);
    match lu.factor(a) {
        0 => Ok(lu.solve(b, k)),
        info => Err(info),
    }
}

/// `A⁻¹` for square `a` [n, n], or getrf's `info` for a singular matrix.
pub fn inv<T: Scalar>(a: &[T], n: usize) -> Result<Vec<T>, usize> {
    let mut lu = Lu::new(n, n);
    match lu.factor(a) {
        0 => Ok(lu.inverse()),
        info => Err(info),
    }
}

/// `(sign, log|det|)` of square `a` [n, n] (see [`Lu::slogdet`]).
pub fn slogdet<T: Scalar>(a: &[T], n: usize) -> (T, f64) {
    let mut lu = Lu::new(n, 0);
    lu.factor(a);
    lu.slogdet()
}

/// `det(a)` of square `a` [n, n].
pub fn det<T: Scalar>(a: &[T], n: usize) -> T {
    let mut lu = Lu::new(n, 0);
    lu.factor(a);
    lu.det()
}

/// The lower Cholesky factor of the Hermitian positive-definite `a` [n, n] (its lower
/// triangle is read), or potrf's `info`: the order of the leading minor that is not positive
/// definite.
pub fn cholesky<T: Scalar>(a: &[T], n: usize) -> Result<Vec<T>, usize> {
    match Llt::new(mat(a, n, n).as_ref(), Side::Lower) {
        Ok(llt) => Ok(rows(llt.L())),
        Err(faer::linalg::cholesky::llt::factor::LltError::NonPositivePivot { index }) => {
            Err(index + 1)
        }
    }
}

/// Householder QR of `a` [m, n]: `(Q, R)` with Q [m, m] and R [m, n] when `complete`, else
/// Q [m, k] and R [k, n] (k = min(m, n)). R's diagonal has LAPACK's signs (geqrf's reflectors).
pub fn qr<T: Scalar>(a: &[T], m: usize, n: usize, complete: bool) -> (Vec<T>, Vec<T>) {
    let qr = Qr::new(mat(a, m, n).as_ref());
    if complete {
        (rows(qr.compute_Q().as_ref()), rows(qr.R()))
    } else {
        (rows(qr.compute_thin_Q().as_ref()), rows(qr.thin_R()))
    }
}

/// geqrf's packed Householder QR of `a` [m, n]: R on and above the diagonal, each reflector's
/// vector (its leading 1 implied) below it, and the k = min(m, n) scales `tau` with
/// `H = I - tau v vᴴ`, as LAPACK stores them (faer keeps `1 / tau`).
pub fn geqrf<T: Scalar>(a: &[T], m: usize, n: usize) -> (Vec<T>, Vec<T>) {
    use faer::linalg::qr::no_pivoting::factor as qr_factor;
    let mut h = mat(a, m, n);
    let k = m.min(n);
    let mut coeff = Mat::<T>::zeros(1, k);
    if k > 0 {
        let par = Par::Seq;
        let req = qr_factor::qr_in_place_scratch::<T>(m, n, 1, par, Default::default());
        let mut mem = MemBuffer::new(req);
        qr_factor::qr_in_place(
            h.as_mut(),
            coeff.as_mut(),
            par,
            MemStack::new(&mut mem),
            Default::default(),
        );
    }
    let tau = (0..k).map(|j| coeff[(0, j)].recip()).collect();
    (rows(h.as_ref()), tau)
}

/// Eigenvalues (ascending) and, with `vectors`, eigenvectors (as columns, [n, n]) of the
/// Hermitian `a` [n, n], reading its lower triangle (`lower`) or its upper one. `None` when the
/// iteration did not converge.
pub fn eigh<T: Scalar>(
    a: &[T],
    n: usize,
    lower: bool,
    vectors: bool,
) -> Option<(Vec<f64>, Vec<T>)> {
    let side = if lower { Side::Lower } else { Side::Upper };
    let m = mat(a, n, n);
    if !vectors {
        return m
            .self_adjoint_eigenvalues(side)
            .ok()
            .map(|w| (w, Vec::new()));
    }
    let evd = SelfAdjointEigen::new(m.as_ref(), side).ok()?;
    let s = evd.S();
    // a Hermitian matrix's eigenvalues are real (stored as T)
    let w = (0..n).map(|i| s[i].complex().re).collect();
    Some((w, rows(evd.U())))
}

/// Eigenvalues and eigenvectors (columns of [n, n]) of a general square `a` [n, n], complex,
/// each eigenvector scaled as LAPACK's geev scales them: unit 2-norm; for complex input its
/// largest component real and positive (zgeev); for real input, a complex pair's largest
/// component real with the sign of its real part (dgeev's rotation), a real eigenvalue's
/// vector as computed. `None` when the iteration did not converge.
pub fn eig<T: Scalar>(a: &[T], n: usize) -> Option<(Vec<Complex64>, Vec<Complex64>)> {
    let m = mat(a, n, n);
    let evd: Eigen<f64> = m.eigen().ok()?;
    let s = evd.S();
    let w: Vec<Complex64> = (0..n).map(|i| s[i]).collect();
    let mut v = evd.U().to_owned();
    for (j, wj) in w.iter().enumerate() {
        let col = v.col(j);
        let norm = (0..n).map(|i| col[i].norm_sqr()).sum::<f64>().sqrt();
        let big = (0..n)
            .max_by(|&p, &q| col[p].norm_sqr().total_cmp(&col[q].norm_sqr()))
            .map_or(Complex64::new(0.0, 0.0), |p| col[p]);
        let mut phase = Complex64::new(1.0, 0.0);
        if big.norm() > 0.0 && (T::COMPLEX || wj.im != 0.0) {
            phase = big.conj() / big.norm();
            if !T::COMPLEX && big.re < 0.0 {
                phase = -phase;
            }
        }
        let scale = if norm == 0.0 { 1.0 } else { 1.0 / norm };
        for i in 0..n {
            v[(i, j)] = v[(i, j)] * phase * scale;
        }
    }
    Some((w, rows(v.as_ref())))
}

/// The SVD of `a` [m, n]: singular values (descending) and, with `vectors`, `U` and `Vᴴ`
/// ([m, m] and [n, n] when `full`, else [m, k] and [k, n]). `None` when it did not converge.
pub fn svd<T: Scalar>(
    a: &[T],
    m: usize,
    n: usize,
    full: bool,
    vectors: bool,
) -> Option<(Vec<f64>, Vec<T>, Vec<T>)> {
    let x = mat(a, m, n);
    if !vectors {
        return x
            .singular_values()
            .ok()
            .map(|s| (s, Vec::new(), Vec::new()));
    }
    let svd = if full {
        Svd::new(x.as_ref())
    } else {
        Svd::new_thin(x.as_ref())
    }
    .ok()?;
    let s = svd.S();
    let k = m.min(n);
    let sv = (0..k).map(|i| s[i].modulus()).collect();
    Some((
        sv,
        rows(svd.U()),
        rows(svd.V().adjoint().to_owned().as_ref()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_inverse_det() {
        let a = [4.0, 3.0, 6.0, 3.0];
        let x = solve(&a, 2, &[1.0, 0.0, 0.0, 1.0], 2).unwrap();
        let inv = inv(&a, 2).unwrap();
        for (p, q) in x.iter().zip(&inv) {
            assert!((p - q).abs() < 1e-15);
        }
        assert!((inv[0] + 0.5).abs() < 1e-15 && (inv[1] - 0.5).abs() < 1e-15);
        assert!((det(&a, 2) + 6.0).abs() < 1e-14);
        let (sign, logabs) = slogdet(&a, 2);
        assert_eq!(sign, -1.0);
        assert!((logabs - 6f64.ln()).abs() < 1e-14);
        assert_eq!(solve(&[1.0, 2.0, 2.0, 4.0], 2, &[1.0, 1.0], 1), Err(2));
        assert_eq!(slogdet(&[0.0, 0.0, 0.0, 0.0], 2), (0.0, f64::NEG_INFINITY));
    }

    #[test]
    fn cholesky_reports_the_minor() {
        let l = cholesky(&[4.0, 0.0, 2.0, 5.0], 2).unwrap();
        assert_eq!(l, vec![2.0, 0.0, 1.0, 2.0]);
        assert_eq!(cholesky(&[1.0, 0.0, 2.0, 1.0], 2), Err(2));
    }

    #[test]
    fn qr_has_lapack_signs() {
        // geqrf's first reflector maps column 0 to -sign(a00)‖a0‖ e0
        let (q, r) = qr(&[3.0, 1.0, 4.0, 2.0], 2, 2, false);
        assert!((r[0] + 5.0).abs() < 1e-14);
        assert!((q[0] + 0.6).abs() < 1e-14);
    }

    #[test]
    fn eigh_and_svd() {
        let (w, v) = eigh(&[2.0, 1.0, 1.0, 2.0], 2, true, true).unwrap();
        assert!((w[0] - 1.0).abs() < 1e-14 && (w[1] - 3.0).abs() < 1e-14);
        assert!((v[0].abs() - 0.5f64.sqrt()).abs() < 1e-14);
        let (s, _, _) = svd(&[3.0, 0.0, 0.0, -4.0], 2, 2, false, true).unwrap();
        assert_eq!(s.len(), 2);
        assert!((s[0] - 4.0).abs() < 1e-14 && (s[1] - 3.0).abs() < 1e-14);
        let (w, _) = eig(&[0.0, -1.0, 1.0, 0.0], 2).unwrap();
        assert!(w
            .iter()
            .all(|z| (z.norm() - 1.0).abs() < 1e-14 && z.re.abs() < 1e-14));
    }
}
