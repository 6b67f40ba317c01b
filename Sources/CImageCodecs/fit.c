// Making an image smaller, for thumbnails: a box filter, each target pixel the average of the
// source pixels it covers, colors weighted by their alpha so that transparent pixels lend
// them nothing.
#include "internal.h"

cferry_image_status cferry_image_fit(const cferry_image *image, uint32_t max_side,
                                     cferry_image *out, char *message) {
  memset(out, 0, sizeof *out);
  message[0] = 0;
  if (!image->pixels || image->width == 0 || image->height == 0 || max_side == 0)
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "no image to fit");
  uint32_t width = image->width, height = image->height;
  if (width > max_side || height > max_side) {
    if (width >= height) {
      height = (uint32_t)(((uint64_t)height * max_side + width / 2) / width);
      width = max_side;
    } else {
      width = (uint32_t)(((uint64_t)width * max_side + height / 2) / height);
      height = max_side;
    }
    if (width == 0) width = 1;
    if (height == 0) height = 1;
  }
  uint8_t *pixels = cferry_allocate_pixels(width, height);
  if (!pixels) return cferry_fail(message, CFERRY_IMAGE_NO_MEMORY, "no memory for a thumbnail");
  if (width == image->width && height == image->height) {
    memcpy(pixels, image->pixels, (size_t)width * height * 4);
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    return CFERRY_IMAGE_OK;
  }
  for (uint32_t y = 0; y < height; y++) {
    uint32_t top = (uint32_t)((uint64_t)y * image->height / height);
    uint32_t bottom = (uint32_t)((uint64_t)(y + 1) * image->height / height);
    if (bottom <= top) bottom = top + 1;
    for (uint32_t x = 0; x < width; x++) {
      uint32_t left = (uint32_t)((uint64_t)x * image->width / width);
      uint32_t right = (uint32_t)((uint64_t)(x + 1) * image->width / width);
      if (right <= left) right = left + 1;
      uint64_t sum[4] = {0, 0, 0, 0}, count = 0;
      for (uint32_t sy = top; sy < bottom; sy++) {
        const uint8_t *row = image->pixels + ((size_t)sy * image->width + left) * 4;
        for (uint32_t sx = left; sx < right; sx++, row += 4) {
          for (int c = 0; c < 3; c++) sum[c] += (uint64_t)row[c] * row[3];
          sum[3] += row[3];
          count++;
        }
      }
      uint8_t *target = pixels + ((size_t)y * width + x) * 4;
      for (int c = 0; c < 3; c++) target[c] = sum[3] ? (uint8_t)(sum[c] / sum[3]) : 0;
      target[3] = (uint8_t)(sum[3] / count);
    }
  }
  out->pixels = pixels;
  out->width = width;
  out->height = height;
  return CFERRY_IMAGE_OK;
}
