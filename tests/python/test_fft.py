"""`torch.fft`: values against PyTorch 2.15's (recorded; to float rounding, PyTorch's CPU build
uses MKL's FFT and leafgrad numpy's pocketfft), the nodes PyTorch records (FftC2CBackward0,
FftR2CBackward0, FftC2RBackward0 and the pads, slices and conjugations around them),
gradients and forward-mode derivatives by gradcheck in float64 (second order too), and
PyTorch's errors. LEAFGRAD_TEST_TORCH=1 runs it against PyTorch; `python test_fft.py` prints the
recorded table."""
import math

import pytest
import support  # noqa: F401  (with LEAFGRAD_TEST_TORCH=1, `leafgrad` below is PyTorch)

import leafgrad as torch

fft = torch.fft


def data(n, scale=1.0, dtype=None):
    i = torch.arange(n, dtype=torch.float64)
    return ((((i * 7919) % 1000) - 500) / 500 * scale).to(dtype or torch.float32)


def cdata(n, dtype=None):
    return torch.complex(data(n), data(n, 0.7).flip(0)).to(dtype or torch.complex64)


def calls():
    x = data(12).reshape(3, 4)
    c = cdata(12).reshape(3, 4)
    yield "fft real", fft.fft(x)
    yield "fft complex n=6", fft.fft(c, n=6)
    yield "fft complex n=3 dim 0 ortho", fft.fft(c, n=2, dim=0, norm="ortho")
    yield "ifft complex", fft.ifft(c)
    yield "ifft real forward", fft.ifft(x, norm="forward")
    yield "fft2 real", fft.fft2(x)
    yield "ifft2 complex s", fft.ifft2(c, s=(2, 5))
    yield "fftn complex dim", fft.fftn(c, dim=(0,))
    yield "ifftn complex ortho", fft.ifftn(c, norm="ortho")
    yield "rfft", fft.rfft(x)
    yield "rfft n=7", fft.rfft(x, n=7)
    yield "rfft2", fft.rfft2(x)
    yield "rfftn s", fft.rfftn(x, s=(2, 6))
    yield "irfft", fft.irfft(c)
    yield "irfft n=5 ortho", fft.irfft(c, n=5, norm="ortho")
    yield "irfft2", fft.irfft2(c)
    yield "irfftn s", fft.irfftn(c, s=(3, 5))
    yield "hfft", fft.hfft(c)
    yield "hfft n=4 forward", fft.hfft(c, n=4, norm="forward")
    yield "ihfft", fft.ihfft(x)
    yield "fftfreq 5 0.3", fft.fftfreq(5, 0.3)
    yield "rfftfreq 6", fft.rfftfreq(6)
    yield "fftshift", fft.fftshift(x)
    yield "ifftshift dim 1", fft.ifftshift(x, dim=1)


