#include "CLinux.h"

// The kiosk's signals (ProcessSignals.kiosk in Swift reads them from here): SIGTERM and SIGINT
// stop `vitrine run`, SIGHUP reloads it. CEarlySignals blocks them before `vitrine` runs any code.
static const int kiosk_signals[] = {SIGTERM, SIGINT, SIGHUP};

size_t vitrine_kiosk_signal_count(void) { return sizeof kiosk_signals / sizeof kiosk_signals[0]; }

int vitrine_kiosk_signal(size_t index) {
    return index < vitrine_kiosk_signal_count() ? kiosk_signals[index] : 0;
}
