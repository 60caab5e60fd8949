// Pixels packed to 3 bytes (PackedBitmap) and back, in plain C for every CPU. The AVX2 dim widens
// packed pixels itself as it reads them (vitrine_color_blend_packed_avx2).
#include "CBlitterKernels.h"
#include <string.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "packed pixels are unpacked as little-endian words"
#endif

void vitrine_pack_pixels(const uint32_t *from, uint8_t *to, size_t count) {
    if (count == 0) return;
    // Each pixel as one 4-byte store, its X byte overwritten by the next pixel's blue; the last
    // one byte by byte, so nothing past the row is written.
    for (size_t x = 0; x + 1 < count; x++) memcpy(to + 3 * x, from + x, 4);
    const uint32_t p = from[count - 1];
    to[3 * count - 3] = (uint8_t)p;
    to[3 * count - 2] = (uint8_t)(p >> 8);
    to[3 * count - 1] = (uint8_t)(p >> 16);
}

// Four packed pixels (12 bytes) at `from` widened: one 8-byte and one 4-byte load, little-endian
// (x86-64 and aarch64 are), then shifts; a byte at a time costs twice as much without a shuffle.
static inline void unpack_four(const uint8_t *from, uint32_t *to) {
    uint64_t a;
    uint32_t c;
    memcpy(&a, from, 8);
    memcpy(&c, from + 8, 4);
    to[0] = (uint32_t)a & 0xFFFFFF;
    to[1] = (uint32_t)(a >> 24) & 0xFFFFFF;
    to[2] = ((uint32_t)(a >> 48) | c << 16) & 0xFFFFFF;
    to[3] = c >> 8;
}

void vitrine_unpack_pixels(const uint8_t *from, uint32_t *to, size_t count, const uint8_t *next, uint32_t *next_to) {
    size_t x = 0;
    for (; x + 16 <= count; x += 16) {
        // The 48 bytes of the next row under these 16 pixels, and their target line.
        if (next) {
            __builtin_prefetch(next + 3 * x, 0, 3);
            __builtin_prefetch(next + 3 * x + 47, 0, 3);
        }
        if (next_to) __builtin_prefetch(next_to + x, 1, 3);
        for (size_t k = x; k < x + 16; k += 4) unpack_four(from + 3 * k, to + k);
    }
    for (; x + 4 <= count; x += 4) unpack_four(from + 3 * x, to + x);
    for (; x < count; x++) to[x] = (uint32_t)from[3 * x] | (uint32_t)from[3 * x + 1] << 8 | (uint32_t)from[3 * x + 2] << 16;
}
