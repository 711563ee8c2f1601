//! PyTorch's CPU random number generator, bit for bit: the mt19937 engine seeded as
//! `CPUGeneratorImpl` seeds it, the uniform conversions of `at::uniform_real_distribution`,
//! the Box–Muller normal sampler with its cached second value, and the state layout of
//! `torch.get_rng_state()` (5056 bytes), so a state saved by one loads in the other.
//!
//! The distributions over whole tensors (rand, randn's two paths, randint, randperm, bernoulli,
//! exponential, multinomial) are in `crate::ops::random`; this module is the engine and the
//! per-sample conversions they share.
use crate::error::{Error, Result};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

pub mod philox;

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UMASK: u32 = 0x8000_0000;
const LMASK: u32 = 0x7fff_ffff;

/// The seed of a `torch.Generator()` made without one (PyTorch's `default_rng_seed_val`).
pub const DEFAULT_SEED: u64 = 67_280_421_310_721;

/// The size of PyTorch's `CPUGeneratorImplState`, what `get_state()` returns.
pub const STATE_BYTES: usize = 5056;

/// The engine and the cached normal samples of one generator.
#[derive(Clone)]
pub struct CpuGenerator {
    seed: u64,
    left: i32,
    seeded: bool,
    next: u32,
    state: [u32; N],
    next_float_normal: Option<f32>,
    next_double_normal: Option<f64>,
}

impl CpuGenerator {
    pub fn new(seed: u64) -> CpuGenerator {
        let mut g = CpuGenerator {
            seed,
            left: 1,
            seeded: true,
            next: 0,
            state: [0; N],
            next_float_normal: None,
            next_double_normal: None,
        };
        g.set_seed(seed);
        g
    }

