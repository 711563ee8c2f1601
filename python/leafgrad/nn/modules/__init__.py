"""`torch.nn.modules`: Module, containers, layers and losses."""
from .activation import (
    CELU, ELU, GLU, SELU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, LogSigmoid, Mish, PReLU, ReLU6, SiLU,
    Softmax2d, Softmin, Softshrink, Softsign, Tanhshrink, Threshold, Unflatten,
)
from .container import ModuleDict, ModuleList, Sequential
from .layers import (
    GELU,
    AvgPool2d,
    Conv2d,
    Dropout,
    Embedding,
    Flatten,
    Identity,
    LayerNorm,
    LeakyReLU,
    Linear,
    LogSoftmax,
    MaxPool2d,
    ReLU,
    Sigmoid,
    Softmax,
    Softplus,
    Tanh,
)
from .loss import (
    BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CosineSimilarity, CrossEntropyLoss, GaussianNLLLoss,
    HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss, MarginRankingLoss, MSELoss, MultiLabelSoftMarginLoss, NLLLoss,
    PairwiseDistance, PoissonNLLLoss, SmoothL1Loss, SoftMarginLoss, TripletMarginLoss,
)
from .module import Module
from .attention import MultiheadAttention
from .normalization import (
    BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm, InstanceNorm1d, InstanceNorm2d, InstanceNorm3d,
)
from .parallel import DataParallel
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .transformer import (
    Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer,
)

__all__ = [
    "Module", "Sequential", "ModuleList", "ModuleDict",
    "Identity", "Linear", "Conv2d", "ReLU", "Sigmoid", "Tanh", "LeakyReLU", "GELU", "Softplus", "Softmax",
    "LogSoftmax", "SiLU", "ELU", "SELU", "CELU", "Mish", "Hardswish", "Hardsigmoid", "LogSigmoid", "GLU",
    "PReLU", "Hardshrink", "Softshrink", "Hardtanh", "ReLU6", "Threshold", "Softsign", "Tanhshrink", "Softmin", "Softmax2d", "Unflatten", "Flatten", "Dropout", "Embedding", "LayerNorm", "MaxPool2d", "AvgPool2d",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "GroupNorm",
    "DataParallel",
    "RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell",
    "L1Loss", "MSELoss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "SmoothL1Loss", "HuberLoss",
    "SoftMarginLoss", "KLDivLoss", "MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss",
    "TripletMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss", "MultiLabelSoftMarginLoss", "CosineSimilarity",
    "PairwiseDistance",
    "MultiheadAttention", "Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
    "TransformerDecoderLayer",
]
