# tags: seed, leaf, grad_fn, repr
# Seed 004's table of leaf categories, with the GPU rows run on a GPU.
import torch
import torch.nn as nn


def show(x):
    gf = x.grad_fn
    print(f"{x.device}, is_leaf: {x.is_leaf}, requires_grad: {x.requires_grad}, "
          f"grad_fn: {None if gf is None else type(gf).__name__}, grad: {x.grad if x.is_leaf else None}")


show(torch.ones(3))
show(torch.ones(3, requires_grad=True))
show(torch.ones(3, requires_grad=True) + 1)
show(torch.ones(3, requires_grad=True).cuda())
show(torch.ones(3) + 1)
show(torch.ones(3).cuda())
show(torch.ones(3, requires_grad=True, device='cuda'))
show(torch.ones(3, device='cuda') * 2)
show(torch.ones(3, device='cuda', requires_grad=True) * 2)
lin = nn.Linear(3, 5).cuda()
show(lin.weight)
x = torch.ones(1, 3, device='cuda')
y = lin(x)
show(y)
print(repr(torch.ones(2, 2, device='cuda', requires_grad=True).cpu()))
print(repr(torch.zeros(3, dtype=torch.float64, device='cuda')))
print(repr(torch.arange(4, device='cuda')))
print(repr(torch.tensor([True, False], device='cuda')))
