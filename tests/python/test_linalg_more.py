"""torch.linalg's eig/eigvals, the LU family (lu_factor, lu_factor_ex, lu, lu_solve,
torch.lu_unpack, the deprecated torch.lu/torch.lu_solve), ldl_factor/ldl_solve,
householder_product (torch.orgqr, torch.geqrf), tensorinv, tensorsolve and vander: values,
result types, nodes, gradients (PyTorch's numbers, gradcheck and gradgradcheck, forward mode)
and errors as PyTorch 2.15 gives them (these expectations run against it with
LEAFGRAD_TEST_TORCH=1; the literals were recorded from it).

eig's eigenvectors are unique up to a phase, and its eigenvalues come in no particular order:
the complex pairs of a real matrix and single-precision results are compared through
invariants (A V = V diag(w), unit norms, |V|), as leafgrad's LAPACK (OpenBLAS through numpy)
and PyTorch's (MKL) can choose differently there."""
import math
import warnings

import pytest

import leafgrad as torch
from test_linalg_decomp import A3, B32, R43, W3, check_grads, close, grad_of, node, raises, t

L = torch.linalg
d = torch.float64
ROT = [[1., -2., 0.5], [1.5, 0.3, 1.], [0.2, -1., 2.]]  # a complex pair of eigenvalues
S3 = [[4., 1., 0.5], [1., 3., 0.2], [0.5, 0.2, 2.]]
I3 = [[1., 2., 3.], [2., 1., 0.5], [3., 0.5, -1.]]  # symmetric indefinite: a 2x2 pivot


def weights(shape, dtype=d):
    n = math.prod(shape)
    return torch.linspace(-1., 1., n, dtype=dtype).reshape(shape).cos()


def sortc(values):
    return sorted((complex(z) for z in values), key=lambda z: (round(z.real, 8), round(z.imag, 8)))


def eig_invariants(A, w, V, tol=1e-10):
    """A V = V diag(w) with unit-norm eigenvectors."""
    Ac = A.to(V.dtype)
    close(torch.matmul(Ac, V), V * w.unsqueeze(-2), tol)
    close(V.abs().pow(2).sum(-2), torch.ones(V.shape[:-2] + V.shape[-1:], dtype=d).tolist(), tol)


# -------------------------------------------------------------------------- values from PyTorch

EIG_A3_W = [(4.73368046080323+0j), (1.751369192355012+0j), (2.5149503468417618+0j)]
EIG_A3_V = [[(-0.3325786570489603+0j), (-0.9668726296111473+0j), (-0.6597520520024133+0j)],
            [(-0.5137293269097498+0j), (0.2538390695777284+0j), (-0.5791640059004395+0j)],
            [(-0.7908688990903393+0j), (-0.026889493575347437+0j), (0.47884891578446803+0j)]]
EIG_ROT_W = [(0.8639210707211973+1.8268004221995018j), (0.8639210707211973-1.8268004221995018j),
             (1.5721578585576057+0j)]
G_EIGVALS_ROT = [[0.2374269880169625, -0.23015698252561023, -0.6489364960473042],
                 [0.1853101820760782, -0.17963599123303747, -0.5064906110410109],
                 [-0.710597780432749, 0.6888393029781146, 1.942209003216075]]
G_EIG_ABS_ROT = [[0.46365385811088083, 0.01421889622912462, -0.9962730646637706],
                 [-0.3035267097588102, 0.41001803951662674, 0.6956608999353691],
                 [0.44259942027001453, -1.3583681307281252, -0.8736718976275073]]
G_EIG_ABS_C = [[(0.17033816262214646+0.0851690813110733j), (-0.10333586154073182-0.051667930770365814j),
                (-0.33894892079032685-0.16947446039516353j)],
               [(-0.3230938633304476-0.1615469316652237j), (0.11846899535609359+0.05923449767804716j),
                (-0.01874246236938951-0.009371231184694826j)],
               [(0.2209921927946524+0.11049609639732681j), (-0.7937230108473363-0.3968615054236683j),
                (-0.2888071579782408-0.14440357898912046j)]]  # row weights: blind to the eigenvalues' order
EIG_C_WSORT = [(-0.04947914037855328+2.2587609575600993j), (1.5721578585576053+0.7860789292788027j),
               (1.7773212818209476-1.3948398868389034j)]
LU_A3 = [[2.0, 1.0, 0.5], [0.15, 2.85, 0.925], [0.1, 0.3157894736842105, 3.6578947368421053]]
PIV_A3 = [1, 2, 3]
G_LU_FACTOR_A3 = [[0.5443395623455098, 0.5774061498351173, 0.7038087351670319],
                  [-0.2022682922561122, 0.9743036857677794, 0.7982906409101796],
                  [0.2630298736104687, 0.08137166173536543, 0.5403023058681399]]
G_LU_A3 = [[-0.006896133667907686, 0.12320383324968072, 0.28922008639425034],
           [-0.10780036257662702, 0.8535941151059502, 0.6618380635158972],
           [0.23066188054401765, -0.038389912610503424, 0.9092974268256817]]
LU_R43 = [[2.0, 0.1, 1.0], [0.5, 1.95, 0.0], [0.15, -0.5205128205128206, 1.85],
          [0.5, 0.4871794871794872, -0.8108108108108107]]
PIV_R43 = [3, 3, 3]
G_LU_FACTOR_R43 = [[-0.32548901045280654, 1.049328752081982, 1.4445058366707226],
                   [-0.09438916596045555, 0.49386659673086786, 1.1352622859483872],
                   [0.5979169479557991, -0.09046401646948245, -0.2343078416837278],
                   [0.23857647606562485, 0.3505381717800957, 0.2920553004692647]]
G_LU_R43 = [[-0.2987878993112892, 0.9277598732646862, 1.4032605022694176],
            [-0.09980753388664254, 0.49386659673086786, 1.1460990218007612],
            [0.045076841705828624, -0.4658250527774982, -0.5401472160352524],
            [0.23857647606562485, 0.3505381717800957, 0.2920553004692647]]
LU_R34 = [[2.0, -1.0, 0.1, 1.0], [0.25, 2.25, 0.975, -1.25],
          [0.5, 0.35555555555555557, 1.6033333333333333, 0.9444444444444444]]
PIV_R34 = [2, 3, 3]
G_LU_FACTOR_R34 = [[0.32560822147442287, 0.36141300134079635, 0.6835494349711866, 0.5403023058681398],
                   [0.25447411784408336, 0.28600088099482956, 0.2742796486430066, 0.4355764437656634],
                   [0.4920963091473799, 0.8673682132238353, 0.7528308145996965, 0.7709323770942981]]
G_LU_R34 = [[0.1407744593961532, 0.41021937864584773, 0.9695559491823237, 0.9092974268256817],
            [-0.18603359437669303, -0.18506402702762104, -0.26468181299906496, -0.09399187963954292],
            [0.46258545871446577, 0.6430896837701782, 0.5423159851057411, 0.6325995895413175]]
LU_SOLVE_10 = ([[0.5515587529976019, 0.815347721822542], [0.0407673860911271, 0.016786570743405223],
                [-0.28776978417266186, 0.7050359712230216]],
               [[-0.4854719897109866, -0.017940633697992935, -0.21320430944756436],
                [-0.5817015881040031, -0.013496868708087613, -0.06868222264692812],
                [-0.207626043981742, -0.009812072634741594, 0.007301276661677434]],
               [[0.22617065238539052, 0.38064913642229153], [0.20939394664603828, 0.1861538207289824],
                [0.1257140855177362, 0.040955979232002906]])
LU_SOLVE_11 = ([[0.5419664268585132, 0.9640287769784173], [-0.08153477218225418, -0.21582733812949642],
                [-0.29736211031175064, 0.683453237410072]],
               [[-0.308322295249555, -0.41991882349771964, -0.11784670769383704],
                [0.22218341424793236, 0.04775424099873585, 0.023376687896928688],
                [-0.4034128640805972, -0.3178830800580302, 0.004614019321549049]],
               [[0.10073978583454929, 0.25795240233228034], [0.27219917369279445, 0.2838192366513224],
                [0.13324712101249353, 0.05122314718759033]])