    /// `manual_seed`: the engine re-initialised from the seed's low 32 bits (the whole seed is
    /// kept as `initial_seed`), the cached normals dropped.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.seeded = true;
        self.state[0] = seed as u32;
        for j in 1..N {
            let p = self.state[j - 1];
            self.state[j] = 1_812_433_253u32
                .wrapping_mul(p ^ (p >> 30))
                .wrapping_add(j as u32);
        }
        self.left = 1;
        self.next = 0;
        self.next_float_normal = None;
        self.next_double_normal = None;
    }

    pub fn initial_seed(&self) -> u64 {
        self.seed
    }

    fn next_state(&mut self) {
        let s = &mut self.state;
        let twist = |u: u32, v: u32| {
            (((u & UMASK) | (v & LMASK)) >> 1) ^ if v & 1 != 0 { MATRIX_A } else { 0 }
        };
        for i in 0..N - M {
            s[i] = s[i + M] ^ twist(s[i], s[i + 1]);
        }
        for i in N - M..N - 1 {
            s[i] = s[i + M - N] ^ twist(s[i], s[i + 1]);
        }
        s[N - 1] = s[M - 1] ^ twist(s[N - 1], s[0]);
        self.left = N as i32;
        self.next = 0;
    }

    /// 32 random bits (`CPUGeneratorImpl::random`).
    #[inline]
    pub fn random(&mut self) -> u32 {
        self.left -= 1;
        if self.left == 0 {
            self.next_state();
        }
        let mut y = self.state[self.next as usize];
        self.next += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `out.len()` successive `random()` values, tempered a run of the state at a time (the same
    /// numbers and the same state afterwards; the loop vectorizes).
    pub fn fill_u32(&mut self, out: &mut [u32]) {
        let mut i = 0;
        while i < out.len() {
            // the values readable before the next refill
            let avail = (self.left - 1) as usize;
            if avail == 0 {
                out[i] = self.random();
                i += 1;
                continue;
            }
            let take = avail.min(out.len() - i);
            let start = self.next as usize;
            for (o, &y) in out[i..i + take]
                .iter_mut()
                .zip(&self.state[start..start + take])
            {
                let mut y = y;
                y ^= y >> 11;
                y ^= (y << 7) & 0x9d2c_5680;
                y ^= (y << 15) & 0xefc6_0000;
                *o = y ^ (y >> 18);
            }
            self.next += take as u32;
            self.left -= take as i32;
            i += take;
        }
    }

    /// 64 random bits: the first draw is the high half (`CPUGeneratorImpl::random64`).
    #[inline]
    pub fn random64(&mut self) -> u64 {
        let hi = self.random() as u64;
        let lo = self.random() as u64;
        (hi << 32) | lo
    }

    /// A float32 in [0, 1): 24 random bits.
    #[inline]
    pub fn uniform01_f32(&mut self) -> f32 {
        (self.random() & 0x00ff_ffff) as f32 * (1.0 / 16_777_216.0)
    }

    /// A float64 in [0, 1): 53 of 64 random bits.
    #[inline]
    pub fn uniform01_f64(&mut self) -> f64 {
        (self.random64() & ((1u64 << 53) - 1)) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    /// A float32 in [from, to): 24 random bits, computed in float32.
    #[inline]
    pub fn uniform_f32(&mut self, from: f32, to: f32) -> f32 {
        // PyTorch's compiled kernel fuses this multiply-add
        self.uniform01_f32().mul_add(to - from, from)
    }

    /// A float64 in [from, to): 53 of 64 random bits.
    #[inline]
    pub fn uniform_f64(&mut self, from: f64, to: f64) -> f64 {
        self.uniform01_f64().mul_add(to - from, from)
    }

    /// One sample of `at::normal_distribution<double>`: Box–Muller over two uniform doubles;
    /// the second value is cached in the generator (and in its state) for the next call.
    pub fn normal_f64(&mut self, mean: f64, std: f64) -> f64 {
        if let Some(v) = self.next_double_normal.take() {
            return v * std + mean;
        }
        let u1 = self.uniform01_f64();
        let u2 = self.uniform01_f64();
        let r = (-2.0 * (-u2).ln_1p()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * u1;
        self.next_double_normal = Some(r * theta.sin());
        r * theta.cos() * std + mean
    }

    /// `torch.get_rng_state()`'s bytes: PyTorch's `CPUGeneratorImplState` on a 64-bit
    /// little-endian machine (the legacy POD with the state words widened to 64 bits, the
    /// cached double normal as `normal_y`, then the cached float normal).
    pub fn get_state(&self) -> Vec<u8> {
        let mut b = vec![0u8; STATE_BYTES];
        b[0..8].copy_from_slice(&self.seed.to_le_bytes());
        b[8..12].copy_from_slice(&self.left.to_le_bytes());
        b[12..16].copy_from_slice(&(self.seeded as i32).to_le_bytes());
        b[16..24].copy_from_slice(&(self.next as u64).to_le_bytes());
        for (i, w) in self.state.iter().enumerate() {
            b[24 + 8 * i..32 + 8 * i].copy_from_slice(&(*w as u64).to_le_bytes());
        }
        // normal_x (5016) and normal_rho (5032) are unused dummies
        if let Some(v) = self.next_double_normal {
            b[5024..5032].copy_from_slice(&v.to_le_bytes());
            b[5040..5044].copy_from_slice(&1i32.to_le_bytes());
        }
        if let Some(v) = self.next_float_normal {
            b[5048..5052].copy_from_slice(&v.to_le_bytes());
            b[5052] = 1;
        }
        b
    }

    /// Load a state from `get_state`'s bytes, with PyTorch's checks.
    pub fn set_state(&mut self, b: &[u8]) -> Result<()> {
        if b.len() != STATE_BYTES {
            return Err(Error::Runtime(format!(
                "Expected a CPUGeneratorImplState of size {} but found the input RNG state size to be {}",
                STATE_BYTES,
                b.len()
            )));
        }
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        let i32_at = |i: usize| i32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        let left = i32_at(8);
        // the engine stores `seeded_` as a bool: any nonzero byte pattern is true
        let seeded = b[12] != 0;
        let next = u64_at(16) as u32;
        if !(seeded && left > 0 && left <= N as i32 && next <= N as u32) {
            return Err(Error::Runtime("Invalid mt19937 state".into()));
        }
        self.seed = u64_at(0);
        self.left = left;
        self.seeded = seeded;
        self.next = next;
        for i in 0..N {
            self.state[i] = u64_at(24 + 8 * i) as u32;
        }
        self.next_double_normal = (i32_at(5040) != 0).then(|| f64::from_bits(u64_at(5024)));
        self.next_float_normal =
            (b[5052] != 0).then(|| f32::from_le_bytes(b[5048..5052].try_into().unwrap()));
        Ok(())
    }
}

/// A generator shared by the Python `Generator` objects that name it (the default one by
/// `torch.default_generator` and `manual_seed`'s result).
#[derive(Clone)]
pub struct Generator(Arc<Mutex<CpuGenerator>>);

impl Generator {
    pub fn new(seed: u64) -> Generator {
        Generator(Arc::new(Mutex::new(CpuGenerator::new(seed))))
    }

    /// The engine, locked for a whole kernel (PyTorch holds the generator's mutex the same way).
    pub fn lock(&self) -> MutexGuard<'_, CpuGenerator> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn same(&self, other: &Generator) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A seed from the operating system (PyTorch's `getNonDeterministicRandom`), or the clock.
pub fn nondeterministic_seed() -> u64 {
    use std::io::Read;
    let mut b = [0u8; 8];
    if std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut b))
        .is_ok()
    {
        return u64::from_le_bytes(b);
    }
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(DEFAULT_SEED)
}

/// The default CPU generator (`torch.default_generator`), seeded nondeterministically once.
pub fn default_generator() -> &'static Generator {
    static DEFAULT: OnceLock<Generator> = OnceLock::new();
    DEFAULT.get_or_init(|| Generator::new(nondeterministic_seed()))
}

/// `generator`, or the default one.
pub fn or_default(generator: Option<&Generator>) -> &Generator {
    generator.unwrap_or_else(|| default_generator())
}

pub fn manual_seed(seed: u64) {
    default_generator().lock().set_seed(seed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mt19937_matches_the_reference_stream() {
        // the 10000th output of std::mt19937 seeded with 5489 (the C++ standard's check)
        let mut g = CpuGenerator::new(5489);
        let mut v = 0;
        for _ in 0..10000 {
            v = g.random();
        }
        assert_eq!(v, 4_123_659_995);
    }

    #[test]
    fn bulk_draws_are_the_stream() {
        let mut a = CpuGenerator::new(3);
        let mut b = a.clone();
        a.random();
        b.random();
        let mut out = vec![0u32; 2000];
        a.fill_u32(&mut out);
        let want: Vec<u32> = (0..2000).map(|_| b.random()).collect();
        assert_eq!(out, want);
        assert_eq!(a.get_state(), b.get_state());
    }

    #[test]
    fn state_round_trips() {
        let mut g = CpuGenerator::new(7);
        g.normal_f64(0.0, 1.0);
        let s = g.get_state();
        let a = g.random64();
        let mut h = CpuGenerator::new(0);
        h.set_state(&s).unwrap();
        assert_eq!(h.random64(), a);
        assert_eq!(h.initial_seed(), 7);
        assert!(h.set_state(&[0; 10]).is_err());
        assert!(h.set_state(&[0; STATE_BYTES]).is_err());
    }
}
