# tags: leaf, grad_fn, dtype
import torch

x = torch.tensor([1.5, -2.5], requires_grad=True)
for name, t in [("argmax", x.argmax()), ("gt", x > 0), ("long", x.long()),
                ("to int32", x.to(torch.int32)), ("detach", x.detach())]:
    print(name, t.is_leaf, t.requires_grad, t.grad_fn)
for name, t in [("round", x.round()), ("sign", x.sign()), ("floor", x.floor())]:
    print(name, t.is_leaf, t.requires_grad, type(t.grad_fn).__name__)
with torch.inference_mode():
    i = x * 2
with torch.set_grad_enabled(False):
    s = x * 2
print(i.is_leaf, i.requires_grad, s.is_leaf, s.requires_grad)
print(x[0].grad_fn.name(), x.sum().grad_fn.name())
