"""torch.autograd.functional (jacobian, hessian, vjp, jvp, vhp, hvp): results and error texts
recorded from torch 2.15 for each expression (None: no error, then the result's repr). With
LEAFGRAD_TEST_TORCH=1 the same table runs against the installed torch."""
import pytest

import leafgrad as torch
from leafgrad.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

RECORDED = [('jacobian(lambda a: a ** 3, x)', None, 'tensor([[ 3.,  0.],\n        [ 0., 12.]])'),
 ('jacobian(lambda a, b: (a * b, a.sum()), (x, y))',
  None,
  '((tensor([[ 3., -0.],\n'
  '        [ 0., -1.]]), tensor([[1., 0.],\n'
  '        [0., 2.]])), (tensor([1., 1.]), tensor([0., 0.])))'),
 ('jacobian(lambda a: (a * 2, a.exp()), x)',
  None,
  '(tensor([[2., 0.],\n        [0., 2.]]), tensor([[2.7183, 0.0000],\n        [0.0000, 7.3891]]))'),
 ('jacobian(lambda a: a.sum() * 2, (x,))', None, '(tensor([2., 2.]),)'),
 ('jacobian(lambda a: a ** 3, x, vectorize=True)', None, 'tensor([[ 3.,  0.],\n        [ 0., 12.]])'),
 ('jacobian(lambda a: a.detach() * 2, x)', None, 'tensor([[0., 0.],\n        [0., 0.]])'),
 ('jacobian(lambda a, b: a * 2, (x, y))',
  None,
  '(tensor([[2., 0.],\n        [0., 2.]]), tensor([[0., 0.],\n        [0., 0.]]))'),
 ('jacobian(lambda a: a @ a.t(), torch.tensor([[1.0, 2.0], [0.5, -1.0]]))',
  None,
  'tensor([[[[ 2.0000,  4.0000],\n'
  '          [ 0.0000,  0.0000]],\n'
  '\n'
  '         [[ 0.5000, -1.0000],\n'
  '          [ 1.0000,  2.0000]]],\n'
  '\n'
  '\n'
  '        [[[ 0.5000, -1.0000],\n'
  '          [ 1.0000,  2.0000]],\n'
  '\n'
  '         [[ 0.0000,  0.0000],\n'
  '          [ 1.0000, -2.0000]]]])'),
 ('hessian(lambda a: (a ** 3).sum(), x)', None, 'tensor([[ 6.,  0.],\n        [ 0., 12.]])'),
 ('hessian(lambda a, b: (a * b * a).sum(), (x, y))',
  None,
  '((tensor([[ 6., -0.],\n'
  '        [ 0., -2.]]), tensor([[2., 0.],\n'
  '        [0., 4.]])), (tensor([[2., 0.],\n'
  '        [0., 4.]]), tensor([[0., 0.],\n'
  '        [0., 0.]])))'),
 ('hessian(lambda a: (a * 2).sum(), x)', None, 'tensor([[0., 0.],\n        [0., 0.]])'),
 ('vjp(lambda a: a ** 2, x, torch.ones(2))', None, '(tensor([1., 4.]), tensor([2., 4.]))'),
 ('vjp(lambda a: (a ** 2).sum(), x)', None, '(tensor(5.), tensor([2., 4.]))'),
 ('vjp(lambda a, b: a * 2, (x, y), torch.ones(2))',
  None,
  '(tensor([2., 4.]), (tensor([2., 2.]), tensor([0., 0.])))'),
 ('jvp(lambda a: a ** 2, x, torch.ones(2))', None, '(tensor([1., 4.]), tensor([2., 4.]))'),
 ('jvp(lambda a, b: a * b, (x, y), (torch.ones(2), torch.zeros(2)))',
  None,
  '(tensor([ 3., -2.]), tensor([ 3., -1.]))'),
 ('vhp(lambda a: (a ** 3).sum(), x, torch.ones(2))', None, '(tensor(9.), tensor([ 6., 12.]))'),
 ('hvp(lambda a: (a ** 3).sum(), x, torch.ones(2))', None, '(tensor(9.), tensor([ 6., 12.]))'),
 ('hvp(lambda a, b: (a * a * b).sum(), (x, y), (torch.ones(2), torch.ones(2)))',
  None,
  '(tensor(-1.), (tensor([8., 2.]), tensor([2., 4.])))'),
 ('jacobian(lambda a: a ** 3, x, create_graph=True)',
  None,
  'tensor([[ 3.,  0.],\n        [ 0., 12.]], grad_fn=<ViewBackward0>)'),
 ('vjp(lambda a: a ** 2, xr, torch.ones(2), create_graph=True)',
  None,
  '(tensor([1., 4.], grad_fn=<PowBackward0>), tensor([2., 4.], grad_fn=<MulBackward0>))'),
 ('vjp(lambda a: a ** 2, x)',
  'RuntimeError',
  'The vector v can only be None if the user-provided function returns a single Tensor with a single '
  'element.'),
 ('jvp(lambda a: a ** 2, x)',
  'RuntimeError',
  'The vector v can only be None if the input to the user-provided function is a single Tensor with a single '
  'element.'),
 ('vjp(lambda a: a ** 2, x, torch.ones(3))',
  'RuntimeError',
  'v has invalid size: should be torch.Size([2]) but got torch.Size([3]).'),
 ('vjp(lambda a: (a, a), x, (torch.ones(2),))',
  'RuntimeError',
  'v is a tuple of invalid length: should be 2 but got 1.'),
 ('vjp(lambda a: (a, a), x, (torch.ones(2), torch.ones(3)))',
  'RuntimeError',
  'Entry 1 in v has invalid size: should be torch.Size([2]) but got torch.Size([3]).'),
 ('vjp(lambda a: a ** 2, [x], torch.ones(2))',
  'TypeError',
  'The inputs given to vjp must be either a Tensor or a tuple of Tensors but the given inputs has type '
  "<class 'list'>."),
 ('vjp(lambda a: 3, x, torch.ones(2))',
  'TypeError',
  'The outputs of the user-provided function given to vjp must be either a Tensor or a tuple of Tensors but '
  "the given outputs of the user-provided function has type <class 'int'>."),
 ('vjp(lambda a: a ** 2, (x, 3), torch.ones(2))',
  'TypeError',
  'The inputs given to vjp must be either a Tensor or a tuple of Tensors but the value at index 1 has type '
  "<class 'int'>."),
 ('jacobian(lambda a: a.detach(), x, strict=True)',
  'RuntimeError',
  'Output 0 of the user-provided function does not require gradients. The outputs must be computed in a '
  'differentiable manner from the input when running in strict mode.'),
 ('jacobian(lambda a, b: a * 2, (x, y), strict=True)',
  'RuntimeError',
  'Output 0 of the user-provided function is independent of input 1. This is not allowed in strict mode.'),
 ('jacobian(lambda a: a * 2, x, strict=True, create_graph=True)',
  'RuntimeError',
  'The jacobian of the user-provided function is independent of input 0. This is not allowed in strict mode '
  'when create_graph=True.'),
 ('jacobian(lambda a: a * 2, x, strict=True, vectorize=True)',
  'RuntimeError',
  'torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not supported together. '
  'Please either set `strict=False` or `vectorize=False`.'),
 ('hessian(lambda a: a, x)',
  'RuntimeError',
  'The Tensor returned by the function given to hessian should contain a single element'),
 ('hessian(lambda a: (a, a), x)',
  'RuntimeError',
  'The function given to hessian should return a single Tensor'),
 ('hessian(lambda a: (a * 2).sum(), x, strict=True)',
  'RuntimeError',
  'While computing the hessian, found that the jacobian of the user-provided function with respect to input '
  '0 is independent of the input. This is not allowed in strict mode. You should ensure that your function '
  'is twice differentiable and that the jacobian depends on the inputs (this would be violated by a linear '
  'function for example).'),
 ('vjp(lambda a, b: a * 2, (x, y), torch.ones(2), strict=True)',
  'RuntimeError',
  'The output of the user-provided function is independent of input 1. This is not allowed in strict mode.'),
 ("jacobian(lambda a: a, x, strategy='foo')",
  'AssertionError',
  'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has more outputs '
  'than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to use "reverse-mode".'),
 ("jacobian(lambda a: a, x, strategy='forward-mode', create_graph=True)",
  'NotImplementedError',
  'torch.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-mode"` are not supported '
  'together (yet). Please either set `create_graph=False` or `strategy="reverse-mode"`.'),
 ("jacobian(lambda a: a, x, strategy='forward-mode', strict=True)",
  'RuntimeError',
  'torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not supported '
  'together (yet). Please either set `strict=False` or `strategy="reverse-mode"`.'),
 ("jacobian(lambda a: a, x, strategy='forward-mode')",
  'NotImplementedError',
  'Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly implemented for '
  '`vectorize=True`.'),
 ('hvp(lambda a: (a * 2).sum(), x, torch.ones(2), strict=True)',
  'RuntimeError',
  'While computing the hessian, found that the jacobian of the user-provided function with respect to input '
  '0 is independent of the input. This is not allowed in strict mode. You should ensure that your function '
  'is twice differentiable and that the jacobian depends on the inputs (this would be violated by a linear '
  'function for example).'),
 ('vhp(lambda a: (a * 2).sum(), x, torch.ones(2), strict=True)',
  'RuntimeError',
  'While computing the hessian, found that the jacobian of the user-provided function with respect to input '
  '0 is independent of the input. This is not allowed in strict mode. You should ensure that your function '
  'is twice differentiable and that the jacobian depends on the inputs (this would be violated by a linear '
  'function for example).'),
 ('jvp(lambda a: a.detach() * 2, x, torch.ones(2), strict=True)',
  'RuntimeError',
  'Output 0 of the user-provided function does not require gradients. The outputs must be computed in a '
  'differentiable manner from the input when running in strict mode.'),
 ('vhp(lambda a: a, x, torch.ones(2))',
  'RuntimeError',
  'The Tensor returned by the function given to vhp should contain a single element'),
 ('hvp(lambda a: (a, a), x, torch.ones(2))',
  'RuntimeError',
  'The function given to hvp should return a single Tensor')]


