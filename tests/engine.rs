//! The backward engine: values of gradients, accumulation across passes, ordering of nodes,
//! retain_graph, create_graph.
use leafgrad::engine::{backward, BackwardOptions};
use leafgrad::ops;
use leafgrad::tensor::Tensor;

fn leaf(v: Vec<f64>) -> Tensor {
    let n = v.len();
    let t = Tensor::from_vec(v, &[n]).unwrap();
    t.meta().requires_grad = true;
    t
}

fn acc() -> BackwardOptions {
    BackwardOptions {
        accumulate: true,
        ..Default::default()
    }
}

fn grad_of(t: &Tensor) -> Vec<f64> {
    t.grad().expect("grad populated").to_vec::<f64>()
}

fn run(root: &Tensor, opts: BackwardOptions) -> leafgrad::Result<Vec<Option<Tensor>>> {
    let one = Tensor::full(
        &root.shape(),
        num_complex::Complex64::new(1.0, 0.0),
        root.dtype(),
    )
    .unwrap();
    backward(&[(root.clone(), one)], None, opts)
}

#[test]
fn polynomial_gradient() {
    // y = x² + 5x + 4, dy/dx = 2x + 5
    let x = leaf(vec![1.0, -2.0, 0.5]);
    let y = ops::add(
        &ops::add(
            &ops::mul(&x, &x).unwrap(),
            &ops::mul_scalar(&x, 5.0).unwrap(),
        )
        .unwrap(),
        &Tensor::wrapped_scalar(4.0),
    )
    .unwrap();
    run(&ops::sum(&y, None, false).unwrap(), acc()).unwrap();
    assert_eq!(grad_of(&x), vec![7.0, 1.0, 6.0]);
}

#[test]
fn gradients_accumulate_across_passes() {
    let x = leaf(vec![1.0, 2.0]);
    let s = ops::sum(&ops::mul(&x, &x).unwrap(), None, false).unwrap();
    run(
        &s,
        BackwardOptions {
            retain_graph: true,
            ..acc()
        },
    )
    .unwrap();
    let first = x.grad().unwrap();
    run(&s, acc()).unwrap();
    assert_eq!(grad_of(&x), vec![4.0, 8.0]);
    assert!(
        first.ptr_eq(&x.grad().unwrap()),
        "accumulated in place, identity kept"
    );
}

#[test]
fn second_pass_over_freed_graph_errors() {
    let x = leaf(vec![1.0, 2.0]);
    let s = ops::sum(&ops::exp(&x).unwrap(), None, false).unwrap();
    run(&s, acc()).unwrap();
    let err = run(&s, acc()).unwrap_err().to_string();
    assert!(err.starts_with("Trying to backward through the graph a second time"));
}

#[test]
fn shared_subexpression_gets_summed_gradient() {
    // z = e^x·2 + e^x·3  → dz/dx = 5 e^x, the exp node runs once with the summed gradient
    let x = leaf(vec![0.0]);
    let e = ops::exp(&x).unwrap();
    let z = ops::add(
        &ops::mul_scalar(&e, 2.0).unwrap(),
        &ops::mul_scalar(&e, 3.0).unwrap(),
    )
    .unwrap();
    run(&ops::sum(&z, None, false).unwrap(), acc()).unwrap();
    assert_eq!(grad_of(&x), vec![5.0]);
}

#[test]
fn create_graph_gives_second_derivatives() {
    // y = x³, dy/dx = 3x², d²y/dx² = 6x
    let x = leaf(vec![2.0]);
    let y = ops::sum(
        &ops::mul(&ops::mul(&x, &x).unwrap(), &x).unwrap(),
        None,
        false,
    )
    .unwrap();
    let opts = BackwardOptions {
        create_graph: true,
        retain_graph: true,
        accumulate: false,
    };
    let one = Tensor::scalar(1.0f64);
    let g = backward(&[(y, one)], Some(std::slice::from_ref(&x)), opts).unwrap()[0]
        .clone()
        .unwrap();
    assert_eq!(g.to_vec::<f64>(), vec![12.0]);
    assert!(g.requires_grad());
    let g2 = backward(
        &[(ops::sum(&g, None, false).unwrap(), Tensor::scalar(1.0f64))],
        Some(std::slice::from_ref(&x)),
        BackwardOptions::default(),
    )
    .unwrap();
    assert_eq!(g2[0].as_ref().unwrap().to_vec::<f64>(), vec![12.0]);
}

#[test]
fn broadcast_gradients_are_reduced_to_input_shape() {
    let a = Tensor::from_vec(vec![1.0f64, 2.0, 3.0], &[3, 1]).unwrap();
    a.meta().requires_grad = true;
    let b = Tensor::from_vec(vec![1.0f64, 1.0, 1.0, 1.0], &[1, 4]).unwrap();
    b.meta().requires_grad = true;
    let s = ops::sum(&ops::mul(&a, &b).unwrap(), None, false).unwrap();
    run(&s, acc()).unwrap();
    assert_eq!(a.grad().unwrap().shape().as_slice(), &[3, 1]);
    assert_eq!(grad_of(&a), vec![4.0, 4.0, 4.0]);
    assert_eq!(grad_of(&b), vec![6.0, 6.0, 6.0, 6.0]);
}

#[test]
fn later_nodes_run_first_among_ready_ones() {
    // Both branches are ready at once; the one created later has the higher sequence number.
    let x = leaf(vec![1.0]);
    let a = ops::mul_scalar(&x, 2.0).unwrap();
    let b = ops::mul_scalar(&x, 3.0).unwrap();
    assert!(b.grad_fn().unwrap().seq > a.grad_fn().unwrap().seq);
    run(&ops::add(&a, &b).unwrap(), acc()).unwrap();
    assert_eq!(grad_of(&x), vec![5.0]);
}

#[test]
fn version_check_names_the_op() {
    let x = leaf(vec![1.0, 2.0]);
    let y = ops::sigmoid(&x).unwrap();
    let s = ops::sum(&y, None, false).unwrap();
    ops::apply_inplace(&y, &[], |v| ops::mul_scalar(v, 2.0)).unwrap();
    let err = run(&s, acc()).unwrap_err().to_string();
    assert!(err.contains("[torch.DoubleTensor [2]], which is output 0 of Sigmoid, is at version 1; expected version 0"), "{err}");
}
