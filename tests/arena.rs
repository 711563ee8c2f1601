//! The node arena: ids are reused with a new generation, stale ids never resolve, and dropping
//! the last reference frees a node and everything only it kept alive.
use leafgrad::engine::BackwardOptions;
use leafgrad::graph::arena::{arena_stats, is_alive, NodeRef};
use leafgrad::ops;
use leafgrad::tensor::Tensor;
use std::sync::Mutex;

// The arena is global: tests that count live nodes must not overlap.
static SERIAL: Mutex<()> = Mutex::new(());

fn leaf(v: Vec<f64>) -> Tensor {
    let n = v.len();
    let t = Tensor::from_vec(v, &[n]).unwrap();
    t.meta().requires_grad = true;
    t
}

#[test]
fn stale_ids_are_detected_and_slots_reused() {
    let _g = SERIAL.lock().unwrap();
    let x = leaf(vec![1.0, 2.0]);
    let y = ops::mul_scalar(&x, 2.0).unwrap();
    let id = y.grad_fn().unwrap().id();
    assert!(is_alive(id));
    drop(y);
    assert!(!is_alive(id), "freed as soon as the last reference went");
    assert!(NodeRef::upgrade(id).is_none(), "a stale id never resolves");
    let z = ops::mul_scalar(&x, 3.0).unwrap();
    let id2 = z.grad_fn().unwrap().id();
    if id2.index == id.index {
        assert_ne!(
            id2.generation, id.generation,
            "a reused slot gets a new generation"
        );
    }
}

#[test]
fn graph_memory_returns_after_backward_and_drop() {
    let _g = SERIAL.lock().unwrap();
    let before = arena_stats();
    {
        let x = leaf(vec![0.5; 4]);
        let mut y = x.clone();
        for _ in 0..1000 {
            y = ops::mul_scalar(&ops::exp(&y).unwrap(), 0.5).unwrap();
        }
        let s = ops::sum(&y, None, false).unwrap();
        let one = Tensor::scalar(1.0f64);
        let opts = BackwardOptions {
            accumulate: true,
            ..BackwardOptions::default()
        };
        leafgrad::engine::backward(&[(s, one)], None, opts).unwrap();
        assert!(x.grad().is_some());
    }
    assert_eq!(arena_stats(), before);
}

#[test]
fn a_million_node_chain_drops_without_recursion() {
    let _g = SERIAL.lock().unwrap();
    let before = arena_stats();
    {
        let x = leaf(vec![1.0]);
        let mut y = x.clone();
        for _ in 0..1_000_000 {
            y = ops::add(&y, &x).unwrap();
        }
        assert_eq!(arena_stats().0, before.0 + 1_000_001);
    }
    assert_eq!(arena_stats(), before);
}
