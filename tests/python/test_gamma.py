"""lgamma, digamma and polygamma: values as PyTorch 2.15 computes them (its Cephes algorithms in each
precision; lgamma within a few ulps of glibc's), nodes, first and second derivatives, dtypes
and errors (these expectations run against it with LEAFGRAD_TEST_TORCH=1)."""
import math

import pytest

import leafgrad as torch

XS = [-7.3, -2.5, -1.5, -0.5, 0.001, 0.25, 0.5, 1.0, 1.5, 2.0, 3.6102493, 10.0, 29.95]
LGAMMA_FLOAT32 = [-7.779102325439453, -0.056243717670440674, 0.8600470423698425, 1.2655121088027954, 6.90717887878418, 1.288022518157959, 0.5723649263381958, 0.0, -0.12078223377466202, 0.0, 1.3245798349380493, 12.801827430725098, 71.08786010742188]
DIGAMMA_FLOAT32 = [4.337304592132568, 1.1031566858291626, 0.7031567692756653, 0.03648991510272026, -1000.5755615234375, -4.22745418548584, -1.9635108709335327, -0.5772159099578857, 0.03648991510272026, 0.4227842092514038, 1.138936161994934, 2.2517526149749756, 3.382741928100586]
POLYGAMMA1_FLOAT32 = [14.951345443725586, 9.539247512817383, 9.379247665405273, 8.934802055358887, 1000001.5625, 17.19733238220215, 4.934802055358887, 1.644934058189392, 0.934802234172821, 0.6449340581893921, 0.31884095072746277, 0.10516633093357086, 0.03395259380340576]
POLYGAMMA2_FLOAT32 = [68.82102966308594, -0.10820404440164566, -0.23620404303073883, -0.8287966251373291, -1999999744.0, -129.32774353027344, -16.82879638671875, -2.40411376953125, -0.8287966251373291, -0.4041137993335724, -0.1008475050330162, -0.01104983501136303, -0.0011526680318638682]
POLYGAMMA3_FLOAT32 = [769.014892578125, 194.74789428710938, 194.5942840576172, 193.40908813476562, 5999999057920.0, 1538.7821044921875, 97.40908813476562, 6.493939399719238, 1.4090911149978638, 0.4939393997192383, 0.06330901384353638, 0.0023199012503027916, 7.825712236808613e-05]
LGAMMA_FLOAT64 = [-7.779101629826852, -0.05624371649767405, 0.860047015376481, 1.2655121234846454, 6.907178885383853, 1.2880225246980774, 0.5723649429247001, 0.0, -0.12078223763524522, 0.0, 1.3245798408022609, 12.801827480081469, 71.08785945331208]
DIGAMMA_FLOAT64 = [4.33730730551005, 1.1031566406452433, 0.7031566406452433, 0.03648997397857639, -1000.5755719318104, -4.2274535333762655, -1.9635100260214229, -0.5772156649015328, 0.036489973978576194, 0.422784335098467, 1.1389360422149912, 2.251752589066721, 3.382741942086985]
POLYGAMMA1_FLOAT64 = [14.951383181432645, 9.53924664493752, 9.37924664484954, 8.934802200117687, 1000001.6425331949, 17.19732915341456, 4.934802202073678, 1.6449340676383375, 0.9348022009716718, 0.6449340670881899, 0.3188409469142694, 0.10516633568216657, 0.033952596108146944]
POLYGAMMA2_FLOAT64 = [68.8211740635903, -0.1082040516417282, -0.23620405164172825, -0.82879664423432, -2000000002.3976321, -129.32773993753688, -16.828796644234316, -2.404113806319188, -0.8287966442343201, -0.4041138063191886, -0.100847499097272, -0.011049834970802069, -0.0011526681216329656]
POLYGAMMA3_FLOAT64 = [769.0167339816826, 194.74787621918756, 194.59427621918758, 193.40909103400242, 6000000000006.467, 1538.782144009189, 97.40909103400242, 6.493939402266829, 1.4090910340024367, 0.4939394022668293, 0.06330901267708203, 0.0023199013042898686, 7.825712838398765e-05]


