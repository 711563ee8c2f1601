# tags: requires_grad, errors, dtype
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])

t = torch.tensor([1.0])

def set_rg(obj, v):
    obj.requires_grad = v

attempt("attr 'x'", lambda: set_rg(t, "x"))
attempt("attr 1", lambda: set_rg(t, 1))
attempt("attr None", lambda: set_rg(t, None))
attempt("method 1", lambda: t.requires_grad_(1))
attempt("method 'x'", lambda: t.requires_grad_("x"))
print(t.requires_grad, t.requires_grad_() is t, t.requires_grad)
i = torch.tensor([1, 2])
attempt("int method", lambda: i.requires_grad_())
attempt("int attr", lambda: set_rg(i, True))
attempt("int kwarg", lambda: torch.tensor([1, 2], requires_grad=True))
attempt("bool method", lambda: torch.tensor([True]).requires_grad_())
attempt("int method False", lambda: i.requires_grad_(False))
attempt("int attr False", lambda: set_rg(i, False))
z = torch.tensor([1 + 1j])
attempt("complex method", lambda: z.requires_grad_())
print(z.requires_grad)
