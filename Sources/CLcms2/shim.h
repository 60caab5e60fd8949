#include <lcms2.h>

// lcms2's pixel types are function-like macros, which Swift does not import.

// XRGB8888 as a little-endian UInt32 (0x00RRGGBB): bytes B, G, R, X in memory. The X byte is an
// extra channel lcms neither reads nor writes (no cmsFLAGS_COPY_ALPHA).
static const cmsUInt32Number vt_lcms_type_bgrx_8 = TYPE_BGRA_8;
