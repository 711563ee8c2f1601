"""Recurrent layers (RNN, LSTM, GRU) and their one-step cells, as PyTorch's: the same
parameters (names, shapes, order, initialisation), gate order (LSTM i, f, g, o; GRU r, z, n),
argument checks, error messages and reprs. The recurrences are composed of differentiable ops
(linear, sigmoid, tanh, relu, chunk, cat, stack), so gradients reach every weight, the input
and the initial state. As PyTorch on the CPU, each layer projects the whole input sequence at
once (x @ W_ih.T + b_ih) and then steps through time; a PackedSequence is stepped with the
batch shrinking as sequences end."""
import math
import numbers
import warnings
import weakref

from ... import _warn
from ...amp import _cast as _amp_cast
from .. import functional as F
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .layers import _empty
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_SCALAR_NAMES = {
    "float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "int64": "Long",
    "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
}

_PROJ_ONEDNN_WARNING = (
    "LSTM with projections is not supported with oneDNN. Using default implementation. "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/RNN.cpp:1603.)"
)


def _torch():
    import leafgrad

    return leafgrad


def _dtype_name(dtype):
    return str(dtype).replace("torch.", "")


def _check_mm_dtype(mat1, weight, has_bias):
    """The error PyTorch's addmm gives when `mat1 @ weight.T + bias` mixes dtypes (without a
    bias, F.linear's own check gives mm's message)."""
    if has_bias and mat1.dtype != weight.dtype:
        a, b = _dtype_name(mat1.dtype), _dtype_name(weight.dtype)
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got {_SCALAR_NAMES.get(a, a)} and {_SCALAR_NAMES.get(b, b)}"
        )


def _apply_permutation(tensor, permutation, dim=1):
    return tensor.index_select(dim, permutation)


# ---------------------------------------------------------------------------------- recurrences
# `gi` is a step's input projection x @ W_ih.T + b_ih; the hidden projection is added to it as
# PyTorch's cells do (linear_hh(h) + gi).


def _rnn_tanh_step(gi, h, w):
    return (F.linear(h, w[1], w[3]) + gi).tanh()


def _rnn_relu_step(gi, h, w):
    return (F.linear(h, w[1], w[3]) + gi).relu()


def _lstm_step(gi, state, w):
    hx, cx = state
    gates = F.linear(hx, w[1], w[3]) + gi
    i, f, g, o = gates.chunk(4, 1)
    cy = f.sigmoid() * cx + i.sigmoid() * g.tanh()
    hy = o.sigmoid() * cy.tanh()
    if w[4] is not None:
        hy = F.linear(hy, w[4])
    return hy, cy


def _gru_step(gi, h, w):
    gh = F.linear(h, w[1], w[3])
    i_r, i_z, i_n = gi.chunk(3, 1)
    h_r, h_z, h_n = gh.chunk(3, 1)
    r = (h_r + i_r).sigmoid()
    z = (h_z + i_z).sigmoid()
    n = (i_n + h_n * r).tanh()
    return (h - n) * z + n


_STEPS = {"RNN_TANH": _rnn_tanh_step, "RNN_RELU": _rnn_relu_step, "LSTM": _lstm_step, "GRU": _gru_step}


def _state_rows(state, start, stop):
    if isinstance(state, tuple):
        return tuple(s[start:stop] for s in state)
    return state[start:stop]


def _state_cat(states):
    cat = _torch().cat
    if isinstance(states[0], tuple):
        return tuple(cat([s[k] for s in states], 0) for k in range(len(states[0])))
    return cat(states, 0)


def _output_of(state):
    return state[0] if isinstance(state, tuple) else state


