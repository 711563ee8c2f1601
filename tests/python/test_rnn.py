"""nn.RNN, nn.LSTM, nn.GRU, their cells and nn.utils.rnn (padding and packing) as PyTorch 2.15
gives them: seeded initialisation, forward values and gradients (recorded from PyTorch; the
recurrences agree to float32 rounding), PackedSequence inputs, argument and shape errors, reprs,
parameter names and order. Run with LEAFGRAD_TEST_TORCH=1 to check the expectations against
PyTorch itself."""
import math

import pytest
from support import exact, record_warnings, run_isolated, warning_texts

import leafgrad as torch
import leafgrad.nn as nn

rnn_utils = torch.nn.utils.rnn
PackedSequence = rnn_utils.PackedSequence


def _close(got, want, rtol=1e-4, atol=1e-5):
    got = [float(v) for v in got]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert abs(g - w) <= atol + rtol * abs(w), (got, want)


def _ramp(*shape, scale=1.0):
    """A deterministic input: sin of 0.37 * index (no RNG)."""
    n = math.prod(shape)
    return (torch.arange(n, dtype=torch.float32) * 0.37).sin().reshape(shape) * scale


def _weights_like(t):
    return (torch.arange(t.numel(), dtype=t.dtype) * 0.71).cos().reshape(t.shape)


def _checksum(t):
    """Two numbers that catch wrong values and wrong places: the sum and a cosine-weighted sum."""
    t = t.detach()
    return [round(float(t.sum()), 6), round(float((t * _weights_like(t)).sum()), 6)]


# ------------------------------------------------------------------ modules: values and gradients
# name: (constructor, input shape, hidden shapes (None: no h0))
MODULE_CASES = {
    "rnn_tanh": (lambda: nn.RNN(3, 4), (5, 2, 3), None),
    "rnn_tanh_h0_nobias": (lambda: nn.RNN(3, 4, bias=False), (5, 2, 3), [(1, 2, 4)]),
    "rnn_relu_2l_bi": (lambda: nn.RNN(3, 4, num_layers=2, nonlinearity="relu", bidirectional=True), (4, 2, 3), None),
    "rnn_unbatched_bf_h0": (lambda: nn.RNN(3, 4, batch_first=True), (5, 3), [(1, 4)]),
    "lstm_h0": (lambda: nn.LSTM(3, 4), (5, 2, 3), [(1, 2, 4), (1, 2, 4)]),
    "lstm_2l_bi_bf": (lambda: nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True), (2, 5, 3), None),
    "lstm_proj_2l_bi_h0": (lambda: nn.LSTM(3, 5, num_layers=2, bidirectional=True, proj_size=2), (4, 2, 3),
                           [(4, 2, 2), (4, 2, 5)]),
    "lstm_proj_unbatched": (lambda: nn.LSTM(3, 4, proj_size=3), (5, 3), None),
    "lstm_unbatched_h0": (lambda: nn.LSTM(3, 4, num_layers=2), (5, 3), [(2, 4), (2, 4)]),
    "gru": (lambda: nn.GRU(3, 4), (5, 2, 3), None),
    "gru_nobias_h0": (lambda: nn.GRU(3, 4, bias=False), (5, 2, 3), [(1, 2, 4)]),
    "gru_2l_bi_bf_h0": (lambda: nn.GRU(3, 4, num_layers=2, bidirectional=True, batch_first=True), (2, 4, 3),
                        [(4, 2, 4)]),
    "gru_unbatched": (lambda: nn.GRU(3, 4, num_layers=2), (5, 3), None),
}


def _run_module_case(name):
    make, in_shape, h_shapes = MODULE_CASES[name]
    torch.manual_seed(0)
    m = make()
    x = _ramp(*in_shape).requires_grad_()
    hs = None if h_shapes is None else [_ramp(*s, scale=0.5).requires_grad_() for s in h_shapes]
    if hs is None:
        out, hidden = m(x)
    else:
        out, hidden = m(x, tuple(hs) if len(hs) == 2 else hs[0])
    hidden = list(hidden) if isinstance(hidden, tuple) else [hidden]
    loss = sum((t * _weights_like(t)).sum() for t in [out] + hidden)
    loss.backward()
    return {
        "shapes": [list(t.shape) for t in [out] + hidden],
        "out": [round(float(v), 6) for v in out.detach().reshape(-1)[:12].tolist()],
        "values": [_checksum(t) for t in [out] + hidden],
        "grads": {n: _checksum(p.grad) for n, p in m.named_parameters()},
        "input_grads": [_checksum(t.grad) for t in [x] + (hs or [])],
    }


@pytest.mark.filterwarnings("ignore:LSTM with projections is not supported with oneDNN")
@pytest.mark.parametrize("name", sorted(MODULE_CASES))
def test_module_values_and_gradients(name):
    got, want = _run_module_case(name), MODULE_EXPECTED[name]
    assert got["shapes"] == want["shapes"]
    _close(got["out"], want["out"])
    for g, w in zip(got["values"], want["values"]):
        _close(g, w)
    assert list(got["grads"]) == list(want["grads"])
    for n in want["grads"]:
        _close(got["grads"][n], want["grads"][n])
    for g, w in zip(got["input_grads"], want["input_grads"]):
        _close(g, w)


# ------------------------------------------------------------------ cells
CELL_CASES = {
    "rnncell": (lambda: nn.RNNCell(3, 4), (2, 3), [(2, 4)]),
    "rnncell_relu_unbatched": (lambda: nn.RNNCell(3, 4, nonlinearity="relu"), (3,), None),
    "lstmcell": (lambda: nn.LSTMCell(3, 4), (2, 3), [(2, 4), (2, 4)]),
    "lstmcell_nobias_unbatched": (lambda: nn.LSTMCell(3, 4, bias=False), (3,), None),
    "grucell": (lambda: nn.GRUCell(3, 4), (2, 3), [(2, 4)]),
    "grucell_unbatched_h0": (lambda: nn.GRUCell(3, 4), (3,), [(4,)]),
}


def _run_cell_case(name):
    make, in_shape, h_shapes = CELL_CASES[name]
    torch.manual_seed(0)
    m = make()
    x = _ramp(*in_shape).requires_grad_()
    hs = None if h_shapes is None else [_ramp(*s, scale=0.5).requires_grad_() for s in h_shapes]
    y = m(x) if hs is None else m(x, tuple(hs) if len(hs) == 2 else hs[0])
    ys = list(y) if isinstance(y, tuple) else [y]
    sum((t * _weights_like(t)).sum() for t in ys).backward()
    return {
        "shapes": [list(t.shape) for t in ys],
        "values": [[round(float(v), 6) for v in t.detach().reshape(-1).tolist()] for t in ys],
        "grads": {n: _checksum(p.grad) for n, p in m.named_parameters()},
        "input_grads": [_checksum(t.grad) for t in [x] + (hs or [])],
    }


@pytest.mark.parametrize("name", sorted(CELL_CASES))
def test_cell_values_and_gradients(name):
    got, want = _run_cell_case(name), CELL_EXPECTED[name]
    assert got["shapes"] == want["shapes"]
    for g, w in zip(got["values"], want["values"]):
        _close(g, w)
    assert list(got["grads"]) == list(want["grads"])
    for n in want["grads"]:
        _close(got["grads"][n], want["grads"][n])
    for g, w in zip(got["input_grads"], want["input_grads"]):
        _close(g, w)


