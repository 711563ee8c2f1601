# tags: leaf, errors
import torch

x = torch.tensor([1.0], requires_grad=True)
for attr in ("is_leaf", "grad_fn", "retains_grad", "_version"):
    try:
        setattr(x, attr, getattr(x, attr))
        print(attr, "ok")
    except AttributeError as e:
        print(attr, type(e).__name__ + ":", str(e).splitlines()[0])
print(x.is_leaf, x.grad_fn, x.retains_grad, x._version)