LU_SOLVE_00 = ([[0.5419664268585132, -0.08153477218225418, -0.29736211031175064],
                [0.9640287769784173, -0.21582733812949642, 0.683453237410072]],
               [[-0.42706068406993936, -0.31769249187267, -0.15680774152552568],
                [0.25557858610366546, 0.03506016982550399, 0.03314135803018397],
                [-0.509164241623752, -0.24228012155130108, 0.013556771177400832]],
               [[0.12300323373837135, 0.19984296800537274, 0.18890574077204866],
                [0.3655590672007537, 0.2177710078699836, 0.06235487113950136]])
LU_SOLVE_01 = ([[0.5515587529976019, 0.0407673860911271, -0.28776978417266186],
                [0.815347721822542, 0.016786570743405223, 0.7050359712230216]],
               [[-0.5485517587718157, -0.01923933482571588, -0.2677497568119284],
                [-0.3405142358125975, -0.009916489659227347, -0.02688943447659548],
                [-0.28369282431980064, -0.008420607140752719, 0.016361485556829963]],
               [[0.23136545689628235, 0.13740879842368028, 0.18174376274235507],
                [0.46970292803757974, 0.10155271869445859, 0.05097453078872283]])
HH = [[-0.19999999999999996, 0.8999999999999998, -3.2076], [-0.36, 0.57, -0.7802799999999999],
      [-2.4, 1.7299999999999995, -4.997], [-1.2, 0.19999999999999984, -3.4255999999999998]]
G_HH = ([[0.0, 0.0, 0.0], [-5.446674064740174, 0.0, 0.0], [-8.76406562008503, 8.479701207906542, 0.0],
         [1.82593099866228, 0.5988574086035594, -0.15659846787835166]],
        [-10.11505596830286, 3.5175990846816316, 6.646986013971075])
HH2 = [[-0.19999999999999996, 0.8999999999999998, -2.274], [-0.36, 0.57, -0.7522], [-2.4, 1.7299999999999995, -3.555],
       [-1.2, 0.19999999999999984, -2.344]]
GEQRF = ([[-2.4677925358506134, -1.1751393027860058, -0.8509629433967631],
          [0.08651036557076304, 2.151522163271301, -1.3478829312130671],
          [0.5767357704717536, 0.5052869287105792, 1.92589555083083],
          [0.2883678852358768, -0.024631276634267632, 0.3924910085697575]],
         [1.4052204492365539, 1.59245611482989, 1.7330283788566256])
HH_C = [[(-0.19999999999999996+0.36j), (0.9943199999999999-0.73386j), (-2.48603064+3.0352225200000005j)],
        [(-0.414-0.072j), (0.708375+0.13898999999999997j), (-0.9591725700000001+0.4132021600000002j)],
        [(-2.76-0.48j), (2.642-0.48740000000000006j), (-6.5768688+3.4640644000000007j)],
        [(-1.38-0.24j), (0.5562499999999999-0.37670000000000003j), (-4.1594919+1.7087072000000005j)]]
LDL_S3 = ([[4.0, 0.0, 0.0], [0.25, 2.75, 0.0], [0.125, 0.02727272727272728, 1.9354545454545455]], [1, 2, 3])
LDL_SOLVE_S3 = [[0.3410051667449507, 0.28745890089243775], [-0.0751526538280883, 0.14325974635979333],
                [-0.5777360263034288, 1.413809300140911]]
LDL_I3 = ([[1.0, 0.0, 0.0], [3.0, -1.0, 0.0], [0.3499999999999999, 0.5499999999999999, 0.02500000000000019]],
          [-3, -3, 3])
LDL_SOLVE_I3 = [[-2.9999999999999787, 19.99999999999985], [7.9999999999999405, -53.99999999999958],
                [-3.9999999999999667, 29.999999999999766]]
LDL_H = ([[(1+0j), 0j, 0j], [(3+2j), (-1+0j), 0j],
          [(0.17857142857142852+0.10714285714285711j), (0.25-0.5357142857142856j), (0.8928571428571428+0j)]],
         [-3, -3, 3])
LDL_SOLVE_H = [[(-0.08000000000000006+0.2799999999999999j), (0.64-0.72j)],
               [(0.08000000000000007-0.7199999999999999j), (-0.11999999999999983+1.5599999999999998j)],
               [(-0.11999999999999983+0.2799999999999999j), (1.0799999999999996-0.040000000000000036j)]]
TINV = [[0.4992379522270228, -0.09716446294739398, -0.04959829517099992, 0.017623759705431445, -0.15814626821384095,
         0.04593866751788228],
        [0.011951786428805854, 0.34337468023216605, -0.04571027797884251, -0.034519190565893525, 0.003634450853538463,
         -0.16650946153119903],
        [-0.028422808382075917, -0.06651170945973287, 0.26218040076069904, 0.008362294145944511, -0.03422246399942453,
         0.03200151060797476]]
G_TINV = [[0.03125927923967146, 0.025903417669919274, -0.003877899133241573],
          [-0.021012560690461788, -0.025682481551212517, -0.04665332591582891]]
TSOLVE = [-0.47644395689372243, -0.3800671681045916, 0.02903424494328477, 0.24753289843409293, 0.3184379594203941,
          0.6045938667517883]
TSOLVE_DIMS = [-0.6556581709954277, -0.0994949354170132, -0.07729169570241026, 0.08837775989425739,
               0.43143467294887755, 0.5364908037243681]
G_TSOLVE = ([[-0.35823950114452974, -0.43903720316355027, 0.3317982247085351],
             [0.9281860785023411, 0.9896170930983421, 1.5628061904204342]],
            [[-0.5463815094390518, -0.6696129516650406, 0.5060536715416744],
             [1.4156554734811868, 1.5093491347723071, 2.383568541588926]])


# ---------------------------------------------------------------------------------------------- eig


def test_eig_values_node_and_spellings():
    A = t(A3, grad=True)
    r = L.eig(A)
    assert type(r).__name__ == "linalg_eig" and type(r).__module__ == "torch.return_types"
    assert r.eigenvalues.dtype == torch.complex128 and r.eigenvectors.dtype == torch.complex128
    assert node(r.eigenvalues) == node(r.eigenvectors) == "LinalgEigBackward0"
    close(r.eigenvalues, EIG_A3_W)
    close(r.eigenvectors, EIG_A3_V)  # real eigenvalues: LAPACK's eigenvectors agree
    w = L.eigvals(A)
    assert node(w) == "LinalgEigBackward0"
    close(w, EIG_A3_W)
    assert L.eigvals(t(A3)).grad_fn is None
    close(L.eigvals(t(ROT)), EIG_ROT_W)
    r = L.eig(t(ROT))
    eig_invariants(t(ROT), r.eigenvalues, r.eigenvectors)
    close(r.eigenvectors[:, 0], r.eigenvectors[:, 1].conj())  # a real matrix's pair
    f32 = L.eig(torch.tensor(ROT))
    assert f32.eigenvalues.dtype == torch.complex64 and f32.eigenvectors.dtype == torch.complex64
    close(sortc(f32.eigenvalues.tolist()), sortc(EIG_ROT_W), 1e-6)
    eig_invariants(torch.tensor(ROT), f32.eigenvalues, f32.eigenvectors, 1e-5)
    C = t(ROT) * (1 + 0.5j)
    close(sortc(L.eigvals(C).tolist()), EIG_C_WSORT)
    rc = L.eig(C)
    eig_invariants(C, rc.eigenvalues, rc.eigenvectors)
    batch = torch.stack([t(A3), t(ROT)])
    rb = L.eig(batch)
    assert rb.eigenvectors.shape == (2, 3, 3) and rb.eigenvalues.shape == (2, 3)
    close(rb.eigenvalues[0], EIG_A3_W)
    eig_invariants(batch, rb.eigenvalues, rb.eigenvectors)
    e = L.eig(torch.zeros(0, 0))
    assert e.eigenvalues.shape == (0,) and e.eigenvalues.dtype == torch.complex64
    assert L.eig(torch.zeros(2, 0, 0)).eigenvectors.shape == (2, 0, 0)
    o = (torch.empty(0, dtype=torch.complex64), torch.empty(0, dtype=torch.complex64))
    res = L.eig(torch.eye(2), out=o)
    assert type(res).__name__ == "linalg_eig_out" and res.eigenvalues is o[0]
    assert o[0].tolist() == [1, 1] and o[1].tolist() == [[1, 0], [0, 1]]


