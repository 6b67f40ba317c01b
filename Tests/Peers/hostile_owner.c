/* hostile_owner: a selection owner that misbehaves in one chosen way, for Ferry's tests of
 * what a hostile owner may cost the broker (Tests/FerryBrokerTests/Interop). Not compiled by
 * SwiftPM: the tests build it with `cc -O1 -o hostile_owner hostile_owner.c -lX11`.
 *
 *   hostile_owner SELECTION MODE
 *
 * Takes SELECTION (CLIPBOARD, PRIMARY, any name) with a real server timestamp and prints
 * `ready` once it owns it. It answers TARGETS with `TARGETS UTF8_STRING` (except in
 * many-targets), refuses every other target but UTF8_STRING, and answers UTF8_STRING by MODE:
 *
 *   silent         never answers (no SelectionNotify at all);
 *   stop-incr      announces INCR (size 4096), sends one chunk when the requestor deletes the
 *                  announcement, then never sends more;
 *   wrong-type     type INTEGER, format 32, three values;
 *   utf8-format32  type UTF8_STRING, format 32, three values;
 *   many-targets   TARGETS lists 100,000 distinct bogus atoms (one XInternAtoms call), then
 *                  UTF8_STRING; UTF8_STRING is answered with SHORT_TEXT below;
 *   huge-incr      announces INCR with size 0xFFFFFFFF, then sends CHUNKS small chunks and
 *                  the zero-length terminator, one per deletion: a correct INCR sender
 *                  otherwise.
 *
 * The multiple-* modes list MULTIPLE and text/html too (TARGETS is `TARGETS MULTIPLE
 * UTF8_STRING text/html`), answer UTF8_STRING with SHORT_TEXT and text/html with HTML_TEXT
 * when asked one at a time, and spoil MULTIPLE:
 *
 *   multiple-refused    answers MULTIPLE with property None;
 *   multiple-silent     never answers MULTIPLE;
 *   multiple-malformed  converts the first pair, then rewrites the pair list as three
 *                       INTEGERs and answers with it.
 *
 * Prints one line per request: `request target=T`, followed by ` stale` when the request's
 * time is earlier than the time it took the selection (an ICCCM owner refuses such a
 * request; this one answers it); `lost` on SelectionClear (it keeps serving transfers in
 * progress). Runs until killed.
 *
 * ICCCM: https://www.x.org/releases/X11R7.6/doc/xorg-docs/specs/ICCCM/icccm.html §2.
 * Format-32 property data is an array of C `long`, whatever the long's size.
 */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHORT_TEXT "hostile but short"
#define CHUNK_TEXT "chunk of a huge transfer;"
#define HTML_TEXT "<b>hostile but short</b>"
enum { BOGUS_TARGETS = 100000, CHUNKS = 3, MAX_TRANSFERS = 64 };

static Display *dpy;
static Window win;
static const char *mode;
static Atom targets_atom, utf8_atom, incr_atom, multiple_atom, html_atom;
static Time owned_since; /* the server time it took the selection */
static Atom *many;      /* many-targets: the bogus atoms, then UTF8_STRING */
static int many_count;

/* An INCR transfer in progress: where it goes and how many chunks were sent. */
struct transfer {
  Window requestor;
  Atom property;
  int sent;
  int active;
};
static struct transfer transfers[MAX_TRANSFERS];

static Atom atom(const char *name) { return XInternAtom(dpy, name, False); }

static void notify(XSelectionRequestEvent *req, Atom property) {
  XEvent ev;
  memset(&ev, 0, sizeof ev);
  ev.xselection.type = SelectionNotify;
  ev.xselection.display = dpy;
  ev.xselection.requestor = req->requestor;
  ev.xselection.selection = req->selection;
  ev.xselection.target = req->target;
  ev.xselection.property = property;
  ev.xselection.time = req->time;
  XSendEvent(dpy, req->requestor, False, NoEventMask, &ev);
}

