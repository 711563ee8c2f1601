//! PyTorch's CUDA generator: a seed and a Philox offset (`CUDAGeneratorImpl`), the
//! Philox4x32-10 counter-based engine as cuRAND's `curandStatePhilox4_32_10_t` runs it, and the
//! 16-byte state layout of `torch.cuda.get_rng_state()` (seed, then offset, little-endian), so
//! a state saved by one loads in the other.
//!
//! The engine is a pure function of (counter, key): a kernel thread `idx` of a launch that was
//! handed offset `o` draws its `r`-th block of four 32-bit values from counter
//! `(o / 4 + r, idx)` with the seed as key. leafgrad evaluates that function on the host for
//! CUDA tensors (`crate::ops::random_cuda` lays the values out as PyTorch's kernels do).
use crate::error::{Error, Result};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

const W0: u32 = 0x9E37_79B9;
const W1: u32 = 0xBB67_AE85;
const M0: u32 = 0xD251_1F53;
const M1: u32 = 0xCD9E_8D57;

/// Bytes of `torch.cuda.get_rng_state()`: the seed (u64) and the Philox offset (i64).
pub const CUDA_STATE_BYTES: usize = 16;

fn round(c: [u32; 4], k: [u32; 2]) -> [u32; 4] {
    let p0 = (M0 as u64) * (c[0] as u64);
    let p1 = (M1 as u64) * (c[2] as u64);
    [
        ((p1 >> 32) as u32) ^ c[1] ^ k[0],
        p1 as u32,
        ((p0 >> 32) as u32) ^ c[3] ^ k[1],
        p0 as u32,
    ]
}

/// Philox4x32 with 10 rounds (Salmon et al. 2011; cuRAND's `curand_Philox4x32_10`).
#[inline]
pub fn philox4x32_10(mut c: [u32; 4], mut k: [u32; 2]) -> [u32; 4] {
    for _ in 0..9 {
        c = round(c, k);
        k[0] = k[0].wrapping_add(W0);
        k[1] = k[1].wrapping_add(W1);
    }
    round(c, k)
}

/// The counter of thread `subsequence`'s `block`-th draw of four values after `offset` (a
/// multiple of 4, as PyTorch keeps it): cuRAND's `curand_init(seed, subsequence, offset)`
/// followed by `block` calls of `curand4`, with the carries of its 128-bit counter.
#[inline]
pub fn counter(subsequence: u64, offset: u64, block: u64) -> [u32; 4] {
    let lo = (offset / 4).wrapping_add(block);
    // the low 64 bits cannot wrap for any offset PyTorch produces (< 2^64 / 4 blocks)
    [
        lo as u32,
        (lo >> 32) as u32,
        subsequence as u32,
        (subsequence >> 32) as u32,
    ]
}

/// The key Philox takes from a 64-bit seed.
#[inline]
pub fn key(seed: u64) -> [u32; 2] {
    [seed as u32, (seed >> 32) as u32]
}

/// The two device properties PyTorch's random kernels size their grids by.
#[derive(Clone, Copy, Debug)]
pub struct Launch {
    pub multiprocessors: u32,
    pub threads_per_multiprocessor: u32,
}

/// A CUDA generator's state: PyTorch's `CUDAGeneratorState` outside graph capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhiloxState {
    pub seed: u64,
    /// `philox_offset_per_thread`: where the next kernel's threads start, always a multiple of 4.
    pub offset: u64,
}

impl PhiloxState {
    /// `philox_cuda_state(increment)`: the (seed, offset) a kernel uses, and the offset moved
    /// past it by `increment` rounded up to a multiple of 4.
    pub fn reserve(&mut self, increment: u64) -> (u64, u64) {
        let start = self.offset;
        self.offset = self.offset.wrapping_add(increment.div_ceil(4) * 4);
        (self.seed, start)
    }

