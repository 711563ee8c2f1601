# tags: seed, leaf, grad, backward, nn
# Seed 003 (forum thread), on a GPU as written: .cuda() of a leaf is a non-leaf (ToCopyBackward0),
# device= at creation makes a leaf, nn.Linear(...).cuda() keeps its parameters leaves.
# torch.rand is replaced by fixed values so both libraries print the same numbers.
import warnings
import torch
import torch.nn as nn

# scenario 1 (CPU)
a = torch.tensor([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], requires_grad=True)
b = torch.tensor([[0.7, 0.8, 0.9], [0.15, 0.25, 0.35]])
loss = 10 - (a @ b).sum()
loss.backward()
print(a.grad)
print(b.grad)

# scenario 2: .cuda() makes a non-leaf; the leaf is the CPU tensor
a_cpu = torch.tensor([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], requires_grad=True)
a = a_cpu.cuda()
b = torch.tensor([[0.7, 0.8, 0.9], [0.15, 0.25, 0.35]]).cuda()
loss = 10 - (a @ b).sum()
print(loss)
loss.backward()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(a.grad)
    print(len(w), w[0].category.__name__ if w else None)
print(a.is_leaf, a.requires_grad, type(a.grad_fn).__name__)
print(b.grad, b.is_leaf)
print(a_cpu.grad)

# scenario 3: Module.cuda() keeps parameters leaves
ll = nn.Linear(3, 3)
with torch.no_grad():
    ll.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6], [-0.7, 0.8, 0.9]]))
    ll.bias.copy_(torch.tensor([0.01, 0.02, 0.03]))
ll = ll.cuda()
inp = torch.tensor([0.8497, 0.1128, 0.8081]).cuda()
loss = (10 - ll(inp)).sum()
loss.backward()
print(ll.weight.is_leaf, ll.weight.device)
print(ll.weight.grad)
print(ll.bias.grad)

# device= at creation is a leaf
a = torch.tensor([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], requires_grad=True, device='cuda:0')
b = torch.tensor([[0.7, 0.8, 0.9], [0.15, 0.25, 0.35]]).cuda()
loss = 10 - (a @ b).sum()
loss.backward()
print(a.is_leaf)
print(a.grad)

# b = torch.rand(10, requires_grad=True).cuda() / device="cuda"
b = torch.ones(10, requires_grad=True).cuda()
f = torch.ones(10, requires_grad=True, device="cuda")
print(b.is_leaf, f.is_leaf, f.device, b.device)
