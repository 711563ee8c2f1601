# tags: retain_grad, grad, errors, inplace
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
print(y.retain_grad(), y.retains_grad)
z = (y * y).sum()
z.backward(retain_graph=True)
g = y.grad
print(y.grad, x.grad)
z.backward()
print(y.grad, x.grad, y.grad is g)
print(x.retain_grad(), x.retains_grad)
for label, t in [("plain", torch.tensor([1.0])), ("int", torch.tensor([1])), ("detached", y.detach())]:
    try:
        t.retain_grad()
    except RuntimeError as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
b.retain_grad()
b.mul_(3)
(b * b).sum().backward()
print(b.retains_grad, b.grad, a.grad)