    /// `manual_seed`: a new seed, the offset back to 0.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.offset = 0;
    }

    /// `set_offset`, with PyTorch's check.
    pub fn set_offset(&mut self, offset: u64) -> Result<()> {
        if !offset.is_multiple_of(4) {
            return Err(Error::Runtime("offset must be a multiple of 4".into()));
        }
        self.offset = offset;
        Ok(())
    }

    /// `get_state()`'s 16 bytes.
    pub fn get_state(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(CUDA_STATE_BYTES);
        b.extend_from_slice(&self.seed.to_le_bytes());
        b.extend_from_slice(&self.offset.to_le_bytes());
        b
    }

    /// `set_state`: 16 bytes, or 8 (a seed alone, offset 0), with PyTorch's checks.
    pub fn set_state(&mut self, b: &[u8]) -> Result<()> {
        if b.len() != 8 && b.len() != CUDA_STATE_BYTES {
            return Err(Error::Runtime("RNG state is wrong size".into()));
        }
        let seed = u64::from_le_bytes(b[0..8].try_into().unwrap());
        let offset = match b.get(8..16) {
            Some(o) => u64::from_le_bytes(o.try_into().unwrap()),
            None => 0,
        };
        if offset % 4 != 0 {
            return Err(Error::Runtime("offset must be a multiple of 4".into()));
        }
        self.set_seed(seed);
        self.offset = offset;
        Ok(())
    }
}

/// A CUDA generator of one device, shared by the Python objects that name it.
#[derive(Clone)]
pub struct CudaGenerator {
    pub device: usize,
    state: Arc<Mutex<PhiloxState>>,
}

impl CudaGenerator {
    /// `torch.Generator(device="cuda:i")`: PyTorch's default seed, offset 0.
    pub fn new(device: usize, seed: u64) -> CudaGenerator {
        CudaGenerator {
            device,
            state: Arc::new(Mutex::new(PhiloxState { seed, offset: 0 })),
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, PhiloxState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn same(&self, other: &CudaGenerator) -> bool {
        Arc::ptr_eq(&self.state, &other.state)
    }
}

/// The most devices that get a default generator (PyTorch sizes the table by the device
/// count; leafgrad makes each lazily, so a fixed bound suffices).
pub const MAX_DEVICES: usize = 64;

/// `torch.cuda.default_generators[i]`: seeded from the operating system when first used, as
/// PyTorch's are.
pub fn default_cuda_generator(i: usize) -> Result<&'static CudaGenerator> {
    static GENS: [OnceLock<CudaGenerator>; MAX_DEVICES] = [const { OnceLock::new() }; MAX_DEVICES];
    let slot = GENS
        .get(i)
        .ok_or_else(|| Error::Runtime(format!("CUDA error: invalid device ordinal (cuda:{i})")))?;
    Ok(slot.get_or_init(|| CudaGenerator::new(i, super::nondeterministic_seed())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_answers() {
        // Random123's known-answer vectors for philox4x32_10 (kat_vectors)
        assert_eq!(
            philox4x32_10([0; 4], [0; 2]),
            [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]
        );
        assert_eq!(
            philox4x32_10([u32::MAX; 4], [u32::MAX; 2]),
            [0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd]
        );
        assert_eq!(
            philox4x32_10(
                [0x243f_6a88, 0x85a3_08d3, 0x1319_8a2e, 0x0370_7344],
                [0xa409_3822, 0x299f_31d0]
            ),
            [0xd16c_fe09, 0x94fd_cceb, 0x5001_e420, 0x2412_6ea1]
        );
    }

    #[test]
    fn offsets_round_up_and_states_round_trip() {
        let mut s = PhiloxState { seed: 5, offset: 0 };
        assert_eq!(s.reserve(1), (5, 0));
        assert_eq!(s.reserve(4), (5, 4));
        assert_eq!(s.offset, 8);
        let b = s.get_state();
        let mut t = PhiloxState { seed: 0, offset: 0 };
        t.set_state(&b).unwrap();
        assert_eq!(t, s);
        assert!(t.set_state(&[0; 3]).is_err());
        assert!(t.set_offset(6).is_err());
        t.set_state(&7u64.to_le_bytes()).unwrap();
        assert_eq!(t, PhiloxState { seed: 7, offset: 0 });
    }
}
