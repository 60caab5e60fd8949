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
// vertically with 8-bit weights adding up to 256, across with the blocks' weights, rounded, laid
// over what `out` holds at `alpha` (256: opaque), the X byte 0. x86-64 with AVX2 only.
void vitrine_bilinear_pairs_avx2(const uint8_t *top, const uint8_t *bottom, uint16_t top_weight,
                                 uint16_t bottom_weight, const vitrine_pair_block *blocks, size_t count,
                                 uint32_t *out, uint16_t alpha, const uint8_t *next, uint32_t *next_out);

// One destination row of an enlarging resample (ScaleEnlarging.swift) from two source rows already
// interpolated across (four 16-bit lanes a pixel, in half-levels): blended down with 7-bit weights
// adding up to 128, rounded, laid over `out` at `alpha` (256: opaque), the X byte 0; `count`
// pixels, a multiple of 8. `next_out`, the row below (or NULL), is asked for ahead. AVX2 only.
void vitrine_enlarge_down_avx2(const uint16_t *top, const uint16_t *bottom, uint16_t upper, uint16_t lower,
                               size_t count, uint32_t *out, uint16_t alpha, uint32_t *next_out);

// One source row of an enlarging resample interpolated across (ScaleEnlarging.swift): `count` blocks
// of four destination columns, each a pair of neighbours times weights in 128ths adding up to 128,
// rounded to halves of a level, into `out` (four 16-bit lanes a column, 16 a block). AVX2 only.
void vitrine_enlarge_across_avx2(const uint8_t *row, const vitrine_pair_block *blocks, size_t count, uint16_t *out);

// Asks for the cache line holding `address` ahead of its use (a hint: never faults). Memory-bound
// passes call it a row ahead: the hardware's own prefetcher starts late on each new row.
static inline void vitrine_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
// The same for a line about to be written.
static inline void vitrine_prefetch_for_writing(void *address) { __builtin_prefetch(address, 1, 3); }

#endif
