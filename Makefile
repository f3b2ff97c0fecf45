# otc-prompt — the two commands that do all the set-up on a fresh Debian machine, once a Swift toolchain is there
# (SWIFT_MINIMUM or newer: `make deps` installs Debian's where apt offers one, and otherwise says where to get it):
#   make run    install what is missing, build, and run the prompt (ARGS="--length 8" to pass options)
#   make test   install what is missing, build, and run every test
#   make bench  install what is missing, build (release), and measure against the anchors (~26 min from a fresh clone, builds included)
#   make deb    install what is missing, build (release), and package otc-prompt_<version>_<arch>.deb
SHELL := /bin/bash
.DEFAULT_GOAL := build

PREFIX ?= /usr/local
CONFIG ?= debug
ARGS ?=
SWIFT ?= swift
# The oldest Swift that builds the package: Package.swift's swift-tools-version. Debian's toolchain is the swiftlang
# package (Debian's "swift" is OpenStack's object store): 6.0.3 in Debian 13, none in Debian 12, so both need
# swift.org's (README, "Install").
SWIFT_MINIMUM := 6.1
SWIFT_ELSEWHERE := install Swift $(SWIFT_MINIMUM) or newer from https://www.swift.org/install/linux/ (swiftly, or the tarball for your Debian) and put its usr/bin on PATH, as README.md says under Install

# Debian packages the build, the tests and the speech need.
# gnupg, gpg-agent, pinentry-tty, pinentry-curses: the pinentry tests run the real gpg and compare replies.
# gcc, libc6-dev, binutils, python3: make release profiles its binary for the link order (packaging/profile-link-order).
APT_PACKAGES := libespeak-ng-dev espeak-ng libpcaudio-dev pkg-config pulseaudio pulseaudio-utils sox tmux \
	speech-dispatcher speech-dispatcher-espeak-ng gnupg gpg-agent pinentry-tty pinentry-curses gcc libc6-dev binutils \
	python3
# And what `make test` needs besides: the real clients the login tests start (Tests/OTCPromptLoginTests);
# locales: the locale sources localedef compiles for the Latin-1 tests (ScreenAndCharsetEndToEndTests);
# gcc, libc6-dev: the stub speech libraries of SpeechLibrariesEndToEndTests.
# gettext: msgfmt --check on the catalogs in po/ (CatalogTests); python3 also compiles them (make catalogs).
# fenrir and python3-speechd (its speech-dispatcher driver, only recommended): the screen reader beside the prompt
# (ScreenReaderEndToEndTests); brltty (with libbrlapi0.8): the braille display the braille tests drive through its
# Virtual driver (PrivateBrltty); polkitd, pkexec (with pkttyagent, the anchor) and dbus-daemon: the private system
# bus and polkitd the polkit agent's tests start in a mount namespace (PrivatePolkit). Each test starts its own;
# nothing is enabled.
TEST_APT_PACKAGES := sudo openssh-server openssh-client libpam-google-authenticator oathtool git python3 passwd util-linux \
	locales gcc libc6-dev gettext fenrir python3-speechd brltty polkitd pkexec dbus-daemon
# And what `make bench` needs besides (hyperfine: the start-up table; python3: the pty harness;
# gcc and libc6-dev: the floor, a static C program, Benchmarks/tty_floor.c; python3-numpy: comparing
# recordings of the sink with their references, Benchmarks/stale_cut.py).
BENCH_APT_PACKAGES := hyperfine python3 python3-numpy gcc libc6-dev
BENCH_REPETITIONS ?= 15
# What `make deb` needs (dpkg-shlibdeps, dpkg-gencontrol, lintian), and its round trip besides
# (python3: the pty check; man-db: man -w; bash-completion; sudo: sudo -A as a throwaway user).
DEB_APT_PACKAGES := dpkg-dev binutils lintian
DEB_CHECK_APT_PACKAGES := python3 man-db bash-completion sudo
# What `make boot-test` needs besides: QEMU (the Debian kernel it boots is fetched with apt-get download and unpacked
# into .build/boot-test, never installed: its postinst would write into the host's /boot), initramfs-tools and cryptsetup's initramfs parts (mkinitramfs, cryptroot),
# pexpect for the serial console, alsa-utils (amixer: the images unmute the card for the prompt, and the test mutes it
# first). `make boot-test-dracut` needs dracut-core besides (it installs beside initramfs-tools; `dracut` would not).
BOOT_TEST_APT_PACKAGES := qemu-system-x86 cryptsetup-initramfs initramfs-tools python3-pexpect cryptsetup alsa-utils
BOOT_TEST_DRACUT_APT_PACKAGES := $(BOOT_TEST_APT_PACKAGES) dracut-core

