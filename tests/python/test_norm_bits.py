"""The 2-norm over trailing dims of a contiguous float32/float64 tensor gives PyTorch 2.15's bits
(its vectorised last-dim kernel: 8 float32 or 4 float64 lanes of squares, added in order) for
rows of whole vectors: `linalg.vector_norm`, `Tensor.norm`, `F.normalize` over the last dim and
`clip_grad_norm_`, whose clipping factor follows from those norms. Hashes of PyTorch's bytes;
LEAFGRAD_TEST_TORCH=1 runs them against PyTorch, `python test_norm_bits.py` prints the table.
Other orders and other dims (not trailing) agree to rounding only (see differences.md)."""
import support  # noqa: F401  (with LEAFGRAD_TEST_TORCH=1, `leafgrad` below is PyTorch)
from support import mismatched, print_recorded
from support import spread as data

import leafgrad as torch

F = torch.nn.functional



# rows of whole 8-float vectors: how PyTorch adds a last partial vector was not found, and
# leafgrad computes those rows its own way
SHAPES = [((8,), None), ((1000,), None), ((100000,), None), ((5, 96), -1), ((4, 3, 40), (1, 2)), ((6, 32), None),
          ((3, 16), -1), ((2, 70000), 1), ((4, 64), (-1,)), ((2, 3, 768), -1)]


def cases():
    for dtype in (torch.float32, torch.float64):
        for shape, dim in SHAPES:
            n = 1
            for s in shape:
                n *= s
            x = data(n, 2.7, 3, dtype).reshape(shape) + 0.01
            name = f"{str(dtype)[6:]} {shape} {dim}"
            yield f"{name} vector_norm", torch.linalg.vector_norm(x, 2, dim)
            yield f"{name} vector_norm keepdim", torch.linalg.vector_norm(x, 2, dim, keepdim=True)
            yield f"{name} norm", x.norm() if dim is None else x.norm(dim=dim)
            if dim in (-1, (-1,)):
                yield f"{name} normalize", F.normalize(x, dim=-1)
    shapes = ((20, 32), (24,), (8, 24), (16,), (64, 8), (8,), (3, 8), (40,))  # 8 norms, then their norm
    params = [torch.zeros(s, requires_grad=True) for s in shapes]
    for k, p in enumerate(params):
        p.grad = data(p.numel(), 0.3, 11 * k).reshape(p.shape)
    total = torch.nn.utils.clip_grad_norm_(params, 0.5)
    yield "clip_grad_norm_ total", total
    for k, p in enumerate(params):
        yield f"clip_grad_norm_ grad {k}", p.grad


