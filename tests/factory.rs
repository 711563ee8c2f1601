//! The factories a Rust user calls (the Python ones delegate to them): values, dtypes and
//! PyTorch's errors.
use leafgrad::ops;
use leafgrad::shape::sizes_of;
use leafgrad::{DType, Error};

#[test]
fn ranges() {
    let a = ops::arange(0.0, 1.0, 0.25, DType::Float64).unwrap();
    assert_eq!(a.to_vec::<f64>(), vec![0.0, 0.25, 0.5, 0.75]);
    let b = ops::arange(5.0, 0.0, -2.0, DType::Int64).unwrap();
    assert_eq!(
        (b.dtype(), b.to_vec::<i64>()),
        (DType::Int64, vec![5, 3, 1])
    );
    assert_eq!(
        ops::arange(0.0, 0.0, 1.0, DType::Float32).unwrap().numel(),
        0
    );
    for (s, e, st, msg) in [
        (0.0, 1.0, 0.0, "step must be nonzero"),
        (
            1.0,
            0.0,
            1.0,
            "upper bound and larger bound inconsistent with step sign",
        ),
    ] {
        match ops::arange(s, e, st, DType::Float32) {
            Err(Error::Runtime(m)) => assert_eq!(m, msg),
            other => panic!("{other:?}"),
        }
    }
    // linspace computes its second half from the end, so it is symmetric and ends exactly
    let l = ops::linspace(0.0, 1.0, 5, DType::Float64).unwrap();
    assert_eq!(l.to_vec::<f64>(), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    assert_eq!(
        ops::linspace(3.0, 7.0, 1, DType::Float64)
            .unwrap()
            .to_vec::<f64>(),
        vec![3.0]
    );
    assert!(matches!(
        ops::linspace(0.0, 1.0, -1, DType::Float32),
        Err(Error::Runtime(_))
    ));
}

#[test]
fn identity() {
    let e = ops::eye(2, 3, DType::Int32).unwrap();
    assert_eq!(e.shape().to_vec(), vec![2, 3]);
    assert_eq!(e.to_vec::<i32>(), vec![1, 0, 0, 0, 1, 0]);
}

#[test]
fn random_values() {
    let u = ops::rand(&[1000], false, DType::Float32).unwrap();
    assert!(u.to_vec::<f32>().iter().all(|&v| (0.0..1.0).contains(&v)));
    let n = ops::rand(&[4000], true, DType::Float64)
        .unwrap()
        .to_vec::<f64>();
    let mean = n.iter().sum::<f64>() / n.len() as f64;
    assert!(mean.abs() < 0.1, "{mean}");
    assert_eq!(
        ops::rand(&[2], true, DType::Complex64).unwrap().dtype(),
        DType::Complex64
    );
    match ops::rand(&[2], false, DType::Int64) {
        Err(Error::Runtime(m)) => {
            assert_eq!(m, "\"check_uniform_bounds\" not implemented for 'Long'")
        }
        other => panic!("{other:?}"),
    }
    let r = ops::randint(-2, 3, &[500], DType::Int64)
        .unwrap()
        .to_vec::<i64>();
    assert!(r.iter().all(|&v| (-2..3).contains(&v)) && r.contains(&-2) && r.contains(&2));
    assert!(matches!(
        ops::randint(3, 3, &[1], DType::Int64),
        Err(Error::Runtime(_))
    ));
}

#[test]
fn negative_sizes_are_refused_with_pytorchs_message() {
    assert_eq!(sizes_of(&[2, 3]).unwrap(), vec![2, 3]);
    match sizes_of(&[2, -1]) {
        Err(Error::Runtime(m)) => assert_eq!(
            m,
            "Trying to create tensor with negative dimension -1: [2, -1]"
        ),
        other => panic!("{other:?}"),
    }
}
