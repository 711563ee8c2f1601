# tags: repr, grad_fn, dtype
import torch

x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
print(x)
print(x.exp())
print(torch.tensor(4.0, requires_grad=True) * 7)
print(torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True) * 2)
print(torch.arange(20.0, dtype=torch.float64).requires_grad_() * 2)
print(torch.arange(1001.0).requires_grad_() * 2)
print(torch.zeros(0, 3, requires_grad=True) * 2)
print(torch.ones(2, 2, requires_grad=True).mean(0))
print(torch.tensor([[1.5, 2.0], [3.0, -4.0]], requires_grad=True))
