//! The backend trait as a Rust user of the crate meets it: kernels by identity on the CPU,
//! the dispatch rule of `backend::of`, and the meta backend's refusals. (The CUDA backend's
//! kernels are checked against these in tests/python/test_cuda*.py, on the host emulation.)
use leafgrad::backend::{
    self, ArgReduceKernel, BinaryKernel, ReduceKernel, Rounding, ScanKernel, Strided, UnaryKernel,
};
use leafgrad::device::Device;
use leafgrad::ops::CmpOp;
use leafgrad::tensor::Tensor;
use leafgrad::{DType, Error};

fn t(xs: &[f64], shape: &[usize]) -> Tensor {
    Tensor::from_vec(xs.to_vec(), shape).unwrap()
}

fn ti(xs: &[i64], shape: &[usize]) -> Tensor {
    Tensor::from_vec(xs.to_vec(), shape).unwrap()
}

#[test]
fn unary_kernels_by_identity() {
    let cpu = backend::on(Device::Cpu);
    // kernels take a storage and a layout, not a Tensor
    let x = t(&[-1.5, 0.0, 2.5], &[3]).strided();
    let v = |k| cpu.unary(k, &x).unwrap().try_to_vec::<f64>().unwrap();
    assert_eq!(v(UnaryKernel::Neg), vec![1.5, -0.0, -2.5]);
    assert_eq!(v(UnaryKernel::Abs), vec![1.5, 0.0, 2.5]);
    assert_eq!(v(UnaryKernel::Relu), vec![0.0, 0.0, 2.5]);
    assert_eq!(v(UnaryKernel::Sign), vec![-1.0, 0.0, 1.0]);
    assert_eq!(
        v(UnaryKernel::Rounding(Rounding::Floor)),
        vec![-2.0, 0.0, 2.0]
    );
    assert_eq!(
        v(UnaryKernel::Rounding(Rounding::Ceil)),
        vec![-1.0, 0.0, 3.0]
    );
    // ties to even, as PyTorch rounds
    assert_eq!(
        v(UnaryKernel::Rounding(Rounding::Round)),
        vec![-2.0, 0.0, 2.0]
    );
    assert_eq!(v(UnaryKernel::Angle)[0], std::f64::consts::PI);
    let i = ti(&[5, -1], &[2]).strided();
    assert_eq!(
        cpu.unary(UnaryKernel::BNot, &i)
            .unwrap()
            .try_to_vec::<i64>()
            .unwrap(),
        vec![!5, 0]
    );
}

