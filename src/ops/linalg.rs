//! Matrix products: `matmul` dispatches to dot, mv, mm and batched mm like PyTorch.
use super::*;
use crate::dtype::DType;
use crate::kernels::{self, matmul::mm as mm_kernel};
use crate::shape::broadcast_shapes;
use crate::{grads, with_numeric};

fn common(a: &Tensor, b: &Tensor, op: &str) -> Result<()> {
    let (va, vb) = (a.device(), b.device());
    if va != vb {
        let arg = if op == "bmm" { "batch2" } else { "mat2" };
        let op = if op.starts_with("addmm") { "mm" } else { op };
        return Err(crate::device::arg_mismatch(op, arg, vb, va));
    }
    let (da, db) = (a.dtype(), b.dtype());
    if da != db {
        return Err(Error::Runtime(format!(
            "expected m1 and m2 to have the same dtype, but got: {} != {}",
            da.cpp_name(),
            db.cpp_name()
        )));
    }
    if da == DType::Bool {
        return Err(Error::Runtime(format!(
            "\"{}\" not implemented for 'Bool'",
            op
        )));
    }
    Ok(())
}

/// 2-D × 2-D (MmBackward0).
pub fn mm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.ndim() != 2 {
        return Err(Error::Runtime("self must be a matrix".to_string()));
    }
    if b.ndim() != 2 {
        return Err(Error::Runtime("mat2 must be a matrix".into()));
    }
    common(a, b, "addmm_impl_cpu_")?;
    let (sa, sb) = (a.shape(), b.shape());
    if sa[1] != sb[0] {
        return Err(Error::Runtime(format!(
            "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
            sa[0], sa[1], sb[0], sb[1]
        )));
    }
    let out = mm_kernel(a, b)?;
    if needs_grad(&[a, b]) {
        // d(AB) = dA B + A dB  →  gA = G Bᴴ, gB = Aᴴ G
        record(
            "MmBackward0",
            &[a, b],
            &[&out],
            vec![save("self", a)?, save("mat2", b)?],
            Box::new(|s, g| {
                grads![
                    mm(&g[0], &conj(&t(&s[1])?)?)?,
                    mm(&conj(&t(&s[0])?)?, &g[0])?
                ]
            }),
        );
    }
    Ok(out)
}

/// 1-D · 1-D (DotBackward0).
pub fn dot(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    common(a, b, "dot")?;
    let (na, nb) = (a.numel(), b.numel());
    if na != nb {
        return Err(Error::Runtime(format!(
            "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got {} and {} elements respectively",
            na, nb, na, nb
        )));
    }
    // Half types multiply and accumulate in float32 (PyTorch's accumulation type).
    let half = matches!(a.dtype(), DType::Float16 | DType::BFloat16);
    let (ka, kb) = if half {
        (
            kernels::cast(a, DType::Float32)?,
            kernels::cast(b, DType::Float32)?,
        )
    } else {
        (a.clone(), b.clone())
    };
    let p = kernels::contiguous(&super::arith::binary_kernel(
        super::arith::BinOp::Mul,
        &ka,
        &kb,
        ka.dtype(),
    )?)?;
    let out = if p.is_cuda() {
        crate::cuda::reduce("sum", &p, &[0], false)?
    } else {
        with_numeric!(ka.dtype(), T, {
            let v = p.to_vec::<T>();
            let mut acc = T::default();
            for x in v {
                acc += x;
            }
            Tensor::from_vec(vec![acc], &[])?
        })
    };
    let out = if half {
        kernels::cast(&out, a.dtype())?
    } else {
        out
    };
    if needs_grad(&[a, b]) {
        record(
            "DotBackward0",
            &[a, b],
            &[&out],
            vec![save("self", a)?, save("tensor", b)?],
            Box::new(|s, g| grads![mul(&g[0], &conj(&s[1])?)?, mul(&g[0], &conj(&s[0])?)?]),
        );
    }
    Ok(out)
}