def _run_forward(step, steps, sizes, state, w):
    """Step through time; as the batch shrinks (packed input) the finished sequences' states are
    set aside and form the final state with the ones still running."""
    outputs, finished = [], []
    last = sizes[0]
    for gi, size in zip(steps, sizes):
        if size < last:
            finished.append(_state_rows(state, size, last))
            state = _state_rows(state, 0, size)
        last = size
        state = step(gi, state, w)
        outputs.append(_output_of(state))
    if finished:
        finished.append(state)
        state = _state_cat(finished[::-1])
    return outputs, state


def _run_reverse(step, steps, sizes, state0, w):
    """Step from the last time step to the first; the sequences join (with their initial state)
    as the batch grows."""
    batch = _output_of(state0).size(0)
    last = sizes[-1]
    state = state0 if last == batch else _state_rows(state0, 0, last)
    outputs = []
    for t in range(len(sizes) - 1, -1, -1):
        size = sizes[t]
        if size > last:
            state = _state_cat([state, _state_rows(state0, last, size)])
        last = size
        state = step(steps[t], state, w)
        outputs.append(_output_of(state))
    outputs.reverse()
    return outputs, state


def _run_layers(module, input, hx, batch_sizes):
    """The whole stack: `input` is (T, B, in) time-major, or a PackedSequence's data (N, in) with
    `batch_sizes`; `hx` is (L*D, B, H) or, for an LSTM, a pair. Returns (output, h_n)."""
    torch = _torch()
    mode = module.mode
    step = _STEPS[mode]
    lstm = mode == "LSTM"
    packed = batch_sizes is not None
    if packed:
        sizes = [int(b) for b in batch_sizes.tolist()]
    else:
        if input.size(0) == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        sizes = [input.size(1)] * input.size(0)
    num_directions = 2 if module.bidirectional else 1
    names = module._flat_weights_names
    weights = [getattr(module, n) for n in names]
    per = len(weights) // (module.num_layers * num_directions)
    has_bias = module.bias
    # autocast casts what PyTorch's kernels get: cuDNN's RNN on CUDA, oneDNN's LSTM layer on the CPU
    input, weights, hx = _amp_cast.cast_args("_cudnn_rnn", input, weights, hx)
    if lstm and not packed and module.proj_size == 0:
        input, weights, hx = _amp_cast.cast_args("mkldnn_rnn_layer", input, weights, hx)
    hs = hx[0] if lstm else hx
    _check_mm_dtype(hs, weights[1], has_bias)
    hs = hs.unbind(0)
    cs = hx[1].unbind(0) if lstm else None
    layer_input = input
    h_n, c_n = [], []
    for layer in range(module.num_layers):
        directions = []
        for direction in range(num_directions):
            idx = layer * num_directions + direction
            w = weights[idx * per:(idx + 1) * per]
            w_ih, w_hh = w[0], w[1]
            b_ih, b_hh = (w[2], w[3]) if has_bias else (None, None)
            w_hr = w[-1] if module.proj_size > 0 else None
            gi = F.linear(layer_input, w_ih, b_ih)
            steps = gi.split(sizes, 0) if packed else gi.unbind(0)
            state0 = (hs[idx], cs[idx]) if lstm else hs[idx]
            run = _run_reverse if direction == 1 else _run_forward
            outputs, state = run(step, steps, sizes, state0, (w_ih, w_hh, b_ih, b_hh, w_hr))
            directions.append(torch.cat(outputs, 0) if packed else torch.stack(outputs, 0))
            if lstm:
                h_n.append(state[0])
                c_n.append(state[1])
            else:
                h_n.append(state)
        layer_output = directions[0] if num_directions == 1 else torch.cat(directions, -1)
        if module.dropout != 0 and module.training and layer < module.num_layers - 1:
            layer_output = F.dropout(layer_output, module.dropout, True)
        layer_input = layer_output
    hidden = (torch.stack(h_n, 0), torch.stack(c_n, 0)) if lstm else torch.stack(h_n, 0)
    return layer_input, hidden


# ---------------------------------------------------------------------------------- modules


