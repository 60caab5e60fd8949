// The blitter's AVX2 kernels: the bilinear pairs of Scale.swift's `drawBilinear` (each destination
// pixel from its two neighbours in two source rows) and the downward blend of ScaleEnlarging.swift,
// on 256-bit vectors: the same arithmetic as their Swift paths, eight pixels at a time.
#include "CBlitterKernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

int vitrine_blitter_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

// Four pixels of a block as 16-bit channels (0-255), in order, two to a 128-bit lane. `vertical`
// holds the byte pair (top weight, bottom weight), each halved, in every 16-bit lane.
__attribute__((target("avx2"), always_inline)) static inline __m256i
pair_block(const uint8_t *top, const uint8_t *bottom, __m256i vertical, const vitrine_pair_block *block) {
    const __m256i pick = _mm256_loadu_si256((const __m256i *)block->pick);
    // Left and right neighbours of pixels 0 and 1 in the low lane, 2 and 3 in the high one.
    const __m256i t = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(top + block->window)), pick);
    const __m256i u = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(bottom + block->window)), pick);
    // Down: each channel of the top row next to the same of the bottom, times the halved weights
    // and added in one multiply (at most 255 x 128: no saturation), doubled: channel x 256, as
    // `pmullw` of the whole weights gives it (pixels 0 and 2 from the low bytes of each lane, 1
    // and 3 from the high).
    __m256i even = _mm256_slli_epi16(_mm256_maddubs_epi16(_mm256_unpacklo_epi8(t, u), vertical), 1);
    __m256i odd = _mm256_slli_epi16(_mm256_maddubs_epi16(_mm256_unpackhi_epi8(t, u), vertical), 1);
    // Across: each neighbour times its weight (high half), then left + right of each pixel.
    even = _mm256_mulhi_epu16(even, _mm256_loadu_si256((const __m256i *)block->weights));
    odd = _mm256_mulhi_epu16(odd, _mm256_loadu_si256((const __m256i *)(block->weights + 16)));
    const __m256i sum = _mm256_add_epi16(_mm256_unpacklo_epi64(even, odd), _mm256_unpackhi_epi64(even, odd));
    return _mm256_srli_epi16(_mm256_add_epi16(sum, _mm256_set1_epi16(128)), 8);
}

// `pixels` over `destination` at alpha / 256, per byte in 16-bit lanes (PixelVector.blend).
__attribute__((target("avx2"), always_inline)) static inline __m256i
blend_over(__m256i pixels, __m256i destination, __m256i alpha, __m256i inverse) {
    const __m256i low_bytes = _mm256_set1_epi16(0x00FF), high_bytes = _mm256_set1_epi16((short)0xFF00);
    const __m256i bias = _mm256_set1_epi16(128);
    const __m256i low = _mm256_srli_epi16(
        _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(pixels, low_bytes), alpha),
                                          _mm256_mullo_epi16(_mm256_and_si256(destination, low_bytes), inverse)),
                         bias), 8);
    const __m256i high = _mm256_and_si256(
        _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_srli_epi16(pixels, 8), alpha),
                                          _mm256_mullo_epi16(_mm256_srli_epi16(destination, 8), inverse)),
                         bias), high_bytes);
    return _mm256_or_si256(low, high);
}

