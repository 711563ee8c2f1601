//! Losses of nn.functional that the core owns (they have nodes of their own).
use super::*;
use crate::grads;

#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Reduction {
    None,
    Mean,
    Sum,
}

impl Reduction {
    pub fn parse(s: &str) -> Result<Reduction> {
        match s {
            "none" => Ok(Reduction::None),
            "mean" => Ok(Reduction::Mean),
            "sum" => Ok(Reduction::Sum),
            _ => Err(Error::Value(format!(
                "{} is not a valid value for reduction",
                s
            ))),
        }
    }
}

fn reduce(x: &Tensor, r: Reduction) -> Result<Tensor> {
    match r {
        Reduction::None => Ok(x.clone()),
        Reduction::Mean => mean(x, None, false),
        Reduction::Sum => sum(x, None, false),
    }
}

/// mean((input - target)²) as one node (MseLossBackward0).
pub fn mse_loss(input: &Tensor, target: &Tensor, r: Reduction) -> Result<Tensor> {
    if input.dtype().is_complex() {
        return Err(Error::NotImplemented(format!(
            "\"mse_cpu\" not implemented for '{}'",
            input.dtype().scalar_type_name()
        )));
    }
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let d = sub(input, target)?;
        reduce(&mul(&d, &d)?, r)?
    };
    if needs_grad(&[input, target]) {
        let n = crate::shape::numel(&crate::shape::broadcast_shapes(
            &input.shape(),
            &target.shape(),
        )?);
        // d/dinput = 2 (input - target) · dL (/ n for mean); d/dtarget = the negative
        record(
            "MseLossBackward0",
            &[input, target],
            &[&out],
            vec![save("self", input)?, save("target", target)?],
            Box::new(move |s, g| {
                let scale = if r == Reduction::Mean {
                    2.0 / n as f64
                } else {
                    2.0
                };
                let gi = mul(&mul_scalar(&sub(&s[0], &s[1])?, scale)?, &g[0])?;
                grads![gi.clone(), neg(&gi)?]
            }),
        );
    }
    Ok(out)
}

/// |input - target| reduced, composed of primitives (as PyTorch records it).
pub fn l1_loss(input: &Tensor, target: &Tensor, r: Reduction) -> Result<Tensor> {
    reduce(&abs(&sub(input, target)?)?, r)
}
