# tags: numpy, errors, dtype
import torch

def attempt(label, fn):
    try:
        r = fn()
        print(label, "ok", r)
    except Exception as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.tensor([1.0, 2.0], requires_grad=True)
attempt("numpy leaf", lambda: x.numpy())
attempt("numpy non-leaf", lambda: (x * 2).numpy())
attempt("detach numpy", lambda: x.detach().numpy())
d = x.detach()
attempt("item 2", lambda: d.item())
attempt("float 2", lambda: float(d))
attempt("bool 2", lambda: bool(d))
attempt("sum item", lambda: x.sum().item())
attempt("tolist", lambda: x.tolist())
s = torch.tensor(3.5, requires_grad=True)
attempt("float rg", lambda: float(s))
attempt("float rg again", lambda: float(s))
attempt("int rg", lambda: int(s))
print(f"{s}", f"{s:.2f}")
attempt("format nd", lambda: f"{x:.2f}")