# libstdc++ and libgcc are linked in too (the few parts the Swift runtime uses, ~0.2 MB): -lstdc++ then finds
# only the archive in STATIC_CXX_DIR, where `make release` links the toolchain's libstdc++.a (docs/performance.md).
STATIC_CXX_DIR := $(CURDIR)/.build/static-libstdc++
# The functions a session runs, in the order they first run: lld puts them together at the start of the code, each in
# its own section (-function-sections), so that a session maps ~2 MiB of the binary, not ~3.8; and those without a
# symbol to name, together before them (packaging/link-order.ld). Generated, never committed: make release profiles
# its own binary (packaging/profile-link-order) whenever a source is newer than the order, then links it again.
LINK_ORDER := $(CURDIR)/.build/link-order.txt
RELEASE_FLAGS := --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now -Xswiftc -use-ld=lld \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker --icf=all -Xlinker --no-export-dynamic \
	-Xswiftc -L$(STATIC_CXX_DIR) -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
	-Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xlinker --symbol-ordering-file=$(LINK_ORDER) -Xlinker --no-warn-symbol-ordering \
	-Xlinker -T -Xlinker $(CURDIR)/packaging/link-order.ld

# The version `otc-prompt --version` prints, from its one source, Sources/OTCPromptSettings/Version.swift.
VERSION := $(shell packaging/version)
DEB := otc-prompt_$(VERSION)_$(shell dpkg --print-architecture 2>/dev/null || echo unknown).deb
# auto: install the pinentry-otc link when the binary's --help lists --pinentry; or yes, no.
PINENTRY_LINK ?= auto
# The stripped release binary's size ceiling in MB of 10^6 bytes, just above its size (docs/packaging.md).
# The footprint target is 8 MB.
MAX_BINARY_MB ?= 9

.PHONY: deps toolchain build release release-flags static-libstdc++ link-order link-order-check binary-check run test bench docs catalogs install uninstall deb deb-check deb-check-fresh boot-test boot-test-dracut clean

# $(call install-missing,PACKAGES): apt-get install those of PACKAGES that are not installed yet.
define install-missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends$$missing; \
	fi
endef

## deps: install the Debian packages that are missing (needs root or sudo), and the Swift toolchain where apt has one
deps: toolchain
	$(call install-missing,$(APT_PACKAGES))

## toolchain: nothing when $(SWIFT) is SWIFT_MINIMUM or newer; else Debian's swiftlang when apt offers one that new
## (and no swift is on PATH); else one line saying what to do, and a failure.
toolchain:
	@at_least() { printf '%s\n%s\n' "$(SWIFT_MINIMUM)" "$$1" | sort -V -C; }; \
	if command -v $(SWIFT) >/dev/null 2>&1; then \
	  version=$$($(SWIFT) --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1); \
	  at_least "$$version" && exit 0; \
	  echo "otc-prompt: $(SWIFT) is Swift $${version:-of an unknown version}; $(SWIFT_ELSEWHERE)." >&2; exit 1; \
	fi; \
	sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	$$sudo apt-get update -qq || true; \
	candidate=$$(apt-cache policy swiftlang 2>/dev/null | sed -n 's/^ *Candidate: \([0-9][0-9.]*\).*/\1/p'); \
	if [ -z "$$candidate" ] || ! at_least "$$candidate"; then \
	  echo "otc-prompt: no swift on PATH, and apt's swiftlang is $${candidate:-not offered here}; $(SWIFT_ELSEWHERE)." >&2; \
	  exit 1; \
	fi; \
	echo "installing: swiftlang $$candidate"; \
	DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends swiftlang

## build: build the prompt (installs nothing: `make deps` does, and so do run, test, bench and deb)
build:
	$(SWIFT) build -c $(CONFIG)

