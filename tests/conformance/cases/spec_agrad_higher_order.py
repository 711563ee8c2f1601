# tags: autograd_grad, higher_order, errors
import torch

x = torch.tensor(2.0, requires_grad=True)
(g1,) = torch.autograd.grad(x ** 3, x, create_graph=True)
print(g1)
(g2,) = torch.autograd.grad(g1, x)
print(g2, x.grad)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(g1,) = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
(g2,) = torch.autograd.grad(g1.sum(), x, create_graph=True)
(g3,) = torch.autograd.grad(g2.sum(), x)
print(g1)
print(g2)
print(g3)
s = torch.tensor(2.0, requires_grad=True)
(h,) = torch.autograd.grad(s ** 3, s)
print(h, h.requires_grad)
try:
    torch.autograd.grad(h, s)
except RuntimeError as e:
    print(type(e).__name__ + ":", str(e).splitlines()[0])
