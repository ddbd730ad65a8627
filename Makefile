# treadsim: `make run` starts the main job, `make test` runs every check.
# Both install what is missing first (Debian packages; sudo only when not root).

SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Build needs: a C toolchain, pkg-config, libudev for gilrs (gamepads) and OpenSSL's headers
# for the instructor console's TLS.
APT_PACKAGES := build-essential pkg-config libudev-dev libssl-dev
CARGO ?= cargo

.PHONY: run test deps station-deps browser-deps ros2-deps build check-scenes bench clean

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

# The main job: the operator station on the default exercise (the 20 kg robot at the foot of
# the public stairs). Runtime needs of its window, loaded when it opens: X11/Wayland client
# libraries, and Mesa's Vulkan and EGL drivers (lavapipe/llvmpipe render on the CPU when the
# machine has no GPU driver).
STATION_PACKAGES := libvulkan1 mesa-vulkan-drivers libegl1 libegl-mesa0 libgl1-mesa-dri \
  libx11-6 libx11-xcb1 libxcursor1 libxi6 libxrandr2 libxkbcommon0 libxkbcommon-x11-0 \
  libwayland-client0 libwayland-egl1

station-deps:
	@missing=""; for p in $(STATION_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# The console's browser test: Debian's Chromium and its WebDriver, and Selenium (the WebDriver
# client) from PyPI in a virtual environment under target/ (pinned; nothing else downloaded:
# Selenium is given the driver's path, so its manager fetches nothing). The windowed class
# seat's test runs the station on a virtual display: xvfb.
BROWSER_PACKAGES := chromium chromium-driver python3-venv xvfb
BROWSER_VENV := target/venv-browser
SELENIUM := selenium==4.40.0

browser-deps:
	@missing=""; for p in $(BROWSER_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@[ -x $(BROWSER_VENV)/bin/python ] && $(BROWSER_VENV)/bin/python -c "import selenium" 2>/dev/null || { \
	  python3 -m venv $(BROWSER_VENV) && $(BROWSER_VENV)/bin/pip install -q $(SELENIUM); }

# The ROS 2 and Foxglove tests' clients, ones we did not write: Eclipse Zenoh's Python API,
# rosbags (CDR and RIHS01 type hashes), Pillow (JPEG), the Foxglove SDK and the mcap reader,
# websockets and jsonschema (a Foxglove WebSocket client checking messages against schemas),
# pinned, from PyPI into a virtual environment under target/. Where PyPI cannot be reached the
# tests are skipped and say so (target/venv-ros2.unavailable).
ROS2_VENV := target/venv-ros2
ROS2_CLIENT := eclipse-zenoh==1.10.2 rosbags==0.11.9 pillow==13.0.0 foxglove-sdk==0.30.3 mcap==1.6.0 \
  websockets==17.4 jsonschema==4.26.0

ros2-deps: browser-deps
	@[ -x $(ROS2_VENV)/bin/python ] && $(ROS2_VENV)/bin/python -c "import zenoh, rosbags, PIL, foxglove, mcap, websockets, jsonschema" 2>/dev/null || { \
	  rm -rf $(ROS2_VENV) $(ROS2_VENV).unavailable; python3 -m venv $(ROS2_VENV) && \
	  $(ROS2_VENV)/bin/pip install -q $(ROS2_CLIENT) || { \
	    echo "pip could not install $(ROS2_CLIENT) (PyPI unreachable?)" > $(ROS2_VENV).unavailable; \
	    rm -rf $(ROS2_VENV); }; }

# Without a display the station says so (once) and exits with status 3; `make run` then
# renders what the front camera sees headless (target/make-run-front.png, so the tree stays
# clean), prints the picture's path and succeeds: the simulator and renderer work. With a
# virtual display: `xvfb-run -a make run` (apt-get install xvfb).
run: build station-deps
	@bash scripts/make-run.sh ./target/release/treadsim

# Every check: formatting, lints (with the viewer and the classroom), the headless core on its
# own and its API docs' links, all core tests and benches (as tests), the scene library, the
# viewer's tests (headless rendering through Mesa, no display needed) and the classroom's
# (instructor and seat processes over Zenoh on loopback, records in SQLite).
test: deps station-deps browser-deps ros2-deps
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) build --no-default-features
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-default-features --features classroom,ros2,foxglove --no-deps --quiet
	$(CARGO) test --no-default-features --all-targets
	$(CARGO) run --no-default-features --quiet -- check scenes/*.toml scenes/exercises/*.toml > /dev/null
	$(CARGO) test --test viewer_logic --test viewer_cli --test viewer_render
	$(CARGO) test --lib viewer::
	$(CARGO) test --lib classroom::
	$(CARGO) test --bin treadsim
	$(CARGO) test --test classroom
	$(CARGO) test --test console -- --include-ignored
	$(CARGO) test --test station_class
	$(CARGO) test --lib interop::
	$(CARGO) test --test ros2
	$(CARGO) test --test foxglove

bench: deps
	$(CARGO) bench --no-default-features

clean:
	$(CARGO) clean
