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

#endif