#[test]
fn kernels_read_any_layout_of_a_storage() {
    // a 2x3 row-major buffer seen transposed (3x2, strides (1, 3)), and from an offset
    let buf = Strided::from_vec(vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
    let tr = buf.restrided(&[3, 2], &[1, 3], 0);
    let cpu = backend::on(Device::Cpu);
    let y = cpu.unary(UnaryKernel::Neg, &tr).unwrap();
    assert_eq!(y.shape.as_slice(), &[3, 2]);
    assert_eq!(
        y.try_to_vec::<f64>().unwrap(),
        vec![-1.0, -4.0, -2.0, -5.0, -3.0, -6.0]
    );
    let row = buf.restrided(&[3], &[1], 3);
    let s = cpu.reduce(ReduceKernel::Sum, &row, &[0], false).unwrap();
    assert_eq!(s.try_to_vec::<f64>().unwrap(), vec![15.0]);
    // a write through a view lands in the shared storage
    cpu.fill(
        &buf.restrided(&[2], &[3], 1),
        num_complex::Complex64::new(0.0, 0.0),
    )
    .unwrap();
    assert_eq!(
        buf.try_to_vec::<f64>().unwrap(),
        vec![1.0, 0.0, 3.0, 4.0, 0.0, 6.0]
    );
}

#[test]
fn binary_kernels_broadcast_and_compute_in_the_given_dtype() {
    let a = t(&[1.0, 2.0, 3.0, 4.0], &[2, 2]);
    let b = t(&[10.0, 20.0], &[2]);
    let r = backend::binary(BinaryKernel::Add, &a, &b, DType::Float64).unwrap();
    assert_eq!(r.shape().as_slice(), &[2, 2]);
    assert_eq!(r.to_vec::<f64>(), vec![11.0, 22.0, 13.0, 24.0]);
    let m = backend::binary(BinaryKernel::Maximum, &a, &t(&[2.5], &[1]), DType::Float64).unwrap();
    assert_eq!(m.to_vec::<f64>(), vec![2.5, 2.5, 3.0, 4.0]);
    let lt = backend::binary(BinaryKernel::Cmp(CmpOp::Lt), &a, &b, DType::Float64).unwrap();
    assert_eq!(lt.dtype(), DType::Bool);
    // Python's % takes the divisor's sign; fmod the dividend's
    let (x, y) = (ti(&[-7, 7], &[2]), ti(&[3, -3], &[2]));
    let rem = backend::binary(BinaryKernel::Remainder, &x, &y, DType::Int64).unwrap();
    assert_eq!(rem.to_vec::<i64>(), vec![2, -2]);
    let fmod = backend::binary(BinaryKernel::Fmod, &x, &y, DType::Int64).unwrap();
    assert_eq!(fmod.to_vec::<i64>(), vec![-1, 1]);
    let fd = backend::binary(BinaryKernel::FloorDiv, &x, &y, DType::Int64).unwrap();
    assert_eq!(fd.to_vec::<i64>(), vec![-3, -3]);
    let p = backend::binary(
        BinaryKernel::IPow,
        &ti(&[-1, 3], &[2]),
        &ti(&[1 << 62, 3], &[2]),
        DType::Int64,
    )
    .unwrap();
    assert_eq!(p.to_vec::<i64>(), vec![1, 27]);
}

#[test]
fn reductions_scans_and_arg_reductions() {
    let x = t(&[1.0, 5.0, 3.0, 4.0, 2.0, 6.0], &[2, 3]);
    let s = backend::reduce(ReduceKernel::Sum, &x, &[1], false).unwrap();
    assert_eq!(
        (s.shape().to_vec(), s.to_vec::<f64>()),
        (vec![2], vec![9.0, 12.0])
    );
    let p = backend::reduce(ReduceKernel::Prod, &x, &[0], true).unwrap();
    assert_eq!(
        (p.shape().to_vec(), p.to_vec::<f64>()),
        (vec![1, 3], vec![4.0, 10.0, 18.0])
    );
    let m = backend::reduce(ReduceKernel::AMax, &x, &[0, 1], false).unwrap();
    assert_eq!((m.shape().to_vec(), m.to_vec::<f64>()), (vec![], vec![6.0]));
    let m = backend::reduce(ReduceKernel::AMin, &x, &[1], true).unwrap();
    assert_eq!(m.to_vec::<f64>(), vec![1.0, 2.0]);
    // integer sums are int64
    let si = backend::reduce(
        ReduceKernel::Sum,
        &backend::cast(&x, DType::Int32).unwrap(),
        &[0, 1],
        false,
    );
    assert_eq!(si.unwrap().dtype(), DType::Int64);
    let a = backend::argreduce(ArgReduceKernel::Max, &x, 1).unwrap();
    assert_eq!(
        (a.shape().to_vec(), a.to_vec::<i64>()),
        (vec![2, 1], vec![1, 2])
    );
    let c = backend::scan(ScanKernel::Sum, &x, 1, false, false).unwrap();
    assert_eq!(c.to_vec::<f64>(), vec![1.0, 6.0, 9.0, 4.0, 6.0, 12.0]);
    // the exclusive reverse product: the product of the elements after each one
    let e = backend::scan(ScanKernel::Prod, &x, 1, true, true).unwrap();
    assert_eq!(e.to_vec::<f64>(), vec![15.0, 3.0, 1.0, 12.0, 6.0, 1.0]);
}

#[test]
fn take_put_and_matrix_products() {
    let x = t(&[1.0, 2.0, 3.0, 4.0], &[2, 2]);
    let g = backend::take(&x, &[3, 0, 3], &[3]).unwrap();
    assert_eq!(g.to_vec::<f64>(), vec![4.0, 1.0, 4.0]);
    let out = Tensor::zeros(&[4], DType::Float64).unwrap();
    backend::put(&out, &[1, 1, 3], &t(&[1.0, 2.0, 5.0], &[3]), true).unwrap();
    assert_eq!(out.to_vec::<f64>(), vec![0.0, 3.0, 0.0, 5.0]);
    let mm = backend::mm(&x, &x).unwrap();
    assert_eq!(mm.to_vec::<f64>(), vec![7.0, 10.0, 15.0, 22.0]);
    // a batch broadcast with stride 0 against two different right operands
    let a = x.restrided(&[2, 2, 2], &[0, 2, 1], 0);
    let b = t(&[1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0], &[2, 2, 2]);
    let r = backend::bmm(&a, &b).unwrap();
    assert_eq!(
        r.to_vec::<f64>(),
        vec![1.0, 2.0, 3.0, 4.0, 2.0, 1.0, 4.0, 3.0]
    );
}

#[test]
fn the_dispatch_rule_and_the_meta_backend() {
    let m = Tensor::on_meta(&[2, 3], DType::Float32).unwrap();
    let c = t(&[1.0], &[1]);
    // any meta operand picks the meta backend, which computes shapes and dtypes only
    let r = backend::binary(BinaryKernel::Cmp(CmpOp::Lt), &m, &m, DType::Float32).unwrap();
    assert!(r.device().is_meta() && r.dtype() == DType::Bool && r.shape().as_slice() == [2, 3]);
    let r = backend::reduce(ReduceKernel::Sum, &m, &[1], true).unwrap();
    assert!(r.device().is_meta() && r.shape().as_slice() == [2, 1]);
    // a CPU operand other than a 0-d one is PyTorch's device error
    let err = backend::binary(BinaryKernel::Add, &c, &m, DType::Float32).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Tensor on device meta is not on the expected device cpu!"
    );
    let s = t(&[2.0], &[]);
    let r = backend::binary(BinaryKernel::Mul, &m, &s, DType::Float32).unwrap();
    assert!(r.device().is_meta() && r.shape().as_slice() == [2, 3]);
    // ... and makes, fills, casts and moves meta tensors
    let e = backend::empty(&[4], DType::Int64, Device::Meta).unwrap();
    backend::fill(&e, num_complex::Complex64::new(1.0, 0.0)).unwrap();
    let k = backend::cast(&m, DType::Float64).unwrap();
    assert!(k.device().is_meta() && k.dtype() == DType::Float64);
    assert!(backend::to_device(&m, Device::Cpu).is_err());
    let moved = backend::to_device(&c, Device::Meta).unwrap();
    assert!(moved.device().is_meta());
    // a CUDA device that cannot be used says why, as a RuntimeError
    if leafgrad::backend::cuda::available().is_err() {
        let err = backend::to_device(&c, Device::Cuda(0)).unwrap_err();
        assert!(matches!(err, Error::Runtime(_)), "{err:?}");
    }
}
