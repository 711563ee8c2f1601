# tags: grad_mode, errors, leaf
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except RuntimeError as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.inference_mode():
    print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
    y = x * 2
    t = torch.ones(2)
    with torch.enable_grad():
        e = x * 3
        print(torch.is_grad_enabled())
print(y.is_inference(), y.is_leaf, y.requires_grad, e.is_inference(), e.requires_grad)
with torch.inference_mode(False):
    n = x * 2
print(n.is_inference(), type(n.grad_fn).__name__)
attempt("saved", lambda: x * t)
attempt("inplace", lambda: t.add_(1))
attempt("requires_grad_", lambda: t.requires_grad_())
c = t.clone()
print(c.is_inference(), (x * c).requires_grad)
