/* x11_contract_owner: the owner the selection-backend contract (Sources/SelectionBackendContract)
 * plays on X11: a plain ICCCM owner of the targets it is given, in the order given, each with its
 * bytes, or silent. Not compiled by SwiftPM: the tests build it with
 * `cc -O1 -o x11_contract_owner x11_contract_owner.c -lX11`.
 *
 *   x11_contract_owner SELECTION SPEC...
 *
 * Each SPEC is one target: `NAME=HEX` (these bytes, hexadecimal), `NAME#COUNT` (COUNT bytes of
 * the contract's pattern, byte i = (i * 7 + (i >> 13)) & 0xff) or `NAME!` (never answered: no
 * SelectionNotify at all). TARGETS lists TARGETS, then the names in the order given; any other
 * target is refused (property None). Every answer is one property of the target's own type,
 * format 8 (no INCR: keep payloads under the server's request size).
 *
 * Takes SELECTION (CLIPBOARD, PRIMARY, any name) with a real server timestamp and prints `ready`
 * once it owns it; prints `lost` and exits on SelectionClear. Runs until then, or until killed.
 *
 * ICCCM: https://www.x.org/releases/X11R7.6/doc/xorg-docs/specs/ICCCM/icccm.html §2.
 */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct target {
  Atom atom;
  unsigned char *bytes;
  long count;
  int silent;
};

static Display *dpy;
static Window win;
static struct target *targets;
static int target_count;

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

static int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Parses one SPEC into `t`; 0 on success. */
static int parse(const char *spec, struct target *t) {
  const char *mark = strpbrk(spec, "=#!");
  if (!mark || mark == spec) return 1;
  char *name = strndup(spec, (size_t)(mark - spec));
  t->atom = XInternAtom(dpy, name, False);
  free(name);
  t->silent = *mark == '!';
  t->bytes = NULL;
  t->count = 0;
  if (*mark == '=') {
    size_t digits = strlen(mark + 1);
    if (digits % 2) return 1;
    t->count = (long)(digits / 2);
    t->bytes = malloc((size_t)t->count + 1);
    for (long i = 0; i < t->count; i++) {
      int high = hex(mark[1 + 2 * i]), low = hex(mark[2 + 2 * i]);
      if (high < 0 || low < 0) return 1;
      t->bytes[i] = (unsigned char)(high << 4 | low);
    }
  } else if (*mark == '#') {
    t->count = atol(mark + 1);
    t->bytes = malloc((size_t)t->count + 1);
    for (long i = 0; i < t->count; i++) t->bytes[i] = (unsigned char)((i * 7 + (i >> 13)) & 0xff);
  }
  return 0;
}

static void answer(XSelectionRequestEvent *req, Atom targets_atom) {
  Atom property = req->property == None ? req->target : req->property;
  if (req->target == targets_atom) {
    Atom *list = malloc(sizeof(Atom) * (size_t)(target_count + 1));
    list[0] = targets_atom;
    for (int i = 0; i < target_count; i++) list[i + 1] = targets[i].atom;
    XChangeProperty(dpy, req->requestor, property, XA_ATOM, 32, PropModeReplace, (unsigned char *)list,
                    target_count + 1);
    free(list);
    notify(req, property);
    return;
  }
  for (int i = 0; i < target_count; i++) {
    if (targets[i].atom != req->target) continue;
    if (targets[i].silent) return; /* never answered */
    XChangeProperty(dpy, req->requestor, property, req->target, 8, PropModeReplace, targets[i].bytes,
                    (int)targets[i].count);
    notify(req, property);
    return;
  }
  notify(req, None);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: x11_contract_owner SELECTION [NAME=HEX|NAME#COUNT|NAME!]...\n");
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (!(dpy = XOpenDisplay(NULL))) { fprintf(stderr, "x11_contract_owner: cannot open display\n"); return 1; }
  target_count = argc - 2;
  targets = calloc((size_t)target_count + 1, sizeof *targets);
  for (int i = 0; i < target_count; i++) {
    if (parse(argv[i + 2], &targets[i])) {
      fprintf(stderr, "x11_contract_owner: bad target %s\n", argv[i + 2]);
      return 2;
    }
  }
  Atom targets_atom = XInternAtom(dpy, "TARGETS", False);
  Atom selection = XInternAtom(dpy, argv[1], False);
  win = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), -10, -10, 1, 1, 0, 0, 0);
  XSelectInput(dpy, win, PropertyChangeMask);

  /* A real server timestamp: the time of a property change on our own window. */
  XEvent ev;
  XChangeProperty(dpy, win, XA_WM_NAME, XA_STRING, 8, PropModeAppend, (unsigned char *)"", 0);
  do XNextEvent(dpy, &ev); while (ev.type != PropertyNotify);
  XSetSelectionOwner(dpy, selection, win, ev.xproperty.time);
  if (XGetSelectionOwner(dpy, selection) != win) { fprintf(stderr, "x11_contract_owner: could not own\n"); return 1; }
  printf("ready\n");
  for (;;) {
    XNextEvent(dpy, &ev);
    if (ev.type == SelectionRequest) {
      answer(&ev.xselectionrequest, targets_atom);
      XFlush(dpy);
    } else if (ev.type == SelectionClear) {
      printf("lost\n");
      return 0;
    }
  }
}
