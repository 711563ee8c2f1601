# tags: dtype, leaf, grad_fn, repr
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
for name, t in [("double", x.double()), ("to f64", x.to(torch.float64)), ("half", x.half()),
                ("bfloat16", x.bfloat16()), ("to c64", x.to(torch.complex64)),
                ("type DoubleTensor", x.type(torch.DoubleTensor)), ("to cpu copy", x.to("cpu", copy=True))]:
    print(name, t is x, t.is_leaf, type(t.grad_fn).__name__)
for name, t in [("float", x.float()), ("to f32", x.to(torch.float32)), ("to cpu", x.to("cpu")),
                ("to device", x.to(torch.device("cpu"))), ("cpu", x.cpu()),
                ("type str", x.type("torch.FloatTensor")), ("contiguous", x.contiguous())]:
    print(name, t is x, t.is_leaf, t.grad_fn)
for name, t in [("long", x.long()), ("to int32", x.to(torch.int32))]:
    print(name, t.is_leaf, t.requires_grad, t.dtype)
d = x.double()
print(d)
(d * 3).sum().backward()
print(x.grad, x.grad.dtype)
m = x.to("meta")
print(m.is_leaf, type(m.grad_fn).__name__)
print(m)
print(x.device, repr(x.device))
