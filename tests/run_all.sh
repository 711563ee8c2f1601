#!/usr/bin/env bash
# Every test of the project: the Rust core (cargo test) and the Python API (pytest), against a
# debug build of the extension installed into ./.venv. Usage: bash tests/run_all.sh [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."

[ -x .venv/bin/maturin ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check "maturin>=1.7,<2" "pytest>=7" "hypothesis>=6" "numpy>=1.23" "mypy>=2.4,<3"
# NVRTC and ptxas (same CUDA version) so the CUDA kernels are compiled and assembled here too,
# GPU or not (tests/python/test_cuda.py; LEAFGRAD_REQUIRE_NVRTC makes their absence a failure).
.venv/bin/python -m pip install -q --disable-pip-version-check "nvidia-cuda-nvrtc-cu12==12.9.86" "nvidia-cuda-nvcc-cu12==12.9.86"
export LEAFGRAD_REQUIRE_NVRTC=1
VIRTUAL_ENV="$PWD/.venv" PATH="$PWD/.venv/bin:$PATH" .venv/bin/maturin develop -q

# Graphviz renders leafgrad.viz figures; its tests skip where it cannot be installed.
command -v dot >/dev/null || { (apt-get update -q && apt-get install -y -q graphviz) >/dev/null 2>&1 || true; }
# fmt and clippy are rustup components a minimal toolchain may lack.
command -v rustup >/dev/null && rustup component add rustfmt clippy >/dev/null 2>&1 || true

cargo fmt --check
cargo clippy -q --all-targets --features python -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps
cargo test -q
.venv/bin/python -m pytest -q tests/python "$@"
# Again with the CUDA host emulation as the device (LEAFGRAD_CUDA_EMULATION=1: the CUDA backend
# with host memory and its kernels compiled for the host), so the GPU tests run without a GPU.
LEAFGRAD_CUDA_EMULATION=1 .venv/bin/python -m pytest -q tests/python "$@"
