"""Train an MLP classifier on two interleaved spirals, written against the PyTorch API.

    python examples/train_mlp.py            # full run (about a second or two)
    python examples/train_mlp.py --epochs 5 # short run

The script generates its own data set (two spirals of one and a half turns each, with Gaussian noise), holds
out a test split, prints one progress line per epoch and the final accuracies. Replace
`import leafgrad as torch` with `import torch` and it runs unchanged on PyTorch.
"""
import argparse
import math
import time

import leafgrad as torch
import leafgrad.nn as nn
import leafgrad.nn.functional as F


def make_spirals(n_per_class, turns=1.5, noise=0.05):
    """Points on two interleaved spirals (class 0 and its point reflection, class 1)."""
    t = torch.rand(n_per_class) * (turns * 2 * math.pi) + 0.5
    radius = t / (turns * 2 * math.pi + 0.5)
    arm = torch.stack([radius * t.cos(), radius * t.sin()], 1)
    X = torch.cat([arm, -arm]) + torch.randn(2 * n_per_class, 2) * noise
    y = torch.cat([torch.zeros(n_per_class, dtype=torch.int64), torch.ones(n_per_class, dtype=torch.int64)])
    return X, y


def build_model(hidden=64):
    return nn.Sequential(
        nn.Linear(2, hidden),
        nn.ReLU(),
        nn.Linear(hidden, hidden),
        nn.ReLU(),
        nn.Linear(hidden, 2),
    )


def accuracy(model, X, y):
    model.eval()
    with torch.no_grad():
        correct = (model(X).argmax(1) == y).sum().item()
    model.train()
    return correct / y.shape[0]


def train(epochs=60, batch_size=64, lr=0.01, hidden=64, n_per_class=600, seed=0, log=print):
    """Train and return a dict with the final train/test accuracy, last loss and seconds taken."""
    torch.manual_seed(seed)
    X, y = make_spirals(n_per_class)
    perm = torch.randperm(X.shape[0])
    n_test = X.shape[0] // 5
    X_test, y_test = X[perm[:n_test]], y[perm[:n_test]]
    X_train, y_train = X[perm[n_test:]], y[perm[n_test:]]

    model = build_model(hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    n = X_train.shape[0]
    start = time.perf_counter()
    loss_value = float("nan")
    for epoch in range(1, epochs + 1):
        order = torch.randperm(n)
        total, batches = 0.0, 0
        for i in range(0, n, batch_size):
            idx = order[i:i + batch_size]
            loss = F.cross_entropy(model(X_train[idx]), y_train[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
            batches += 1
        loss_value = total / batches
        if log is not None:
            log(f"epoch {epoch:3d}/{epochs}  loss {loss_value:.4f}  "
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
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--points", type=int, default=600, help="points per class")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    result = train(args.epochs, args.batch_size, args.lr, args.hidden, args.points, args.seed)
    print(f"final: train accuracy {result['train_acc']:.2%}, test accuracy {result['test_acc']:.2%}, "
          f"{result['seconds']:.1f}s")
    return result


if __name__ == "__main__":
    main()
