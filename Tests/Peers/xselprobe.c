/* xselprobe: an Xlib peer that shows what a selection owner or requestor really puts on the
 * wire, for Ferry's X11 interop tests (Tests/X11SelectionsTests). Not compiled by SwiftPM:
 * the tests build it with `cc -O1 -o xselprobe xselprobe.c -lX11`.
 *
 *   xselprobe get SELECTION TARGET [OUTFILE] [--obsolete] [--time T]
 *       Converts SELECTION to TARGET with a real server timestamp, follows INCR, and prints
 *         result type=T format=F items=N incr=0|1 chunks=C bytes=B [hex=...]
 *       then, for ATOM replies, one `atom=NAME` line per atom and, for other format-32
 *       replies, one `value=N` line per item. Format-8 bytes go to OUTFILE when given.
 *       --obsolete asks with property None, as pre-ICCCM clients do; --time T asks with
 *       request time T instead of the current server time (0 is CurrentTime).
 *       Prints `refused` (exit 1) or `timeout` (exit 2) instead of a result.
 *   xselprobe multiple SELECTION TARGET...
 *       One MULTIPLE request for all TARGETs; prints per pair
 *         pair target=T ok type=T format=F bytes=B hex=...    or    pair target=T none
 *   xselprobe stall SELECTION TARGET
 *       Starts an INCR read, reads the first chunk without deleting it, prints
 *       `stalled bytes=B`, then never deletes again: prints `late-chunk` if the owner writes
 *       anyway. Runs until killed.
 *   xselprobe own SELECTION
 *       Takes SELECTION, prints `owned window=0x...`, and never answers a SelectionRequest
 *       (prints `ignored target=T` for each). Prints `lost` and exits on SelectionClear.
 *
 * ICCCM: https://www.x.org/releases/X11R7.6/doc/xorg-docs/specs/ICCCM/icccm.html §2.
 * Format-32 property data is an array of C `long`, whatever the long's size.
 */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>

enum { STEP_MS = 5000, STALL_MS = 60000, HEX_LIMIT = 256 };

static Display *dpy;
static Window win;

static Atom atom(const char *name) { return XInternAtom(dpy, name, False); }

static void print_atom_name(const char *key, Atom a) {
  if (a == None) { printf("%s=None", key); return; }
  char *name = XGetAtomName(dpy, a);
  printf("%s=%s", key, name ? name : "?");
  if (name) XFree(name);
}

/* Waits up to `ms` for an event of `type` on `w` (any window when w is None). */
static int next_event(XEvent *ev, int type, Window w, int ms) {
  for (;;) {
    while (XPending(dpy)) {
      XNextEvent(dpy, ev);
      if (ev->type == type && (w == None || ev->xany.window == w)) return 1;
    }
    int fd = ConnectionNumber(dpy);
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(fd, &fds);
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    if (select(fd + 1, &fds, NULL, NULL, ms < 0 ? NULL : &tv) <= 0) return 0;
  }
}

/* A real server time: a zero-length append makes the server send a PropertyNotify. */
static Time server_time(void) {
  Atom p = atom("XSELPROBE_TIME");
  XChangeProperty(dpy, win, p, XA_STRING, 8, PropModeAppend, NULL, 0);
  XEvent ev;
  for (;;) {
    if (!next_event(&ev, PropertyNotify, win, STEP_MS)) return CurrentTime;
    if (ev.xproperty.atom == p) return ev.xproperty.time;
  }
}

static size_t byte_length(int format, unsigned long items) {
  return items * (format == 32 ? sizeof(long) : (size_t)format / 8);
}

static void print_hex(const unsigned char *data, size_t n) {
  printf(" hex=");
  for (size_t i = 0; i < n; i++) printf("%02x", data[i]);
}

/* Prints the items of a property value after the result line. */
static void print_items(Atom type, int format, const unsigned char *data, unsigned long n) {
  if (format != 32) return;
  const long *values = (const long *)data;
  for (unsigned long i = 0; i < n; i++) {
    if (type == XA_ATOM) { print_atom_name("atom", (Atom)values[i]); printf("\n"); }
    else printf("value=%ld\n", values[i]);
  }
}

