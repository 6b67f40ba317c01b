#!/usr/bin/python3
"""Image peers for Ferry's interop tests (run with /usr/bin/python3).

  image_peers.py gdk FILE REFERENCE
      Decodes FILE and REFERENCE with gdk-pixbuf (GTK's image loader) and prints
      `WIDTHxHEIGHT DIFF`: FILE's size and the largest difference of a color channel between
      the two over REFERENCE's opaque pixels (`-` when the sizes differ).
  image_peers.py gtk-read TARGET REFERENCE
      A GTK 3 program that asks CLIPBOARD for TARGET (gtk_clipboard_wait_for_contents), loads
      the bytes with a GdkPixbufLoader and prints `WIDTHxHEIGHT DIFF` as `gdk` does.
  image_peers.py gtk-copy FILE
      A GTK 3 program that copies FILE as an image (Gtk.Clipboard.set_image: gdk-pixbuf then
      offers every format it can save, converting on request), prints `ready` once it has
      asked for CLIPBOARD, and serves until killed.
  image_peers.py qt-png
      A Qt 5 program that reads CLIPBOARD's image/png, decodes it with QImage and prints
      `WIDTHxHEIGHT`, or `none` when there is no image/png.
"""
import sys


def compare(image, ref):
    a, b = ref.get_pixels(), image.get_pixels()
    na, nb = ref.get_n_channels(), image.get_n_channels()
    sa, sb = ref.get_rowstride(), image.get_rowstride()
    largest = 0
    for y in range(ref.get_height()):
        for x in range(ref.get_width()):
            if na == 4 and a[y * sa + x * na + 3] != 255:
                continue
            for c in range(3):
                largest = max(largest, abs(a[y * sa + x * na + c] - b[y * sb + x * nb + c]))
    return largest


def gdk(path, reference):
    import gi
    gi.require_version('GdkPixbuf', '2.0')
    from gi.repository import GdkPixbuf
    image = GdkPixbuf.Pixbuf.new_from_file(path)
    ref = GdkPixbuf.Pixbuf.new_from_file(reference)
    size = '%dx%d' % (image.get_width(), image.get_height())
    if (image.get_width(), image.get_height()) != (ref.get_width(), ref.get_height()):
        print(size, '-')
        return
    print(size, compare(image, ref))


def gtk_read(target, reference):
    import gi
    gi.require_version('Gtk', '3.0')
    gi.require_version('Gdk', '3.0')
    gi.require_version('GdkPixbuf', '2.0')
    from gi.repository import Gdk, GdkPixbuf, Gtk
    clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
    contents = clipboard.wait_for_contents(Gdk.Atom.intern(target, False))
    data = contents.get_data() if contents is not None else None
    if not data:
        print('none', flush=True)
        return
    loader = GdkPixbuf.PixbufLoader()
    loader.write(data)
    loader.close()
    image = loader.get_pixbuf()
    ref = GdkPixbuf.Pixbuf.new_from_file(reference)
    size = '%dx%d' % (image.get_width(), image.get_height())
    same = (image.get_width(), image.get_height()) == (ref.get_width(), ref.get_height())
    print(size, compare(image, ref) if same else '-', flush=True)


def gtk_copy(path):
    import gi
    gi.require_version('Gtk', '3.0')
    gi.require_version('Gdk', '3.0')
    gi.require_version('GdkPixbuf', '2.0')
    gi.require_version('GLib', '2.0')
    from gi.repository import Gdk, GdkPixbuf, GLib, Gtk
    clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
    pixbuf = GdkPixbuf.Pixbuf.new_from_file(path)

    def claim():
        clipboard.set_image(pixbuf)
        print('ready', flush=True)
        return False

    GLib.idle_add(claim)
    Gtk.main()


def qt_png():
    from PyQt5.QtGui import QGuiApplication, QImage
    app = QGuiApplication(['image_peers', '-platform', 'xcb'])
    mime = app.clipboard().mimeData()
    if mime is None or not mime.hasFormat('image/png'):
        print('none', flush=True)
        return
    image = QImage.fromData(bytes(mime.data('image/png')), 'PNG')
    print('none' if image.isNull() else '%dx%d' % (image.width(), image.height()), flush=True)


def main(argv):
    if len(argv) == 4 and argv[1] == 'gdk':
        gdk(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == 'gtk-read':
        gtk_read(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == 'gtk-copy':
        gtk_copy(argv[2])
    elif len(argv) == 2 and argv[1] == 'qt-png':
        qt_png()
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