def test_eig_gradients():
    close(grad_of(lambda a: L.eigvals(a).real * t([1., -1., 2.]) + L.eigvals(a).imag, t(ROT))[0], G_EIGVALS_ROT)
    close(grad_of(lambda a: L.eig(a).eigenvectors.abs(), t(ROT), w=t(W3))[0], G_EIG_ABS_ROT)
    rows = t([[1.], [-0.5], [2.]]).expand(3, 3)
    close(grad_of(lambda a: L.eig(a).eigenvectors.abs(), t(ROT) * (1 + 0.5j), w=rows)[0], G_EIG_ABS_C)
    check_grads(lambda a: (lambda r: (r.eigenvalues, r.eigenvectors.abs()))(L.eig(a)), t(ROT))
    check_grads(lambda a: L.eig(a).eigenvectors.abs() ** 2, t(A3) * (1 - 0.5j))
    check_grads(L.eigvals, t(A3))
    A = t(ROT, grad=True)
    raises(RuntimeError, "linalg_eig_backward: The eigenvectors in the complex case are specified up to "
           "multiplication by e^{i phi}. The specified loss function depends on this quantity, so it is ill-defined.",
           lambda: torch.autograd.grad(L.eig(A).eigenvectors.real.sum(), A))
    # real eigenvectors of a real matrix: a real-part loss is fine
    (g,) = torch.autograd.grad(L.eig(t(A3, grad=True)).eigenvectors.real.sum(), t(A3, grad=True), allow_unused=True)
    assert g is None


