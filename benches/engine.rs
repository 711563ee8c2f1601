//! Engine overhead: a scalar chain forward + backward, per node.
use criterion::{criterion_group, criterion_main, Criterion};
use leafgrad::engine::{backward, BackwardOptions};
use leafgrad::ops;
use leafgrad::tensor::Tensor;

fn chain(c: &mut Criterion) {
    let x = Tensor::from_vec(vec![0.5f32], &[]).unwrap();
    x.meta().requires_grad = true;
    let opts = BackwardOptions {
        accumulate: true,
        ..Default::default()
    };
    c.bench_function("1000-node chain fwd+bwd", |b| {
        b.iter(|| {
            let mut y = x.clone();
            for _ in 0..1000 {
                y = ops::mul_scalar(&y, 1.0001).unwrap();
            }
            backward(&[(y, Tensor::scalar(1.0f32))], None, opts).unwrap();
            x.meta().grad = None;
        })
    });
}

criterion_group!(benches, chain);
criterion_main!(benches);
