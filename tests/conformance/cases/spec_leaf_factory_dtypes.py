# tags: leaf, requires_grad, errors, dtype
import torch

def attempt(label, fn):
    try:
        r = fn()
        print(label, "ok", r)
    except Exception as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])

attempt("arange int", lambda: torch.arange(3, requires_grad=True))
attempt("full int", lambda: torch.full((2,), 3, requires_grad=True))
attempt("tensor int", lambda: torch.tensor([1, 2], requires_grad=True))
attempt("tensor bool", lambda: torch.tensor([True], requires_grad=True))
attempt("tensor complex", lambda: torch.tensor([1 + 2j], requires_grad=True))
for make in (torch.ones, torch.zeros, torch.empty):
    t = make(2, requires_grad=True)
    print(t.is_leaf, t.requires_grad, t.grad_fn, t.dtype)
t = torch.arange(3.0, requires_grad=True)
print(t, t.is_leaf)
print(torch.full((2,), 3.0, requires_grad=True))
print(torch.eye(2, requires_grad=True))
print(torch.ones(2, dtype=torch.float16, requires_grad=True).requires_grad)
print(torch.ones(2, dtype=torch.bfloat16, requires_grad=True).requires_grad)