# ------------------------------------------------------------------ initialisation
def test_seeded_lstm_init_is_pytorchs():
    torch.manual_seed(0)
    m = nn.LSTM(3, 4)
    assert [n for n, _ in m.named_parameters()] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"]
    assert m.weight_ih_l0[:3].tolist() == INIT_EXPECTED["weight_ih_head"]
    assert m.bias_hh_l0[-3:].tolist() == INIT_EXPECTED["lstm_bias_hh_tail"]


def test_seeded_init_of_every_layer_is_pytorchs():
    torch.manual_seed(0)
    layers = [nn.RNN(3, 4, num_layers=2, bidirectional=True), nn.GRU(2, 3, bias=False),
              nn.LSTM(3, 5, proj_size=2, num_layers=2), nn.RNNCell(3, 2), nn.LSTMCell(2, 3), nn.GRUCell(2, 2)]
    sums = [[float(p.detach().sum()) for p in m.parameters()] for m in layers]
    assert [len(s) for s in sums] == [len(s) for s in INIT_EXPECTED["sums"]]
    for got, want in zip(sums, INIT_EXPECTED["sums"]):
        _close(got, want, rtol=0, atol=2e-6)


def test_reset_parameters_draws_in_parameter_order():
    m = nn.GRU(2, 4)
    torch.manual_seed(3)
    m.reset_parameters()
    torch.manual_seed(3)
    expected = [torch.empty(p.shape).uniform_(-0.5, 0.5) for p in m.parameters()]
    for p, e in zip(m.parameters(), expected):
        assert torch.equal(p, e)


def test_dtype_and_device_arguments():
    m = nn.LSTM(3, 4, dtype=torch.float64)
    assert {p.dtype for p in m.parameters()} == {torch.float64}
    out, (h, c) = m(torch.ones(2, 1, 3, dtype=torch.float64))
    assert out.dtype == h.dtype == c.dtype == torch.float64
    assert nn.GRUCell(2, 3, dtype=torch.float64).weight_ih.dtype == torch.float64
    assert nn.RNN(2, 3, device="cpu").weight_ih_l0.device.type == "cpu"


# ------------------------------------------------------------------ dropout between layers
def test_dropout_between_layers_in_training_only():
    torch.manual_seed(0)
    m = nn.LSTM(3, 4, num_layers=3, dropout=0.5)
    x = _ramp(4, 2, 3)
    torch.manual_seed(1)
    out_train = m(x)[0]
    _close(out_train.reshape(-1)[:8].tolist(), DROPOUT_EXPECTED["train"])
    m.eval()
    out_eval = m(x)[0]
    _close(out_eval.reshape(-1)[:8].tolist(), DROPOUT_EXPECTED["eval"])
    m.dropout = 0.0
    m.train()
    assert torch.allclose(m(x)[0], out_eval)


def test_dropout_with_one_layer_warns():
    with record_warnings() as caught:
        nn.GRU(3, 4, dropout=0.25)
    assert warning_texts(caught, UserWarning) == [
        "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
        "num_layers greater than 1, but got dropout=0.25 and num_layers=1"
    ]
    with record_warnings() as caught:
        nn.GRU(3, 4, num_layers=2, dropout=0.25)
    assert warning_texts(caught) == []


def test_lstm_with_projection_warns_once_on_cpu():
    _, err = run_isolated("""
        import warnings
        import leafgrad as torch
        m = torch.nn.LSTM(3, 4, proj_size=2)
        m(torch.zeros(5, 2, 3))
        m(torch.zeros(5, 2, 3))
    """)
    assert err.count("UserWarning: LSTM with projections is not supported with oneDNN. Using default "
                     "implementation.") == 1


# ------------------------------------------------------------------ packed sequences
def test_lstm_over_packed_sequence_matches_pytorch():
    torch.manual_seed(0)
    m = nn.LSTM(3, 4, bidirectional=True)
    seqs = [_ramp(n, 3, scale=s).requires_grad_() for n, s in [(3, 1.0), (5, 0.5), (1, -1.0), (3, 2.0)]]
    h0 = _ramp(2, 4, 4, scale=0.3).requires_grad_()
    c0 = _ramp(2, 4, 4, scale=-0.2).requires_grad_()
    packed = rnn_utils.pack_sequence(seqs, enforce_sorted=False)
    assert packed.batch_sizes.tolist() == [4, 3, 3, 1, 1]
    assert packed.sorted_indices.tolist() == [1, 0, 3, 2]
    out, (h, c) = m(packed, (h0, c0))
    assert isinstance(out, PackedSequence)
    assert out.batch_sizes.tolist() == [4, 3, 3, 1, 1]
    assert out.sorted_indices.tolist() == [1, 0, 3, 2] and out.unsorted_indices.tolist() == [1, 0, 3, 2]
    padded, lengths = rnn_utils.pad_packed_sequence(out, batch_first=True)
    assert lengths.tolist() == [3, 5, 1, 3]
    assert list(padded.shape) == [4, 5, 8]
    assert padded[2, 1:].abs().sum().item() == 0.0  # padding
    sum((t * _weights_like(t)).sum() for t in (padded, h, c)).backward()
    want = PACKED_EXPECTED["lstm_bi"]
    for g, w in zip([_checksum(t) for t in (padded, h, c)], want["values"]):
        _close(g, w)
    for g, w in zip([_checksum(p.grad) for p in m.parameters()], want["grads"]):
        _close(g, w)
    for g, w in zip([_checksum(t.grad) for t in seqs + [h0, c0]], want["input_grads"]):
        _close(g, w)


def test_packed_equals_running_each_sequence_alone():
    torch.manual_seed(0)
    for m in [nn.GRU(3, 4, num_layers=2, bidirectional=True), nn.RNN(3, 4), nn.LSTM(3, 4, proj_size=2)]:
        seqs = [_ramp(n, 3, scale=s) for n, s in [(4, 1.0), (2, -0.5), (3, 0.7)]]
        out, hidden = m(rnn_utils.pack_sequence(seqs, enforce_sorted=False))
        padded, lengths = rnn_utils.pad_packed_sequence(out)
        for i, s in enumerate(seqs):
            alone, hidden_alone = m(s)
            assert torch.allclose(padded[: len(s), i], alone, atol=1e-6)
            if isinstance(hidden, tuple):
                assert torch.allclose(hidden[0][:, i], hidden_alone[0], atol=1e-6)
                assert torch.allclose(hidden[1][:, i], hidden_alone[1], atol=1e-6)
            else:
                assert torch.allclose(hidden[:, i], hidden_alone, atol=1e-6)


