# tags: hooks, grad_fn
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.grad_fn.register_prehook(lambda grad_outputs: print("pre", grad_outputs))
y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: print("post", grad_inputs, grad_outputs))
y.backward(torch.ones(2))
print(x.grad)
