"""nn.Module, the layers, losses and nn.init (SPEC §10, §15; issue 3 "nn, functional, optim").

Written against the PyTorch API; every test also passes with LEAFGRAD_TEST_TORCH=1.
"""

import math
import warnings
from collections import OrderedDict

import leafgrad as torch
import pytest
from leafgrad import nn
from leafgrad.nn import functional as F
from support import exact, record_warnings


def leaf_flags(p):
    return (type(p) is nn.Parameter, p.is_leaf, p.requires_grad, p.grad_fn is None)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(3, 2, bias=False)
        self.scale = nn.Parameter(torch.ones(2))
        self.register_buffer("steps", torch.zeros(1))
        self.register_buffer("scratch", torch.zeros(2), persistent=False)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x))) * self.scale


# ----------------------------------------------------------------------------- Linear, Parameter
def test_linear_parameters_are_leaf_parameters():
    lin = nn.Linear(3, 2)
    assert repr(lin) == "Linear(in_features=3, out_features=2, bias=True)"
    assert lin.weight.shape == torch.Size([2, 3])
    assert lin.bias.shape == torch.Size([2])
    for p in (lin.weight, lin.bias):
        assert leaf_flags(p) == (True, True, True, True)
        assert p.grad is None
        assert p.dtype == torch.float32
    assert repr(lin.weight).startswith("Parameter containing:\ntensor([[")
    assert repr(lin.weight).endswith("], requires_grad=True)")


def test_linear_without_bias():
    lin = nn.Linear(3, 2, bias=False)
    assert lin.bias is None
    assert repr(lin) == "Linear(in_features=3, out_features=2, bias=False)"
    assert [n for n, _ in lin.named_parameters()] == ["weight"]
    assert "bias" in lin._parameters


def test_parameters_is_a_generator_in_registration_order():
    lin = nn.Linear(3, 2)
    gen = lin.parameters()
    assert iter(gen) is gen
    assert [n for n, _ in lin.named_parameters()] == ["weight", "bias"]
    assert [p is q for p, q in zip(lin.parameters(), (lin.weight, lin.bias))] == [True, True]


def test_linear_forward_backward_grads():
    lin = nn.Linear(3, 2)
    lin(torch.ones(4, 3)).sum().backward()
    assert torch.equal(lin.weight.grad, torch.full((2, 3), 4.0))
    assert torch.equal(lin.bias.grad, torch.tensor([4.0, 4.0]))


def test_linear_default_init_bounds():
    torch.manual_seed(0)
    lin = nn.Linear(50, 40)
    bound = 1 / math.sqrt(50)
    assert lin.weight.abs().max().item() <= bound
    assert lin.bias.abs().max().item() <= bound
    # a uniform spread, not a constant
    assert lin.weight.std().item() > bound / 3


def test_linear_forward_matches_functional():
    lin = nn.Linear(3, 2)
    x = torch.randn(5, 3)
    assert torch.allclose(lin(x), x @ lin.weight.t() + lin.bias)


def test_dtype_argument():
    lin = nn.Linear(3, 2, dtype=torch.float64)
    assert lin.weight.dtype == torch.float64 and lin.bias.dtype == torch.float64


# ----------------------------------------------------------------------------- registration
def test_attribute_registration():
    net = Net()
    assert list(net._parameters) == ["scale"]
    assert list(net._modules) == ["fc1", "act", "fc2"]
    assert list(net._buffers) == ["steps", "scratch"]
    assert [n for n, _ in net.named_parameters()] == ["scale", "fc1.weight", "fc1.bias", "fc2.weight"]
    assert [n for n, _ in net.named_buffers()] == ["steps", "scratch"]
    assert [n for n, _ in net.named_children()] == ["fc1", "act", "fc2"]
    assert [n for n, _ in net.named_modules()] == ["", "fc1", "act", "fc2"]
    assert list(net.children())[0] is net.fc1
    assert list(net.modules())[0] is net
    assert "scale" not in net.__dict__ and "fc1" not in net.__dict__


