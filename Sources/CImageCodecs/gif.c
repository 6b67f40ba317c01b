// GIF through giflib: its first frame, read record by record (an animation's other frames,
// however many it claims, are never read); written with giflib's quantizer, 255 colors and a
// transparent one.
#include "internal.h"
#include <gif_lib.h>

typedef struct {
  const uint8_t *bytes;
  size_t length;
  size_t offset;
} gif_source;

static int read_gif(GifFileType *gif, GifByteType *data, int size) {
  gif_source *source = gif->UserData;
  size_t left = source->length - source->offset;
  size_t count = size < 0 ? 0 : ((size_t)size < left ? (size_t)size : left);
  memcpy(data, source->bytes + source->offset, count);
  source->offset += count;
  return (int)count;
}

static cferry_image_status close_failing(GifFileType *gif, uint8_t *canvas, uint8_t *line,
                                         char *message, cferry_image_status status,
                                         const char *reason) {
  int error = 0;
  const char *detail = gif->Error ? GifErrorString(gif->Error) : NULL;
  cferry_fail(message, status, "%s%s%s", reason, detail ? ": " : "", detail ? detail : "");
  DGifCloseFile(gif, &error);
  free(canvas);
  free(line);
  return status;
}

cferry_image_status cferry_gif_decode(const uint8_t *bytes, size_t length, uint64_t limit,
                                      cferry_image *out, char *message) {
  gif_source source = {bytes, length, 0};
  int error = 0;
  GifFileType *gif = DGifOpen(&source, read_gif, &error);
  if (!gif)
    return cferry_fail(message, CFERRY_IMAGE_UNREADABLE, "not a readable GIF: %s",
                       GifErrorString(error));
  int transparent = -1;
  GifRecordType type;
  do {
    if (DGifGetRecordType(gif, &type) == GIF_ERROR)
      return close_failing(gif, NULL, NULL, message, CFERRY_IMAGE_UNREADABLE, "a damaged GIF");
    if (type == EXTENSION_RECORD_TYPE) {
      int code = 0;
      GifByteType *extension = NULL;
      if (DGifGetExtension(gif, &code, &extension) == GIF_ERROR)
        return close_failing(gif, NULL, NULL, message, CFERRY_IMAGE_UNREADABLE, "a damaged GIF");
      if (code == GRAPHICS_EXT_FUNC_CODE && extension && extension[0] >= 4 && (extension[1] & 1))
        transparent = extension[4];
      while (extension) {
        if (DGifGetExtensionNext(gif, &extension) == GIF_ERROR)
          return close_failing(gif, NULL, NULL, message, CFERRY_IMAGE_UNREADABLE,
                               "a damaged GIF");
      }
    }
  } while (type != IMAGE_DESC_RECORD_TYPE && type != TERMINATE_RECORD_TYPE);
  if (type == TERMINATE_RECORD_TYPE)
    return close_failing(gif, NULL, NULL, message, CFERRY_IMAGE_UNREADABLE, "a GIF with no image");
  if (DGifGetImageDesc(gif) == GIF_ERROR)
    return close_failing(gif, NULL, NULL, message, CFERRY_IMAGE_UNREADABLE, "a damaged GIF");
  GifImageDesc frame = gif->Image;
  uint32_t width = gif->SWidth > 0 ? (uint32_t)gif->SWidth : (uint32_t)frame.Width;
  uint32_t height = gif->SHeight > 0 ? (uint32_t)gif->SHeight : (uint32_t)frame.Height;
  cferry_image_status status = cferry_check_size(width, height, limit, message);
  if (status == CFERRY_IMAGE_OK)
    status = cferry_check_size((uint64_t)frame.Width, (uint64_t)frame.Height, limit, message);
  if (status != CFERRY_IMAGE_OK) {
    DGifCloseFile(gif, &error);
    return status;
  }
  ColorMapObject *map = frame.ColorMap ? frame.ColorMap : gif->SColorMap;
  if (!map)
    return close_failing(gif, NULL, NULL, message, CFERRY_IMAGE_UNREADABLE, "a GIF with no colors");
  uint8_t *canvas = calloc((size_t)width * height, 4);
  GifPixelType *line = malloc((size_t)frame.Width);
  if (!canvas || !line)
    return close_failing(gif, canvas, line, message, CFERRY_IMAGE_NO_MEMORY, "no memory for the GIF");
  static const int starts[] = {0, 4, 2, 1}, steps[] = {8, 8, 4, 2};
  int passes = frame.Interlace ? 4 : 1;
  for (int pass = 0; pass < passes; pass++) {
    int start = frame.Interlace ? starts[pass] : 0, step = frame.Interlace ? steps[pass] : 1;
    for (int row = start; row < frame.Height; row += step) {
      if (DGifGetLine(gif, line, frame.Width) == GIF_ERROR)
        return close_failing(gif, canvas, line, message, CFERRY_IMAGE_UNREADABLE, "a damaged GIF");
      long y = (long)frame.Top + row;
      if (y < 0 || y >= (long)height) continue;
      for (int x = 0; x < frame.Width; x++) {
        long cx = (long)frame.Left + x;
        if (cx < 0 || cx >= (long)width) continue;
        int index = line[x];
        if (index == transparent || index >= map->ColorCount) continue;
        uint8_t *pixel = canvas + ((size_t)y * width + (size_t)cx) * 4;
        pixel[0] = map->Colors[index].Red;
        pixel[1] = map->Colors[index].Green;
        pixel[2] = map->Colors[index].Blue;
        pixel[3] = 255;
      }
    }
  }
  DGifCloseFile(gif, &error);
  free(line);
  out->pixels = canvas;
  out->width = width;
  out->height = height;
  return CFERRY_IMAGE_OK;
}

