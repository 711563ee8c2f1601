"""The op test table (in the spirit of PyTorch's OpInfo): each op is listed once, with how to
sample its inputs and its reference; `test_op_db.py` runs every row through every check
(values against numpy, dtypes, PyTorch's recorded values and gradients at the edges, finite
differences of first and second derivatives, the in-place form, the GPU against the CPU, and
real PyTorch when it is installed). The same rows register the ops in the property tests
(`test_properties.py`: random compositions, layouts and dtypes against numpy, first and second
derivatives, PyTorch when installed) and in the hostile-input fuzz (`test_fuzz_hostile.py`:
random arguments of every kind, crash/panic checks and differential runs against PyTorch). A new
op gets all of them by adding its row here; no other test table lists it.

RECORDED (RECORDED_BINARY) holds PyTorch 2.15's node name, values and gradients of
`op(x).sum()` at EDGES (`op(a, b).sum()` at PAIRS), in float64, printed by
`python tests/python/op_db.py NAME` with torch installed; test_op_db.py checks them against the
installed torch when there is one.
"""
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

INF, NAN = math.inf, math.nan

# Zeros of both signs, tiny, ordinary, large enough to overflow, infinities and NaN.
EDGES = [0.0, -0.0, 1e-8, 0.5, -0.5, 1.0, -1.0, 3.0, -3.0, 30.0, -30.0, 800.0, -800.0, INF, -INF, NAN]


def _erfinv_bisect(y):
    """erfinv by bisection on math.erf (monotone): an independent reference for the kernel."""
    y = np.asarray(y, dtype=np.float64)
    erf = np.vectorize(math.erf, otypes=[np.float64])
    lo, hi = np.full(y.shape, -6.0), np.full(y.shape, 6.0)
    for _ in range(64):
        mid = (lo + hi) / 2
        below = erf(mid) < y
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    out = (lo + hi) / 2
    out = np.where(y == 1, INF, np.where(y == -1, -INF, out))
    return np.where(np.isnan(y) | (np.abs(y) > 1), NAN, np.where(y == 0, y, out))


@dataclass(frozen=True)
class UnaryOp:
    """A float function of one tensor, `torch.<name>` / `Tensor.<name>` / `Tensor.<name>_`."""

    name: str
    ref: Callable  # numpy's function (float64 and complex128)
    domain: str = "any"  # sample inputs: "any" in [-1, 1], "pos" in [0.5, 1.5], "away0" |x| >= 0.2,
    # "inner" in [-0.8, 0.8], "above1" in [1.2, 2.2]
    complex: bool = True  # defined for complex inputs too
    rtol32: float = 2e-6  # float32 against the float64 reference


UNARY = [
    UnaryOp("exp", np.exp),
    UnaryOp("expm1", np.expm1),
    UnaryOp("log", np.log, domain="pos"),
    UnaryOp("log1p", np.log1p, domain="pos"),
    UnaryOp("log10", np.log10, domain="pos"),
    UnaryOp("log2", np.log2, domain="pos"),
    UnaryOp("sqrt", np.sqrt, domain="pos"),
    UnaryOp("rsqrt", lambda a: 1 / np.sqrt(a), domain="pos"),
    UnaryOp("sin", np.sin),
    UnaryOp("cos", np.cos),
    UnaryOp("tanh", np.tanh),
    UnaryOp("sinh", np.sinh),
    UnaryOp("cosh", np.cosh),
    UnaryOp("sigmoid", lambda a: 1 / (1 + np.exp(-a))),
    UnaryOp("erf", np.vectorize(math.erf, otypes=[np.float64]), complex=False),
    UnaryOp("reciprocal", np.reciprocal, domain="away0"),
    UnaryOp("erfinv", lambda a: _erfinv_bisect(a), domain="inner", complex=False),
    UnaryOp("erfc", np.vectorize(math.erfc, otypes=[np.float64]), complex=False),
    UnaryOp("asin", np.arcsin, domain="inner"),
    UnaryOp("acos", np.arccos, domain="inner"),
    UnaryOp("atan", np.arctan),
    UnaryOp("asinh", np.arcsinh),
    UnaryOp("acosh", np.arccosh, domain="above1"),
    UnaryOp("atanh", np.arctanh, domain="inner"),
    UnaryOp("exp2", lambda a: np.exp2(a) if not np.iscomplexobj(a) else np.exp(a * np.log(2.0))),
]

