#!/usr/bin/python3
"""GTK 3 selection peer for Ferry's X11 interop tests (run with /usr/bin/python3).

  gtk_clipboard.py [--selection NAME] [--save-when FILE] own TEXT_OR_@FILE [TARGET...]
      Owns the selection (CLIPBOARD by default) with a real server timestamp and offers
      TARGETs (UTF8_STRING by default). Text targets (UTF8_STRING, STRING, TEXT,
      COMPOUND_TEXT, text/plain*) are served with gtk_selection_data_set_text, so GTK does
      the encoding (Latin-1 for STRING, ISO 2022 for COMPOUND_TEXT); other targets get the
      bytes as is. `@path` reads the bytes from a file. Prints `ready` once GTK confirms
      ownership, `request TARGET` per SelectionRequest (one `request MULTIPLE` for a MULTIPLE
      request), `served TARGET` per target converted (each member of a MULTIPLE request too),
      and `lost` (then exits) on SelectionClear. With --save-when, once FILE exists it asks
      the clipboard manager to save the selection (SAVE_TARGETS on CLIPBOARD_MANAGER, as
      gtk_clipboard_store does) and prints `saving`; the manager then reads the selection
      and takes it.
  gtk_clipboard.py [--selection NAME] read TARGET...
      Prints `targets: A B C` (TARGETS, in the owner's order), then per TARGET either
        TARGET -> type=T format=F len=N sha256=H [hex=...] [text=HEX-OF-UTF8]
      or `TARGET -> none`, then `done`. `text=` is gtk_selection_data_get_text, in hex.
"""
import hashlib
import os
import sys

import gi

gi.require_version('Gtk', '3.0')
gi.require_version('Gdk', '3.0')
gi.require_version('GdkX11', '3.0')
gi.require_version('GLib', '2.0')
from gi.repository import Gdk, GdkX11, GLib, Gtk  # noqa: E402

TEXT_TARGETS = {'UTF8_STRING', 'STRING', 'TEXT', 'COMPOUND_TEXT'}


def is_text_target(name):
    return name in TEXT_TARGETS or name.startswith('text/plain')


def describe(sd):
    data = bytes(sd.get_data() or b'')
    line = 'type=%s format=%d len=%d sha256=%s' % (
        sd.get_data_type().name(), sd.get_format(), len(data), hashlib.sha256(data).hexdigest())
    if len(data) <= 256:
        line += ' hex=' + data.hex()
    text = sd.get_text()
    if text is not None:
        line += ' text=' + text.encode('utf-8').hex()
    return line


def own(selection, payload, targets, save_when=None):
    if payload.startswith('@'):
        with open(payload[1:], 'rb') as f:
            data = f.read()
    else:
        data = payload.encode('utf-8')
    targets = targets or ['UTF8_STRING']
    widget = Gtk.Invisible()  # never mapped; it owns the selection
    for info, name in enumerate(targets):
        Gtk.selection_add_target(widget, selection, Gdk.Atom.intern(name, False), info)

    def on_get(_widget, sd, info, _time):
        name = targets[info]
        if is_text_target(name):
            ok = sd.set_text(data.decode('utf-8'), -1)
        else:
            sd.set(Gdk.Atom.intern(name, False), 8, data)
            ok = True
        print('served %s ok=%s' % (name, ok), flush=True)

    def on_request(_widget, event):
        print('request %s' % event.target.name(), flush=True)
        return False  # GTK answers it

    def on_clear(_widget, _event):
        print('lost', flush=True)
        Gtk.main_quit()
        return True

    widget.connect('selection-request-event', on_request)
    widget.connect('selection-get', on_get)
    widget.connect('selection-clear-event', on_clear)

    def claim():
        widget.realize()
        time = GdkX11.x11_get_server_time(widget.get_window())
        if Gtk.selection_owner_set(widget, selection, time):
            print('ready time=%d' % time, flush=True)
        else:
            print('not-owned', flush=True)
            Gtk.main_quit()
        return False

    def save():
        if not os.path.exists(save_when):
            return True
        manager = Gdk.Atom.intern('CLIPBOARD_MANAGER', False)
        time = GdkX11.x11_get_server_time(widget.get_window())
        Gtk.selection_convert(widget, manager, Gdk.Atom.intern('SAVE_TARGETS', False), time)
        print('saving', flush=True)
        return False

    GLib.idle_add(claim)
    if save_when:
        GLib.timeout_add(50, save)
    Gtk.main()


def read(selection, targets):
    clipboard = Gtk.Clipboard.get(selection)
    ok, atoms = clipboard.wait_for_targets()
    print('targets:', ' '.join(a.name() for a in (atoms or [])) if ok else '(none)', flush=True)
    for name in targets:
        sd = clipboard.wait_for_contents(Gdk.Atom.intern(name, False))
        if sd is None or sd.get_length() < 0:
            print('%s -> none' % name, flush=True)
        else:
            print('%s -> %s' % (name, describe(sd)), flush=True)
    print('done', flush=True)


def main(argv):
    selection = 'CLIPBOARD'
    save_when = None
    while len(argv) > 2 and argv[1] in ('--selection', '--save-when'):
        if argv[1] == '--selection':
            selection = argv[2]
        else:
            save_when = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) < 2 or argv[1] not in ('own', 'read'):
        print(__doc__, file=sys.stderr)
        return 64
    atom = Gdk.Atom.intern(selection, False)
    if argv[1] == 'own':
        own(atom, argv[2], argv[3:], save_when)
    else:
        read(atom, argv[2:])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
