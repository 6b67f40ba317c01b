#!/usr/bin/env python3
"""An X server that goes away right after its setup reply: a proxy on display NUMBER that
forwards one client's connection setup to the real server on display TARGET, hands back the
server's setup reply, and closes the connection before the client's first request is
answered (issue 36: Xlib's default exit handler then ended the whole process).

usage: x_closing_proxy.py NUMBER TARGET  (prints "ready" once it listens)
"""
import os
import socket
import struct
import sys

number, target = sys.argv[1], sys.argv[2]
path = f"/tmp/.X11-unix/X{number}"
try:
    os.unlink(path)
except FileNotFoundError:
    pass
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind(path)
listener.listen(4)
print("ready", flush=True)


def read_exactly(connection, count):
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


try:
    while True:
        client, _ = listener.accept()
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.connect(f"/tmp/.X11-unix/X{target}")
        try:
            # Setup request: byte order, pad, major, minor, name and data lengths, pad, then both.
            head = read_exactly(client, 12)
            order = "<" if head[0:1] == b"l" else ">"
            name_length, data_length = struct.unpack(order + "HH", head[6:10])
            pad = lambda n: (4 - n % 4) % 4
            rest = read_exactly(client, name_length + pad(name_length) + data_length + pad(data_length))
            server.sendall(head + rest)
            # Setup reply: 8 bytes, then 4 × the length in its bytes 6-7.
            reply_head = read_exactly(server, 8)
            (words,) = struct.unpack(order + "H", reply_head[6:8])
            client.sendall(reply_head + read_exactly(server, 4 * words))
        except (EOFError, OSError):
            pass
        client.close()
        server.close()
finally:
    os.unlink(path)