## release: an optimised build, with the Swift runtime linked in statically (no Foundation): the
## prompt then starts sooner and a session uses less memory (docs/performance.md), at the cost of a
## larger binary (packaging/check-binary keeps it within MAX_BINARY_MB). No $$ORIGIN run path
## (nothing is looked up beside the binary) and symbols bound at start-up, so that the GOT can
## be read-only (full RELRO), as Debian's hardening expects (docs/packaging.md). Linked by lld
## (the toolchain's): relative relocations packed (DT_RELR, glibc >= 2.36), all identical code folded
## (--icf=all: no object here says which functions are address-taken, so --icf=safe folded almost none; code only,
## as Apple's linker does), and no symbol table exported: 8.83 -> 7.88 MB stripped and about 1 MiB less resident
## memory; --icf=all then 8.66 -> 8.32 MB (docs/packaging.md, docs/performance.md).
## SwiftPM does not compile again when only -Xfrontend flags change (-function-sections), so the objects of a
## build with other flags are cleared first: .build/release-flags names the flags they were built with. Nor does
## it link again when only the link order changes: a binary older than the order is removed.
## The link order is made here, from this binary: when a source is newer than the order (or there is none yet), the
## binary is profiled through everyday sessions and linked again in that order. A profile that cannot be made (no
## PulseAudio, say) leaves a working binary in the order it had, with a warning: it only maps more memory.
release: static-libstdc++
	@[ "$$(cat .build/release-flags 2>/dev/null)" = "$(RELEASE_FLAGS)" ] || \
	  { rm -rf .build/*/release; mkdir -p .build; echo "$(RELEASE_FLAGS)" >.build/release-flags; }
	@[ -f $(LINK_ORDER) ] || : >$(LINK_ORDER)
	@[ ! .build/release/otc-prompt -ot $(LINK_ORDER) ] || rm -f .build/release/otc-prompt
	$(SWIFT) build -c release --product otc-prompt $(RELEASE_FLAGS)
	@if [ ! -s $(LINK_ORDER) ] || [ -n "$$(find Sources Package.swift -newer $(LINK_ORDER) -print -quit)" ]; then \
	  if packaging/profile-link-order .build/release/otc-prompt $(LINK_ORDER).new; then \
	    mv $(LINK_ORDER).new $(LINK_ORDER) && rm -f .build/release/otc-prompt && \
	    $(SWIFT) build -c release --product otc-prompt $(RELEASE_FLAGS); \
	  else \
	    rm -f $(LINK_ORDER).new; \
	    echo "release: warning: the link order could not be profiled; the binary works, but maps more memory" >&2; \
	  fi; \
	fi

# The flags of make release, for the benchmarks' build of the same binary (Benchmarks/run.sh, after make release has
# made the link order they name).
release-flags: static-libstdc++
	@echo $(RELEASE_FLAGS)

# A directory holding only the toolchain's libstdc++.a (from libstdc++-N-dev, which the Swift toolchain needs to
# link at all), so that the Swift runtime's -lstdc++ links it in: libstdc++.so.6 (~1 MiB resident and its
# relocations at every start) is then never loaded.
static-libstdc++:
	@archive=$$("$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/clang" -print-file-name=libstdc++.a); \
	[ -f "$$archive" ] || { echo "libstdc++.a not found (install libstdc++-12-dev)" >&2; exit 1; }; \
	mkdir -p $(STATIC_CXX_DIR) && ln -sfn "$$archive" $(STATIC_CXX_DIR)/libstdc++.a

## link-order: profile the release binary afresh and link it again in that order (make release does it by itself
## whenever a source has changed; this forces it, after a change the sources do not show, such as a new toolchain)
link-order:
	$(call install-missing,pulseaudio gcc libc6-dev binutils python3)
	rm -f $(LINK_ORDER)
	$(MAKE) release

## link-order-check: profile the release binary again and fail when the functions it runs are not all in its
## link order (a few aside): the order make release made must be the one this binary runs (docs/packaging.md)
link-order-check: release
	$(call install-missing,pulseaudio gcc libc6-dev binutils python3)
	packaging/profile-link-order --check .build/release/otc-prompt $(LINK_ORDER)

## binary-check: the release binary, stripped as the .deb ships it, within MAX_BINARY_MB, with no Swift
## library needed at run time and no Foundation or ICU linked in (packaging/check-binary)
binary-check: release
	MAX_BINARY_MB=$(MAX_BINARY_MB) packaging/check-binary .build/release/otc-prompt

## run: build and run the prompt at this terminal; the code it returns is printed on stdout
run: deps build
	@$(SWIFT) build -c $(CONFIG) --show-bin-path >/dev/null
	"$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/otc-prompt" $(ARGS)

## test: build and run every test (unit, real engine, end to end on a pseudo-terminal, and as root
## the real sudo, sshd, ssh-agent and git with a throwaway user, private ports and temporary files)
test: deps
	$(call install-missing,$(TEST_APT_PACKAGES))
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## bench: release builds, then every figure of docs/performance.md beside its anchor, in one run
## (a private PulseAudio null sink; BENCH_REPETITIONS whole-process runs per figure, default 15)
bench: deps
	$(call install-missing,$(BENCH_APT_PACKAGES))
	Benchmarks/run.sh $(BENCH_REPETITIONS)

## catalogs: compile the gettext catalogs in po/ into the Swift tables the binary embeds
## (Sources/OTCPromptCore/Wording/Catalog+*.swift, committed); CatalogTests fails when they are stale
catalogs:
	python3 scripts/catalogs.py

## docs: regenerate the man page and the shell completions (committed under docs/) from the declarations,
## with the otc-prompt-docs tool (not installed); GeneratedDocsTests fails when the committed files differ
docs:
	$(SWIFT) build --product otc-prompt-docs
	mkdir -p docs/completions
	tool="$$($(SWIFT) build --show-bin-path)/otc-prompt-docs"; \
	for file in $$("$$tool"); do "$$tool" "$$file" > "$$file"; done

## install: install the binary, the man page and the completions under PREFIX (default /usr/local)
install: deps release
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	install -m 0755 .build/release/otc-prompt "$(DESTDIR)$(PREFIX)/bin/otc-prompt"
	# gpg-agent.conf: pinentry-program $(PREFIX)/bin/pinentry-otc (run by that name, otc-prompt is a pinentry).
	ln -sf otc-prompt "$(DESTDIR)$(PREFIX)/bin/pinentry-otc"
	install -m 0644 docs/otc-prompt.1 "$(DESTDIR)$(PREFIX)/share/man/man1/otc-prompt.1"
	# The touch cues' user unit, not enabled (systemctl --user enable otc-prompt-touch-watch.service), naming this binary.
	install -d "$(DESTDIR)$(PREFIX)/lib/systemd/user"
	sed 's|/usr/bin/otc-prompt|$(PREFIX)/bin/otc-prompt|' packaging/systemd/otc-prompt-touch-watch.service \
	  > "$(DESTDIR)$(PREFIX)/lib/systemd/user/otc-prompt-touch-watch.service"
	install -m 0644 docs/completions/otc-prompt.bash "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/otc-prompt"
	install -m 0644 docs/completions/otc-prompt.zsh "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_otc-prompt"
	install -m 0644 docs/completions/otc-prompt.fish "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/otc-prompt.fish"
	@if [ "$(PINENTRY_LINK)" = yes ] || { [ "$(PINENTRY_LINK)" = auto ] && .build/release/otc-prompt --help 2>&1 | grep -q -- --pinentry; }; then \
	  echo "pinentry-otc -> otc-prompt"; \
	  ln -sf otc-prompt "$(DESTDIR)$(PREFIX)/bin/pinentry-otc"; \
	  ln -sf otc-prompt.1 "$(DESTDIR)$(PREFIX)/share/man/man1/pinentry-otc.1"; \
	fi

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/otc-prompt" "$(DESTDIR)$(PREFIX)/share/man/man1/otc-prompt.1" \
	  "$(DESTDIR)$(PREFIX)/bin/pinentry-otc" "$(DESTDIR)$(PREFIX)/share/man/man1/pinentry-otc.1" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/otc-prompt" \
	  "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_otc-prompt" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/otc-prompt.fish" \
	  "$(DESTDIR)$(PREFIX)/lib/systemd/user/otc-prompt-touch-watch.service"

## deb: the Debian package otc-prompt_<version>_<arch>.deb from the release build, with Depends
## computed by dpkg-shlibdeps, checked by lintian (docs/packaging.md)
deb: deps release
	$(call install-missing,$(DEB_APT_PACKAGES))
	PINENTRY_LINK=$(PINENTRY_LINK) MAX_BINARY_MB=$(MAX_BINARY_MB) packaging/build-deb .build/release/otc-prompt .

## deb-check: build the package, then install it, use it, remove and purge it (needs root or sudo)
deb-check: deb
	$(call install-missing,$(DEB_CHECK_APT_PACKAGES))
	@sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; $$sudo packaging/check-deb ./$(DEB)

## deb-check-fresh: the same round trip inside a fresh minimal Debian 12 (debootstrap, chroot),
## where apt must bring every library through the package's Depends (needs root; ~5 min, network)
deb-check-fresh: deb
	$(call install-missing,debootstrap)
	@sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; $$sudo packaging/check-deb-fresh ./$(DEB)

## boot-test: the disk passphrase at boot, in QEMU: an initramfs with the project's hook, a LUKS image unlocked
## through keyscript=otc-prompt with a wrong then the right passphrase, spoken (the guest's sound recorded)
## and without a sound card, the PC speaker's tones recorded (needs root; ~3 min; never touches the host's boot)
boot-test: deps release
	$(call install-missing,$(BOOT_TEST_APT_PACKAGES))
	@sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; $$sudo packaging/boot-test

## boot-test-dracut: the same in an initrd built on systemd by dracut with the project's module: systemd-cryptsetup
## asks for the disk of rd.luks.uuid=, otc-prompt's console agent answers (needs root; ~4 min; never touches the
## host's boot)
boot-test-dracut: deps release
	$(call install-missing,$(BOOT_TEST_DRACUT_APT_PACKAGES))
	@sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; $$sudo packaging/boot-test-dracut

clean:
	rm -rf .build
	rm -f otc-prompt_*.deb
