# Install Vitrine on a kiosk (see README, "Deploy on a kiosk"):
#   make install            build in release mode, install binary, config, unit and sample photos
#   make uninstall
# DESTDIR stages the files elsewhere; BINARY installs an already built executable; the Debian
# package (scripts/package) installs with PREFIX=/usr UNITDIR=/usr/lib/systemd/system EXAMPLE_CONFIG=no.
# PREFIX/bin/vitrine is the static launcher (Sources/vitrine-launcher: the kiosk's signals blocked
# before the dynamic loader runs), which executes the binary installed as PREFIX/lib/vitrine/vitrine.
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
UNITDIR ?= /etc/systemd/system
BINARY ?= .build/release/vitrine
EXAMPLE_CONFIG ?= yes
CC ?= cc

.PHONY: all build install uninstall test

all: build

build:
	swift build -c release --product vitrine

$(BINARY):
	swift build -c release --product vitrine

install: $(BINARY)
	install -D -m 0755 $(BINARY) $(DESTDIR)$(PREFIX)/lib/vitrine/vitrine
	install -d -m 0755 $(DESTDIR)$(PREFIX)/bin
	$(CC) -static -O2 -Wall -Wextra -Werror $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -I Sources/CLinux/include \
		-DVITRINE_PROGRAM='"$(PREFIX)/lib/vitrine/vitrine"' -o $(DESTDIR)$(PREFIX)/bin/vitrine Sources/vitrine-launcher/launcher.c
	install -d -m 0755 $(DESTDIR)$(SYSCONFDIR)/vitrine
	# The example is always current; an edited vitrine.toml is never overwritten.
	[ "$(EXAMPLE_CONFIG)" = no ] || install -m 0644 Config/vitrine.toml $(DESTDIR)$(SYSCONFDIR)/vitrine/vitrine.toml.example
	[ -e $(DESTDIR)$(SYSCONFDIR)/vitrine/vitrine.toml ] || install -m 0644 Config/vitrine.toml $(DESTDIR)$(SYSCONFDIR)/vitrine/vitrine.toml
	# The unit names the installed program and README (PREFIX).
	install -d -m 0755 $(DESTDIR)$(UNITDIR)
	sed 's|/usr/local/|$(PREFIX)/|g' systemd/vitrine.service > $(DESTDIR)$(UNITDIR)/vitrine.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/vitrine.service
	install -d -m 0755 $(DESTDIR)$(PREFIX)/share/vitrine/samples
	install -m 0644 Samples/photos/*.jpg Samples/ATTRIBUTION.md $(DESTDIR)$(PREFIX)/share/vitrine/samples/
	install -D -m 0644 README.md $(DESTDIR)$(PREFIX)/share/doc/vitrine/README.md
	install -D -m 0644 docs/vitrine.1 $(DESTDIR)$(PREFIX)/share/man/man1/vitrine.1
	# Not active: the drop-in that opens the network for [remote] listen (README, "Remote status and control").
	install -D -m 0644 systemd/remote-access.conf $(DESTDIR)$(PREFIX)/share/doc/vitrine/examples/remote-access.conf
	# Not enabled: the photo folder mirrored from a remote by rclone (README, "Remote sources (rclone)").
	for unit in vitrine-rclone.service vitrine-rclone.timer; do \
		sed 's|/usr/local/|$(PREFIX)/|g' systemd/$$unit > $(DESTDIR)$(PREFIX)/share/doc/vitrine/examples/$$unit; \
		chmod 0644 $(DESTDIR)$(PREFIX)/share/doc/vitrine/examples/$$unit; \
	done

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/vitrine $(DESTDIR)$(UNITDIR)/vitrine.service $(DESTDIR)$(PREFIX)/share/man/man1/vitrine.1
	rm -rf $(DESTDIR)$(PREFIX)/lib/vitrine $(DESTDIR)$(PREFIX)/share/vitrine $(DESTDIR)$(PREFIX)/share/doc/vitrine
	# $(SYSCONFDIR)/vitrine is left: it holds the integrator's configuration.

test:
	scripts/test