@dataclass(frozen=True)
class BinaryOp:
    """A float function of two tensors, `torch.<name>(input, other)` / `Tensor.<name>(other)`."""

    name: str
    ref: Callable  # numpy's function (float64)
    domains: tuple = ("any", "any")
    inplace: bool = True  # PyTorch has `Tensor.<name>_`
    torch_complex: bool = False  # PyTorch takes complex operands (leafgrad's rows do not yet)
    rtol32: float = 2e-6
    ints: bool = False  # integer and bool operands compute in float32 (else refused)
    numbers: tuple = ()  # nodes of PyTorch's overloads with a number for input / for other


def _xlogy(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.isnan(b), np.nan, np.where(a == 0, 0.0, a * np.log(b)))


BINARY = [
    BinaryOp("hypot", np.hypot),
    BinaryOp("logaddexp", np.logaddexp, inplace=False, torch_complex=True),
    BinaryOp("atan2", np.arctan2, ints=True),
    BinaryOp("xlogy", _xlogy, domains=("any", "pos"), ints=True, numbers=("XlogyBackward1", "XlogyBackward2")),
]

@dataclass(frozen=True)
class RoundingOp:
    """A rounding function, `torch.<name>` / `Tensor.<name>` / `Tensor.<name>_`: floats keep
    their dtype, integers are copied, bool and complex are refused, the gradient is zero."""

    name: str
    ref: Callable  # numpy's function (float64)
    complex_error: str  # PyTorch's NotImplementedError for a complex64 input


ROUNDING = [
    RoundingOp("floor", np.floor, "floor is not supported for complex inputs"),
    RoundingOp("ceil", np.ceil, "ceil is not supported for complex inputs"),
    RoundingOp("round", np.round, "\"round_vml_cpu\" not implemented for 'ComplexFloat'"),
    RoundingOp("trunc", np.trunc, "trunc is not supported for complex inputs"),
]

# Halves, ties, signed zeros, large, infinities and NaN.
ROUNDING_EDGES = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, 1e-8, -1e-8, 3.7, -3.7,
                  2.0**52 + 0.5, 1e300, INF, -INF, NAN]

# Every pair of these, as (input, other): signed zeros, ordinary, huge, infinities, NaN.
PAIR_VALUES = [0.0, -0.0, 1.0, -2.5, 1e300, INF, -INF, NAN]
PAIRS = [(a, b) for a in PAIR_VALUES for b in PAIR_VALUES]