static int get(int argc, char **argv) {
  if (argc < 4) return 64;
  Atom sel = atom(argv[2]), target = atom(argv[3]);
  const char *outfile = NULL;
  int obsolete = 0, fixed_time = 0;
  Time t = CurrentTime;
  for (int i = 4; i < argc; i++) {
    if (strcmp(argv[i], "--obsolete") == 0) obsolete = 1;
    else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc) { t = strtoul(argv[++i], NULL, 10); fixed_time = 1; }
    else outfile = argv[i];
  }
  Atom prop = obsolete ? None : atom("XSELPROBE_DATA");
  Atom incr = atom("INCR");
  if (!fixed_time) t = server_time();
  XConvertSelection(dpy, sel, target, prop, win, t);
  XFlush(dpy);
  XEvent ev;
  if (!next_event(&ev, SelectionNotify, win, STEP_MS)) { printf("timeout\n"); return 2; }
  if (ev.xselection.property == None) { printf("refused\n"); return 1; }
  prop = ev.xselection.property;

  FILE *out = outfile ? fopen(outfile, "wb") : NULL;
  if (outfile && !out) { perror(outfile); return 3; }
  Atom type;
  int format;
  unsigned long n, after;
  unsigned char *data = NULL;
  XGetWindowProperty(dpy, win, prop, 0, 0x1fffffff, True, AnyPropertyType, &type, &format, &n, &after, &data);
  if (type != incr) {
    size_t bytes = byte_length(format, n);
    if (out && format == 8) fwrite(data, 1, bytes, out);
    print_atom_name("result type", type);
    printf(" format=%d items=%lu incr=0 chunks=1 bytes=%zu", format, n, format == 8 ? bytes : n * 4);
    if (format == 8 && bytes <= HEX_LIMIT) print_hex(data, bytes);
    printf("\n");
    print_items(type, format, data, n);
    if (data) XFree(data);
    if (out) fclose(out);
    return 0;
  }
  /* INCR: the delete above started the transfer; each new value is a chunk, deleted on read,
     and a zero-length value ends it (ICCCM §2.7.2). */
  if (data) XFree(data);
  Atom data_type = None;
  int data_format = 8, chunks = 0;
  size_t total = 0;
  unsigned char head[HEX_LIMIT];
  size_t head_len = 0;
  for (;;) {
    if (!next_event(&ev, PropertyNotify, win, STEP_MS)) { printf("timeout in incr after %d chunks\n", chunks); return 2; }
    if (ev.xproperty.atom != prop || ev.xproperty.state != PropertyNewValue) continue;
    XGetWindowProperty(dpy, win, prop, 0, 0x1fffffff, True, AnyPropertyType, &type, &format, &n, &after, &data);
    size_t bytes = byte_length(format, n);
    if (n == 0) { if (data) XFree(data); break; }
    if (data_type == None) { data_type = type; data_format = format; }
    if (out) fwrite(data, 1, bytes, out);
    if (head_len < HEX_LIMIT) {
      size_t take = bytes < HEX_LIMIT - head_len ? bytes : HEX_LIMIT - head_len;
      memcpy(head + head_len, data, take);
      head_len += take;
    }
    total += bytes;
    chunks++;
    XFree(data);
  }
  if (out) fclose(out);
  print_atom_name("result type", data_type);
  printf(" format=%d items=%zu incr=1 chunks=%d bytes=%zu", data_format, total, chunks, total);
  if (total <= HEX_LIMIT) print_hex(head, head_len);
  printf("\n");
  return 0;
}

static int multiple(int argc, char **argv) {
  if (argc < 4) return 64;
  Atom sel = atom(argv[2]);
  int count = argc - 3;
  long *pairs = calloc((size_t)count * 2, sizeof(long));
  for (int i = 0; i < count; i++) {
    char name[64];
    snprintf(name, sizeof name, "XSELPROBE_PAIR_%d", i);
    pairs[2 * i] = (long)atom(argv[3 + i]);
    pairs[2 * i + 1] = (long)atom(name);
  }
  Atom list = atom("XSELPROBE_MULTIPLE");
  XChangeProperty(dpy, win, list, atom("ATOM_PAIR"), 32, PropModeReplace, (unsigned char *)pairs, count * 2);
  Time t = server_time();
  XConvertSelection(dpy, sel, atom("MULTIPLE"), list, win, t);
  XFlush(dpy);
  XEvent ev;
  if (!next_event(&ev, SelectionNotify, win, STEP_MS)) { printf("timeout\n"); return 2; }
  if (ev.xselection.property == None) { printf("refused\n"); return 1; }

  Atom type;
  int format;
  unsigned long n, after;
  unsigned char *data = NULL;
  XGetWindowProperty(dpy, win, list, 0, 0x1fffffff, True, AnyPropertyType, &type, &format, &n, &after, &data);
  const long *reply = (const long *)data;
  for (unsigned long i = 0; i + 1 < n && format == 32; i += 2) {
    print_atom_name("pair target", (Atom)reply[i]);
    Atom property = (Atom)reply[i + 1];
    if (property == None) { printf(" none\n"); continue; }
    Atom ptype;
    int pformat;
    unsigned long pn, pafter;
    unsigned char *pdata = NULL;
    XGetWindowProperty(dpy, win, property, 0, 0x1fffffff, True, AnyPropertyType, &ptype, &pformat, &pn, &pafter, &pdata);
    size_t bytes = byte_length(pformat, pn);
    printf(" ok ");
    print_atom_name("type", ptype);
    printf(" format=%d bytes=%zu", pformat, bytes);
    if (pformat == 8 && bytes <= HEX_LIMIT) print_hex(pdata, bytes);
    printf("\n");
    if (pdata) XFree(pdata);
  }
  if (data) XFree(data);
  free(pairs);
  return 0;
}