def test_named_parameters_non_recursive_and_prefix():
    net = Net()
    assert [n for n, _ in net.named_parameters(recurse=False)] == ["scale"]
    assert [n for n, _ in net.named_parameters(prefix="model")][:2] == ["model.scale", "model.fc1.weight"]


def test_assigning_plain_tensor_to_parameter_name():
    m = nn.Module()
    m.w = nn.Parameter(torch.ones(2))
    with pytest.raises(TypeError, match=exact(
        "cannot assign 'torch.FloatTensor' as parameter 'w' (torch.nn.Parameter or None expected)"
    )):
        m.w = torch.ones(2)
    m.w = None
    assert m.w is None
    assert "w" in m._parameters
    assert list(m.parameters()) == []


def test_assigning_non_module_to_module_name():
    m = nn.Module()
    m.sub = nn.Linear(1, 1)
    with pytest.raises(TypeError, match=exact(
        "cannot assign 'int' as child module 'sub' (torch.nn.Module or None expected)"
    )):
        m.sub = 3


def test_assigning_before_init():
    class Bad(nn.Module):
        def __init__(self):
            self.lin = nn.Linear(1, 1)

    with pytest.raises(AttributeError, match=exact("cannot assign module before Module.__init__() call")):
        Bad()

    class BadParam(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(torch.ones(1))

    with pytest.raises(AttributeError, match=exact("cannot assign parameters before Module.__init__() call")):
        BadParam()


def test_register_parameter_errors():
    m = nn.Module()
    m.plain = 1
    with pytest.raises(KeyError) as info:
        m.register_parameter("a.b", nn.Parameter(torch.ones(1)))
    assert info.value.args == ('parameter name can\'t contain "."',)
    with pytest.raises(KeyError) as info:
        m.register_parameter("", nn.Parameter(torch.ones(1)))
    assert info.value.args == ('parameter name can\'t be empty string ""',)
    with pytest.raises(KeyError) as info:
        m.register_parameter("plain", nn.Parameter(torch.ones(1)))
    assert info.value.args == ("attribute 'plain' already exists",)
    with pytest.raises(TypeError, match=exact(
        "cannot assign 'torch.FloatTensor' object to parameter 'x' (torch.nn.Parameter or None required)"
    )):
        m.register_parameter("x", torch.ones(1))


def test_add_module_errors():
    m = nn.Module()
    with pytest.raises(TypeError, match=exact("int is not a Module subclass")):
        m.add_module("x", 3)
    m.add_module("lin", nn.Linear(1, 1))
    m.register_module("lin2", nn.Linear(1, 1))
    assert list(m._modules) == ["lin", "lin2"]


def test_register_buffer_errors_and_assignment():
    m = nn.Module()
    m.register_buffer("b", torch.zeros(2))
    m.b = torch.ones(2)
    assert torch.equal(m._buffers["b"], torch.ones(2))
    with pytest.raises(TypeError, match="cannot assign 'int' as buffer 'b'"):
        m.b = 3
    with pytest.raises(TypeError, match="cannot assign 'int' object to buffer 'c'"):
        m.register_buffer("c", 3)


def test_parameter_replaces_plain_attribute():
    m = nn.Module()
    m.x = 5
    m.x = nn.Parameter(torch.ones(1))
    assert "x" not in m.__dict__ and "x" in m._parameters


def test_getattr_error_message():
    lin = nn.Linear(1, 1)
    with pytest.raises(AttributeError, match=exact("'Linear' object has no attribute 'nope'")):
        lin.nope


def test_delattr():
    net = Net()
    del net.scale
    del net.fc2
    del net.steps
    assert "scale" not in net._parameters
    assert "fc2" not in net._modules
    assert "steps" not in net._buffers
    net.plain = 1
    del net.plain
    assert not hasattr(net, "plain")


def test_dir_lists_registered_names():
    net = Net()
    names = dir(net)
    for name in ("fc1", "scale", "steps", "forward", "training"):
        assert name in names
    assert names == sorted(names)
    seq = nn.Sequential(nn.ReLU())
    assert "0" not in dir(seq)


def test_shared_modules_and_parameters_are_listed_once():
    shared = nn.Linear(2, 2)
    seq = nn.Sequential(shared, nn.ReLU(), shared)
    assert len(list(seq.modules())) == 3
    assert [n for n, _ in seq.named_parameters()] == ["0.weight", "0.bias"]
    assert len(list(seq.named_parameters(remove_duplicate=False))) == 4


def test_missing_forward():
    with pytest.raises(NotImplementedError, match=exact('Module [Module] is missing the required "forward" function')):
        nn.Module()(torch.ones(1))


def test_unexpected_init_arguments():
    with pytest.raises(TypeError, match=exact("Module.__init__() got an unexpected keyword argument 'foo'")):
        nn.Module(foo=1)


def test_get_submodule_and_parameter():
    net = nn.Sequential(OrderedDict(block=nn.Sequential(nn.Linear(2, 2))))
    assert net.get_submodule("block.0") is net.block[0]
    assert net.get_parameter("block.0.bias") is net.block[0].bias


# ----------------------------------------------------------------------------- modes, grads
def test_train_eval_recursive():
    net = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.Dropout()))
    assert all(m.training for m in net.modules())
    assert net.eval() is net
    assert not any(m.training for m in net.modules())
    net.train()
    assert all(m.training for m in net.modules())
    with pytest.raises(ValueError, match=exact("training mode is expected to be boolean")):
        net.train("yes")


