# tags: backward, errors, complex
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.tensor([1.0, 2.0], requires_grad=True)
z1 = torch.tensor([1 + 2j], requires_grad=True)
z2 = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
attempt("complex scalar", lambda: (z1 * 2).backward())
attempt("complex vector", lambda: (z2 * 2).backward())
attempt("complex grad for real", lambda: (x * 2).backward(torch.ones(2, dtype=torch.complex64)))
attempt("list gradient", lambda: (x * 2).backward([1.0, 1.0]))
attempt("plain vector", lambda: torch.tensor([1.0, 2.0]).backward())
attempt("int tensor", lambda: torch.tensor([1, 2]).backward())
with torch.no_grad():
    ng = x * 2
attempt("no_grad result", lambda: ng.sum().backward())
attempt("grad [] for [1]", lambda: (torch.ones(1, requires_grad=True) * 2).backward(torch.tensor(1.0)))
attempt("grad [1] for []", lambda: (torch.tensor(1.0, requires_grad=True) * 2).backward(torch.ones(1)))
print(x.grad)
s = torch.tensor(7.0, requires_grad=True)
s.backward()
s.backward()
print(s.grad)
attempt("vector leaf", lambda: x.backward())
x.backward(torch.ones(2))
print(x.grad)
loss = (x * x).sum()
with torch.no_grad():
    r = loss.backward()
print(x.grad, r)
