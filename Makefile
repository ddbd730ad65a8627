# treadsim: `make run` starts the main job, `make test` runs every check.
# Both install what is missing first (Debian packages; sudo only when not root).

SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Build needs: a C toolchain, pkg-config and libudev for gilrs (gamepads).
APT_PACKAGES := build-essential pkg-config libudev-dev
CARGO ?= cargo

.PHONY: run test deps build check-scenes bench clean

deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@command -v $(CARGO) >/dev/null || { echo "cargo not found: install Rust with rustup (https://rustup.rs)"; exit 1; }

build: deps
	$(CARGO) build --release

# The main job. Until the operator station lands, it validates the whole scene library.
run: build
	./target/release/treadsim check scenes/*.toml

test: deps
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) build --no-default-features
	$(CARGO) test --no-default-features --all-targets
	$(CARGO) run --no-default-features --quiet -- check scenes/*.toml > /dev/null

bench: deps
	$(CARGO) bench --no-default-features

clean:
	$(CARGO) clean
