# tags: leaf, requires_grad
import torch

b = torch.tensor([1.0, 2.0], requires_grad=True)
for name, t in [("zeros_like", torch.zeros_like(b)), ("ones_like", torch.ones_like(b)),
                ("randn_like", torch.randn_like(b)), ("empty_like", torch.empty_like(b)),
                ("full_like", torch.full_like(b, 2.0))]:
    print(name, t.is_leaf, t.requires_grad, t.grad_fn)
print(torch.ones_like(b, requires_grad=True))
c = torch.tensor(b)
print(c, c.is_leaf, c.requires_grad)
d = torch.tensor(torch.tensor([3.0]))
print(d)
print(torch.as_tensor([1.0, 2.0]).requires_grad)
