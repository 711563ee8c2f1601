# tags: complex, errors, views
import torch

r = torch.tensor([1.0, 2.0], requires_grad=True)
print(r.real is r)
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
print(z.real, z.imag)
print(z.real._is_view(), z.real.grad_fn.name())
try:
    r.imag
except Exception as e:
    print(type(e).__name__ + ":", str(e).splitlines()[0])
