"""docs/guide.md cannot rot: its ```python blocks run in order, in one namespace, in a fresh
interpreter, and what each prints must equal the ```text block that follows it (a block without
one must print nothing). Warnings print as `UserWarning: <message>` lines; object addresses
(`0x7f...`) compare as `0x...`, and the line in a "(Triggered internally at file:line.)" suffix
is not compared. With LEAFGRAD_TEST_TORCH=1 the guide runs against real PyTorch
(`import leafgrad as torch` is torch there), except the blocks that use leafgrad.viz or
leafgrad.explain, to show that leafgrad prints what PyTorch prints.

Run as a script (`python test_docs.py < blocks.json`), this file is that fresh interpreter.
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
# PyTorch's C++ warnings name a source line that moves between releases.
TRIGGERED = re.compile(r"(\(Triggered internally at [^)]*?):\d+\.\)")
LEAFGRAD_ONLY = ("leafgrad.viz", "explain(", "print_graph(", "make_dot(")


def guide_blocks(text):
    """[(code, expected output)] for each ```python block, in order."""
    fences = [(m.group(1), m.group(2)) for m in FENCE.finditer(text)]
    blocks = []
    for i, (lang, body) in enumerate(fences):
        if lang == "python":
            follows = fences[i + 1] if i + 1 < len(fences) else None
            blocks.append((body, follows[1] if follows and follows[0] == "text" else ""))
    return blocks


def run_blocks(codes):
    """Exec each block in one namespace; return what each printed (stdout and warnings)."""
    import io
    import traceback
    import warnings

    outputs, namespace = [], {"__name__": "__guide__"}
    for i, code in enumerate(codes):
        buf = io.StringIO()
        real_stdout = sys.stdout
        sys.stdout = buf
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("always")
                # PyTorch's forward AD loads its decompositions through torch.jit, which warns
                warnings.filterwarnings("ignore", message="`torch.jit.script` is deprecated")
                warnings.showwarning = lambda message, category, *_: print(f"{category.__name__}: {message}")
                exec(compile(code, f"<guide block {i + 1}>", "exec"), namespace)
        except BaseException:  # the guide catches what it means to show; anything else fails
            print("UNEXPECTED " + traceback.format_exc())
        finally:
            sys.stdout = real_stdout
        outputs.append(buf.getvalue())
    return outputs


def normalize(text):
    return TRIGGERED.sub(r"\1:N.)", ADDRESS.sub("0x...", text)).rstrip("\n")


def test_guide_prints_what_it_shows():
    from support import USING_TORCH

    blocks = guide_blocks(GUIDE.read_text(encoding="utf-8"))
    assert len(blocks) >= 10
    codes = [code for code, _ in blocks]
    env = dict(os.environ)
    done = subprocess.run(
        [sys.executable, __file__], input=json.dumps(codes), capture_output=True, text=True,
        env=env, timeout=300, cwd=Path(__file__).parent,
    )
    assert done.returncode == 0, done.stderr
    outputs = json.loads(done.stdout)
    for i, ((code, expected), got) in enumerate(zip(blocks, outputs), 1):
        if USING_TORCH and any(s in code for s in LEAFGRAD_ONLY):
            continue
        assert normalize(got) == normalize(expected), f"guide block {i}:\n{code}"


API = GUIDE.parent / "api.md"
# Public names that are modules or helpers, not API to describe.
NOT_API = {"autograd", "cuda", "nn", "optim", "viz", "functional", "init", "modules", "parameter",
           "adam", "sgd", "optimizer", "grad_mode", "graph", "math", "warnings", "no_grad", "Tensor", "utils", "hooks",
           "func", "forward_ad"}


def test_api_reference_names_the_public_surface():
    """docs/api.md mentions (in backticks) every public name of the package's namespaces."""
    from support import USING_TORCH

    if USING_TORCH:
        import pytest

        pytest.skip("checks leafgrad's own namespaces")
    import leafgrad
    import leafgrad.autograd.forward_ad
    import leafgrad.autograd.gradcheck
    import leafgrad.func
    import leafgrad.nn.functional
    import leafgrad.nn.init
    import leafgrad.nn.utils
    import leafgrad.optim.lr_scheduler
    import leafgrad.utils.checkpoint
    import leafgrad.utils.data
    import leafgrad.fft
    import leafgrad.compiler
    import leafgrad.mps
    import leafgrad.jit

    text = API.read_text(encoding="utf-8")
    mentioned = set(re.findall(r"`(?:[\w.]+\.)?(\w+)[^`]*`", text))
    mentioned |= set(re.findall(r"`[^`]*?(\w+)\(", text))
    mentioned |= set(re.findall(r"(?:, |`)(\w+)(?:`|,)", text))
    spaces = [leafgrad, leafgrad.autograd, leafgrad.nn, leafgrad.nn.functional, leafgrad.nn.init,
              leafgrad.optim, leafgrad.viz, leafgrad.Tensor, leafgrad.autograd.graph.Node,
              leafgrad.autograd.graph, leafgrad.autograd.function, leafgrad.autograd.functional,
              leafgrad.autograd.gradcheck, leafgrad.utils, leafgrad.utils.checkpoint,
              leafgrad.autograd.forward_ad, leafgrad.func, leafgrad.utils.data, leafgrad.nn.utils,
              leafgrad.optim.lr_scheduler, leafgrad.serialization, leafgrad.special, leafgrad.fft,
              leafgrad.compiler, leafgrad.mps, leafgrad.jit]
    missing = sorted(
        f"{getattr(space, '__name__', space)}.{name}"
        for space in spaces
        for name in getattr(space, "__all__", dir(space))
        if not name.startswith("_") and name not in NOT_API and name not in mentioned
    )
    assert missing == []


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    import support  # noqa: F401  (under LEAFGRAD_TEST_TORCH=1: `import leafgrad` gives torch)

    print(json.dumps(run_blocks(json.loads(sys.stdin.read()))))
