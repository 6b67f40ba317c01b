/* server_grab: holds the X server for a while, for Ferry's tests of what must wait for the
 * server (Tests/FerryBrokerTests/Interop). Not compiled by SwiftPM: the tests build it with
 * `cc -O1 -o server_grab server_grab.c -lX11`.
 *
 *   server_grab MILLISECONDS MARKER
 *
 * Grabs the server (XGrabServer: the server then processes no other client's requests),
 * prints `grabbed`, waits MILLISECONDS, creates the file MARKER, and only then releases the
 * server and exits. Whoever sees MARKER missing has seen the server held.
 */
#include <X11/Xlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: server_grab MILLISECONDS MARKER\n");
    return 2;
  }
  Display *display = XOpenDisplay(NULL);
  if (!display) {
    fprintf(stderr, "server_grab: cannot open the display\n");
    return 1;
  }
  XGrabServer(display);
  XSync(display, False);
  printf("grabbed\n");
  fflush(stdout);
  long milliseconds = atol(argv[1]);
  struct timespec pause = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
  nanosleep(&pause, NULL);
  int marker = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (marker >= 0) close(marker);
  XUngrabServer(display);
  XSync(display, False);
  XCloseDisplay(display);
  return 0;
}
