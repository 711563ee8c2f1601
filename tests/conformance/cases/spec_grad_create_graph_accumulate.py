# tags: grad, higher_order, backward, repr
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * x).sum().backward(create_graph=True)
first = x.grad
print(first)
(x * x).sum().backward(create_graph=True)
print(x.grad, x.grad is first)
print(first)
y = torch.tensor([1.0, 2.0], requires_grad=True)
(y * y).sum().backward()
g = y.grad
(y * 3).sum().backward()
print(y.grad, y.grad is g)
