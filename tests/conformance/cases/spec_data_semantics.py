# tags: detach, version, errors
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
data = y.data
print(data.is_leaf, data.requires_grad)
data.zero_()
print(data._version, y._version)
y.sum().backward()
print(x.grad)
alias = x
x.data = torch.zeros(5)
print(x, alias is x, x.is_leaf)
for label, value in [("int", torch.tensor([1, 2])), ("list", [1.0, 2.0])]:
    try:
        x.data = value
    except Exception as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])
c = x.clone()
print(c, c.is_leaf)
k = torch.tensor([1.0, 2.0]).clone()
print(k.is_leaf, k.requires_grad)
