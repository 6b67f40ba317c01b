// A small Wayland compositor that offers only wl_seat and ext-data-control-v1, built on
// libwayland-server with the glue wayland-scanner makes from
// Support/wayland-protocols/ext-data-control-v1.xml: the `ext` path of Ferry's Wayland backend
// against a server nobody here wrote the wire protocol of (no Debian 12 compositor offers
// ext-data-control-v1). One selection and one primary selection, shared by every data
// device; an offer's `receive` is handed to the source that made it.
//
//   ext_compositor RUNTIME_DIRECTORY [--no-data-control]
//       prints its socket's name, then serves until killed; --no-data-control offers the seat
//       only, as GNOME and weston do
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-server.h>

#include "ext-data-control-v1-server-protocol.h"

struct source {
  struct wl_resource *resource;
  char *types[64];
  int count;
};

struct offer {
  struct wl_resource *resource;
  struct source *source;
  struct wl_list link;
};

static struct wl_list devices;  // wl_resource links
static struct wl_list offers;
static struct source *selections[2];  // 0: clipboard, 1: primary

static void offer_receive(struct wl_client *client, struct wl_resource *resource, const char *type, int32_t fd) {
  struct offer *offer = wl_resource_get_user_data(resource);
  if (offer->source) ext_data_control_source_v1_send_send(offer->source->resource, type, fd);
  close(fd);
}

static void resource_destroy(struct wl_client *client, struct wl_resource *resource) {
  wl_resource_destroy(resource);
}

static const struct ext_data_control_offer_v1_interface offer_implementation = {offer_receive, resource_destroy};

static void offer_gone(struct wl_resource *resource) {
  struct offer *offer = wl_resource_get_user_data(resource);
  wl_list_remove(&offer->link);
  free(offer);
}

// Tells `device` what selection `which` holds now.
static void announce(struct wl_resource *device, int which) {
  struct source *source = selections[which];
  struct wl_resource *made = NULL;
  if (source) {
    struct wl_client *client = wl_resource_get_client(device);
    made = wl_resource_create(client, &ext_data_control_offer_v1_interface, 1, 0);
    struct offer *offer = calloc(1, sizeof *offer);
    offer->resource = made;
    offer->source = source;
    wl_list_insert(&offers, &offer->link);
    wl_resource_set_implementation(made, &offer_implementation, offer, offer_gone);
    ext_data_control_device_v1_send_data_offer(device, made);
    for (int i = 0; i < source->count; i++) ext_data_control_offer_v1_send_offer(made, source->types[i]);
  }
  if (which == 0) ext_data_control_device_v1_send_selection(device, made);
  else ext_data_control_device_v1_send_primary_selection(device, made);
}

static void announce_to_all(int which) {
  struct wl_resource *device;
  wl_resource_for_each(device, &devices) announce(device, which);
}

static void set(int which, struct wl_resource *source_resource) {
  struct source *source = source_resource ? wl_resource_get_user_data(source_resource) : NULL;
  struct source *old = selections[which];
  if (old == source) return;
  selections[which] = source;
  if (old) ext_data_control_source_v1_send_cancelled(old->resource);
  announce_to_all(which);
}

static void device_set_selection(struct wl_client *client, struct wl_resource *resource, struct wl_resource *source) {
  set(0, source);
}

static void device_set_primary_selection(struct wl_client *client, struct wl_resource *resource, struct wl_resource *source) {
  set(1, source);
}

static const struct ext_data_control_device_v1_interface device_implementation = {
    device_set_selection, resource_destroy, device_set_primary_selection};

static void device_gone(struct wl_resource *resource) { wl_list_remove(wl_resource_get_link(resource)); }

static void source_offer(struct wl_client *client, struct wl_resource *resource, const char *type) {
  struct source *source = wl_resource_get_user_data(resource);
  if (source->count < 64) source->types[source->count++] = strdup(type);
}

static const struct ext_data_control_source_v1_interface source_implementation = {source_offer, resource_destroy};

static void source_gone(struct wl_resource *resource) {
  struct source *source = wl_resource_get_user_data(resource);
  struct offer *offer;
  wl_list_for_each(offer, &offers, link) if (offer->source == source) offer->source = NULL;
  for (int which = 0; which < 2; which++) {
    if (selections[which] == source) {
      selections[which] = NULL;
      announce_to_all(which);  // the owner went: the selection is empty
    }
  }
  for (int i = 0; i < source->count; i++) free(source->types[i]);
  free(source);
}

static void manager_create_data_source(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
  struct wl_resource *made = wl_resource_create(client, &ext_data_control_source_v1_interface, 1, id);
  struct source *source = calloc(1, sizeof *source);
  source->resource = made;
  wl_resource_set_implementation(made, &source_implementation, source, source_gone);
}

static void manager_get_data_device(struct wl_client *client, struct wl_resource *resource, uint32_t id, struct wl_resource *seat) {
  struct wl_resource *made = wl_resource_create(client, &ext_data_control_device_v1_interface, 1, id);
  wl_resource_set_implementation(made, &device_implementation, NULL, device_gone);
  wl_list_insert(&devices, wl_resource_get_link(made));
  announce(made, 0);
  announce(made, 1);
}

static const struct ext_data_control_manager_v1_interface manager_implementation = {
    manager_create_data_source, manager_get_data_device, resource_destroy};

static void bind_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
  struct wl_resource *made = wl_resource_create(client, &ext_data_control_manager_v1_interface, 1, id);
  wl_resource_set_implementation(made, &manager_implementation, NULL, NULL);
}

static const struct wl_seat_interface seat_implementation = {0};

static void bind_seat(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
  struct wl_resource *made = wl_resource_create(client, &wl_seat_interface, 1, id);
  wl_resource_set_implementation(made, &seat_implementation, NULL, NULL);
}

int main(int argc, char **argv) {
  int data_control = !(argc == 3 && strcmp(argv[2], "--no-data-control") == 0);
  if (argc != 2 && data_control) {
    fprintf(stderr, "usage: ext_compositor RUNTIME_DIRECTORY [--no-data-control]\n");
    return 2;
  }
  setenv("XDG_RUNTIME_DIR", argv[1], 1);
  wl_list_init(&devices);
  wl_list_init(&offers);
  struct wl_display *display = wl_display_create();
  const char *socket = wl_display_add_socket_auto(display);
  if (!socket) {
    fprintf(stderr, "ext_compositor: no socket\n");
    return 1;
  }
  wl_global_create(display, &wl_seat_interface, 1, NULL, bind_seat);
  if (data_control) wl_global_create(display, &ext_data_control_manager_v1_interface, 1, NULL, bind_manager);
  printf("%s\n", socket);
  fflush(stdout);
  wl_display_run(display);
  return 0;
}
