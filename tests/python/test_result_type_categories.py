"""Type promotion across priorities (tensors with dims, 0-d tensors, Python numbers) and
categories, as c10's combine_categories: a 0-d complex tensor meeting a float tensor with dims
gives the complex type of the float's width. Every pair of dtypes leafgrad has was compared
with torch 2.15 (complex32 and bcomplex32, which leafgrad lacks, aside); with
LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import pytest

import leafgrad as torch


@pytest.mark.parametrize("dim, zero, want", [
    ("float32", "complex128", "complex64"),
    ("float64", "complex64", "complex128"),
    ("float32", "complex64", "complex64"),
    ("int64", "complex128", "complex128"),
    ("bool", "complex64", "complex64"),
    ("complex64", "float64", "complex64"),
    ("float32", "float64", "float32"),
    ("int32", "float64", "float64"),
])
def test_zero_dim_of_a_higher_category(dim, zero, want):
    x = torch.ones(2, dtype=getattr(torch, dim))
    y = torch.ones((), dtype=getattr(torch, zero))
    assert torch.result_type(x, y) == getattr(torch, want)
    assert (x * y).dtype == getattr(torch, want)


def test_a_complex_power_of_a_zero_dim_tensor_times_a_float32_tensor():
    c = torch.tensor(-0.316 + 1.852j, requires_grad=True)
    p = c ** torch.tensor(-2.588, dtype=torch.float64)
    assert p.dtype == torch.complex128  # both 0-d: complex64 and float64 promote
    assert (torch.ones(4) * p).dtype == torch.complex64
