# tags: errors, repr, grad_fn, broadcast, views
# Ops on a GPU: node names, reprs with device='cuda:0', and the errors of mixing devices.
import torch

x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]], device='cuda', requires_grad=True)
for y in [x + 1, x * x, x / 2, x - x.t().t(), x.exp(), x.relu(), x.sum(), x.mean(1), x[0], x.t(),
          x.reshape(3, 2), x.unsqueeze(0), x.sigmoid(), x.tanh(), x ** 2, x.abs(), -x, x.clamp(-1, 1)]:
    print(repr(y))
print(repr(x > 0), repr((x > 0).sum()))
c = torch.ones(3)
for f in [lambda: x + c, lambda: x @ torch.ones(3, 2), lambda: torch.cat([x, torch.ones(1, 3)])]:
    try:
        f()
    except RuntimeError as e:
        print("RuntimeError", str(e).split(" (when")[0][:60])
print(repr(x + torch.tensor(2.0)))   # a CPU 0-d tensor is a scalar: allowed
try:
    x.detach().numpy()
except TypeError as e:
    print("TypeError", e)
w = torch.ones(3, requires_grad=True)
try:
    w.grad = torch.ones(3, device='cuda')
except RuntimeError as e:
    print("RuntimeError", e)
print(x.detach().cpu().numpy().tolist(), x.tolist(), x[0, 0].item())
print(x.device, x.is_cuda, x.cpu().is_cuda, x.cuda() is x, x.to('cuda') is x, x.to('cuda:0') is x)
print(x.to('cpu', torch.float64).dtype, type(x.to('cpu', torch.float64).grad_fn).__name__)