def test_pad_sequence():
    a, b, c = torch.tensor([1, 2, 3]), torch.tensor([4, 5]), torch.tensor([6])
    assert rnn_utils.pad_sequence([a, b, c]).tolist() == [[1, 4, 6], [2, 5, 0], [3, 0, 0]]
    assert rnn_utils.pad_sequence([a, b, c], batch_first=True, padding_value=-1).tolist() == [
        [1, 2, 3], [4, 5, -1], [6, -1, -1]]
    assert rnn_utils.pad_sequence([a, b, c], batch_first=True, padding_side="left").tolist() == [
        [1, 2, 3], [0, 4, 5], [0, 0, 6]]
    # the first sequence's dtype; trailing dimensions kept
    assert rnn_utils.pad_sequence([a, b], padding_value=0.5).tolist() == [[1, 4], [2, 5], [3, 0]]
    out = rnn_utils.pad_sequence([torch.ones(2, 2), torch.zeros(1, 2, dtype=torch.float64)], batch_first=True)
    assert out.dtype == torch.float32 and list(out.shape) == [2, 2, 2]
    # a tensor is an iterable of sequences
    assert list(rnn_utils.pad_sequence(torch.ones(2, 3)).shape) == [3, 2]


def test_pad_sequence_gradient():
    xs = [_ramp(n, 2).requires_grad_() for n in (2, 3)]
    out = rnn_utils.pad_sequence(xs, batch_first=True, padding_side="left", padding_value=7.0)
    assert out[0, 0].tolist() == [7.0, 7.0]
    (out * _weights_like(out)).sum().backward()
    w = _weights_like(out)
    assert torch.equal(xs[0].grad, w[0, 1:])
    assert torch.equal(xs[1].grad, w[1])


def test_pack_padded_and_pad_packed_round_trip():
    padded = torch.tensor([[1., 2., 3.], [4., 5., 0.], [6., 0., 0.]])
    p = rnn_utils.pack_padded_sequence(padded, [3, 2, 1], batch_first=True)
    assert p.data.tolist() == [1.0, 4.0, 6.0, 2.0, 5.0, 3.0]
    assert p.batch_sizes.tolist() == [3, 2, 1] and p.batch_sizes.dtype == torch.int64
    assert p.sorted_indices is None and p.unsorted_indices is None
    back, lengths = rnn_utils.pad_packed_sequence(p, batch_first=True, padding_value=-1.0, total_length=4)
    assert back.tolist() == [[1., 2., 3., -1.], [4., 5., -1., -1.], [6., -1., -1., -1.]]
    assert lengths.tolist() == [3, 2, 1] and lengths.dtype == torch.int64
    # unsorted lengths (time-major input), lengths given as a tensor
    p = rnn_utils.pack_padded_sequence(padded.t(), torch.tensor([1, 3, 2]), enforce_sorted=False)
    assert p.sorted_indices.tolist() == [1, 2, 0] and p.unsorted_indices.tolist() == [2, 0, 1]
    assert p.data.tolist() == [4.0, 6.0, 1.0, 5.0, 0.0, 0.0]
    back, lengths = rnn_utils.pad_packed_sequence(p)
    assert lengths.tolist() == [1, 3, 2]
    assert back.tolist() == [[1.0, 4.0, 6.0], [0.0, 5.0, 0.0], [0.0, 0.0, 0.0]]


def test_pack_padded_sequence_gradient():
    x = _ramp(4, 3, 2).requires_grad_()
    p = rnn_utils.pack_padded_sequence(x, [2, 4, 1], enforce_sorted=False)
    (p.data * _weights_like(p.data)).sum().backward()
    _close(_checksum(x.grad), PACKED_EXPECTED["pack_grad"])
    assert x.grad[2:, 0].abs().sum().item() == 0.0 and x.grad[1:, 2].abs().sum().item() == 0.0


def test_pack_sequence_unpack_sequence_unpad_sequence():
    seqs = [torch.tensor([1., 2.]), torch.tensor([3., 4., 5.]), torch.tensor([6.])]
    p = rnn_utils.pack_sequence(seqs, enforce_sorted=False)
    assert p.data.tolist() == [3., 1., 6., 4., 2., 5.]
    assert p.batch_sizes.tolist() == [3, 2, 1]
    assert [s.tolist() for s in rnn_utils.unpack_sequence(p)] == [[1., 2.], [3., 4., 5.], [6.]]
    padded = rnn_utils.pad_sequence(seqs)
    lengths = torch.tensor([2, 3, 1])
    assert [s.tolist() for s in rnn_utils.unpad_sequence(padded, lengths)] == [[1., 2.], [3., 4., 5.], [6.]]
    assert list(padded.shape) == [3, 3]  # PyTorch transposes the time-major input in place
    assert padded.tolist() == [[1., 2., 0.], [3., 4., 5.], [6., 0., 0.]]
    with pytest.raises(RuntimeError, match=exact("`lengths` array must be sorted in decreasing order when "
                                                 "`enforce_sorted` is True. You can pass `enforce_sorted=False` to "
                                                 "pack_padded_sequence and/or pack_sequence to sidestep this "
                                                 "requirement if you do not need ONNX exportability.")):
        rnn_utils.pack_sequence(seqs)


def test_packed_sequence_is_a_named_tuple():
    p = PackedSequence(torch.tensor([1., 2., 3.]), torch.tensor([2, 1]))
    assert p._fields == ("data", "batch_sizes", "sorted_indices", "unsorted_indices")
    assert isinstance(p, tuple) and len(p) == 4
    data, batch_sizes, sorted_indices, unsorted_indices = p
    assert sorted_indices is None and unsorted_indices is None
    q = PackedSequence((torch.tensor([1., 2., 3.]), torch.tensor([2, 1])), sorted_indices=torch.tensor([1, 0]))
    assert q.unsorted_indices.tolist() == [1, 0]
    assert repr(p) == ("PackedSequence(data=tensor([1., 2., 3.]), batch_sizes=tensor([2, 1]), "
                       "sorted_indices=None, unsorted_indices=None)")
    assert p.double().data.dtype == torch.float64 and p.double().batch_sizes.dtype == torch.int64
    assert p.to(torch.float32) is p
    assert not p.is_cuda
    with pytest.raises(AssertionError, match=exact("Expected data to be a list or tuple of length 2")):
        PackedSequence(torch.ones(3))
    assert rnn_utils.invert_permutation(torch.tensor([2, 0, 3, 1])).tolist() == [1, 3, 0, 2]
    assert rnn_utils.invert_permutation(None) is None


