#!/usr/bin/python3
"""Qt 5 selection owner for Ferry's X11 interop tests (run with /usr/bin/python3, PyQt5).

  qt_clipboard.py clipboard|primary @FILE [--quit-when EXISTS] [MIME...]
      Puts the file's bytes on the selection as text/plain (Qt offers UTF8_STRING, STRING,
      TEXT, COMPOUND_TEXT and text/plain*), and under each MIME type given (Qt offers each
      as a target of that name), prints `ready`, and serves until killed or until another
      client takes the selection (prints `lost`, exits). With --quit-when, quits the
      application normally once the file EXISTS appears (prints `quitting`): Qt then hands
      the clipboard to the clipboard manager (SAVE_TARGETS) as it closes.
"""
import os
import sys

from PyQt5.QtCore import QMimeData, QTimer
from PyQt5.QtGui import QClipboard, QGuiApplication


def main():
    mode = QClipboard.Clipboard if sys.argv[1] == 'clipboard' else QClipboard.Selection
    with open(sys.argv[2][1:], 'rb') as source:
        data = source.read()
    extra = sys.argv[3:]
    quit_when = None
    if len(extra) >= 2 and extra[0] == '--quit-when':
        quit_when, extra = extra[1], extra[2:]
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

    def check_quit():
        if os.path.exists(quit_when):
            print('quitting', flush=True)
            app.quit()

    clipboard.changed.connect(changed)
    mime = QMimeData()
    mime.setText(data.decode('utf-8'))
    for name in extra:
        mime.setData(name, data)
    clipboard.setMimeData(mime, mode)
    if quit_when:
        timer = QTimer()
        timer.timeout.connect(check_quit)
        timer.start(50)
    sys.exit(app.exec_())


if __name__ == '__main__':
    main()
