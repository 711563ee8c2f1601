# tags: training, nn, optim
# A small MLP trained on a GPU with SGD(momentum) and Adam from fixed weights: the losses match
# PyTorch's to 4 decimals.
import torch
import torch.nn as nn
import torch.nn.functional as F

X = torch.tensor([[0.1 * i - 0.3 * j for j in range(4)] for i in range(16)], device='cuda')
Y = torch.tensor([[(i % 3) * 0.5 - 0.4, (i % 2) - 0.5] for i in range(16)], device='cuda')


def model():
    m = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
    with torch.no_grad():
        for k, p in enumerate(m.parameters()):
            n = p.numel()
            p.copy_(torch.tensor([((7 * i + 3 * k) % 11) / 11 - 0.45 for i in range(n)]).reshape(p.shape))
    return m.cuda()


for make in [lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9), lambda ps: torch.optim.Adam(ps, lr=0.01)]:
    m = model()
    opt = make(m.parameters())
    for step in range(30):
        opt.zero_grad()
        loss = F.mse_loss(m(X), Y)
        loss.backward()
        opt.step()
        if step % 10 == 9:
            print(f"{loss.item():.4f}", m[0].weight.is_leaf, m[0].weight.grad.device)
    print(type(opt).__name__, f"{F.mse_loss(m(X), Y).item():.4f}")
