// The installed `vitrine` (Makefile's install, the Debian package): a static program that blocks the
// kiosk's signals as its first act and executes the real binary (VITRINE_PROGRAM, in
// PREFIX/lib/vitrine), which inherits the blocked set across exec (issue #22). The real binary
// blocks them too, in its DT_PREINIT_ARRAY entry (CEarlySignals), but that runs only after the
// dynamic loader has mapped and relocated some thirty libraries, a few milliseconds in which a
// SIGHUP would end it with the default action (systemd counts that as a clean exit). A static
// program has no loader: its first code runs microseconds after exec.
//
// Built by the Makefile with the C compiler, not by SwiftPM (which links with the Swift driver).
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

// The one list of the kiosk's signals (ProcessSignals.kiosk reads it too).
#include "../CLinux/signals.c"

#ifndef VITRINE_PROGRAM
#error "VITRINE_PROGRAM: the real binary's path, e.g. -DVITRINE_PROGRAM='\"/usr/lib/vitrine/vitrine\"'"
#endif

int main(int argc, char **argv) {
    (void)argc;
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < vitrine_kiosk_signal_count(); i++) sigaddset(&set, vitrine_kiosk_signal(i));
    sigprocmask(SIG_BLOCK, &set, NULL);
    execv(VITRINE_PROGRAM, argv);
    fprintf(stderr, "vitrine: cannot start %s: %s (reinstall the package)\n", VITRINE_PROGRAM, strerror(errno));
    return 127;
}
