#!/usr/bin/env python3
"""orc_uncompress.py: rewrite a ZSTD-compressed ORC file with compression NONE.

Used once to make fuzz seeds for test/fuzz/fuzz_orc.c: mutations of a
compressed file mostly break the zstd frame, so the fuzzer rarely reaches
the stream decoders; the same rows without compression let it mutate RLE
runs, lengths and dictionaries directly. The metadata section (stripe
statistics) is dropped; everything else is kept field by field.

    test/fuzz/orc_uncompress.py IN OUT      (needs the zstd command)
"""
import subprocess
import sys


def varint(b, p):
    r = s = 0
    while True:
        c = b[p]
        p += 1
        r |= (c & 0x7F) << s
        s += 7
        if not c & 0x80:
            return r, p


def enc_varint(v):
    out = bytearray()
    while True:
        c = v & 0x7F
        v >>= 7
        if v:
            out.append(c | 0x80)
        else:
            out.append(c)
            return bytes(out)


def parse(b):
    """[(field, wiretype, value)]: ints for varints, bytes otherwise."""
    p, out = 0, []
    while p < len(b):
        t, p = varint(b, p)
        f, wt = t >> 3, t & 7
        if wt == 0:
            v, p = varint(b, p)
        elif wt == 1:
            v, p = b[p:p + 8], p + 8
        elif wt == 5:
            v, p = b[p:p + 4], p + 4
        else:
            n, p = varint(b, p)
            v, p = b[p:p + n], p + n
        out.append((f, wt, v))
    return out


def encode(msg):
    out = bytearray()
    for f, wt, v in msg:
        out += enc_varint(f << 3 | wt)
        if wt == 0:
            out += enc_varint(v)
        elif wt == 2:
            out += enc_varint(len(v)) + v
        else:
            out += v
    return bytes(out)


def get(msg, field, default=0):
    for f, _, v in msg:
        if f == field:
            return v
    return default


def setf(msg, field, value):
    return [(f, wt, value if f == field else v) for f, wt, v in msg]


def decompress(b):
    out, p = bytearray(), 0
    while p < len(b):
        h = b[p] | b[p + 1] << 8 | b[p + 2] << 16
        n = h >> 1
        chunk = b[p + 3:p + 3 + n]
        p += 3 + n
        if h & 1:
            out += chunk
        else:
            out += subprocess.run(["zstd", "-d", "-c"], input=chunk,
                                  capture_output=True, check=True).stdout
    return bytes(out)


def main(src, dst):
    data = open(src, "rb").read()
    psl = data[-1]
    ps = parse(data[-1 - psl:-1])
    assert get(ps, 2) == 5, "only ZSTD input is handled"
    flen = get(ps, 1)
    footer = parse(decompress(data[-1 - psl - flen:-1 - psl]))
    body = bytearray(b"ORC")
    new_footer = []
    for f, wt, v in footer:
        if f != 3:
            new_footer.append((f, wt, v))
            continue
        si = parse(v)
        off, il, dl, fl = (get(si, k) for k in (1, 2, 3, 4))
        sf = parse(decompress(data[off + il + dl:off + il + dl + fl]))
        pos, streams, new_sf = off, [], []
        new_index = new_data = 0
        for sf_f, sf_wt, sf_v in sf:
            if sf_f != 1:
                new_sf.append((sf_f, sf_wt, sf_v))
                continue
            st = parse(sf_v)
            raw = decompress(data[pos:pos + get(st, 3)])
            pos += get(st, 3)
            streams.append(raw)
            if get(st, 1) in (6, 7, 8):
                new_index += len(raw)
            else:
                new_data += len(raw)
            new_sf.append((1, 2, encode(setf(st, 3, len(raw)))))
        new_off = len(body)
        for raw in streams:
            body += raw
        sfb = encode(new_sf)
        body += sfb
        si = setf(setf(setf(setf(si, 1, new_off), 2, new_index), 3, new_data), 4, len(sfb))
        new_footer.append((3, 2, encode(si)))
    new_footer = setf(new_footer, 2, len(body))  # contentLength
    fb = encode(new_footer)
    ps = setf(setf(setf(ps, 1, len(fb)), 2, 0), 5, 0)
    psb = encode(ps)
    open(dst, "wb").write(bytes(body) + fb + psb + bytes([len(psb)]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
