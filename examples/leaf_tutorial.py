"""The tutorial "Understanding requires_grad, retain_grad, Leaf, and Non-leaf Tensors"
(../shared/seeds/000) end to end, with `import leafgrad as torch`. It prints what PyTorch
prints (the non-leaf `.grad` warning goes to stderr, as in PyTorch)."""
import leafgrad as torch
import leafgrad.nn.functional as F

# tensor setup
x = torch.ones(1, 3)                      # input with shape: (1, 3)
W = torch.ones(3, 2, requires_grad=True)  # weights with shape: (3, 2)
b = torch.ones(1, 2, requires_grad=True)  # bias with shape: (1, 2)
y = torch.ones(1, 2)                      # output with shape: (1, 2)

# forward pass
z = (x @ W) + b                           # pre-activation with shape: (1, 2)
y_pred = F.relu(z)                        # activation with shape: (1, 2)
loss = F.mse_loss(y_pred, y)              # scalar loss

# leaf vs non-leaf
print(f"{x.is_leaf=}")
print(f"{z.is_leaf=}")

# requires_grad
print(f"{x.requires_grad=}")
print(f"{W.requires_grad=}")
print(f"{z.requires_grad=}")

# backward populates .grad of the leaves that require grad
loss.backward()
print(f"{W.grad=}")
print(f"{b.grad=}")
print(f"{x.grad=}")
print(f"{y.grad=}")
print(f"{z.grad=}")  # non-leaf: None, with PyTorch's UserWarning

# retain_grad keeps the gradients of non-leaf tensors
z = (x @ W) + b
y_pred = F.relu(z)
loss = F.mse_loss(y_pred, y)
z.retain_grad()
y_pred.retain_grad()
loss.retain_grad()
W.grad = None
b.grad = None
loss.backward()
print(f"{W.grad=}")
print(f"{b.grad=}")
print(f"{z.grad=}")
print(f"{y_pred.grad=}")
print(f"{loss.grad=}")

# retain_grad on a tensor that does not require grad is an error
try:
    x.retain_grad()
except RuntimeError as e:
    print(f"RuntimeError: {e}")

# the summary table
for name, t in [("x", x), ("W", W), ("z", z), ("loss", loss)]:
    print(f"{name}: is_leaf={t.is_leaf} requires_grad={t.requires_grad} retains_grad={t.retains_grad}")
