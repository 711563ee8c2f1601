//! Where a tensor's memory lives: host memory, one CUDA device, or nowhere (the meta device:
//! shape and dtype without data).
use crate::error::{Error, Result};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Device {
    #[default]
    Cpu,
    /// A CUDA device by ordinal.
    Cuda(usize),
    /// PyTorch's `meta` device: tensors with a shape and dtype and no memory.
    Meta,
}

impl Device {
    pub fn is_cuda(self) -> bool {
        matches!(self, Device::Cuda(_))
    }
    pub fn is_meta(self) -> bool {
        self == Device::Meta
    }
    /// PyTorch's spelling: `cpu`, `cuda:0`.
    pub fn name(self) -> String {
        match self {
            Device::Cpu => "cpu".into(),
            Device::Cuda(i) => format!("cuda:{i}"),
            Device::Meta => "meta".into(),
        }
    }
    /// Parse `cpu`, `cuda`, `cuda:N` (a bare `cuda` is device 0).
    pub fn parse(s: &str) -> Result<Device> {
        match s.split_once(':') {
            None if s == "cpu" => Ok(Device::Cpu),
            None if s == "cuda" => Ok(Device::Cuda(0)),
            None if s == "meta" => Ok(Device::Meta),
            Some(("cuda", i)) => i
                .parse()
                .map(Device::Cuda)
                .map_err(|_| Error::Runtime(format!("Invalid device string: '{s}'"))),
            _ => Err(Error::Runtime(format!("Invalid device string: '{s}'"))),
        }
    }
}

impl std::fmt::Display for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// PyTorch's error for operands on different devices.
pub fn mismatch(a: Device, b: Device) -> Error {
    Error::Runtime(format!(
        "Expected all tensors to be on the same device, but found at least two devices, {a} and {b}!"
    ))
}

/// PyTorch's error when argument `arg` of `op` is on another device than the others.
pub fn arg_mismatch(op: &str, arg: &str, arg_dev: Device, others: Device) -> Error {
    Error::Runtime(format!(
        "Expected all tensors to be on the same device, but got {arg} is on {arg_dev}, different from other tensors on {others} (when checking argument in method wrapper_CUDA_{op})"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_pytorch_spellings() {
        assert_eq!(Device::parse("cpu").unwrap(), Device::Cpu);
        assert_eq!(Device::parse("cuda").unwrap(), Device::Cuda(0));
        assert_eq!(Device::parse("cuda:3").unwrap(), Device::Cuda(3));
        assert!(Device::parse("cuda:x").is_err());
        assert!(Device::parse("tpu").is_err());
        assert_eq!(Device::Cuda(1).to_string(), "cuda:1");
    }
}
