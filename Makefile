# The two commands of the README. Both run the idempotent setup first.
CARGO ?= cargo

.PHONY: setup demo test lint build

setup:
	./scripts/setup

build: setup
	$(CARGO) build --release --locked

demo: build
	./scripts/demo

lint: setup
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --all-features --locked -- -D warnings

# Mesa's window-system code warns when this is unset, though nothing is drawn.
export XDG_RUNTIME_DIR ?= /tmp/wavekit-runtime

test: lint
	mkdir -p -m 700 $(XDG_RUNTIME_DIR)
	$(CARGO) test --workspace --locked
