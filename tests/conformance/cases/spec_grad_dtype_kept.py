# tags: grad, dtype, backward
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * 2).backward(torch.ones(2, dtype=torch.float64))
print(x.grad, x.grad.dtype)
(x * 2).backward(torch.ones(2, dtype=torch.int64))
print(x.grad, x.grad.dtype)
g = torch.tensor([1.0, 1.0])
v = torch.tensor([1.0, 2.0], requires_grad=True)
v.backward(g)
print(v.grad, v.grad is g)
c = torch.tensor([3.0, 4.0])
(v * c).sum().backward()
print(c.grad, v.grad)
w = torch.tensor([1.0, 2.0], requires_grad=True)
w.grad = torch.tensor([10.0, 10.0])
(w * 1).sum().backward()
print(w.grad)