UTIL_ERRORS = [
    (lambda: rnn_utils.pad_sequence([]), RuntimeError, "received an empty list of sequences"),
    (lambda: rnn_utils.pad_sequence(5), RuntimeError,
     "pad_sequence: Expected iterable for input sequences, but got arg of type: <class 'int'>"),
    (lambda: rnn_utils.pad_sequence([torch.zeros(2, 3), torch.zeros(3, 4)]), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"),
    (lambda: rnn_utils.pad_sequence([torch.zeros(2)], padding_side="middle"), RuntimeError,
     "Expected padding_side to be one of left or right, but got middle."),
    (lambda: rnn_utils.pack_padded_sequence(torch.zeros(3, 2), [3, 2, 1]), RuntimeError,
     "Expected `len(lengths)` to be equal to batch_size, but got 3 (batch_size=2)"),
    (lambda: rnn_utils.pack_padded_sequence(torch.zeros(3, 2), [3, 0]), RuntimeError,
     "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0"),
    (lambda: rnn_utils.pack_padded_sequence(torch.zeros(3, 2), torch.tensor([[3, 2]])), RuntimeError,
     "'lengths' argument should be a 1D CPU int64 tensor, but got 2D cpu Long tensor"),
    (lambda: rnn_utils.pack_padded_sequence(torch.zeros(0, 2), [0, 0]), RuntimeError, "Cannot pack empty tensors."),
    (lambda: rnn_utils.pad_packed_sequence(rnn_utils.pack_sequence([torch.ones(3)]), total_length=2), ValueError,
     "Expected total_length to be at least the length of the longest sequence in input, but got total_length=2 "
     "and max sequence length being 3"),
]


@pytest.mark.parametrize("case", range(len(UTIL_ERRORS)))
def test_rnn_utils_errors(case):
    fn, exc, text = UTIL_ERRORS[case]
    with pytest.raises(exc, match=exact(text)):
        fn()


# ------------------------------------------------------------------ parameters, reprs, state_dict
def test_parameter_names_order_and_shapes():
    m = nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2)
    assert [(k, list(v.shape)) for k, v in m.state_dict().items()] == [
        ("weight_ih_l0", [16, 3]), ("weight_hh_l0", [16, 2]), ("bias_ih_l0", [16]), ("bias_hh_l0", [16]),
        ("weight_hr_l0", [2, 4]),
        ("weight_ih_l0_reverse", [16, 3]), ("weight_hh_l0_reverse", [16, 2]), ("bias_ih_l0_reverse", [16]),
        ("bias_hh_l0_reverse", [16]), ("weight_hr_l0_reverse", [2, 4]),
        ("weight_ih_l1", [16, 4]), ("weight_hh_l1", [16, 2]), ("bias_ih_l1", [16]), ("bias_hh_l1", [16]),
        ("weight_hr_l1", [2, 4]),
        ("weight_ih_l1_reverse", [16, 4]), ("weight_hh_l1_reverse", [16, 2]), ("bias_ih_l1_reverse", [16]),
        ("bias_hh_l1_reverse", [16]), ("weight_hr_l1_reverse", [2, 4]),
    ]
    g = nn.GRU(2, 3, bias=False, num_layers=2)
    assert [n for n, _ in g.named_parameters()] == ["weight_ih_l0", "weight_hh_l0", "weight_ih_l1", "weight_hh_l1"]
    assert g._flat_weights_names == ["weight_ih_l0", "weight_hh_l0", "weight_ih_l1", "weight_hh_l1"]
    assert g._all_weights == [["weight_ih_l0", "weight_hh_l0"], ["weight_ih_l1", "weight_hh_l1"]]
    assert [[list(p.shape) for p in ws] for ws in g.all_weights] == [[[9, 2], [9, 3]], [[9, 3], [9, 3]]]
    assert g.all_weights[1][0] is g.weight_ih_l1 and g._flat_weights[3] is g.weight_hh_l1
    c = nn.LSTMCell(3, 4, bias=False)
    assert [n for n, _ in c.named_parameters()] == ["weight_ih", "weight_hh"] and c.bias_ih is None
    assert [(k, list(v.shape)) for k, v in nn.GRUCell(3, 4).state_dict().items()] == [
        ("weight_ih", [12, 3]), ("weight_hh", [12, 4]), ("bias_ih", [12]), ("bias_hh", [12])]
    r = nn.RNN(3, 4, nonlinearity="relu")
    assert (r.mode, r.nonlinearity, nn.LSTM(3, 4).mode, nn.GRU(3, 4).mode) == ("RNN_RELU", "relu", "LSTM", "GRU")


def test_load_state_dict_and_replaced_weights():
    torch.manual_seed(0)
    a, b = nn.GRU(3, 4), nn.GRU(3, 4)
    b.load_state_dict(a.state_dict())
    x = _ramp(2, 1, 3)
    assert torch.equal(a(x)[0], b(x)[0])
    b.weight_hh_l0 = nn.Parameter(torch.zeros(12, 4))
    assert b._flat_weights[1] is b.weight_hh_l0
    assert not torch.equal(a(x)[0], b(x)[0])
    assert b.flatten_parameters() is None
    c = nn.GRU(3, 4).double()
    assert c._flat_weights[0].dtype == torch.float64


REPRS = [
    (lambda: nn.LSTM(3, 4, num_layers=2, batch_first=True), "LSTM(3, 4, num_layers=2, batch_first=True)"),
    (lambda: nn.LSTM(3, 4, 2, False, True, 0.5, True, 2),
     "LSTM(3, 4, proj_size=2, num_layers=2, bias=False, batch_first=True, dropout=0.5, bidirectional=True)"),
    (lambda: nn.RNN(3, 4, 1, "relu", False), "RNN(3, 4, bias=False)"),
    (lambda: nn.GRU(3, 4, num_layers=3, dropout=0.25), "GRU(3, 4, num_layers=3, dropout=0.25)"),
    (lambda: nn.RNNBase("LSTM", 3, 4), "RNNBase(3, 4)"),
    (lambda: nn.RNNCell(3, 4, nonlinearity="relu", bias=False), "RNNCell(3, 4, bias=False, nonlinearity=relu)"),
    (lambda: nn.LSTMCell(3, 4), "LSTMCell(3, 4)"),
    (lambda: nn.GRUCell(3, 4, bias=False), "GRUCell(3, 4, bias=False)"),
    (lambda: nn.Sequential(nn.LSTM(2, 3)), "Sequential(\n  (0): LSTM(2, 3)\n)"),
]


@pytest.mark.parametrize("case", range(len(REPRS)))
def test_reprs(case):
    make, text = REPRS[case]
    assert repr(make()) == text


# ------------------------------------------------------------------ errors
CONSTRUCTOR_ERRORS = [
    (lambda: nn.RNN(3, 4, nonlinearity="sigmoid"), ValueError,
     "Unknown nonlinearity 'sigmoid'. Select from 'tanh' or 'relu'."),
    (lambda: nn.RNN(3, 4, proj_size=2), ValueError, "proj_size argument is only supported for LSTM, not RNN or GRU"),
    (lambda: nn.GRU(3, 4, proj_size=2), ValueError, "proj_size argument is only supported for LSTM, not RNN or GRU"),
    (lambda: nn.LSTM(3, 4, proj_size=4), ValueError, "proj_size has to be smaller than hidden_size"),
    (lambda: nn.LSTM(3, 4, proj_size=-1), ValueError,
     "proj_size should be a positive integer or zero to disable projections"),
    (lambda: nn.LSTM(3, 4, dropout=1.5), ValueError,
     "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"),
    (lambda: nn.LSTM(3, 4, dropout=True), ValueError,
     "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"),
    (lambda: nn.LSTM(3, 4, bias=1), TypeError, "bias should be of type bool, got: int"),
    (lambda: nn.LSTM(3, 4, batch_first=1), TypeError, "batch_first should be of type bool, got: int"),
    (lambda: nn.LSTM(3.0, 4), TypeError, "input_size should be of type int, got: float"),
    (lambda: nn.LSTM(0, 4), ValueError, "input_size must be greater than zero"),
    (lambda: nn.GRU(3, 4.0), TypeError, "hidden_size should be of type int, got: float"),
    (lambda: nn.GRU(3, 0), ValueError, "hidden_size must be greater than zero"),
    (lambda: nn.RNN(3, 4, 0), ValueError, "num_layers must be greater than zero"),
    (lambda: nn.RNNBase("FOO", 3, 4), ValueError, "Unrecognized RNN mode: FOO"),
]