# name: the result (complex numbers as [re, im]) from PyTorch 2.15
RECORDED = {
    'fft real': [[1.027999997138977, 0.0], [-1.6759999990463257, -0.3240000009536743], [-1.6759999990463257, 0.0], [-1.6759999990463257, 0.3240000009536743], [0.4359999895095825, 0.0], [0.3240000009536743, -0.3240000009536743], [0.3240000009536743, 0.0], [0.3240000009536743, 0.3240000009536743], [-2.1560001373291016, 0.0], [0.3240000009536743, -0.3240000009536743], [0.3240000009536743, 0.0], [0.3240000009536743, 0.3240000009536743]],
    'fft complex n=6': [[1.027999997138977, -1.509200096130371], [-2.08650279045105, -1.7080624103546143], [-1.3412072658538818, -0.5175960659980774], [-1.6759999990463257, -0.22680002450942993], [-1.1447927951812744, -0.2370038628578186], [-0.7794973254203796, 0.9142624735832214], [0.4359999895095825, 0.3052000105381012], [0.6991554498672485, -0.5856934785842896], [0.010792702436447144, -0.06399612128734589], [0.3240000009536743, -0.22679999470710754], [0.20720729231834412, 0.2165960967540741], [0.4348445236682892, -0.20810647308826447], [-2.1560001373291016, 0.7196000814437866], [1.4848136901855469, 1.9366753101348877], [-0.6372072696685791, -1.0103960037231445], [0.3240000009536743, 1.173200011253357], [-0.44079267978668213, -0.7298038005828857], [-0.35081374645233154, 0.06952458620071411]],
    'fft complex n=3 dim 0 ortho': [[-0.4582051932811737, -0.45339685678482056], [0.7269057631492615, -0.29302504658699036], [0.4978031516075134, -0.13265323638916016], [0.26870056986808777, 0.02771858125925064], [-0.9560083746910095, -0.3207436203956604], [0.4582051932811737, -0.3207436203956604], [0.4582051932811737, -0.3207436203956604], [0.4582051932811737, -0.3207436203956604]],
    'ifft complex': [[0.25699999928474426, -0.3773000240325928], [-0.36230000853538513, 0.024300001561641693], [-0.4189999997615814, -0.05670000612735748], [-0.4756999909877777, -0.13769999146461487], [0.10899999737739563, 0.0763000026345253], [0.13769999146461487, 0.024300001561641693], [0.08100000023841858, -0.056699998676776886], [0.024300001561641693, -0.13769999146461487], [-0.5390000343322754, 0.17990002036094666], [-0.21230000257492065, 0.024300001561641693], [0.08100000023841858, 0.29330000281333923], [0.3743000030517578, -0.13769999146461487]],
    'ifft real forward': [[1.027999997138977, -0.0], [-1.6759999990463257, 0.3240000009536743], [-1.6759999990463257, -0.0], [-1.6759999990463257, -0.3240000009536743], [0.4359999895095825, -0.0], [0.3240000009536743, 0.3240000009536743], [0.3240000009536743, -0.0], [0.3240000009536743, -0.3240000009536743], [-2.1560001373291016, -0.0], [0.3240000009536743, 0.3240000009536743], [0.3240000009536743, -0.0], [0.3240000009536743, -0.3240000009536743]],
    'fft2 real': [[-0.692000150680542, 0.0], [-1.027999997138977, -0.972000002861023], [-1.027999997138977, 0.0], [-1.027999997138977, 0.972000002861023], [1.8880000114440918, -2.2447378635406494], [-2.0, 0.0], [-2.0, 0.0], [-2.0, 0.0], [1.8880000114440918, 2.2447378635406494], [-2.0, 0.0], [-2.0, 0.0], [-2.0, 0.0]],
    'ifft2 complex s': [[0.14640001952648163, -0.12040000408887863], [-0.06798774003982544, 0.05189300701022148], [-0.11168164014816284, -0.005570057313889265], [-0.11725735664367676, -0.06479024142026901], [-0.17347323894500732, -0.18173269927501678], [0.05920001491904259, -0.18143999576568604], [-0.17688438296318054, 0.07564548403024673], [-0.12091375887393951, 0.0013914734590798616], [-0.17423763871192932, -0.0747854933142662], [-0.263164222240448, -0.047611452639102936]],
    'fftn complex dim': [[-0.9440000057220459, -0.28139999508857727], [0.5699999928474426, 0.05880001187324524], [0.08399999141693115, 0.39900001883506775], [-0.4020000100135803, -0.6607999801635742], [-1.4208290576934814, -1.2415845394134521], [0.5791708827018738, -1.2415845394134521], [0.5791708827018738, -1.2415845394134521], [1.7916064262390137, -0.5415844917297363], [-0.6351708769798279, -0.11921554803848267], [1.3648290634155273, -0.11921554803848267], [1.3648290634155273, -0.11921554803848267], [0.15239357948303223, 0.5807844400405884]],
    'ifftn complex ortho': [[-0.1997632384300232, -0.1398342400789261], [-0.5044887065887451, 0.08417767286300659], [-0.2967580258846283, 0.20773063600063324], [-0.08902738243341446, -0.4770067632198334], [0.6486186385154724, 0.06441427767276764], [-0.37527766823768616, 0.34999996423721313], [-0.22735029458999634, -0.2020726054906845], [-0.7794228792190552, -0.34999996423721313], [0.4414186179637909, -1.2315857410430908], [-0.37527766823768616, -0.34999996423721313], [-0.9273502230644226, -0.2020726054906845], [-0.7794228792190552, 0.34999996423721313]],
    'rfft': [[1.027999997138977, 0.0], [-1.6759999990463257, -0.3240000009536743], [-1.6759999990463257, 0.0], [0.4359999895095825, 0.0], [0.3240000009536743, -0.3240000009536743], [0.3240000009536743, 0.0], [-2.1560001373291016, 0.0], [0.3240000009536743, -0.3240000009536743], [0.3240000009536743, 0.0]],
    'rfft n=7': [[1.0279998779296875, 0.0], [-1.091037631034851, -1.5372422933578491], [-1.4750536680221558, -0.12182281166315079], [-1.4479085206985474, -0.3361894190311432], [0.4359999895095825, 0.0], [0.5849623084068298, -0.11770554631948471], [0.20094625651836395, -0.27785298228263855], [0.22809143364429474, 0.07009371370077133], [-2.1560001373291016, 0.0], [0.2609623074531555, 1.3018312454223633], [-0.12305378168821335, -0.4338831603527069], [-0.09590858966112137, 0.47637680172920227]],
    'rfft2': [[-0.692000150680542, 0.0], [-1.027999997138977, -0.972000002861023], [-1.027999997138977, 0.0], [1.8880000114440918, -2.2447378635406494], [-2.0, 0.0], [-2.0, 0.0], [1.8880000114440918, 2.2447378635406494], [-2.0, 0.0], [-2.0, 0.0]],
    'rfftn s': [[1.4639999866485596, 0.0], [-0.8660000562667847, -1.4999560117721558], [-1.1340000629425049, -0.2805922031402588], [-1.3519999980926514, 0.0], [0.5920000076293945, 0.0], [-2.0, -1.1223689317703247], [-1.3519999980926514, 0.0], [-2.0, 0.0]],
    'irfft': [0.42366668581962585, -0.007499079219996929, -0.300597608089447, -0.30633336305618286, -0.36606907844543457, -0.44316762685775757, 0.10899999737739563, 0.06394817680120468, 0.03273576498031616, 0.027000000700354576, -0.03273576498031616, 0.15205183625221252, -0.5390000343322754, -0.19793790578842163, 0.03273576498031616, 0.02699999138712883, -0.03273576498031616, 0.41393789649009705],
    'irfft n=5 ortho': [0.9069491028785706, -0.1670224368572235, -0.9113056659698486, -0.8222028613090515, -1.2424862384796143, 0.35240429639816284, 0.10307790338993073, 0.13050514459609985, -0.07515932619571686, 0.2762678861618042, -1.0965677499771118, -0.5212489366531372, 0.2778887152671814, -0.2225428968667984, 0.9005947113037109],
    'irfft2': [-0.00211111712269485, -0.047162946313619614, -0.07837535440921783, -0.08411111682653427, -0.14384686946868896, 0.040940720587968826, 0.2764744162559509, -0.020810535177588463, -0.17846862971782684, -0.04375358670949936, -0.17846862971782684, -0.06669661402702332, 0.1493034064769745, 0.060474421828985214, -0.04375356435775757, -0.17846864461898804, -0.043753571808338165, -0.417411744594574],
    'irfftn s': [0.02426666021347046, -0.08723550289869308, -0.07496966421604156, -0.16694562137126923, -0.009782570414245129, 0.3216097056865692, -0.10887282341718674, -0.13910768926143646, -0.12755899131298065, -0.15779386460781097, 0.059723641723394394, 0.12141364067792892, -0.19347093999385834, -0.07319572567939758, -0.38808029890060425],
    'hfft': [2.5420000553131104, -2.659005641937256, -2.1964144706726074, -1.8380000591278076, -1.8035855293273926, -0.044994473457336426, 0.6539999842643738, 0.9123109579086304, -0.19641457498073578, 0.16200000047683716, 0.19641458988189697, 0.3836890459060669, -3.2339999675750732, 2.4836273193359375, -0.19641458988189697, 0.16199994087219238, 0.19641458988189697, -1.1876274347305298],
    'hfft n=4 forward': [0.33799999952316284, -0.6359999775886536, -0.5, -0.20200000703334808, 0.1899999976158142, 0.09080000221729279, 0.0, 0.07119999825954437, -0.4580000042915344, 0.3176000118255615, 0.0, -0.15559999644756317],
    'ihfft': [[0.25699999928474426, -0.0], [-0.4189999997615814, 0.08100000023841858], [-0.4189999997615814, -0.0], [0.10899999737739563, -0.0], [0.08100000023841858, 0.08100000023841858], [0.08100000023841858, -0.0], [-0.5390000343322754, -0.0], [0.08100000023841858, 0.08100000023841858], [0.08100000023841858, -0.0]],
    'fftfreq 5 0.3': [0.0, 0.6666666865348816, 1.3333333730697632, -1.3333333730697632, -0.6666666865348816],
    'rfftfreq 6': [0.0, 0.1666666716337204, 0.3333333432674408, 0.5],
    'fftshift': [-0.6200000047683716, -0.7820000052452087, -0.29600000381469727, -0.4580000042915344, 0.6759999990463257, 0.5139999985694885, -1.0, 0.8379999995231628, 0.02800000086426735, -0.1340000033378601, 0.35199999809265137, 0.1899999976158142],
    'ifftshift dim 1': [0.6759999990463257, 0.5139999985694885, -1.0, 0.8379999995231628, 0.02800000086426735, -0.1340000033378601, 0.35199999809265137, 0.1899999976158142, -0.6200000047683716, -0.7820000052452087, -0.29600000381469727, -0.4580000042915344],
}


