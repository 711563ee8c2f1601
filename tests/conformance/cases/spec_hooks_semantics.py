# tags: hooks, grad, retain_grad
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
calls = []
h = x.register_hook(lambda g: calls.append(g))
print(type(h).__name__)
(x * 2 + x * 3).sum().backward()
print(calls, x.grad)
h.remove()
h.remove()
x.grad = None
x.register_hook(lambda g: g * 10)
(x * 3).sum().backward()
print(x.grad)
a = torch.tensor([1.0, 2.0], requires_grad=True)
y = a * 2
y.register_hook(lambda g: g + 100)
(y * y).sum().backward()
print(a.grad, y.retains_grad)
b = torch.tensor([1.0, 2.0], requires_grad=True)
u = b * 2
u.register_hook(lambda g: g * 2)
u.register_hook(lambda g: g + 1)
u.sum().backward()
print(b.grad)
c = torch.tensor([1.0, 2.0], requires_grad=True)
fired = []
with torch.no_grad():
    c.register_hook(lambda g: fired.append(True))
(c * 2).sum().backward()
print(fired)
