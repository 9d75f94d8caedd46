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
	$(CARGO) clippy --all-targets --locked -- -D warnings

test: lint
	$(CARGO) test --locked
