# tags: nn, leaf, dtype, errors
import torch
import torch.nn as nn

lin = nn.Linear(3, 2)
print(lin)
print(lin.weight.shape, lin.bias.shape, type(lin.weight).__name__)
w = lin.weight
lin(torch.ones(4, 3)).sum().backward()
print(lin.weight.grad)
print(lin.bias.grad)
lin.double()
print(lin.weight is w, w.is_leaf, w.requires_grad, w.grad_fn, w.dtype, w.grad.dtype)
p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(type(p.double()).__name__, p.double().grad_fn.name(), p.to(torch.float32) is p)
print(nn.Linear(2, 2, bias=False).bias)
print(type(lin.parameters()).__name__, [n for n, _ in lin.named_parameters()])
lin.zero_grad()
print(lin.weight.grad)
lin.requires_grad_(False)
print(lin.weight.requires_grad, lin.bias.requires_grad)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(2))
m = M()
try:
    m.w = torch.zeros(2)
except TypeError as e:
    print(type(e).__name__ + ":", str(e).splitlines()[0])
