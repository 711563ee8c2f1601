"""`python -m leafgrad run script.py [args]`: run an unchanged PyTorch script on leafgrad.

While the script runs, a meta-path finder (`_TorchAlias`, first on `sys.meta_path`) resolves
`torch` and every `torch.X.Y` to `leafgrad` and `leafgrad.X.Y`: the same module objects, so
`import torch.nn as nn` gives `leafgrad.nn` itself. A submodule leafgrad lacks is not found
(`ModuleNotFoundError: No module named 'torch.onnx'`), as PyTorch would say for a
name it does not have. When the script fails because leafgrad lacks a PyTorch name (an
AttributeError, ImportError or ModuleNotFoundError about a `torch` name), the error gets a
note, and the command a message, naming it and pointing to docs/differences.md.
"""
import importlib
import importlib.abc
import importlib.util
import os
import sys

DIFFERENCES = "docs/differences.md in the leafgrad repository"

USAGE = """\
usage: python -m leafgrad run SCRIPT [ARGS ...]
       python -m leafgrad --version | --help

Run an unchanged PyTorch script with `torch` (and every `torch.*` submodule) resolved to
leafgrad: `python -m leafgrad run tutorial.py --epochs 2` behaves as `python tutorial.py
--epochs 2` would with PyTorch installed (sys.argv, __main__, sys.path[0], exit status).
A PyTorch name that leafgrad does not have is reported after the traceback, with a pointer to
the list of differences ({}).

commands:
  run SCRIPT [ARGS ...]  run SCRIPT as __main__ with sys.argv = [SCRIPT, *ARGS]

options:
  -h, --help             show this help and exit
  --version              show leafgrad's version and exit
""".format(DIFFERENCES)


class _TorchAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `torch[.X.Y]` as the module `leafgrad[.X.Y]` (the same object)."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch" and not name.startswith("torch."):
            return None
        real = "leafgrad" + name[len("torch"):]
        if real not in sys.modules and "." in real:
            try:
                found = importlib.util.find_spec(real)
            except ModuleNotFoundError as e:
                if e.name is not None and e.name.startswith("leafgrad"):
                    return None  # a parent is missing: `torch.X` is not found either
                raise
            if found is None:
                return None  # "No module named 'torch.X'", as Python says
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        module = importlib.import_module("leafgrad" + spec.name[len("torch"):])
        spec.loader_state = module.__spec__  # the import system sets __spec__ to `spec`...
        return module

    def exec_module(self, module):
        # ...so the module gets its own back (leafgrad's relative imports compare with it)
        module.__spec__ = module.__spec__.loader_state


def _public_name(cls):
    """`torch.<name>` for a leafgrad class, by the shortest leafgrad module that exports it
    (`leafgrad.nn.modules.layers.Linear` -> `torch.nn.Linear`), or None for another class."""
    module = getattr(cls, "__module__", None) or ""
    if module != "leafgrad" and not module.startswith("leafgrad."):
        return None
    parts = module.split(".")
    for n in range(1, len(parts) + 1):
        space = sys.modules.get(".".join(parts[:n]))
        if space is not None and getattr(space, cls.__name__, None) is cls:
            return "torch" + ".".join(parts[:n])[len("leafgrad"):] + "." + cls.__name__
    return "torch" + module[len("leafgrad"):] + "." + cls.__qualname__


def _torch_module_name(name):
    if name == "leafgrad" or name.startswith("leafgrad."):
        return "torch" + name[len("leafgrad"):]
    if name == "torch" or name.startswith("torch."):
        return name
    return None


def missing_torch_name(exc):
    """The `torch.` name that `exc` says leafgrad lacks, or None when `exc` is about something
    else (a user's own name, a third-party module, an error of another kind).

    >>> from leafgrad._runner import missing_torch_name
    >>> try:
    ...     torch.no_such_function
    ... except AttributeError as e:
    ...     missing_torch_name(e)
    'torch.no_such_function'
    >>> missing_torch_name(ModuleNotFoundError("No module named 'numpyy'", name="numpyy")) is None
    True
    """
    import types

    if isinstance(exc, ModuleNotFoundError):
        return _torch_module_name(exc.name or "")
    if isinstance(exc, ImportError):  # from torch.X import y
        module = _torch_module_name(exc.name or "")
        msg = str(exc)
        if module is None or not msg.startswith("cannot import name '"):
            return None
        return module + "." + msg[len("cannot import name '"):].split("'", 1)[0]
    if isinstance(exc, AttributeError):
        name, obj = getattr(exc, "name", None), getattr(exc, "obj", None)
        if not name or obj is None:
            return None
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        raised_in = "" if tb is None else tb.tb_frame.f_globals.get("__name__") or ""
        if name.startswith("_") and raised_in.startswith("leafgrad."):
            return None  # leafgrad's own private attribute: a leafgrad bug, not a missing name
        if isinstance(obj, types.ModuleType):
            module = _torch_module_name(obj.__name__)
            return None if module is None else module + "." + name
        owner = _public_name(obj if isinstance(obj, type) else type(obj))
        return None if owner is None else owner + "." + name
    return None