def plain(t):
    if t.is_complex():
        return [[v.real, v.imag] for v in t.flatten().tolist()]
    return t.flatten().tolist()


@pytest.mark.parametrize("name,value", list(calls()), ids=lambda v: v if isinstance(v, str) else "")
def test_values(name, value):
    got, want = plain(value), RECORDED[name]
    flat_got = [x for v in got for x in (v if isinstance(v, list) else [v])]
    flat_want = [x for v in want for x in (v if isinstance(v, list) else [v])]
    assert flat_got == pytest.approx(flat_want, rel=1e-5, abs=1e-5)


def _names(fn, depth=2):
    if fn is None or depth == 0:
        return []
    return [fn.name()] + [n for nxt, _ in fn.next_functions for n in _names(nxt, depth - 1)]


def test_nodes():
    x = data(6).requires_grad_()
    c = cdata(6).requires_grad_()
    cases = [
        (fft.fft(x), ["FftR2CBackward0", "AccumulateGrad"]),
        (fft.fft(c, n=8), ["FftC2CBackward0", "ConstantPadNdBackward0"]),
        (fft.fft(c, n=4), ["FftC2CBackward0", "SliceBackward0"]),
        (fft.ifft(x), ["ConjBackward0", "FftR2CBackward0"]),
        (fft.fftn(x.reshape(2, 3)), ["FftC2CBackward0", "ToCopyBackward0"]),
        (fft.rfft(x), ["FftR2CBackward0", "AccumulateGrad"]),
        (fft.irfft(c), ["FftC2RBackward0", "AccumulateGrad"]),
        (fft.irfft(c, n=4), ["FftC2RBackward0", "SliceBackward0"]),
        (fft.irfft(x), ["FftC2RBackward0", "ToCopyBackward0"]),
        (fft.hfft(c), ["FftC2RBackward0", "ConjBackward0"]),
        (fft.ihfft(x), ["ConjBackward0", "FftR2CBackward0"]),
        (fft.fftshift(x), ["RollBackward0", "AccumulateGrad"]),
    ]
    for y, names in cases:
        assert [n.replace("torch::autograd::", "") for n in _names(y.grad_fn)][:2] == names


