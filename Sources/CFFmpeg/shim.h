#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/error.h>

// Function-like macros Swift cannot import, as functions.
static inline int vitrine_averror_eof(void) { return AVERROR_EOF; }
static inline int vitrine_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int vitrine_averror(int errnum) { return AVERROR(errnum); }
static inline int64_t vitrine_av_nopts_value(void) { return AV_NOPTS_VALUE; }

// A stream's display matrix (nine int32, its rotation), or NULL. FFmpeg 6.1 moved a stream's side
// data to codecpar->coded_side_data: av_stream_get_side_data is deprecated in 7.1 (Debian 13) and
// gone in 8; Debian 12's 5.1 has only it. The one place the two versions differ for us.
static inline const int32_t *vitrine_stream_display_matrix(const AVStream *stream) {
#if LIBAVFORMAT_VERSION_INT >= AV_VERSION_INT(60, 15, 100)
    const AVPacketSideData *side = av_packet_side_data_get(stream->codecpar->coded_side_data,
                                                           stream->codecpar->nb_coded_side_data, AV_PKT_DATA_DISPLAYMATRIX);
    return side && side->size >= 9 * sizeof(int32_t) ? (const int32_t *)side->data : NULL;
#else
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    return data && size >= 9 * sizeof(int32_t) ? (const int32_t *)data : NULL;
#endif
}