@pytest.mark.parametrize("expr, exc, expected", RECORDED, ids=[r[0][:60] for r in RECORDED])
def test_recorded(expr, exc, expected):
    x = torch.tensor([1.0, 2.0])
    y = torch.tensor([3.0, -1.0])
    xr = x.clone().requires_grad_()
    env = dict(torch=torch, x=x, y=y, xr=xr, jacobian=jacobian, hessian=hessian, vjp=vjp, jvp=jvp, vhp=vhp, hvp=hvp)
    if exc is None:
        assert repr(eval(expr, env)) == expected
    else:
        with pytest.raises(Exception) as e:
            eval(expr, env)
        assert type(e.value).__name__ == exc
        assert str(e.value) == expected


def test_create_graph_results_are_differentiable():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    jac = jacobian(lambda a: a ** 3, x, create_graph=True)
    jac.sum().backward()
    assert x.grad.tolist() == [6.0, 12.0]
    _, h = hvp(lambda a: (a ** 3).sum(), x, torch.ones(2), create_graph=True)
    assert h.requires_grad
    # without create_graph the inputs' own graph is not touched
    jac = jacobian(lambda a: a ** 3, x)
    assert not jac.requires_grad and x.grad.tolist() == [6.0, 12.0]


def test_runs_under_no_grad_and_leaves_grad_mode_alone():
    x = torch.tensor([1.0, 2.0])
    with torch.no_grad():
        assert jacobian(lambda a: a ** 2, x).tolist() == [[2.0, 0.0], [0.0, 4.0]]
        assert not torch.is_grad_enabled()
