//! The ops a Rust user calls, without Python: every declared float function (src/ops/math.rs)
//! records its node, computes integers in float32, and its derivative matches the central
//! difference of its own values. (Values against references: tests/python/test_op_db.py.)
use leafgrad::engine::{backward, BackwardOptions};
use leafgrad::ops::{self, FloatUnary, FLOAT_UNARY_OPS};
use leafgrad::tensor::Tensor;

fn values(op: FloatUnary, xs: &[f64]) -> Vec<f64> {
    let x = Tensor::from_vec(xs.to_vec(), &[xs.len()]).unwrap();
    op.apply(&x).unwrap().to_vec::<f64>()
}

#[test]
fn the_table_lists_every_declared_op() {
    let names: Vec<&str> = FloatUnary::ALL.iter().map(|op| op.name()).collect();
    let table: Vec<&str> = FLOAT_UNARY_OPS.iter().map(|o| o.name).collect();
    assert_eq!(names, table);
}

#[test]
fn declared_ops_record_their_node_and_differentiate() {
    // points inside every op's domain (log and sqrt need x > 0)
    let xs = [0.3f64, 0.7, 1.9];
    for &op in FloatUnary::ALL {
        let x = Tensor::from_vec(xs.to_vec(), &[3]).unwrap();
        x.meta().requires_grad = true;
        let y = op.apply(&x).unwrap();
        assert_eq!(y.grad_fn().unwrap().name, op.node());
        let loss = ops::sum(&y, None, false).unwrap();
        let opts = BackwardOptions {
            accumulate: true,
            ..Default::default()
        };
        backward(&[(loss, Tensor::scalar(1.0f64))], None, opts).unwrap();
        let eps = 1e-6;
        let up: Vec<f64> = xs.iter().map(|v| v + eps).collect();
        let down: Vec<f64> = xs.iter().map(|v| v - eps).collect();
        let (up, down) = (values(op, &up), values(op, &down));
        for (i, g) in x.grad().unwrap().to_vec::<f64>().iter().enumerate() {
            let numeric = (up[i] - down[i]) / (2.0 * eps);
            assert!(
                (g - numeric).abs() <= 1e-6 * numeric.abs().max(1.0),
                "{}'({}): {g} vs {numeric}",
                op.name(),
                xs[i]
            );
        }
    }
}

#[test]
fn integers_compute_in_float32() {
    let x = Tensor::from_vec(vec![1i64, 2], &[2]).unwrap();
    for &op in FloatUnary::ALL {
        assert_eq!(
            op.apply(&x).unwrap().dtype(),
            leafgrad::DType::Float32,
            "{}",
            op.name()
        );
    }
}
