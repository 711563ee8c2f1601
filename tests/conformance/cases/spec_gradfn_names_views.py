# tags: grad_fn, views
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
v = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([[0.5, 1.0], [1.5, 2.0]])

def chain(t, n):
    names = []
    node = t.grad_fn
    while node is not None and len(names) < n:
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    return " -> ".join(names)

cases = {
    "1-x": (1 - x, 1), "2/x": (2 / x, 2), "x**c": (x ** c, 1), "2**x": (2 ** x, 1),
    "x@c": (x @ c, 1), "v@v": (v @ v, 1), "x@v": (x @ v, 1), "v@x": (v @ x, 2),
    "sum(dim)": (x.sum(0), 1), "mean(dim)": (x.mean(1), 1), "max()": (x.max(), 1),
    "view": (x.view(4), 1), "reshape non-contig": (x.t().reshape(4), 2), "t()": (x.t(), 1),
    ".T": (x.T, 1), "transpose": (x.transpose(0, 1), 1), "x[None]": (x[None], 1),
    "squeeze()": (x[None].squeeze(), 1), "squeeze(0)": (x[None].squeeze(0), 1),
    "expand": (v.expand(2, 2), 1), "x[0,1]": (x[0, 1], 2), "x[:, :1]": (x[:, :1], 1),
    "x[[0,1]]": (x[[0, 1]], 1), "x[...]": (x[...], 1), "clone": (x.clone(), 1),
    "to(float64)": (x.to(torch.float64), 1), "3d@2d": (torch.ones(2, 2, 2, requires_grad=True) @ c, 2),
}
for name, (t, n) in cases.items():
    print(name, chain(t, n))
