#ifndef VITRINE_JPEG_SHIM_H
#define VITRINE_JPEG_SHIM_H

#include <stddef.h>

// The libjpeg fallback decoder for files TurboJPEG 2.1's tj* API refuses (sampling layouts that are
// not a TJSAMP value, such as 4:1:0). libjpeg reports errors through a callback that must not
// return; Swift cannot longjmp, so the setjmp/longjmp error handling lives here, in C, and the
// Swift side only sees return codes and a message. No libjpeg type crosses this header.

#define VT_JPEG_OK 0
#define VT_JPEG_WARNING 1  // decoded, but libjpeg warned (corrupt or truncated data); message says why
#define VT_JPEG_ERROR (-1) // refused; message says why

typedef struct vt_jpeg_info {
    int width, height;               // as stored in the frame header
    int components;                  // 1, 3 or 4
    int is_cmyk;                     // 1: CMYK or YCCK (output is 4 bytes C, M, Y, K per pixel)
    int output_width, output_height; // after scaling by scale_num/scale_denom
} vt_jpeg_info;

// Reads the headers of `data` and computes the output size at scale_num/scale_denom.
int vt_jpeg_read_header(const unsigned char *data, unsigned long size,
                        unsigned scale_num, unsigned scale_denom,
                        vt_jpeg_info *info, char *message, size_t message_size);

// Decodes `data` at scale_num/scale_denom into `out` (4 bytes per pixel, rows packed): B, G, R, X
// for grey and colour images, C, M, Y, K (as stored, Adobe-inverted in practice) for 4-component
// ones. Fails if the output would not fit in out_size bytes.
int vt_jpeg_decode(const unsigned char *data, unsigned long size,
                   unsigned scale_num, unsigned scale_denom,
                   unsigned char *out, size_t out_size,
                   vt_jpeg_info *info, char *message, size_t message_size);

#endif
