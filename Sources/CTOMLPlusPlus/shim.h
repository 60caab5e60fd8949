// Debian's toml++ (libtomlplusplus-dev), a compiled C++ library. Only CTOMLShim includes it: Swift
// reads TOML through that shim's C interface.
#ifdef __cplusplus
#include <toml++/toml.h>
#endif
