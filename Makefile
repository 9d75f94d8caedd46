# The two commands of the README. Both run the idempotent setup first.
CARGO ?= cargo
# Each phase prints its start, its duration and its CPU time (scripts/phase).
PHASE = ./scripts/phase

.PHONY: setup demo demo-build test lint build web web-test

setup:
	$(PHASE) setup ./scripts/setup

build: setup
	$(CARGO) build --release --locked --workspace

# The demo's two binaries (the CLI and the demos), without the native back
# ends (no LLVM to compile against or link) where no CUDA or HIP device is
# present: a machine without a GPU runs them on lavapipe.
demo-build: setup
	@if [ -e /dev/nvidiactl ] || [ -e /dev/kfd ]; then features=; \
	else features=--no-default-features; fi; \
	$(PHASE) demo-build $(CARGO) build --release --locked -p wavekit-cli -p wavekit-demos --bin wavekit --bin wavekit-demos $$features

demo: demo-build
	@status=0; $(PHASE) demo ./scripts/demo || status=$$?; \
	echo "Browser demo: make web && node web/serve.mjs, then open http://127.0.0.1:8000/ in a browser with WebGPU (without subgroups the page emulates them)"; \
	exit $$status

# No file of a crate imports one that imports it back (scripts/import-circles
# says what counts), in the library, the native crate and the CLI.
CIRCLES = scripts/import-circles --self-test && scripts/import-circles src && scripts/import-circles native/src && scripts/import-circles cli/src

lint: setup
	$(CARGO) fmt --all -- --check
	$(CIRCLES)
	$(CARGO) clippy --workspace --all-targets --all-features --locked -- -D warnings

# Mesa's window-system code warns when this is unset, though nothing is drawn.
export XDG_RUNTIME_DIR ?= /tmp/wavekit-runtime

# make test lints and builds in one compile: clippy's driver wraps rustc for
# the workspace's crates (what `cargo clippy` does, but with code
# generation), so the dependencies are compiled once, not once checked for
# clippy and again built for the tests. `make lint` stays the separate
# `cargo clippy --all-targets --all-features`.
# rustup's proxy where it is on PATH, else the toolchain's own.
CLIPPY_DRIVER ?= $(shell command -v clippy-driver || echo "$$(rustc --print sysroot)/bin/clippy-driver")
CLIPPY_BUILD = RUSTC_WORKSPACE_WRAPPER=$(CLIPPY_DRIVER) CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__
# Without incremental compilation, which only slows a build from scratch
# (CI's, a fresh clone's), where the workspace's crates are a third of the
# build's CPU time. The tests phase sets it too, or cargo would rebuild.
FROM_SCRATCH = CARGO_INCREMENTAL=0

test: setup
	mkdir -p -m 700 $(XDG_RUNTIME_DIR)
	$(PHASE) fmt $(CARGO) fmt --all -- --check
	$(PHASE) import-circles sh -c '$(CIRCLES)'
	$(PHASE) build+clippy env $(CLIPPY_BUILD) $(FROM_SCRATCH) $(CARGO) test --workspace --locked --no-run
# --- Browser demo: the page in headless Chromium (WebGPU on SwiftShader).
# cargo test has just built the debug wavekit; emitting with it spares a
# release build.
	$(PHASE) web-build env WAVEKIT=./target/debug/wavekit ./web/build.sh
# Then three phases at once: the browser test (about a minute, a core and a
# half of Chromium and waits) beside the test binaries, two at a time on two
# cores (scripts/test-pool says why), and then the published crates' check
# (lean default features, `cargo package`, and the lean example built
# against the packed wavekit, run on lavapipe). On 2 cores one after another
# they left a core idle for about 35 s (2026-11-29q). The browser test's
# output comes after the others'; the status is the first failure's.
	@web_log=$$(mktemp); \
	$(PHASE) web-test node --test web/test/ >"$$web_log" 2>&1 & web=$$!; \
	$(PHASE) tests env $(CLIPPY_BUILD) $(FROM_SCRATCH) CARGO=$(CARGO) ./scripts/test-pool && \
	$(PHASE) package-check env CARGO=$(CARGO) ./scripts/package-check; status=$$?; \
	wait $$web; web_status=$$?; cat "$$web_log"; rm -f "$$web_log"; \
	[ $$status -ne 0 ] && exit $$status; exit $$web_status

# --- Browser demo (web/): the demos' WGSL emitted for browsers into web/gen/,
# served by `node web/serve.mjs`; web-test runs the headless-Chromium test alone.
web: build
	./web/build.sh

web-test: web
	node --test web/test/