static int write_gif(GifFileType *gif, const GifByteType *data, int size) {
  return cferry_buffer_append(gif->UserData, data, (size_t)size) ? size : 0;
}

cferry_image_status cferry_gif_encode(const cferry_image *image, cferry_buffer *out,
                                      char *message) {
  if (image->width > 65535 || image->height > 65535)
    return cferry_fail(message, CFERRY_IMAGE_UNWRITABLE, "%ux%u is past GIF's 65535 pixels a side",
                       image->width, image->height);
  size_t count = (size_t)image->width * image->height;
  GifByteType *planes = malloc(count * 4);
  if (!planes) return cferry_fail(message, CFERRY_IMAGE_NO_MEMORY, "no memory for a GIF");
  GifByteType *red = planes, *green = planes + count, *blue = planes + 2 * count,
              *indices = planes + 3 * count;
  int any_transparent = 0;
  for (size_t i = 0; i < count; i++) {
    red[i] = image->pixels[i * 4];
    green[i] = image->pixels[i * 4 + 1];
    blue[i] = image->pixels[i * 4 + 2];
    if (image->pixels[i * 4 + 3] < 128) any_transparent = 1;
  }
  GifColorType colors[256];
  memset(colors, 0, sizeof colors);
  int color_count = 255;
  if (GifQuantizeBuffer(image->width, image->height, &color_count, red, green, blue, indices,
                        colors) == GIF_ERROR) {
    free(planes);
    return cferry_fail(message, CFERRY_IMAGE_UNWRITABLE, "the GIF quantizer failed");
  }
  if (any_transparent)
    for (size_t i = 0; i < count; i++)
      if (image->pixels[i * 4 + 3] < 128) indices[i] = 255;
  ColorMapObject *map = GifMakeMapObject(256, colors);
  int error = 0;
  GifFileType *gif = EGifOpen(out, write_gif, &error);
  if (!map || !gif) {
    GifFreeMapObject(map);
    if (gif) EGifCloseFile(gif, &error);
    free(planes);
    return cferry_fail(message, CFERRY_IMAGE_NO_MEMORY, "no memory for a GIF");
  }
  EGifSetGifVersion(gif, true);
  int ok = EGifPutScreenDesc(gif, (int)image->width, (int)image->height, 8, 0, map) != GIF_ERROR;
  if (ok && any_transparent) {
    GifByteType control[4] = {0x01, 0, 0, 255};  // transparent color: index 255
    ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, control) != GIF_ERROR;
  }
  ok = ok && EGifPutImageDesc(gif, 0, 0, (int)image->width, (int)image->height, false, NULL) !=
                 GIF_ERROR;
  for (uint32_t y = 0; ok && y < image->height; y++)
    ok = EGifPutLine(gif, indices + (size_t)y * image->width, (int)image->width) != GIF_ERROR;
  const char *reason = ok ? NULL : GifErrorString(gif->Error);
  if (EGifCloseFile(gif, &error) == GIF_ERROR && ok) {
    ok = 0;
    reason = GifErrorString(error);
  }
  GifFreeMapObject(map);
  free(planes);
  return ok ? CFERRY_IMAGE_OK
            : cferry_fail(message, CFERRY_IMAGE_UNWRITABLE, "GIF: %s", reason ? reason : "failed");
}