class RNNBase(Module):
    """What RNN, LSTM and GRU share: the per-layer, per-direction parameters `weight_ih_l{k}`
    (gates * hidden, input), `weight_hh_l{k}` (gates * hidden, hidden), `bias_ih_l{k}`,
    `bias_hh_l{k}` (and `weight_hr_l{k}` with an LSTM's proj_size), `_reverse` for the second
    direction, all drawn from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)); the argument checks,
    the hidden-state checks and the repr. `mode` is 'RNN_TANH', 'RNN_RELU', 'LSTM' or 'GRU'.

    >>> m = torch.nn.RNNBase("GRU", 3, 4, num_layers=2)
    >>> m
    RNNBase(3, 4, num_layers=2)
    >>> [name for name, _ in m.named_parameters()][:4]
    ['weight_ih_l0', 'weight_hh_l0', 'bias_ih_l0', 'bias_hh_l0']
    >>> m.weight_ih_l1.shape
    torch.Size([12, 4])
    """

    __constants__ = ["mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout",
                     "bidirectional", "proj_size"]
    __jit_unused_properties__ = ["all_weights"]

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1

        if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or not 0 <= dropout <= 1:
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an element "
                "being zeroed"
            )
        if dropout > 0 and num_layers == 1:
            warnings.warn(
                "dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                stacklevel=2,
            )
        if not isinstance(bias, bool):
            raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first should be of type bool, got: {type(batch_first).__name__}")
        if not isinstance(input_size, int):
            raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")

        gates = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}.get(mode)
        if gates is None:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = gates * hidden_size
        real_hidden_size = proj_size if proj_size > 0 else hidden_size

        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                suffix = "_reverse" if direction == 1 else ""
                shapes = [("weight_ih", (gate_size, layer_input_size)), ("weight_hh", (gate_size, real_hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    shapes.append(("weight_hr", (proj_size, hidden_size)))
                names = []
                for stem, shape in shapes:
                    name = f"{stem}_l{layer}{suffix}"
                    setattr(self, name, Parameter(_empty(shape, dtype, device)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self._init_flat_weights()
        self.reset_parameters()

    def _init_flat_weights(self):
        self._flat_weights = [getattr(self, n) if hasattr(self, n) else None for n in self._flat_weights_names]
        self._flat_weight_refs = [weakref.ref(w) if w is not None else None for w in self._flat_weights]
        self.flatten_parameters()

    def __setattr__(self, attr, value):
        if hasattr(self, "_flat_weights_names") and attr in self._flat_weights_names:
            # keep _flat_weights in step with `self.weight_ih_l0 = ...`
            self._flat_weights[self._flat_weights_names.index(attr)] = value
        super().__setattr__(attr, value)

    def flatten_parameters(self):
        """Make the weights one contiguous block for cuDNN: nothing to do in leafgrad (a no-op,
        as PyTorch's is for weights that are not on a CUDA device).

        >>> torch.nn.LSTM(3, 4).flatten_parameters()
        """
        return None

    def _apply(self, fn, recurse=True):
        self._flat_weight_refs = []
        ret = super()._apply(fn, recurse)
        self._init_flat_weights()
        return ret

    def reset_parameters(self):
        """Draw every parameter from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), in order."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input, batch_sizes):
        weight = self._flat_weights[0]
        if input.dtype != weight.dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). "
                f"Convert input: input.to({weight.dtype}), or convert model: model.to({input.dtype})"
            )
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {input.size(-1)}"
            )

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def _weights_have_changed(self):
        """Whether a weight was replaced since the last forward (as torch.func.functional_call
        does)."""
        for ref, name in zip(self._flat_weight_refs, self._flat_weights_names):
            weight = getattr(self, name) if hasattr(self, name) else None
            if weight is not None and ref is not None and ref() is not weight:
                return True
        return False

    def _update_flat_weights(self):
        if self._weights_have_changed():
            self._init_flat_weights()

    def __getstate__(self):
        self._update_flat_weights()
        state = self.__dict__.copy()
        del state["_flat_weight_refs"]  # weak references do not pickle
        return state

    def __setstate__(self, d):
        super().__setstate__(d)
        if "all_weights" in d:
            self._all_weights = d["all_weights"]
        if "proj_size" not in d:
            self.proj_size = 0
        self._flat_weight_refs = [weakref.ref(w) if w is not None else None for w in self._flat_weights]

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return _apply_permutation(hx, permutation)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    @property
    def all_weights(self):
        """The parameters, one list per layer and direction (as `_all_weights` names them)."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    # shared by RNN and GRU (one hidden tensor)
    def _forward_single_state(self, input, hx, name, dim_message):
        self._update_flat_weights()
        num_directions = 2 if self.bidirectional else 1
        orig_input = input
        if isinstance(orig_input, PackedSequence):
            input, batch_sizes, sorted_indices, unsorted_indices = input
            max_batch_size = int(batch_sizes[0])
            if hx is None:
                hx = _torch().zeros(self.num_layers * num_directions, max_batch_size, self.hidden_size,
                                    dtype=input.dtype, device=input.device)
            else:
                hx = self.permute_hidden(hx, sorted_indices)
        else:
            batch_sizes = None
            if input.dim() not in (2, 3):
                raise ValueError(dim_message.format(name=name, dim=input.dim()))
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
                if hx is not None:
                    if hx.dim() != 2:
                        raise RuntimeError(
                            f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor"
                        )
                    hx = hx.unsqueeze(1)
            elif hx is not None and hx.dim() != 3:
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            sorted_indices = None
            unsorted_indices = None
            if hx is None:
                hx = _torch().zeros(self.num_layers * num_directions, max_batch_size, self.hidden_size,
                                    dtype=input.dtype, device=input.device)
            else:
                hx = self.permute_hidden(hx, sorted_indices)
        self.check_forward_args(input, hx, batch_sizes)
        if batch_sizes is None and self.batch_first:
            output, hidden = _run_layers(self, input.transpose(0, 1), hx, None)
            output = output.transpose(0, 1)
        else:
            output, hidden = _run_layers(self, input, hx, batch_sizes)
        if isinstance(orig_input, PackedSequence):
            return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                    self.permute_hidden(hidden, unsorted_indices))
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)
        return output, self.permute_hidden(hidden, unsorted_indices)


class RNN(RNNBase):
    """A multi-layer Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (or relu
    with nonlinearity='relu'). Input (T, B, input_size) ((B, T, ...) with batch_first, (T, ...)
    unbatched, or a PackedSequence); returns (output, h_n) with output (T, B, D * hidden_size)
    and h_n (num_layers * D, B, hidden_size), D = 2 if bidirectional else 1.

    >>> rnn = torch.nn.RNN(3, 4, num_layers=2, nonlinearity="relu")
    >>> rnn
    RNN(3, 4, num_layers=2)
    >>> rnn.nonlinearity, rnn.mode
    ('relu', 'RNN_RELU')
    >>> output, h_n = rnn(torch.ones(5, 2, 3))
    >>> output.shape, h_n.shape
    (torch.Size([5, 2, 4]), torch.Size([2, 2, 4]))
    """

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        if self.mode not in ("RNN_TANH", "RNN_RELU"):
            raise AssertionError(f"mode must be RNN_TANH or RNN_RELU, got {self.mode}")
        return self._forward_single_state(input, hx, "RNN",
                                          "{name}: Expected input to be 2D or 3D, got {dim}D tensor instead")


class LSTM(RNNBase):
    """A multi-layer LSTM: gates i, f, g, o (in that order in the weights) from
    x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh; c_t = f * c_{t-1} + i * g; h_t = o * tanh(c_t)
    (projected by weight_hr to proj_size when proj_size > 0). Returns (output, (h_n, c_n)).

    >>> lstm = torch.nn.LSTM(3, 4, num_layers=2, batch_first=True)
    >>> lstm
    LSTM(3, 4, num_layers=2, batch_first=True)
    >>> output, (h_n, c_n) = lstm(torch.ones(2, 5, 3))
    >>> output.shape, h_n.shape, c_n.shape
    (torch.Size([2, 5, 4]), torch.Size([2, 2, 4]), torch.Size([2, 2, 4]))
    >>> torch.nn.LSTM(3, 4, proj_size=2).weight_hr_l0.shape
    torch.Size([2, 4])
    """

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return _apply_permutation(hx[0], permutation), _apply_permutation(hx[1], permutation)

    def _check_states(self, input, hx, packed):
        """What PyTorch's CPU LSTM checks past the Python-level checks: two states, and on its
        oneDNN path (float32/bfloat16 input, no projection) states of the input's dtype; with a
        projection it says once that it falls back to its default implementation."""
        if not isinstance(hx, (tuple, list)):
            raise TypeError(self._bad_hx_message(hx, packed))
        if len(hx) != 2:
            raise RuntimeError("lstm expects two hidden states")
        torch = _torch()
        onednn = (not packed and input.device.type == "cpu" and input.dtype in (torch.float32, torch.bfloat16)
                  and input.numel() > 0)
        if not onednn:
            return
        if self.proj_size > 0:
            _warn.warn_once("lstm projections onednn", _PROJ_ONEDNN_WARNING, UserWarning, stacklevel=2)
            return
        for h in hx:
            if h.dtype != input.dtype:
                if h.dtype in (torch.float32, torch.bfloat16, torch.float16):
                    raise RuntimeError(
                        "could not create a primitive descriptor for the LSTM forward propagation primitive. "
                        "Run workload with environment variable ONEDNN_VERBOSE=all to get additional "
                        "diagnostic information."
                    )
                raise RuntimeError("get_mkldnn_dtype: unsupported data type")

    def _bad_hx_message(self, hx, packed):
        """PyTorch's argument parser's complaint when hx is not a pair of tensors."""
        params = "!list of [" + ", ".join(type(w).__name__ for w in self._flat_weights) + "]!"
        h = type(hx).__name__
        if packed:
            got = f"(Tensor, Tensor, {h}, list, bool, int, float, bool, bool)"
            first = f"(Tensor, Tensor, !{h}!, {params}, bool, int, float, bool, bool)"
            second = f"(Tensor, !Tensor!, !{h}!, {params}, !bool!, int, !float!, bool, bool)"
        else:
            got = f"(Tensor, {h}, list, bool, int, float, bool, bool, bool)"
            first = f"(Tensor, {h}, {params}, !bool!, !int!, !float!, !bool!, bool, bool)"
            second = f"(Tensor, !{h}!, {params}, bool, int, float, bool, bool, bool)"
        return (
            f"lstm() received an invalid combination of arguments - got {got}, but expected one of:\n"
            " * (Tensor data, Tensor batch_sizes, tuple of Tensors hx, tuple of Tensors params, bool has_biases, "
            "int num_layers, float dropout, bool train, bool bidirectional)\n"
            f"      didn't match because some of the arguments have invalid types: {first}\n"
            " * (Tensor input, tuple of Tensors hx, tuple of Tensors params, bool has_biases, int num_layers, "
            "float dropout, bool train, bool bidirectional, bool batch_first)\n"
            f"      didn't match because some of the arguments have invalid types: {second}\n"
        )

    def forward(self, input, hx=None):
        self._update_flat_weights()
        torch = _torch()
        orig_input = input
        batch_sizes = None
        num_directions = 2 if self.bidirectional else 1
        real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        if isinstance(orig_input, PackedSequence):
            input, batch_sizes, sorted_indices, unsorted_indices = input
            max_batch_size = int(batch_sizes[0])
            if hx is None:
                hx = (torch.zeros(self.num_layers * num_directions, max_batch_size, real_hidden_size,
                                  dtype=input.dtype, device=input.device),
                      torch.zeros(self.num_layers * num_directions, max_batch_size, self.hidden_size,
                                  dtype=input.dtype, device=input.device))
            else:
                hx = self.permute_hidden(hx, sorted_indices)
            # as PyTorch's, a packed input's states are not checked here
        else:
            if input.dim() not in (2, 3):
                raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            sorted_indices = None
            unsorted_indices = None
            if hx is None:
                hx = (torch.zeros(self.num_layers * num_directions, max_batch_size, real_hidden_size,
                                  dtype=input.dtype, device=input.device),
                      torch.zeros(self.num_layers * num_directions, max_batch_size, self.hidden_size,
                                  dtype=input.dtype, device=input.device))
                self.check_forward_args(input, hx, batch_sizes)
            else:
                if is_batched:
                    if hx[0].dim() != 3 or hx[1].dim() != 3:
                        raise RuntimeError(
                            "For batched 3-D input, hx and cx should also be 3-D but got "
                            f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                        )
                else:
                    if hx[0].dim() != 2 or hx[1].dim() != 2:
                        raise RuntimeError(
                            "For unbatched 2-D input, hx and cx should also be 2-D but got "
                            f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                        )
                    hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
                self.check_forward_args(input, hx, batch_sizes)
                hx = self.permute_hidden(hx, sorted_indices)
        self._check_states(input, hx, batch_sizes is not None)
        hx = tuple(hx)
        if batch_sizes is None and self.batch_first:
            output, hidden = _run_layers(self, input.transpose(0, 1), hx, None)
            output = output.transpose(0, 1)
        else:
            output, hidden = _run_layers(self, input, hx, batch_sizes)
        if isinstance(orig_input, PackedSequence):
            return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                    self.permute_hidden(hidden, unsorted_indices))
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = (hidden[0].squeeze(1), hidden[1].squeeze(1))
        return output, self.permute_hidden(hidden, unsorted_indices)


class GRU(RNNBase):
    """A multi-layer GRU: gates r, z, n (in that order in the weights);
    n = tanh(x W_in^T + b_in + r * (h W_hn^T + b_hn)), h' = (1 - z) * n + z * h.
    Returns (output, h_n).

    >>> gru = torch.nn.GRU(3, 4, bidirectional=True)
    >>> gru
    GRU(3, 4, bidirectional=True)
    >>> output, h_n = gru(torch.ones(5, 3))
    >>> output.shape, h_n.shape
    (torch.Size([5, 8]), torch.Size([2, 4]))
    """

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_single_state(input, hx, "GRU", "{name}: Expected input to be 2D or 3D, got {dim}D instead")


# ---------------------------------------------------------------------------------- cells


def _check_cell_input(input, w_ih):
    if input.size(1) != w_ih.size(1):
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected {w_ih.size(1)}")


def _check_cell_hidden(input, hx, hidden_size, label):
    if hx.dim() != 2:
        raise RuntimeError(f"Expected 2D hidden{label} (batch x hidden_size), but got {hx.dim()}D tensor")
    if input.size(0) != hx.size(0):
        raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{label} batch size {hx.size(0)}")
    if hx.size(1) != hidden_size:
        raise RuntimeError(
            f"hidden{label} has inconsistent hidden_size: got {hx.size(1)}, expected {hidden_size}"
        )


class RNNCellBase(Module):
    """What the cells share: `weight_ih` (chunks * hidden, input), `weight_hh`
    (chunks * hidden, hidden) and, with bias, `bias_ih` and `bias_hh`, all drawn from
    U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)).

    >>> cell = torch.nn.RNNCellBase(3, 4, bias=False, num_chunks=2)
    >>> cell
    RNNCellBase(3, 4, bias=False)
    >>> cell.weight_ih.shape, cell.bias_ih
    (torch.Size([8, 3]), None)
    """

    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(_empty((num_chunks * hidden_size, input_size), dtype, device))
        self.weight_hh = Parameter(_empty((num_chunks * hidden_size, hidden_size), dtype, device))
        if bias:
            self.bias_ih = Parameter(_empty((num_chunks * hidden_size,), dtype, device))
            self.bias_hh = Parameter(_empty((num_chunks * hidden_size,), dtype, device))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += f", bias={self.bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def reset_parameters(self):
        """Draw every parameter from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), in order."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _weights(self):
        return (self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh, None)

    def _prepare(self, name, input, hx):
        """(batched input, batched hx, is_batched) after PyTorch's dimension checks."""
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = _torch().zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        return input, hx, is_batched

    def _single_step(self, step, input, hx):
        w = self._weights()
        # CUDA autocast casts the tensors of PyTorch's rnn_tanh_cell / rnn_relu_cell / gru_cell
        input, hx, w = _amp_cast.cast_args("rnn_cell", input, hx, w)
        _check_cell_input(input, w[0])
        _check_cell_hidden(input, hx, w[1].size(1), 0)
        has_bias = w[2] is not None
        _check_mm_dtype(input, w[0], has_bias)
        _check_mm_dtype(hx, w[1], has_bias)
        return step(F.linear(input, w[0], w[2]), hx, w)


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu).

    >>> cell = torch.nn.RNNCell(3, 4, nonlinearity="relu")
    >>> cell
    RNNCell(3, 4, nonlinearity=relu)
    >>> cell(torch.ones(2, 3)).shape
    torch.Size([2, 4])
    """

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, hx, is_batched = self._prepare("RNNCell", input, hx)
        if self.nonlinearity == "tanh":
            ret = self._single_step(_rnn_tanh_step, input, hx)
        elif self.nonlinearity == "relu":
            ret = self._single_step(_rnn_relu_step, input, hx)
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: returns (h', c') from x and (h, c) (zeros when hx is None).

    >>> cell = torch.nn.LSTMCell(3, 4)
    >>> cell
    LSTMCell(3, 4)
    >>> h, c = cell(torch.ones(3))
    >>> h.shape, c.shape
    (torch.Size([4]), torch.Size([4]))
    """

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = _torch().zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
            hx = (zeros, zeros)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        if not isinstance(hx, (tuple, list)):
            raise TypeError(
                f"lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not {type(hx).__name__}"
            )
        if len(hx) != 2:
            raise RuntimeError("lstm_cell expects two hidden states")
        w = self._weights()
        _check_cell_input(input, w[0])
        hidden_size = w[1].size(1)
        input, hx, w = _amp_cast.cast_args("rnn_cell", input, hx, w)  # (CUDA autocast's lstm_cell)
        _check_cell_hidden(input, hx[0], hidden_size, 0)
        _check_cell_hidden(input, hx[1], hidden_size, 1)
        has_bias = w[2] is not None
        _check_mm_dtype(input, w[0], has_bias)
        _check_mm_dtype(hx[0], w[1], has_bias)
        ret = _lstm_step(F.linear(input, w[0], w[2]), (hx[0], hx[1]), w)
        if not is_batched:
            ret = (ret[0].squeeze(0), ret[1].squeeze(0))
        return ret


class GRUCell(RNNCellBase):
    """One GRU step: r, z, n gates as in GRU; returns h'.

    >>> cell = torch.nn.GRUCell(3, 4, bias=False)
    >>> cell
    GRUCell(3, 4, bias=False)
    >>> cell(torch.ones(2, 3), torch.zeros(2, 4)).shape
    torch.Size([2, 4])
    """

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, hx, is_batched = self._prepare("GRUCell", input, hx)
        ret = self._single_step(_gru_step, input, hx)
        return ret if is_batched else ret.squeeze(0)
