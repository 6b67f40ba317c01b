/* dnd_silent_target: an XDND 5 drop target that never answers, for Ferry's tests.

   cc dnd_silent_target.c -lX11 -o dnd_silent_target

   dnd_silent_target X Y     a 200x200 window at (X, Y) with XdndAware = 5 that answers no
                             XdndPosition (no XdndStatus, ever) and logs each XDND message
                             it gets, one line each: "ready 0x...", "XdndEnter", ...
   dnd_silent_target grab    tries to grab the pointer (a second client's check that nobody
                             holds it), prints "grab <status>" (0 = GrabSuccess) and exits. */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  Display *d = XOpenDisplay(NULL);
  if (!d) { fprintf(stderr, "cannot open display\n"); return 1; }
  Window root = DefaultRootWindow(d);
  if (argc > 1 && strcmp(argv[1], "grab") == 0) {
    int status = XGrabPointer(d, root, False, ButtonPressMask, GrabModeAsync, GrabModeAsync, None, None, CurrentTime);
    if (status == GrabSuccess) XUngrabPointer(d, CurrentTime);
    XSync(d, False);
    printf("grab %d\n", status);
    return 0;
  }
  int x = argc > 2 ? atoi(argv[1]) : 400, y = argc > 2 ? atoi(argv[2]) : 0;
  Window w = XCreateSimpleWindow(d, root, x, y, 200, 200, 0, 0, 0xdddddd);
  XStoreName(d, w, "dnd-silent-target");
  long version = 5;
  XChangeProperty(d, w, XInternAtom(d, "XdndAware", False), XA_ATOM, 32, PropModeReplace, (unsigned char *)&version, 1);
  XSelectInput(d, w, StructureNotifyMask);
  XMapWindow(d, w);
  for (;;) {
    XEvent e;
    XNextEvent(d, &e);
    if (e.type == MapNotify) {
      printf("ready 0x%lx\n", w);
    } else if (e.type == ClientMessage) {
      char *name = XGetAtomName(d, e.xclient.message_type);
      printf("%s\n", name ? name : "?");
      if (name) XFree(name);
    }
    fflush(stdout);
  }
}
