"""Tensors from DataLoader workers to the main process without copying them through a pipe.

A worker pickles each batch itself (`Sharer.pack`): a CPU tensor whose dtype numpy has is
written once into a new POSIX shared memory block (`/dev/shm/<prefix><worker>_<n>` on Linux) and
pickled as the block's name with its dtype, shape and strides; everything else (strings, numbers,
tensors that require grad, bfloat16, CUDA tensors, tensor subclasses) pickles as usual. The main
process maps each block (`unpack`), wraps the mapping with numpy and `torch.from_numpy` - no copy:
the batch tensor's memory *is* the block - and unlinks the name at once, so the memory lives exactly
as long as the tensor (and its views) and nothing stays behind in /dev/shm.

Cleanup when not every batch is received: a worker unlinks the blocks it sent when it exits (the
main process either received them all or no longer wants them), and the main process unlinks
every name with its iterator's prefix once its workers are gone (for a worker that was killed).
Without POSIX shared memory (Windows) or numpy, batches pickle through the pipe; so does a
tensor for which no block can be made (/dev/shm full: the worker warns once).
"""
import collections
import io
import mmap
import os
import pickle
import secrets
import warnings

try:
    import _posixshmem
except ImportError:  # Windows
    _posixshmem = None
try:
    import numpy as np
except ImportError:
    np = None

_SHM_DIR = "/dev/shm"


def available():
    """Whether tensors can travel through shared memory on this platform."""
    return _posixshmem is not None and np is not None


def new_prefix():
    """A name prefix for one iterator's blocks: `lgdl<main pid>_<random>_` (short: macOS
    allows 31 characters in all)."""
    return f"lgdl{os.getpid()}_{secrets.token_hex(3)}_"


def _unlink(name):
    try:
        _posixshmem.shm_unlink("/" + name)
    except (FileNotFoundError, OSError):
        pass


def unlink_prefix(prefix):
    """Unlink every block whose name starts with `prefix` (Linux lists them in /dev/shm)."""
    if _posixshmem is None or not prefix or not os.path.isdir(_SHM_DIR):
        return
    try:
        names = os.listdir(_SHM_DIR)
    except OSError:
        return
    for name in names:
        if name.startswith(prefix):
            _unlink(name)


class Packed:
    """A pickled batch and the names of the shared memory blocks its tensors are in."""

    __slots__ = ("blob", "names")

    def __init__(self, blob, names):
        self.blob = blob
        self.names = names

    def __reduce__(self):
        return (Packed, (self.blob, self.names))


def _attach(name, nbytes, dtype, shape, strides):
    """The tensor over shared memory block `name` (main process; runs while unpickling)."""
    from ... import from_numpy

    fd = _posixshmem.shm_open("/" + name, os.O_RDWR, mode=0o600)
    try:
        block = mmap.mmap(fd, nbytes)
    finally:
        os.close(fd)
    # numpy keeps the mapping alive (the array's base), the tensor keeps the array alive; the
    # mapping goes away with the last of them
    return from_numpy(np.ndarray(shape, np.dtype(dtype), buffer=block, strides=strides))


def unpack(packed):
    """The batch a worker packed, its tensors over the shared blocks; the names are unlinked
    (also when unpickling fails) - an attached block stays mapped until its tensor dies."""
    try:
        return pickle.loads(packed.blob)
    finally:
        for name in packed.names:
            _unlink(name)


class _Pickler(pickle.Pickler):
    def __init__(self, file, sharer, names):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._sharer = sharer
        self._names = names

    def reducer_override(self, obj):
        # called for objects other than None, bools, and exact ints, floats, strs, bytes, lists,
        # tuples, dicts and sets; pickle memoizes the result, so a tensor met twice comes back
        # as one object
        if isinstance(obj, self._sharer.tensor_type) and obj.requires_grad and not obj.is_leaf:
            raise RuntimeError(
                "Cowardly refusing to serialize non-leaf tensor which requires_grad, since autograd does not "
                "support crossing process boundaries.  If you just want to transfer the data, call detach() on "
                "the tensor before serializing (e.g., putting it on the queue).")
        if type(obj) is self._sharer.tensor_type:
            reduced = self._sharer.share(obj, self._names)
            if reduced is not None:
                return reduced
        return NotImplemented


class Sharer:
    """A worker's side: packs batches, their tensors into new shared memory blocks."""

    def __init__(self, prefix, worker_id):
        from ... import Tensor

        self.tensor_type = Tensor
        self.prefix = f"{prefix}{worker_id}_"
        self.count = 0
        # the blocks sent most recently, unlinked when the worker exits: the ones not received
        # yet are among them (a worker has at most prefetch_factor batches in flight)
        self.sent = collections.deque(maxlen=4096)
        self.warned = False

    def pack(self, data):
        buf = io.BytesIO()
        names = []
        try:
            _Pickler(buf, self, names).dump(data)
        except BaseException:
            for name in names:
                _unlink(name)
            raise
        return Packed(buf.getvalue(), names)

    def share(self, t, names):
        """The reduce tuple rebuilding `t` over a new block in the main process, or None when
        `t` pickles as usual (it requires grad, is not on the CPU, has no numpy dtype, is empty)."""
        if t.requires_grad or t.device.type != "cpu" or t.numel() == 0:
            return None
        try:
            src = t.numpy()
        except (TypeError, RuntimeError, ValueError):  # bfloat16, conjugate bit, ...
            return None
        if any(s < 0 for s in src.strides):
            return None
        itemsize = src.dtype.itemsize
        span = itemsize + sum((n - 1) * s for n, s in zip(src.shape, src.strides))
        if span > 2 * src.size * itemsize:  # a sparse window on a bigger storage: compact it
            src = np.ascontiguousarray(src)
            span = src.nbytes
        name = f"{self.prefix}{self.count}"
        self.count += 1
        try:
            fd = _posixshmem.shm_open("/" + name, os.O_CREAT | os.O_EXCL | os.O_RDWR, mode=0o600)
        except OSError as e:
            return self._cannot_share(e)
        names.append(name)
        self.sent.append(name)
        try:
            try:
                if src.flags.c_contiguous:
                    # write() fills a new shared memory file faster than page faults through a
                    # mapping, and reports a full /dev/shm as an error rather than a SIGBUS
                    data = memoryview(src.reshape(-1).view(np.uint8))
                    done = 0
                    while done < span:
                        done += os.pwrite(fd, data[done:], done)
                else:
                    if hasattr(os, "posix_fallocate"):
                        os.posix_fallocate(fd, 0, span)
                    else:
                        os.ftruncate(fd, span)
                    block = mmap.mmap(fd, span)
                    dst = np.ndarray(src.shape, src.dtype, buffer=block, strides=src.strides)
                    np.copyto(dst, src, casting="no")
                    del dst
                    block.close()
            finally:
                os.close(fd)
        except OSError as e:
            _unlink(name)
            names.remove(name)
            return self._cannot_share(e)
        return (_attach, (name, span, src.dtype.str, src.shape, src.strides))

    def _cannot_share(self, error):
        """No block (/dev/shm full, too many open files): the tensor pickles through the pipe."""
        if not self.warned:
            self.warned = True
            warnings.warn(f"DataLoader worker could not write a tensor to shared memory ({error}); "
                          "tensors it cannot write there are pickled through the pipe instead")
        return None

    def cleanup(self):
        """Unlink the blocks this worker sent (those received are gone already)."""
        while self.sent:
            _unlink(self.sent.popleft())
