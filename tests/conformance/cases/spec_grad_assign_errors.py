# tags: grad, errors, dtype
import torch

def attempt(label, target, value):
    try:
        target.grad = value
        print(label, "ok", target.grad)
    except Exception as e:
        print(label, type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.tensor([1.0, 2.0], requires_grad=True)
attempt("size 3", x, torch.tensor([1.0, 2.0, 3.0]))
attempt("size 2x1", x, torch.ones(2, 1))
attempt("scalar", torch.tensor(1.0, requires_grad=True), torch.ones(1))
attempt("float64", x, torch.ones(2, dtype=torch.float64))
attempt("int on float", x, torch.ones(2, dtype=torch.int64))
attempt("float on int", torch.tensor([1, 2]), torch.ones(2))
attempt("f32 on complex", torch.zeros(2, dtype=torch.complex64), torch.ones(2))
attempt("c128 on complex", torch.zeros(2, dtype=torch.complex64), torch.ones(2, dtype=torch.complex128))
attempt("list", x, [1.0, 2.0])
attempt("float", x, 3.0)
attempt("self", x, x)
attempt("ok", x, torch.tensor([5.0, 5.0]))
attempt("none", x, None)
attempt("non-contiguous", torch.zeros(2, 2), torch.ones(2, 2).t())
