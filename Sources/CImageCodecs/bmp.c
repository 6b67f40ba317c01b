// BMP, which no Debian library reads on its own: the uncompressed forms programs write
// (1, 4, 8 bits with a palette; 24 bits; 32 bits, plain or with BI_BITFIELDS masks), rows
// bottom-up or top-down. Every offset and length is checked against the bytes at hand.
// Written as GTK writes it: 24 bits, bottom-up, over white.
#include "internal.h"

static uint32_t read16(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8; }
static uint32_t read32(const uint8_t *p) {
  return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// The position of a mask's lowest bit and its width, to scale a field to 8 bits.
static void mask_shape(uint32_t mask, int *shift, int *bits) {
  *shift = 0;
  *bits = 0;
  if (!mask) return;
  while (!(mask & 1)) { mask >>= 1; (*shift)++; }
  while (mask & 1) { mask >>= 1; (*bits)++; }
}

static uint8_t field(uint32_t value, uint32_t mask, int shift, int bits) {
  if (!mask || bits == 0) return 255;
  uint32_t raw = (value & mask) >> shift;
  uint32_t max = bits >= 32 ? UINT32_MAX : ((1u << bits) - 1);
  return (uint8_t)((uint64_t)raw * 255 / max);
}

cferry_image_status cferry_bmp_decode(const uint8_t *bytes, size_t length, uint64_t limit,
                                      cferry_image *out, char *message) {
  if (length < 14 + 12 || bytes[0] != 'B' || bytes[1] != 'M')
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "not a BMP (no BM header)");
  uint32_t data_offset = read32(bytes + 10);
  uint32_t header_size = read32(bytes + 14);
  if (header_size < 40 || header_size > length - 14)
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE,
                       "a BMP header of %u bytes is not one this reader knows", header_size);
  int32_t width = (int32_t)read32(bytes + 18);
  int32_t signed_height = (int32_t)read32(bytes + 22);
  uint32_t planes = read16(bytes + 26), depth = read16(bytes + 28);
  uint32_t compression = read32(bytes + 30);
  uint32_t colors_used = read32(bytes + 46);
  if (width <= 0 || signed_height == 0 || signed_height == INT32_MIN || planes != 1)
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "a BMP of %dx%d pixels", width,
                       signed_height);
  int top_down = signed_height < 0;
  uint32_t height = (uint32_t)(top_down ? -signed_height : signed_height);
  cferry_image_status status = cferry_check_size((uint32_t)width, height, limit, message);
  if (status != CFERRY_IMAGE_OK) return status;
  uint32_t masks[4] = {0x00ff0000, 0x0000ff00, 0x000000ff, 0};
  if (compression == 3 /* BI_BITFIELDS */ && (depth == 32 || depth == 16)) {
    if (header_size >= 52) {
      for (int i = 0; i < 3; i++) masks[i] = read32(bytes + 14 + 40 + i * 4);
      masks[3] = header_size >= 56 ? read32(bytes + 14 + 52) : 0;
    } else {
      if (14 + 40 + 12 > length)
        return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "a BMP cut short in its masks");
      for (int i = 0; i < 3; i++) masks[i] = read32(bytes + 14 + 40 + i * 4);
    }
  } else if (compression == 0 /* BI_RGB */) {
    if (depth == 16) { masks[0] = 0x7c00; masks[1] = 0x03e0; masks[2] = 0x001f; }
    if (depth == 32 && header_size >= 56) masks[3] = read32(bytes + 14 + 52);
  } else {
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE,
                       "a compressed BMP (compression %u), which this reader does not read",
                       compression);
  }
  if (depth != 1 && depth != 4 && depth != 8 && depth != 16 && depth != 24 && depth != 32)
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "a BMP of %u bits per pixel", depth);
  // The palette, after the header, 4 bytes a color.
  const uint8_t *palette = NULL;
  uint32_t palette_count = 0;
  if (depth <= 8) {
    palette_count = colors_used ? colors_used : (1u << depth);
    if (palette_count > 256) palette_count = 256;
    size_t start = 14 + (size_t)header_size;
    if (start + (size_t)palette_count * 4 > length)
      return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "a BMP cut short in its palette");
    palette = bytes + start;
  }
  size_t stride = (((size_t)width * depth + 31) / 32) * 4;
  if (data_offset > length || stride * height > length - data_offset)
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE,
                       "a BMP cut short: %zu bytes of pixels where %zu are needed",
                       length - (data_offset > length ? length : data_offset), stride * height);
  uint8_t *pixels = cferry_allocate_pixels((uint32_t)width, height);
  if (!pixels)
    return cferry_fail(message, CFERRY_IMAGE_NO_MEMORY, "no memory for %dx%u pixels", width,
                       height);
  int shifts[4], bits[4];
  for (int i = 0; i < 4; i++) mask_shape(masks[i], &shifts[i], &bits[i]);
  int alpha_seen = 0;
  for (uint32_t y = 0; y < height; y++) {
    const uint8_t *row = bytes + data_offset + stride * (top_down ? y : height - 1 - y);
    uint8_t *target = pixels + (size_t)y * (uint32_t)width * 4;
    for (uint32_t x = 0; x < (uint32_t)width; x++) {
      uint8_t *pixel = target + x * 4;
      if (depth <= 8) {
        uint32_t bit = x * depth;
        uint32_t index = (row[bit / 8] >> (8 - depth - bit % 8)) & ((1u << depth) - 1);
        if (index >= palette_count) index = 0;
        const uint8_t *color = palette + index * 4;
        pixel[0] = color[2]; pixel[1] = color[1]; pixel[2] = color[0]; pixel[3] = 255;
      } else if (depth == 24) {
        const uint8_t *source = row + x * 3;
        pixel[0] = source[2]; pixel[1] = source[1]; pixel[2] = source[0]; pixel[3] = 255;
      } else {
        uint32_t value = depth == 16 ? read16(row + x * 2) : read32(row + x * 4);
        for (int c = 0; c < 3; c++) pixel[c] = field(value, masks[c], shifts[c], bits[c]);
        pixel[3] = field(value, masks[3], shifts[3], bits[3]);
        if (masks[3] && pixel[3]) alpha_seen = 1;
      }
    }
  }
  // A 32-bit BMP whose alpha is all zero meant no alpha (as most writers use it).
  if (masks[3] && !alpha_seen && depth >= 16)
    for (size_t i = 0; i < (size_t)width * height; i++) pixels[i * 4 + 3] = 255;
  out->pixels = pixels;
  out->width = (uint32_t)width;
  out->height = height;
  return CFERRY_IMAGE_OK;
}

