# tags: optim, nn, leaf, errors, version
import torch
import torch.nn as nn

lin = nn.Linear(3, 2)
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
print(opt)
w = lin.weight
before = w.detach().clone()
lin(torch.ones(4, 3)).sum().backward()
opt.step()
print(lin.weight is w, w.is_leaf, w.requires_grad, w.grad_fn, w._version)
print([[round(v, 4) for v in row] for row in (w.detach() - before).tolist()])
opt.zero_grad()
print(w.grad)
lin(torch.ones(4, 3)).sum().backward()
opt.zero_grad(set_to_none=False)
print(w.grad)
x = torch.tensor([1.0, 2.0], requires_grad=True)
for label, fn in [("non-leaf", lambda: torch.optim.SGD([x * 2], lr=0.1)),
                  ("tensor", lambda: torch.optim.SGD(x, lr=0.1)),
                  ("empty", lambda: torch.optim.SGD([], lr=0.1))]:
    try:
        fn()
    except Exception as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])
w2 = torch.tensor([1.0, 2.0], requires_grad=True)
(w2 * w2).sum().backward()
with torch.no_grad():
    w2 -= 0.1 * w2.grad
print(w2)
try:
    w2.sub_(0.1 * w2.grad)
except RuntimeError as e:
    print(type(e).__name__ + ":", str(e).splitlines()[0])
w3 = w2 - 0.1 * w2.grad
print(w3.grad_fn.name())
