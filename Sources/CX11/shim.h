// Xlib and XFixes for Swift: the headers, and small functions for what Swift cannot import
// (macros and unions). Only X11Core imports this module.
#ifndef CX11_SHIM_H
#define CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xfixes.h>

// The union member an event's type selects, read without Swift's union accessors.
static inline int cx11_event_type(const XEvent *event) { return event->type; }

// XFixesSelectionNotifyEvent shares XEvent's storage.
static inline const XFixesSelectionNotifyEvent *cx11_xfixes_selection_event(const XEvent *event) {
  return (const XFixesSelectionNotifyEvent *)event;
}

// XClientMessageEvent.data.l: format-32 data are C longs.
static inline long cx11_client_long(const XEvent *event, int index) {
  return event->xclient.data.l[index];
}
static inline void cx11_set_client_long(XEvent *event, int index, long value) {
  event->xclient.data.l[index] = value;
}

#endif
