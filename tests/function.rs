//! User-defined functions as a Rust user records them (`ops::record_function`): edges for the
//! tensor arguments only, histories of the outputs, inputs returned as views, in-place inputs,
//! saved tensors, and the `once_differentiable` guard.
use leafgrad::engine::{backward, BackwardOptions};
use leafgrad::graph::node::{CustomBackwardFn, Node};
use leafgrad::ops::{self, FunctionCall};
use leafgrad::tensor::Tensor;

fn leaf(v: Vec<f64>) -> Tensor {
    let n = v.len();
    let t = Tensor::from_vec(v, &[n]).unwrap();
    t.meta().requires_grad = true;
    t
}

fn ones_like(t: &Tensor) -> Tensor {
    Tensor::full(&t.shape(), num_complex::Complex64::new(1.0, 0.0), t.dtype()).unwrap()
}

fn run(root: &Tensor) -> leafgrad::Result<()> {
    let opts = BackwardOptions {
        accumulate: true,
        ..Default::default()
    };
    backward(&[(root.clone(), ones_like(root))], None, opts).map(|_| ())
}

/// A backward that multiplies the output's gradient by `k`, for a function of one tensor.
fn times(k: f64) -> CustomBackwardFn {
    Box::new(move |g: &[Option<Tensor>]| {
        let g = g[0].clone().expect("a gradient");
        Ok(vec![Some(ops::mul(&g, &Tensor::wrapped_scalar(k))?)])
    })
}

#[test]
fn a_recorded_function_gets_a_node_with_edges_for_tensor_arguments_only() {
    let x = leaf(vec![1.0, 2.0]);
    let y = {
        let _g = leafgrad::grad_mode::GradModeGuard::new(false);
        ops::mul(&x, &Tensor::wrapped_scalar(2.0)).unwrap()
    };
    let call = FunctionCall {
        inputs: &[Some(x.clone()), None],
        outputs: &[Some(y.clone()), None],
        dirty: &[],
        non_differentiable: &[],
    };
    let (node, outs) = ops::record_function("TimesBackward".into(), &call, times(3.0)).unwrap();
    let node = node.expect("recorded: x requires grad");
    assert_eq!(node.name, "TimesBackward");
    assert_eq!(node.next.len(), 1);
    assert!(outs[1].is_none());
    let out = outs[0].clone().unwrap();
    assert!(out.ptr_eq(&y) && out.grad_fn().unwrap().ptr_eq(&node));
    run(&ops::sum(&out, None, false).unwrap()).unwrap();
    assert_eq!(x.grad().unwrap().to_vec::<f64>(), vec![3.0, 3.0]);
}

#[test]
fn nothing_is_recorded_without_an_input_that_requires_grad() {
    let x = Tensor::from_vec(vec![1.0f64], &[1]).unwrap();
    let call = FunctionCall {
        inputs: &[Some(x.clone())],
        outputs: &[Some(x.clone())],
        dirty: &[],
        non_differentiable: &[],
    };
    let (node, outs) = ops::record_function("F".into(), &call, times(1.0)).unwrap();
    assert!(node.is_none());
    // an input returned unchanged comes back as a new view of it
    let out = outs[0].clone().unwrap();
    assert!(!out.ptr_eq(&x) && out.is_view());
}

#[test]
fn an_input_returned_unchanged_is_a_view_with_the_new_history() {
    let x = leaf(vec![1.0, 2.0]);
    let call = FunctionCall {
        inputs: &[Some(x.clone())],
        outputs: &[Some(x.clone())],
        dirty: &[],
        non_differentiable: &[],
    };
    let (_, outs) = ops::record_function("IdBackward".into(), &call, times(2.0)).unwrap();
    let out = outs[0].clone().unwrap();
    assert!(!out.ptr_eq(&x) && out.base().unwrap().ptr_eq(&x));
    assert!(x.is_leaf());
    run(&ops::sum(&out, None, false).unwrap()).unwrap();
    assert_eq!(x.grad().unwrap().to_vec::<f64>(), vec![2.0, 2.0]);
}