@pytest.mark.parametrize("case", range(len(CONSTRUCTOR_ERRORS)))
def test_constructor_errors(case):
    fn, exc, text = CONSTRUCTOR_ERRORS[case]
    with pytest.raises(exc, match=exact(text)):
        fn()


def _lstm():
    return nn.LSTM(3, 4)


FORWARD_ERRORS = [
    (lambda: _lstm()(torch.zeros(5, 2, 2)), RuntimeError,
     "input.size(-1) must be equal to input_size. Expected 3, got 2"),
    (lambda: _lstm()(torch.zeros(5)), ValueError, "LSTM: Expected input to be 2D or 3D, got 1D instead"),
    (lambda: _lstm()(torch.zeros(5, 2, 2, 3)), ValueError, "LSTM: Expected input to be 2D or 3D, got 4D instead"),
    (lambda: _lstm()(torch.zeros(5, 2, 3), (torch.zeros(1, 3, 4), torch.zeros(1, 2, 4))), RuntimeError,
     "Expected hidden[0] size (1, 2, 4), got [1, 3, 4]"),
    (lambda: _lstm()(torch.zeros(5, 2, 3), (torch.zeros(1, 2, 4), torch.zeros(1, 2, 5))), RuntimeError,
     "Expected hidden[1] size (1, 2, 4), got [1, 2, 5]"),
    (lambda: _lstm()(torch.zeros(5, 2, 3), (torch.zeros(2, 4), torch.zeros(1, 2, 4))), RuntimeError,
     "For batched 3-D input, hx and cx should also be 3-D but got (2-D, 3-D) tensors"),
    (lambda: _lstm()(torch.zeros(5, 3), (torch.zeros(1, 2, 4), torch.zeros(1, 2, 4))), RuntimeError,
     "For unbatched 2-D input, hx and cx should also be 2-D but got (3-D, 3-D) tensors"),
    (lambda: _lstm()(torch.zeros(5, 2, 3, dtype=torch.float64)), ValueError,
     "RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: "
     "input.to(torch.float32), or convert model: model.to(torch.float64)"),
    (lambda: _lstm()(torch.zeros(0, 2, 3)), RuntimeError, "Expected sequence length to be larger than 0 in RNN"),
    (lambda: _lstm()(torch.zeros(5, 2, 3), tuple(torch.zeros(1, 2, 4) for _ in range(3))), RuntimeError,
     "lstm expects two hidden states"),
    (lambda: nn.LSTM(3, 4, proj_size=2)(torch.zeros(5, 2, 3), (torch.zeros(1, 2, 4), torch.zeros(1, 2, 4))),
     RuntimeError, "Expected hidden[0] size (1, 2, 2), got [1, 2, 4]"),
    (lambda: nn.GRU(3, 4)(torch.zeros(5)), ValueError, "GRU: Expected input to be 2D or 3D, got 1D instead"),
    (lambda: nn.GRU(3, 4)(torch.zeros(5, 2, 3), torch.zeros(2, 4)), RuntimeError,
     "For batched 3-D input, hx should also be 3-D but got 2-D tensor"),
    (lambda: nn.GRU(3, 4)(torch.zeros(5, 3), torch.zeros(1, 2, 4)), RuntimeError,
     "For unbatched 2-D input, hx should also be 2-D but got 3-D tensor"),
    (lambda: nn.GRU(3, 4)(torch.zeros(5, 2, 3), torch.zeros(1, 3, 4)), RuntimeError,
     "Expected hidden size (1, 2, 4), got [1, 3, 4]"),
    (lambda: nn.GRU(3, 4)(torch.zeros(5, 2, 3), torch.zeros(1, 2, 4, dtype=torch.float64)), RuntimeError,
     "mat1 and mat2 must have the same dtype, but got Double and Float"),
    (lambda: nn.RNN(3, 4)(torch.zeros(5)), ValueError, "RNN: Expected input to be 2D or 3D, got 1D tensor instead"),
    (lambda: nn.RNN(3, 4)(torch.zeros(5, 2, 3), torch.zeros(2, 2, 4)), RuntimeError,
     "Expected hidden size (1, 2, 4), got [2, 2, 4]"),
    (lambda: nn.RNN(3, 4, batch_first=True)(torch.zeros(2, 0, 3)), RuntimeError,
     "Expected sequence length to be larger than 0 in RNN"),
    (lambda: nn.GRU(2, 4)(rnn_utils.pack_sequence([torch.ones(3, 3)])), RuntimeError,
     "input.size(-1) must be equal to input_size. Expected 2, got 3"),
    (lambda: nn.GRU(3, 4)(rnn_utils.pack_sequence([torch.ones(3, 3), torch.ones(2, 3)]), torch.zeros(1, 3, 4)),
     RuntimeError, "Expected hidden size (1, 2, 4), got [1, 3, 4]"),
]

CELL_ERRORS = [
    (lambda: nn.LSTMCell(3, 4)(torch.zeros(2, 2)), RuntimeError, "input has inconsistent input_size: got 2 expected 3"),
    (lambda: nn.LSTMCell(3, 4)(torch.zeros(2, 2, 3)), ValueError,
     "LSTMCell: Expected input to be 1D or 2D, got 3D instead"),
    (lambda: nn.LSTMCell(3, 4)(torch.zeros(2, 3), (torch.zeros(2, 2, 4), torch.zeros(2, 4))), ValueError,
     "LSTMCell: Expected hx[0] to be 1D or 2D, got 3D instead"),
    (lambda: nn.LSTMCell(3, 4)(torch.zeros(2, 3), (torch.zeros(3, 4), torch.zeros(2, 4))), RuntimeError,
     "Input batch size 2 doesn't match hidden0 batch size 3"),
    (lambda: nn.LSTMCell(3, 4)(torch.zeros(2, 3), (torch.zeros(2, 4), torch.zeros(2, 5))), RuntimeError,
     "hidden1 has inconsistent hidden_size: got 5, expected 4"),
    (lambda: nn.LSTMCell(3, 4)(torch.zeros(3), (torch.zeros(4), torch.zeros(2, 4))), RuntimeError,
     "Expected 2D hidden1 (batch x hidden_size), but got 3D tensor"),
    (lambda: nn.LSTMCell(3, 4)(torch.zeros(2, 3), (torch.zeros(2, 4),)), RuntimeError,
     "lstm_cell expects two hidden states"),
    (lambda: nn.LSTMCell(3, 4)(torch.zeros(2, 3), torch.zeros(2, 4)), TypeError,
     "lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not Tensor"),
    (lambda: nn.GRUCell(3, 4)(torch.zeros(2, 3), torch.zeros(2, 2, 4)), ValueError,
     "GRUCell: Expected hidden to be 1D or 2D, got 3D instead"),
    (lambda: nn.GRUCell(3, 4)(torch.zeros(2, 3), torch.zeros(2, 5)), RuntimeError,
     "hidden0 has inconsistent hidden_size: got 5, expected 4"),
    (lambda: nn.GRUCell(3, 4)(torch.zeros(2, 3), torch.zeros(4)), RuntimeError,
     "Expected 2D hidden0 (batch x hidden_size), but got 1D tensor"),
    (lambda: nn.GRUCell(3, 4)(torch.zeros(2, 3, dtype=torch.float64)), RuntimeError,
     "mat1 and mat2 must have the same dtype, but got Double and Float"),
    (lambda: nn.RNNCell(3, 4)(torch.zeros(2, 2, 3)), ValueError,
     "RNNCell: Expected input to be 1D or 2D, got 3D instead"),
    (lambda: nn.RNNCell(3, 4)(torch.zeros(2, 3), torch.zeros(3, 4)), RuntimeError,
     "Input batch size 2 doesn't match hidden0 batch size 3"),
]


