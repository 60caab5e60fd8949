// The copy into the scan-out buffer: non-temporal stores, so that the lines written for the
// display do not take the cache from the pixels the next frame reads.
#include "CBlitterKernels.h"
#include <string.h>
#include <stdint.h>

// Rows of a rectangle copied one after another are short runs with a gap between them, which
// the CPU's own prefetchers pick up late on every row; asking for the next row's lines while
// this one is copied keeps them coming (the dim over the layer does the same).
void vitrine_copy_prefetching(const uint32_t *from, uint32_t *to, size_t count, const uint32_t *next,
                              uint32_t *next_to) {
    size_t x = 0;
    for (; x + 16 <= count; x += 16) {
        if (next) __builtin_prefetch(next + x, 0, 3);
        if (next_to) __builtin_prefetch(next_to + x, 1, 3);
        memcpy(to + x, from + x, 16 * sizeof *to);
    }
    if (x < count) memcpy(to + x, from + x, (count - x) * sizeof *to);
}

#if defined(__x86_64__)
#include <emmintrin.h>

void vitrine_copy_streaming(const uint32_t *from, uint32_t *to, size_t count) {
    size_t x = 0;
    // Up to a 16-byte boundary of the target pixel by pixel (pixels are 4-byte aligned).
    while (x < count && ((uintptr_t)(to + x) & 15) != 0) { to[x] = from[x]; x++; }
    for (; x + 16 <= count; x += 16) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(from + x));
        const __m128i b = _mm_loadu_si128((const __m128i *)(from + x + 4));
        const __m128i c = _mm_loadu_si128((const __m128i *)(from + x + 8));
        const __m128i d = _mm_loadu_si128((const __m128i *)(from + x + 12));
        _mm_stream_si128((__m128i *)(to + x), a);
        _mm_stream_si128((__m128i *)(to + x + 4), b);
        _mm_stream_si128((__m128i *)(to + x + 8), c);
        _mm_stream_si128((__m128i *)(to + x + 12), d);
    }
    for (; x < count; x++) to[x] = from[x];
}

// The streamed lines ordered before anything after this call (the flip that shows them).
void vitrine_streaming_fence(void) { _mm_sfence(); }

#else

void vitrine_copy_streaming(const uint32_t *from, uint32_t *to, size_t count) {
    memcpy(to, from, count * sizeof *to);
}

void vitrine_streaming_fence(void) {}

#endif