def _message(name):
    return (f"leafgrad: the script ran with `torch` resolved to leafgrad, and leafgrad has no "
            f"`{name}`. If PyTorch has it, leafgrad does not cover it yet: see {DIFFERENCES} "
            f"for what is not covered.")


def run(path, argv=None, *, _restore=True):
    """Runs the PyTorch script at `path` with `torch` and every `torch.X` resolved to leafgrad,
    as `python path *argv` would run it with PyTorch: the script runs as `__main__` with
    `sys.argv == [path, *argv]` (`__file__` is `path` as given) and its directory first on
    `sys.path`; its exceptions
    (`SystemExit` too) propagate. An error about a PyTorch name that leafgrad lacks gets a note
    naming it (Python 3.11+). `sys.argv`, `sys.path` and the `torch` entries of `sys.modules`
    are restored afterwards. Returns the script's globals. `python -m leafgrad run path *argv`
    is the same from the shell.

    >>> import pathlib, tempfile
    >>> script = pathlib.Path(tempfile.mkdtemp()) / "hello.py"
    >>> _ = script.write_text(
    ...     "import sys, torch, torch.nn as nn\\n"
    ...     "print(torch.__name__, nn.__name__, sys.argv[1:], __name__)\\n")
    >>> _ = torch.run(str(script), ["--epochs", "2"])
    leafgrad leafgrad.nn ['--epochs', '2'] __main__
    """
    import runpy

    path = os.fspath(path)
    argv = [os.fspath(a) for a in (argv or [])]
    saved_argv, saved_path = sys.argv, list(sys.path)
    saved_torch = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}
    for k in saved_torch:  # a real torch imported before would shadow the alias
        del sys.modules[k]
    alias = _TorchAlias()
    sys.meta_path.insert(0, alias)
    sys.argv = [path, *argv]
    if not getattr(sys.flags, "safe_path", False):  # `python -P script.py` does not add it either
        sys.path.insert(0, os.path.dirname(os.path.realpath(path)))
    try:
        return runpy.run_path(path, run_name="__main__")  # sets sys.argv[0] = path too
    except (AttributeError, ImportError) as e:
        name = missing_torch_name(e)
        if name is not None and hasattr(e, "add_note"):
            e.add_note(_message(name))
        raise
    finally:
        if _restore:
            sys.argv = saved_argv
            sys.path[:] = saved_path
            if alias in sys.meta_path:
                sys.meta_path.remove(alias)
            for k in [k for k in sys.modules if k == "torch" or k.startswith("torch.")]:
                del sys.modules[k]
            sys.modules.update(saved_torch)


def _script_frames(tb):
    """The traceback from the script's first frame on (runpy's and the runner's left out, as
    `python script.py` shows them)."""
    while tb is not None and tb.tb_frame.f_globals.get("__name__") in ("runpy", __name__):
        tb = tb.tb_next
    return tb


def main(args=None):
    """The command line: `python -m leafgrad run SCRIPT [ARGS ...]`; returns the exit status
    (the script's own through SystemExit).

    >>> from leafgrad._runner import main
    >>> main(["--version"])
    leafgrad ...
    0
    """
    import leafgrad

    args = sys.argv[1:] if args is None else list(args)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE, end="")
        return 0
    if args[0] in ("-V", "--version"):
        print(f"leafgrad {leafgrad.version.leafgrad} (PyTorch {leafgrad.__version__.split('+')[0]} API)")
        return 0
    if args[0] != "run":
        print(USAGE, end="", file=sys.stderr)
        print(f"python -m leafgrad: unknown command {args[0]!r} (did you mean "
              f"`python -m leafgrad run {args[0]}`?)", file=sys.stderr)
        return 2
    if len(args) < 2 or args[1] in ("-h", "--help"):
        print(USAGE, end="", file=sys.stderr if len(args) < 2 else sys.stdout)
        return 2 if len(args) < 2 else 0
    path, script_args = args[1], args[2:]
    if not os.path.isfile(path):
        print(f"python -m leafgrad run: can't open file {os.path.abspath(path)!r}: "
              f"[Errno 2] No such file or directory", file=sys.stderr)
        return 2
    if not getattr(sys.flags, "safe_path", False) and sys.path and sys.path[0] == os.getcwd():
        del sys.path[0]  # `-m` put the working directory there; `python script.py` does not
    try:
        run(path, script_args, _restore=False)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        e.__traceback__ = _script_frames(e.__traceback__)
        sys.excepthook(type(e), e, e.__traceback__)  # as Python reports it (notes, suggestions)
        name = missing_torch_name(e) if isinstance(e, (AttributeError, ImportError)) else None
        if name is not None and _message(name) not in getattr(e, "__notes__", ()):
            print(_message(name), file=sys.stderr)  # Python < 3.11: no notes
        sys.stderr.flush()
        return 1
    return 0
