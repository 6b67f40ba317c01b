#!/usr/bin/python3
"""GTK 3 clipboard peer on Wayland (GDK_BACKEND=wayland) for Ferry's Wayland interop tests.

  gtk_wayland_clipboard.py own TEXT
      Shows a window and prints `window`; on its first key press (the test sends one with
      `wtype -k Shift_L`: GTK may set a Wayland selection only with the serial of an input
      event) it copies TEXT with gtk_clipboard_set_text and prints `ready`; then serves until
      killed.
  gtk_wayland_clipboard.py read
      Shows a window and prints `window`; on its first key press (a Wayland client learns of
      the selection only while it has keyboard focus) prints the clipboard's text
      (gtk_clipboard_wait_for_text) after `text: `, or `none`, and exits.
"""
import sys

import gi

gi.require_version('Gtk', '3.0')
gi.require_version('Gdk', '3.0')
gi.require_version('GLib', '2.0')
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def main():
    reading = len(sys.argv) == 2 and sys.argv[1] == 'read'
    if not reading and (len(sys.argv) != 3 or sys.argv[1] != 'own'):
        print(__doc__, file=sys.stderr)
        return 2
    window = Gtk.Window(title='ferry-gtk-peer')
    done = []

    def key(widget, event):
        if done:
            return False
        done.append(True)
        clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
        if reading:
            text = clipboard.wait_for_text()
            print('text: ' + text if text is not None else 'none', flush=True)
            Gtk.main_quit()
        else:
            clipboard.set_text(sys.argv[2], -1)
            print('ready', flush=True)
        return False

    window.connect('key-press-event', key)
    window.connect('destroy', Gtk.main_quit)
    window.show_all()
    GLib.idle_add(lambda: print('window', flush=True) and False)
    Gtk.main()
    return 0


if __name__ == '__main__':
    sys.exit(main())
