#!/usr/bin/env bash
# Every test of the project: the Rust core (cargo test) and the Python API (pytest), against a
# debug build of the extension installed into ./.venv. Usage: bash tests/run_all.sh [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase's wall time goes to stderr, so a slow CI run says where its minutes went.
phase_start=$(date +%s)
phase() { local now; now=$(date +%s); echo "[run_all] $1: $((now - phase_start)) s" >&2; phase_start=$now; }

[ -x .venv/bin/maturin ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check "maturin>=1.7,<2" "pytest>=7" "hypothesis>=6" "numpy>=1.23" "mypy>=2.4,<3"
# NVRTC and ptxas (same CUDA version) so the CUDA kernels are compiled and assembled here too,
# GPU or not (tests/python/test_cuda.py; LEAFGRAD_REQUIRE_NVRTC makes their absence a failure).
.venv/bin/python -m pip install -q --disable-pip-version-check "nvidia-cuda-nvrtc-cu12==12.9.86" "nvidia-cuda-nvcc-cu12==12.9.86"
export LEAFGRAD_REQUIRE_NVRTC=1
VIRTUAL_ENV="$PWD/.venv" PATH="$PWD/.venv/bin:$PATH" .venv/bin/maturin develop -q
phase "pip installs and the extension's debug build"

# Graphviz renders leafgrad.viz figures; its tests skip where it cannot be installed.
command -v dot >/dev/null || { (apt-get update -q && apt-get install -y -q graphviz) >/dev/null 2>&1 || true; }
# fmt and clippy are rustup components a minimal toolchain may lack.
command -v rustup >/dev/null && rustup component add rustfmt clippy >/dev/null 2>&1 || true

phase "graphviz and rustup components"
cargo fmt --check
cargo clippy -q --all-targets --features python,bench -- -D warnings
phase "cargo fmt and clippy"
RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps
phase "cargo doc"
cargo test -q
phase "cargo test"
.venv/bin/python -m pytest -q tests/python "$@"
phase "pytest"
# Again with the CUDA host emulation as the device (LEAFGRAD_CUDA_EMULATION=1: the CUDA backend
# with host memory and its kernels compiled for the host), so the GPU tests run without a GPU.
# Only the files that use the cuda device: the others would repeat the first run exactly (nothing
# on the CPU reads the emulation switch), and the repeat cost CI over two minutes. The NVRTC and
# ptxas compiles and the emulation's own subprocess test do not read it either (three minutes).
LEAFGRAD_CUDA_EMULATION=1 .venv/bin/python -m pytest -q $(grep -l cuda tests/python/test_*.py) \
    --deselect tests/python/test_cuda.py::test_every_kernel_compiles_and_assembles \
    --deselect tests/python/test_cuda.py::test_compile_errors_are_python_errors \
    --deselect tests/python/test_cuda.py::test_host_emulation_is_a_named_test_device "$@"
phase "pytest on the CUDA host emulation"