static int stall(int argc, char **argv) {
  if (argc < 4) return 64;
  Atom sel = atom(argv[2]), target = atom(argv[3]);
  Atom prop = atom("XSELPROBE_STALL"), incr = atom("INCR");
  XConvertSelection(dpy, sel, target, prop, win, server_time());
  XFlush(dpy);
  XEvent ev;
  /* The owner may convert the whole copy before its first answer (Ferry converting 12 MiB to
   * UTF-16 for three readers, in a debug build beside a stress run, took past 5 s): the wait
   * is the test's to bound. */
  if (!next_event(&ev, SelectionNotify, win, STALL_MS)) { printf("timeout\n"); return 2; }
  if (ev.xselection.property == None) { printf("refused\n"); return 1; }
  Atom type;
  int format;
  unsigned long n, after;
  unsigned char *data = NULL;
  XGetWindowProperty(dpy, win, prop, 0, 0x1fffffff, True, AnyPropertyType, &type, &format, &n, &after, &data);
  if (data) XFree(data);
  if (type != incr) { printf("not-incr\n"); return 3; }
  for (;;) {
    if (!next_event(&ev, PropertyNotify, win, STALL_MS)) { printf("timeout\n"); return 2; }
    if (ev.xproperty.atom == prop && ev.xproperty.state == PropertyNewValue) break;
  }
  /* Read the first chunk but leave it in place: the owner waits for a deletion that never comes. */
  XGetWindowProperty(dpy, win, prop, 0, 0x1fffffff, False, AnyPropertyType, &type, &format, &n, &after, &data);
  printf("stalled bytes=%zu\n", byte_length(format, n));
  fflush(stdout);
  if (data) XFree(data);
  for (;;) {
    if (!next_event(&ev, PropertyNotify, win, -1)) continue;
    if (ev.xproperty.atom == prop && ev.xproperty.state == PropertyNewValue) { printf("late-chunk\n"); fflush(stdout); }
  }
}

static int own(int argc, char **argv) {
  if (argc < 3) return 64;
  Atom sel = atom(argv[2]);
  Time t = server_time();
  XSetSelectionOwner(dpy, sel, win, t);
  if (XGetSelectionOwner(dpy, sel) != win) { printf("not-owned\n"); return 1; }
  printf("owned window=0x%lx\n", win);
  fflush(stdout);
  for (;;) {
    XEvent ev;
    XNextEvent(dpy, &ev);
    if (ev.type == SelectionRequest) {
      print_atom_name("ignored target", ev.xselectionrequest.target);
      printf("\n");
      fflush(stdout);
    } else if (ev.type == SelectionClear) {
      printf("lost\n");
      return 0;
    }
  }
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc < 3) {
    fprintf(stderr, "usage: xselprobe get|multiple|stall|own SELECTION [TARGET...]\n");
    return 64;
  }
  dpy = XOpenDisplay(NULL);
  if (!dpy) { fprintf(stderr, "xselprobe: cannot open display\n"); return 69; }
  win = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 0, 0, 1, 1, 0, 0, 0);
  XSelectInput(dpy, win, PropertyChangeMask);
  int status = 64;
  if (strcmp(argv[1], "get") == 0) status = get(argc, argv);
  else if (strcmp(argv[1], "multiple") == 0) status = multiple(argc, argv);
  else if (strcmp(argv[1], "stall") == 0) status = stall(argc, argv);
  else if (strcmp(argv[1], "own") == 0) status = own(argc, argv);
  else fprintf(stderr, "xselprobe: unknown mode %s\n", argv[1]);
  XCloseDisplay(dpy);
  return status;
}
