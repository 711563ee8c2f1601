# tags: detach, version, inplace, errors
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
d = y.detach()
print(d.is_leaf, d.requires_grad, d.grad_fn, d._is_view(), d is y)
d[0] = 100.0
print(y)
print(d._version, y._version)
y.sum().backward()
print(x.grad)
x2 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
e = x2.exp()
e.detach().zero_()
try:
    e.sum().backward()
except RuntimeError as err:
    print(type(err).__name__ + ":", str(err).splitlines()[0])
print(x2.detach() is x2)