static void put16(uint8_t *p, uint32_t v) { p[0] = v; p[1] = v >> 8; }
static void put32(uint8_t *p, uint32_t v) { p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24; }

cferry_image_status cferry_bmp_encode(const cferry_image *image, cferry_buffer *out,
                                      char *message) {
  size_t stride = (((size_t)image->width * 3) + 3) & ~(size_t)3;
  size_t size = 54 + stride * image->height;
  if (size > UINT32_MAX)
    return cferry_fail(message, CFERRY_IMAGE_UNWRITABLE, "too large for a BMP (%zu bytes)", size);
  out->bytes = calloc(1, size);
  if (!out->bytes) return cferry_fail(message, CFERRY_IMAGE_NO_MEMORY, "no memory for a BMP");
  out->length = out->capacity = size;
  uint8_t *h = out->bytes;
  h[0] = 'B'; h[1] = 'M';
  put32(h + 2, (uint32_t)size);
  put32(h + 10, 54);
  put32(h + 14, 40);
  put32(h + 18, image->width);
  put32(h + 22, image->height);
  put16(h + 26, 1);
  put16(h + 28, 24);
  put32(h + 34, (uint32_t)(stride * image->height));
  put32(h + 38, 2835);  // 72 dpi
  put32(h + 42, 2835);
  for (uint32_t y = 0; y < image->height; y++) {
    const uint8_t *source = image->pixels + (size_t)(image->height - 1 - y) * image->width * 4;
    uint8_t *row = out->bytes + 54 + stride * y;
    for (uint32_t x = 0; x < image->width; x++) {
      const uint8_t *pixel = source + x * 4;
      uint8_t *target = row + x * 3;
      if (pixel[3] == 255) {  // opaque: the colors as they are, no division
        target[0] = pixel[2];
        target[1] = pixel[1];
        target[2] = pixel[0];
      } else {
        target[0] = cferry_over_white(pixel[2], pixel[3]);
        target[1] = cferry_over_white(pixel[1], pixel[3]);
        target[2] = cferry_over_white(pixel[0], pixel[3]);
      }
    }
  }
  return CFERRY_IMAGE_OK;
}