def test_zero_grad_sets_none_by_default():
    lin = nn.Linear(3, 2)
    lin(torch.ones(1, 3)).sum().backward()
    lin.zero_grad()
    assert lin.weight.grad is None and lin.bias.grad is None


def test_zero_grad_set_to_none_false_zeroes_in_place():
    lin = nn.Linear(3, 2)
    lin(torch.ones(1, 3)).sum().backward()
    g = lin.weight.grad
    lin.zero_grad(set_to_none=False)
    assert lin.weight.grad is g
    assert torch.equal(g, torch.zeros(2, 3))


def test_requires_grad_flips_every_parameter():
    net = Net()
    assert net.requires_grad_(False) is net
    assert not any(p.requires_grad for p in net.parameters())
    net.requires_grad_()
    assert all(p.requires_grad for p in net.parameters())


def test_apply_and_init_keep_leaves():
    net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    seen = []

    def init_weights(m):
        seen.append(type(m).__name__)
        if isinstance(m, nn.Linear):
            nn.init.constant_(m.weight, 0.5)
            nn.init.zeros_(m.bias)

    assert net.apply(init_weights) is net
    assert seen == ["Linear", "ReLU", "Linear", "Sequential"]
    for p in net.parameters():
        assert leaf_flags(p) == (True, True, True, True)
    assert torch.equal(net[0].weight, torch.full((3, 2), 0.5))


def test_forward_hooks():
    lin = nn.Linear(2, 2)
    calls = []
    h1 = lin.register_forward_pre_hook(lambda m, args: calls.append("pre"))
    h2 = lin.register_forward_hook(lambda m, args, out: out * 0)
    out = lin(torch.ones(1, 2))
    assert calls == ["pre"] and torch.equal(out, torch.zeros(1, 2))
    h1.remove()
    h2.remove()
    assert not torch.equal(lin(torch.ones(1, 2)), torch.zeros(1, 2))
    assert calls == ["pre"]


# ----------------------------------------------------------------------------- conversions (SPEC §10)
def test_double_keeps_the_same_leaf_parameters():
    lin = nn.Linear(3, 2)
    w, b = lin.weight, lin.bias
    lin(torch.ones(1, 3)).sum().backward()
    assert lin.double() is lin
    assert lin.weight is w and lin.bias is b
    for p in (w, b):
        assert leaf_flags(p) == (True, True, True, True)
        assert p.dtype == torch.float64
        assert p.grad.dtype == torch.float64
    out = lin(torch.ones(1, 3, dtype=torch.float64))
    assert out.dtype == torch.float64


