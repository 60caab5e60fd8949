#include "CEarlySignals.h"
#include "CLinux.h"

static int blocked_before_main = 0;

// Blocks the kiosk's signals before any other code of the process runs (issue #22): a SIGHUP sent
// by a deploy script in the first milliseconds after exec would otherwise end the kiosk with its
// default action while the shared libraries' initialisers and the Swift runtime start, before
// `main` could block it (systemd counts that exit as clean). The dynamic loader calls the
// executable's DT_PREINIT_ARRAY after relocation and before any shared library's constructor or
// any of the executable's own, the earliest user code there is; the signals wait, pending, for
// `run`'s signalfd, or the other commands unblock them (ProcessSignals.restoreDefault).
static void block_kiosk_signals(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < vitrine_kiosk_signal_count(); i++) sigaddset(&set, vitrine_kiosk_signal(i));
    // The only thread: sigprocmask is the same as pthread_sigmask here, and libpthread's state may
    // not be set up yet.
    blocked_before_main = sigprocmask(SIG_BLOCK, &set, NULL) == 0;
}

__attribute__((section(".preinit_array"), used))
static void (*const vitrine_block_kiosk_signals_early)(int, char **, char **) = block_kiosk_signals;

int vitrine_kiosk_signals_blocked_before_main(void) { return blocked_before_main; }
