// TIFF through libtiff, read from and written to memory; its warnings and errors go to the
// message, never to standard error.
#include "internal.h"
#include <tiffio.h>

typedef struct {
  const uint8_t *bytes;
  cferry_buffer *output;
  toff_t length;
  toff_t offset;
  char *message;
} memory_file;

static tsize_t read_memory(thandle_t handle, tdata_t data, tsize_t size) {
  memory_file *file = handle;
  if (!file->bytes || size < 0 || file->offset >= file->length) return 0;
  toff_t left = file->length - file->offset;
  if ((toff_t)size > left) size = (tsize_t)left;
  memcpy(data, file->bytes + file->offset, (size_t)size);
  file->offset += (toff_t)size;
  return size;
}

static tsize_t write_memory(thandle_t handle, tdata_t data, tsize_t size) {
  memory_file *file = handle;
  if (!file->output || size < 0) return -1;
  cferry_buffer *out = file->output;
  size_t end = (size_t)file->offset + (size_t)size;
  if (end > out->length) {
    size_t grow = end - out->length;
    // Extend with zeros, then write in place.
    uint8_t zeros[4096] = {0};
    while (grow > 0) {
      size_t step = grow < sizeof zeros ? grow : sizeof zeros;
      if (!cferry_buffer_append(out, zeros, step)) return -1;
      grow -= step;
    }
  }
  memcpy(out->bytes + file->offset, data, (size_t)size);
  file->offset = end;
  file->length = out->length;
  return size;
}

static toff_t seek_memory(thandle_t handle, toff_t offset, int whence) {
  memory_file *file = handle;
  toff_t base = whence == SEEK_CUR ? file->offset : whence == SEEK_END ? file->length : 0;
  file->offset = base + offset;
  return file->offset;
}

static int close_memory(thandle_t handle) { (void)handle; return 0; }
static toff_t size_memory(thandle_t handle) { return ((memory_file *)handle)->length; }
static int map_memory(thandle_t h, tdata_t *base, toff_t *size) { (void)h; (void)base; (void)size; return 0; }
static void unmap_memory(thandle_t h, tdata_t base, toff_t size) { (void)h; (void)base; (void)size; }

static int on_error(TIFF *tiff, void *user, const char *module, const char *format, va_list args) {
  (void)tiff;
  (void)module;
  char *message = user;
  if (message && !message[0]) vsnprintf(message, CFERRY_IMAGE_MESSAGE_SIZE, format, args);
  return 1;
}

static int on_warning(TIFF *tiff, void *user, const char *module, const char *format, va_list args) {
  (void)tiff; (void)user; (void)module; (void)format; (void)args;
  return 1;
}

static TIFF *open_memory(memory_file *file, const char *mode, char *message, uint64_t limit) {
  TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
  if (!options) return NULL;
  TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, message);
  TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, NULL);
  // No single allocation past the pixels the limit allows (a bogus strip size, say).
  tmsize_t most = limit > (uint64_t)(INT64_MAX / 4) ? 0 : (tmsize_t)(limit * 4 + 65536);
  if (most > 0) TIFFOpenOptionsSetMaxSingleMemAlloc(options, most);
  TIFF *tiff = TIFFClientOpenExt("memory", mode, file, read_memory, write_memory, seek_memory,
                                 close_memory, size_memory, map_memory, unmap_memory, options);
  TIFFOpenOptionsFree(options);
  return tiff;
}

