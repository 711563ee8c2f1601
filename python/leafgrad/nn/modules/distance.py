"""`torch.nn.modules.distance`: Distance modules, at the path PyTorch defines them in (their code lives
in the modules imported below)."""
from .loss import CosineSimilarity, PairwiseDistance

__all__ = ["CosineSimilarity", "PairwiseDistance"]