__attribute__((target("avx2"))) void
vitrine_bilinear_pairs_avx2(const uint8_t *top, const uint8_t *bottom, uint16_t top_weight, uint16_t bottom_weight,
                            const vitrine_pair_block *blocks, size_t count, uint32_t *out, uint16_t alpha,
                            const uint8_t *next, uint32_t *next_out) {
    // Both weights are even and below 256 (see the header): halved, each fits a signed byte.
    const __m256i vertical = _mm256_set1_epi16((short)(top_weight >> 1 | (bottom_weight >> 1) << 8));
    const __m256i color = _mm256_set1_epi32(0x00FFFFFF);
    const __m256i alpha_lanes = _mm256_set1_epi16((short)alpha), inverse = _mm256_set1_epi16((short)(256 - alpha));
    const int blends = alpha < 256;
    size_t k = 0;
    for (; k + 2 <= count; k += 2) {
        if (next) _mm_prefetch((const char *)(next + blocks[k].window), _MM_HINT_T0);
        if (next_out) __builtin_prefetch(next_out + 4 * k, 1, 3);
        const __m256i first = pair_block(top, bottom, vertical, blocks + k);
        const __m256i second = pair_block(top, bottom, vertical, blocks + k + 1);
        // packus interleaves the lanes (0 1 4 5 | 2 3 6 7): the 64-bit permute puts them in order.
        __m256i pixels = _mm256_permute4x64_epi64(_mm256_packus_epi16(first, second), 0xD8);
        uint32_t *to = out + 4 * k;
        if (blends) pixels = blend_over(pixels, _mm256_loadu_si256((const __m256i *)to), alpha_lanes, inverse);
        _mm256_storeu_si256((__m256i *)to, _mm256_and_si256(pixels, color));
    }
    if (k < count) {
        const __m256i first = pair_block(top, bottom, vertical, blocks + k);
        __m256i pixels = _mm256_permute4x64_epi64(_mm256_packus_epi16(first, _mm256_setzero_si256()), 0xD8);
        uint32_t *to = out + 4 * k;
        if (blends) {
            const __m256i under = _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)to));
            pixels = blend_over(pixels, under, alpha_lanes, inverse);
        }
        _mm_storeu_si128((__m128i *)to, _mm256_castsi256_si128(_mm256_and_si256(pixels, color)));
    }
}

// A colour over eight pixels as ColorBlend's 128-bit path lays it: per channel (colour x a + 128 +
// pixel x `inverse`) >> 8, the X byte 0.
__attribute__((target("avx2"), always_inline)) static inline __m256i
color_over(__m256i d, __m256i low_weighted, __m256i high_weighted, __m256i inverse) {
    const __m256i low_bytes = _mm256_set1_epi16(0x00FF), high_bytes = _mm256_set1_epi16((short)0xFF00);
    const __m256i low = _mm256_srli_epi16(
        _mm256_add_epi16(low_weighted, _mm256_mullo_epi16(_mm256_and_si256(d, low_bytes), inverse)), 8);
    const __m256i high = _mm256_and_si256(
        _mm256_add_epi16(high_weighted, _mm256_mullo_epi16(_mm256_srli_epi16(d, 8), inverse)), high_bytes);
    return _mm256_and_si256(_mm256_or_si256(low, high), _mm256_set1_epi32(0x00FFFFFF));
}

__attribute__((target("avx2"))) size_t
vitrine_color_blend_avx2(const uint32_t *from, uint32_t *to, size_t count, uint32_t weighted_low,
                         uint32_t weighted_high, uint16_t inverse, const uint32_t *next, uint32_t *next_to) {
    const __m256i low_weighted = _mm256_set1_epi32((int)weighted_low), high_weighted = _mm256_set1_epi32((int)weighted_high);
    const __m256i inverse_lanes = _mm256_set1_epi16((short)inverse);
    size_t x = 0;
    for (; x + 16 <= count; x += 16) {
        // A cache line (16 pixels) of the next rows asked for per 16 blended here.
        if (next) _mm_prefetch((const char *)(next + x), _MM_HINT_T0);
        if (next_to) __builtin_prefetch(next_to + x, 1, 3);
        for (size_t k = x; k < x + 16; k += 8) {
            const __m256i d = _mm256_loadu_si256((const __m256i *)(from + k));
            _mm256_storeu_si256((__m256i *)(to + k), color_over(d, low_weighted, high_weighted, inverse_lanes));
        }
    }
    return x;
}

