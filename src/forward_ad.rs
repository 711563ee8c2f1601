//! Forward-mode AD, the public entry (`torch.autograd.forward_ad`): dual levels and dual
//! tensors. The tangents and their propagation through every op live with the ops
//! ([`crate::ops::tangent`], which says how a tangent is computed); this module sits above the
//! engine and the ops and hands the ops the engine's nested backward pass when it opens a
//! level, so the layers below it never call upwards.
use crate::engine::{self, BackwardOptions};
use crate::error::Result;
use crate::tensor::Tensor;

pub use crate::grad_mode::{is_fwd_grad_enabled, set_fwd_grad_enabled, FwdGradGuard};
pub use crate::ops::tangent::{
    active, current_level, exit_dual_level, has_tangent, make_dual, set_tangent, tangent,
    unpack_dual,
};

/// Open a dual level; PyTorch supports one at a time ("Nested forward mode AD is not supported
/// at the moment").
pub fn enter_dual_level() -> Result<i64> {
    crate::ops::tangent::open_level(nested_backward)
}

/// The pass each op's tangent takes: the engine's backward from the formula's gradients to the
/// output gradients it is differentiated against, recording a graph when grad mode was on.
fn nested_backward(
    roots: &[(Tensor, Tensor)],
    inputs: &[Tensor],
    create: bool,
) -> Result<Vec<Option<Tensor>>> {
    let opts = BackwardOptions {
        create_graph: create,
        retain_graph: create,
        accumulate: false,
    };
    engine::backward(roots, Some(inputs), opts)
}
