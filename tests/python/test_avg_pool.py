"""avg_pool2d's windows and divisors as PyTorch 2.15 computes them: ceil_mode windows that
reach past the padding, count_include_pad=False, divisor_override (values and gradients
recorded from torch; these expectations run against it with LEAFGRAD_TEST_TORCH=1)."""
import pytest

import leafgrad as torch
import leafgrad.nn.functional as F

CASES = [({'ceil_mode': True}, [1.0, 3.0, 5.0, 7.0, 8.5], [0.3333333432674408, 0.3333333432674408, 1.0, 0.6666666865348816, 1.6666667461395264, 1.0, 2.3333334922790527, 1.3333333730697632, 3.8333334922790527, 2.5]), ({'padding': (0, 1)}, [0.3333333432674408, 2.0, 4.0, 6.0, 8.0], [0.3333333432674408, 1.0, 0.6666666865348816, 1.6666667461395264, 1.0, 2.3333334922790527, 1.3333333730697632, 3.0, 1.6666666269302368, 1.6666666269302368]), ({'padding': (0, 1), 'ceil_mode': True}, [0.3333333432674408, 2.0, 4.0, 6.0, 8.0, 4.5], [0.3333333432674408, 1.0, 0.6666666865348816, 1.6666667461395264, 1.0, 2.3333334922790527, 1.3333333730697632, 3.0, 1.6666666269302368, 4.666666507720947]), ({'padding': (0, 1), 'count_include_pad': False}, [0.5, 2.0, 4.0, 6.0, 8.0], [0.5, 1.1666667461395264, 0.6666666865348816, 1.6666667461395264, 1.0, 2.3333334922790527, 1.3333333730697632, 3.0, 1.6666666269302368, 1.6666666269302368]), ({'divisor_override': 2}, [1.5, 4.5, 7.5, 10.5], [0.5, 0.5, 1.5, 1.0, 2.5, 1.5, 3.5, 2.0, 2.0, 0.0]), ({'padding': (0, 1), 'ceil_mode': True, 'count_include_pad': False}, [0.5, 2.0, 4.0, 6.0, 8.0, 9.0], [0.5, 1.1666667461395264, 0.6666666865348816, 1.6666667461395264, 1.0, 2.3333334922790527, 1.3333333730697632, 3.0, 1.6666666269302368, 7.666666507720947])]


@pytest.mark.parametrize("kw, values, grad", CASES, ids=[str(c[0]) for c in CASES])
def test_values_and_gradients(kw, values, grad):
    x = torch.arange(10.).reshape(1, 1, 1, 10).requires_grad_()
    y = F.avg_pool2d(x, (1, 3), (1, 2), **kw)
    assert y.grad_fn.name() == "AvgPool2DBackward0"
    y.backward(torch.arange(1., y.numel() + 1).reshape(y.shape))
    assert y.flatten().tolist() == pytest.approx(values, rel=1e-6)
    assert x.grad.flatten().tolist() == pytest.approx(grad, rel=1e-6)


def test_two_dims_module_and_errors():
    x = torch.arange(49.).reshape(1, 1, 7, 7).requires_grad_()
    y = F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False)
    y.sum().backward()
    assert y[0, 0, 0].tolist() == [4.0, 5.5, 7.5, 9.0]
    assert x.grad[0, 0, 0].tolist() == pytest.approx(
        [0.25, 0.4166666865348816, 0.1666666716337204, 0.3333333432674408, 0.1666666716337204, 0.4166666865348816, 0.25])
    m = torch.nn.AvgPool2d(2, ceil_mode=True, count_include_pad=False)
    assert m(torch.arange(9.).reshape(1, 3, 3)).tolist() == [[[2.0, 3.5], [6.5, 8.0]]]
    with pytest.raises(RuntimeError, match="^divisor must be not zero$"):
        F.avg_pool2d(x, 2, divisor_override=0)


def test_max_pool2d_return_indices():
    x = torch.tensor([[[[1., 5., 2., 0.], [3., 3., 7., 7.], [0., 1., 2., 8.]]]], requires_grad=True)
    v, i = F.max_pool2d(x, 2, return_indices=True, ceil_mode=True)
    assert v.tolist() == [[[[5., 7.], [1., 8.]]]] and i.tolist() == [[[[1, 6], [9, 11]]]]
    v.sum().backward()
    assert x.grad.tolist() == [[[[0., 1., 0., 0.], [0., 0., 1., 0.], [0., 1., 0., 1.]]]]
    assert len(torch.nn.MaxPool2d(2, return_indices=True)(x)) == 2


def test_avg_pool2d_of_int64_divides_as_integers():
    # PyTorch pools int64 (only) with integer division toward zero; values recorded from 2.15
    x = torch.arange(16).reshape(1, 1, 4, 4)
    r = F.avg_pool2d(x, 2)
    assert r.dtype == torch.int64 and r.flatten().tolist() == [2, 4, 10, 12]
    assert F.avg_pool2d(-x, 2).flatten().tolist() == [-2, -4, -10, -12]
    assert F.avg_pool2d(x, 3, 1, 1).flatten().tolist() == [1, 2, 2, 2, 3, 5, 6, 4, 5, 9, 10, 7, 4, 7, 8, 5]
    assert F.avg_pool2d(x, 2, divisor_override=3).flatten().tolist() == [3, 6, 14, 16]
    with pytest.raises(NotImplementedError, match="\"avg_pool2d\" not implemented for 'Int'"):
        F.avg_pool2d(x.int(), 2)
