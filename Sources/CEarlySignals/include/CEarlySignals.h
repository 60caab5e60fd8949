// The kiosk's signals blocked before any code of the `vitrine` executable runs (early_signals.c).
// Only `vitrine` links this target: vitrine-bench, drm-smoke and the test runner keep Ctrl-C.
#ifndef VITRINE_CEARLYSIGNALS_H
#define VITRINE_CEARLYSIGNALS_H

// 1 when the executable's DT_PREINIT_ARRAY entry blocked the kiosk's signals (CLinux's
// vitrine_kiosk_signal) before the shared libraries' initialisers ran. `main` calls it, which also
// keeps the object, and its preinit entry, in the executable.
int vitrine_kiosk_signals_blocked_before_main(void);

#endif
