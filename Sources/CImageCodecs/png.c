// PNG through libpng's simplified API, which keeps its longjmp inside.
#include "internal.h"
#include <png.h>

cferry_image_status cferry_png_decode(const uint8_t *bytes, size_t length, uint64_t limit,
                                      cferry_image *out, char *message) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, bytes, length))
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "not a readable PNG: %s", image.message);
  cferry_image_status status = cferry_check_size(image.width, image.height, limit, message);
  if (status != CFERRY_IMAGE_OK) {
    png_image_free(&image);
    return status;
  }
  image.format = PNG_FORMAT_RGBA;
  uint8_t *pixels = cferry_allocate_pixels(image.width, image.height);
  if (!pixels) {
    png_image_free(&image);
    return cferry_fail(message, CFERRY_IMAGE_NO_MEMORY, "no memory for %ux%u pixels",
                       image.width, image.height);
  }
  if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
    free(pixels);
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "a damaged PNG: %s", image.message);
  }
  out->pixels = pixels;
  out->width = image.width;
  out->height = image.height;
  return CFERRY_IMAGE_OK;
}

cferry_image_status cferry_png_encode(const cferry_image *source, cferry_buffer *out,
                                      char *message) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = source->width;
  image.height = source->height;
  image.format = PNG_FORMAT_RGBA;
  png_alloc_size_t size = 0;
  if (!png_image_write_get_memory_size(image, size, 0, source->pixels, 0, NULL))
    return cferry_fail(message, CFERRY_IMAGE_UNWRITABLE, "PNG: %s", image.message);
  out->bytes = malloc(size);
  if (!out->bytes) return cferry_fail(message, CFERRY_IMAGE_NO_MEMORY, "no memory for a PNG");
  out->capacity = size;
  if (!png_image_write_to_memory(&image, out->bytes, &size, 0, source->pixels, 0, NULL))
    return cferry_fail(message, CFERRY_IMAGE_UNWRITABLE, "PNG: %s", image.message);
  out->length = size;
  return CFERRY_IMAGE_OK;
}
