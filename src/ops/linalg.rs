//! Matrix products: `matmul` dispatches to dot, mv, mm and batched mm like PyTorch.
use super::*;
use crate::backend::{self, mm as mm_kernel, ReduceKernel};
use crate::dtype::DType;
use crate::grads;
use crate::shape::broadcast_shapes;

fn common(a: &Tensor, b: &Tensor, op: &str) -> Result<()> {
    crate::dtype::shell_kernel_check(a.dtype(), op)?;
    let (va, vb) = (a.device(), b.device());
    if va != vb {
        let arg = if op == "bmm" { "batch2" } else { "mat2" };
        let op = if op.starts_with("addmm") { "mm" } else { op };
        return Err(crate::device::arg_mismatch(op, arg, vb, va));
    }
    let (da, db) = (a.dtype(), b.dtype());
    if da != db {
        // each kernel words it its own way (PyTorch)
        let (na, nb) = (da.scalar_type_name(), db.scalar_type_name());
        return Err(Error::Runtime(match op {
            "dot" => {
                format!("dot : expected both vectors to have same dtype, but found {na} and {nb}")
            }
            "addmv_impl_cpu" => format!(
                "addmv input tensors must have the same dtype, but got {nb}, {na}, and {nb}"
            ),
            "bmm" => format!("expected scalar type {na} but found {nb}"),
            _ => format!(
                "expected m1 and m2 to have the same dtype, but got: {} != {}",
                da.cpp_name(),
                db.cpp_name()
            ),
        }));
    }
    if da == DType::Bool {
        return Err(Error::NotImplemented(format!(
            "\"{}\" not implemented for 'Bool'",
            op
        )));
    }
    Ok(())
}

/// 2-D × 2-D (MmBackward0).
pub fn mm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(a.dtype(), "addmm_impl_cpu_")?;
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
    if needs_grad(&[a, b])? {
        // d(AB) = dA B + A dB  →  gA = G Bᴴ, gB = Aᴴ G: each factor is saved only for the
        // other's gradient (PyTorch's MmBackward0; their layouts are kept apart)
        let (ra, rb) = (needs_formula(a), needs_formula(b));
        let (ca, cb) = (column_major(a), column_major(b));
        record(
            "MmBackward0",
            &[a, b],
            &[&out],
            vec![save_if(ra, "mat2", b)?, save_if(rb, "self", a)?],
            Box::new(move |s, g| {
                Ok(vec![
                    mm_mat1_backward(&g[0], &s[0], ca, 0)?,
                    mm_mat2_backward(&g[0], &s[1], cb, 1)?,
                ])
            }),
        )?;
    }
    Ok(out)
}

/// Is a matrix column-major (its transpose row-major)?
fn column_major(m: &Tensor) -> bool {
    let d = m.data();
    d.shape.len() == 2 && d.strides[0] == 1 && d.strides[1] == d.shape[0] as isize
}

/// `G Bᴴ`, the gradient of `A` in `A B`, when input `i` needs it: computed as `(B̄ Gᵀ)ᵀ` when
/// `A` was column-major, so that it has `A`'s layout (PyTorch's `mm_mat1_backward`: a weight
/// used transposed, as `F.linear` uses it, then gets a row-major gradient that `.grad` takes
/// without a copy).
fn mm_mat1_backward(
    g: &Tensor,
    b: &Tensor,
    a_column_major: bool,
    i: usize,
) -> Result<Option<Tensor>> {
    if_needed(i, || match a_column_major {
        true => t(&mm(&conj(b)?, &t(g)?)?),
        false => mm(g, &conj(&t(b)?)?),
    })
}

