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
