// The blitter's kernels that need instructions Swift cannot ask for function by function: AVX2,
// chosen at run time (vitrine_blitter_has_avx2), so one binary runs on every x86-64 and aarch64
// board and the 128-bit Swift paths stay the reference. Each kernel gives bit for bit what its
// Swift path gives (Tests/BlitterTests/WideKernelTests.swift compares them).
#ifndef VITRINE_CBLITTERKERNELS_H
#define VITRINE_CBLITTERKERNELS_H

#include <stddef.h>
#include <stdint.h>

// 1 when this CPU and the kernel run AVX2 code (x86-64 only; 0 elsewhere).
int vitrine_blitter_has_avx2(void);

// Four destination pixels of a bilinear resample whose source pairs (each pixel's left and right
// neighbour) all lie in eight consecutive source pixels, so one 32-byte load of a source row and
// one permute fetch all eight.
typedef struct {
    // Horizontal weights (16-bit fractions, as the Swift path's `pairWeights`) in the order the
    // kernel multiplies: pixels 0 and 2 (left weight x4, right weight x4 each), then 1 and 3.
    uint16_t weights[32];
    // The pairs' pixels within the window: left 0, right 0, left 1, right 1, ... (0-7).
    uint32_t pick[8];
    // The byte offset of the window's first pixel in a source row.
    int32_t window;
    int32_t unused[7];
} vitrine_pair_block;

// One destination row from two source rows, `count` blocks (4 * count pixels) into `out`:
// vertically with 8-bit weights adding up to 256 (both even, as 128ths doubled are, and neither
// 256: a row drawn from one source row alone does not come here), across with the blocks'
// weights, rounded, laid over what `out` holds at `alpha` (256: opaque), the X byte 0. x86-64
// with AVX2 only.
void vitrine_bilinear_pairs_avx2(const uint8_t *top, const uint8_t *bottom, uint16_t top_weight,
                                 uint16_t bottom_weight, const vitrine_pair_block *blocks, size_t count,
                                 uint32_t *out, uint16_t alpha, const uint8_t *next, uint32_t *next_out);

// Eight destination columns of an enlarging resample: each a pair of neighbouring source pixels
// (left, right) and its weights. The left pixels are `window`'s eight when `consecutive`, else
// picked from them; the right ones are those one pixel on.
typedef struct {
    // The weights (a, b; a + b = 128) as bytes, a pair per channel, in the order the kernel
    // multiplies: columns 0, 1, 4, 5, then 2, 3, 6, 7.
    uint8_t weights[64];
    // The left pixels within the window (0-7), unless consecutive.
    uint32_t pick[8];
    // The byte offset of the window's first pixel in a source row.
    int32_t window;
    int32_t consecutive;
    int32_t unused[6];
} vitrine_enlarge_block;

// One source row of an enlarging resample interpolated across (ScaleEnlarging.swift): `count`
// blocks of eight destination columns, each a pair of neighbours times its weights, rounded to
// halves of a level, into `out`: 32 16-bit lanes a block, the columns 0, 1, 4, 5 then 2, 3, 6, 7
// (four lanes a column). Reads the source row from each window to 36 bytes on; asks for the same
// of `next`, the row below (or NULL), ahead. AVX2 only.
void vitrine_enlarge_across_avx2(const uint8_t *row, const vitrine_enlarge_block *blocks, size_t count, uint16_t *out,
                                 const uint8_t *next);

// One destination row of an enlarging resample from two source rows interpolated across
// (`vitrine_enlarge_across_avx2`'s layout, whole blocks): blended down with 7-bit weights adding
// up to 128, rounded, laid over `out` at `alpha` (256: opaque), the X byte 0; `count` pixels
// (the last block's spare columns are not written). `next_out`, the row below (or NULL), is
// asked for ahead. AVX2 only.
void vitrine_enlarge_down_avx2(const uint16_t *top, const uint16_t *bottom, uint16_t upper, uint16_t lower,
                               size_t count, uint32_t *out, uint16_t alpha, uint32_t *next_out);

// A constant colour over `count` pixels of `from` into `to` (which may be `from`), as ColorBlend's
// 128-bit path: per channel (colour x a + 128 + pixel x `inverse`) >> 8, the colour's share given
// as two lanes of 16 bits each for the low bytes (blue, red) and the high bytes (green, x), the X
// byte 0. Blends whole groups of 16 pixels, asking for the same pixels of `next` and `next_to`
// (the next rows, or NULL) ahead; returns how many it blended. AVX2 only.
size_t vitrine_color_blend_avx2(const uint32_t *from, uint32_t *to, size_t count, uint32_t weighted_low,
                                uint32_t weighted_high, uint16_t inverse, const uint32_t *next, uint32_t *next_to);

// `vitrine_color_blend_avx2` from packed pixels (`PackedBitmap`: blue, green, red, 3 bytes a
// pixel) into `to`, asking for the same pixels of `next` (packed) and `next_to` ahead. Reads up
// to 8 bytes past the last group's pixels (the next row's, or the bitmap's padding). AVX2 only.
size_t vitrine_color_blend_packed_avx2(const uint8_t *from, uint32_t *to, size_t count, uint32_t weighted_low,
                                       uint32_t weighted_high, uint16_t inverse, const uint8_t *next, uint32_t *next_to);

// `count` XRGB8888 pixels packed into 3 bytes each (blue, green, red; the X byte dropped).
void vitrine_pack_pixels(const uint32_t *from, uint8_t *to, size_t count);

// `count` packed pixels widened to XRGB8888 (the X byte 0), asking for the same pixels of `next`
// (packed) and `next_to`, the rows below (or NULL), ahead.
void vitrine_unpack_pixels(const uint8_t *from, uint32_t *to, size_t count, const uint8_t *next, uint32_t *next_to);

// Asks for the cache line holding `address` ahead of its use (a hint: never faults). Memory-bound
// passes call it a row ahead: the hardware's own prefetcher starts late on each new row.
static inline void vitrine_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
// The same for a line about to be written.
static inline void vitrine_prefetch_for_writing(void *address) { __builtin_prefetch(address, 1, 3); }

// `count` pixels from `from` to `to` (which do not overlap), asking for the same pixels of `next`
// and `next_to` (the rows below, or NULL) ahead: one row of a rectangle copied row by row.
void vitrine_copy_prefetching(const uint32_t *from, uint32_t *to, size_t count, const uint32_t *next,
                              uint32_t *next_to);

// `count` pixels from `from` to `to` with non-temporal stores where the CPU has them (SSE2 on
// x86-64; elsewhere a plain copy): for a buffer the CPU writes and never reads back, the scan-out
// buffer, whose lines would otherwise push the next frame's pixels out of the cache. The stores
// are ordered only by `vitrine_streaming_fence`, once after a frame's copies.
void vitrine_copy_streaming(const uint32_t *from, uint32_t *to, size_t count);
void vitrine_streaming_fence(void);

#endif
