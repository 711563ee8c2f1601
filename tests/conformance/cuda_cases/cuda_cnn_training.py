# tags: training, nn, optim, functional
# A small CNN (conv, relu, max-pool, linear, cross-entropy) trained on a GPU from fixed weights:
# losses and accuracy match PyTorch's.
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 12
X = torch.tensor([[[[((3 * n + 5 * i + 7 * j) % 11) / 11 - 0.5 for j in range(8)] for i in range(8)]]
                  for n in range(N)], device='cuda')
T = torch.tensor([n % 3 for n in range(N)], device='cuda')


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 4 * 4, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc(x.flatten(1))


m = Net()
with torch.no_grad():
    for k, p in enumerate(m.parameters()):
        n = p.numel()
        p.copy_(torch.tensor([((5 * i + 3 * k) % 13) / 13 - 0.45 for i in range(n)]).reshape(p.shape) * 0.5)
m.cuda()
opt = torch.optim.SGD(m.parameters(), lr=0.2, momentum=0.5)
for step in range(20):
    opt.zero_grad()
    out = m(X)
    loss = F.cross_entropy(out, T)
    loss.backward()
    opt.step()
    if step % 5 == 4:
        acc = (out.argmax(1) == T).float().mean()
        print(f"{loss.item():.4f} {acc.item():.4f}", m.conv.weight.grad.device, out.grad_fn.name())
