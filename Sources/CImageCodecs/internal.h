// What the codec files share: the byte buffer, messages, the limit check.
#ifndef CIMAGECODECS_INTERNAL_H
#define CIMAGECODECS_INTERNAL_H

#include "include/CImageCodecs.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline cferry_image_status cferry_fail(char *message, cferry_image_status status,
                                              const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(message, CFERRY_IMAGE_MESSAGE_SIZE, format, arguments);
  va_end(arguments);
  // One line: a library's message may hold newlines and indents (libtiff's InkNames warning
  // does); each run of control characters and the spaces after it becomes one space.
  char *write = message;
  for (const char *read = message; *read; read++) {
    unsigned char c = (unsigned char)*read;
    if (c < 0x20 || c == 0x7F) {
      if (write > message && write[-1] != ' ') *write++ = ' ';
      while (read[1] == ' ') read++;
    } else {
      *write++ = (char)c;
    }
  }
  *write = 0;
  return status;
}

// Whether width × height is within the limit (and nonzero); says why not in `message`.
static inline cferry_image_status cferry_check_size(uint64_t width, uint64_t height,
                                                    uint64_t limit, char *message) {
  if (width == 0 || height == 0)
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "the image has no pixels (%llux%llu)",
                       (unsigned long long)width, (unsigned long long)height);
  if (width > UINT32_MAX || height > UINT32_MAX || width * height > limit)
    return cferry_fail(message, CFERRY_IMAGE_TOO_LARGE,
                       "the image is %llux%llu, past the limit of %llu pixels",
                       (unsigned long long)width, (unsigned long long)height,
                       (unsigned long long)limit);
  return CFERRY_IMAGE_OK;
}

// Pixels for a width × height RGBA image, or NULL.
static inline uint8_t *cferry_allocate_pixels(uint32_t width, uint32_t height) {
  return malloc((size_t)width * height * 4);
}

// Appends `length` bytes to `buffer`; 0 when memory runs out.
static inline int cferry_buffer_append(cferry_buffer *buffer, const void *bytes, size_t length) {
  if (buffer->length + length > buffer->capacity) {
    size_t capacity = buffer->capacity ? buffer->capacity : 4096;
    while (capacity < buffer->length + length) capacity *= 2;
    uint8_t *grown = realloc(buffer->bytes, capacity);
    if (!grown) return 0;
    buffer->bytes = grown;
    buffer->capacity = capacity;
  }
  memcpy(buffer->bytes + buffer->length, bytes, length);
  buffer->length += length;
  return 1;
}

// The pixel over white: what formats without transparency get.
static inline uint8_t cferry_over_white(uint8_t channel, uint8_t alpha) {
  return (uint8_t)((channel * alpha + 255 * (255 - alpha) + 127) / 255);
}

// Whether every pixel of `image` is opaque: then formats without transparency take its
// colors as they are, with no pass over white.
static inline int cferry_is_opaque(const cferry_image *image) {
  size_t count = (size_t)image->width * image->height;
  for (size_t i = 0; i < count; i++)
    if (image->pixels[i * 4 + 3] != 255) return 0;
  return 1;
}

cferry_image_status cferry_png_decode(const uint8_t *, size_t, uint64_t, cferry_image *, char *);
cferry_image_status cferry_png_encode(const cferry_image *, cferry_buffer *, char *);
cferry_image_status cferry_jpeg_decode(const uint8_t *, size_t, uint64_t, cferry_image *, char *);
cferry_image_status cferry_jpeg_encode(const cferry_image *, cferry_buffer *, char *);
cferry_image_status cferry_bmp_decode(const uint8_t *, size_t, uint64_t, cferry_image *, char *);
cferry_image_status cferry_bmp_encode(const cferry_image *, cferry_buffer *, char *);
cferry_image_status cferry_tiff_decode(const uint8_t *, size_t, uint64_t, cferry_image *, char *);
cferry_image_status cferry_tiff_encode(const cferry_image *, cferry_buffer *, char *);
cferry_image_status cferry_gif_decode(const uint8_t *, size_t, uint64_t, cferry_image *, char *);
cferry_image_status cferry_gif_encode(const cferry_image *, cferry_buffer *, char *);
cferry_image_status cferry_webp_decode(const uint8_t *, size_t, uint64_t, cferry_image *, char *);
cferry_image_status cferry_webp_encode(const cferry_image *, cferry_buffer *, char *);

#endif