RECORDED = {
    "exp": (
        "ExpBackward0",
        [1.0, 1.0, 1.00000001, 1.6487212707001282, 0.6065306597126334, 2.718281828459045, 0.36787944117144233, 20.085536923187668, 0.049787068367863944, 10686474581524.463, 9.357622968840175e-14, INF, 0.0, INF, 0.0, NAN],
        [1.0, 1.0, 1.00000001, 1.6487212707001282, 0.6065306597126334, 2.718281828459045, 0.36787944117144233, 20.085536923187668, 0.049787068367863944, 10686474581524.463, 9.357622968840175e-14, INF, 0.0, INF, 0.0, NAN],
    ),
    "log": (
        "LogBackward0",
        [-INF, -INF, -18.420680743952367, -0.6931471805599453, NAN, 0.0, NAN, 1.0986122886681098, NAN, 3.4011973816621555, NAN, 6.684611727667927, NAN, INF, NAN, NAN],
        [INF, -INF, 100000000.0, 2.0, -2.0, 1.0, -1.0, 0.3333333333333333, -0.3333333333333333, 0.03333333333333333, -0.03333333333333333, 0.00125, -0.00125, 0.0, -0.0, NAN],
    ),
    "sqrt": (
        "SqrtBackward0",
        [0.0, -0.0, 0.0001, 0.7071067811865476, NAN, 1.0, NAN, 1.7320508075688772, NAN, 5.477225575051661, NAN, 28.284271247461902, NAN, INF, NAN, NAN],
        [INF, -INF, 5000.0, 0.7071067811865475, NAN, 0.5, NAN, 0.2886751345948129, NAN, 0.09128709291752768, NAN, 0.017677669529663688, NAN, 0.0, NAN, NAN],
    ),
    "sin": (
        "SinBackward0",
        [0.0, -0.0, 1e-08, 0.479425538604203, -0.479425538604203, 0.8414709848078965, -0.8414709848078965, 0.1411200080598672, -0.1411200080598672, -0.9880316240928618, 0.9880316240928618, 0.8939696481970214, -0.8939696481970214, NAN, NAN, NAN],
        [1.0, 1.0, 1.0, 0.8775825618903728, 0.8775825618903728, 0.5403023058681398, 0.5403023058681398, -0.9899924966004454, -0.9899924966004454, 0.15425144988758405, 0.15425144988758405, -0.44812751321749233, -0.44812751321749233, NAN, NAN, NAN],
    ),
    "cos": (
        "CosBackward0",
        [1.0, 1.0, 1.0, 0.8775825618903728, 0.8775825618903728, 0.5403023058681398, 0.5403023058681398, -0.9899924966004454, -0.9899924966004454, 0.15425144988758405, 0.15425144988758405, -0.44812751321749233, -0.44812751321749233, NAN, NAN, NAN],
        [-0.0, 0.0, -1e-08, -0.479425538604203, 0.479425538604203, -0.8414709848078965, 0.8414709848078965, -0.1411200080598672, 0.1411200080598672, 0.9880316240928618, -0.9880316240928618, -0.8939696481970214, 0.8939696481970214, NAN, NAN, NAN],
    ),
    "tanh": (
        "TanhBackward0",
        [0.0, -0.0, 1e-08, 0.46211715726000974, -0.46211715726000974, 0.7615941559557649, -0.7615941559557649, 0.9950547536867305, -0.9950547536867305, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, NAN],
        [1.0, 1.0, 0.9999999999999999, 0.7864477329659274, 0.7864477329659274, 0.41997434161402614, 0.41997434161402614, 0.009866037165440166, 0.009866037165440166, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, NAN],
    ),
    "sigmoid": (
        "SigmoidBackward0",
        [0.5, 0.5, 0.5000000025, 0.6224593312018546, 0.3775406687981454, 0.7310585786300049, 0.2689414213699951, 0.9525741268224334, 0.04742587317756678, 0.9999999999999065, 9.357622968839299e-14, 1.0, 0.0, 1.0, 0.0, NAN],
        [0.25, 0.25, 0.25, 0.2350037122015945, 0.2350037122015945, 0.19661193324148185, 0.19661193324148185, 0.045176659730912, 0.04517665973091214, 9.348077867342945e-14, 9.357622968838423e-14, 0.0, 0.0, 0.0, 0.0, NAN],
    ),
    "reciprocal": (
        "ReciprocalBackward0",
        [INF, -INF, 100000000.0, 2.0, -2.0, 1.0, -1.0, 0.3333333333333333, -0.3333333333333333, 0.03333333333333333, -0.03333333333333333, 0.00125, -0.00125, 0.0, -0.0, NAN],
        [-INF, -INF, -1e+16, -4.0, -4.0, -1.0, -1.0, -0.1111111111111111, -0.1111111111111111, -0.0011111111111111111, -0.0011111111111111111, -1.5625e-06, -1.5625e-06, -0.0, -0.0, NAN],
    ),
    "sinh": (
        "SinhBackward0",
        [0.0, -0.0, 1e-08, 0.5210953054937474, -0.5210953054937474, 1.1752011936438014, -1.1752011936438014, 10.017874927409903, -10.017874927409903, 5343237290762.231, -5343237290762.231, INF, -INF, INF, -INF, NAN],
        [1.0, 1.0, 1.0, 1.1276259652063807, 1.1276259652063807, 1.5430806348152437, 1.5430806348152437, 10.067661995777765, 10.067661995777765, 5343237290762.231, 5343237290762.231, INF, INF, INF, INF, NAN],
    ),
    "cosh": (
        "CoshBackward0",
        [1.0, 1.0, 1.0, 1.1276259652063807, 1.1276259652063807, 1.5430806348152437, 1.5430806348152437, 10.067661995777765, 10.067661995777765, 5343237290762.231, 5343237290762.231, INF, INF, INF, INF, NAN],
        [0.0, -0.0, 1e-08, 0.5210953054937474, -0.5210953054937474, 1.1752011936438014, -1.1752011936438014, 10.017874927409903, -10.017874927409903, 5343237290762.231, -5343237290762.231, INF, -INF, INF, -INF, NAN],
    ),
    "log1p": (
        "Log1PBackward0",
        [0.0, -0.0, 9.999999950000001e-09, 0.4054651081081644, -0.6931471805599453, 0.6931471805599453, -INF, 1.3862943611198906, NAN, 3.4339872044851463, NAN, 6.68586094706836, NAN, INF, NAN, NAN],
        [1.0, 1.0, 0.9999999900000002, 0.6666666666666666, 2.0, 0.5, INF, 0.25, -0.5, 0.03225806451612903, -0.034482758620689655, 0.0012484394506866417, -0.0012515644555694619, 0.0, -0.0, NAN],
    ),
    "expm1": (
        "Expm1Backward0",
        [0.0, -0.0, 1.0000000050000001e-08, 0.6487212707001282, -0.3934693402873666, 1.7182818284590453, -0.6321205588285577, 19.085536923187668, -0.950212931632136, 10686474581523.463, -0.9999999999999064, INF, -1.0, INF, -1.0, NAN],
        [1.0, 1.0, 1.00000001, 1.6487212707001282, 0.6065306597126334, 2.7182818284590455, 0.36787944117144233, 20.085536923187668, 0.04978706836786395, 10686474581524.463, 9.35918009759007e-14, INF, 0.0, INF, 0.0, NAN],
    ),
    "rsqrt": (
        "RsqrtBackward0",
        [INF, -INF, 10000.0, 1.414213562373095, NAN, 1.0, NAN, 0.5773502691896258, NAN, 0.18257418583505536, NAN, 0.035355339059327376, NAN, 0.0, NAN, NAN],
        [-INF, INF, -500000000000.0, -1.4142135623730947, NAN, -0.5, NAN, -0.09622504486493767, NAN, -0.003042903097250922, NAN, -2.209708691207961e-05, NAN, -0.0, NAN, NAN],
    ),
    "log10": (
        "Log10Backward0",
        [-INF, -INF, -8.0, -0.3010299956639812, NAN, 0.0, NAN, 0.47712125471966244, NAN, 1.4771212547196624, NAN, 2.9030899869919438, NAN, INF, NAN, NAN],
        [INF, -INF, 43429448.19032518, 0.8685889638065035, -0.8685889638065035, 0.43429448190325176, -0.43429448190325176, 0.14476482730108392, -0.14476482730108392, 0.014476482730108391, -0.014476482730108391, 0.0005428681023790647, -0.0005428681023790647, 0.0, -0.0, NAN],
    ),
    "log2": (
        "Log2Backward0",
        [-INF, -INF, -26.575424759098897, -1.0, NAN, 0.0, NAN, 1.584962500721156, NAN, 4.906890595608519, NAN, 9.643856189774725, NAN, INF, NAN, NAN],
        [INF, -INF, 144269504.08889633, 2.8853900817779268, -2.8853900817779268, 1.4426950408889634, -1.4426950408889634, 0.48089834696298783, -0.48089834696298783, 0.04808983469629878, -0.04808983469629878, 0.0018033688011112041, -0.0018033688011112041, 0.0, -0.0, NAN],
    ),
    "erf": (
        "ErfBackward0",
        [0.0, -0.0, 1.1283791670955126e-08, 0.5204998778130465, -0.5204998778130465, 0.8427007929497149, -0.8427007929497149, 0.9999779095030014, -0.9999779095030014, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, NAN],
        [1.1283791670955126, 1.1283791670955126, 1.1283791670955123, 0.8787825789354448, 0.8787825789354448, 0.4151074974205947, 0.4151074974205947, 0.00013925305194674786, 0.00013925305194674786, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, NAN],
    ),
    "erfinv": (
        "ErfinvBackward0",
        [0.0, -0.0, 8.86226925452758e-09, 0.4769362762044699, -0.4769362762044699, INF, -INF, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
        [0.8862269254527579, 0.8862269254527579, 0.8862269254527579, 1.1125848189719496, 1.1125848189719496, INF, INF, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
    ),
    "erfc": (
        "ErfcBackward0",
        [1.0, 1.0, 0.9999999887162083, 0.4795001221869535, 1.5204998778130465, 0.15729920705028513, 1.8427007929497148, 2.209049699858544e-05, 1.9999779095030015, 0.0, 2.0, 0.0, 2.0, 0.0, 2.0, NAN],
        [-1.1283791670955126, -1.1283791670955126, -1.1283791670955123, -0.8787825789354448, -0.8787825789354448, -0.4151074974205947, -0.4151074974205947, -0.00013925305194674786, -0.00013925305194674786, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, NAN],
    ),
    "exp2": (
        "Exp2Backward0",
        [1.0, 1.0, 1.0000000069314718, 1.414213562373095, 0.7071067811865475, 2.0, 0.5, 8.0, 0.125, 1073741824.0, 9.313225746154785e-10, 6.668014432879854e+240, 1.499696813895631e-241, INF, 0.0, NAN],
        [0.6931471805599453, 0.6931471805599453, 0.6931471853644755, 0.9802581434685471, 0.49012907173427356, 1.3862943611198906, 0.34657359027997264, 5.545177444479562, 0.08664339756999316, 744261117.954893, 6.455436167865482e-10, 4.6219154040836935e+240, 1.0395106182464896e-241, INF, 0.0, NAN],
    ),
    "asin": (
        "AsinBackward0",
        [0.0, -0.0, 1e-08, 0.5235987755982989, -0.5235987755982989, 1.5707963267948966, -1.5707963267948966, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
        [1.0, 1.0, 1.0000000000000002, 1.1547005383792517, 1.1547005383792517, INF, INF, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
    ),
    "acos": (
        "AcosBackward0",
        [1.5707963267948966, 1.5707963267948966, 1.5707963167948966, 1.0471975511965976, 2.0943951023931957, 0.0, 3.141592653589793, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
        [-1.0, -1.0, -1.0000000000000002, -1.1547005383792517, -1.1547005383792517, -INF, -INF, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
    ),
    "atan": (
        "AtanBackward0",
        [0.0, -0.0, 1e-08, 0.4636476090008061, -0.4636476090008061, 0.7853981633974483, -0.7853981633974483, 1.2490457723982544, -1.2490457723982544, 1.5374753309166493, -1.5374753309166493, 1.5695463274459376, -1.5695463274459376, 1.5707963267948966, -1.5707963267948966, NAN],
        [1.0, 1.0, 1.0, 0.8, 0.8, 0.5, 0.5, 0.1, 0.1, 0.0011098779134295228, 0.0011098779134295228, 1.5624975585975647e-06, 1.5624975585975647e-06, 0.0, 0.0, NAN],
    ),
    "asinh": (
        "AsinhBackward0",
        [0.0, -0.0, 9.999999999999999e-09, 0.48121182505960347, -0.48121182505960347, 0.881373587019543, -0.881373587019543, 1.8184464592320668, -1.8184464592320668, 4.09462222433053, -4.09462222433053, 7.377759298852644, -7.377759298852644, INF, -INF, NAN],
        [1.0, 1.0, 1.0, 0.8944271909999159, 0.8944271909999159, 0.7071067811865475, 0.7071067811865475, 0.31622776601683794, 0.31622776601683794, 0.03331483023263848, 0.03331483023263848, 0.0012499990234386444, 0.0012499990234386444, 0.0, 0.0, NAN],
    ),
    "acosh": (
        "AcoshBackward0",
        [NAN, NAN, NAN, NAN, NAN, 0.0, NAN, 1.762747174039086, NAN, 4.0940666686320855, NAN, 7.3777585176026435, NAN, INF, NAN, NAN],
        [NAN, NAN, NAN, NAN, NAN, INF, INF, 0.35355339059327373, 0.35355339059327373, 0.033351867298253506, 0.033351867298253506, 0.0012500009765636444, 0.0012500009765636444, 0.0, 0.0, NAN],
    ),
    "atanh": (
        "AtanhBackward0",
        [0.0, -0.0, 1e-08, 0.5493061443340549, -0.5493061443340549, INF, -INF, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
        [1.0, 1.0, 1.0000000000000002, 1.3333333333333333, 1.3333333333333333, INF, INF, -0.125, -0.125, -0.0011123470522803114, -0.0011123470522803114, -1.5625024414100647e-06, -1.5625024414100647e-06, -0.0, -0.0, NAN],
    ),
}


# PyTorch 2.15's node name, values and gradients (for input and other) of `op(a, b).sum()` at
# PAIRS (float64).
RECORDED_BINARY = {
    "hypot": (
        "HypotBackward0",
        [0.0, 0.0, 1.0, 2.5, 1e+300, INF, INF, NAN, 0.0, 0.0, 1.0, 2.5, 1e+300, INF, INF, NAN, 1.0, 1.0, 1.4142135623730951, 2.692582403567252, 1e+300, INF, INF, NAN, 2.5, 2.5, 2.692582403567252, 3.5355339059327378, 1e+300, INF, INF, NAN, 1e+300, 1e+300, 1e+300, 1e+300, 1.4142135623730952e+300, INF, INF, NAN, INF, INF, INF, INF, INF, INF, INF, INF, INF, INF, INF, INF, INF, INF, INF, INF, NAN, NAN, NAN, NAN, NAN, INF, INF, NAN],
        [NAN, NAN, 0.0, 0.0, 0.0, 0.0, 0.0, NAN, NAN, NAN, -0.0, -0.0, -0.0, -0.0, -0.0, NAN, 1.0, 1.0, 0.7071067811865475, 0.3713906763541037, 1e-300, 0.0, 0.0, NAN, -1.0, -1.0, -0.9284766908852594, -0.7071067811865475, -2.5e-300, -0.0, -0.0, NAN, 1.0, 1.0, 1.0, 1.0, 0.7071067811865475, 0.0, 0.0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
        [NAN, NAN, 1.0, -1.0, 1.0, NAN, NAN, NAN, NAN, NAN, 1.0, -1.0, 1.0, NAN, NAN, NAN, 0.0, -0.0, 0.7071067811865475, -0.9284766908852594, 1.0, NAN, NAN, NAN, 0.0, -0.0, 0.3713906763541037, -0.7071067811865475, 1.0, NAN, NAN, NAN, 0.0, -0.0, 1e-300, -2.5e-300, 0.7071067811865475, NAN, NAN, NAN, 0.0, -0.0, 0.0, -0.0, 0.0, NAN, NAN, NAN, 0.0, -0.0, 0.0, -0.0, 0.0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
    ),
    "logaddexp": (
        "LogaddexpBackward0",
        [0.6931471805599453, 0.6931471805599453, 1.3132616875182228, 0.07888973429254963, 1e+300, INF, 0.0, NAN, 0.6931471805599453, 0.6931471805599453, 1.3132616875182228, 0.07888973429254963, 1e+300, INF, 0.0, NAN, 1.3132616875182228, 1.3132616875182228, 1.6931471805599454, 1.0297504182726205, 1e+300, INF, 1.0, NAN, 0.07888973429254963, 0.07888973429254963, 1.0297504182726205, -1.8068528194400546, 1e+300, INF, -2.5, NAN, 1e+300, 1e+300, 1e+300, 1e+300, 1e+300, INF, 1e+300, NAN, INF, INF, INF, INF, INF, INF, INF, NAN, 0.0, 0.0, 1.0, -2.5, 1e+300, INF, -INF, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
        [0.5, 0.5, 0.2689414213699951, 0.9241418199787566, 0.0, 0.0, 1.0, NAN, 0.5, 0.5, 0.2689414213699951, 0.9241418199787566, 0.0, 0.0, 1.0, NAN, 0.7310585786300049, 0.7310585786300049, 0.5, 0.9706877692486436, 0.0, 0.0, 1.0, NAN, 0.07585818002124355, 0.07585818002124355, 0.02931223075135632, 0.5, 0.0, 0.0, 1.0, NAN, 1.0, 1.0, 1.0, 1.0, 0.5, 0.0, 1.0, NAN, 1.0, 1.0, 1.0, 1.0, 1.0, NAN, 1.0, NAN, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
        [0.5, 0.5, 0.7310585786300049, 0.07585818002124355, 1.0, 1.0, 0.0, NAN, 0.5, 0.5, 0.7310585786300049, 0.07585818002124355, 1.0, 1.0, 0.0, NAN, 0.2689414213699951, 0.2689414213699951, 0.5, 0.02931223075135632, 1.0, 1.0, 0.0, NAN, 0.9241418199787566, 0.9241418199787566, 0.9706877692486436, 0.5, 1.0, 1.0, 0.0, NAN, 0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, NAN, 0.0, 0.0, 0.0, 0.0, 0.0, NAN, 0.0, NAN, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
    ),
    "atan2": (
        "Atan2Backward0",
        [0.0, 3.141592653589793, 0.0, 3.141592653589793, 0.0, 0.0, 3.141592653589793, NAN, -0.0, -3.141592653589793, -0.0, -3.141592653589793, -0.0, -0.0, -3.141592653589793, NAN, 1.5707963267948966, 1.5707963267948966, 0.7853981633974483, 2.761086276477428, 1e-300, 0.0, 3.141592653589793, NAN, -1.5707963267948966, -1.5707963267948966, -1.1902899496825317, -2.356194490192345, -2.5e-300, -0.0, -3.141592653589793, NAN, 1.5707963267948966, 1.5707963267948966, 1.5707963267948966, 1.5707963267948966, 0.7853981633974483, 0.0, 3.141592653589793, NAN, 1.5707963267948966, 1.5707963267948966, 1.5707963267948966, 1.5707963267948966, 1.5707963267948966, 0.7853981633974483, 2.356194490192345, NAN, -1.5707963267948966, -1.5707963267948966, -1.5707963267948966, -1.5707963267948966, -1.5707963267948966, -0.7853981633974483, -2.356194490192345, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
        [0.0, -0.0, 1.0, -0.4, 0.0, NAN, NAN, NAN, 0.0, -0.0, 1.0, -0.4, 0.0, NAN, NAN, NAN, 0.0, -0.0, 0.5, -0.3448275862068966, 0.0, NAN, NAN, NAN, 0.0, -0.0, 0.13793103448275862, -0.2, 0.0, NAN, NAN, NAN, 0.0, -0.0, 0.0, -0.0, 0.0, NAN, NAN, NAN, 0.0, -0.0, 0.0, -0.0, 0.0, NAN, NAN, NAN, 0.0, -0.0, 0.0, -0.0, 0.0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
        [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, NAN, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, NAN, -1.0, -1.0, -0.5, -0.13793103448275862, -0.0, -0.0, -0.0, NAN, 0.4, 0.4, 0.3448275862068966, 0.2, 0.0, 0.0, 0.0, NAN, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
    ),
    "xlogy": (
        "XlogyBackward0",
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, NAN, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, NAN, -INF, -INF, 0.0, NAN, 690.7755278982137, INF, NAN, NAN, INF, INF, -0.0, NAN, -1726.9388197455341, -INF, NAN, NAN, -INF, -INF, 0.0, NAN, 6.907755278982137e+302, INF, NAN, NAN, -INF, -INF, NAN, NAN, INF, INF, NAN, NAN, INF, INF, NAN, NAN, -INF, -INF, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
        [0.0, 0.0, 0.0, 0.0, 690.7755278982137, INF, 0.0, NAN, 0.0, 0.0, 0.0, 0.0, 690.7755278982137, INF, 0.0, NAN, -INF, -INF, 0.0, NAN, 690.7755278982137, INF, NAN, NAN, -INF, -INF, 0.0, NAN, 690.7755278982137, INF, NAN, NAN, -INF, -INF, 0.0, NAN, 690.7755278982137, INF, NAN, NAN, -INF, -INF, 0.0, NAN, 690.7755278982137, INF, NAN, NAN, -INF, -INF, 0.0, NAN, 690.7755278982137, INF, NAN, NAN, -INF, -INF, 0.0, NAN, 690.7755278982137, INF, NAN, NAN],
        [NAN, NAN, 0.0, -0.0, 0.0, 0.0, -0.0, NAN, NAN, NAN, -0.0, 0.0, -0.0, -0.0, 0.0, NAN, INF, -INF, 1.0, -0.4, 1e-300, 0.0, -0.0, NAN, -INF, INF, -2.5, 1.0, -2.5e-300, -0.0, 0.0, NAN, INF, -INF, 1e+300, -4e+299, 1.0, 0.0, -0.0, NAN, INF, -INF, INF, -INF, INF, NAN, NAN, NAN, -INF, INF, -INF, INF, -INF, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
    ),
}


# PyTorch 2.15's node name, values and gradients of `op(x).sum()` at ROUNDING_EDGES (float64).
RECORDED_ROUNDING = {
    "floor": (
        "FloorBackward0",
        [0.0, -0.0, 0.0, -1.0, 1.0, -2.0, 2.0, -3.0, 0.0, 0.0, -1.0, 3.0, -4.0, 4503599627370496.0, 1e+300, INF, -INF, NAN],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    ),
    "ceil": (
        "CeilBackward0",
        [0.0, -0.0, 1.0, -0.0, 2.0, -1.0, 3.0, -2.0, 1.0, 1.0, -0.0, 4.0, -3.0, 4503599627370496.0, 1e+300, INF, -INF, NAN],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    ),
    "round": (
        "RoundBackward0",
        [0.0, -0.0, 0.0, -0.0, 2.0, -2.0, 2.0, -2.0, 0.0, 0.0, -0.0, 4.0, -4.0, 4503599627370496.0, 1e+300, INF, -INF, NAN],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    ),
    "trunc": (
        "TruncBackward0",
        [0.0, -0.0, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.0, 0.0, -0.0, 3.0, -3.0, 4503599627370496.0, 1e+300, INF, -INF, NAN],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    ),
}


def _record(names):
    import torch

    binary = {op.name for op in BINARY}
    rounding = {op.name for op in ROUNDING}
    for name in names:
        if name in rounding:
            x = torch.tensor(ROUNDING_EDGES, dtype=torch.float64, requires_grad=True)
            y = getattr(torch, name)(x)
            y.sum().backward()
            lists = (y.tolist(), x.grad.tolist())
        elif name in binary:
            a = torch.tensor([p[0] for p in PAIRS], dtype=torch.float64, requires_grad=True)
            b = torch.tensor([p[1] for p in PAIRS], dtype=torch.float64, requires_grad=True)
            y = getattr(torch, name)(a, b)
            y.sum().backward()
            lists = (y.tolist(), a.grad.tolist(), b.grad.tolist())
        else:
            x = torch.tensor(EDGES, dtype=torch.float64, requires_grad=True)
            y = getattr(torch, name)(x)
            y.sum().backward()
            lists = (y.tolist(), x.grad.tolist())
        print(f'    "{name}": (\n        "{type(y.grad_fn).__name__}",')
        for vals in lists:
            print("        [" + ", ".join(repr(v).replace("inf", "INF").replace("nan", "NAN") for v in vals) + "],")
        print("    ),")


if __name__ == "__main__":
    import sys

    _record(sys.argv[1:] or [op.name for op in UNARY + BINARY + ROUNDING])