@pytest.mark.parametrize("convert", [
    lambda m: m.to(torch.float64),
    lambda m: m.to(dtype=torch.float64),
    lambda m: m.to("cpu", torch.float64),
    lambda m: m.to(torch.zeros(1, dtype=torch.float64)),
    lambda m: m.double().float().double(),
])
def test_to_forms(convert):
    lin = nn.Linear(2, 2)
    w = lin.weight
    assert convert(lin) is lin
    assert lin.weight is w and w.dtype == torch.float64 and w.is_leaf and w.requires_grad


def test_float_half_cpu_and_to_cpu():
    lin = nn.Linear(2, 2)
    w = lin.weight
    assert lin.float() is lin and lin.cpu() is lin and lin.to("cpu") is lin
    assert lin.weight is w and w.dtype == torch.float32
    lin.half()
    assert lin.weight is w and w.dtype == torch.float16 and w.is_leaf


def test_to_integer_dtype_is_refused():
    with pytest.raises(TypeError, match=exact(
        "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=torch.int64"
    )):
        nn.Linear(1, 1).to(torch.int64)


def test_conversion_leaves_integer_buffers():
    m = nn.Module()
    m.register_buffer("count", torch.zeros(2, dtype=torch.int64))
    m.register_buffer("avg", torch.zeros(2))
    m.double()
    assert m.count.dtype == torch.int64 and m.avg.dtype == torch.float64


# ----------------------------------------------------------------------------- state_dict
def test_state_dict_keys_and_values():
    net = Net()
    sd = net.state_dict()
    assert isinstance(sd, OrderedDict)
    assert list(sd) == ["scale", "steps", "fc1.weight", "fc1.bias", "fc2.weight"]
    for k, v in sd.items():
        assert type(v) is torch.Tensor and not v.requires_grad and v.is_leaf, k
    assert torch.equal(sd["fc1.weight"], net.fc1.weight.detach())
    # detached views share memory with the parameters
    with torch.no_grad():
        net.fc1.weight.fill_(2.0)
    assert torch.equal(sd["fc1.weight"], torch.full((3, 4), 2.0))
    kept = net.state_dict(keep_vars=True)
    assert kept["fc1.weight"] is net.fc1.weight


def test_state_dict_round_trip():
    torch.manual_seed(0)
    a, b = Net(), Net()
    with torch.no_grad():
        a.steps.fill_(7.0)
    weight = b.fc1.weight
    result = b.load_state_dict(a.state_dict())
    assert repr(result) == "<All keys matched successfully>"
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert b.fc1.weight is weight and weight.is_leaf and weight.requires_grad
    for (ka, va), (kb, vb) in zip(a.state_dict().items(), b.state_dict().items()):
        assert ka == kb and torch.equal(va, vb)
    x = torch.randn(3, 4)
    assert torch.equal(a(x), b(x))


def test_load_state_dict_strict_errors():
    lin = nn.Linear(2, 2)
    sd = lin.state_dict()
    del sd["bias"]
    sd["extra"] = torch.zeros(1)
    with pytest.raises(RuntimeError) as info:
        lin.load_state_dict(sd)
    assert str(info.value) == (
        'Error(s) in loading state_dict for Linear:\n\tMissing key(s) in state_dict: "bias". '
        '\n\tUnexpected key(s) in state_dict: "extra". '
    )
    result = lin.load_state_dict(sd, strict=False)
    assert result.missing_keys == ["bias"] and result.unexpected_keys == ["extra"]
    assert repr(result) == "_IncompatibleKeys(missing_keys=['bias'], unexpected_keys=['extra'])"


def test_load_state_dict_size_mismatch():
    lin = nn.Linear(2, 2)
    sd = {"weight": torch.zeros(3, 2), "bias": torch.zeros(2)}
    with pytest.raises(RuntimeError) as info:
        lin.load_state_dict(sd)
    assert str(info.value) == (
        "Error(s) in loading state_dict for Linear:\n\tsize mismatch for weight: copying a param with shape "
        "torch.Size([3, 2]) from checkpoint, the shape in current model is torch.Size([2, 2])."
    )


def test_load_state_dict_nested_unexpected_and_type_error():
    seq = nn.Sequential(nn.Linear(1, 1))
    sd = seq.state_dict()
    sd["1.weight"] = torch.zeros(1)
    with pytest.raises(RuntimeError, match='Unexpected key\\(s\\) in state_dict: "1.weight"'):
        seq.load_state_dict(sd)
    with pytest.raises(TypeError, match="Expected state_dict to be dict-like"):
        seq.load_state_dict([1, 2])