static void start_incr(XSelectionRequestEvent *req, Atom property, long size) {
  int slot = -1;
  for (int i = 0; i < MAX_TRANSFERS; i++)
    if (!transfers[i].active) { slot = i; break; }
  if (slot < 0) { notify(req, None); return; }
  transfers[slot] = (struct transfer){req->requestor, property, 0, 1};
  /* Hear the requestor delete the property: that asks for the next chunk. */
  XSelectInput(dpy, req->requestor, PropertyChangeMask);
  XChangeProperty(dpy, req->requestor, property, incr_atom, 32, PropModeReplace, (unsigned char *)&size, 1);
  notify(req, property);
}

/* The requestor deleted `property` on `w`: the next chunk of that transfer, if any. */
static void next_chunk(Window w, Atom property) {
  for (int i = 0; i < MAX_TRANSFERS; i++) {
    struct transfer *t = &transfers[i];
    if (!t->active || t->requestor != w || t->property != property) continue;
    if (strcmp(mode, "stop-incr") == 0) {
      if (t->sent == 0) {
        XChangeProperty(dpy, w, property, utf8_atom, 8, PropModeReplace, (unsigned char *)"first and last", 14);
        t->sent = 1;
        printf("stopped\n");
      }
      return; /* and never more */
    }
    if (t->sent < CHUNKS) {
      XChangeProperty(dpy, w, property, utf8_atom, 8, PropModeReplace, (unsigned char *)CHUNK_TEXT,
                      (int)strlen(CHUNK_TEXT));
      t->sent++;
    } else {
      XChangeProperty(dpy, w, property, utf8_atom, 8, PropModeReplace, (unsigned char *)"", 0);
      t->active = 0;
      printf("finished\n");
    }
    return;
  }
}

static int multiple_mode(void) { return strncmp(mode, "multiple-", 9) == 0; }

/* A multiple-* mode's MULTIPLE request, spoilt as the mode says. */
static void answer_multiple(XSelectionRequestEvent *req) {
  if (strcmp(mode, "multiple-silent") == 0) return; /* never answered */
  if (strcmp(mode, "multiple-refused") == 0 || req->property == None) { notify(req, None); return; }
  /* multiple-malformed: the first pair is converted, the list comes back as INTEGERs. */
  Atom type;
  int format;
  unsigned long count, after;
  unsigned char *data = NULL;
  if (XGetWindowProperty(dpy, req->requestor, req->property, 0, 1024, False, AnyPropertyType, &type, &format,
                         &count, &after, &data) == Success && data && format == 32 && count >= 2) {
    Atom member = (Atom)((long *)data)[1];
    XChangeProperty(dpy, req->requestor, member, utf8_atom, 8, PropModeReplace, (unsigned char *)SHORT_TEXT,
                    (int)strlen(SHORT_TEXT));
  }
  if (data) XFree(data);
  long values[3] = {1, 2, 3};
  XChangeProperty(dpy, req->requestor, req->property, XA_INTEGER, 32, PropModeReplace, (unsigned char *)values, 3);
  notify(req, req->property);
}

static void answer(XSelectionRequestEvent *req) {
  Atom property = req->property == None ? req->target : req->property;
  char *name = XGetAtomName(dpy, req->target);
  int stale = req->time != CurrentTime && req->time < owned_since;
  printf("request target=%s%s\n", name ? name : "?", stale ? " stale" : "");
  if (name) XFree(name);

  if (req->target == targets_atom) {
    if (many) {
      XChangeProperty(dpy, req->requestor, property, XA_ATOM, 32, PropModeReplace, (unsigned char *)many, many_count);
    } else if (multiple_mode()) {
      Atom list[4] = {targets_atom, multiple_atom, utf8_atom, html_atom};
      XChangeProperty(dpy, req->requestor, property, XA_ATOM, 32, PropModeReplace, (unsigned char *)list, 4);
    } else {
      Atom list[2] = {targets_atom, utf8_atom};
      XChangeProperty(dpy, req->requestor, property, XA_ATOM, 32, PropModeReplace, (unsigned char *)list, 2);
    }
    notify(req, property);
    return;
  }
  if (multiple_mode() && req->target == multiple_atom) { answer_multiple(req); return; }
  if (multiple_mode() && req->target == html_atom) {
    XChangeProperty(dpy, req->requestor, property, html_atom, 8, PropModeReplace, (unsigned char *)HTML_TEXT,
                    (int)strlen(HTML_TEXT));
    notify(req, property);
    return;
  }
  if (req->target != utf8_atom) { notify(req, None); return; }

  long values[3] = {1, 2, 0x41424344};
  if (strcmp(mode, "silent") == 0) {
    return; /* never answered */
  } else if (strcmp(mode, "stop-incr") == 0) {
    start_incr(req, property, 4096);
  } else if (strcmp(mode, "huge-incr") == 0) {
    start_incr(req, property, 0xFFFFFFFFL);
  } else if (strcmp(mode, "wrong-type") == 0) {
    XChangeProperty(dpy, req->requestor, property, XA_INTEGER, 32, PropModeReplace, (unsigned char *)values, 3);
    notify(req, property);
  } else if (strcmp(mode, "utf8-format32") == 0) {
    XChangeProperty(dpy, req->requestor, property, utf8_atom, 32, PropModeReplace, (unsigned char *)values, 3);
    notify(req, property);
  } else {
    XChangeProperty(dpy, req->requestor, property, utf8_atom, 8, PropModeReplace, (unsigned char *)SHORT_TEXT,
                    (int)strlen(SHORT_TEXT));
    notify(req, property);
  }
}

