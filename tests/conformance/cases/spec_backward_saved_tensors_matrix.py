# tags: backward, retain_graph, errors
import torch

ops = {
    "x+1": lambda x: (x + 1).sum(), "x+x": lambda x: (x + x).sum(), "x-3": lambda x: (x - 3).sum(),
    "-x": lambda x: (-x).sum(), "sum": lambda x: x.sum(), "mean": lambda x: x.mean(),
    "view": lambda x: x.view(2, 1).sum(), "x[0]": lambda x: x[0], "clone": lambda x: x.clone().sum(),
    "double": lambda x: x.double().sum(), "x*2": lambda x: (x * 2).sum(), "x*x": lambda x: (x * x).sum(),
    "x/2": lambda x: (x / 2).sum(), "x/x": lambda x: (x / x).sum(), "x**2": lambda x: (x ** 2).sum(),
    "exp": lambda x: x.exp().sum(), "sin": lambda x: x.sin().sum(), "relu": lambda x: x.relu().sum(),
    "sigmoid": lambda x: x.sigmoid().sum(), "tanh": lambda x: x.tanh().sum(),
    "x*c": lambda x: (x * torch.tensor([3.0, 4.0])).sum(), "x@x": lambda x: x @ x,
    "x@c": lambda x: x @ torch.tensor([3.0, 4.0]), "x[0]*1": lambda x: x[0] * 1,
}
for name, op in ops.items():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = op(x)
    y.backward()
    try:
        y.backward()
        print(name, "ok", x.grad)
    except RuntimeError as e:
        print(name, "RuntimeError", str(e).startswith("Trying to backward through the graph a second time"))
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
a = y + 1
b = y + 2
a.sum().backward()
try:
    b.sum().backward()
except RuntimeError as e:
    print("branch", type(e).__name__ + ":", str(e).splitlines()[0])
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
y.backward(retain_graph=True)
y.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as e:
    print("fourth", type(e).__name__)