def test_eig_errors():
    raises(RuntimeError, "linalg.eig: A must be batches of square matrices, but they are 2 by 3 matrices",
           lambda: L.eig(torch.ones(2, 3)))
    raises(RuntimeError, "linalg.eigvals: A must be batches of square matrices, but they are 2 by 3 matrices",
           lambda: L.eigvals(torch.ones(2, 3)))
    raises(RuntimeError, "linalg.eig: The input tensor A must have at least 2 dimensions.",
           lambda: L.eig(torch.ones(3)))
    raises(RuntimeError, "Unknown Complex ScalarType for Long", lambda: L.eig(torch.eye(2, dtype=torch.int64)))
    raises(RuntimeError, "Unknown Complex ScalarType for Long", lambda: L.eig(torch.ones(3, dtype=torch.int64)))
    raises(RuntimeError, "Unknown Complex ScalarType for Int", lambda: L.eigvals(torch.eye(2, dtype=torch.int32)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch warns that ComplexHalf is experimental
        raises(NotImplementedError, "\"linalg_eig_out_cpu\" not implemented for 'Half'",
               lambda: L.eig(torch.eye(2).half()))
        raises(NotImplementedError, "\"linalg_eig_out_cpu\" not implemented for 'BFloat16'",
               lambda: L.eigvals(torch.eye(2).bfloat16()))
    raises(TypeError, "linalg_eig(): argument 'input' (position 1) must be Tensor, not list", lambda: L.eig([[1.]]))
    raises(RuntimeError, "torch.linalg.eig: input tensor should not contain infs or NaNs.",
           lambda: L.eig(torch.tensor([[1., math.inf], [0., 1.]])))
    raises(RuntimeError, "torch.linalg.eig: input tensor should not contain infs or NaNs.",
           lambda: L.eig(torch.stack([torch.eye(2), torch.full((2, 2), math.nan)])))
    raises(RuntimeError, "torch.linalg.eig: Expected eigenvalues to be safely castable from ComplexFloat dtype, but "
           "got eigenvalues with dtype Float", lambda: L.eig(torch.eye(2), out=(torch.empty(0), torch.empty(0))))
    e = raises(RuntimeError, "This function was deprecated since version 1.9 and is now removed. `torch.linalg.eig` "
               "returns complex tensors of dtype `cfloat` or `cdouble` rather than real tensors mimicking complex "
               "tensors.\n\nL, _ = torch.eig(A) should be replaced with:\nL_complex = torch.linalg.eigvals(A)"
               "\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should be replaced with:\nL_complex, V_complex = "
               "torch.linalg.eig(A)", lambda: torch.eig(torch.eye(2)))
    raises(RuntimeError, str(e), lambda: torch.eye(2).eig())


# ---------------------------------------------------------------------------------------------- LU


@pytest.mark.parametrize("name", ["A3", "R43", "R34"])
def test_lu_factor_and_lu_values_and_gradients(name):
    M = {"A3": A3, "R43": R43, "R34": t(R43).mT.tolist()}[name]
    LU, piv, grad_factor, grad_lu = {
        "A3": (LU_A3, PIV_A3, G_LU_FACTOR_A3, G_LU_A3), "R43": (LU_R43, PIV_R43, G_LU_FACTOR_R43, G_LU_R43),
        "R34": (LU_R34, PIV_R34, G_LU_FACTOR_R34, G_LU_R34)}[name]
    A = t(M, grad=True)
    r = L.lu_factor(A)
    assert type(r).__name__ == "linalg_lu_factor" and node(r.LU) == "LinalgLuFactorExBackward0"
    assert r.pivots.dtype == torch.int32 and r.pivots.grad_fn is None and not r.pivots.requires_grad
    close(r.LU, LU)
    assert r.pivots.tolist() == piv
    rx = L.lu_factor_ex(A)
    assert type(rx).__name__ == "linalg_lu_factor_ex" and rx.info.dtype == torch.int32 and rx.info.item() == 0
    close(rx.LU, LU)
    P, Lo, U = L.lu(A)
    assert node(Lo) == node(U) == "LinalgLuBackward0" and P.grad_fn is None and P.dtype == d
    m, n = A.shape
    k = min(m, n)
    assert Lo.shape == (m, k) and U.shape == (k, n) and P.shape == (m, m)
    close(torch.matmul(P, torch.matmul(Lo, U)), M, 1e-12)
    close(Lo.tril(-1), t(LU).narrow(1, 0, k).tril(-1))
    close(U, t(LU).narrow(0, 0, k).triu())
    up = torch.lu_unpack(r.LU, r.pivots)
    assert type(up).__name__ == "lu_unpack" and node(up.L) == "LuUnpackBackward0" and up.P.grad_fn is None
    close(up.P, P)
    close(up.L, Lo)
    close(up.U, U)
    close(grad_of(lambda a: L.lu_factor(a).LU, t(M), w=weights(r.LU.shape))[0], grad_factor)

    def loss(lo, u):
        u_weights = torch.linspace(0., 2., u.numel(), dtype=d).reshape(u.shape).sin()
        return (lo * weights(lo.shape)).sum() + (u * u_weights).sum()

    close(grad_of(lambda a: loss(*L.lu(a)[1:]), t(M))[0], grad_lu)
    close(grad_of(lambda a: loss(*torch.lu_unpack(*L.lu_factor(a))[1:]), t(M))[0], grad_lu)
    check_grads(lambda a: L.lu_factor(a).LU, t(M))
    check_grads(lambda a: L.lu(a)[1:], t(M))
    check_grads(lambda a: torch.lu_unpack(*L.lu_factor(a))[1:], t(M))


def test_lu_batches_complex_float32_and_spellings():
    batch = torch.stack([t(A3), t(ROT), t(S3)])
    r = L.lu_factor(batch)
    assert r.LU.shape == (3, 3, 3) and r.pivots.shape == (3, 3)
    close(r.LU[0], LU_A3)
    P, Lo, U = L.lu(batch)
    close(torch.matmul(P, torch.matmul(Lo, U)), batch, 1e-12)
    C = t(R43) * (1 - 0.5j)
    P, Lo, U = L.lu(C)
    assert P.dtype == torch.complex128 and Lo.dtype == torch.complex128
    close(torch.matmul(P, torch.matmul(Lo, U)), C, 1e-12)
    check_grads(lambda a: L.lu(a)[1:], C)
    f = L.lu_factor(torch.tensor(R43))
    assert f.LU.dtype == torch.float32 and f.pivots.tolist() == PIV_R43
    close(f.LU, LU_R43, 1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        old = torch.lu(t(A3))
        assert type(old) is tuple and len(old) == 2
        close(old[0], LU_A3)
        assert old[1].tolist() == PIV_A3
        infos = torch.lu(torch.zeros(2, 2), get_infos=True)  # never raises
        assert type(infos).__name__ == "_lu_with_info" and infos.info.item() == 1
        assert torch.lu(torch.zeros(2, 2))[1].tolist() == [1, 2]
        method = t(A3).lu()
        assert type(method) is tuple
        close(method[0], LU_A3)
    empty = L.lu_factor(torch.zeros(2, 0, 3))
    assert empty.LU.shape == (2, 0, 3) and empty.pivots.shape == (2, 0)
    e = L.lu(torch.zeros(2, 3, 0))
    assert e.P.shape == (2, 3, 3) and e.L.shape == (2, 3, 0) and e.U.shape == (2, 0, 0)
    assert e.P.tolist() == [torch.eye(3).tolist()] * 2
    o = (torch.empty(0), torch.empty(0, dtype=torch.int32))
    res = L.lu_factor(torch.eye(2), out=o)
    assert type(res).__name__ == "linalg_lu_factor_out" and res.LU is o[0] and o[1].tolist() == [1, 2]
    res = L.lu(torch.eye(2), out=(torch.empty(0), torch.empty(0), torch.empty(0)))
    assert type(res).__name__ == "linalg_lu_out"


def test_lu_of_singular_matrices_and_errors():
    singular = torch.tensor([[1., 2., 3.], [2., 4., 6.], [1., 0., 1.]])
    msg = ("U[3,3] is zero and using it on lu_solve would result in a division by zero. If you still want to perform "
           "the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")
    raises(RuntimeError, "torch.linalg.lu_factor: " + msg, lambda: L.lu_factor(singular))
    raises(RuntimeError, "torch.linalg.lu_factor: (Batch element 1): " + msg,
           lambda: L.lu_factor(torch.stack([torch.eye(3), singular])))
    raises(RuntimeError, "torch.linalg.lu_factor_ex: (Batch element 1): " + msg.replace("U[3,3]", "U[1,1]"),
           lambda: L.lu_factor_ex(torch.stack([torch.eye(3), torch.zeros(3, 3)]), check_errors=True))
    raises(RuntimeError, "torch.linalg.lu_factor: " + msg.replace("U[3,3]", "U[2,2]"),
           lambda: L.lu_factor(torch.tensor([[1., 2., 3.], [2., 4., 6.]])))
    rx = L.lu_factor_ex(singular)
    assert rx.info.item() == 3 and rx.pivots.tolist() == [2, 3, 3]
    assert rx.LU.tolist() == [[2., 4., 6.], [0.5, -2., -2.], [0.5, 0., 0.]]
    assert math.copysign(1., rx.LU[2, 1].item()) == -1.  # 0 / -2
    P, Lo, U = L.lu(singular)
    assert U[2, 2].item() == 0 and P.tolist() == [[0., 0., 1.], [1., 0., 0.], [0., 1., 0.]]
    assert L.lu_factor_ex(torch.zeros(2, 2)).info.item() == 1
    for f in (L.lu_factor, L.lu_factor_ex):
        raises(RuntimeError, "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: [3] instead",
               lambda: f(torch.ones(3)))
    raises(RuntimeError, "linalg.lu: Expected tensor with 2 or more dimensions. Got size: [3] instead",
           lambda: L.lu(torch.ones(3, dtype=torch.int64)))
    for dtype, label in ((torch.int64, "Long"), (torch.float16, "Half"), (torch.bfloat16, "BFloat16"),
                         (torch.bool, "Bool")):
        for f in (L.lu_factor, L.lu_factor_ex, L.lu):
            raises(NotImplementedError, f"\"lu_cpu\" not implemented for '{label}'",
                   lambda: f(torch.eye(2).to(dtype), pivot=False))
    for f in (L.lu_factor, L.lu_factor_ex, L.lu):
        raises(RuntimeError, "linalg.lu_factor: LU without pivoting is not implemented on the CPU",
               lambda: f(torch.eye(2), pivot=False))
    raises(TypeError, "linalg_lu_factor(): argument 'A' (position 1) must be Tensor, not list",
           lambda: L.lu_factor([[1.]]))
    raises(TypeError, "linalg_lu(): argument 'A' (position 1) must be Tensor, not list", lambda: L.lu([[1.]]))
    nan = L.lu_factor(torch.full((2, 2), math.nan))
    assert nan.pivots.tolist() == [1, 2] and all(math.isnan(v) for v in nan.LU.reshape(-1).tolist())


def test_torch_lu_and_lu_solve_warn_once():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.set_warn_always(True)
        try:
            torch.lu(t(A3))
            torch.lu_solve(t(B32), *L.lu_factor(t(A3)))
        finally:
            torch.set_warn_always(False)
    messages = [str(w.message) for w in caught]
    assert messages[0].startswith("torch.lu is deprecated in favor of torch.linalg.lu_factor / "
                                  "torch.linalg.lu_factor_ex and will be removed in a future PyTorch release.\n")
    assert messages[1].startswith("torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed "
                                  "in a future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments "
                                  "reversed.\nX = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
                                  "X = torch.linalg.lu_solve(LU, pivots, B) (Triggered internally at ")
    assert all(w.category is UserWarning for w in caught)


@pytest.mark.parametrize("left,adjoint", [(True, False), (True, True), (False, False), (False, True)])
def test_lu_solve_values_and_gradients(left, adjoint):
    X_expected, gLU, gB = {(True, False): LU_SOLVE_10, (True, True): LU_SOLVE_11, (False, False): LU_SOLVE_00,
                           (False, True): LU_SOLVE_01}[(left, adjoint)]
    LU, piv = L.lu_factor(t(A3))
    B = t(B32) if left else t(B32).mT
    X = L.lu_solve(LU, piv, B, left=left, adjoint=adjoint)
    close(X, X_expected)
    LUg, Bg = LU.detach().requires_grad_(), B.detach().requires_grad_()
    assert node(L.lu_solve(LUg, piv, Bg, left=left, adjoint=adjoint)) == "LinalgLuSolveBackward0"
    g = grad_of(lambda lu, b: L.lu_solve(lu, piv, b, left=left, adjoint=adjoint), LU, B, w=weights(X.shape))
    close(g[0], gLU)
    close(g[1], gB)
    check_grads(lambda lu, b: L.lu_solve(lu, piv, b, left=left, adjoint=adjoint), LU, B)
    C, Bc = t(A3) * (1 + 0.5j), B * (1 - 0.25j)
    LUc, pc = L.lu_factor(C)
    Xc = L.lu_solve(LUc, pc, Bc, left=left, adjoint=adjoint)
    Cop = C.mT.conj() if adjoint else C
    close(torch.matmul(Cop, Xc) if left else torch.matmul(Xc, Cop), Bc, 1e-12)
    check_grads(lambda lu, b: L.lu_solve(lu, pc, b, left=left, adjoint=adjoint).abs(), LUc, Bc)


def test_lu_solve_batches_old_spellings_and_errors():
    LU, piv = L.lu_factor(t(A3))
    B = t(B32)
    X = L.lu_solve(LU.expand(2, 3, 3), piv.expand(2, 3), B)
    assert X.shape == (2, 3, 2)
    close(X[1], LU_SOLVE_10[0])
    assert L.lu_solve(LU, piv, B.expand(4, 1, 3, 2)).shape == (4, 1, 3, 2)
    check_grads(lambda lu, b: L.lu_solve(lu, piv, b), LU, B.expand(2, 3, 2).clone())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        close(torch.lu_solve(B, LU, piv), LU_SOLVE_10[0])
        close(B.lu_solve(LU, piv), LU_SOLVE_10[0])
        raises(RuntimeError, "linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32",
               lambda: torch.lu_solve(B, LU, piv.long()))
    o = torch.empty(0, dtype=d)
    assert L.lu_solve(LU, piv, B, out=o) is o and o.shape == (3, 2)
    f32 = L.lu_solve(LU.float(), piv, B.float())
    assert f32.dtype == torch.float32
    close(f32, LU_SOLVE_10[0], 1e-6)
    raises(RuntimeError, "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type Double and B "
           "of type Float instead", lambda: L.lu_solve(LU, piv, B.float()))
    raises(RuntimeError, "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type Double and B "
           "of type Float instead", lambda: L.lu_solve(LU, piv.double(), B.float()))
    raises(RuntimeError, "linalg.lu_solve: The input tensor B must have at least 2 dimensions.",
           lambda: L.lu_solve(LU, piv, torch.ones(3, dtype=d)))
    raises(RuntimeError, "linalg.lu_solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 2x2)",
           lambda: L.lu_solve(LU, piv, torch.ones(2, 2, dtype=d)))
    raises(RuntimeError, "linalg.lu_solve: Incompatible shapes of A and B for the equation XA = B (3x3 and 3x2)",
           lambda: L.lu_solve(LU, piv, B, left=False))
    raises(RuntimeError, "torch.linalg.lu_solve: A must be batches of square matrices, but they are 2 by 3 matrices",
           lambda: L.lu_solve(LU[:2], piv, B))
    raises(RuntimeError, "torch.linalg.lu_solve: The input tensor A must have at least 2 dimensions.",
           lambda: L.lu_solve(LU[0], piv, B))
    raises(RuntimeError, "linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32",
           lambda: L.lu_solve(LU, piv.long(), B))
    raises(RuntimeError, "linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots "
           "with shape [2, 3] instead", lambda: L.lu_solve(LU, piv.expand(2, 3), B))
    raises(IndexError, "Dimension specified as -1 but tensor has no dimensions", lambda: L.lu_solve(LU, piv[0], B))
    raises(NotImplementedError, "torch.linalg.lu_solve: Expected a floating point or complex tensor as input. Got Long",
           lambda: L.lu_solve(LU.long(), piv, B.long()))
    raises(NotImplementedError, "\"linalg.lu_solve_cpu\" not implemented for 'Half'",
           lambda: L.lu_solve(LU.half(), piv, B.half()))
    raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0",
           lambda: L.lu_solve(LU.expand(2, 3, 3), piv.expand(2, 3), torch.ones(3, 3, 2, dtype=d)))
    raises(RuntimeError, "Pivots given to lu_solve must all be smaller or equal to LU.size(-2). Did you properly pass "
           "the result of lu_factor?", lambda: L.lu_solve(LU, torch.tensor([5, 1, 2], dtype=torch.int32), B))
    raises(RuntimeError, "Pivots given to lu_solve must all be greater or equal to 1. Did you properly pass the "
           "result of lu_factor?", lambda: L.lu_solve(LU, torch.tensor([0, 2, 3], dtype=torch.int32), B))
    raises(TypeError, "linalg_lu_solve(): argument 'B' (position 3) must be Tensor, not list",
           lambda: L.lu_solve(LU, piv, [1.]))


def test_lu_unpack_options_and_errors():
    LU, piv = L.lu_factor(t(A3))
    r = torch.lu_unpack(LU, piv, unpack_data=False)
    assert r.L.shape == (0,) and r.U.shape == (0,) and r.P.tolist() == torch.eye(3).tolist()
    r = torch.lu_unpack(LU, piv, unpack_pivots=False)
    assert r.P.shape == (0,) and r.P.dtype == d
    close(r.U, t(LU_A3).triu())
    r = torch.lu_unpack(torch.ones(4, 2), torch.tensor([4, 4], dtype=torch.int32))
    assert r.P.tolist() == [[0., 1., 0., 0.], [0., 0., 0., 1.], [0., 0., 1., 0.], [1., 0., 0., 0.]]
    assert r.L.tolist() == [[1., 0.], [1., 1.], [1., 1.], [1., 1.]] and r.U.tolist() == [[1., 1.], [0., 1.]]
    ints = torch.lu_unpack(LU.long(), piv)
    assert ints.P.dtype == torch.int64 and ints.U.tolist() == [[2, 1, 0], [0, 2, 0], [0, 0, 3]]
    assert torch.lu_unpack(LU.expand(2, 3, 3), piv.expand(2, 3)).P.shape == (2, 3, 3)
    res = torch.lu_unpack(LU, piv, out=(torch.empty(0, dtype=d), torch.empty(0, dtype=d), torch.empty(0, dtype=d)))
    assert type(res).__name__ == "lu_unpack_out"
    raises(RuntimeError, "torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: [3] instead",
           lambda: torch.lu_unpack(LU[0], piv))
    text = ("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\nNote: this "
            "function is intended to be used with the output produced by torch.linalg.lu_factor")
    raises(RuntimeError, text, lambda: torch.lu_unpack(LU, piv.long()))
    raises(RuntimeError, text, lambda: torch.lu_unpack(LU, piv[:2].float()))
    raises(ValueError, "Expected LU_pivots to have shape [3] but got [2] instead.",
           lambda: torch.lu_unpack(LU, piv[:2]))
    raises(ValueError, "Expected LU_pivots to have shape [2, 3] but got [3] instead.",
           lambda: torch.lu_unpack(LU.expand(2, 3, 3), piv))
    raises(RuntimeError, "pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive.Did you properly pass "
           "the result of lu_factor?", lambda: torch.lu_unpack(LU, torch.tensor([0, 2, 3], dtype=torch.int32)))
    raises(RuntimeError, "pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive.Did you properly pass "
           "the result of lu_factor?",
           lambda: torch.lu_unpack(torch.ones(2, 4), torch.tensor([2, 3], dtype=torch.int32)))


# --------------------------------------------------------------------------------------------- LDL


def test_ldl_factor_and_solve_values():
    for M, (LD, piv), X in ((S3, LDL_S3, LDL_SOLVE_S3), (I3, LDL_I3, LDL_SOLVE_I3)):
        r = L.ldl_factor(t(M))
        assert type(r).__name__ == "linalg_ldl_factor" and r.pivots.dtype == torch.int32
        close(r.LD, LD)
        assert r.pivots.tolist() == piv
        rx = L.ldl_factor_ex(t(M))
        assert type(rx).__name__ == "linalg_ldl_factor_ex" and rx.info.item() == 0
        close(L.ldl_solve(r.LD, r.pivots, t(B32)), X, 1e-9)
        close(L.ldl_solve(r.LD, r.pivots.long(), t(B32)), X, 1e-9)  # any integer pivots
    # only the lower triangle is read
    close(L.ldl_factor(t(I3).tril()).LD, LDL_I3[0])
    H = t(I3) + 1j * t([[0., 1., -2.], [-1., 0., 0.5], [2., -0.5, 0.]])
    r = L.ldl_factor(H, hermitian=True)
    close(r.LD, LDL_H[0])
    assert r.pivots.tolist() == LDL_H[1]
    close(L.ldl_solve(r.LD, r.pivots, t(B32).to(H.dtype), hermitian=True), LDL_SOLVE_H)
    close(L.ldl_factor(t(S3), hermitian=True).LD, LDL_S3[0])
    Cs = t(I3) * (1 + 0.5j)  # complex symmetric
    rc = L.ldl_factor(Cs)
    Xc = L.ldl_solve(rc.LD, rc.pivots, t(B32).to(Cs.dtype))
    close(torch.matmul(Cs, Xc), t(B32).to(Cs.dtype), 1e-12)
    f32 = L.ldl_factor(torch.tensor(I3))
    assert f32.LD.dtype == torch.float32 and f32.pivots.tolist() == LDL_I3[1]
    close(f32.LD, LDL_I3[0], 1e-5)
    batch = L.ldl_factor(torch.stack([t(S3), t(I3)]))
    assert batch.pivots.tolist() == [LDL_S3[1], LDL_I3[1]]
    Xb = L.ldl_solve(batch.LD, batch.pivots, t(B32))
    close(Xb[1], LDL_SOLVE_I3, 1e-9)
    assert L.ldl_solve(*L.ldl_factor(t(S3)), t(B32).expand(2, 3, 2)).shape == (2, 3, 2)
    sing = L.ldl_factor_ex(torch.tensor([[1., 2.], [2., 4.]]))
    assert sing.LD.tolist() == [[4., 0.], [0.5, 0.]] and sing.pivots.tolist() == [2, 2] and sing.info.item() == 2
    nan = L.ldl_factor_ex(torch.full((2, 2), math.nan))
    assert nan.pivots.tolist() == [-2, -2] and nan.info.item() == 0
    zero = L.ldl_factor_ex(torch.tensor([[0., 0.], [0., 1.]]))
    assert zero.info.item() == 1 and zero.pivots.tolist() == [1, 2]
    assert L.ldl_solve(zero.LD, zero.pivots, torch.ones(2, 1)).tolist() == [[math.inf], [1.]]
    assert L.ldl_factor(torch.zeros(0, 0)).LD.shape == (0, 0)
    res = L.ldl_factor(t(S3), out=(torch.empty(0, dtype=d), torch.empty(0, dtype=torch.int32)))
    assert type(res).__name__ == "linalg_ldl_factor_out"


def test_ldl_has_no_derivative():
    A = t(S3, grad=True)
    r = L.ldl_factor(A)
    assert node(r.LD) == "NotImplemented" and r.LD.requires_grad and not r.pivots.requires_grad
    raises(RuntimeError, "derivative for aten::linalg_ldl_factor_ex is not implemented", lambda: r.LD.sum().backward())
    assert node(L.ldl_factor_ex(A).LD) == "NotImplemented"
    LD, piv = L.ldl_factor(t(S3))
    B = t(B32, grad=True)
    X = L.ldl_solve(LD, piv, B)
    assert node(X) == "NotImplemented"
    raises(RuntimeError, "derivative for aten::linalg_ldl_solve is not implemented", lambda: X.sum().backward())
    X = L.ldl_solve(LD.requires_grad_(), piv, t(B32))
    raises(RuntimeError, "derivative for aten::linalg_ldl_solve is not implemented", lambda: X.sum().backward())
    import leafgrad.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        dual = fwAD.make_dual(t(S3), t(W3))
        raises(NotImplementedError, "Trying to use forward AD with aten::linalg_ldl_factor_ex that does not support "
               "it.", lambda: L.ldl_factor(dual))
        raises(NotImplementedError, "Trying to use forward AD with aten::linalg_ldl_solve that does not support it.",
               lambda: L.ldl_solve(LD.detach(), piv, fwAD.make_dual(t(B32), t(B32))))
        raises(NotImplementedError, "Trying to use forward AD with geqrf that does not support it because it has not "
               "been implemented yet.\nPlease file an issue to PyTorch at "
               "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we can prioritize its "
               "implementation or submit a PR adding the implementation to derivatives.yaml", lambda: torch.geqrf(dual))


def test_ldl_errors():
    internal = ('false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp":'
                '1677, please report a bug to PyTorch. ')
    raises(RuntimeError, internal + "torch.linalg.ldl_factor: Unknown error code: 1.",
           lambda: L.ldl_factor(torch.zeros(3, 3)))
    raises(RuntimeError, internal + "torch.linalg.ldl_factor: Unknown error code: 1.",
           lambda: L.ldl_factor(torch.stack([torch.eye(2), torch.zeros(2, 2)])))
    raises(RuntimeError, internal + "torch.linalg.ldl_factor_ex: Unknown error code: 1.",
           lambda: L.ldl_factor_ex(torch.zeros(2, 2), check_errors=True))
    for f in (L.ldl_factor, L.ldl_factor_ex):
        raises(RuntimeError, "torch.linalg.ldl_factor_ex: A must be batches of square matrices, but they are 2 by 3 "
               "matrices", lambda: f(torch.ones(2, 3)))
        raises(RuntimeError, "torch.linalg.ldl_factor_ex: The input tensor A must have at least 2 dimensions.",
               lambda: f(torch.ones(3)))
        raises(NotImplementedError, "torch.linalg.ldl_factor_ex: Expected a floating point or complex tensor as input. "
               "Got Long", lambda: f(torch.eye(2, dtype=torch.int64)))
        raises(NotImplementedError, "torch.linalg.ldl_factor_ex: Expected a floating point or complex tensor as input. "
               "Got Bool", lambda: f(torch.ones(2, 2, dtype=torch.bool)))
        raises(NotImplementedError, "\"ldl_factor_kernel_cpu\" not implemented for 'Half'",
               lambda: f(torch.eye(2).half()))
    raises(TypeError, "linalg_ldl_factor(): argument 'input' (position 1) must be Tensor, not list",
           lambda: L.ldl_factor([[1.]]))
    LD, piv = L.ldl_factor(t(S3))
    B = t(B32)
    raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got -2)",
           lambda: L.ldl_solve(LD, piv, torch.ones(3, dtype=d)))
    raises(RuntimeError, "Expected b and A to have the same dtype, but found b of type Float and A of type Double "
           "instead.", lambda: L.ldl_solve(LD, piv, B.float()))
    raises(RuntimeError, "torch.linalg.ldl_solve: Expected LD.shape[:-1] and pivots.shape to be the same, but got "
           "pivots with shape [2] instead", lambda: L.ldl_solve(LD, piv[:2], B))
    raises(RuntimeError, "torch.linalg.ldl_solve: Expected LD.shape[:-1] and pivots.shape to be the same, but got "
           "pivots with shape [] instead", lambda: L.ldl_solve(LD, piv[0], B))
    raises(RuntimeError, "torch.linalg.ldl_solve: A must be batches of square matrices, but they are 2 by 3 matrices",
           lambda: L.ldl_solve(LD[:2], piv, B))
    raises(RuntimeError, "torch.linalg.ldl_solve: The input tensor A must have at least 2 dimensions.",
           lambda: L.ldl_solve(LD[0], piv, B))
    raises(RuntimeError, "Incompatible matrix sizes for torch.linalg.ldl_solve: each A matrix is 3 by 3 but each b "
           "matrix is 2 by 2", lambda: L.ldl_solve(LD, piv, torch.ones(2, 2, dtype=d)))
    raises(RuntimeError, "torch.linalg.ldl_solve: Expected pivots to be integers. Got Float",
           lambda: L.ldl_solve(LD, piv.float(), B))
    raises(RuntimeError, "torch.linalg.ldl_solve: Expected pivots to be integers. Got Bool",
           lambda: L.ldl_solve(LD, piv.bool(), B))
    raises(NotImplementedError, "torch.linalg.ldl_solve: Expected a floating point or complex tensor as input. "
           "Got Long", lambda: L.ldl_solve(LD.long(), piv, B.long()))
    raises(NotImplementedError, "\"ldl_solve_kernel_cpu\" not implemented for 'Half'",
           lambda: L.ldl_solve(LD.half(), piv, B.half()))
    raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0",
           lambda: L.ldl_solve(LD.expand(2, 3, 3), piv.expand(2, 3), torch.ones(3, 3, 2, dtype=d)))
    raises(RuntimeError, "Pivots given to ldl_solve must all satisfy |pivot| <= LD.size(-2). Did you properly pass the "
           "result of ldl_factor?", lambda: L.ldl_solve(LD, torch.tensor([5, 1, 2], dtype=torch.int32), B))
    raises(RuntimeError, "Pivots given to ldl_solve must all satisfy |pivot| >= 1. Did you properly pass the result "
           "of ldl_factor?", lambda: L.ldl_solve(LD, torch.tensor([0, 2, 3], dtype=torch.int32), B))
    raises(TypeError, "linalg_ldl_solve(): argument 'B' (position 3) must be Tensor, not list",
           lambda: L.ldl_solve(LD, piv, [1.]))


