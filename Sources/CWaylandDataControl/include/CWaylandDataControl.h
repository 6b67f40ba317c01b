// CWaylandDataControl: libwayland-client and the client glue of the two data-control
// protocols, wlr (zwlr_data_control_*_v1, version 2) and ext (ext_data_control_*_v1), for
// Swift. The *-client-protocol.h headers and the *-protocol.c tables are wayland-scanner's
// output (Scripts/generate-wayland-glue, from Support/wayland-protocols); this header is not.
#ifndef FERRY_CWAYLANDDATACONTROL_H
#define FERRY_CWAYLANDDATACONTROL_H

#include <wayland-client.h>

#include "wlr-data-control-unstable-v1-client-protocol.h"
#include "ext-data-control-v1-client-protocol.h"

// The interface tables by address. Swift imports an `extern const struct` as a value, and
// `withUnsafePointer(to:)` on it points at a copy, while wl_registry_bind and libwayland keep
// and compare the table's address: these return the real one.
static inline const struct wl_interface *ferry_wl_seat_interface(void) { return &wl_seat_interface; }

static inline const struct wl_interface *ferry_zwlr_data_control_manager_v1_interface(void) {
  return &zwlr_data_control_manager_v1_interface;
}
static inline const struct wl_interface *ferry_zwlr_data_control_device_v1_interface(void) {
  return &zwlr_data_control_device_v1_interface;
}
static inline const struct wl_interface *ferry_zwlr_data_control_source_v1_interface(void) {
  return &zwlr_data_control_source_v1_interface;
}
static inline const struct wl_interface *ferry_zwlr_data_control_offer_v1_interface(void) {
  return &zwlr_data_control_offer_v1_interface;
}

static inline const struct wl_interface *ferry_ext_data_control_manager_v1_interface(void) {
  return &ext_data_control_manager_v1_interface;
}
static inline const struct wl_interface *ferry_ext_data_control_device_v1_interface(void) {
  return &ext_data_control_device_v1_interface;
}
static inline const struct wl_interface *ferry_ext_data_control_source_v1_interface(void) {
  return &ext_data_control_source_v1_interface;
}
static inline const struct wl_interface *ferry_ext_data_control_offer_v1_interface(void) {
  return &ext_data_control_offer_v1_interface;
}

// One code path for both protocols: ext-data-control-v1 and zwlr_data_control_manager_v1
// have the same requests and events in the same order, so a backend keeps one set of
// listeners and calls these, which pick the protocol's own request by `ext`. Events arrive
// through the listener structs, whose layouts are the same for both (the wlr ones are used).

static inline void *ferry_dc_get_data_device(int ext, void *manager, struct wl_seat *seat) {
  return ext ? (void *)ext_data_control_manager_v1_get_data_device(manager, seat)
             : (void *)zwlr_data_control_manager_v1_get_data_device(manager, seat);
}
static inline void *ferry_dc_create_data_source(int ext, void *manager) {
  return ext ? (void *)ext_data_control_manager_v1_create_data_source(manager)
             : (void *)zwlr_data_control_manager_v1_create_data_source(manager);
}
static inline void ferry_dc_source_offer(int ext, void *source, const char *mime) {
  if (ext) ext_data_control_source_v1_offer(source, mime);
  else zwlr_data_control_source_v1_offer(source, mime);
}
static inline void ferry_dc_set_selection(int ext, void *device, void *source) {
  if (ext) ext_data_control_device_v1_set_selection(device, source);
  else zwlr_data_control_device_v1_set_selection(device, source);
}
static inline void ferry_dc_set_primary_selection(int ext, void *device, void *source) {
  if (ext) ext_data_control_device_v1_set_primary_selection(device, source);
  else zwlr_data_control_device_v1_set_primary_selection(device, source);
}
static inline void ferry_dc_offer_receive(int ext, void *offer, const char *mime, int32_t fd) {
  if (ext) ext_data_control_offer_v1_receive(offer, mime, fd);
  else zwlr_data_control_offer_v1_receive(offer, mime, fd);
}
static inline int ferry_dc_add_device_listener(void *device, const struct zwlr_data_control_device_v1_listener *l, void *data) {
  return wl_proxy_add_listener((struct wl_proxy *)device, (void (**)(void))l, data);
}
static inline int ferry_dc_add_offer_listener(void *offer, const struct zwlr_data_control_offer_v1_listener *l, void *data) {
  return wl_proxy_add_listener((struct wl_proxy *)offer, (void (**)(void))l, data);
}
static inline int ferry_dc_add_source_listener(void *source, const struct zwlr_data_control_source_v1_listener *l, void *data) {
  return wl_proxy_add_listener((struct wl_proxy *)source, (void (**)(void))l, data);
}
// Each object's destructor, for either protocol.
static inline void ferry_dc_destroy_offer(int ext, void *offer) {
  if (ext) ext_data_control_offer_v1_destroy(offer);
  else zwlr_data_control_offer_v1_destroy(offer);
}
static inline void ferry_dc_destroy_source(int ext, void *source) {
  if (ext) ext_data_control_source_v1_destroy(source);
  else zwlr_data_control_source_v1_destroy(source);
}
static inline void ferry_dc_destroy_device(int ext, void *device) {
  if (ext) ext_data_control_device_v1_destroy(device);
  else zwlr_data_control_device_v1_destroy(device);
}
static inline void ferry_dc_destroy_manager(int ext, void *manager) {
  if (ext) ext_data_control_manager_v1_destroy(manager);
  else zwlr_data_control_manager_v1_destroy(manager);
}

#endif
