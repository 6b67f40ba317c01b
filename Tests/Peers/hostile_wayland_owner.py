#!/usr/bin/env python3
"""hostile_wayland_owner: a Wayland selection owner that misbehaves in one chosen way, for
Ferry's tests of what a hostile owner may cost the broker on Wayland (the X11 counterpart is
hostile_owner.c).

    hostile_wayland_owner.py clipboard|primary MODE [TYPES]

Speaks the wire protocol itself (wl_seat and zwlr_data_control_manager_v1, version 2 for
primary), sets a selection through data-control, and prints `ready` once the compositor has
made it current. It offers `text/plain;charset=utf-8` and `text/plain` (after 20,000 bogus
types in many-types) and answers each `send` by MODE:

    silent      never writes, and never closes the descriptor;
    endless     writes text forever (until the reader closes its end: EPIPE);
    half        writes the first half of a 1 MiB text, then closes the descriptor;
    many-types  offers TYPES types (default 20,000) application/x-ferry-bogus-N first; each
                is answered with one byte, the text types with SHORT_TEXT;
    replace     on the first send, sets a new selection whose text is REPLACEMENT_TEXT
                (served at once), and never writes to that first descriptor.

Prints one line per request, `send TYPE` (`send-bogus N` for the first bogus type and every
thousandth after, so that its log stays short), `replaced` in replace mode, and `cancelled`
when another client takes the selection (it keeps serving transfers in progress). Runs until
killed.

Why the wire protocol and not libwayland: this owner exists to be hostile on purpose, and
the protocol is small. With 20,000 types, setting the selection makes sway 1.7 send every
data-control device, this owner's own included, about 900 KB of `offer` events at once;
libwayland 1.21's servers drop a client whose socket is full as they write (about 180 KB
fits), so on a busy machine this owner is often dropped too, as is any client, Ferry's
broker included (the tests count on Ferry connecting again). 4,000 types fit.
"""
import array
import os
import socket
import struct
import sys
import threading

SHORT_TEXT = b"hostile but short"
REPLACEMENT_TEXT = b"the replacement offer"
bogus_types = 20000
HALF_TOTAL = 1 << 20
TEXT_TYPES = ["text/plain;charset=utf-8", "text/plain"]
SERVER_IDS = 0xFF000000


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def string(text):
    data = text.encode() + b"\0"
    return struct.pack("<I", len(data)) + data + b"\0" * ((4 - len(data) % 4) % 4)


