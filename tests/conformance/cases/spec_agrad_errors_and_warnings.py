# tags: autograd_grad, errors
import torch

def attempt(label, fn):
    try:
        r = fn()
        print(label, "ok", r)
    except Exception as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
attempt("tuple", lambda: torch.autograd.grad((x * w).sum(), x))
print(x.grad, w.grad)
attempt("unused index 0", lambda: torch.autograd.grad((x * 2).sum(), [w, x]))
attempt("materialize", lambda: torch.autograd.grad((x * 3).sum(), [x, torch.tensor([0.5], requires_grad=True)], materialize_grads=True))
attempt("materialize+allow_unused=False", lambda: torch.autograd.grad((x * 3).sum(), [x], materialize_grads=True, allow_unused=False))
attempt("empty inputs", lambda: torch.autograd.grad((x * 2).sum(), []))
attempt("non-scalar", lambda: torch.autograd.grad(x * 2, x))
attempt("shape", lambda: torch.autograd.grad(x * 2, x, torch.ones(3)))
attempt("output rg False", lambda: torch.autograd.grad(torch.ones(2).sum(), x))
attempt("only_inputs", lambda: torch.autograd.grad((x * 2).sum(), x, only_inputs=False))
x.register_hook(lambda g: g * 10)
attempt("hook", lambda: torch.autograd.grad((x * 3).sum(), x))
attempt("non-leaf input", lambda: torch.autograd.grad((x * w).sum() * 1, [x * 1], allow_unused=True))
print(x.grad, w.grad)
