"""`torch.nn.utils`: gradient clipping, parameters as one vector, `rnn` (padded and packed
sequences), `parametrize` and `parametrizations` (weight and spectral normalization)."""
from .clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_, get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters
from . import rnn
from . import parametrize
from . import parametrizations
from . import stateless
from .weight_norm import remove_weight_norm, weight_norm
from .spectral_norm import remove_spectral_norm, spectral_norm

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "get_total_norm",
           "parameters_to_vector", "vector_to_parameters", "rnn", "parametrize", "parametrizations",
           "weight_norm", "remove_weight_norm", "spectral_norm", "remove_spectral_norm"]