__attribute__((target("avx2"))) size_t
vitrine_color_blend_packed_avx2(const uint8_t *from, uint32_t *to, size_t count, uint32_t weighted_low,
                                uint32_t weighted_high, uint16_t inverse, const uint8_t *next, uint32_t *next_to) {
    const __m256i low_weighted = _mm256_set1_epi32((int)weighted_low), high_weighted = _mm256_set1_epi32((int)weighted_high);
    const __m256i inverse_lanes = _mm256_set1_epi16((short)inverse);
    // Eight packed pixels are 24 bytes: their first four (dwords 0-2 of a 32-byte load) to the
    // low lane, the other four (dwords 3-5) to the high one, then each 3 bytes to a pixel.
    const __m256i spread = _mm256_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0);
    const __m256i widen = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                           0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    size_t x = 0;
    for (; x + 16 <= count; x += 16) {
        // The 48 bytes of the next row under these 16 pixels: one or two cache lines.
        if (next) {
            _mm_prefetch((const char *)(next + 3 * x), _MM_HINT_T0);
            _mm_prefetch((const char *)(next + 3 * x + 47), _MM_HINT_T0);
        }
        if (next_to) __builtin_prefetch(next_to + x, 1, 3);
        for (size_t k = x; k < x + 16; k += 8) {
            const __m256i raw = _mm256_loadu_si256((const __m256i *)(from + 3 * k));
            const __m256i d = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(raw, spread), widen);
            _mm256_storeu_si256((__m256i *)(to + k), color_over(d, low_weighted, high_weighted, inverse_lanes));
        }
    }
    return x;
}

// An enlarging resample's rows interpolated across hold each group of eight columns as two
// vectors: pixels 0, 1, 4, 5 (the low halves of `unpack`) and 2, 3, 6, 7 (the high halves), four
// 16-bit lanes a pixel. `packus` of the two then gives the eight in order, no permute.

__attribute__((target("avx2"))) void
vitrine_enlarge_down_avx2(const uint16_t *top, const uint16_t *bottom, uint16_t upper, uint16_t lower, size_t count,
                          uint32_t *out, uint16_t alpha, uint32_t *next_out) {
    const __m256i up = _mm256_set1_epi16((short)upper), down = _mm256_set1_epi16((short)lower);
    const __m256i rounding = _mm256_set1_epi16(128), color = _mm256_set1_epi32(0x00FFFFFF);
    const __m256i alpha_lanes = _mm256_set1_epi16((short)alpha), inverse = _mm256_set1_epi16((short)(256 - alpha));
    const int blends = alpha < 256;
    for (size_t i = 0; i < count; i += 8) {
        if (next_out && (i & 15) == 0) __builtin_prefetch(next_out + i, 1, 3);
        // Half-levels x 128ths is 256ths of a level: the high byte of each lane, rounded.
        const __m256i t0 = _mm256_loadu_si256((const __m256i *)(top + 4 * i));
        const __m256i t1 = _mm256_loadu_si256((const __m256i *)(top + 4 * i + 16));
        const __m256i u0 = _mm256_loadu_si256((const __m256i *)(bottom + 4 * i));
        const __m256i u1 = _mm256_loadu_si256((const __m256i *)(bottom + 4 * i + 16));
        const __m256i d0 = _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(t0, up), _mm256_mullo_epi16(u0, down)), rounding);
        const __m256i d1 = _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(t1, up), _mm256_mullo_epi16(u1, down)), rounding);
        __m256i pixels = _mm256_packus_epi16(_mm256_srli_epi16(d0, 8), _mm256_srli_epi16(d1, 8));
        if (i + 8 <= count) {
            if (blends) pixels = blend_over(pixels, _mm256_loadu_si256((const __m256i *)(out + i)), alpha_lanes, inverse);
            _mm256_storeu_si256((__m256i *)(out + i), _mm256_and_si256(pixels, color));
        } else {
            // The last one to seven pixels, through a buffer: nothing past the row is touched.
            uint32_t last[8] = {0};
            const size_t left = count - i;
            for (size_t k = 0; k < left; k++) last[k] = out[i + k];
            if (blends) pixels = blend_over(pixels, _mm256_loadu_si256((const __m256i *)last), alpha_lanes, inverse);
            _mm256_storeu_si256((__m256i *)last, _mm256_and_si256(pixels, color));
            for (size_t k = 0; k < left; k++) out[i + k] = last[k];
        }
    }
}

