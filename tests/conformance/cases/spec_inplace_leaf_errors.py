# tags: inplace, leaf, errors, version
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)

def setitem():
    x[0] = 5.0

def iadd():
    global x
    x += 1

cases = [("add_", lambda: x.add_(1)), ("mul_", lambda: x.mul_(2)), ("zero_", lambda: x.zero_()),
         ("fill_", lambda: x.fill_(3.0)), ("copy_", lambda: x.copy_(torch.ones(2))), ("+=", iadd),
         ("x[0]=", setitem), ("slice add_", lambda: x[0:1].add_(1)), ("view add_", lambda: x.view(2).add_(1)),
         ("out=", lambda: torch.add(x, 1, out=torch.empty(2)))]
for label, fn in cases:
    try:
        fn()
        print(label, "ok")
    except RuntimeError as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])
print(x, x._version)
with torch.no_grad():
    x.add_(1)
    x[0] = 10.0
    x.mul_(2)
print(x, x._version, x.is_leaf, x.grad_fn)