# ----------------------------------------------------------------------------- reprs
def test_nested_repr():
    model = nn.Sequential(
        nn.Conv2d(3, 8, 3),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Sequential(nn.Linear(8, 4), nn.Dropout()),
    )
    assert repr(model) == (
        "Sequential(\n"
        "  (0): Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1))\n"
        "  (1): ReLU()\n"
        "  (2): MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)\n"
        "  (3): Flatten(start_dim=1, end_dim=-1)\n"
        "  (4): Sequential(\n"
        "    (0): Linear(in_features=8, out_features=4, bias=True)\n"
        "    (1): Dropout(p=0.5, inplace=False)\n"
        "  )\n"
        ")"
    )


def test_custom_module_repr_with_extra_repr():
    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(2, 2)

        def extra_repr(self):
            return "width=2"

    assert repr(Block()) == (
        "Block(\n  width=2\n  (lin): Linear(in_features=2, out_features=2, bias=True)\n)"
    )
    assert repr(Net()) == (
        "Net(\n"
        "  (fc1): Linear(in_features=4, out_features=3, bias=True)\n"
        "  (act): ReLU()\n"
        "  (fc2): Linear(in_features=3, out_features=2, bias=False)\n"
        ")"
    )


@pytest.mark.parametrize("make, text", [
    (lambda: nn.Conv2d(3, 8, 3), "Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1))"),
    (lambda: nn.Conv2d(3, 8, (3, 5), stride=2, padding=1, bias=False),
     "Conv2d(3, 8, kernel_size=(3, 5), stride=(2, 2), padding=(1, 1), bias=False)"),
    (lambda: nn.Conv2d(4, 8, 3, dilation=2, groups=2),
     "Conv2d(4, 8, kernel_size=(3, 3), stride=(1, 1), dilation=(2, 2), groups=2)"),
    (lambda: nn.Dropout(), "Dropout(p=0.5, inplace=False)"),
    (lambda: nn.Dropout(0.1, inplace=True), "Dropout(p=0.1, inplace=True)"),
    (lambda: nn.Flatten(), "Flatten(start_dim=1, end_dim=-1)"),
    (lambda: nn.Flatten(0, 2), "Flatten(start_dim=0, end_dim=2)"),
    (lambda: nn.Embedding(10, 3), "Embedding(10, 3)"),
    (lambda: nn.Embedding(10, 3, padding_idx=0), "Embedding(10, 3, padding_idx=0)"),
    (lambda: nn.MaxPool2d(2), "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"),
    (lambda: nn.MaxPool2d(3, 1, 1), "MaxPool2d(kernel_size=3, stride=1, padding=1, dilation=1, ceil_mode=False)"),
    (lambda: nn.AvgPool2d(2), "AvgPool2d(kernel_size=2, stride=2, padding=0)"),
    (lambda: nn.ReLU(), "ReLU()"),
    (lambda: nn.ReLU(inplace=True), "ReLU(inplace=True)"),
    (lambda: nn.Sigmoid(), "Sigmoid()"),
    (lambda: nn.Tanh(), "Tanh()"),
    (lambda: nn.MSELoss(), "MSELoss()"),
    (lambda: nn.L1Loss(), "L1Loss()"),
    (lambda: nn.CrossEntropyLoss(), "CrossEntropyLoss()"),
    (lambda: nn.NLLLoss(), "NLLLoss()"),
    (lambda: nn.Sequential(), "Sequential()"),
    (lambda: nn.ModuleList(), "ModuleList()"),
    (lambda: nn.Module(), "Module()"),
])
def test_layer_reprs(make, text):
    assert repr(make()) == text


def test_layernorm_repr():
    # torch 2.15 appends `bias=...` (older releases stopped after elementwise_affine).
    assert repr(nn.LayerNorm(4)) == "LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)"
    assert repr(nn.LayerNorm([2, 3], eps=1e-6, elementwise_affine=False)) == (
        "LayerNorm((2, 3), eps=1e-06, elementwise_affine=False, bias=False)"
    )


