# otc-prompt — the two commands that do all the set-up on a fresh Debian machine:
#   make run    install what is missing, build, and run the prompt (ARGS="--length 8" to pass options)
#   make test   install what is missing, build, and run every test
#   make bench  install what is missing, build (release), and measure against the anchors (~8 min)
SHELL := /bin/bash
.DEFAULT_GOAL := build

PREFIX ?= /usr/local
CONFIG ?= debug
ARGS ?=
SWIFT ?= swift

# Debian packages the build, the tests and the speech need.
# gnupg, gpg-agent, pinentry-tty, pinentry-curses: the pinentry tests run the real gpg and compare replies.
APT_PACKAGES := libespeak-ng-dev espeak-ng libpcaudio-dev pkg-config pulseaudio pulseaudio-utils sox tmux \
  gnupg gpg-agent pinentry-tty pinentry-curses
# And what `make bench` needs besides (hyperfine: the start-up table; python3: the pty harness).
BENCH_APT_PACKAGES := hyperfine python3
BENCH_REPETITIONS ?= 15

.PHONY: deps build release run test bench docs install uninstall clean

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

## deps: install the Debian packages that are missing (needs root or sudo)
deps:
	$(call install-missing,$(APT_PACKAGES))

## build: build the prompt
build: deps
	$(SWIFT) build -c $(CONFIG)

## release: an optimised build, with the Swift runtime and Foundation linked in statically: the
## prompt then starts speaking sooner than `espeak-ng -w` and a session stays under 20 MiB
## (docs/performance.md, figures 1 and 6), at the cost of a larger binary.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib

## run: build and run the prompt at this terminal; the code it returns is printed on stdout
run: build
	@$(SWIFT) build -c $(CONFIG) --show-bin-path >/dev/null
	"$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/otc-prompt" $(ARGS)

## test: build and run every test (unit, real engine, end to end on a pseudo-terminal)
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## bench: release builds, then every figure of docs/performance.md beside its anchor, in one run
## (a private PulseAudio null sink; BENCH_REPETITIONS whole-process runs per figure, default 15)
bench: deps
	$(call install-missing,$(BENCH_APT_PACKAGES))
	Benchmarks/run.sh $(BENCH_REPETITIONS)

## docs: regenerate the man page and the shell completions (committed under docs/) from the options
docs: release
	$(SWIFT) package generate-manual
	# The generator lists a subcommand that otc-prompt does not have.
	sed "/^\.Ar subcommand$$/d" .build/plugins/GenerateManual/outputs/otc-prompt/otc-prompt.1 > docs/otc-prompt.1
	mkdir -p docs/completions
	for shell in bash zsh fish; do .build/release/otc-prompt --generate-completion-script $$shell > docs/completions/otc-prompt.$$shell; done

## install: install the binary, the man page and the completions under PREFIX (default /usr/local)
install: release
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	install -m 0755 .build/release/otc-prompt "$(DESTDIR)$(PREFIX)/bin/otc-prompt"
	# gpg-agent.conf: pinentry-program $(PREFIX)/bin/pinentry-otc (run by that name, otc-prompt is a pinentry).
	ln -sf otc-prompt "$(DESTDIR)$(PREFIX)/bin/pinentry-otc"
	install -m 0644 docs/otc-prompt.1 "$(DESTDIR)$(PREFIX)/share/man/man1/otc-prompt.1"
	install -m 0644 docs/completions/otc-prompt.bash "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/otc-prompt"
	install -m 0644 docs/completions/otc-prompt.zsh "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_otc-prompt"
	install -m 0644 docs/completions/otc-prompt.fish "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/otc-prompt.fish"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/otc-prompt" "$(DESTDIR)$(PREFIX)/bin/pinentry-otc" \
	  "$(DESTDIR)$(PREFIX)/share/man/man1/otc-prompt.1" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/otc-prompt" \
	  "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_otc-prompt" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/otc-prompt.fish"

clean:
	rm -rf .build