# ------------------------------------------------------------------------------------- Householder


def test_householder_product_orgqr_geqrf():
    A, tau = t(R43, grad=True), t([1.2, 0.7, -0.4], grad=True)
    Q = L.householder_product(A, tau)
    assert node(Q) == "LinalgHouseholderProductBackward0"
    close(Q, HH)
    assert node(torch.orgqr(A, tau)) == node(A.orgqr(tau)) == "LinalgHouseholderProductBackward0"
    close(A.orgqr(tau), HH)
    g = grad_of(L.householder_product, A, tau, w=weights((4, 3)))
    close(g[0], G_HH[0])
    close(g[1], G_HH[1])
    close(L.householder_product(A, tau[:2]), HH2)
    check_grads(L.householder_product, t(R43), t([1.2, 0.7, -0.4]))
    check_grads(L.householder_product, t(R43), t([1.2, 0.7]))
    C, tc = t(R43) * (1 + 0.5j), t([1.2, 0.7, -0.4]) * (1 - 0.3j)
    close(L.householder_product(C, tc), HH_C)
    check_grads(lambda a, b: L.householder_product(a, b).abs(), C, tc)
    f32 = L.householder_product(torch.tensor(R43), torch.tensor([1.2, 0.7, -0.4]))
    assert f32.dtype == torch.float32
    close(f32, HH, 1e-6)
    batch = L.householder_product(t(R43).expand(2, 4, 3), t([1.2, 0.7, -0.4]).expand(2, 3))
    assert batch.shape == (2, 4, 3)
    close(batch[1], HH)
    assert L.householder_product(torch.zeros(3, 2), torch.zeros(0)).tolist() == [[1., 0.], [0., 1.], [0., 0.]]
    assert L.householder_product(torch.zeros(3, 0), torch.zeros(0)).shape == (3, 0)
    a, tau_r = torch.geqrf(t(R43))
    close(a, GEQRF[0])
    close(tau_r, GEQRF[1])
    r = t(R43).geqrf()
    assert type(r).__name__ == "geqrf"
    Q = L.householder_product(a, tau_r)
    close(torch.matmul(Q, a.narrow(0, 0, 3).triu()), R43, 1e-12)
    close(torch.matmul(Q.mT, Q), torch.eye(3, dtype=d).tolist(), 1e-12)
    g = torch.geqrf(t(R43, grad=True))
    assert node(g.a) == node(g.tau) == "GeqrfBackward0"
    raises(NotImplementedError, "the derivative for 'geqrf' is not implemented.", lambda: g.a.sum().backward())
    assert torch.geqrf(torch.zeros(2, 0, 3)).tau.shape == (2, 0)
    raises(RuntimeError, "torch.geqrf: input must have at least 2 dimensions.", lambda: torch.geqrf(torch.ones(3)))
    raises(NotImplementedError, "\"geqrf_cpu\" not implemented for 'Long'",
           lambda: torch.geqrf(torch.ones(2, 2, dtype=torch.int64)))