def test_module_list_repr_groups_repeats():
    ml = nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.Linear(2, 2), nn.Sequential(nn.Tanh())])
    assert repr(ml) == (
        "ModuleList(\n"
        "  (0-1): 2 x ReLU()\n"
        "  (2): Linear(in_features=2, out_features=2, bias=True)\n"
        "  (3): Sequential(\n"
        "    (0): Tanh()\n"
        "  )\n"
        ")"
    )


# ----------------------------------------------------------------------------- containers
def test_sequential_indexing_len_iteration_append():
    a, b, c = nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)
    seq = nn.Sequential(a, b)
    assert len(seq) == 2 and seq[0] is a and seq[-1] is b
    assert list(seq) == [a, b]
    assert seq.append(c) is seq
    assert len(seq) == 3 and seq[2] is c
    sub = seq[1:]
    assert type(sub) is nn.Sequential and list(sub) == [b, c]
    with pytest.raises(IndexError, match=exact("index 3 is out of range")):
        seq[3]
    x = torch.randn(4, 2)
    assert torch.equal(seq(x), c(b(a(x))))
    del seq[0]
    assert list(seq._modules) == ["0", "1"] and seq[0] is b
    seq[0] = nn.Tanh()
    assert type(seq[0]) is nn.Tanh


def test_sequential_from_ordered_dict():
    seq = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU())]))
    assert [n for n, _ in seq.named_children()] == ["fc", "act"]
    assert seq.fc is seq[0]


def test_module_list():
    ml = nn.ModuleList([nn.Linear(2, 2)])
    ml.append(nn.Linear(2, 2))
    ml.extend([nn.ReLU()])
    ml += [nn.Tanh()]
    assert len(ml) == 4
    assert [type(m).__name__ for m in ml] == ["Linear", "Linear", "ReLU", "Tanh"]
    assert ml[-1] is ml[3]
    assert len(list(ml.parameters())) == 4

    class Stack(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList(nn.Linear(2, 2) for _ in range(3))

        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return x

    s = Stack()
    assert [n for n, _ in s.named_parameters()][:2] == ["layers.0.weight", "layers.0.bias"]
    assert s(torch.ones(1, 2)).shape == torch.Size([1, 2])


def test_module_dict():
    md = nn.ModuleDict({"a": nn.Linear(1, 1), "b": nn.ReLU()})
    assert list(md.keys()) == ["a", "b"] and "a" in md and len(md) == 2
    assert md["b"] is md.b


# ----------------------------------------------------------------------------- layers
def test_conv2d_shapes_init_and_backward():
    torch.manual_seed(0)
    conv = nn.Conv2d(3, 8, 3, padding=1)
    assert conv.weight.shape == torch.Size([8, 3, 3, 3]) and conv.bias.shape == torch.Size([8])
    assert conv.kernel_size == (3, 3) and conv.stride == (1, 1) and conv.padding == (1, 1)
    bound = 1 / math.sqrt(3 * 3 * 3)
    assert conv.weight.abs().max().item() <= bound and conv.bias.abs().max().item() <= bound
    x = torch.randn(2, 3, 6, 6)
    out = conv(x)
    assert out.shape == torch.Size([2, 8, 6, 6])
    assert torch.allclose(out, F.conv2d(x, conv.weight, conv.bias, padding=1))
    out.sum().backward()
    assert conv.weight.grad.shape == conv.weight.shape and conv.bias.grad.shape == conv.bias.shape
    assert leaf_flags(conv.weight) == (True, True, True, True)


def test_conv2d_bias_grad_counts_positions():
    conv = nn.Conv2d(1, 3, 2)
    conv(torch.ones(1, 1, 10, 10)).sum().backward()
    assert torch.equal(conv.bias.grad, torch.tensor([81.0, 81.0, 81.0]))


def test_conv2d_argument_errors():
    with pytest.raises(ValueError, match=exact("in_channels must be divisible by groups")):
        nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match=exact("out_channels must be divisible by groups")):
        nn.Conv2d(4, 3, 3, groups=2)
    with pytest.raises(ValueError, match=exact("groups must be a positive integer")):
        nn.Conv2d(4, 4, 3, groups=0)
    with pytest.raises(RuntimeError):
        nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5))