#[test]
fn in_place_inputs_follow_pytorchs_rules() {
    let x = leaf(vec![1.0, 2.0]);
    let call = FunctionCall {
        inputs: &[Some(x.clone())],
        outputs: &[Some(x.clone())],
        dirty: std::slice::from_ref(&x),
        non_differentiable: &[],
    };
    let err = ops::record_function("F".into(), &call, times(1.0))
        .err()
        .expect("refused");
    assert_eq!(
        err.to_string(),
        "a leaf Variable that requires grad has been used in an in-place operation."
    );
    let a = ops::mul(&x, &Tensor::wrapped_scalar(1.0)).unwrap();
    let v0 = a.version();
    let call = FunctionCall {
        inputs: &[Some(a.clone())],
        outputs: &[Some(a.clone())],
        dirty: std::slice::from_ref(&a),
        non_differentiable: &[],
    };
    let (node, outs) = ops::record_function("DirtyBackward".into(), &call, times(5.0)).unwrap();
    let out = outs[0].clone().unwrap();
    assert!(out.ptr_eq(&a) && a.grad_fn().unwrap().ptr_eq(&node.unwrap()));
    assert_eq!(a.version(), v0 + 1);
    let b = leaf(vec![1.0]);
    let not_returned = FunctionCall {
        inputs: &[Some(b.clone())],
        outputs: &[None],
        dirty: std::slice::from_ref(&b),
        non_differentiable: &[],
    };
    assert!(ops::record_function("F".into(), &not_returned, times(1.0))
        .err()
        .expect("refused")
        .to_string()
        .starts_with("Some elements marked as dirty"));
}

#[test]
fn non_differentiable_outputs_get_no_history() {
    let x = leaf(vec![1.0, 2.0]);
    let (y, i) = {
        let _g = leafgrad::grad_mode::GradModeGuard::new(false);
        (
            ops::mul(&x, &Tensor::wrapped_scalar(2.0)).unwrap(),
            ops::floor(&x).unwrap(),
        )
    };
    let call = FunctionCall {
        inputs: &[Some(x.clone())],
        outputs: &[Some(y.clone()), Some(i.clone())],
        dirty: &[],
        non_differentiable: std::slice::from_ref(&i),
    };
    let (_, outs) = ops::record_function("F".into(), &call, times(1.0)).unwrap();
    assert!(outs[0].as_ref().unwrap().grad_fn().is_some());
    assert!(!outs[1].as_ref().unwrap().requires_grad());
}

#[test]
fn saved_tensors_are_version_checked() {
    let x = leaf(vec![1.0, 2.0]);
    let a = ops::mul(&x, &Tensor::wrapped_scalar(1.0)).unwrap();
    let y = {
        let _g = leafgrad::grad_mode::GradModeGuard::new(false);
        ops::exp(&a).unwrap()
    };
    let call = FunctionCall {
        inputs: &[Some(a.clone())],
        outputs: &[Some(y.clone())],
        dirty: &[],
        non_differentiable: &[],
    };
    let (node, outs) = ops::record_function("F".into(), &call, times(1.0)).unwrap();
    let node = node.unwrap();
    ops::save_function_tensors(&node, &[a.clone(), y.clone()], &outs).unwrap();
    let saved = Node::unpack_saved(&node, true).unwrap();
    assert!(saved[0].ptr_eq(&a));
    assert!(saved[1].grad_fn().unwrap().ptr_eq(&node));
    ops::apply_inplace(&a, &[], |v| ops::add(v, &Tensor::wrapped_scalar(1.0))).unwrap();
    let err = Node::unpack_saved(&node, true).unwrap_err().to_string();
    assert!(
        err.contains("is at version 1; expected version 0 instead"),
        "{err}"
    );
}

#[test]
fn delayed_error_raises_only_when_differentiated() {
    let x = leaf(vec![1.0]);
    let outs = ops::delayed_error(&[Some(x.clone()), None], "twice".into()).unwrap();
    let y = outs[0].clone().unwrap();
    assert_eq!(y.grad_fn().unwrap().name, "torch::autograd::Error");
    assert_eq!(y.grad_fn().unwrap().next.len(), 2);
    assert_eq!(run(&y).unwrap_err().to_string(), "twice");
}
