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
        Err(Error::NotImplemented(m)) => {
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

/// PyTorch's numbers for a seed (recorded from PyTorch 2.15): the float32 uniforms, both normal
/// paths (a cached Box–Muller double below 16 elements, AVX2-style blocks of 16 from 16 on),
/// integers and a permutation.
#[test]
fn random_values_are_pytorchs() {
    use leafgrad::ops::random;
    use leafgrad::random::Generator;
    let g = Generator::new(0);
    let u = random::uniform(&[3], None, DType::Float32, 0.0, 1.0, Some(&g)).unwrap();
    assert_eq!(
        u.to_vec::<f32>(),
        vec![0.496_256_6, 0.768_221_8, 0.088_477_43]
    );
    let g = Generator::new(0);
    let n = random::normal(&[3], None, DType::Float32, 0.0, 1.0, Some(&g)).unwrap();
    assert_eq!(
        n.to_vec::<f32>(),
        vec![1.540_996_1, -0.293_428_9, -2.178_789_4]
    );
    let g = Generator::new(0);
    let n = random::normal(&[16], None, DType::Float32, 0.0, 1.0, Some(&g)).unwrap();
    assert_eq!(n.to_vec::<f32>()[..2], [-1.125_839_8, -1.152_360_2]);
    let g = Generator::new(0);
    let r = random::randint(&[4], None, DType::Int64, 0, 100, Some(&g)).unwrap();
    assert_eq!(r.to_vec::<i64>(), vec![44, 39, 33, 60]);
    let g = Generator::new(0);
    let p = random::randperm(5, DType::Int64, Some(&g)).unwrap();
    assert_eq!(p.to_vec::<i64>(), vec![4, 0, 1, 3, 2]);
}