def test_householder_product_errors():
    A, tau = t(R43), t([1.2, 0.7, -0.4])
    name = "torch.linalg.householder_product"
    raises(RuntimeError, f"{name}: input.shape[-1] must be greater than or equal to tau.shape[-1]",
           lambda: L.householder_product(A, torch.ones(4, dtype=d)))
    raises(RuntimeError, f"{name}: input.shape[-2] must be greater than or equal to input.shape[-1]",
           lambda: L.householder_product(A.mT, tau))
    raises(RuntimeError, f"{name}: input must have at least 2 dimensions.", lambda: L.householder_product(tau, tau))
    raises(RuntimeError, f"{name}: tau dtype Float does not match input dtype Double",
           lambda: L.householder_product(A, tau.float()))
    raises(NotImplementedError, "\"orgqr_cpu\" not implemented for 'Int'",
           lambda: L.householder_product(A.int(), tau.int()))
    raises(NotImplementedError, "\"orgqr_cpu\" not implemented for 'Half'", lambda: torch.orgqr(A.half(), tau.half()))
    raises(RuntimeError, f"{name}: Expected tau to have one dimension less than input, but got tau.ndim equal to 2 and "
           "input.ndim is equal to 2", lambda: L.householder_product(A, tau.reshape(1, 3)))
    raises(RuntimeError, f"{name}: Expected tau to have one dimension less than input, but got tau.ndim equal to 1 and "
           "input.ndim is equal to 3", lambda: L.householder_product(A.expand(2, 4, 3), tau))
    raises(RuntimeError, f"{name}: Expected batch dimensions of tau to be equal to input.shape[:-2], but got [3]",
           lambda: L.householder_product(A.expand(2, 4, 3), tau.expand(3, 3)))
    raises(TypeError, "linalg_householder_product(): argument 'input' (position 1) must be Tensor, not list",
           lambda: L.householder_product([[1.]], tau))
    raises(TypeError, "orgqr(): argument 'input' (position 1) must be Tensor, not list",
           lambda: torch.orgqr([[1.]], tau))
    o = torch.empty(0, dtype=d)
    assert L.householder_product(A, tau, out=o) is o and o.shape == (4, 3)


