# tags: detach, views, errors
import torch

def attempt(label, fn):
    try:
        r = fn()
        print(label, "ok", r.is_leaf, r.requires_grad)
    except RuntimeError as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.tensor([1.0, 2.0], requires_grad=True)
attempt("slice of rg leaf", lambda: x[0:1].detach_())
attempt("view of non-leaf", lambda: (x * 2).view(2, 1).detach_())
attempt("slice of plain", lambda: torch.tensor([1.0, 2.0, 3.0])[1:].detach_())
attempt("non-leaf", lambda: (x * 2).detach_())
attempt("leaf", lambda: x.detach_())
print(x.requires_grad, x.is_leaf)
