"""Train a small CNN to tell generated 12x12 images apart, written against the PyTorch API.

    python examples/train_cnn.py             # full run
    python examples/train_cnn.py --epochs 2  # short run

Four classes of shapes are drawn at random positions and lengths on a noisy background:
a horizontal bar, a vertical bar, a plus-shaped cross and a diagonal cross (an X). The script
holds out a test split, prints one progress line per epoch and the final accuracies. Replace
`import leafgrad as torch` with `import torch` and it runs unchanged on PyTorch.
"""
import argparse
import time

import numpy as np

import leafgrad as torch
import leafgrad.nn as nn
import leafgrad.nn.functional as F

CLASSES = ("horizontal bar", "vertical bar", "plus", "x")
SIZE = 12


def draw(kind, rng):
    img = np.zeros((SIZE, SIZE), dtype=np.float32)
    half = int(rng.integers(2, 5))  # half length of the strokes
    r = int(rng.integers(half, SIZE - half))
    c = int(rng.integers(half, SIZE - half))
    span = np.arange(-half, half + 1)
    if kind in (0, 2):
        img[r, c + span] = 1.0
    if kind in (1, 2):
        img[r + span, c] = 1.0
    if kind == 3:
        img[r + span, c + span] = 1.0
        img[r + span, c - span] = 1.0
    return img


def make_images(n, noise=0.25, seed=0):
    """n images of shape (1, 12, 12) with labels 0..3, drawn with a seeded numpy generator."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, len(CLASSES), n)
    images = np.stack([draw(int(k), rng) for k in labels])[:, None]
    images += rng.normal(0.0, noise, images.shape).astype(np.float32)
    return torch.from_numpy(images.astype(np.float32)), torch.from_numpy(labels.astype(np.int64))


class SmallCNN(nn.Module):
    def __init__(self, n_classes=len(CLASSES)):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Linear(16 * 3 * 3, 32),
            nn.ReLU(),
            nn.Linear(32, n_classes),
        )

    def forward(self, x):
        return self.classifier(self.features(x))


def accuracy(model, X, y):
    model.eval()
    with torch.no_grad():
        correct = (model(X).argmax(1) == y).sum().item()
    model.train()
    return correct / y.shape[0]


def train(epochs=8, batch_size=32, lr=0.005, n_train=1200, n_test=300, seed=0, log=print):
    """Train and return a dict with the final train/test accuracy, last loss and seconds taken."""
    torch.manual_seed(seed)
    X_train, y_train = make_images(n_train, seed=seed)
    X_test, y_test = make_images(n_test, seed=seed + 1)
    model = SmallCNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    start = time.perf_counter()
    loss_value = float("nan")
    for epoch in range(1, epochs + 1):
        order = torch.randperm(n_train)
        total, batches = 0.0, 0
        for i in range(0, n_train, batch_size):
            idx = order[i:i + batch_size]
            loss = F.cross_entropy(model(X_train[idx]), y_train[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
            batches += 1
        loss_value = total / batches
        if log is not None:
            log(f"epoch {epoch:2d}/{epochs}  loss {loss_value:.4f}  "
                f"train acc {accuracy(model, X_train, y_train):6.2%}  "
                f"test acc {accuracy(model, X_test, y_test):6.2%}  "
                f"({time.perf_counter() - start:.1f}s)")
    return {
        "train_acc": accuracy(model, X_train, y_train),
        "test_acc": accuracy(model, X_test, y_test),
        "loss": loss_value,
        "seconds": time.perf_counter() - start,
        "model": model,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.005)
    parser.add_argument("--train-size", type=int, default=1200)
    parser.add_argument("--test-size", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    result = train(args.epochs, args.batch_size, args.lr, args.train_size, args.test_size, args.seed)
    print(f"final: train accuracy {result['train_acc']:.2%}, test accuracy {result['test_acc']:.2%}, "
          f"{result['seconds']:.1f}s")
    return result


if __name__ == "__main__":
    main()