/// 2-D × 1-D (MvBackward0).
pub fn mv(a: &Tensor, v: &Tensor) -> Result<Tensor> {
    common(a, v, "addmv_impl_cpu")?;
    let (sa, n) = (a.shape(), v.numel());
    if sa[1] != n {
        return Err(Error::Runtime(format!(
            "size mismatch, got input ({}), mat ({}x{}), vec ({})",
            sa[0], sa[0], sa[1], n
        )));
    }
    let col = v
        .detached()
        .view_with(&[n, 1], &[v.strides()[0], 1], v.data().offset);
    let r = mm_kernel(a, &col)?;
    let out = r.view_with(&[sa[0]], &[1], 0).detached();
    if needs_grad(&[a, v]) {
        // gA = g ⊗ v̄, gv = Aᴴ g
        record(
            "MvBackward0",
            &[a, v],
            &[&out],
            vec![save("self", a)?, save("vec", v)?],
            Box::new(|s, g| {
                let ga = mul(&unsqueeze(&g[0], 1)?, &unsqueeze(&conj(&s[1])?, 0)?)?;
                grads![ga, mv(&conj(&t(&s[0])?)?, &g[0])?]
            }),
        );
    }
    Ok(out)
}

/// Batched product of ≥3-D operands with broadcast batch dims (BmmBackward0 semantics, recorded
/// through expand/reshape so the names match PyTorch's matmul decomposition closely enough).
fn batched(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (sa, sb) = (a.shape(), b.shape());
    let (m, k) = (sa[sa.len() - 2], sa[sa.len() - 1]);
    let (k2, n) = (sb[sb.len() - 2], sb[sb.len() - 1]);
    if k != k2 {
        return Err(Error::Runtime(format!(
            "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
            sa[..sa.len() - 2].iter().product::<usize>(), k,
            sb[..sb.len() - 2].iter().product::<usize>(), k2
        )));
    }
    let batch = broadcast_shapes(&sa[..sa.len() - 2], &sb[..sb.len() - 2])?;
    let nb: usize = batch.iter().product();
    let mut ea: Vec<i64> = batch.iter().map(|&d| d as i64).collect();
    ea.extend([m as i64, k as i64]);
    let mut eb: Vec<i64> = batch.iter().map(|&d| d as i64).collect();
    eb.extend([k as i64, n as i64]);
    let a3 = reshape(&expand_i64(a, &ea)?, &[nb as i64, m as i64, k as i64])?;
    let b3 = reshape(&expand_i64(b, &eb)?, &[nb as i64, k as i64, n as i64])?;
    let r = bmm(&a3, &b3)?;
    let mut out_shape: Vec<i64> = batch.iter().map(|&d| d as i64).collect();
    out_shape.extend([m as i64, n as i64]);
    reshape(&r, &out_shape)
}

/// 3-D × 3-D with equal batch (BmmBackward0).
pub fn bmm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.ndim() != 3 || b.ndim() != 3 {
        return Err(Error::Runtime("batch1 must be a 3D tensor".into()));
    }
    common(a, b, "bmm")?;
    let (sa, sb) = (a.shape(), b.shape());
    if sa[0] != sb[0] || sa[2] != sb[1] {
        return Err(Error::Runtime(format!(
            "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
            sa[0], sa[2], sb[0], sb[1]
        )));
    }
    let (nb, m, n) = (sa[0], sa[1], sb[2]);
    let cuda = crate::cuda::any_cuda(&[a, b]);
    let out = if cuda {
        crate::cuda::bmm(&a.detached(), &b.detached())?
    } else {
        Tensor::zeros(&[nb, m, n], a.dtype())?
    };
    for i in 0..if cuda { 0 } else { nb } {
        let ai = select(&a.detached(), 0, i as i64)?;
        let bi = select(&b.detached(), 0, i as i64)?;
        let r = mm_kernel(&ai, &bi)?;
        let oi = out.view_with(&[m, n], &[n as isize, 1], i * m * n);
        kernels::copy_into(&oi, &r)?;
    }
    if needs_grad(&[a, b]) {
        record(
            "BmmBackward0",
            &[a, b],
            &[&out],
            vec![save("self", a)?, save("mat2", b)?],
            Box::new(|s, g| {
                let at = conj(&transpose(&s[0], 1, 2)?)?;
                let bt = conj(&transpose(&s[1], 1, 2)?)?;
                grads![bmm(&g[0], &bt)?, bmm(&at, &g[0])?]
            }),
        );
    }
    Ok(out)
}

