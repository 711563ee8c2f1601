//! Products: prod over everything or one dim, and the product of the other elements that its
//! gradient needs.
use super::*;
use crate::backend::{self, ReduceKernel, ScanKernel};
use crate::dtype::DType;
use crate::grads;

/// Product over everything (ProdBackward0) or one dim (ProdBackward1).
pub fn prod(x: &Tensor, dim: Option<i64>, keepdim: bool) -> Result<Tensor> {
    let dt = if x.dtype().is_differentiable() {
        x.dtype()
    } else {
        DType::Int64
    };
    let src = backend::cast(x, dt)?;
    let rd = reduce_dims(x.ndim(), dim.map(|d| vec![d]).as_deref())?;
    // prod(dim) of a 0-d tensor is the tensor, still recorded as ProdBackward1.
    let by_dim = dim.is_some();
    let dim = if rd.is_empty() { None } else { dim };
    let vals = backend::reduce(ReduceKernel::Prod, &src, &rd, true)?;
    let out = if keepdim || dim.is_none() {
        if dim.is_none() {
            reshape(&vals, &[])?
        } else {
            vals
        }
    } else {
        squeeze_dim(&vals, rd[0] as i64)?
    };
    let out = out.detached();
    if needs_grad(&[x])? {
        let name = if by_dim {
            "ProdBackward1"
        } else {
            "ProdBackward0"
        };
        let shape = x.shape();
        record(
            name,
            &[x],
            &[&out],
            vec![save("self", x)?, save_output("result", &out, 0)?],
            Box::new(move |s, g| {
                // d prod = prod / x · dL where x ≠ 0; at zeros, the product of the others.
                let (x, r) = (&s[0], &s[1]);
                if x.ndim() == 0 {
                    // the product of one number is that number: the gradient passes as is
                    return grads![g[0].clone()];
                }
                let (mut r2, mut g2) = (r.clone(), g[0].clone());
                if dim.is_some() && !keepdim {
                    r2 = unsqueeze(&r2, rd[0] as i64)?;
                    g2 = unsqueeze(&g2, rd[0] as i64)?;
                }
                let has_zero = x
                    .try_to_vec::<num_complex::Complex64>()?
                    .iter()
                    .any(|v| v.norm() == 0.0);
                if !has_zero {
                    return grads![mul(
                        &expand(&g2, &shape)?,
                        &conj(&div(&expand(&r2, &shape)?, x)?)?
                    )?];
                }
                let d = dim.map(|_| rd[0]);
                let others = if x.is_cuda() && !crate::grad_mode::is_grad_enabled() {
                    prod_of_others(x, d)?
                } else {
                    prod_of_others_masked(x, d)?
                };
                grads![mul(&expand(&g2, &shape)?, &conj(&others)?)?]
            }),
        )?;
    }
    Ok(out)
}

/// For each element, the product of the other elements of its group, on the GPU: two
/// exclusive scans (no division, so zeros are fine).
fn prod_of_others(x: &Tensor, dim: Option<usize>) -> Result<Tensor> {
    let (flat, d) = match dim {
        None => (reshape(&x.detached(), &[-1])?, 0),
        Some(d) => (x.detached(), d),
    };
    let before = backend::scan(ScanKernel::Prod, &flat, d, false, true)?;
    let after = backend::scan(ScanKernel::Prod, &flat, d, true, true)?;
    let others =
        super::arith::binary_kernel(super::arith::BinOp::Mul, &before, &after, flat.dtype())?;
    let dims: Vec<i64> = x.shape().iter().map(|&s| s as i64).collect();
    reshape(&others, &dims)
}

/// For each element, the product of the other elements of its group, in O(n) and written with
/// ops, so that under create_graph it is differentiable (prod's double backward at zeros).
///
/// With `x'` = x with its zeros replaced by 1, `P'` = prod(x') over the group, `c` = the
/// group's count of zeros and `Z` = the sum of its zero elements (0, but carrying their
/// gradient):
///   c = 0: P'/x;   c = 1: P' at the zero, Z·P'/x elsewhere;   c = 2: (Z − x)·P' at the zeros,
///   0 elsewhere;   c > 2: 0.
/// The values are exact, and so are their first derivatives (the second derivative of prod);
/// higher derivatives are exact while a group has at most one zero.
fn prod_of_others_masked(x: &Tensor, dim: Option<usize>) -> Result<Tensor> {
    let (flat, d) = match dim {
        None => (reshape(x, &[-1])?, 0i64),
        Some(d) => (x.clone(), d as i64),
    };
    let zero = Tensor::wrapped_scalar(0.0f64);
    let one = Tensor::wrapped_scalar(1.0f64);
    let (is_zero, count) = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let z = compare(CmpOp::Eq, &flat, &zero)?;
        let c = sum(&backend::cast(&z, DType::Int64)?, Some(&[d]), true)?;
        (z, c)
    };
    let c_is = |n: f64| -> Result<Tensor> {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        expand(
            &compare(CmpOp::Eq, &count, &Tensor::wrapped_scalar(n))?,
            &flat.shape(),
        )
    };
    let xp = where_(&is_zero, &one, &flat)?;
    let p = prod(&xp, Some(d), true)?;
    let zsum = sum(&where_(&is_zero, &flat, &zero)?, Some(&[d]), true)?;
    let p_over = div(&p, &xp)?;
    let c1 = where_(&is_zero, &p, &mul(&zsum, &p_over)?)?;
    let c2 = where_(&is_zero, &mul(&sub(&zsum, &flat)?, &p)?, &zero)?;
    let out = where_(
        &c_is(0.0)?,
        &p_over,
        &where_(&c_is(1.0)?, &c1, &where_(&c_is(2.0)?, &c2, &zero)?)?,
    )?;
    let dims: Vec<i64> = x.shape().iter().map(|&s| s as i64).collect();
    reshape(&out, &dims)
}
