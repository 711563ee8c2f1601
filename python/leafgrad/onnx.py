"""`torch.onnx`, importable so that scripts that import it for an optional export step run:
`is_in_onnx_export()` is False (leafgrad never traces a model for export) and `export` raises,
saying that leafgrad has no ONNX exporter (it records no TorchScript or FX graph to export)."""

__all__ = ["export", "is_in_onnx_export"]


def is_in_onnx_export():
    """Whether an ONNX export is tracing the model: never in leafgrad.

    >>> torch.onnx.is_in_onnx_export()
    False
    """
    return False


def export(model, args=(), f=None, **kwargs):
    """PyTorch's ONNX exporter; leafgrad has none and raises NotImplementedError.

    >>> torch.onnx.export(torch.nn.Linear(2, 2), (torch.ones(1, 2),), "m.onnx")  # doctest: +SKIP
    """
    raise NotImplementedError("leafgrad has no ONNX exporter (it records no TorchScript or FX graph to export); "
                              "export the model with PyTorch")