@pytest.mark.parametrize("case", range(len(FORWARD_ERRORS)))
def test_forward_errors(case):
    fn, exc, text = FORWARD_ERRORS[case]
    with pytest.raises(exc, match=exact(text)):
        fn()


@pytest.mark.parametrize("case", range(len(CELL_ERRORS)))
def test_cell_errors(case):
    fn, exc, text = CELL_ERRORS[case]
    with pytest.raises(exc, match=exact(text)):
        fn()


def test_unknown_cell_nonlinearity_at_forward():
    cell = nn.RNNCell(3, 4)
    cell.nonlinearity = "foo"
    with pytest.raises(RuntimeError, match=exact("Unknown nonlinearity: foo")):
        cell(torch.zeros(2, 3))


def test_empty_batch():
    out, (h, c) = nn.LSTM(3, 4)(torch.zeros(5, 0, 3))
    assert list(out.shape) == [5, 0, 4] and list(h.shape) == [1, 0, 4] and list(c.shape) == [1, 0, 4]
    assert list(nn.GRUCell(3, 4)(torch.zeros(0, 3)).shape) == [0, 4]


def test_training_a_tiny_lstm_reduces_the_loss():
    torch.manual_seed(0)
    lstm, head = nn.LSTM(2, 8, batch_first=True), nn.Linear(8, 1)
    opt = torch.optim.Adam(list(lstm.parameters()) + list(head.parameters()), lr=0.05)
    x = _ramp(4, 6, 2)
    target = x.sum(dim=(1, 2)).unsqueeze(1)
    losses = []
    for _ in range(15):
        opt.zero_grad()
        out, _ = lstm(x)
        loss = ((head(out[:, -1]) - target) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0] / 4