class Owner:
    def __init__(self, primary, mode):
        self.primary = primary
        self.mode = mode
        runtime = os.environ.get("XDG_RUNTIME_DIR", "")
        name = os.environ.get("WAYLAND_DISPLAY", "wayland-0")
        path = name if name.startswith("/") else os.path.join(runtime, name)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.write_lock = threading.Lock()
        self.next_id = 2
        self.objects = {1: "display"}
        self.input = bytearray()
        self.fds = []
        self.arrived = threading.Condition()
        self.closed = False
        self.globals = {}
        self.done = set()
        self.sources = []
        self.replaced = False
        self.ready_said = False
        self.handled = 0
        self.kinds = {}
        threading.Thread(target=self.read, daemon=True).start()

    # Requests

    def new_id(self, kind):
        made = self.next_id
        self.next_id += 1
        self.objects[made] = kind
        return made

    def message(self, obj, opcode, payload=b""):
        return struct.pack("<II", obj, (8 + len(payload)) << 16 | opcode) + payload

    def send(self, data, fds=()):
        with self.write_lock:
            if fds:
                self.sock.sendmsg(
                    [data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])
            else:
                self.sock.sendall(data)

    def roundtrip(self):
        callback = self.new_id("callback")
        self.send(self.message(1, 0, struct.pack("<I", callback)))  # wl_display.sync
        while callback not in self.done:
            self.dispatch_one()

    def make_source(self, bogus):
        source = self.new_id("source")
        self.sources.append(source)
        out = [self.message(self.manager, 0, struct.pack("<I", source))]  # create_data_source
        names = ["application/x-ferry-bogus-%d" % index for index in range(bogus_types if bogus else 0)]
        for name in names + TEXT_TYPES:
            out.append(self.message(source, 0, string(name)))  # offer
        # set_primary_selection or set_selection
        out.append(self.message(self.device, 2 if self.primary else 0, struct.pack("<I", source)))
        self.send(b"".join(out))
        return source

    # Events

    def read(self):
        """Reads the socket as it fills, 1 MiB at a time, on a thread of its own."""
        room = socket.CMSG_SPACE(28 * array.array("i").itemsize)
        while True:
            try:
                data, ancillary, _, _ = self.sock.recvmsg(1 << 20, room)
            except OSError:
                data, ancillary = b"", []
            with self.arrived:
                self.fds.extend(descriptors_of(ancillary))
                if not data:
                    self.closed = True
                self.input += data
                self.arrived.notify()
            if not data:
                return

    def dispatch_one(self):
        with self.arrived:
            while len(self.input) < 8 or len(self.input) < struct.unpack_from("<I", self.input, 4)[0] >> 16:
                if self.closed:
                    sys.stderr.write(
                        "hostile_wayland_owner: the compositor closed the connection after %d events (%s)\n"
                        % (self.handled, sorted(self.kinds.items())))
                    os._exit(1)
                self.arrived.wait()
            obj, header = struct.unpack_from("<II", self.input, 0)
            size, opcode = header >> 16, header & 0xFFFF
            body = bytes(self.input[8:size])
            del self.input[:size]
            kind = self.objects.get(obj, "offer" if obj >= SERVER_IDS else None)
            fd = self.fds.pop(0) if kind == "source" and opcode == 0 else None
        self.handled += 1
        self.kinds[(kind, opcode)] = self.kinds.get((kind, opcode), 0) + 1
        self.handle(obj, kind, opcode, body, fd)

    def handle(self, obj, kind, opcode, body, fd):
        if kind == "display" and opcode == 0:
            sys.stderr.write("hostile_wayland_owner: protocol error %r\n" % body)
            os._exit(1)
        elif kind == "registry" and opcode == 0:
            name, length = struct.unpack_from("<II", body, 0)
            interface = body[8:8 + length - 1].decode()
            version = struct.unpack_from("<I", body, 8 + (length + 3) // 4 * 4)[0]
            self.globals[interface] = (name, version)
        elif kind == "callback":
            self.done.add(obj)
        elif kind == "device" and opcode in (1, 3):  # selection, primary_selection
            offer = struct.unpack_from("<I", body, 0)[0]
            if offer and self.sources and (opcode == 3) == self.primary and not self.ready_said:
                self.ready_said = True
                say("ready")
        elif kind == "source" and opcode == 0:
            length = struct.unpack_from("<I", body, 0)[0]
            self.serve(obj, body[4:4 + length - 1].decode(errors="replace"), fd)
        elif kind == "source" and opcode == 1 and obj == self.sources[-1]:
            say("cancelled")

    def serve(self, source, kind, fd):
        bogus = kind.startswith("application/x-ferry-bogus-")
        if bogus:
            index = int(kind.rsplit("-", 1)[1])
            if index % 1000 == 0:
                say("send-bogus %d" % index)
        else:
            say("send " + kind)
        if self.mode == "replace":
            if source == self.sources[0]:
                if not self.replaced:
                    self.replaced = True
                    self.make_source(False)
                    say("replaced")
                return  # held open, never written
            return write_and_close(fd, REPLACEMENT_TEXT)
        if self.mode == "silent":
            return  # held open, never written
        if self.mode == "endless":
            return threading.Thread(target=write_forever, args=(fd,), daemon=True).start()
        if self.mode == "half":
            data = (b"e" * 63 + b"\n") * (HALF_TOTAL // 2 // 64)
            return threading.Thread(target=write_and_close, args=(fd, data), daemon=True).start()
        write_and_close(fd, b"b" if bogus else SHORT_TEXT)

    def run(self):
        registry = self.new_id("registry")
        self.send(self.message(1, 1, struct.pack("<I", registry)))  # wl_display.get_registry
        self.roundtrip()
        if "wl_seat" not in self.globals or "zwlr_data_control_manager_v1" not in self.globals:
            sys.stderr.write("hostile_wayland_owner: no seat or no data-control manager\n")
            return 1
        bound = []
        for interface, version, kind in [
            ("wl_seat", 1, "seat"),
            ("zwlr_data_control_manager_v1", min(2, self.globals["zwlr_data_control_manager_v1"][1]), "manager"),
        ]:
            made = self.new_id(kind)
            name = self.globals[interface][0]
            self.send(self.message(registry, 0, struct.pack("<I", name) + string(interface)
                                   + struct.pack("<II", version, made)))  # wl_registry.bind
            bound.append(made)
        self.seat, self.manager = bound
        self.device = self.new_id("device")
        self.send(self.message(self.manager, 1, struct.pack("<II", self.device, self.seat)))
        self.roundtrip()
        self.make_source(self.mode == "many-types")
        while True:
            self.dispatch_one()


def descriptors_of(ancillary):
    fds = array.array("i")
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
    return list(fds)


def write_and_close(fd, data):
    try:
        with os.fdopen(fd, "wb", buffering=0) as pipe:
            pipe.write(data)
    except OSError:
        pass


def write_forever(fd):
    chunk = (b"e" * 63 + b"\n") * 1024
    try:
        with os.fdopen(fd, "wb", buffering=0) as pipe:
            while True:
                pipe.write(chunk)
    except OSError:
        pass  # EPIPE: the reader closed its end


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.stderr.write("usage: hostile_wayland_owner.py clipboard|primary MODE [TYPES]\n")
        sys.exit(2)
    if len(sys.argv) == 4:
        bogus_types = int(sys.argv[3])
    sys.exit(Owner(sys.argv[1] == "primary", sys.argv[2]).run())