# name: sha256 of PyTorch 2.15's result bytes
RECORDED = {
    'float32 (8,) None vector_norm': 'b82b97a68da824e8',
    'float32 (8,) None vector_norm keepdim': 'b82b97a68da824e8',
    'float32 (8,) None norm': 'b82b97a68da824e8',
    'float32 (1000,) None vector_norm': 'c3388cb6dfb6f79f',
    'float32 (1000,) None vector_norm keepdim': 'c3388cb6dfb6f79f',
    'float32 (1000,) None norm': 'c3388cb6dfb6f79f',
    'float32 (100000,) None vector_norm': 'dd284cda78cd7638',
    'float32 (100000,) None vector_norm keepdim': 'dd284cda78cd7638',
    'float32 (100000,) None norm': 'dd284cda78cd7638',
    'float32 (5, 96) -1 vector_norm': 'b5bd430f140e6628',
    'float32 (5, 96) -1 vector_norm keepdim': 'b5bd430f140e6628',
    'float32 (5, 96) -1 norm': 'b5bd430f140e6628',
    'float32 (5, 96) -1 normalize': '5338a4b3bb236c9a',
    'float32 (4, 3, 40) (1, 2) vector_norm': 'da010af276a43169',
    'float32 (4, 3, 40) (1, 2) vector_norm keepdim': 'da010af276a43169',
    'float32 (4, 3, 40) (1, 2) norm': 'da010af276a43169',
    'float32 (6, 32) None vector_norm': '37fbe3d746d75804',
    'float32 (6, 32) None vector_norm keepdim': '37fbe3d746d75804',
    'float32 (6, 32) None norm': '37fbe3d746d75804',
    'float32 (3, 16) -1 vector_norm': 'fad782a04a13e71c',
    'float32 (3, 16) -1 vector_norm keepdim': 'fad782a04a13e71c',
    'float32 (3, 16) -1 norm': 'fad782a04a13e71c',
    'float32 (3, 16) -1 normalize': '9d516057a964af28',
    'float32 (2, 70000) 1 vector_norm': 'cbc4e62cc9311203',
    'float32 (2, 70000) 1 vector_norm keepdim': 'cbc4e62cc9311203',
    'float32 (2, 70000) 1 norm': 'cbc4e62cc9311203',
    'float32 (4, 64) (-1,) vector_norm': '22e55004e35695bb',
    'float32 (4, 64) (-1,) vector_norm keepdim': '22e55004e35695bb',
    'float32 (4, 64) (-1,) norm': '22e55004e35695bb',
    'float32 (4, 64) (-1,) normalize': 'ca830ae1cfbd47e5',
    'float32 (2, 3, 768) -1 vector_norm': '900ebf01ba7f10fb',
    'float32 (2, 3, 768) -1 vector_norm keepdim': '900ebf01ba7f10fb',
    'float32 (2, 3, 768) -1 norm': '900ebf01ba7f10fb',
    'float32 (2, 3, 768) -1 normalize': 'b444dac192b073b0',
    'float64 (8,) None vector_norm': '014f11f34dd4d991',
    'float64 (8,) None vector_norm keepdim': '014f11f34dd4d991',
    'float64 (8,) None norm': '014f11f34dd4d991',
    'float64 (1000,) None vector_norm': 'fe6c64ee90455030',
    'float64 (1000,) None vector_norm keepdim': 'fe6c64ee90455030',
    'float64 (1000,) None norm': 'fe6c64ee90455030',
    'float64 (100000,) None vector_norm': '8d99e8cff33dd21c',
    'float64 (100000,) None vector_norm keepdim': '8d99e8cff33dd21c',
    'float64 (100000,) None norm': '8d99e8cff33dd21c',
    'float64 (5, 96) -1 vector_norm': '2d0e56a233f0b1d4',
    'float64 (5, 96) -1 vector_norm keepdim': '2d0e56a233f0b1d4',
    'float64 (5, 96) -1 norm': '2d0e56a233f0b1d4',
    'float64 (5, 96) -1 normalize': 'dfde20280d3faf24',
    'float64 (4, 3, 40) (1, 2) vector_norm': '07d8bbe1951a84f6',
    'float64 (4, 3, 40) (1, 2) vector_norm keepdim': '07d8bbe1951a84f6',
    'float64 (4, 3, 40) (1, 2) norm': '07d8bbe1951a84f6',
    'float64 (6, 32) None vector_norm': '92844508ad9bef9d',
    'float64 (6, 32) None vector_norm keepdim': '92844508ad9bef9d',
    'float64 (6, 32) None norm': '92844508ad9bef9d',
    'float64 (3, 16) -1 vector_norm': '7dd942bca4ee2d0a',
    'float64 (3, 16) -1 vector_norm keepdim': '7dd942bca4ee2d0a',
    'float64 (3, 16) -1 norm': '7dd942bca4ee2d0a',
    'float64 (3, 16) -1 normalize': 'b14426f085063efb',
    'float64 (2, 70000) 1 vector_norm': 'ca58f6e331ed020f',
    'float64 (2, 70000) 1 vector_norm keepdim': 'ca58f6e331ed020f',
    'float64 (2, 70000) 1 norm': 'ca58f6e331ed020f',
    'float64 (4, 64) (-1,) vector_norm': '34f0e1d71ad5ebfd',
    'float64 (4, 64) (-1,) vector_norm keepdim': '34f0e1d71ad5ebfd',
    'float64 (4, 64) (-1,) norm': '34f0e1d71ad5ebfd',
    'float64 (4, 64) (-1,) normalize': '1f8232c70a790e98',
    'float64 (2, 3, 768) -1 vector_norm': '6e98c397e185ccd2',
    'float64 (2, 3, 768) -1 vector_norm keepdim': '6e98c397e185ccd2',
    'float64 (2, 3, 768) -1 norm': '6e98c397e185ccd2',
    'float64 (2, 3, 768) -1 normalize': '6db6732c76107359',
    'clip_grad_norm_ total': '836b1cfcbd1e2419',
    'clip_grad_norm_ grad 0': '129156e086ee4f7b',
    'clip_grad_norm_ grad 1': '36d737e98a14def0',
    'clip_grad_norm_ grad 2': '5a410db8cfeb9a8f',
    'clip_grad_norm_ grad 3': 'd6ad1298be8dd7ee',
    'clip_grad_norm_ grad 4': '079b59356652aef6',
    'clip_grad_norm_ grad 5': '433f429bcfb2cb66',
    'clip_grad_norm_ grad 6': '34ab085c98acd1f2',
    'clip_grad_norm_ grad 7': '603f281a207a1ef6',
}


def test_pytorchs_bytes():
    assert mismatched(cases(), RECORDED) == []


def test_gradient_still_flows():
    x = data(12, 1.3, 1, torch.float64).reshape(3, 4).requires_grad_()
    assert torch.autograd.gradcheck(lambda t: torch.linalg.vector_norm(t, 2, -1), (x,))
    y = torch.linalg.vector_norm(x, 2, -1)
    assert y.grad_fn.name() == "LinalgVectorNormBackward0"


if __name__ == "__main__":
    print_recorded(cases())
