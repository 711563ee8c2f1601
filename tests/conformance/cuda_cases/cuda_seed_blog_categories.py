# tags: seed, leaf, grad
# Seed 001 (blog): the four categories, with the tensor moved by .cuda() as in the post.
import warnings
import torch

variable_tensor_cpu = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
variable_tensor_cuda = variable_tensor_cpu.cuda()
constant_tensor_cuda = torch.tensor([4.0, 5.0, 6.0]).cuda()
constant_result = constant_tensor_cuda * 2
loss = (variable_tensor_cuda * constant_result).sum()
loss.backward()
for name, t in [("variable_tensor_cpu", variable_tensor_cpu), ("variable_tensor_cuda", variable_tensor_cuda),
                ("constant_tensor_cuda", constant_tensor_cuda), ("constant_result", constant_result)]:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        g = t.grad
    print(name, t.requires_grad, t.is_leaf, g, [x.category.__name__ for x in w])
print(loss)