# ------------------------------------------------------------------ expectations
# Recorded from PyTorch 2.15 (CPU, float32) with the case definitions above.
MODULE_EXPECTED = {'rnn_tanh': {'shapes': [[5, 2, 4], [1, 2, 4]],
              'out': [-0.674716, -0.323884, -0.405972, -0.155911, -0.647325, -0.634693, -0.198274, -0.161313,
                      -0.065174, -0.655878, -0.55525, -0.101714],
              'values': [[-13.22924, 0.079549], [-2.212455, -0.120222]],
              'grads': {'weight_ih_l0': [2.84167, 0.431308],
                        'weight_hh_l0': [0.1717, -1.098193],
                        'bias_ih_l0': [-0.3617, 1.145516],
                        'bias_hh_l0': [-0.3617, 1.145516]},
              'input_grads': [[-0.253505, 0.255461]]},
 'rnn_tanh_h0_nobias': {'shapes': [[5, 2, 4], [1, 2, 4]],
                        'out': [-0.292738, -0.135933, 0.310758, -0.164918, -0.541356, -0.329191, 0.598192,
                                -0.082186, 0.179049, -0.491392, -0.011434, 0.237423],
                        'values': [[-0.681324, 0.454286], [0.21494, -0.366181]],
                        'grads': {'weight_ih_l0': [3.30474, 0.826184], 'weight_hh_l0': [-1.471181, -0.015483]},
                        'input_grads': [[-0.308032, -0.262145], [-0.341077, -0.829403]]},
 'rnn_relu_2l_bi': {'shapes': [[4, 2, 8], [4, 2, 4]],
                    'out': [0.0, 0.0, 0.0, 0.418151, 0.0, 0.019139, 0.413306, 0.0, 0.0, 0.0, 0.0, 0.524892],
                    'values': [[7.806575, -0.155522], [5.665378, -0.261417]],
                    'grads': {'weight_ih_l0': [0.698538, 1.136511],
                              'weight_hh_l0': [0.0, 0.0],
                              'bias_ih_l0': [-0.378547, 0.465734],
                              'bias_hh_l0': [-0.378547, 0.465734],
                              'weight_ih_l0_reverse': [-9.652888, 0.841654],
                              'weight_hh_l0_reverse': [6.103086, -1.004691],
                              'bias_ih_l0_reverse': [3.795921, 2.903008],
                              'bias_hh_l0_reverse': [3.795921, 2.903008],
                              'weight_ih_l1': [2.240833, 0.100891],
                              'weight_hh_l1': [1.29397, -0.438316],
                              'bias_ih_l1': [2.343204, -1.243096],
                              'bias_hh_l1': [2.343204, -1.243096],
                              'weight_ih_l1_reverse': [-3.794508, 2.088481],
                              'weight_hh_l1_reverse': [-3.380661, -0.743194],
                              'bias_ih_l1_reverse': [-2.692474, -0.726875],
                              'bias_hh_l1_reverse': [-2.692474, -0.726875]},
                    'input_grads': [[0.693906, 0.756981]]},
 'rnn_unbatched_bf_h0': {'shapes': [[5, 4], [1, 4]],
                         'out': [-0.735414, -0.457013, -0.219219, -0.199986, -0.222778, -0.72298, -0.520124,
                                 -0.133335, -0.124394, -0.653948, -0.597579, -0.218192],
                         'values': [[-6.971085, -0.852847], [-0.982302, -0.04954]],
                         'grads': {'weight_ih_l0': [-6.295671, 0.875999],
                                   'weight_hh_l0': [0.885389, 1.747904],
                                   'bias_ih_l0': [2.198033, 2.4863],
                                   'bias_hh_l0': [2.198033, 2.4863]},
                         'input_grads': [[-0.491018, 0.242974], [-0.013961, -0.18449]]},
 'lstm_h0': {'shapes': [[5, 2, 4], [1, 2, 4], [1, 2, 4]],
             'out': [0.101262, -0.035567, 0.079564, 0.087797, 0.181147, -0.012028, 0.059182, -0.011445, 0.062427,
                     -0.141914, 0.033933, 0.055723],
             'values': [[1.947885, -0.374602], [0.232114, -0.164181], [0.744928, -0.298799]],
             'grads': {'weight_ih_l0': [2.576151, 0.208221],
                       'weight_hh_l0': [-1.672484, 0.384728],
                       'bias_ih_l0': [-1.333256, 0.208968],
                       'bias_hh_l0': [-1.333256, 0.208968]},
             'input_grads': [[0.427086, 0.86854], [-0.147585, 0.056063], [-0.334916, 1.589667]]},
 'lstm_2l_bi_bf': {'shapes': [[2, 5, 8], [4, 2, 4], [4, 2, 4]],
                   'out': [0.064368, -0.094018, 0.007137, 0.140725, 0.00449, -0.248016, 0.175739, 0.052985,
                           0.086065, -0.164763, -0.007665, 0.171437],
                   'values': [[2.147047, -0.004489], [0.887708, 0.014815], [1.731398, -0.091659]],
                   'grads': {'weight_ih_l0': [-1.676397, 0.267599],
                             'weight_hh_l0': [0.095307, 0.029458],
                             'bias_ih_l0': [-0.891218, -0.503279],
                             'bias_hh_l0': [-0.891218, -0.503279],
                             'weight_ih_l0_reverse': [1.514344, 0.530311],
                             'weight_hh_l0_reverse': [-0.114497, -0.11561],
                             'bias_ih_l0_reverse': [-0.556592, -0.194959],
                             'bias_hh_l0_reverse': [-0.556592, -0.194959],
                             'weight_ih_l1': [-0.236497, 0.288925],
                             'weight_hh_l1': [-0.169765, 0.048516],
                             'bias_ih_l1': [-0.084161, 0.122912],
                             'bias_hh_l1': [-0.084161, 0.122912],
                             'weight_ih_l1_reverse': [0.030168, -0.450875],
                             'weight_hh_l1_reverse': [0.027909, 0.09416],
                             'bias_ih_l1_reverse': [0.535212, 0.777745],
                             'bias_hh_l1_reverse': [0.535212, 0.777745]},
                   'input_grads': [[0.179062, -0.41212]]},
 'lstm_proj_2l_bi_h0': {'shapes': [[4, 2, 4], [4, 2, 2], [4, 2, 5]],
                        'out': [-0.134523, -0.073472, -0.107918, 0.024985, 0.003469, 0.024503, -0.086409,
                                -0.014994, -0.095934, -0.076656, -0.108267, 0.031866],
                        'values': [[-1.665927, -0.329924], [-0.668621, -0.30547], [-0.393803, 0.242242]],
                        'grads': {'weight_ih_l0': [0.838194, 0.904214],
                                  'weight_hh_l0': [-0.180284, 0.239995],
                                  'bias_ih_l0': [0.771809, -0.287088],
                                  'bias_hh_l0': [0.771809, -0.287088],
                                  'weight_hr_l0': [-0.015381, -0.270652],
                                  'weight_ih_l0_reverse': [0.31302, 0.07307],
                                  'weight_hh_l0_reverse': [0.042827, -0.028825],
                                  'bias_ih_l0_reverse': [0.493453, 0.427198],
                                  'bias_hh_l0_reverse': [0.493453, 0.427198],
                                  'weight_hr_l0_reverse': [-0.292182, 0.199321],
                                  'weight_ih_l1': [0.273772, 0.101863],
                                  'weight_hh_l1': [0.164408, 0.052046],
                                  'bias_ih_l1': [-1.538123, 0.63711],
                                  'bias_hh_l1': [-1.538123, 0.63711],
                                  'weight_hr_l1': [2.911335, 0.628932],
                                  'weight_ih_l1_reverse': [0.053544, -0.032567],
                                  'weight_hh_l1_reverse': [0.026947, 0.06157],
                                  'bias_ih_l1_reverse': [-0.436718, 0.733654],
                                  'bias_hh_l1_reverse': [-0.436718, 0.733654],
                                  'weight_hr_l1_reverse': [-0.774092, -0.21317]},
                        'input_grads': [[-0.006382, 0.002998], [-0.070222, -0.082662], [-0.078211, 1.667871]]},
 'lstm_proj_unbatched': {'shapes': [[5, 3], [1, 3], [1, 4]],
                         'out': [0.017259, -0.031157, -0.037581, 0.059958, -0.030888, -0.068362, 0.098162,
                                 -0.024149, -0.066098, 0.04043, -0.042129, -0.022674],
                         'values': [[-0.175785, 0.014547], [-0.068556, -0.056037], [-0.255076, -0.392572]],
                         'grads': {'weight_ih_l0': [-0.143571, 0.346144],
                                   'weight_hh_l0': [-0.023803, -0.048481],
                                   'bias_ih_l0': [0.729149, 1.096272],
                                   'bias_hh_l0': [0.729149, 1.096272],
                                   'weight_hr_l0': [-0.57652, -0.093442]},
                         'input_grads': [[0.348539, -0.017326]]},
 'lstm_unbatched_h0': {'shapes': [[5, 4], [2, 4], [2, 4]],
                       'out': [0.158229, -0.072625, 0.043748, 0.127842, 0.166567, -0.205783, -0.004726, 0.095866,
                               0.152599, -0.245804, -0.027252, 0.100193],
                       'values': [[0.192622, -0.018309], [0.230272, 0.213242], [0.727196, 0.213054]],
                       'grads': {'weight_ih_l0': [-2.710094, -0.062195],
                                 'weight_hh_l0': [0.049819, 0.015909],
                                 'bias_ih_l0': [1.499773, 1.860967],
                                 'bias_hh_l0': [1.499773, 1.860967],
                                 'weight_ih_l1': [-0.112544, -0.107001],
                                 'weight_hh_l1': [0.053066, -0.126136],
                                 'bias_ih_l1': [-1.045684, -1.730128],
                                 'bias_hh_l1': [-1.045684, -1.730128]},
                       'input_grads': [[-0.27372, -0.12358], [-0.103675, 0.048289], [0.105623, -0.049307]]},
 'gru': {'shapes': [[5, 2, 4], [1, 2, 4]],
         'out': [0.160554, -0.007093, -0.304593, -0.297435, 0.269349, -0.214381, -0.368979, -0.286883, 0.205489,
                 -0.181412, -0.432712, -0.459828],
         'values': [[-3.804161, 0.402938], [-0.569402, 0.074762]],
         'grads': {'weight_ih_l0': [1.924646, -0.096287],
                   'weight_hh_l0': [-0.020427, -0.229384],
                   'bias_ih_l0': [0.183231, 0.912135],
                   'bias_hh_l0': [0.21211, 0.450789]},
         'input_grads': [[0.735338, 2.029699]]},
 'gru_nobias_h0': {'shapes': [[5, 2, 4], [1, 2, 4]],
                   'out': [0.143544, 0.083463, 0.086047, 0.069519, 0.479524, -0.001959, 0.078789, -0.061588,
                           0.094046, -0.17683, 0.031089, -0.134744],
                   'values': [[3.942573, -0.744683], [0.636908, -0.259743]],
                   'grads': {'weight_ih_l0': [1.625465, 0.654402], 'weight_hh_l0': [-2.249318, 0.451956]},
                   'input_grads': [[0.94794, 1.338302], [0.146476, 3.672833]]},
 'gru_2l_bi_bf_h0': {'shapes': [[2, 4, 8], [4, 2, 4]],
                     'out': [-0.129087, -0.008979, 0.043193, 0.393268, -0.336001, 0.010952, -0.459256, -0.143675,
                             -0.09881, -0.030523, -0.015982, 0.414734],
                     'values': [[-1.627418, 0.457682], [-1.877445, 0.309023]],
                     'grads': {'weight_ih_l0': [-3.981512, -0.488994],
                               'weight_hh_l0': [0.148888, -0.163491],
                               'bias_ih_l0': [0.796027, 0.184346],
                               'bias_hh_l0': [0.244077, 0.046434],
                               'weight_ih_l0_reverse': [2.868763, -0.630868],
                               'weight_hh_l0_reverse': [0.108171, 0.039886],
                               'bias_ih_l0_reverse': [0.08946, 0.038896],
                               'bias_hh_l0_reverse': [-0.192326, -0.347056],
                               'weight_ih_l1': [-6.76473, 2.173328],
                               'weight_hh_l1': [-4.301728, -0.400271],
                               'bias_ih_l1': [-0.866667, 0.867756],
                               'bias_hh_l1': [-1.137776, 1.032719],
                               'weight_ih_l1_reverse': [4.082569, -0.884594],
                               'weight_hh_l1_reverse': [-0.611636, 0.403546],
                               'bias_ih_l1_reverse': [-1.228865, 1.20028],
                               'bias_hh_l1_reverse': [-0.92426, 0.919439]},
                     'input_grads': [[-0.609343, -0.070495], [1.887617, 4.624083]]},
 'gru_unbatched': {'shapes': [[5, 4], [2, 4]],
                   'out': [-0.063246, -0.058649, 0.017845, 0.018682, -0.103837, -0.132614, 0.12083, -0.001992,
                           -0.145471, -0.166874, 0.207378, -0.020204],
                   'values': [[-1.214288, -0.28431], [-0.319376, 0.59197]],
                   'grads': {'weight_ih_l0': [0.985547, 1.059399],
                             'weight_hh_l0': [-0.437899, -0.239636],
                             'bias_ih_l0': [1.139967, 1.304971],
                             'bias_hh_l0': [0.688375, 0.688718],
                             'weight_ih_l1': [0.492998, 0.136086],
                             'weight_hh_l1': [-0.043689, -0.113914],
                             'bias_ih_l1': [-0.554843, -0.758033],
                             'bias_hh_l1': [-0.140857, -0.294679]},
                   'input_grads': [[0.147622, -0.485729]]}}