static void make_many_targets(void) {
  char **names = malloc(sizeof(char *) * BOGUS_TARGETS);
  many = malloc(sizeof(Atom) * (BOGUS_TARGETS + 1));
  for (int i = 0; i < BOGUS_TARGETS; i++) {
    names[i] = malloc(32);
    snprintf(names[i], 32, "FERRY_BOGUS_TARGET_%d", i);
  }
  if (!XInternAtoms(dpy, names, BOGUS_TARGETS, False, many)) {
    fprintf(stderr, "hostile_owner: XInternAtoms failed\n");
    exit(1);
  }
  for (int i = 0; i < BOGUS_TARGETS; i++) free(names[i]);
  free(names);
  many[BOGUS_TARGETS] = utf8_atom;
  many_count = BOGUS_TARGETS + 1;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: hostile_owner SELECTION silent|stop-incr|wrong-type|utf8-format32|many-targets|huge-incr|"
                    "multiple-refused|multiple-silent|multiple-malformed\n");
    return 2;
  }
  const char *modes[] = {"silent",    "stop-incr",        "wrong-type",      "utf8-format32",     "many-targets",
                         "huge-incr", "multiple-refused", "multiple-silent", "multiple-malformed"};
  int known = 0;
  for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) known |= strcmp(argv[2], modes[i]) == 0;
  if (!known) { fprintf(stderr, "hostile_owner: unknown mode %s\n", argv[2]); return 2; }
  mode = argv[2];
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (!(dpy = XOpenDisplay(NULL))) { fprintf(stderr, "hostile_owner: cannot open display\n"); return 1; }
  targets_atom = atom("TARGETS");
  utf8_atom = atom("UTF8_STRING");
  incr_atom = atom("INCR");
  multiple_atom = atom("MULTIPLE");
  html_atom = atom("text/html");
  if (strcmp(mode, "many-targets") == 0) make_many_targets();
  Atom selection = atom(argv[1]);
  win = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), -10, -10, 1, 1, 0, 0, 0);
  XSelectInput(dpy, win, PropertyChangeMask);

  /* A real server timestamp: the time of a property change on our own window. */
  XEvent ev;
  XChangeProperty(dpy, win, XA_WM_NAME, XA_STRING, 8, PropModeAppend, (unsigned char *)"", 0);
  do XNextEvent(dpy, &ev); while (ev.type != PropertyNotify);
  owned_since = ev.xproperty.time;
  XSetSelectionOwner(dpy, selection, win, owned_since);
  if (XGetSelectionOwner(dpy, selection) != win) { fprintf(stderr, "hostile_owner: could not own\n"); return 1; }
  printf("ready\n");

  for (;;) {
    XNextEvent(dpy, &ev);
    switch (ev.type) {
    case SelectionRequest:
      answer(&ev.xselectionrequest);
      break;
    case PropertyNotify:
      if (ev.xproperty.state == PropertyDelete && ev.xproperty.window != win)
        next_chunk(ev.xproperty.window, ev.xproperty.atom);
      break;
    case SelectionClear:
      printf("lost\n");
      break;
    }
    XFlush(dpy);
  }
}