def test_pooling_flatten_shapes():
    x = torch.randn(2, 3, 8, 8)
    assert nn.MaxPool2d(2)(x).shape == torch.Size([2, 3, 4, 4])
    assert nn.AvgPool2d(2, stride=1)(x).shape == torch.Size([2, 3, 7, 7])
    assert nn.Flatten()(x).shape == torch.Size([2, 192])
    assert nn.Flatten(0, -1)(x).shape == torch.Size([384])
    assert torch.equal(nn.MaxPool2d(2)(x), F.max_pool2d(x, 2))


def test_activations_match_functional():
    x = torch.randn(3, 4)
    assert torch.equal(nn.ReLU()(x), F.relu(x))
    assert torch.equal(nn.Sigmoid()(x), torch.sigmoid(x))
    assert torch.equal(nn.Tanh()(x), torch.tanh(x))


def test_dropout_train_and_eval():
    torch.manual_seed(0)
    drop = nn.Dropout(0.5)
    x = torch.ones(1000)
    y = drop(x)
    zeros = (y == 0).sum().item()
    assert 350 < zeros < 650
    assert torch.equal(y[y != 0], torch.full((1000 - zeros,), 2.0))
    drop.eval()
    assert torch.equal(drop(x), x)
    with pytest.raises(ValueError, match=exact("dropout probability has to be between 0 and 1, but got 1.5")):
        nn.Dropout(1.5)


def test_embedding():
    torch.manual_seed(0)
    emb = nn.Embedding(10, 3, padding_idx=0)
    assert emb.weight.shape == torch.Size([10, 3])
    assert torch.equal(emb.weight[0], torch.zeros(3))
    assert leaf_flags(emb.weight) == (True, True, True, True)
    idx = torch.tensor([[0, 2], [2, 5]])
    out = emb(idx)
    assert out.shape == torch.Size([2, 2, 3])
    assert torch.equal(out[1, 0], emb.weight[2].detach())
    out.sum().backward()
    assert torch.equal(emb.weight.grad[0], torch.zeros(3))
    assert torch.equal(emb.weight.grad[2], torch.full((3,), 2.0))
    assert torch.equal(emb.weight.grad[5], torch.ones(3))
    pre = nn.Embedding.from_pretrained(torch.eye(3))
    assert not pre.weight.requires_grad and torch.equal(pre(torch.tensor([1])), torch.tensor([[0.0, 1.0, 0.0]]))


def test_layernorm():
    ln = nn.LayerNorm(4)
    assert torch.equal(ln.weight, torch.ones(4)) and torch.equal(ln.bias, torch.zeros(4))
    x = torch.randn(5, 4) * 3 + 2
    y = ln(x)
    assert torch.allclose(y.mean(-1), torch.zeros(5), atol=1e-5)
    assert torch.allclose(y.var(-1, unbiased=False), torch.ones(5), atol=1e-3)
    y.sum().backward()
    assert ln.weight.grad.shape == torch.Size([4])
    assert nn.LayerNorm(4, elementwise_affine=False).weight is None


# ----------------------------------------------------------------------------- losses
def test_losses_match_functional():
    torch.manual_seed(0)
    x, t = torch.randn(4, 3), torch.randn(4, 3)
    assert torch.equal(nn.MSELoss()(x, t), F.mse_loss(x, t))
    assert torch.equal(nn.L1Loss()(x, t), F.l1_loss(x, t))
    assert torch.equal(nn.MSELoss(reduction="sum")(x, t), ((x - t) ** 2).sum())
    assert nn.L1Loss(reduction="none")(x, t).shape == torch.Size([4, 3])
    target = torch.tensor([0, 2, 1, 2])
    assert torch.allclose(nn.CrossEntropyLoss()(x, target), F.cross_entropy(x, target))
    assert torch.allclose(nn.NLLLoss()(F.log_softmax(x, 1), target), F.cross_entropy(x, target))
    manual = -(F.log_softmax(x, 1)[torch.arange(4), target]).mean()
    assert torch.allclose(nn.CrossEntropyLoss()(x, target), manual)
    assert nn.CrossEntropyLoss(reduction="none")(x, target).shape == torch.Size([4])


