#!/usr/bin/python3
"""A GTK 4 Wayland program that copies HTML and text, for the desktop-session tests.

  gtk4_rich_copy.py HTML TEXT

Opens a window and, once it is active (a Wayland compositor takes a selection only from the
client with keyboard focus, and Mutter gives focus only to a mapped window), sets the
clipboard to a union of two providers: `text/html` with HTML and `text/plain;charset=utf-8`
with TEXT (`Gdk.ContentProvider.new_union`, as a rich-text editor copies), and prints
`copied`. It then serves the clipboard until a line arrives on standard input (read only
after `copied`, so a line given at the start ends it right after it has copied) or until
SIGTERM, and exits 0. End of input without a line does not end it (a peer started with no
input, /dev/null, serves until SIGTERM).

At each key press it sets the clipboard again and prints `copied again`. GTK 4 sends a
selection with the serial of the last key press (0 before any), and Mutter 43 ignores a
selection whose serial is older than the current selection's: on Mutter, after another
client's copy, the copy made when the window became active is dropped without a word, and
only one after a key press (MutterSession.pressKey()) takes. KWin 5.27 takes serial 0.

Exits 2 on wrong arguments, 3 when the window is not active within 20 s (no keyboard focus:
nothing was copied). GDK_BACKEND defaults to `wayland`: GTK would take X11 when only DISPLAY
works, and a test of a Wayland copy must not pass through Xwayland by mistake.
"""
import os
import signal
import sys

os.environ.setdefault('GDK_BACKEND', 'wayland')

import gi  # noqa: E402

gi.require_version('GLib', '2.0')
gi.require_version('Gdk', '4.0')
gi.require_version('Gtk', '4.0')
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

FOCUS_LIMIT_SECONDS = 20


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    html = sys.argv[1].encode('utf-8')
    text = sys.argv[2].encode('utf-8')
    loop = GLib.MainLoop()
    status = [0]
    # Held here: a provider the clipboard no longer references would be freed.
    state = {'content': None, 'copied': False}

    def quit_with(code):
        status[0] = code
        loop.quit()
        return GLib.SOURCE_REMOVE

    def on_input(channel, condition):
        line = sys.stdin.readline() if condition & GLib.IOCondition.IN else ''
        if line:
            return quit_with(0)
        # End of input: keep serving until SIGTERM.
        return GLib.SOURCE_REMOVE

    def set_clipboard(window):
        state['content'] = Gdk.ContentProvider.new_union([
            Gdk.ContentProvider.new_for_bytes('text/html', GLib.Bytes.new(html)),
            Gdk.ContentProvider.new_for_bytes('text/plain;charset=utf-8', GLib.Bytes.new(text)),
        ])
        window.get_clipboard().set_content(state['content'])

    def copy(window):
        if state['copied'] or not window.props.is_active:
            return
        state['copied'] = True
        set_clipboard(window)
        print('copied', flush=True)
        GLib.io_add_watch(
            GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
            GLib.IOCondition.IN | GLib.IOCondition.HUP | GLib.IOCondition.ERR, on_input)

    def key_pressed(controller, keyval, keycode, modifiers):
        if state['copied']:
            set_clipboard(window)
            print('copied again', flush=True)
        return False

    def no_focus():
        if not state['copied']:
            print('gtk4_rich_copy: the window was not active within %d s; nothing copied'
                  % FOCUS_LIMIT_SECONDS, file=sys.stderr, flush=True)
            return quit_with(3)
        return GLib.SOURCE_REMOVE

    display = Gdk.Display.get_default()
    if display is None:
        print('gtk4_rich_copy: no display (GDK_BACKEND=%s)' % os.environ['GDK_BACKEND'],
              file=sys.stderr)
        return 3
    window = Gtk.Window(title='ferry-gtk4-rich-copy')
    window.set_default_size(200, 100)
    window.connect('notify::is-active', lambda w, _: copy(w))
    window.connect('close-request', lambda w: quit_with(0) and False)
    keys = Gtk.EventControllerKey()
    keys.connect('key-pressed', key_pressed)
    window.add_controller(keys)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: quit_with(0))
    GLib.timeout_add_seconds(FOCUS_LIMIT_SECONDS, no_focus)
    window.present()
    loop.run()
    window.destroy()
    return status[0]


if __name__ == '__main__':
    sys.exit(main())