@pytest.mark.parametrize("name", ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "rfft2", "rfftn",
                                  "irfft", "irfft2", "irfftn", "hfft", "ihfft"])
@pytest.mark.parametrize("norm", [None, "forward", "ortho"])
def test_gradcheck(name, norm):
    f = getattr(fft, name)
    real_in = name.startswith("rfft") or name == "ihfft"
    x = (data(12, 1.0, torch.float64) if real_in else cdata(12, torch.complex128)).reshape(3, 4)
    x.requires_grad_()
    assert torch.autograd.gradcheck(lambda t: f(t, norm=norm), (x,), check_forward_ad=True)
    if name in ("fft", "rfft", "irfft", "hfft"):
        assert torch.autograd.gradgradcheck(lambda t: f(t, n=5, norm=norm), (x,))
    if name in ("fft", "ifft"):
        r = data(12, 1.0, torch.float64).reshape(3, 4).requires_grad_()
        assert torch.autograd.gradcheck(lambda t: f(t, n=3, norm=norm), (r,))


def test_round_trips_and_parseval():
    x = data(16, 2.0, torch.float64).reshape(2, 8)
    assert torch.allclose(fft.ifft(fft.fft(x)).real, x)
    assert torch.allclose(fft.irfft(fft.rfft(x), n=8), x)
    assert torch.allclose(fft.irfftn(fft.rfftn(x), s=x.shape), x)
    assert torch.allclose(fft.ihfft(fft.hfft(fft.ihfft(x))), fft.ihfft(x))
    spectrum = fft.fft(x, norm="ortho")
    assert math.isclose((spectrum.abs() ** 2).sum().item(), (x ** 2).sum().item(), rel_tol=1e-12)
    assert fft.fft(torch.arange(4)).dtype == torch.complex64
    assert fft.fft(x).dtype == torch.complex128 and fft.irfft(fft.rfft(x)).dtype == torch.float64


