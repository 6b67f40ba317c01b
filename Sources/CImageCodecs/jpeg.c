// JPEG through libjpeg-turbo, whose errors longjmp back here and never exit the process.
#include "internal.h"
#include <jpeglib.h>
#include <setjmp.h>

typedef struct {
  struct jpeg_error_mgr base;
  jmp_buf back;
  char *message;
} error_manager;

static void on_error(j_common_ptr info) {
  error_manager *errors = (error_manager *)info->err;
  char text[JMSG_LENGTH_MAX];
  info->err->format_message(info, text);
  snprintf(errors->message, CFERRY_IMAGE_MESSAGE_SIZE, "%s", text);
  longjmp(errors->back, 1);
}

static void on_warning(j_common_ptr info, int level) {
  (void)info;
  (void)level;  // corrupt-data warnings: the decoder goes on, as viewers do
}

// libjpeg's error manager, set to longjmp back to `errors->back` with the reason in `message`.
static struct jpeg_error_mgr *returning_errors(error_manager *errors, char *message) {
  struct jpeg_error_mgr *base = jpeg_std_error(&errors->base);
  errors->base.error_exit = on_error;
  errors->base.emit_message = on_warning;
  errors->message = message;
  return base;
}

cferry_image_status cferry_jpeg_decode(const uint8_t *bytes, size_t length, uint64_t limit,
                                       cferry_image *out, char *message) {
  struct jpeg_decompress_struct info;
  error_manager errors;
  uint8_t *volatile pixels = NULL;
  volatile cferry_image_status status = CFERRY_IMAGE_UNREADABLE;
  info.err = returning_errors(&errors, message);
  if (setjmp(errors.back)) {
    jpeg_destroy_decompress(&info);
    free(pixels);
    char reason[CFERRY_IMAGE_MESSAGE_SIZE];
    snprintf(reason, sizeof reason, "%s", message);
    return cferry_fail(message, status, "not a readable JPEG: %s", reason);
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, bytes, (unsigned long)length);
  jpeg_read_header(&info, TRUE);
  cferry_image_status checked = cferry_check_size(info.image_width, info.image_height, limit,
                                                  message);
  if (checked != CFERRY_IMAGE_OK) {
    jpeg_destroy_decompress(&info);
    return checked;
  }
  info.out_color_space = JCS_EXT_RGBA;
  jpeg_start_decompress(&info);
  pixels = cferry_allocate_pixels(info.output_width, info.output_height);
  if (!pixels) {
    jpeg_destroy_decompress(&info);
    return cferry_fail(message, CFERRY_IMAGE_NO_MEMORY, "no memory for %ux%u pixels",
                       info.output_width, info.output_height);
  }
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = pixels + (size_t)info.output_scanline * info.output_width * 4;
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  out->pixels = pixels;
  out->width = info.output_width;
  out->height = info.output_height;
  jpeg_destroy_decompress(&info);
  return CFERRY_IMAGE_OK;
}

cferry_image_status cferry_jpeg_encode(const cferry_image *image, cferry_buffer *out,
                                       char *message) {
  struct jpeg_compress_struct info;
  error_manager errors;
  unsigned char *volatile bytes = NULL;
  unsigned long size = 0;
  uint8_t *volatile row = NULL;
  info.err = returning_errors(&errors, message);
  if (setjmp(errors.back)) {
    jpeg_destroy_compress(&info);
    free(bytes);
    free(row);
    return CFERRY_IMAGE_UNWRITABLE;
  }
  jpeg_create_compress(&info);
  jpeg_mem_dest(&info, (unsigned char **)&bytes, &size);
  // An opaque image's RGBA rows go to libjpeg-turbo as they are (JCS_EXT_RGBX: the fourth
  // byte ignored); one with transparency is put over white a row at a time.
  int opaque = cferry_is_opaque(image);
  info.image_width = image->width;
  info.image_height = image->height;
  info.input_components = opaque ? 4 : 3;
  info.in_color_space = opaque ? JCS_EXT_RGBX : JCS_RGB;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, 90, TRUE);
  jpeg_start_compress(&info, TRUE);
  if (opaque) {
    while (info.next_scanline < info.image_height) {
      JSAMPROW pointer = image->pixels + (size_t)info.next_scanline * image->width * 4;
      jpeg_write_scanlines(&info, &pointer, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    out->bytes = bytes;
    out->length = out->capacity = size;
    return CFERRY_IMAGE_OK;
  }
  row = malloc((size_t)image->width * 3);
  if (!row) {
    jpeg_destroy_compress(&info);
    free(bytes);
    return cferry_fail(message, CFERRY_IMAGE_NO_MEMORY, "no memory for a JPEG row");
  }
  while (info.next_scanline < info.image_height) {
    const uint8_t *source = image->pixels + (size_t)info.next_scanline * image->width * 4;
    for (uint32_t x = 0; x < image->width; x++) {
      uint8_t alpha = source[x * 4 + 3];
      for (int c = 0; c < 3; c++) row[x * 3 + c] = cferry_over_white(source[x * 4 + c], alpha);
    }
    JSAMPROW pointer = row;
    jpeg_write_scanlines(&info, &pointer, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  free(row);
  out->bytes = bytes;
  out->length = out->capacity = size;
  return CFERRY_IMAGE_OK;
}
