# tags: grad_fn
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
c = torch.tensor([5.0, 6.0])
print((x * w).grad_fn.next_functions)
print((x * 2).grad_fn.next_functions)
print((x * c).grad_fn.next_functions)
print((-x).grad_fn.next_functions)
s1, s2 = (x * 1).split(1)
print((s1 * s2).grad_fn.next_functions, s2.output_nr)
a = x * 2
b = x * 3
acc = a.grad_fn.next_functions[0][0]
print(acc is b.grad_fn.next_functions[0][0], acc.variable is x, acc.next_functions, acc.name())
print(acc)
y = x * w
print(y.grad_fn is y.grad_fn, y.grad_fn.metadata, y.grad_fn._saved_self, y.grad_fn._saved_other)
print(y.exp().grad_fn.next_functions[0][0] is y.grad_fn)