# ---------------------------------------------------------------------------- tensorinv, tensorsolve

M6 = [[2., 1., 0.5, 0., 1., 0.], [0.3, 3., 1., 0.2, 0., 1.], [0.2, 1., 4., 0., 0.5, 0.], [1., 0., 0., 2., 0., 0.3],
      [0., 1., 0., 0.1, 3., 0.], [0.5, 0., 1., 0., 0., 2.]]


def test_tensorinv_tensorsolve():
    A = t(M6).reshape(6, 2, 3).requires_grad_()
    X = L.tensorinv(A, ind=1)
    assert X.shape == (2, 3, 6) and node(X) == "ReshapeAliasBackward0"
    assert type(X.grad_fn.next_functions[0][0]).__name__ == "LinalgInvExBackward0"
    close(X.reshape(6, 6)[0], TINV[0])
    close(torch.tensordot(A, X, 2), torch.eye(6, dtype=d).tolist(), 1e-12)
    X2 = L.tensorinv(t(M6).reshape(2, 3, 6))
    assert X2.shape == (6, 2, 3)
    assert node(L.tensorinv(t(M6, grad=True), ind=1)) == "ReshapeAliasBackward0"
    assert node(L.tensorinv(torch.ones(1, 1, requires_grad=True), ind=1)) == "ViewBackward0"
    close(grad_of(lambda a: L.tensorinv(a, ind=1), A, w=weights((2, 3, 6)))[0][0], G_TINV)
    check_grads(lambda a: L.tensorinv(a, ind=1), A)
    B = torch.linspace(-1., 1., 6, dtype=d).reshape(2, 3)
    Y = L.tensorsolve(t(M6).reshape(2, 3, 6).requires_grad_(), B)
    assert Y.shape == (6,) and node(Y) == "ViewBackward0"
    close(Y, TSOLVE)
    close(L.tensorsolve(A, B, dims=(0,)), TSOLVE_DIMS)
    g = grad_of(lambda a, b: L.tensorsolve(a, b, dims=(0,)), A, B, w=torch.arange(6.).to(d))
    close(g[0][0], G_TSOLVE[0])
    close(g[1], G_TSOLVE[1])
    check_grads(lambda a, b: L.tensorsolve(a, b, dims=(0,)), A, B)
    assert L.tensorsolve(t(M6).reshape(2, 3, 2, 3), B).shape == (2, 3)
    raises(RuntimeError, "Expected a strictly positive integer for 'ind', but got 0", lambda: L.tensorinv(A, ind=0))
    raises(RuntimeError, "Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), "
           "but got 1 != 36", lambda: L.tensorinv(A, ind=3))
    raises(RuntimeError, "Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), "
           "but got 6 != 4", lambda: L.tensorinv(A.detach()[:4], ind=1))
    raises(NotImplementedError, "linalg.inv: Expected a floating point or complex tensor as input. Got Long",
           lambda: L.tensorinv(torch.eye(4).reshape(2, 2, 2, 2).long()))
    raises(L.LinAlgError, "inv: The diagonal element 1 is zero, the inversion could not be completed because the input "
           "matrix is singular.", lambda: L.tensorinv(torch.zeros(2, 2, 2, 2)))
    raises(TypeError, "linalg_tensorinv(): argument 'ind' must be int, not float", lambda: L.tensorinv(A, ind=1.0))
    raises(TypeError, "linalg_tensorinv(): argument 'input' (position 1) must be Tensor, not list",
           lambda: L.tensorinv([[1.]]))
    raises(RuntimeError, "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
           "prod(self.shape[:other.ndim]), but got 18 != 6",
           lambda: L.tensorsolve(t(M6).reshape(2, 3, 6), B.reshape(6)))
    raises(RuntimeError, "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
           "prod(self.shape[:other.ndim]), but got 18 != 4",
           lambda: L.tensorsolve(t(M6).reshape(2, 3, 6), torch.ones(4, dtype=d)))
    raises(RuntimeError, "linalg.solve: Expected A and B to have the same dtype, but found A of type Double and B of "
           "type Float instead", lambda: L.tensorsolve(t(M6).reshape(2, 3, 6), B.float()))
    raises(L.LinAlgError, "torch.linalg.solve: The solver failed because the input matrix is singular.",
           lambda: L.tensorsolve(torch.zeros(2, 2, 2, 2, dtype=d), torch.ones(2, 2, dtype=d)))
    raises(TypeError, "linalg_tensorsolve(): argument 'input' (position 1) must be Tensor, not list",
           lambda: L.tensorsolve([[1.]], B))
    o = torch.empty(0, dtype=d)
    assert L.tensorsolve(t(M6).reshape(2, 3, 6), B, out=o) is o and o.shape == (6,)


