//! The CUDA backend from Rust, on any machine: without a driver every entry point returns
//! PyTorch's no-driver error, or the reason, as an error (never a panic); the kernel table is
//! consistent.
use leafgrad::backend::cuda;
use leafgrad::device::Device;
use leafgrad::{ops, DType, Tensor};

#[test]
fn without_a_device_every_entry_point_says_why() {
    let Err(why) = cuda::available() else {
        return; // a GPU machine: tests/python/test_cuda.py covers it
    };
    assert!(!why.is_empty());
    assert_eq!(cuda::device_count(), 0);
    // PyTorch's text when no driver is installed, else the reason
    let expected = cuda::unavailable_message(&why);
    assert!(expected.contains(&why) || expected.starts_with("Found no NVIDIA driver"));
    let e = cuda::empty(&[2], DType::Float32, Device::Cuda(0)).unwrap_err();
    assert_eq!(e.to_string(), expected);
    let x = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
    x.meta().requires_grad = true;
    let e = ops::to_copy(&x, DType::Float32, Device::Cuda(0)).unwrap_err();
    assert_eq!(e.to_string(), expected);
    assert!(Tensor::zeros_on(&[3], DType::Float32, Device::Cuda(0)).is_err());
    assert!(cuda::check(Device::Cuda(1)).is_err());
    assert!(cuda::check(Device::Cpu).is_ok());
    // The CPU tensor is untouched and still a leaf.
    assert!(x.is_leaf() && x.device() == Device::Cpu);
    assert_eq!(x.to_vec::<f32>(), vec![1.0, 2.0]);
}

#[test]
fn kernel_table_is_consistent() {
    let table = cuda::kernel_table();
    let mut names: Vec<&str> = table.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "duplicate kernel names");
    for (name, params) in &table {
        let family = name.split('_').next().unwrap();
        let expected = match family {
            "fill" | "copy" | "unary" => 3,
            "binary" => 7,
            "where" => 5,
            "reduce" => 5,
            "scan" => 6,
            "argreduce" | "take" | "put" => 4,
            // the device-built index plans (im2col: one kernel for every dtype) and normal draws
            "im2col" => 12,
            "max" => 15,
            "normal" => 7,
            other => panic!("unknown kernel family {other} ({name})"),
        };
        assert_eq!(*params, expected, "{name}");
        let suffix = name.rsplit('_').next().unwrap();
        assert!(
            family == "im2col" || cuda::storage_types().any(|(_, t)| t == suffix),
            "{name}: unknown dtype suffix"
        );
    }
    // Every dtype the backend stores can be filled and copied to every other.
    for (dt, t) in cuda::storage_types() {
        assert_eq!(cuda::type_name(dt).unwrap(), t);
        assert!(names.contains(&format!("fill_{t}").as_str()));
        for (_, d) in cuda::storage_types() {
            assert!(names.contains(&format!("copy_{t}_{d}").as_str()));
        }
    }
    assert_eq!(cuda::type_name(DType::Float16).unwrap(), "f16");
    assert_eq!(cuda::type_name(DType::Complex128).unwrap(), "c128");
    // Complex numbers have their own arithmetic, reductions and scatter-add.
    for op in [
        "binary_mul",
        "binary_div",
        "unary_exp",
        "unary_abs",
        "reduce_sum",
        "put_add",
    ] {
        assert!(names.contains(&format!("{op}_c64").as_str()), "{op}_c64");
    }
}

#[test]
fn cpu_ops_refuse_mixed_devices_before_touching_memory() {
    // A CPU-only check: the device test of `mm` runs before any kernel.
    let a = Tensor::from_vec(vec![1.0f32; 4], &[2, 2]).unwrap();
    assert!(ops::mm(&a, &a).is_ok());
    assert_eq!(a.device(), Device::Cpu);
    assert!(!a.is_cuda());
}
