//! Regions: strided windows into the contiguous layout of a shape, which route view gradients
//! (a view's gradient is `embed`ded into zeros of its input's shape; `as_strided` takes one
//! back out), and where a view lies in its base.
use super::*;
use crate::backend::{self, cpu};
use crate::dtype::DType;
use crate::grads;
use crate::shape::{contiguous_strides, Shape, Strides};
use smallvec::SmallVec;

/// A strided window into the contiguous layout of some shape (used to route view gradients).
#[derive(Clone, Debug)]
pub struct Region {
    pub shape: Shape,
    pub strides: Strides,
    pub offset: usize,
}

/// zeros(shape) with `region` set to `g`: the gradient of taking `region` out of a tensor.
pub fn embed(g: &Tensor, shape: &[usize], region: &Region) -> Result<Tensor> {
    let out = Tensor::zeros_on(shape, g.dtype(), g.device())?;
    if overlaps_itself(region) {
        // an expanded window (`t.expand(2, -1)` rebased after a write): the elements that
        // share a place add up, as PyTorch's as_strided_backward does
        let mut plan = vec![region.offset as isize];
        for (&n, &s) in region.shape.iter().zip(&region.strides) {
            plan = plan
                .iter()
                .flat_map(|&p| (0..n).map(move |i| p + i as isize * s))
                .collect();
        }
        let plan: Vec<usize> = plan.into_iter().map(|p| p as usize).collect();
        // (a bool mask is set, not added)
        let add = g.dtype() != DType::Bool;
        backend::put(&out, &plan, &backend::contiguous(g)?, add)?;
    } else {
        let win = out.view_with(&region.shape, &region.strides, region.offset);
        backend::copy_into(&win, g)?;
    }
    let out = out.detached();
    if needs_grad(&[g])? {
        let r = region.clone();
        record(
            "AsStridedScatterBackward0",
            &[g],
            &[&out],
            vec![],
            Box::new(move |_, gg| grads![as_strided(&gg[0], &r)?]),
        )?;
    }
    Ok(out)
}

/// Do two elements of `region` share a place? (Its dims by stride, each stride past the
/// reach of the smaller ones, or not.)
fn overlaps_itself(region: &Region) -> bool {
    let mut dims: Vec<(usize, isize)> = region
        .shape
        .iter()
        .zip(&region.strides)
        .filter(|(&n, _)| n > 1)
        .map(|(&n, &s)| (n, s.abs()))
        .collect();
    if region.shape.contains(&0) {
        return false;
    }
    dims.sort_by_key(|&(_, s)| s);
    let mut reach = 0isize;
    for (n, s) in dims {
        if s <= reach {
            return true;
        }
        reach += (n as isize - 1) * s;
    }
    false
}

/// The window `region` of (the contiguous layout of) `x` (AsStridedBackward0).
pub fn as_strided(x: &Tensor, region: &Region) -> Result<Tensor> {
    let src = if x.is_contiguous() && x.data().offset == 0 {
        x.detached()
    } else {
        backend::contiguous(x)?
    };
    let out = src
        .view_with(&region.shape, &region.strides, region.offset)
        .detached();
    if needs_grad(&[x])? {
        let (shape, r) = (x.shape(), region.clone());
        record(
            "AsStridedBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| grads![embed(&g[0], &shape, &r)?]),
        )?;
    }
    Ok(out)
}

/// Where `v` (a view) sits inside the contiguous layout of its base.
///
/// A row-major base gives the view's own strides. A base laid out otherwise (a permuted
/// layout, as elementwise results of transposed inputs are) is mapped element by element from
/// storage offsets to row-major positions; the view must be a strided window of those.
pub fn region_in_base(v: &Tensor, base: &Tensor) -> Result<Region> {
    let (bd, vd) = (base.data(), v.data());
    let offset = vd
        .offset
        .checked_sub(bd.offset)
        .ok_or_else(|| Error::Runtime("view outside its base".into()))?;
    if bd.is_contiguous() {
        return Ok(Region {
            shape: vd.shape.clone(),
            strides: vd.strides.clone(),
            offset,
        });
    }
    let unsupported = || {
        Error::Runtime(
            "in-place operations on a view of a non-contiguous tensor that requires grad are not supported".into(),
        )
    };
    if vd.shape.contains(&0) {
        // an empty window: nothing to map
        return Ok(Region {
            shape: vd.shape.clone(),
            strides: vd.strides.clone(),
            offset: 0,
        });
    }
    if !cpu::layout::is_dense(&bd.shape, &bd.strides) {
        return Err(unsupported());
    }
    // storage offset (relative to the base's) -> row-major position in the base
    let mut dims: Vec<usize> = (0..bd.shape.len()).collect();
    dims.sort_by_key(|&d| std::cmp::Reverse(bd.strides[d]));
    let rowmajor = contiguous_strides(&bd.shape);
    let logical = |o: isize| -> Option<isize> {
        if o < 0 {
            return None;
        }
        let (mut rem, mut l) = (o, 0isize);
        for &d in &dims {
            let st = bd.strides[d].max(1);
            let i = rem / st;
            if i >= bd.shape[d] as isize {
                return None;
            }
            rem %= st;
            l += i * rowmajor[d];
        }
        (rem == 0).then_some(l)
    };
    let o0 = offset as isize;
    let l0 = logical(o0).ok_or_else(unsupported)?;
    let mut lstrides: Strides = SmallVec::new();
    for (k, &n) in vd.shape.iter().enumerate() {
        lstrides.push(if n > 1 {
            logical(o0 + vd.strides[k]).ok_or_else(unsupported)? - l0
        } else {
            0
        });
    }
    // every element must sit where those strides say
    let mut it =
        crate::shape::MultiIndex::new(&vd.shape, [vd.strides.clone(), lstrides.clone()], [o0, l0]);
    while let Some([o, l]) = it.next_offsets() {
        if logical(o) != Some(l) {
            return Err(unsupported());
        }
    }
    Ok(Region {
        shape: vd.shape.clone(),
        strides: lstrides,
        offset: l0 as usize,
    })
}