def same(got, want, ulps=0, dtype="float32"):
    for g, w in zip(got, want):
        if math.isnan(w):
            assert math.isnan(g)
        elif ulps == 0:
            assert g == w, (got, want)
        else:
            eps = 1.2e-7 if dtype == "float32" else 2.3e-16
            assert abs(g - w) <= ulps * eps * max(abs(w), 1e-30), (g, w)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_values_match_pytorch(dtype):
    x = torch.tensor(XS, dtype=getattr(torch, dtype))
    up = dtype.upper()
    same(torch.lgamma(x).tolist(), globals()[f"LGAMMA_{up}"], ulps=8, dtype=dtype)
    same(torch.digamma(x).tolist(), globals()[f"DIGAMMA_{up}"])
    for n in (1, 2, 3):
        same(torch.polygamma(n, x).tolist(), globals()[f"POLYGAMMA{n}_{up}"], ulps=1, dtype=dtype)


def test_nodes_and_derivatives():
    x = torch.tensor([0.5, 2.5, -1.5], dtype=torch.float64, requires_grad=True)
    for f, node, nxt in [(torch.lgamma, "LgammaBackward0", torch.digamma),
                         (torch.digamma, "DigammaBackward0", lambda t: torch.polygamma(1, t)),
                         (lambda t: torch.polygamma(2, t), "PolygammaBackward0", lambda t: torch.polygamma(3, t))]:
        y = f(x)
        assert y.grad_fn.name() == node
        (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
        assert torch.allclose(g, nxt(x.detach()), rtol=1e-12)
    assert torch.autograd.gradcheck(torch.lgamma, (x,)) and torch.autograd.gradgradcheck(torch.digamma, (x,))


def test_dtypes_inplace_special_and_errors():
    assert torch.lgamma(torch.tensor([1, 2])).tolist() == [0.0, 0.0]
    assert torch.digamma(torch.tensor([1, 2])).dtype == torch.float32
    h = torch.tensor([2.0], dtype=torch.float16).lgamma()
    assert h.dtype == torch.float16 and h.tolist() == [0.0]
    x = torch.tensor([3.0])
    assert x.lgamma_() is x and x.tolist() == pytest.approx([0.6931472])
    assert torch.special.gammaln(torch.tensor([0.5])).tolist() == pytest.approx([0.5723649])
    assert torch.special.psi(torch.tensor([1.0])).tolist() == pytest.approx([-0.5772157])
    assert torch.special.polygamma(1, torch.tensor([1.0])).tolist() == pytest.approx([1.6449341])
    assert torch.digamma(torch.tensor([0.0, -0.0, -2.0])).tolist()[:2] == [-math.inf, math.inf]
    with pytest.raises(RuntimeError, match=r"^polygamma\(n, x\) does not support negative n.$"):
        torch.polygamma(-1, torch.tensor([1.0]))
    with pytest.raises(NotImplementedError, match="^\"lgamma_vml_cpu\" not implemented for 'ComplexFloat'$"):
        torch.lgamma(torch.tensor([1j]))
    with pytest.raises(NotImplementedError, match="^\"digamma\" not implemented for 'ComplexFloat'$"):
        torch.digamma(torch.tensor([1j]))


def test_mvlgamma_values_gradient_and_checks():
    # values recorded from PyTorch 2.15
    x = torch.tensor([1.5, 2.0, 3.7], dtype=torch.float64, requires_grad=True)
    y = torch.mvlgamma(x, 3)
    assert y.tolist() == pytest.approx([2.1686775340635553, 1.5963125911388552, 4.465392536249502], rel=1e-12)
    assert type(y.grad_fn).__name__ == "MvlgammaBackward0"
    y.sum().backward()
    assert x.grad.tolist() == pytest.approx([-2.5042357169443794, -0.1179413558244895, 2.962775599639251], rel=1e-10)
    assert torch.mvlgamma(torch.tensor([1.5, 2.0, 3.7]), 2).tolist() == pytest.approx(
        [0.4515827000141144, 0.4515827000141144, 2.8858423233032227], rel=1e-6)
    assert torch.special.multigammaln(torch.tensor([2.5]), 3).tolist() == pytest.approx([1.8810], abs=1e-4)
    assert torch.tensor([1, 2]).mvlgamma(1).dtype == torch.float32
    t = torch.tensor([2.5, 3.0])
    assert t.mvlgamma_(2) is t and t.tolist() == pytest.approx([0.8570, 1.5502], abs=1e-4)
    with pytest.raises(RuntimeError, match="p has to be greater than or equal to 1"):
        torch.mvlgamma(torch.tensor([1.0]), 0)
