"""`torch.backends.cpu`."""
import platform

__all__ = ["get_cpu_capability"]


def get_cpu_capability():
    """The widest SIMD level the CPU offers, spelled as PyTorch spells it: "AVX512", "AVX2" or
    "DEFAULT" on x86-64, "DEFAULT" elsewhere. Informational only: leafgrad's kernels do not
    dispatch on it.

    >>> torch.backends.cpu.get_cpu_capability() in ("AVX512", "AVX2", "DEFAULT")
    True
    """
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return "DEFAULT"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            flags = set()
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        return "DEFAULT"
    if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
        return "AVX512"
    if "avx2" in flags:
        return "AVX2"
    return "DEFAULT"
