//! The rules of a tensor's `.grad`, `.data` and post-accumulate hooks, as a Rust user meets
//! them (the Python setters delegate here).
use leafgrad::tensor::Tensor;
use leafgrad::{ops, DType};
use std::sync::Arc;

fn leaf(v: Vec<f64>) -> Tensor {
    let t = Tensor::from_vec(v.clone(), &[v.len()]).unwrap();
    t.meta().requires_grad = true;
    t
}

#[test]
fn assigning_a_grad_checks_it_as_pytorch_does() {
    let x = leaf(vec![1.0, 2.0]);
    let msg = |r: leafgrad::Result<()>| r.unwrap_err().to_string();
    assert_eq!(
        msg(x.assign_grad(Some(x.clone()))),
        "can't assign Variable as its own grad"
    );
    let f32g = Tensor::from_vec(vec![1.0f32, 1.0], &[2]).unwrap();
    assert!(msg(x.assign_grad(Some(f32g))).starts_with(
        "attempting to assign a gradient with dtype 'float' to a tensor with grad_dtype 'Double'"
    ));
    let short = Tensor::from_vec(vec![1.0f64], &[1]).unwrap();
    assert_eq!(
        msg(x.assign_grad(Some(short))),
        "attempting to assign a gradient of size '[1]' to a tensor of size '[2]'. Please ensure that the gradient and the tensor are the same size"
    );
    let g = Tensor::from_vec(vec![0.5f64, 0.5], &[2]).unwrap();
    x.assign_grad(Some(g.clone())).unwrap();
    assert!(x.meta().grad.as_ref().unwrap().ptr_eq(&g));
    x.assign_grad(None).unwrap();
    assert!(x.meta().grad.is_none());
}

#[test]
fn data_of_a_tensor_that_requires_grad_stays_floating() {
    let x = leaf(vec![1.0, 2.0]);
    let ints = Tensor::from_vec(vec![1i64, 2], &[2]).unwrap();
    assert_eq!(
        x.assign_data(&ints).unwrap_err().to_string(),
        "data set to a tensor that requires gradients must be floating point or complex dtype"
    );
    let y = Tensor::from_vec(vec![5.0f32, 6.0, 7.0], &[3]).unwrap();
    x.assign_data(&y).unwrap();
    assert_eq!(x.dtype(), DType::Float32);
    assert_eq!(x.shape().as_slice(), &[3]);
    assert!(x.requires_grad());
}

#[test]
fn post_accumulate_hooks_only_on_leaves_that_require_grad() {
    let hook: leafgrad::tensor::PostAccHook = Arc::new(|_| Ok(()));
    let plain = Tensor::from_vec(vec![1.0f64], &[1]).unwrap();
    assert_eq!(
        plain
            .add_post_accumulate_grad_hook(1, hook.clone())
            .unwrap_err()
            .to_string(),
        "cannot register a hook on a tensor that doesn't require gradient"
    );
    let x = leaf(vec![1.0]);
    let y = ops::mul(&x, &x).unwrap();
    assert_eq!(
        y.add_post_accumulate_grad_hook(2, hook.clone())
            .unwrap_err()
            .to_string(),
        "post accumulate grad hooks cannot be registered on non-leaf tensors"
    );
    x.add_post_accumulate_grad_hook(3, hook).unwrap();
    assert_eq!(x.meta().post_acc_hooks.len(), 1);
}
