//! The CPU's one worker pool (rayon), sized by `torch.set_num_threads`: every kernel that splits
//! its work goes through [`parallel_for`] or [`fill_chunks`]. Work under [`GRAIN`] elements,
//! and every call while one thread is set, runs on the calling thread and never touches the
//! pool (PyTorch's `at::parallel_for` rule, with its grain size).
use crate::error::{Error, Result};
use rayon::prelude::*;
use std::sync::{Arc, RwLock};

/// Elements below which a loop stays on the calling thread (PyTorch's `at::internal::GRAIN_SIZE`).
pub const GRAIN: usize = 32768;

struct Pool {
    threads: usize,
    /// Built on first use when `threads > 1`.
    pool: Option<Arc<rayon::ThreadPool>>,
}

static POOL: RwLock<Pool> = RwLock::new(Pool {
    threads: 0,
    pool: None,
});

/// The default thread count: the cores this process may use (PyTorch's default, on machines
/// without SMT siblings).
fn default_threads() -> usize {
    // asked once: the standard library reads the cgroup quota from files on every call
    static DEFAULT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *DEFAULT.get_or_init(|| {
        std::thread::available_parallelism()
            .map(|p| p.get())
            .unwrap_or(1)
    })
}

/// The number of threads CPU kernels use (`torch.get_num_threads`).
pub fn num_threads() -> usize {
    let p = POOL.read().unwrap_or_else(|e| e.into_inner());
    if p.threads == 0 {
        default_threads()
    } else {
        p.threads
    }
}

/// Sets the number of threads CPU kernels use (`torch.set_num_threads`): the pool is rebuilt
/// at its next use; kernels running now finish on the old one.
pub fn set_num_threads(n: i64) -> Result<()> {
    if n <= 0 {
        return Err(Error::Runtime(
            "set_num_threads expects a positive integer".into(),
        ));
    }
    let mut p = POOL.write().unwrap_or_else(|e| e.into_inner());
    if p.threads != n as usize {
        p.threads = n as usize;
        p.pool = None;
    }
    Ok(())
}

/// The pool and its size, or None when one thread is set.
fn pool() -> Option<(Arc<rayon::ThreadPool>, usize)> {
    {
        let p = POOL.read().unwrap_or_else(|e| e.into_inner());
        let threads = if p.threads == 0 {
            default_threads()
        } else {
            p.threads
        };
        if threads <= 1 {
            return None;
        }
        if let Some(pool) = &p.pool {
            return Some((pool.clone(), threads));
        }
    }
    let mut p = POOL.write().unwrap_or_else(|e| e.into_inner());
    if p.threads == 0 {
        p.threads = default_threads();
    }
    let threads = p.threads;
    if p.pool.is_none() {
        let built = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("leafgrad-cpu-{i}"))
            .build()
            .ok()?;
        p.pool = Some(Arc::new(built));
    }
    p.pool.clone().map(|pool| (pool, threads))
}

/// How many tasks an n-element loop splits into: one per thread, each at least `grain`
/// elements, and one (no pool) for small loops or one thread.
fn tasks_for(n: usize, grain: usize) -> Option<(Arc<rayon::ThreadPool>, usize)> {
    if n < 2 * grain.max(1) {
        return None;
    }
    let (pool, threads) = pool()?;
    let tasks = threads.min(n.div_ceil(grain.max(1)));
    (tasks > 1).then_some((pool, tasks))
}

/// Runs `body(start, end)` over `[0, n)` split into contiguous ranges of at least `grain`
/// elements, one per thread, on the pool (or all of it on the calling thread).
pub fn parallel_for(n: usize, grain: usize, body: impl Fn(usize, usize) + Sync) {
    match tasks_for(n, grain) {
        None => {
            if n > 0 {
                body(0, n)
            }
        }
        Some((pool, tasks)) => {
            let chunk = n.div_ceil(tasks);
            pool.install(|| {
                (0..tasks).into_par_iter().for_each(|k| {
                    let start = k * chunk;
                    let end = (start + chunk).min(n);
                    if start < end {
                        body(start, end);
                    }
                })
            });
        }
    }
}

/// Runs `fill(start, part)` over `out` split into contiguous parts of at least `grain`
/// elements (`start` is the part's offset in `out`), one per thread, on the pool.
pub fn fill_chunks<U: Send>(out: &mut [U], grain: usize, fill: impl Fn(usize, &mut [U]) + Sync) {
    let n = out.len();
    match tasks_for(n, grain) {
        None => {
            if n > 0 {
                fill(0, out)
            }
        }
        Some((pool, tasks)) => {
            let chunk = n.div_ceil(tasks);
            pool.install(|| {
                out.par_chunks_mut(chunk)
                    .enumerate()
                    .for_each(|(k, part)| fill(k * chunk, part))
            });
        }
    }
}

/// Runs `fill(first, part)` over `out` cut into parts of whole units of `unit` elements (at
/// least `grain` units each; `first` is the part's first unit), one per thread, on the pool.
pub fn fill_chunks_by<U: Send>(
    out: &mut [U],
    unit: usize,
    grain: usize,
    fill: impl Fn(usize, &mut [U]) + Sync,
) {
    if unit == 0 || out.is_empty() {
        return;
    }
    let units = out.len() / unit;
    match tasks_for(units, grain) {
        None => fill(0, out),
        Some((pool, tasks)) => {
            let chunk = units.div_ceil(tasks);
            pool.install(|| {
                out.par_chunks_mut(chunk * unit)
                    .enumerate()
                    .for_each(|(k, part)| fill(k * chunk, part))
            });
        }
    }
}

/// `f` over `[0, n)` split as [`parallel_for`] splits it, the parts' results in order.
pub fn map_reduce<R: Send>(n: usize, grain: usize, f: impl Fn(usize, usize) -> R + Sync) -> Vec<R> {
    match tasks_for(n, grain) {
        None => vec![f(0, n)],
        Some((pool, tasks)) => {
            let chunk = n.div_ceil(tasks);
            pool.install(|| {
                (0..tasks)
                    .into_par_iter()
                    .map(|k| {
                        let start = (k * chunk).min(n);
                        f(start, (start + chunk).min(n))
                    })
                    .collect()
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_index_is_visited_once() {
        for n in [0, 1, GRAIN - 1, 2 * GRAIN, 5 * GRAIN + 7] {
            let seen: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            parallel_for(n, GRAIN, |s, e| {
                for v in &seen[s..e] {
                    v.fetch_add(1, Ordering::Relaxed);
                }
            });
            assert!(seen.iter().all(|v| v.load(Ordering::Relaxed) == 1));
            let mut out = vec![0usize; n];
            fill_chunks(&mut out, GRAIN, |start, part| {
                for (i, o) in part.iter_mut().enumerate() {
                    *o = start + i;
                }
            });
            assert!(out.iter().enumerate().all(|(i, &v)| i == v));
            let parts = map_reduce(n, GRAIN, |s, e| (s..e).sum::<usize>());
            assert_eq!(parts.iter().sum::<usize>(), (0..n).sum::<usize>());
        }
    }

    #[test]
    fn thread_counts() {
        assert!(set_num_threads(0).is_err());
        assert!(set_num_threads(-3).is_err());
        let before = num_threads();
        set_num_threads(1).unwrap();
        assert_eq!(num_threads(), 1);
        assert!(tasks_for(10 * GRAIN, GRAIN).is_none());
        set_num_threads(before as i64).unwrap();
        assert_eq!(num_threads(), before);
    }
}
