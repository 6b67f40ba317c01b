#!/usr/bin/python3
# GTK 3 XDND drag SOURCE for Ferry's drag-and-drop tests.
#
#   dnd_source.py X Y text TEXT          offer text only (4 text targets)
#   dnd_source.py X Y files PATH...      offer text/uri-list, then the paths as text (5 targets)
#
# A 200x200 window at (X, Y) whose whole area is the drag source (button 1). GTK sets
# XdndTypeList and leaves the inline XdndEnter slots empty, as it does with more than three
# targets. Logs one JSON object per line on stdout: ready, drag-begin, data-get, drag-end,
# drag-failed.
import json
import sys

import gi

gi.require_version('Gtk', '3.0')
gi.require_version('Gdk', '3.0')
gi.require_version('GLib', '2.0')
from gi.repository import Gdk, GLib, Gtk


def log(event, **fields):
    print(json.dumps(dict(event=event, **fields)), flush=True)


x, y, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
payload = sys.argv[4:]
if mode == 'text':
    names = ['text/plain;charset=utf-8', 'UTF8_STRING', 'STRING', 'TEXT']
    text = payload[0]
    uris = []
else:
    names = ['text/uri-list', 'text/plain;charset=utf-8', 'UTF8_STRING', 'STRING', 'TEXT']
    uris = [GLib.filename_to_uri(path, None) for path in payload]
    text = '\n'.join(payload)

window = Gtk.Window(title='dnd-source')
window.set_default_size(200, 200)
window.move(x, y)
area = Gtk.EventBox()
area.add(Gtk.Label(label='drag me'))
window.add(area)
targets = [Gtk.TargetEntry.new(name, 0, index) for index, name in enumerate(names)]
area.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, targets, Gdk.DragAction.COPY | Gdk.DragAction.MOVE)


def data_get(widget, context, selection, info, time):
    name = selection.get_target().name()
    log('data-get', target=name)
    if name == 'text/uri-list':
        selection.set_uris(uris)
    else:
        selection.set_text(text, -1)


def drag_end(widget, context):
    action = context.get_selected_action()
    log('drag-end', action=action.value_nicks[0] if action and action.value_nicks else None)
    GLib.timeout_add(200, Gtk.main_quit)


area.connect('drag-begin', lambda widget, context: log('drag-begin'))
area.connect('drag-data-get', data_get)
area.connect('drag-end', drag_end)
area.connect('drag-failed', lambda widget, context, result: log('drag-failed', result=result.value_nick) or False)
window.connect('destroy', Gtk.main_quit)


def mapped(widget, event):
    log('ready', xid=hex(window.get_window().get_xid()), targets=names)
    return False


window.connect('map-event', mapped)
window.show_all()
Gtk.main()
