#!/usr/bin/python3
# GTK 3 XDND drop TARGET for Ferry's drag-and-drop tests.
#
#   dnd_target.py X Y
#
# A 200x200 window at (X, Y) taking text/uri-list, text/plain;charset=utf-8 and UTF8_STRING
# (copy, move or link). Logs one JSON object per line on stdout: ready; motion (once per
# distinct offer: the offered targets in order and the suggested action); leave; drop; and
# received (the target, the data in hex, the URIs, the action).
import json
import sys

import gi

gi.require_version('Gtk', '3.0')
gi.require_version('Gdk', '3.0')
from gi.repository import Gdk, Gtk


def log(event, **fields):
    print(json.dumps(dict(event=event, **fields)), flush=True)


def nick(action):
    return action.value_nicks[0] if action and action.value_nicks else None


x, y = int(sys.argv[1]), int(sys.argv[2])
window = Gtk.Window(title='dnd-target')
window.set_default_size(200, 200)
window.move(x, y)
area = Gtk.EventBox()
area.add(Gtk.Label(label='drop here'))
window.add(area)
names = ['text/uri-list', 'text/plain;charset=utf-8', 'UTF8_STRING']
targets = [Gtk.TargetEntry.new(name, 0, index) for index, name in enumerate(names)]
area.drag_dest_set(
    Gtk.DestDefaults.ALL, targets, Gdk.DragAction.COPY | Gdk.DragAction.MOVE | Gdk.DragAction.LINK)
seen = set()


def motion(widget, context, x, y, time):
    offered = tuple(atom.name() for atom in context.list_targets())
    if offered not in seen:
        seen.add(offered)
        log('motion', offered=list(offered), suggested=nick(context.get_suggested_action()), x=x, y=y)


def received(widget, context, x, y, selection, info, time):
    log('received', target=selection.get_target().name(), type=selection.get_data_type().name(),
        data=bytes(selection.get_data()).hex(), uris=selection.get_uris() or [],
        action=nick(context.get_selected_action()))


area.connect('drag-motion', motion)
area.connect('drag-leave', lambda widget, context, time: log('leave'))
area.connect('drag-drop', lambda widget, context, x, y, time: log('drop', x=x, y=y) or False)
area.connect('drag-data-received', received)
window.connect('destroy', Gtk.main_quit)


def mapped(widget, event):
    log('ready', xid=hex(window.get_window().get_xid()))
    return False


window.connect('map-event', mapped)
window.show_all()
Gtk.main()