def _raises(f, exc, text):
    with pytest.raises(exc) as info:
        f()
    assert str(info.value) == text


def test_errors():
    x = data(6)
    _raises(lambda: fft.rfft(x.to(torch.complex64)), TypeError, "rfft expects a real input tensor, but got ComplexFloat")
    _raises(lambda: fft.ihfft(x.to(torch.complex64)), TypeError, "ihfft expects a real input tensor, but got ComplexFloat")
    _raises(lambda: fft.fft(x.half()), NotImplementedError, "Unsupported dtype Half")
    _raises(lambda: fft.fft(x.bfloat16()), NotImplementedError, "Unsupported dtype BFloat16")
    _raises(lambda: fft.fft(x, norm="x"), RuntimeError, 'Invalid normalization mode: "x"')
    _raises(lambda: fft.fft(x, n=0), RuntimeError, "Invalid number of data points (0) specified")
    _raises(lambda: fft.irfft(torch.ones(1, dtype=torch.complex64)), RuntimeError,
            "Invalid number of data points (0) specified")
    _raises(lambda: fft.fft(x, dim=3), IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 3)")
    _raises(lambda: fft.fft(torch.tensor(1.0)), IndexError, "Dimension specified as -1 but tensor has no dimensions")
    _raises(lambda: fft.fftn(x, s=(2, 3), dim=(0,)), RuntimeError,
            "When given, dim and shape arguments must have the same length")
    _raises(lambda: fft.fftn(x.reshape(2, 3), dim=(0, 0)), RuntimeError, "FFT dims must be unique")
    _raises(lambda: fft.fftn(x.reshape(2, 3), s=(2, 3, 4)), RuntimeError,
            "Got shape with 3 values but input tensor only has 2 dimensions.")
    _raises(lambda: fft.rfftn(x.reshape(2, 3), dim=()), RuntimeError, "rfftn must transform at least one axis")
    _raises(lambda: fft.fftfreq(5, dtype=torch.int64), RuntimeError, "fftfreq requires a floating point or complex dtype")
    assert fft.fftfreq(0).shape == (0,)
    f = fft.fftfreq(4, requires_grad=True)
    assert f.requires_grad and f.dtype == torch.float32


if __name__ == "__main__":
    for name, value in calls():
        print(f"    {name!r}: {plain(value)!r},")