/// `a @ b` with PyTorch's dispatch on the number of dims.
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (na, nb) = (a.ndim(), b.ndim());
    if na == 0 || nb == 0 {
        return Err(Error::Runtime(format!(
            "both arguments to matmul need to be at least 1D, but they are {}D and {}D",
            na, nb
        )));
    }
    if a.dtype() != b.dtype() {
        return Err(Error::Runtime(format!(
            "expected m1 and m2 to have the same dtype, but got: {} != {}",
            a.dtype().cpp_name(),
            b.dtype().cpp_name()
        )));
    }
    match (na, nb) {
        (1, 1) => dot(a, b),
        (2, 1) => mv(a, b),
        (1, 2) => {
            let (n, sb) = (a.numel(), b.shape());
            if n != sb[0] {
                return Err(Error::Runtime(format!(
                    "mat1 and mat2 shapes cannot be multiplied (1x{} and {}x{})",
                    n, sb[0], sb[1]
                )));
            }
            squeeze_dim4(&mm(&unsqueeze(a, 0)?, b)?)
        }
        (2, 2) => mm(a, b),
        (_, 2) => {
            // Fold the batch dims of `a` into rows: one mm, then an unsafe view back.
            let sa = a.shape();
            let k = sa[na - 1] as i64;
            let m = b.shape()[1] as i64;
            // (explicit row count: a -1 is ambiguous when k is 0)
            let nrows: usize = sa[..na - 1].iter().product();
            let rows = reshape(a, &[nrows as i64, k])?;
            let r = mm(&rows, b)?;
            let mut shape: Vec<i64> = sa[..na - 1].iter().map(|&d| d as i64).collect();
            shape.push(m);
            unsafe_view(&r, &shape)
        }
        _ => {
            let a2 = if na == 1 { unsqueeze(a, 0)? } else { a.clone() };
            let b2 = if nb == 1 { unsqueeze(b, 1)? } else { b.clone() };
            let r = batched(&a2, &b2)?;
            let r = if na == 1 { squeeze_dim(&r, -2)? } else { r };
            if nb == 1 {
                squeeze_dim(&r, -1)
            } else {
                Ok(r)
            }
        }
    }
}

/// `v @ M` squeezes the leading 1 (SqueezeBackward4 in PyTorch's naming).
fn squeeze_dim4(x: &Tensor) -> Result<Tensor> {
    let out = {
        let d = x.data();
        x.view_with(&d.shape[1..], &d.strides[1..], d.offset)
    };
    if needs_grad(&[x]) {
        record(
            "SqueezeBackward4",
            &[x],
            &[&out],
            vec![],
            Box::new(|_, g| grads![unsqueeze(&g[0], 0)?]),
        );
    }
    Ok(out)
}

/// `bias + a @ b` for 2-D a, b as one node (AddmmBackward0), what `nn.Linear` records.
pub fn addmm(bias: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let prod = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        mm(a, b)?
    };
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        add(&prod, bias)?
    };
    if out.shape() != prod.shape() {
        return Err(Error::Runtime(format!(
            "The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension 1",
            prod.shape()[1],
            bias.shape().last().copied().unwrap_or(1)
        )));
    }
    if needs_grad(&[bias, a, b]) {
        // d(c + AB) = dc + dA B + A dB
        record(
            "AddmmBackward0",
            &[bias, a, b],
            &[&out],
            vec![save("mat1", a)?, save("mat2", b)?],
            Box::new(|s, g| {
                grads![
                    g[0].clone(),
                    mm(&g[0], &conj(&t(&s[1])?)?)?,
                    mm(&conj(&t(&s[0])?)?, &g[0])?
                ]
            }),
        );
    }
    Ok(out)
}
