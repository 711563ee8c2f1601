# tags: inplace, version, errors
import torch

def run(label, build):
    try:
        build().sum().backward()
        print(label, "ok")
    except RuntimeError as e:
        print(label, str(e).splitlines()[0].replace("one of the variables needed for gradient computation has been modified by an inplace operation: ", "").replace(" Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).", ""))

def sigmoid_case():
    y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True).sigmoid()
    y.mul_(2)
    return y

def add_case():
    y = torch.tensor([1.0, 2.0], requires_grad=True) * 1
    z = y * y
    y.add_(1)
    return z

def pow_case():
    y = torch.tensor([1.0, 2.0], requires_grad=True) * 1
    z = y ** torch.tensor(2.0)
    y.mul_(3)
    return z

def copyslices_case():
    y = torch.tensor([1.0, 2.0], requires_grad=True) * 1
    z = y * y
    y[0] = 5.0
    return z

def twice_case():
    y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True).exp()
    y.add_(1)
    y.add_(1)
    return y

def resaved_case():
    y = torch.tensor([1.0, 2.0], requires_grad=True) * 1
    y.add_(1)
    z = y * y
    y.add_(1)
    return z

def double_case():
    y = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True).tanh()
    y.add_(1)
    return y

def matrix_case():
    y = torch.ones(2, 3, requires_grad=True).exp()
    y.add_(1)
    return y

def scalar_case():
    y = torch.tensor(1.0, requires_grad=True).exp()
    y.add_(1)
    return y

def unsaved_case():
    y = torch.tensor([1.0, 2.0], requires_grad=True) * 2
    y.add_(1)
    return y

for label, build in [("sigmoid", sigmoid_case), ("add", add_case), ("pow", pow_case),
                     ("copyslices", copyslices_case), ("twice", twice_case), ("resaved", resaved_case),
                     ("double", double_case), ("matrix", matrix_case), ("scalar", scalar_case),
                     ("unsaved", unsaved_case)]:
    run(label, build)
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
z = (x * w).sum()
with torch.no_grad():
    w.add_(1)
try:
    z.backward()
except RuntimeError as e:
    print(type(e).__name__ + ":", str(e).splitlines()[0])
