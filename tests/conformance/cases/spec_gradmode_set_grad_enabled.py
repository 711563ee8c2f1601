# tags: grad_mode, errors, repr
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad() as ctx:
    print(ctx, torch.is_grad_enabled())
obj = torch.set_grad_enabled(False)
print(obj)
print(torch.is_grad_enabled(), (x * 2).requires_grad)
torch.set_grad_enabled(True)
try:
    torch.set_grad_enabled(0)
except TypeError as e:
    print(type(e).__name__ + ":", str(e).splitlines()[0])
print(torch.is_grad_enabled())
with torch.no_grad():
    torch.set_grad_enabled(True)
    print(torch.is_grad_enabled(), (x * 2).requires_grad)
print(torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
try:
    with torch.no_grad():
        raise ValueError("inside")
except ValueError:
    pass
print(torch.is_grad_enabled())
