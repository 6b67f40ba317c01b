/* wl_contract_owner: the owner the selection-backend contract (Sources/SelectionBackendContract)
 * plays on Wayland: a data-control client (zwlr_data_control_manager_v1, version 2 for the
 * primary selection) that offers the MIME types it is given, in the order given, each with its
 * bytes, or silent. wl-copy offers one type only and reads its input whole before it serves, so
 * it can neither list several types nor stall a reader. Not compiled by SwiftPM: the tests build
 * it with the committed glue,
 *
 *   cc -O1 -I Sources/CWaylandDataControl/include -o wl_contract_owner wl_contract_owner.c \
 *     Sources/CWaylandDataControl/wlr-data-control-unstable-v1-protocol.c -lwayland-client
 *
 *   wl_contract_owner clipboard|primary SPEC...
 *
 * Each SPEC is one MIME type: `NAME=HEX` (these bytes, hexadecimal), `NAME#COUNT` (COUNT bytes of
 * the contract's pattern, byte i = (i * 7 + (i >> 13)) & 0xff), `NAME!` (never answered: the
 * pipe is kept open and never written) or `NAME~COUNT` (COUNT bytes of the pattern written, then
 * the pipe kept open: a transfer that stalls midway). A `send` of any other type is closed at
 * once.
 *
 * Prints `ready` once the compositor has seen the selection set (a round trip after it); prints
 * `cancelled` and exits when another client replaces it. Answers are written in full, blocking,
 * one reader at a time. Runs until then, or until killed.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "wlr-data-control-unstable-v1-client-protocol.h"

struct target {
  char *name;
  unsigned char *bytes;
  long count;
  int silent; /* 1: never written; 2: COUNT bytes written, then never closed */
};

static struct target *targets;
static int target_count;
static struct wl_seat *seat;
static struct zwlr_data_control_manager_v1 *manager;

static int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Parses one SPEC into `t`; 0 on success. */
static int parse(const char *spec, struct target *t) {
  const char *mark = strpbrk(spec, "=#!~");
  if (!mark || mark == spec) return 1;
  t->name = strndup(spec, (size_t)(mark - spec));
  t->silent = *mark == '!' ? 1 : *mark == '~' ? 2 : 0;
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
  } else if (*mark == '#' || *mark == '~') {
    t->count = atol(mark + 1);
    t->bytes = malloc((size_t)t->count + 1);
    for (long i = 0; i < t->count; i++) t->bytes[i] = (unsigned char)((i * 7 + (i >> 13)) & 0xff);
  }
  return 0;
}

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                   uint32_t version) {
  (void)data;
  if (strcmp(interface, "wl_seat") == 0 && !seat) {
    seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
  } else if (strcmp(interface, "zwlr_data_control_manager_v1") == 0 && !manager) {
    manager = wl_registry_bind(registry, name, &zwlr_data_control_manager_v1_interface, version < 2 ? version : 2);
  }
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
  (void)data, (void)registry, (void)name;
}
static const struct wl_registry_listener registry_listener = {global, global_remove};

static void source_send(void *data, struct zwlr_data_control_source_v1 *source, const char *mime, int32_t fd) {
  (void)data, (void)source;
  for (int i = 0; i < target_count; i++) {
    if (strcmp(targets[i].name, mime) != 0) continue;
    if (targets[i].silent == 1) return; /* the pipe stays open, never written */
    long written = 0;
    while (written < targets[i].count) {
      ssize_t n = write(fd, targets[i].bytes + written, (size_t)(targets[i].count - written));
      if (n <= 0) break; /* the reader went away */
      written += n;
    }
    if (targets[i].silent == 2) return; /* the rest never comes */
    break;
  }
  close(fd);
}
static void cancelled(void *data, struct zwlr_data_control_source_v1 *source) {
  (void)data, (void)source;
  printf("cancelled\n");
  exit(0);
}
static const struct zwlr_data_control_source_v1_listener source_listener = {source_send, cancelled};

/* The device's events: offers of other clients are destroyed unread. */
static void data_offer(void *data, struct zwlr_data_control_device_v1 *device, struct zwlr_data_control_offer_v1 *id) {
  (void)data, (void)device, (void)id;
}
static void selection(void *data, struct zwlr_data_control_device_v1 *device, struct zwlr_data_control_offer_v1 *id) {
  (void)data, (void)device;
  if (id) zwlr_data_control_offer_v1_destroy(id);
}
static void finished(void *data, struct zwlr_data_control_device_v1 *device) {
  (void)data, (void)device;
  fprintf(stderr, "wl_contract_owner: the data device is finished\n");
  exit(1);
}
static const struct zwlr_data_control_device_v1_listener device_listener = {data_offer, selection, finished,
                                                                             selection};

int main(int argc, char **argv) {
  if (argc < 2 || (strcmp(argv[1], "clipboard") != 0 && strcmp(argv[1], "primary") != 0)) {
    fprintf(stderr, "usage: wl_contract_owner clipboard|primary [NAME=HEX|NAME#COUNT|NAME!|NAME~COUNT]...\n");
    return 2;
  }
  int primary = strcmp(argv[1], "primary") == 0;
  setvbuf(stdout, NULL, _IOLBF, 0);
  signal(SIGPIPE, SIG_IGN);
  target_count = argc - 2;
  targets = calloc((size_t)target_count + 1, sizeof *targets);
  for (int i = 0; i < target_count; i++) {
    if (parse(argv[i + 2], &targets[i])) {
      fprintf(stderr, "wl_contract_owner: bad type %s\n", argv[i + 2]);
      return 2;
    }
  }
  struct wl_display *display = wl_display_connect(NULL);
  if (!display) { fprintf(stderr, "wl_contract_owner: cannot connect\n"); return 1; }
  struct wl_registry *registry = wl_display_get_registry(display);
  wl_registry_add_listener(registry, &registry_listener, NULL);
  wl_display_roundtrip(display);
  if (!seat || !manager) { fprintf(stderr, "wl_contract_owner: no seat or no data-control\n"); return 1; }
  if (primary && zwlr_data_control_manager_v1_get_version(manager) < 2) {
    fprintf(stderr, "wl_contract_owner: data-control v1 has no primary selection\n");
    return 1;
  }
  struct zwlr_data_control_device_v1 *device = zwlr_data_control_manager_v1_get_data_device(manager, seat);
  zwlr_data_control_device_v1_add_listener(device, &device_listener, NULL);
  struct zwlr_data_control_source_v1 *source = zwlr_data_control_manager_v1_create_data_source(manager);
  zwlr_data_control_source_v1_add_listener(source, &source_listener, NULL);
  for (int i = 0; i < target_count; i++) zwlr_data_control_source_v1_offer(source, targets[i].name);
  if (primary) zwlr_data_control_device_v1_set_primary_selection(device, source);
  else zwlr_data_control_device_v1_set_selection(device, source);
  wl_display_roundtrip(display);
  printf("ready\n");
  while (wl_display_dispatch(display) != -1) {}
  fprintf(stderr, "wl_contract_owner: the connection was lost\n");
  return 1;
}
