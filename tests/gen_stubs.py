"""Writes the generated part of python/leafgrad/_core.pyi and of docs/api.md from the op
declarations (src/ops/math.rs), read from the built module: `python tests/gen_stubs.py`.
tests/python/test_stubs.py fails when either file is not what this would write."""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUB = ROOT / "python" / "leafgrad" / "_core.pyi"
API = ROOT / "docs" / "api.md"
BLOCK = re.compile(r"(?P<head>[ \t]*(?:#|<!--) BEGIN generated[^\n]*\n)(?P<body>.*?)(?P<tail>[ \t]*(?:#|<!--) END generated)", re.S)


def _declared():
    from leafgrad import _core

    return _core._float_unary_ops()


def stub_lines():
    lines = []
    for name, inplace, _node, _doc in _declared():
        lines.append(f"    def {name}(self) -> Tensor: ...\n")
        lines.append(f"    def {inplace}(self) -> Tensor: ...\n")
    return "".join(lines)


def api_lines():
    lines = []
    for name, inplace, node, doc in _declared():
        summary = doc.strip().splitlines()[0].strip()
        lines.append(f"- `{name}` (`Tensor.{name}`, `Tensor.{inplace}`; `{node}`): {summary}\n")
    return "".join(lines)


def rendered(path, body):
    text = path.read_text()
    m = BLOCK.search(text)
    if m is None:
        raise SystemExit(f"{path}: no 'BEGIN generated' ... 'END generated' block")
    return text[: m.start("body")] + body + text[m.end("body") :]


def main():
    for path, body in ((STUB, stub_lines()), (API, api_lines())):
        new = rendered(path, body)
        if new != path.read_text():
            path.write_text(new)
            print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