def test_vander():
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    V = L.vander(x)
    assert node(V) == "CatBackward0"
    assert V.tolist() == [[1., 1., 1.], [1., 2., 4.], [1., 3., 9.]]
    assert L.vander(x, N=5)[2].tolist() == [1., 3., 9., 27., 81.]
    assert L.vander(x, N=2).tolist() == [[1., 1.], [1., 2.], [1., 3.]]
    assert torch.autograd.grad(L.vander(x, N=4).sum(), x)[0].tolist() == [6., 17., 34.]
    ints = L.vander(torch.tensor([2, 3], dtype=torch.int8), N=9)
    assert ints.dtype == torch.int64 and ints[1].tolist()[-1] == 6561
    assert L.vander(torch.ones(2, 3)).shape == (2, 3, 3) and L.vander(torch.ones(0, 2)).shape == (0, 2, 2)
    assert L.vander(torch.tensor(2.), N=3).tolist() == [[1., 2., 4.]]
    c = L.vander(torch.tensor([1 + 1j, 2.]))
    assert c.dtype == torch.complex64 and c.tolist() == [[1, 1 + 1j], [1, 2]]
    check_grads(lambda v: L.vander(v, N=4), t([[0.5, -1., 2.], [1.5, 0.25, -0.75]]))
    for n in (1, 0, -1):
        raises(RuntimeError, "N must be greater than 1.", lambda: L.vander(x, N=n))
    raises(RuntimeError, "N must be greater than 1.", lambda: L.vander(torch.tensor(2.)))
    for dtype, label in ((torch.float16, "Half"), (torch.bfloat16, "BFloat16"), (torch.bool, "Bool")):
        raises(NotImplementedError, f"linalg.vander supports floating point, complex, and integer tensors, but got "
               f"{label}", lambda: L.vander(torch.ones(2).to(dtype), N=1))
    raises(TypeError, "linalg_vander() takes 1 positional argument but 2 were given", lambda: L.vander(x, 3))
    # torch.vander: decreasing powers by default
    V = torch.vander(x)
    assert node(V) == "FlipBackward0" and V.tolist() == [[1., 1., 1.], [4., 2., 1.], [9., 3., 1.]]
    inc = torch.vander(x, 2, increasing=True)
    assert node(inc) == "CopySlices" and inc.tolist() == [[1., 1.], [1., 2.], [1., 3.]]
    assert torch.vander(x, 1).grad_fn is None and torch.vander(x, 0).shape == (3, 0)
    assert torch.vander(torch.tensor([1, 2, 3]), 4).dtype == torch.int64
    assert torch.vander(torch.tensor([True, False])).tolist() == [[1, 1], [0, 1]]
    assert torch.vander(torch.tensor([1., 2.]).half()).dtype == torch.float16
    raises(RuntimeError, "x must be a one-dimensional tensor.", lambda: torch.vander(torch.ones(2, 3)))
    raises(RuntimeError, "N must be non-negative.", lambda: torch.vander(x, -1))
    raises(TypeError, "vander(): argument 'N' (position 2) must be int, not float", lambda: torch.vander(x, 2.0))


# ------------------------------------------------------------------------------------ forward AD


FORWARD_AD = {
    "eig": (lambda a: (lambda r: (r.eigenvalues, r.eigenvectors.abs()))(L.eig(a)), [ROT]),
    "lu_factor": (lambda a: L.lu_factor(a).LU, [A3]),
    "lu_factor_tall": (lambda a: L.lu_factor(a).LU, [R43]),
    "lu_wide": (lambda a: L.lu(a)[1:], [[[1., 0.3, 2., 1.], [2., -1., 0.1, 1.], [0.5, 2., 1., -1.]]]),
    "lu_unpack": (lambda a: torch.lu_unpack(*L.lu_factor(a))[1:], [R43]),
    "lu_solve": (lambda lu, b: L.lu_solve(lu, L.lu_factor(t(A3)).pivots, b, adjoint=True), [LU_A3, B32]),
    "lu_solve_right": (lambda lu, b: L.lu_solve(lu, L.lu_factor(t(A3)).pivots, b, left=False), [LU_A3, [[1., 0., 2.]]]),
    "householder_product": (L.householder_product, [R43, [1.2, 0.7, -0.4]]),
    "tensorinv": (lambda a: L.tensorinv(a, ind=1), [[[2., 1.], [0.5, 3.]]]),
}


@pytest.mark.parametrize("name", sorted(FORWARD_AD))
def test_forward_mode_ad(name):
    f, args = FORWARD_AD[name]
    xs = tuple(t(a, grad=True) for a in args)
    assert torch.autograd.gradcheck(f, xs, check_forward_ad=True)


def test_meta_tensors_give_shapes():
    m = torch.empty(2, 4, 3, device="meta")
    assert L.lu(m).L.shape == (2, 4, 3) and L.lu(m).U.is_meta
    assert L.lu_factor(m).pivots.shape == (2, 3)
    assert L.householder_product(m, torch.empty(2, 2, device="meta")).shape == (2, 4, 3)
    sq = torch.empty(2, 3, 3, device="meta")
    r = L.eig(sq)
    assert r.eigenvectors.is_meta and r.eigenvectors.dtype == torch.complex64 and r.eigenvalues.shape == (2, 3)
    assert L.lu_solve(*L.lu_factor(sq), torch.empty(3, 2, device="meta")).shape == (2, 3, 2)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_cuda_inputs_give_cuda_results():
    A = torch.tensor(A3, dtype=d, device="cuda", requires_grad=True)
    LU, piv = L.lu_factor(A)
    assert LU.is_cuda and piv.is_cuda and piv.dtype == torch.int32
    close(LU.cpu(), LU_A3)
    X = L.lu_solve(LU, piv, torch.tensor(B32, dtype=d, device="cuda"))
    assert X.is_cuda
    close(X.cpu(), LU_SOLVE_10[0])
    (g,) = torch.autograd.grad(L.eigvals(A).real.sum(), A)
    assert g.is_cuda
    assert L.householder_product(A, torch.ones(3, dtype=d, device="cuda")).is_cuda
    assert L.ldl_factor(A + A.mT).LD.is_cuda
