# tags: leaf, nn, errors, repr
import torch
import torch.nn as nn

def attempt(label, fn):
    try:
        r = fn()
        print(label, "ok", r.is_leaf, r.requires_grad)
    except Exception as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])

b = torch.tensor([1.0, 2.0], requires_grad=True)
attempt("param of b*2", lambda: nn.Parameter(b * 2))
attempt("param of int", lambda: nn.Parameter(torch.tensor([1, 2])))
attempt("param of int no grad", lambda: nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
attempt("param of list", lambda: nn.Parameter([1.0, 2.0]))
print(nn.Parameter(torch.tensor(3.0)))
print(nn.Parameter(torch.tensor([1.0, 2.0]), requires_grad=False))
p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(type(p * 2).__name__, type(p.data).__name__, type(p.detach()).__name__)
