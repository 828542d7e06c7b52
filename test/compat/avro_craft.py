"""Rewrite the records of an Avro data file, for crafting bad values.

    records, schema, meta = read_avro(path)     # records: list of dicts
    ... change some values ...
    write_avro(path, schema, records, meta)     # same schema and metadata, codec null

A small generic Avro binary codec (the spec's "Binary Encoding" and "Object
Container Files"), enough for Paimon's data files: records, unions, arrays,
maps, fixed, enums and the primitives; blocks compressed with null, deflate
or zstandard (through the zstd command-line tool) are read, and the file is
written back uncompressed. Values are kept raw: an int is an int (a DATE is
its day number, a TIME its milliseconds), a string or bytes value is bytes,
so invalid UTF-8 can be written; a union value is (branch index, value).
No pyarrow or avro package is needed.
"""
import io
import json
import struct
import subprocess
import zlib

MAGIC = b"Obj\x01"


def _read_long(f):
    shift = result = 0
    while True:
        b = f.read(1)
        if not b:
            raise EOFError("truncated varint")
        result |= (b[0] & 0x7F) << shift
        shift += 7
        if not b[0] & 0x80:
            return (result >> 1) ^ -(result & 1)


def _long(n):
    z = (n << 1) ^ (n >> 63)
    z &= (1 << 64) - 1
    out = bytearray()
    while z & ~0x7F:
        out.append((z & 0x7F) | 0x80)
        z >>= 7
    out.append(z)
    return bytes(out)


def _bytes(b):
    return _long(len(b)) + b


def _named(schema, names):
    if isinstance(schema, dict) and "name" in schema:
        names[schema["name"]] = schema
    return schema


def _decode(s, f, names):
    if isinstance(s, str):
        if s in names:
            return _decode(names[s], f, names)
        if s == "null":
            return None
        if s == "boolean":
            return f.read(1) != b"\x00"
        if s in ("int", "long"):
            return _read_long(f)
        if s == "float":
            return struct.unpack("<f", f.read(4))[0]
        if s == "double":
            return struct.unpack("<d", f.read(8))[0]
        if s in ("bytes", "string"):
            return f.read(_read_long(f))
        raise ValueError("unknown avro type %s" % s)
    if isinstance(s, list):
        i = _read_long(f)
        return (i, _decode(s[i], f, names))
    _named(s, names)
    t = s["type"]
    if t == "record":
        return {fld["name"]: _decode(fld["type"], f, names) for fld in s["fields"]}
    if t == "enum":
        return _read_long(f)
    if t == "fixed":
        return f.read(s["size"])
    if t in ("array", "map"):
        out = []
        while True:
            n = _read_long(f)
            if n == 0:
                return out if t == "array" else dict(out)
            if n < 0:
                n = -n
                _read_long(f)   # block size in bytes
            for _ in range(n):
                if t == "array":
                    out.append(_decode(s["items"], f, names))
                else:
                    k = f.read(_read_long(f))
                    out.append((k, _decode(s["values"], f, names)))
    return _decode(t, f, names)


def _encode(s, v, names):
    if isinstance(s, str):
        if s in names:
            return _encode(names[s], v, names)
        if s == "null":
            return b""
        if s == "boolean":
            return b"\x01" if v else b"\x00"
        if s in ("int", "long"):
            return _long(v)
        if s == "float":
            return struct.pack("<f", v)
        if s == "double":
            return struct.pack("<d", v)
        if s in ("bytes", "string"):
            return _bytes(v)
        raise ValueError("unknown avro type %s" % s)
    if isinstance(s, list):
        i, inner = v
        return _long(i) + _encode(s[i], inner, names)
    _named(s, names)
    t = s["type"]
    if t == "record":
        return b"".join(_encode(fld["type"], v[fld["name"]], names) for fld in s["fields"])
    if t == "enum":
        return _long(v)
    if t == "fixed":
        return v
    if t == "array":
        body = b"".join(_encode(s["items"], x, names) for x in v)
        return (_long(len(v)) + body if v else b"") + _long(0)
    if t == "map":
        body = b"".join(_bytes(k) + _encode(s["values"], x, names) for k, x in v.items())
        return (_long(len(v)) + body if v else b"") + _long(0)
    return _encode(t, v, names)


def _decompress(codec, data):
    if codec == b"null":
        return data
    if codec == b"deflate":
        return zlib.decompress(data, -15)
    if codec == b"zstandard":
        return subprocess.run(["zstd", "-d", "-q", "-c"], input=data, capture_output=True,
                              check=True).stdout
    raise ValueError("avro codec %r not supported here" % codec)


def read_avro(path):
    """(records, schema, metadata) of an Avro object container file."""
    with open(path, "rb") as fh:
        f = io.BytesIO(fh.read())
    if f.read(4) != MAGIC:
        raise ValueError("%s is not an avro file" % path)
    meta = _decode({"type": "map", "values": "bytes"}, f, {})
    sync = f.read(16)
    schema = json.loads(meta[b"avro.schema"])
    codec = meta.get(b"avro.codec", b"null")
    records = []
    while f.tell() < len(f.getvalue()):
        count = _read_long(f)
        size = _read_long(f)
        block = io.BytesIO(_decompress(codec, f.read(size)))
        for _ in range(count):
            records.append(_decode(schema, block, {}))
        if f.read(16) != sync:
            raise ValueError("%s: bad sync marker" % path)
    return records, schema, meta


def write_avro(path, schema, records, meta):
    """Write records as one uncompressed block, with meta's other entries."""
    meta = dict(meta)
    meta[b"avro.schema"] = json.dumps(schema).encode()
    meta[b"avro.codec"] = b"null"
    sync = b"paimon_fdw_craft"
    encoded = {}     # the same record object repeated is encoded once
    for r in records:
        if id(r) not in encoded:
            encoded[id(r)] = _encode(schema, r, {})
    body = b"".join(encoded[id(r)] for r in records)
    header = MAGIC + _long(len(meta)) + b"".join(_bytes(k) + _bytes(v) for k, v in meta.items()) \
        + _long(0) + sync
    with open(path, "wb") as f:
        f.write(header + _long(len(records)) + _long(len(body)) + body + sync)
