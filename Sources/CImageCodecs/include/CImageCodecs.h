// Decoding and encoding images through Debian's codec libraries (libpng, libjpeg-turbo,
// libtiff, giflib, libwebp; BMP here), for Ferry's image converters. Every decoder reads
// the image's size first and refuses one past `pixel_limit` before allocating its pixels;
// every failure is a status and one line in `message`, never an abort or a longjmp out.
#ifndef CIMAGECODECS_H
#define CIMAGECODECS_H

#include <stddef.h>
#include <stdint.h>

// An image as 8-bit RGBA, rows top to bottom, no padding; `pixels` from malloc.
typedef struct {
  uint8_t *pixels;
  uint32_t width;
  uint32_t height;
} cferry_image;

// Bytes from malloc: an encoded image.
typedef struct {
  uint8_t *bytes;
  size_t length;
  size_t capacity;
} cferry_buffer;

typedef enum {
  CFERRY_IMAGE_OK = 0,
  CFERRY_IMAGE_UNREADABLE = 1,   // not an image of this format, or damaged
  CFERRY_IMAGE_TOO_LARGE = 2,    // more pixels than the limit
  CFERRY_IMAGE_NO_MEMORY = 3,
  CFERRY_IMAGE_UNWRITABLE = 4,   // the encoder failed
} cferry_image_status;

typedef enum {
  CFERRY_FORMAT_PNG = 0,
  CFERRY_FORMAT_JPEG = 1,
  CFERRY_FORMAT_BMP = 2,
  CFERRY_FORMAT_TIFF = 3,
  CFERRY_FORMAT_GIF = 4,
  CFERRY_FORMAT_WEBP = 5,
} cferry_image_format;

// The size `message` should have.
#define CFERRY_IMAGE_MESSAGE_SIZE 256

// Decodes `length` bytes of `format` into `out` (its pixels to be freed with
// cferry_image_free). The first frame of an animation.
cferry_image_status cferry_image_decode(cferry_image_format format, const uint8_t *bytes,
                                        size_t length, uint64_t pixel_limit, cferry_image *out,
                                        char *message);

// Encodes `image` as `format` into `out` (to be freed with cferry_buffer_free). Formats
// without transparency (JPEG, BMP) get the pixels over white.
cferry_image_status cferry_image_encode(cferry_image_format format, const cferry_image *image,
                                        cferry_buffer *out, char *message);

// `image` made smaller to fit `max_side` × `max_side` (its proportions kept), each pixel the
// average of the source pixels it covers (weighted by alpha); an image that fits is copied.
cferry_image_status cferry_image_fit(const cferry_image *image, uint32_t max_side,
                                     cferry_image *out, char *message);

void cferry_image_free(cferry_image *image);
void cferry_buffer_free(cferry_buffer *buffer);

#endif
