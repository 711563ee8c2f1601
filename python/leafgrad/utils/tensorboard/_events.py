"""TensorBoard's event files, written and read without TensorFlow or the tensorboard package:
TFRecord framing (length, masked CRC-32C of the length, the data, masked CRC-32C of the data)
around `Event` protocol buffers, encoded by hand for the fields leafgrad writes (wall time,
step, file version, source metadata, scalar summaries)."""
import struct

_CRC_TABLE = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


def crc32c(data):
    """CRC-32C (Castagnoli) of bytes."""
    crc = 0xFFFFFFFF
    for b in data:
        crc = _CRC_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _masked(crc):
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def record(data):
    """One TFRecord holding `data`."""
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", _masked(crc32c(length))) + data + struct.pack("<I", _masked(crc32c(data)))


def _varint(n):
    n &= 0xFFFFFFFFFFFFFFFF
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number, wire, payload):
    return _varint(number << 3 | wire) + payload


def _bytes_field(number, data):
    return _field(number, 2, _varint(len(data)) + data)


def event(wall_time, step=None, file_version=None, writer=None, scalars=()):
    """An `Event` message: `scalars` are (tag, value) pairs of one `Summary`."""
    out = _field(1, 1, struct.pack("<d", wall_time))
    if step:
        out += _field(2, 0, _varint(int(step)))
    if file_version is not None:
        out += _bytes_field(3, file_version.encode())
    if scalars:
        values = b"".join(_bytes_field(1, _bytes_field(1, tag.encode()) + _field(2, 5, struct.pack("<f", value)))
                          for tag, value in scalars)
        out += _bytes_field(5, values)
    if writer is not None:
        out += _bytes_field(10, _bytes_field(1, writer.encode()))
    return out


def _read_varint(buf, i):
    shift = result = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result, i


def _fields(buf):
    i = 0
    while i < len(buf):
        key, i = _read_varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _read_varint(buf, i)
        elif wire == 1:
            value, i = buf[i:i + 8], i + 8
        elif wire == 5:
            value, i = buf[i:i + 4], i + 4
        elif wire == 2:
            n, i = _read_varint(buf, i)
            value, i = buf[i:i + n], i + n
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        yield number, value


def read_events(path):
    """The events of a file as dicts (`wall_time`, `step`, and `file_version` or `scalars`, a
    list of (tag, value)), checking every record's CRCs."""
    with open(path, "rb") as f:
        data = f.read()
    i, events = 0, []
    while i < len(data):
        (n,) = struct.unpack_from("<Q", data, i)
        (len_crc,) = struct.unpack_from("<I", data, i + 8)
        if len_crc != _masked(crc32c(data[i:i + 8])):
            raise ValueError("corrupt record length")
        body = data[i + 12:i + 12 + n]
        (body_crc,) = struct.unpack_from("<I", data, i + 12 + n)
        if body_crc != _masked(crc32c(body)):
            raise ValueError("corrupt record")
        i += 16 + n
        ev = {"step": 0}
        for number, value in _fields(body):
            if number == 1:
                ev["wall_time"] = struct.unpack("<d", value)[0]
            elif number == 2:
                ev["step"] = value
            elif number == 3:
                ev["file_version"] = value.decode()
            elif number == 5:
                scalars = []
                for _, v in _fields(value):
                    fields = dict(_fields(v))
                    if 2 in fields:
                        scalars.append((fields[1].decode(), struct.unpack("<f", fields[2])[0]))
                ev["scalars"] = scalars
        events.append(ev)
    return events
