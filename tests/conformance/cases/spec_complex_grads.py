# tags: complex, grad, backward, errors
import torch

def grad_of(f):
    z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    loss = f(z)
    loss.backward()
    return loss, z.grad

print(*grad_of(lambda z: (z * z.conj()).real.sum()))
print(grad_of(lambda z: (z.abs() ** 2).sum())[1])
print(*grad_of(lambda z: z.abs().sum()))
print(grad_of(lambda z: z.real.sum())[1], grad_of(lambda z: z.imag.sum())[1])
w = torch.tensor(1 + 1j, requires_grad=True)
print(torch.autograd.grad((w * w.conj()).real, w), torch.autograd.grad((w * w).real, w))
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
(z * z).sum().backward(torch.tensor(1 + 0j))
print(z.grad)
x = torch.tensor([1.0, 2.0], requires_grad=True)
m = x * (1 + 1j)
print(m)
m.abs().sum().backward()
print(x.grad)
print(z.conj(), z.conj().is_conj())
