"""Writes the generated part of python/leafgrad/_core.pyi and of docs/api.md from the op
declarations (src/declared.rs), read from the built module: `python tests/gen_stubs.py`.
tests/python/test_stubs.py fails when either file is not what this would write."""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUB = ROOT / "python" / "leafgrad" / "_core.pyi"
API = ROOT / "docs" / "api.md"
BLOCK = re.compile(r"(?P<head>[ \t]*(?:#|<!--) BEGIN generated[^\n]*\n)(?P<body>.*?)(?P<tail>[ \t]*(?:#|<!--) END generated)", re.S)


def _declared():
    """(arguments of the function, its rows) for the declared ops of one and two tensors."""
    from leafgrad import _core

    return (
        ("input", "", _core._float_unary_ops()),
        ("input", "", _core._rounding_ops()),
        ("input, other", ", other: Tensor", _core._float_binary_ops()),
    )


def stub_lines():
    lines = []
    for _args, params, rows in _declared():
        for name, inplace, _node, _doc in rows:
            for method in (name, inplace):
                if method:
                    lines.append(f"    def {method}(self{params}) -> Tensor: ...\n")
    return "".join(lines)


def api_lines():
    lines = []
    for args, _params, rows in _declared():
        for name, inplace, node, doc in rows:
            summary = doc.strip().splitlines()[0].strip()
            methods = ", ".join(f"`Tensor.{m}`" for m in (name, inplace) if m)
            lines.append(f"- `{name}({args})` ({methods}; `{node}`): {summary}\n")
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
