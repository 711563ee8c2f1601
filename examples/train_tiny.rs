//! Train y = 3x - 2 with the Rust API: tensors, ops, the engine, and an SGD step by hand.
//!
//!     cargo run --example train_tiny
use leafgrad::engine::{backward, BackwardOptions};
use leafgrad::grad_mode::GradModeGuard;
use leafgrad::ops;
use leafgrad::Tensor;

fn leaf(v: Vec<f32>, shape: &[usize]) -> leafgrad::Result<Tensor> {
    let t = Tensor::from_vec(v, shape)?;
    t.meta().requires_grad = true;
    Ok(t)
}

fn main() -> leafgrad::Result<()> {
    let xs: Vec<f32> = (0..16).map(|i| i as f32 / 8.0 - 1.0).collect();
    let ys: Vec<f32> = xs.iter().map(|x| 3.0 * x - 2.0).collect();
    let x = Tensor::from_vec(xs, &[16, 1])?;
    let y = Tensor::from_vec(ys, &[16, 1])?;
    let w = leaf(vec![0.0], &[1, 1])?;
    let b = leaf(vec![0.0], &[1])?;
    let opts = BackwardOptions {
        accumulate: true,
        ..Default::default()
    };
    for step in 0..200 {
        // forward: loss = mean((x @ w + b - y)²)
        let pred = ops::add(&ops::mm(&x, &w)?, &b)?;
        let loss = ops::mse_loss(&pred, &y, ops::Reduction::Mean)?;
        backward(&[(loss.clone(), Tensor::scalar(1.0f32))], None, opts)?;
        // SGD, without recording, as optimizers do under no_grad
        let _g = GradModeGuard::new(false);
        for p in [&w, &b] {
            let g = p.grad().expect("backward filled .grad");
            ops::apply_inplace(p, &[&g], |cur| ops::sub(cur, &ops::mul_scalar(&g, 0.5)?))?;
            p.meta().grad = None;
        }
        if step % 50 == 0 || step == 199 {
            println!("step {:3}  loss {:.6}", step, loss.item()?.re);
        }
    }
    println!("w = {:.4}, b = {:.4}", w.item()?.re, b.item()?.re);
    Ok(())
}