cferry_image_status cferry_tiff_decode(const uint8_t *bytes, size_t length, uint64_t limit,
                                       cferry_image *out, char *message) {
  memory_file file = {.bytes = bytes, .length = length, .message = message};
  char reason[CFERRY_IMAGE_MESSAGE_SIZE] = {0};
  TIFF *tiff = open_memory(&file, "rm", reason, limit);
  if (!tiff)
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "not a readable TIFF: %s",
                       reason[0] ? reason : "no TIFF header");
  // libtiff keeps its assert()s, and its rarer codecs are where damaged files have reached
  // one (old-style JPEG's tif_ojpeg.c among them): an abort no caller survives. Only the
  // schemes that scanners, cameras, GIMP and the clipboard write are decoded (issue 36).
  uint16_t compression = COMPRESSION_NONE;
  TIFFGetFieldDefaulted(tiff, TIFFTAG_COMPRESSION, &compression);
  switch (compression) {
  case COMPRESSION_NONE:
  case COMPRESSION_CCITTRLE:
  case COMPRESSION_CCITTFAX3:
  case COMPRESSION_CCITTFAX4:
  case COMPRESSION_LZW:
  case COMPRESSION_JPEG:
  case COMPRESSION_ADOBE_DEFLATE:
  case COMPRESSION_DEFLATE:
  case COMPRESSION_PACKBITS:
  case COMPRESSION_LZMA:
  case COMPRESSION_ZSTD:
  case COMPRESSION_WEBP:
    break;
  default:
    TIFFClose(tiff);
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE,
                       "a TIFF compressed with scheme %u, which Ferry does not decode", compression);
  }
  uint32_t width = 0, height = 0;
  TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &width);
  TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &height);
  cferry_image_status status = cferry_check_size(width, height, limit, message);
  if (status != CFERRY_IMAGE_OK) {
    TIFFClose(tiff);
    return status;
  }
  uint8_t *pixels = cferry_allocate_pixels(width, height);
  if (!pixels) {
    TIFFClose(tiff);
    return cferry_fail(message, CFERRY_IMAGE_NO_MEMORY, "no memory for %ux%u pixels", width,
                       height);
  }
  // ABGR words, which on a little-endian machine are R, G, B, A bytes.
  if (!TIFFReadRGBAImageOriented(tiff, width, height, (uint32_t *)pixels, ORIENTATION_TOPLEFT, 0)) {
    TIFFClose(tiff);
    free(pixels);
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "a damaged TIFF: %s",
                       reason[0] ? reason : "its pixels cannot be read");
  }
  TIFFClose(tiff);
  out->pixels = pixels;
  out->width = width;
  out->height = height;
  return CFERRY_IMAGE_OK;
}

cferry_image_status cferry_tiff_encode(const cferry_image *image, cferry_buffer *out,
                                       char *message) {
  memory_file file = {.output = out};
  char reason[CFERRY_IMAGE_MESSAGE_SIZE] = {0};
  TIFF *tiff = open_memory(&file, "w", reason, UINT64_MAX);
  if (!tiff) return cferry_fail(message, CFERRY_IMAGE_UNWRITABLE, "TIFF: %s", reason);
  uint16_t extra = EXTRASAMPLE_UNASSALPHA;
  TIFFSetField(tiff, TIFFTAG_IMAGEWIDTH, image->width);
  TIFFSetField(tiff, TIFFTAG_IMAGELENGTH, image->height);
  TIFFSetField(tiff, TIFFTAG_BITSPERSAMPLE, 8);
  TIFFSetField(tiff, TIFFTAG_SAMPLESPERPIXEL, 4);
  TIFFSetField(tiff, TIFFTAG_EXTRASAMPLES, 1, &extra);
  TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB);
  TIFFSetField(tiff, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
  TIFFSetField(tiff, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
  TIFFSetField(tiff, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
  TIFFSetField(tiff, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tiff, 0));
  // The encoder's predictor works in the buffer it is given: each row goes through a copy,
  // so that the image stays as it was for the next conversion.
  size_t row_size = (size_t)image->width * 4;
  uint8_t *row = malloc(row_size);
  if (!row) {
    TIFFClose(tiff);
    return cferry_fail(message, CFERRY_IMAGE_NO_MEMORY, "no memory for a TIFF row");
  }
  for (uint32_t y = 0; y < image->height; y++) {
    memcpy(row, image->pixels + (size_t)y * row_size, row_size);
    if (TIFFWriteScanline(tiff, row, y, 0) < 0) {
      free(row);
      TIFFClose(tiff);
      return cferry_fail(message, CFERRY_IMAGE_UNWRITABLE, "TIFF: %s", reason);
    }
  }
  free(row);
  TIFFClose(tiff);  // writes the directory
  return reason[0] ? cferry_fail(message, CFERRY_IMAGE_UNWRITABLE, "TIFF: %s", reason)
                   : CFERRY_IMAGE_OK;
}