def test_cross_entropy_weight_is_a_buffer():
    w = torch.tensor([1.0, 2.0, 3.0])
    loss = nn.CrossEntropyLoss(weight=w)
    assert loss.weight is w and list(loss.state_dict()) == ["weight"]
    assert list(nn.CrossEntropyLoss().state_dict()) == []


def test_legacy_reduction_arguments_warn():
    with record_warnings() as caught:
        loss = nn.MSELoss(size_average=False)
    assert loss.reduction == "sum"
    assert any("size_average and reduce args will be deprecated" in str(w.message) for w in caught)


def test_loss_backward_reaches_parameters():
    lin = nn.Linear(3, 2)
    nn.CrossEntropyLoss()(lin(torch.randn(5, 3)), torch.tensor([0, 1, 1, 0, 1])).backward()
    assert lin.weight.grad is not None and lin.bias.grad is not None


# ----------------------------------------------------------------------------- nn.init
def test_calculate_gain():
    assert nn.init.calculate_gain("linear") == 1
    assert nn.init.calculate_gain("conv2d") == 1
    assert nn.init.calculate_gain("sigmoid") == 1
    assert nn.init.calculate_gain("tanh") == 5.0 / 3
    assert nn.init.calculate_gain("relu") == math.sqrt(2.0)
    assert nn.init.calculate_gain("leaky_relu") == math.sqrt(2.0 / (1 + 0.01 ** 2))
    assert nn.init.calculate_gain("leaky_relu", 0.2) == math.sqrt(2.0 / 1.04)
    assert nn.init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError, match=exact("Unsupported nonlinearity foo")):
        nn.init.calculate_gain("foo")


def test_init_functions_keep_leaves_and_bump_versions():
    w = nn.Parameter(torch.empty(30, 20))
    for fn in (nn.init.zeros_, nn.init.ones_, lambda t: nn.init.constant_(t, 0.3),
               nn.init.uniform_, nn.init.normal_, nn.init.xavier_uniform_, nn.init.xavier_normal_,
               nn.init.kaiming_uniform_, nn.init.kaiming_normal_):
        before = w._version
        assert fn(w) is w
        assert leaf_flags(w) == (True, True, True, True)
        assert w._version > before
    nn.init.constant_(w, 0.3)
    assert torch.equal(w, torch.full((30, 20), 0.3))


def test_init_bounds_and_statistics():
    torch.manual_seed(0)
    w = torch.empty(200, 100)
    nn.init.uniform_(w, -2.0, 3.0)
    assert -2.0 <= w.min().item() and w.max().item() <= 3.0
    nn.init.normal_(w, mean=1.0, std=2.0)
    assert abs(w.mean().item() - 1.0) < 0.05 and abs(w.std().item() - 2.0) < 0.05
    nn.init.xavier_uniform_(w)
    assert w.abs().max().item() <= math.sqrt(6.0 / 300)
    nn.init.kaiming_uniform_(w, nonlinearity="relu")
    assert w.abs().max().item() <= math.sqrt(6.0 / 100)
    nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
    assert abs(w.std().item() - math.sqrt(2.0 / 200)) < 0.005
    nn.init.xavier_normal_(w, gain=2.0)
    assert abs(w.std().item() - 2.0 * math.sqrt(2.0 / 300)) < 0.01


def test_init_fan_errors():
    with pytest.raises(ValueError, match=exact(
        "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
    )):
        nn.init.xavier_uniform_(torch.empty(3))
    with pytest.raises(ValueError, match="Mode fan_middle not supported"):
        nn.init.kaiming_uniform_(torch.empty(3, 3), mode="fan_middle")


def test_init_on_zero_element_tensor_warns():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.init.kaiming_uniform_(torch.empty(0, 3))
    assert [str(w.message) for w in caught] == ["Initializing zero-element tensors is a no-op"]
