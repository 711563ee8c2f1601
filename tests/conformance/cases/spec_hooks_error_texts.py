# tags: hooks, errors
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])

def myhook(g):
    return torch.ones(3)

x = torch.tensor([1.0, 2.0], requires_grad=True)
x.register_hook(myhook)
attempt("size", lambda: (x * 2).sum().backward())
y = torch.tensor([1.0, 2.0], requires_grad=True)
y.register_hook(lambda g: g.double())
attempt("dtype", lambda: (y * 2).sum().backward())
z = torch.tensor([1.0, 2.0], requires_grad=True)
z.register_hook(lambda g: 1.5)
attempt("float", lambda: (z * 2).sum().backward())
attempt("no rg", lambda: torch.tensor([1.0]).register_hook(lambda g: g))
attempt("post non-leaf", lambda: (z * 2).register_post_accumulate_grad_hook(lambda t: None))
attempt("post no rg", lambda: torch.tensor([1.0]).register_post_accumulate_grad_hook(lambda t: None))
p = torch.tensor([1.0, 2.0], requires_grad=True)
p.register_post_accumulate_grad_hook(lambda t: t.grad)
attempt("post returns", lambda: (p * 2).sum().backward())
q = torch.tensor([1.0, 2.0], requires_grad=True)
seen = []
q.register_post_accumulate_grad_hook(lambda t: seen.append((t is q, t.grad.tolist())))
(q * 3).sum().backward()
print(seen)
