#include "jpeg_shim.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>

// Same guard as TurboJPEG's TJFLAG_LIMITSCANS: a progressive file with thousands of tiny scans is a
// denial of service, not a photo.
#define MAX_SCANS 500

struct error_manager {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int has_warning;
};

static void on_error_exit(j_common_ptr cinfo) {
    struct error_manager *err = (struct error_manager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

static void on_emit_message(j_common_ptr cinfo, int level) {
    struct error_manager *err = (struct error_manager *)cinfo->err;
    if (level >= 0) return;  // trace messages
    // Keep the first warning: later ones are usually consequences of it.
    if (!err->has_warning) {
        (*cinfo->err->format_message)(cinfo, err->message);
        err->has_warning = 1;
    }
    cinfo->err->num_warnings++;
}

static void on_output_message(j_common_ptr cinfo) {
    (void)cinfo;  // never print to stderr
}

static void on_progress(j_common_ptr cinfo) {
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (dinfo->progressive_mode && dinfo->input_scan_number > MAX_SCANS) {
        struct error_manager *err = (struct error_manager *)cinfo->err;
        snprintf(err->message, sizeof err->message,
                 "Progressive JPEG image has more than %d scans", MAX_SCANS);
        longjmp(err->jump, 1);
    }
}

static void copy_message(const char *from, char *to, size_t size) {
    if (to == NULL || size == 0) return;
    snprintf(to, size, "%s", from);
}

static void fill_info(j_decompress_ptr dinfo, vt_jpeg_info *info) {
    info->width = (int)dinfo->image_width;
    info->height = (int)dinfo->image_height;
    info->components = dinfo->num_components;
    info->is_cmyk = dinfo->jpeg_color_space == JCS_CMYK || dinfo->jpeg_color_space == JCS_YCCK;
    info->output_width = (int)dinfo->output_width;
    info->output_height = (int)dinfo->output_height;
}

// Everything after jpeg_create_decompress runs under one setjmp; the volatile locals survive it.
static int run(const unsigned char *data, unsigned long size, unsigned scale_num, unsigned scale_denom,
               unsigned char *out, size_t out_size, vt_jpeg_info *info, char *message, size_t message_size) {
    struct jpeg_decompress_struct dinfo;
    struct error_manager err;
    struct jpeg_progress_mgr progress;
    memset(info, 0, sizeof *info);
    memset(&dinfo, 0, sizeof dinfo);  // so jpeg_destroy_decompress is safe whatever fails
    memset(&err, 0, sizeof err);

    dinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = on_error_exit;
    err.pub.emit_message = on_emit_message;
    err.pub.output_message = on_output_message;
    if (setjmp(err.jump)) {
        copy_message(err.message, message, message_size);
        jpeg_destroy_decompress(&dinfo);
        return VT_JPEG_ERROR;
    }
    jpeg_create_decompress(&dinfo);
    progress.progress_monitor = on_progress;
    dinfo.progress = &progress;
    jpeg_mem_src(&dinfo, data, size);
    jpeg_read_header(&dinfo, TRUE);

    dinfo.scale_num = scale_num;
    dinfo.scale_denom = scale_denom;
    if (dinfo.jpeg_color_space == JCS_CMYK || dinfo.jpeg_color_space == JCS_YCCK) {
        dinfo.out_color_space = JCS_CMYK;
    } else {
        dinfo.out_color_space = JCS_EXT_BGRX;
    }
    jpeg_calc_output_dimensions(&dinfo);
    fill_info(&dinfo, info);

    if (out == NULL) {  // header only
        jpeg_destroy_decompress(&dinfo);
        copy_message(err.has_warning ? err.message : "", message, message_size);
        return err.has_warning ? VT_JPEG_WARNING : VT_JPEG_OK;
    }
    if ((size_t)dinfo.output_width * dinfo.output_height * 4 > out_size) {
        snprintf(err.message, sizeof err.message, "output %ux%u does not fit the buffer",
                 dinfo.output_width, dinfo.output_height);
        copy_message(err.message, message, message_size);
        jpeg_destroy_decompress(&dinfo);
        return VT_JPEG_ERROR;
    }

    jpeg_start_decompress(&dinfo);
    // Each row output_width * output_components bytes (4 for JCS_EXT_BGRX), all of them checked
    // against out_size above.
    size_t row_bytes = (size_t)dinfo.output_width * 4;
    while (dinfo.output_scanline < dinfo.output_height) {
        JSAMPROW row = out + (size_t)dinfo.output_scanline * row_bytes;
        if (jpeg_read_scanlines(&dinfo, &row, 1) != 1) break;  // suspension cannot happen with a memory source
    }
    jpeg_finish_decompress(&dinfo);
    jpeg_destroy_decompress(&dinfo);
    copy_message(err.has_warning ? err.message : "", message, message_size);
    return err.has_warning ? VT_JPEG_WARNING : VT_JPEG_OK;
}

int vt_jpeg_read_header(const unsigned char *data, unsigned long size,
                        unsigned scale_num, unsigned scale_denom,
                        vt_jpeg_info *info, char *message, size_t message_size) {
    return run(data, size, scale_num, scale_denom, NULL, 0, info, message, message_size);
}

int vt_jpeg_decode(const unsigned char *data, unsigned long size,
                   unsigned scale_num, unsigned scale_denom,
                   unsigned char *out, size_t out_size,
                   vt_jpeg_info *info, char *message, size_t message_size) {
    if (out == NULL) {
        copy_message("no output buffer", message, message_size);
        return VT_JPEG_ERROR;
    }
    return run(data, size, scale_num, scale_denom, out, out_size, info, message, message_size);
}