/// `Aᴴ G`, the gradient of `B` in `A B` (PyTorch's `mm_mat2_backward`: `(Gᵀ Ā)ᵀ` for a
/// column-major `B`).
fn mm_mat2_backward(
    g: &Tensor,
    a: &Tensor,
    b_column_major: bool,
    i: usize,
) -> Result<Option<Tensor>> {
    if_needed(i, || match b_column_major {
        true => t(&mm(&t(g)?, &conj(a)?)?),
        false => mm(&conj(&t(a)?)?, g),
    })
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
    let half = a.dtype().is_half();
    let (ka, kb) = if half {
        (
            backend::cast(a, DType::Float32)?,
            backend::cast(b, DType::Float32)?,
        )
    } else {
        (a.clone(), b.clone())
    };
    let p = backend::contiguous(&super::arith::binary_kernel(
        super::arith::BinOp::Mul,
        &ka,
        &kb,
        ka.dtype(),
    )?)?;
    // integer products sum to int64 in the kernel; dot keeps the operands' dtype
    let out = backend::reduce(ReduceKernel::Sum, &p, &[0], false)?;
    let out = if out.dtype() == ka.dtype() {
        out
    } else {
        backend::cast(&out, ka.dtype())?
    };
    let out = if half {
        backend::cast(&out, a.dtype())?
    } else {
        out
    };
    if needs_grad(&[a, b])? {
        record(
            "DotBackward0",
            &[a, b],
            &[&out],
            // each saved only for the other's gradient, as PyTorch's DotBackward0
            vec![
                save_if(needs_formula(b), "self", a)?,
                save_if(needs_formula(a), "tensor", b)?,
            ],
            Box::new(|s, g| {
                Ok(vec![
                    if_needed(0, || mul(&g[0], &conj(&s[1])?))?,
                    if_needed(1, || mul(&g[0], &conj(&s[0])?))?,
                ])
            }),
        )?;
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
    if needs_grad(&[a, v])? {
        // gA = g ⊗ v̄, gv = Aᴴ g
        record(
            "MvBackward0",
            &[a, v],
            &[&out],
            // each saved only for the other's gradient, as PyTorch's MvBackward0
            vec![
                save_if(needs_formula(v), "self", a)?,
                save_if(needs_formula(a), "vec", v)?,
            ],
            Box::new(|s, g| {
                Ok(vec![
                    if_needed(0, || {
                        mul(&unsqueeze(&g[0], 1)?, &unsqueeze(&conj(&s[1])?, 0)?)
                    })?,
                    if_needed(1, || mv(&conj(&t(&s[0])?)?, &g[0]))?,
                ])
            }),
        )?;
    }
    Ok(out)
}

/// Batched product of ≥3-D operands with broadcast batch dims (BmmBackward0 semantics, recorded
/// through expand/reshape so the names match PyTorch's matmul decomposition closely enough).
fn batched(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (sa, sb) = (a.shape(), b.shape());
    let (na, nb) = (sa.len(), sb.len());
    let n = if na > 1 { sa[na - 2] } else { 1 };
    let m1 = sa[na - 1];
    let m2 = if nb > 1 { sb[nb - 2] } else { sb[0] };
    let p = if nb > 1 { sb[nb - 1] } else { 1 };
    let batch = broadcast_shapes(&sa[..na.saturating_sub(2)], &sb[..nb.saturating_sub(2)])?;
    let nbatch: i64 = batch.iter().map(|&d| d as i64).product();
    let dims = |extra: &[usize]| -> Vec<i64> {
        batch
            .iter()
            .chain(extra)
            .map(|&d| d as i64)
            .collect::<Vec<_>>()
    };
    let a3 = reshape(
        &expand_i64(a, &dims(&[n, m1]))?,
        &[nbatch, n as i64, m1 as i64],
    )?;
    let vector_rhs = nb == 1;
    let mut out_shape = dims(&[]);
    if na > 1 {
        out_shape.push(n as i64);
    }
    if nb > 1 {
        out_shape.push(p as i64);
    }
    if vector_rhs {
        let b2 = reshape(&expand_i64(b, &dims(&[m2]))?, &[nbatch, m2 as i64])?;
        let r = squeeze_dim(&bmm(&a3, &unsqueeze(&b2, -1)?)?, -1)?;
        unsafe_view(&r, &out_shape)
    } else {
        let b3 = reshape(
            &expand_i64(b, &dims(&[m2, p]))?,
            &[nbatch, m2 as i64, p as i64],
        )?;
        unsafe_view(&bmm(&a3, &b3)?, &out_shape)
    }
}

/// 3-D × 3-D with equal batch (BmmBackward0).
pub fn bmm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(a.dtype(), "bmm")?;
    if a.ndim() != 3 || b.ndim() != 3 {
        return Err(Error::Runtime("batch1 must be a 3D tensor".into()));
    }
    if a.dtype() != b.dtype() && (a.numel() == 0 || b.numel() == 0) && a.device() == b.device() {
        // nothing to multiply: PyTorch returns zeros in the second operand's dtype, unchecked
        let dt = b.dtype();
        return bmm(&to_dtype(a, dt)?, &to_dtype(b, dt)?);
    }
    common(a, b, "bmm")?;
    let (sa, sb) = (a.shape(), b.shape());
    if sa[0] != sb[0] || sa[2] != sb[1] {
        return Err(Error::Runtime(format!(
            "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
            sa[0], sa[2], sb[0], sb[1]
        )));
    }
    let out = backend::bmm(&a.detached(), &b.detached())?;
    if needs_grad(&[a, b])? {
        record(
            "BmmBackward0",
            &[a, b],
            &[&out],
            // each saved only for the other's gradient, as PyTorch's BmmBackward0
            vec![
                save_if(needs_formula(b), "self", a)?,
                save_if(needs_formula(a), "mat2", b)?,
            ],
            Box::new(|s, g| {
                Ok(vec![
                    if_needed(0, || bmm(&g[0], &conj(&transpose(&s[1], 1, 2)?)?))?,
                    if_needed(1, || bmm(&conj(&transpose(&s[0], 1, 2)?)?, &g[0]))?,
                ])
            }),
        )?;
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
    match (na, nb) {
        (1, 1) => return dot(a, b),
        (2, 1) => return mv(a, b),
        (1, 2) => {
            let (n, sb) = (a.numel(), b.shape());
            if n != sb[0] {
                return Err(Error::Runtime(format!(
                    "mat1 and mat2 shapes cannot be multiplied (1x{} and {}x{})",
                    n, sb[0], sb[1]
                )));
            }
            return squeeze_dim4(&mm(&unsqueeze(a, 0)?, b)?);
        }
        (2, 2) => return mm(a, b),
        _ => {}
    }
    // 3-D @ 3-D where one side has a batch of 1 and needs its gradient: PyTorch squeezes that
    // batch away so the gradient is not formed at the other side's batch size.
    if na == 3 && nb == 3 {
        let (ba, bb) = (a.shape()[0], b.shape()[0]);
        if bb == 1 && ba != 1 && b.requires_grad() {
            return matmul(a, &squeeze_dim(b, 0)?);
        }
        if ba == 1 && bb != 1 && a.requires_grad() {
            return matmul(&squeeze_dim(a, 0)?, b);
        }
    }
    if should_fold(a, b) {
        folded(a, b)
    } else {
        batched(a, b)
    }
}

/// Can `t1 @ t2` run as one mm/mv over the larger side's folded batch dims (the larger side
/// transposed when it is `t2`) without copying it? PyTorch's rule, so the recorded graph is
/// the same.
fn should_fold(t1: &Tensor, t2: &Tensor) -> bool {
    let larger = t1.ndim() >= t2.ndim();
    let (big, other_dims) = if larger {
        (t1, t2.ndim())
    } else {
        (t2, t1.ndim())
    };
    let (mut shape, mut strides) = {
        let d = big.data();
        (d.shape.to_vec(), d.strides.to_vec())
    };
    let nd = shape.len();
    if !(nd >= 3 && other_dims <= 2) {
        return false;
    }
    if !larger {
        shape.swap(nd - 1, nd - 2);
        strides.swap(nd - 1, nd - 2);
    }
    let other_requires_grad = if larger {
        t2.requires_grad()
    } else {
        t1.requires_grad()
    };
    if other_requires_grad {
        // fold, so the smaller side's gradient is one mm, not a batch of them to sum
        return true;
    }
    if t1.ndim() == 2 {
        return false;
    }
    if shape.iter().product::<usize>() == 0 {
        return true;
    }
    // foldable without a copy: the leading dims merge into one as a view
    let rows: usize = shape[..nd - 1].iter().product();
    crate::ops::view::view_strides(&shape, &strides, &[rows, shape[nd - 1]]).is_some()
}

/// `a @ b` with the larger side's batch dims folded into the rows of one mm (or mv), then
/// viewed back (UnsafeViewBackward0); when `b` is the larger side it runs transposed.
fn folded(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (na, nb) = (a.ndim(), b.ndim());
    let transpose = nb > na;
    let t1 = if transpose {
        transpose_last(b)?
    } else {
        a.clone()
    };
    let t2 = if !transpose {
        b.clone()
    } else if na == 2 {
        t(a)?
    } else {
        a.clone()
    };
    let s1 = t1.shape();
    let mut out_shape: Vec<i64> = s1[..s1.len() - 1].iter().map(|&d| d as i64).collect();
    // (explicit row count: a -1 is ambiguous when the last dim is 0)
    let rows: i64 = out_shape.iter().product();
    let t1f = reshape(&t1, &[rows, s1[s1.len() - 1] as i64])?;
    if t2.ndim() == 2 {
        out_shape.push(t2.shape()[1] as i64);
        let out = unsafe_view(&mm(&t1f, &t2)?, &out_shape)?;
        if transpose {
            contiguous(&transpose_last(&out)?)
        } else {
            Ok(out)
        }
    } else {
        unsafe_view(&mv(&t1f, &t2)?, &out_shape)
    }
}

/// The last two dims swapped (`mT`).
fn transpose_last(x: &Tensor) -> Result<Tensor> {
    transpose(x, -2, -1)
}

/// `v @ M` squeezes the leading 1 (SqueezeBackward4 in PyTorch's naming).
fn squeeze_dim4(x: &Tensor) -> Result<Tensor> {
    let out = {
        let d = x.data();
        x.view_with(&d.shape[1..], &d.strides[1..], d.offset)
    };
    if needs_grad(&[x])? {
        record(
            "SqueezeBackward4",
            &[x],
            &[&out],
            vec![],
            Box::new(|_, g| grads![unsqueeze(&g[0], 0)?]),
        )?;
    }
    Ok(out)
}

/// `bias + a @ b` for 2-D a, b as one node (AddmmBackward0), what `nn.Linear` records.
pub fn addmm(bias: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.dtype() != b.dtype() && a.device() == b.device() {
        // addmm's own wording (mm's is "expected m1 and m2 ...")
        return Err(Error::Runtime(format!(
            "mat1 and mat2 must have the same dtype, but got {} and {}",
            a.dtype().scalar_type_name(),
            b.dtype().scalar_type_name()
        )));
    }
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
    if needs_grad(&[bias, a, b])? {
        // d(c + AB) = dc + dA B + A dB; each factor saved only for the other's gradient
        let (ra, rb) = (needs_formula(a), needs_formula(b));
        let (ca, cb) = (column_major(a), column_major(b));
        record(
            "AddmmBackward0",
            &[bias, a, b],
            &[&out],
            vec![save_if(rb, "mat1", a)?, save_if(ra, "mat2", b)?],
            Box::new(move |s, g| {
                Ok(vec![
                    Some(g[0].clone()),
                    mm_mat1_backward(&g[0], &s[1], ca, 1)?,
                    mm_mat2_backward(&g[0], &s[0], cb, 2)?,
                ])
            }),
        )?;
    }
    Ok(out)
}

/// `F.linear`: `x @ wᵀ + b`. 2-D input records AddmmBackward0 (MmBackward0 without a bias);
/// other ranks are flattened to 2-D and viewed back, as PyTorch records them.
pub fn linear(x: &Tensor, w: &Tensor, bias: Option<&Tensor>) -> Result<Tensor> {
    if let Some(b) = bias {
        let (bd, wd) = (b.dtype(), w.dtype());
        if bd != wd {
            return Err(Error::Runtime(format!(
                "self and mat2 must have the same dtype, but got {} and {}",
                bd.scalar_type_name(),
                wd.scalar_type_name()
            )));
        }
    }
    let wt = t(w)?;
    let nd = x.ndim();
    let x2 = if nd == 2 {
        x.clone()
    } else {
        let k = *x.shape().last().unwrap_or(&1) as i64;
        reshape(x, &[-1, k])?
    };
    let mut shape: Vec<i64> = x.shape()[..nd.saturating_sub(1)]
        .iter()
        .map(|&d| d as i64)
        .collect();
    shape.push(w.shape()[0] as i64);
    match bias {
        Some(b) if nd == 2 => addmm(b, &x2, &wt),
        // at::linear (PyTorch 2.15): a contiguous input with a 1-D bias is flattened into one
        // addmm and viewed back (`_flatten_nd_linear`); otherwise matmul, then the bias
        Some(b) if x.is_contiguous() && (nd == 3 || b.ndim() == 1) => {
            unsafe_view(&addmm(b, &x2, &wt)?, &shape)
        }
        Some(b) => add(&matmul(x, &wt)?, b),
        None if nd == 2 => mm(&x2, &wt),
        None => matmul(x, &wt),
    }
}
