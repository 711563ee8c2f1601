//! Indexing from Rust (the bindings only turn Python objects into `Index` items): views for
//! basic indices, gathers and scatters for tensor indices, PyTorch's nodes and errors.
use leafgrad::ops::{self, Index, PutValue};
use leafgrad::tensor::Tensor;
use leafgrad::{DType, Error};

fn grid() -> Tensor {
    Tensor::from_vec((0..12).map(|v| v as f64).collect::<Vec<_>>(), &[3, 4]).unwrap()
}

#[test]
fn reads() {
    let x = grid();
    // x[1, 1:4:2] is a view
    let v = ops::index(
        &x,
        vec![Index::Int(1), Index::Slice(Some(1), Some(4), 2)],
        true,
    )
    .unwrap();
    assert_eq!(
        (v.shape().to_vec(), v.to_vec::<f64>()),
        (vec![2], vec![5.0, 7.0])
    );
    assert!(v.is_view());
    // x[None, ..., 0]
    let v = ops::index(
        &x,
        vec![Index::NewAxis, Index::Ellipsis, Index::Int(0)],
        true,
    )
    .unwrap();
    assert_eq!(
        (v.shape().to_vec(), v.to_vec::<f64>()),
        (vec![1, 3], vec![0.0, 4.0, 8.0])
    );
    // x[[2, 0]] gathers rows; x[mask] picks elements
    let rows = Tensor::from_vec(vec![2i64, 0], &[2]).unwrap();
    let g = ops::index(&x, vec![Index::Tensor(rows)], false).unwrap();
    assert_eq!(g.to_vec::<f64>()[..4], [8.0, 9.0, 10.0, 11.0]);
    let mask = ops::compare(ops::CmpOp::Gt, &x, &Tensor::wrapped_scalar(9.0)).unwrap();
    let m = ops::index(&x, vec![Index::Tensor(mask)], false).unwrap();
    assert_eq!(m.to_vec::<f64>(), vec![10.0, 11.0]);
    match ops::index(&x, vec![Index::Int(0), Index::Int(0), Index::Int(0)], true) {
        Err(Error::Index(msg)) => assert_eq!(msg, "too many indices for tensor of dimension 2"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn writes() {
    let x = grid();
    // x[:, 0] = 7 fills through a view
    ops::index_put(
        &x,
        vec![Index::Slice(None, None, 1), Index::Int(0)],
        PutValue::Number(Tensor::wrapped_scalar(7.0)),
    )
    .unwrap();
    assert_eq!(x.to_vec::<f64>()[..5], [7.0, 1.0, 2.0, 3.0, 7.0]);
    // x[[0, 2], [1, 1]] = [-1, -2] scatters
    let r = Tensor::from_vec(vec![0i64, 2], &[2]).unwrap();
    let c = Tensor::from_vec(vec![1i64, 1], &[2]).unwrap();
    let v = Tensor::from_vec(vec![-1.0f64, -2.0], &[2]).unwrap();
    ops::index_put(
        &x,
        vec![Index::Tensor(r.clone()), Index::Tensor(c.clone())],
        PutValue::Tensor(v),
    )
    .unwrap();
    let y = x.to_vec::<f64>();
    assert_eq!((y[1], y[9]), (-1.0, -2.0));
    // a tensor value of another dtype is refused for a scatter, as PyTorch's index_put_
    let w = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
    match ops::index_put(
        &x,
        vec![Index::Tensor(r), Index::Tensor(c)],
        PutValue::Tensor(w),
    ) {
        Err(Error::Runtime(msg)) => {
            assert!(msg.starts_with("Index put requires the source and destination dtypes match"))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(x.dtype(), DType::Float64);
}
