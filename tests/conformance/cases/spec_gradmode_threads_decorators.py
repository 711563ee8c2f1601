# tags: grad_mode
import threading
import torch

seen = {}

def worker():
    seen["thread_default"] = torch.is_grad_enabled()
    seen["thread_op"] = (torch.ones(1, requires_grad=True) * 2).requires_grad

with torch.no_grad():
    t = threading.Thread(target=worker)
    t.start()
    t.join()
    seen["main"] = torch.is_grad_enabled()
print(seen)

x = torch.ones(2, requires_grad=True)

@torch.no_grad
def bare(t):
    return t * 2

@torch.inference_mode
def bare_inf(t):
    return t * 2

@torch.set_grad_enabled(False)
def off(t):
    return torch.is_grad_enabled(), t * 2

print(torch.is_grad_enabled())
print(bare(x).requires_grad, bare_inf(x).requires_grad, off(x)[0], off(x)[1].requires_grad)

@torch.no_grad()
def gen():
    yield torch.is_grad_enabled()
    yield torch.is_grad_enabled()

g = gen()
print(next(g), torch.is_grad_enabled(), next(g), torch.is_grad_enabled())
