"""`torch._dynamo.exc`: the errors `torch.compile` raises for its arguments."""
from .._compile import InvalidBackend, TorchDynamoException

__all__ = ["TorchDynamoException", "InvalidBackend"]
