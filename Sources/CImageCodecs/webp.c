// WebP through libwebp's simple API.
#include "internal.h"
#include <webp/decode.h>
#include <webp/encode.h>

cferry_image_status cferry_webp_decode(const uint8_t *bytes, size_t length, uint64_t limit,
                                       cferry_image *out, char *message) {
  int width = 0, height = 0;
  if (!WebPGetInfo(bytes, length, &width, &height))
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "not a readable WebP");
  cferry_image_status status = cferry_check_size((uint64_t)width, (uint64_t)height, limit, message);
  if (status != CFERRY_IMAGE_OK) return status;
  uint8_t *pixels = cferry_allocate_pixels((uint32_t)width, (uint32_t)height);
  if (!pixels)
    return cferry_fail(message, CFERRY_IMAGE_NO_MEMORY, "no memory for %dx%d pixels", width,
                       height);
  size_t size = (size_t)width * height * 4;
  if (!WebPDecodeRGBAInto(bytes, length, pixels, size, width * 4)) {
    free(pixels);
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "a damaged WebP");
  }
  out->pixels = pixels;
  out->width = (uint32_t)width;
  out->height = (uint32_t)height;
  return CFERRY_IMAGE_OK;
}

cferry_image_status cferry_webp_encode(const cferry_image *image, cferry_buffer *out,
                                       char *message) {
  if (image->width > WEBP_MAX_DIMENSION || image->height > WEBP_MAX_DIMENSION)
    return cferry_fail(message, CFERRY_IMAGE_UNWRITABLE, "%ux%u is past WebP's %d pixels a side",
                       image->width, image->height, WEBP_MAX_DIMENSION);
  uint8_t *bytes = NULL;
  size_t size = WebPEncodeRGBA(image->pixels, (int)image->width, (int)image->height,
                               (int)image->width * 4, 90, &bytes);
  if (size == 0) {
    WebPFree(bytes);
    return cferry_fail(message, CFERRY_IMAGE_UNWRITABLE, "the WebP encoder failed");
  }
  // The bytes are libwebp's; copied to malloc'ed memory the caller frees with free().
  out->bytes = malloc(size);
  if (!out->bytes) {
    WebPFree(bytes);
    return cferry_fail(message, CFERRY_IMAGE_NO_MEMORY, "no memory for a WebP");
  }
  memcpy(out->bytes, bytes, size);
  out->length = out->capacity = size;
  WebPFree(bytes);
  return CFERRY_IMAGE_OK;
}
