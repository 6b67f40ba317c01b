// The dispatch by format, and freeing.
#include "internal.h"

cferry_image_status cferry_image_decode(cferry_image_format format, const uint8_t *bytes,
                                        size_t length, uint64_t pixel_limit, cferry_image *out,
                                        char *message) {
  memset(out, 0, sizeof *out);
  message[0] = 0;
  if (length == 0) return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "no bytes");
  switch (format) {
  case CFERRY_FORMAT_PNG: return cferry_png_decode(bytes, length, pixel_limit, out, message);
  case CFERRY_FORMAT_JPEG: return cferry_jpeg_decode(bytes, length, pixel_limit, out, message);
  case CFERRY_FORMAT_BMP: return cferry_bmp_decode(bytes, length, pixel_limit, out, message);
  case CFERRY_FORMAT_TIFF: return cferry_tiff_decode(bytes, length, pixel_limit, out, message);
  case CFERRY_FORMAT_GIF: return cferry_gif_decode(bytes, length, pixel_limit, out, message);
  case CFERRY_FORMAT_WEBP: return cferry_webp_decode(bytes, length, pixel_limit, out, message);
  }
  return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "unknown format %d", (int)format);
}

cferry_image_status cferry_image_encode(cferry_image_format format, const cferry_image *image,
                                        cferry_buffer *out, char *message) {
  memset(out, 0, sizeof *out);
  message[0] = 0;
  cferry_image_status status;
  switch (format) {
  case CFERRY_FORMAT_PNG: status = cferry_png_encode(image, out, message); break;
  case CFERRY_FORMAT_JPEG: status = cferry_jpeg_encode(image, out, message); break;
  case CFERRY_FORMAT_BMP: status = cferry_bmp_encode(image, out, message); break;
  case CFERRY_FORMAT_TIFF: status = cferry_tiff_encode(image, out, message); break;
  case CFERRY_FORMAT_GIF: status = cferry_gif_encode(image, out, message); break;
  case CFERRY_FORMAT_WEBP: status = cferry_webp_encode(image, out, message); break;
  default: return cferry_fail(message, CFERRY_IMAGE_UNWRITABLE, "unknown format %d", (int)format);
  }
  if (status != CFERRY_IMAGE_OK) cferry_buffer_free(out);
  return status;
}

void cferry_image_free(cferry_image *image) {
  free(image->pixels);
  image->pixels = NULL;
}

void cferry_buffer_free(cferry_buffer *buffer) {
  free(buffer->bytes);
  buffer->bytes = NULL;
  buffer->length = buffer->capacity = 0;
}
