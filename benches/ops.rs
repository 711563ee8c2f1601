//! Per-op cost of the core (no Python): small-tensor overhead and large-tensor throughput.
use criterion::{criterion_group, criterion_main, Criterion};
use leafgrad::ops;
use leafgrad::tensor::Tensor;
use std::hint::black_box;

fn leaf(v: Vec<f32>, rg: bool) -> Tensor {
    let n = v.len();
    let t = Tensor::from_vec(v, &[n]).unwrap();
    t.meta().requires_grad = rg;
    t
}

fn small(c: &mut Criterion) {
    let x = leaf(vec![1.5], true);
    let y = leaf(vec![2.0], true);
    c.bench_function("mul 1-element requires_grad", |b| {
        b.iter(|| black_box(ops::mul(&x, &y).unwrap()))
    });
    let xn = leaf(vec![1.5], false);
    let yn = leaf(vec![2.0], false);
    c.bench_function("mul 1-element no grad", |b| {
        b.iter(|| black_box(ops::mul(&xn, &yn).unwrap()))
    });
    c.bench_function("exp 1-element requires_grad", |b| {
        b.iter(|| black_box(ops::exp(&x).unwrap()))
    });
}

fn large(c: &mut Criterion) {
    let n = 1 << 20;
    let a = leaf(vec![1.0; n], false);
    let b = leaf(vec![2.0; n], false);
    let mut g = c.benchmark_group("1M float32");
    g.sample_size(20);
    g.bench_function("add", |bch| {
        bch.iter(|| black_box(ops::add(&a, &b).unwrap()))
    });
    g.bench_function("exp", |bch| bch.iter(|| black_box(ops::exp(&a).unwrap())));
    g.bench_function("sum", |bch| {
        bch.iter(|| black_box(ops::sum(&a, None, false).unwrap()))
    });
    g.finish();
    let m = Tensor::from_vec(vec![1.0f32; 256 * 256], &[256, 256]).unwrap();
    let mut g = c.benchmark_group("matmul");
    g.sample_size(20);
    g.bench_function("256x256x256 float32", |bch| {
        bch.iter(|| black_box(ops::mm(&m, &m).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, small, large);
criterion_main!(benches);
