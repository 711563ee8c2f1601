# tags: requires_grad, leaf, grad, views
import torch

x = torch.tensor([1.0], requires_grad=True)
(x * 2).sum().backward()
x.requires_grad_(False)
print(x.requires_grad, x.grad)
x.requires_grad = True
print(x.requires_grad, x.is_leaf, x.grad)
with torch.no_grad():
    z = x * 2
z.requires_grad_()
print(z, z.is_leaf)
base = torch.tensor([1.0, 2.0, 3.0])
v = base[:2]
v.requires_grad_()
print(v, v.is_leaf)
y = torch.tensor([1.0, 2.0], requires_grad=True)
print((y * torch.tensor([3.0, 4.0])).requires_grad, (base * base).requires_grad)
