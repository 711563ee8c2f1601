"""nn.init.orthogonal_: PyTorch's draws for a seed, the Q of their QR with R's diagonal signs, the
gain, flattened trailing dims, errors — values recorded from PyTorch 2.15 (equal to float
rounding: leafgrad's QR is numpy's LAPACK, PyTorch's MKL's); these expectations run against it
with LEAFGRAD_TEST_TORCH=1."""
import warnings

import pytest

import leafgrad as torch

SEEDED = {
    (3, 5): [0.5222306251525879, -0.09944058954715729, -0.7383733987808228, 0.19263656437397003,
             -0.3675355315208435, -0.5364793539047241, 0.2105625420808792, -0.14289414882659912,
             -0.35876867175102234, -0.7202220559120178, -0.440916508436203, 0.06626057624816895,
             -0.04565519094467163, 0.8897528648376465, -0.08635801076889038],
    (5, 3): [0.06471633911132812, -0.4025863707065582, -0.6560404300689697, -0.470464825630188,
             -0.47696566581726074, -0.19821733236312866, 0.7682027220726013, -0.1433803141117096,
             0.16963505744934082, 0.10119763016700745, 0.6707811951637268, -0.6522603631019592,
             -0.4172510504722595, 0.37406259775161743, 0.27586454153060913],
}


def test_seeded_values_are_pytorchs():
    torch.manual_seed(0)
    for shape in [(3, 5), (5, 3)]:
        w = torch.nn.init.orthogonal_(torch.empty(*shape))
        assert w.flatten().tolist() == pytest.approx(SEEDED[shape], abs=1e-5)
    g = torch.Generator().manual_seed(3)
    w = torch.nn.init.orthogonal_(torch.empty(3, 3), gain=2.0, generator=g)
    assert w.flatten().tolist() == pytest.approx(
        [1.5074501037597656, -0.3118596374988556, -1.2768471240997314, -1.1517201662063599, 0.6228025555610657,
         -1.5118391513824463, 0.6333526372909546, 1.8747960329055786, 0.2898344397544861], abs=2e-5)


def test_orthogonality_shapes_and_errors():
    w = torch.nn.init.orthogonal_(torch.empty(4, 6, dtype=torch.float64))
    assert torch.allclose(w @ w.t(), torch.eye(4, dtype=torch.float64))
    v = torch.nn.init.orthogonal_(torch.empty(2, 3, 4))
    flat = v.reshape(2, 12)
    assert torch.allclose(flat @ flat.t(), torch.eye(2), atol=1e-5)
    p = torch.nn.Parameter(torch.empty(3, 3))
    assert torch.nn.init.orthogonal_(p) is p and p.is_leaf and p.requires_grad
    assert torch.nn.init.orthogonal_(torch.empty(0, 3)).shape == (0, 3)
    with pytest.raises(ValueError, match="^Only tensors with 2 or more dimensions are supported$"):
        torch.nn.init.orthogonal_(torch.empty(3))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.nn.init.orthogonal(torch.empty(2, 2))
    assert any("deprecated" in str(x.message) for x in caught)
