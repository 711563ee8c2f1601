//! The ops a Rust user calls, without Python: every declared float function (src/declared.rs)
//! records its node, computes integers in float32, and its derivative matches the central
//! difference of its own values. (Values against references: tests/python/test_op_db.py.)
use leafgrad::engine::{backward, BackwardOptions};
use leafgrad::ops::{
    self, FloatBinary, FloatUnary, Rounding, FLOAT_BINARY_OPS, FLOAT_UNARY_OPS, ROUNDING_OPS,
};
use leafgrad::tensor::Tensor;

fn leaf(xs: &[f64]) -> Tensor {
    let x = Tensor::from_vec(xs.to_vec(), &[xs.len()]).unwrap();
    x.meta().requires_grad = true;
    x
}

fn backward_of_sum(y: &Tensor) {
    let loss = ops::sum(y, None, false).unwrap();
    let opts = BackwardOptions {
        accumulate: true,
        ..Default::default()
    };
    backward(&[(loss, Tensor::scalar(1.0f64))], None, opts).unwrap();
}

fn assert_near(got: f64, numeric: f64, what: &str) {
    assert!(
        (got - numeric).abs() <= 1e-6 * numeric.abs().max(1.0),
        "{what}: {got} vs {numeric}"
    );
}

fn values(op: FloatUnary, xs: &[f64]) -> Vec<f64> {
    let x = Tensor::from_vec(xs.to_vec(), &[xs.len()]).unwrap();
    op.apply(&x).unwrap().to_vec::<f64>()
}

#[test]
fn the_table_lists_every_declared_op() {
    let names: Vec<&str> = FloatUnary::ALL.iter().map(|op| op.name()).collect();
    let table: Vec<&str> = FLOAT_UNARY_OPS.iter().map(|o| o.name).collect();
    assert_eq!(names, table);
    let names: Vec<&str> = FloatBinary::ALL.iter().map(|op| op.name()).collect();
    let table: Vec<&str> = FLOAT_BINARY_OPS.iter().map(|o| o.name).collect();
    assert_eq!(names, table);
    let names: Vec<&str> = Rounding::ALL.iter().map(|op| op.name()).collect();
    let table: Vec<&str> = ROUNDING_OPS.iter().map(|o| o.name).collect();
    assert_eq!(names, table);
}

#[test]
fn rounding_functions_keep_dtypes_and_have_zero_gradients() {
    let x = leaf(&[-1.5, 0.5, 2.5]);
    let expected = [[-2.0, 0.0, 2.0], [-1.0, 1.0, 3.0], [-2.0, 0.0, 2.0]];
    for (&op, want) in Rounding::ALL.iter().zip(expected) {
        let y = op.apply(&x).unwrap();
        assert_eq!(y.to_vec::<f64>(), want, "{}", op.name());
        assert_eq!(
            y.grad_fn().unwrap().name,
            ROUNDING_OPS
                .iter()
                .find(|o| o.name == op.name())
                .unwrap()
                .node
        );
        let ints = Tensor::from_vec(vec![3i64, -2], &[2]).unwrap();
        let r = op.apply(&ints).unwrap();
        assert_eq!(
            (r.dtype(), r.to_vec::<i64>()),
            (leafgrad::DType::Int64, vec![3, -2])
        );
        let b = Tensor::from_vec(vec![true], &[1]).unwrap();
        assert!(matches!(
            op.apply(&b),
            Err(leafgrad::Error::NotImplemented(_))
        ));
    }
    let x = leaf(&[0.3, 1.7]);
    backward_of_sum(&ops::floor(&x).unwrap());
    assert_eq!(x.grad().unwrap().to_vec::<f64>(), vec![0.0, 0.0]);
}

#[test]
fn declared_ops_record_their_node_and_differentiate() {
    // points inside every op's domain (log and sqrt need x > 0, erfinv |x| < 1, acosh x > 1)
    let eps = 1e-6;
    for &op in FloatUnary::ALL {
        let xs = if op.name() == "acosh" {
            [1.3f64, 1.7, 1.9]
        } else {
            [0.3f64, 0.7, 0.9]
        };
        let x = leaf(&xs);
        let y = op.apply(&x).unwrap();
        assert_eq!(y.grad_fn().unwrap().name, op.node());
        backward_of_sum(&y);
        let up: Vec<f64> = xs.iter().map(|v| v + eps).collect();
        let down: Vec<f64> = xs.iter().map(|v| v - eps).collect();
        let (up, down) = (values(op, &up), values(op, &down));
        for (i, g) in x.grad().unwrap().to_vec::<f64>().iter().enumerate() {
            let numeric = (up[i] - down[i]) / (2.0 * eps);
            assert_near(*g, numeric, &format!("{}'({})", op.name(), xs[i]));
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

#[test]
fn declared_binary_ops_differentiate_each_input() {
    // (`other` positive: xlogy takes its log)
    let (xs, ws) = ([0.3f64, -0.7, 1.9], [1.1f64, 0.4, 2.3]);
    let eps = 1e-6;
    for &op in FloatBinary::ALL {
        let (a, b) = (leaf(&xs), leaf(&ws));
        let y = op.apply(&a, &b).unwrap();
        assert_eq!(y.grad_fn().unwrap().name, op.node());
        backward_of_sum(&y);
        let value = |a: &[f64], b: &[f64]| {
            let (a, b) = (
                Tensor::from_vec(a.to_vec(), &[3]).unwrap(),
                Tensor::from_vec(b.to_vec(), &[3]).unwrap(),
            );
            op.apply(&a, &b).unwrap().to_vec::<f64>()
        };
        let shift = |v: &[f64], d: f64| v.iter().map(|x| x + d).collect::<Vec<f64>>();
        let (ga, gb) = (
            a.grad().unwrap().to_vec::<f64>(),
            b.grad().unwrap().to_vec::<f64>(),
        );
        let (ua, da) = (value(&shift(&xs, eps), &ws), value(&shift(&xs, -eps), &ws));
        let (ub, db) = (value(&xs, &shift(&ws, eps)), value(&xs, &shift(&ws, -eps)));
        for i in 0..3 {
            assert_near(
                ga[i],
                (ua[i] - da[i]) / (2.0 * eps),
                &format!("d{}/da at {i}", op.name()),
            );
            assert_near(
                gb[i],
                (ub[i] - db[i]) / (2.0 * eps),
                &format!("d{}/db at {i}", op.name()),
            );
        }
    }
}
