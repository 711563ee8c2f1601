"""`torch.utils.tensorboard.writer`: `SummaryWriter`, logging scalars to TensorBoard event
files (`runs/<date>_<host><comment>/events.out.tfevents.*` by default), as PyTorch's does.
leafgrad writes the files itself (`_events.py`), so it needs no tensorboard package; viewing them
needs TensorBoard. Of PyTorch's `add_*` methods it has `add_scalar` and `add_scalars`."""
import os
import socket
import time

from . import _events

_UID = [0]


class FileWriter:
    """Appends events to one event file in `log_dir`, written out every `max_queue` events,
    every `flush_secs` seconds, and on `flush`/`close`.

    >>> import importlib, tempfile
    >>> tb = importlib.import_module(torch.__name__ + ".utils.tensorboard")
    >>> fw = tb.FileWriter(tempfile.mkdtemp())
    >>> fw.get_logdir().startswith(tempfile.gettempdir())
    True
    >>> fw.close()
    """

    def __init__(self, log_dir, max_queue=10, flush_secs=120, filename_suffix=""):
        os.makedirs(log_dir, exist_ok=True)
        self.log_dir = log_dir
        self._max_queue, self._flush_secs = max_queue, flush_secs
        self._pending, self._last_flush = [], time.time()
        name = "events.out.tfevents.%010d.%s.%s.%s" % (time.time(), socket.gethostname(), os.getpid(), _UID[0])
        _UID[0] += 1
        self._path = os.path.join(log_dir, name) + filename_suffix
        self._file = open(self._path, "wb")
        self.add_event(_events.event(time.time(), file_version="brain.Event:2", writer="leafgrad.utils.tensorboard"))
        self.flush()

    def get_logdir(self):
        return self.log_dir

    def add_event(self, data):
        if self._file is None:
            raise RuntimeError("the event file of this writer is closed")
        self._pending.append(_events.record(data))
        if len(self._pending) >= self._max_queue or time.time() - self._last_flush >= self._flush_secs:
            self.flush()

    def flush(self):
        if self._file is not None:
            self._file.write(b"".join(self._pending))
            self._file.flush()
        self._pending, self._last_flush = [], time.time()

    def close(self):
        if self._file is not None:
            self.flush()
            self._file.close()
            self._file = None


def _scalar_value(value):
    """A Python float of a number, a one-element tensor or array."""
    if hasattr(value, "detach"):
        value = value.detach().cpu().numpy()
    if hasattr(value, "squeeze") and hasattr(value, "ndim"):
        if value.squeeze().ndim != 0:
            raise AssertionError("scalar should be 0D")
        value = value.squeeze().item()
    return float(value)


class SummaryWriter:
    """Writes TensorBoard event files into `log_dir` (default `runs/<Mon><DD>_<HH>-<MM>-<SS>_<host>
    <comment>`).

    >>> import importlib, tempfile
    >>> tb = importlib.import_module(torch.__name__ + ".utils.tensorboard")
    >>> with tb.SummaryWriter(tempfile.mkdtemp()) as w:
    ...     w.add_scalar("loss", 0.5, 1)
    ...     w.get_logdir().startswith(tempfile.gettempdir())
    True
    """

    def __init__(self, log_dir=None, comment="", purge_step=None, max_queue=10, flush_secs=120, filename_suffix=""):
        if not log_dir:
            from datetime import datetime

            log_dir = os.path.join("runs", datetime.now().strftime("%b%d_%H-%M-%S") + "_" + socket.gethostname()
                                   + comment)
        if purge_step is not None:
            raise NotImplementedError("leafgrad's SummaryWriter does not write purge events (purge_step)")
        self.log_dir = log_dir
        self.purge_step = purge_step
        self.max_queue, self.flush_secs, self.filename_suffix = max_queue, flush_secs, filename_suffix
        self.file_writer = self.all_writers = None
        self._get_file_writer()

    def _get_file_writer(self):
        if self.all_writers is None or self.file_writer is None:
            self.file_writer = FileWriter(self.log_dir, self.max_queue, self.flush_secs, self.filename_suffix)
            self.all_writers = {self.file_writer.get_logdir(): self.file_writer}
        return self.file_writer

    def get_logdir(self):
        """The directory the event files go to."""
        return self.log_dir

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None, new_style=False,
                   double_precision=False):
        """Logs one scalar under `tag` at step `global_step`."""
        if new_style or double_precision:
            raise NotImplementedError("leafgrad's SummaryWriter writes classic scalar summaries only")
        walltime = time.time() if walltime is None else walltime
        self._get_file_writer().add_event(
            _events.event(walltime, global_step, scalars=[(tag, _scalar_value(scalar_value))]))

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None, walltime=None):
        """Logs several scalars in one chart: each into its own run directory
        `<log_dir>/<main_tag>_<tag>`, under `main_tag`."""
        walltime = time.time() if walltime is None else walltime
        root = self._get_file_writer().get_logdir()
        for tag, value in tag_scalar_dict.items():
            path = root + "/" + main_tag.replace("/", "_") + "_" + tag
            if path not in self.all_writers:
                self.all_writers[path] = FileWriter(path, self.max_queue, self.flush_secs, self.filename_suffix)
            self.all_writers[path].add_event(
                _events.event(walltime, global_step, scalars=[(main_tag, _scalar_value(value))]))

    def flush(self):
        """Writes every pending event to disk."""
        for w in (self.all_writers or {}).values():
            w.flush()

    def close(self):
        """Flushes and closes every event file; a later `add_*` opens new ones."""
        for w in (self.all_writers or {}).values():
            w.close()
        self.file_writer = self.all_writers = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
