# The two commands of the README. Both run the idempotent setup first.
CARGO ?= cargo

.PHONY: setup demo test lint build web web-test

setup:
	./scripts/setup

build: setup
	$(CARGO) build --release --locked --workspace

demo: build
	@status=0; ./scripts/demo || status=$$?; \
	echo "Browser demo: make web && node web/serve.mjs, then open http://127.0.0.1:8000/ in a browser with WebGPU (without subgroups the page emulates them)"; \
	exit $$status

lint: setup
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --all-features --locked -- -D warnings

# Mesa's window-system code warns when this is unset, though nothing is drawn.
export XDG_RUNTIME_DIR ?= /tmp/wavekit-runtime

test: lint
	mkdir -p -m 700 $(XDG_RUNTIME_DIR)
	$(CARGO) test --workspace --locked
# --- The published crates: lean default features, `cargo package`, and the
# lean example built against the packed wavekit, run on lavapipe.
	CARGO=$(CARGO) ./scripts/package-check
# --- Browser demo: the page in headless Chromium (WebGPU on SwiftShader).
# cargo test has just built the debug wavekit; emitting with it spares a
# release build.
	WAVEKIT=./target/debug/wavekit ./web/build.sh
	node --test web/test/

# --- Browser demo (web/): the demos' WGSL emitted for browsers into web/gen/,
# served by `node web/serve.mjs`; web-test runs the headless-Chromium test alone.
web: build
	./web/build.sh

web-test: web
	node --test web/test/
