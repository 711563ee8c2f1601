"""`torch.nn.modules`: Module, containers, layers and losses."""
from .activation import (
    CELU, ELU, GLU, SELU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, LogSigmoid, Mish, PReLU, ReLU6, SiLU,
    Softmax2d, Softmin, Softshrink, Softsign, Tanhshrink, Threshold, Unflatten,
)
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import (
    Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, LazyConv1d, LazyConv2d, LazyConv3d,
    LazyConvTranspose1d, LazyConvTranspose2d, LazyConvTranspose3d,
)
from .layers import (
    GELU,
    AvgPool2d,
    Dropout,
    Embedding,
    Flatten,
    Identity,
    LayerNorm,
    LazyLinear,
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
    BCELoss, BCEWithLogitsLoss, CTCLoss, CosineEmbeddingLoss, CosineSimilarity, CrossEntropyLoss, GaussianNLLLoss,
    HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss, MarginRankingLoss, MSELoss, MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss, MultiMarginLoss, NLLLoss, PairwiseDistance, PoissonNLLLoss, SmoothL1Loss, SoftMarginLoss,
    TripletMarginLoss, TripletMarginWithDistanceLoss,
)
from .module import Module
from .misc import (
    AlphaDropout, Bilinear, ChannelShuffle, Dropout1d, Dropout2d, Dropout3d, FeatureAlphaDropout, Fold, RReLU, Unfold,
)
from .padding import (
    CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d,
    ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, ZeroPad1d, ZeroPad2d,
    ZeroPad3d,
)
from .upsampling import PixelShuffle, PixelUnshuffle, Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from .attention import MultiheadAttention
from .normalization import (
    BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm, InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, LazyBatchNorm1d,
    LazyBatchNorm2d, LazyBatchNorm3d, LazyInstanceNorm1d, LazyInstanceNorm2d, LazyInstanceNorm3d,
)
from .parallel import DataParallel
from .pooling import (
    AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d,
    AvgPool1d, AvgPool3d, FractionalMaxPool2d, FractionalMaxPool3d, LPPool1d, LPPool2d, MaxPool1d, MaxPool3d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d,
)
from .sparse import EmbeddingBag
from .norm_extra import LocalResponseNorm, RMSNorm
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .transformer import (
    Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer,
)

__all__ = [
    "Module", "Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict",
    "Identity", "Linear", "Conv2d", "ReLU", "Sigmoid", "Tanh", "LeakyReLU", "GELU", "Softplus", "Softmax",
    "LogSoftmax", "SiLU", "ELU", "SELU", "CELU", "Mish", "Hardswish", "Hardsigmoid", "LogSigmoid", "GLU",
    "PReLU", "Hardshrink", "Softshrink", "Hardtanh", "ReLU6", "Threshold", "Softsign", "Tanhshrink", "Softmin", "Softmax2d", "Unflatten", "Flatten", "Dropout", "Embedding", "EmbeddingBag", "LayerNorm", "RMSNorm", "LocalResponseNorm", "MaxPool2d", "AvgPool2d",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "GroupNorm",
    "DataParallel",
    "Conv1d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "MaxPool1d", "MaxPool3d", "AvgPool1d",
    "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d", "FractionalMaxPool2d", "FractionalMaxPool3d", "LPPool1d", "LPPool2d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d",
    "RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell",
    "L1Loss", "MSELoss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "SmoothL1Loss", "HuberLoss",
    "SoftMarginLoss", "KLDivLoss", "MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss",
    "TripletMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss",
    "MultiLabelMarginLoss", "TripletMarginWithDistanceLoss", "CTCLoss", "CosineSimilarity", "PairwiseDistance",
    "MultiheadAttention", "Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
    "TransformerDecoderLayer",
    "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ReflectionPad1d",
    "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
    "CircularPad1d", "CircularPad2d", "CircularPad3d",
    "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle",
    "Bilinear", "RReLU", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout", "Fold",
    "Unfold", "ChannelShuffle",
    "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d",
    "LazyConvTranspose3d", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyInstanceNorm1d",
    "LazyInstanceNorm2d", "LazyInstanceNorm3d",
]

# PyTorch's module paths: `torch.nn.modules.<file>.<Class>` for every class (scripts name them
# so, e.g. in `torch.serialization.safe_globals`, and pickles record them). Each class is placed
# in PyTorch's submodule and reports it as its `__module__`.
from . import batchnorm, channelshuffle, distance, dropout, flatten, fold, instancenorm, linear, pixelshuffle  # noqa: E402
from . import activation, container, conv, loss, module, normalization, padding, pooling, rnn, sparse  # noqa: E402
from . import transformer, upsampling  # noqa: E402

_PYTORCH_PATHS = {
    activation: ["CELU", "ELU", "GELU", "GLU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "LeakyReLU",
                 "LogSigmoid", "LogSoftmax", "Mish", "MultiheadAttention", "PReLU", "RReLU", "ReLU", "ReLU6", "SELU",
                 "SiLU", "Sigmoid", "Softmax", "Softmax2d", "Softmin", "Softplus", "Softshrink", "Softsign", "Tanh",
                 "Tanhshrink", "Threshold"],
    batchnorm: batchnorm.__all__, channelshuffle: channelshuffle.__all__, distance: distance.__all__,
    dropout: dropout.__all__, flatten: flatten.__all__, fold: fold.__all__, instancenorm: instancenorm.__all__,
    linear: linear.__all__, pixelshuffle: pixelshuffle.__all__,
    container: ["ModuleDict", "ModuleList", "ParameterDict", "ParameterList", "Sequential"],
    conv: ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "LazyConv1d",
           "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d"],
    loss: ["BCELoss", "BCEWithLogitsLoss", "CTCLoss", "CosineEmbeddingLoss", "CrossEntropyLoss", "GaussianNLLLoss",
           "HingeEmbeddingLoss", "HuberLoss", "KLDivLoss", "L1Loss", "MSELoss", "MarginRankingLoss",
           "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "NLLLoss", "PoissonNLLLoss",
           "SmoothL1Loss", "SoftMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss"],
    module: ["Module"],
    normalization: ["GroupNorm", "LayerNorm", "LocalResponseNorm", "RMSNorm"],
    padding: [n for n in __all__ if n.endswith(("Pad1d", "Pad2d", "Pad3d"))],
    pooling: ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
              "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "FractionalMaxPool2d", "FractionalMaxPool3d",
              "LPPool1d", "LPPool2d", "MaxPool1d", "MaxPool2d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d",
              "MaxUnpool3d"],
    rnn: ["GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNBase", "RNNCell", "RNNCellBase"],
    sparse: ["Embedding", "EmbeddingBag"],
    transformer: ["Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
                  "TransformerEncoderLayer"],
    upsampling: ["Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d"],
}
for _home, _names in _PYTORCH_PATHS.items():
    for _name in _names:
        _cls = globals()[_name] if _name in globals() else getattr(_home, _name)
        setattr(_home, _name, _cls)
        _cls.__module__ = _home.__name__
del _home, _names, _name, _cls
