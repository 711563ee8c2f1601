"""`torch.nn.utils`: gradient clipping, parameters as one vector, and `rnn` (padded and packed
sequences)."""
from .clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_, get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters
from . import rnn

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "get_total_norm",
           "parameters_to_vector", "vector_to_parameters", "rnn"]
