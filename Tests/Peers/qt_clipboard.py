#!/usr/bin/python3
"""Qt 5 selection owner for Ferry's X11 interop tests (run with /usr/bin/python3, PyQt5).

  qt_clipboard.py clipboard|primary @FILE [MIME...]
      Puts the file's bytes on the selection as text/plain (Qt offers UTF8_STRING, STRING,
      TEXT, COMPOUND_TEXT and text/plain*), and under each MIME type given (Qt offers each
      as a target of that name), prints `ready`, and serves until killed or until another
      client takes the selection (prints `lost`, exits).
"""
import sys

from PyQt5.QtCore import QMimeData
from PyQt5.QtGui import QClipboard, QGuiApplication


def main():
    mode = QClipboard.Clipboard if sys.argv[1] == 'clipboard' else QClipboard.Selection
    with open(sys.argv[2][1:], 'rb') as source:
        data = source.read()
    app = QGuiApplication(['qt_clipboard', '-platform', 'xcb'])
    clipboard = app.clipboard()
    state = {'owned': False}

    def changed(changed_mode):
        if changed_mode != mode:
            return
        if clipboard.ownsClipboard() if mode == QClipboard.Clipboard else clipboard.ownsSelection():
            if not state['owned']:
                state['owned'] = True
                print('ready', flush=True)
        elif state['owned']:
            print('lost', flush=True)
            app.quit()

    clipboard.changed.connect(changed)
    mime = QMimeData()
    mime.setText(data.decode('utf-8'))
    for name in sys.argv[3:]:
        mime.setData(name, data)
    clipboard.setMimeData(mime, mode)
    sys.exit(app.exec_())


if __name__ == '__main__':
    main()
