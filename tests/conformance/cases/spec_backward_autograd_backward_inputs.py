# tags: backward, errors, retain_grad
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
print(torch.autograd.backward([x * w, (x + w).sum()], [torch.ones(2), None]))
print(x.grad, w.grad)
attempt("length mismatch", lambda: torch.autograd.backward([x * 2, x * 3], [torch.ones(2)]))
attempt("None non-scalar", lambda: torch.autograd.backward([x * 2], [None]))
attempt("float grad", lambda: torch.autograd.backward([(x * 2).sum()], [1.0]))
x.grad = None
w.grad = None
(x * w).sum().backward(inputs=[x])
print(x.grad, w.grad)
attempt("empty inputs", lambda: (x * w).sum().backward(inputs=[]))
c = torch.tensor([1.0, 1.0])
attempt("rg False input", lambda: (x * c).sum().backward(inputs=[c]))
u = torch.tensor([5.0], requires_grad=True)
(x * 2).sum().backward(inputs=[u, w])
print(u.grad, w.grad)
y = x * w
(y * 2).sum().backward(inputs=y)
print(y.retains_grad, y.grad, x.grad)
