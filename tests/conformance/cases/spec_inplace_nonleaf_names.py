# tags: inplace, grad_fn
import torch

def setitem(y):
    y[0] = 0.0

def iadd(y):
    y += 1

def isub(y):
    y -= 1

def imul(y):
    y *= 2

def idiv(y):
    y /= 2

ops = [("mul_", lambda y: y.mul_(2)), ("exp_", lambda y: y.exp_()), ("add_", lambda y: y.add_(1)),
       ("+=", iadd), ("-=", isub), ("*=", imul), ("/=", idiv), ("zero_", lambda y: y.zero_()),
       ("fill_", lambda y: y.fill_(3.0)), ("relu_", lambda y: y.relu_()),
       ("sigmoid_", lambda y: y.sigmoid_()), ("copy_", lambda y: y.copy_(torch.ones(2))), ("y[0]=", setitem)]
for label, op in ops:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    op(y)
    print(label, type(y.grad_fn).__name__, y.grad_fn.name(), y._version)
y = torch.tensor([1.0, 2.0], requires_grad=True) * 1
y[0] = 0.0
print(y)
w = torch.tensor([1.0, 2.0], requires_grad=True)
a = torch.zeros(2)
a.add_(w)
print(a, a.is_leaf)
b = torch.zeros(3)
b[0] = w[0] * 3
print(b)
(a.sum() + b.sum()).backward()
print(w.grad)