CELL_EXPECTED = {'rnncell': {'shapes': [[2, 4]],
             'values': [[-0.735414, -0.457013, -0.219219, -0.199986, -0.846856, -0.603523, 0.145075, -0.118099]],
             'grads': {'weight_ih': [-2.221399, 0.533201],
                       'weight_hh': [-1.019288, -0.184646],
                       'bias_ih': [-0.337391, 0.29572],
                       'bias_hh': [-0.337391, 0.29572]},
             'input_grads': [[-0.102112, -0.193066], [-0.426701, -0.067684]]},
 'rnncell_relu_unbatched': {'shapes': [[4]],
                            'values': [[0.0, 0.0, 0.0, 0.0]],
                            'grads': {'weight_ih': [0.0, 0.0],
                                      'weight_hh': [0.0, 0.0],
                                      'bias_ih': [0.0, 0.0],
                                      'bias_hh': [0.0, 0.0]},
                            'input_grads': [[0.0, 0.0]]},
 'lstmcell': {'shapes': [[2, 4], [2, 4]],
              'values': [[0.101262, -0.035567, 0.079564, 0.087797, 0.181147, -0.012028, 0.059182, -0.011445],
                         [0.199387, -0.079663, 0.196578, 0.168056, 0.323681, -0.020992, 0.204588, -0.021764]],
              'grads': {'weight_ih': [-2.532377, -0.604377],
                        'weight_hh': [-1.1292, -0.010635],
                        'bias_ih': [-0.328304, 0.504433],
                        'bias_hh': [-0.328304, 0.504433]},
              'input_grads': [[0.02845, -0.031794], [-0.128221, -0.050311], [-0.583085, 2.607172]]},
 'lstmcell_nobias_unbatched': {'shapes': [[4], [4]],
                               'values': [[0.081588, -0.045461, -0.013092, -0.111249],
                                          [0.142636, -0.099313, -0.032879, -0.195141]],
                               'grads': {'weight_ih': [1.198038, 0.306718], 'weight_hh': [0.0, 0.0]},
                               'input_grads': [[0.13042, -0.136165]]},
 'grucell': {'shapes': [[2, 4]],
             'values': [[0.12396, 0.176505, -0.166382, -0.029289, 0.5173, 0.071681, -0.203872, -0.073803]],
             'grads': {'weight_ih': [-2.564178, -0.472036],
                       'weight_hh': [-0.899487, 0.3275],
                       'bias_ih': [-0.596721, 0.188222],
                       'bias_hh': [-0.48071, 0.241454]},
             'input_grads': [[0.013988, -0.265845], [-0.028228, 2.393139]]},
 'grucell_unbatched_h0': {'shapes': [[4]],
                          'values': [[0.12396, 0.176505, -0.166382, -0.029289]],
                          'grads': {'weight_ih': [0.491352, 0.352418],
                                    'weight_hh': [0.16022, 0.135604],
                                    'bias_ih': [0.474322, 0.670634],
                                    'bias_hh': [0.165894, 0.340999]},
                          'input_grads': [[-0.129245, -0.242505], [0.914716, 1.227373]]}}

INIT_EXPECTED = {'weight_ih_head': [[-0.003743410110473633, 0.26822179555892944, -0.4115225672721863],
                    [-0.3679695129394531, -0.19257718324661255, 0.13407868146896362],
                    [-0.009906589984893799, 0.39644473791122437, -0.04437202215194702]],
 'lstm_bias_hh_tail': [0.3175279498100281, 0.474706768989563, -0.036160826683044434],
 'sums': [[-0.348429, -0.226151, -0.204251, -1.371857, -0.019345, 0.266766, 0.34632, 0.221739, 0.64059, -0.947967,
           0.218794, -1.144699, -1.307018, -0.935747, -0.285122, 0.445597],
          [-0.294071, -1.295945],
          [-0.618623, 0.536937, 1.816239, 0.104409, -0.240283, 2.800147, -0.757058, -1.199895, 0.218175, 1.128641],
          [0.188585, 0.377635, 0.144842, 0.077296], [-2.205731, -0.836862, 0.72986, 0.590558],
          [0.845781, -0.510431, 0.283016, -0.978705]]}

DROPOUT_EXPECTED = {'train': [-0.068343, -0.050779, -0.112466, 0.046971, -0.093869, -0.040051, -0.167711, 0.03247],
 'eval': [-0.07927, -0.047403, -0.140125, 0.035701, -0.079555, -0.048485, -0.141157, 0.033691]}

PACKED_EXPECTED = {'lstm_bi': {'values': [[-1.868378, -0.23518], [-0.249081, 0.202908], [-0.526928, 0.523377]],
             'grads': [[-5.72622, 1.314347], [0.033946, 0.013812], [-4.651674, -3.560688], [-4.651673, -3.560688],
                       [-1.628523, 1.524667], [-0.135116, 0.049843], [0.997968, 2.086975], [0.997968, 2.086975]],
             'input_grads': [[-0.114309, 0.234649], [1.779672, -0.163233], [-0.431798, -0.325101],
                             [1.020193, 0.247619], [0.668716, -0.145379], [2.622315, 5.555913]]},
 'pack_grad': [0.27051, 1.149717]}