__attribute__((target("avx2"))) void
vitrine_enlarge_across_avx2(const uint8_t *row, const vitrine_enlarge_block *blocks, size_t count, uint16_t *out,
                            const uint8_t *next) {
    const __m256i flip = _mm256_set1_epi8((char)0x80);
    // The bias maddubs leaves (-128 x 128) back, and rounding to halves of a level.
    const __m256i bias = _mm256_set1_epi16(16384 + 32);
    for (size_t k = 0; k < count; k++) {
        const vitrine_enlarge_block *block = blocks + k;
        // The next source row's line under these columns (16 pixels a line: every other block).
        if (next && (k & 1) == 0) _mm_prefetch((const char *)(next + block->window), _MM_HINT_T0);
        // The eight columns' left neighbours and right neighbours: consecutive source pixels
        // straight from the row, the others picked from a window.
        __m256i left = _mm256_loadu_si256((const __m256i *)(row + block->window));
        __m256i right = _mm256_loadu_si256((const __m256i *)(row + block->window + 4));
        if (!block->consecutive) {
            const __m256i pick = _mm256_loadu_si256((const __m256i *)block->pick);
            left = _mm256_permutevar8x32_epi32(left, pick);
            right = _mm256_permutevar8x32_epi32(right, pick);
        }
        left = _mm256_xor_si256(left, flip);
        right = _mm256_xor_si256(right, flip);
        // Each channel next to its right neighbour's, times the weights (a, b; a + b = 128) and
        // added in one multiply: a (l - 128) + b (r - 128) = a l + b r - 16384.
        const __m256i low = _mm256_maddubs_epi16(_mm256_loadu_si256((const __m256i *)block->weights),
                                                 _mm256_unpacklo_epi8(left, right));
        const __m256i high = _mm256_maddubs_epi16(_mm256_loadu_si256((const __m256i *)(block->weights + 32)),
                                                  _mm256_unpackhi_epi8(left, right));
        _mm256_storeu_si256((__m256i *)(out + 32 * k), _mm256_srli_epi16(_mm256_add_epi16(low, bias), 6));
        _mm256_storeu_si256((__m256i *)(out + 32 * k + 16), _mm256_srli_epi16(_mm256_add_epi16(high, bias), 6));
    }
}

#else

int vitrine_blitter_has_avx2(void) { return 0; }

size_t vitrine_color_blend_avx2(const uint32_t *from, uint32_t *to, size_t count, uint32_t weighted_low,
                                uint32_t weighted_high, uint16_t inverse, const uint32_t *next, uint32_t *next_to) {
    (void)from; (void)to; (void)count; (void)weighted_low; (void)weighted_high; (void)inverse; (void)next; (void)next_to;
    __builtin_trap();  // never called: vitrine_blitter_has_avx2 is 0
}

size_t vitrine_color_blend_packed_avx2(const uint8_t *from, uint32_t *to, size_t count, uint32_t weighted_low,
                                       uint32_t weighted_high, uint16_t inverse, const uint8_t *next, uint32_t *next_to) {
    (void)from; (void)to; (void)count; (void)weighted_low; (void)weighted_high; (void)inverse; (void)next; (void)next_to;
    __builtin_trap();  // never called: vitrine_blitter_has_avx2 is 0
}

void vitrine_enlarge_across_avx2(const uint8_t *row, const vitrine_enlarge_block *blocks, size_t count, uint16_t *out,
                                 const uint8_t *next) {
    (void)row; (void)blocks; (void)count; (void)out; (void)next;
    __builtin_trap();  // never called: vitrine_blitter_has_avx2 is 0
}

void vitrine_enlarge_down_avx2(const uint16_t *top, const uint16_t *bottom, uint16_t upper, uint16_t lower, size_t count,
                               uint32_t *out, uint16_t alpha, uint32_t *next_out) {
    (void)top; (void)bottom; (void)upper; (void)lower; (void)count; (void)out; (void)alpha; (void)next_out;
    __builtin_trap();  // never called: vitrine_blitter_has_avx2 is 0
}

void vitrine_bilinear_pairs_avx2(const uint8_t *top, const uint8_t *bottom, uint16_t top_weight,
                                 uint16_t bottom_weight, const vitrine_pair_block *blocks, size_t count,
                                 uint32_t *out, uint16_t alpha, const uint8_t *next, uint32_t *next_out) {
    (void)next; (void)next_out;
    (void)top; (void)bottom; (void)top_weight; (void)bottom_weight; (void)blocks; (void)count; (void)out; (void)alpha;
    __builtin_trap();  // never called: vitrine_blitter_has_avx2 is 0
}

#endif
