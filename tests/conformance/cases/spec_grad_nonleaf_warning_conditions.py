# tags: grad, leaf, retain_grad, grad_mode
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
print("first", y.grad)
print("second", y.grad)
y.grad = torch.tensor([1.0, 1.0])
print("assigned", y.grad)
y.grad = None
print("cleared", y.grad)
with torch.no_grad():
    print("no_grad", y.grad)
y.retain_grad()
print("retained", y.grad)
print("leaf", x.grad, torch.tensor([1.0]).grad)
