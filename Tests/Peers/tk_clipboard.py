#!/usr/bin/python3
"""Tk clipboard peer for Ferry's X11 interop tests (run with /usr/bin/python3, tkinter).

  tk_clipboard.py own TEXT
      clipboard_clear + clipboard_append(TEXT): Tk takes CLIPBOARD. Prints `ready` once Tk
      has processed the claim, then serves until killed.
  tk_clipboard.py read TARGET...
      Per TARGET, clipboard_get(type=TARGET): prints `TARGET -> HEX-OF-UTF8` or
      `TARGET -> none (reason)`, then `done`. TARGETS is printed as names separated by spaces.
"""
import sys
import tkinter


def own(root, text):
    root.clipboard_clear()
    root.clipboard_append(text)
    root.update()  # Tk claims CLIPBOARD when it processes the append
    print('ready', flush=True)
    root.mainloop()


def read(root, targets):
    for name in targets:
        try:
            value = root.clipboard_get(type=name)
            if name == 'TARGETS':  # a Tcl list: names with ';' come braced
                value = ' '.join(root.tk.splitlist(value))
            print('%s -> text=%s' % (name, str(value).encode('utf-8').hex()), flush=True)
        except tkinter.TclError as error:
            print('%s -> none (%s)' % (name, error), flush=True)
    print('done', flush=True)


def main(argv):
    if len(argv) < 3 or argv[1] not in ('own', 'read'):
        print(__doc__, file=sys.stderr)
        return 64
    root = tkinter.Tk()
    root.withdraw()
    if argv[1] == 'own':
        own(root, argv[2])
    else:
        read(root, argv[2:])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
