# toolgen: the two commands of the quick start are `make demo` and `make test`; both set everything up first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8377

.PHONY: help setup demo serve test test-unit test-functional test-e2e lint format bench layer build deploy clean

help:
	@echo "make demo    set up, start the platform, generate and use two tools, stop"
	@echo "make test    set up and run every test tier (unit, functional, e2e)"
	@echo "make serve   run the platform on http://127.0.0.1:$(PORT) until Ctrl-C"
	@echo "make lint    ruff and mypy;  make bench    time generation stage by stage, and memory recall and updates"
	@echo "make build / deploy   sam build / sam deploy --guided (needs the SAM CLI and an AWS account)"

# The virtual environment, rebuilt when the pinned requirements change.
$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "toolgen needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check --upgrade pip==25.3
	$(BIN)/python -m pip install -q --disable-pip-version-check -c constraints.txt -e '.[local,dev]'
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(BIN)/python -m toolgen.local.demo

serve: setup
	$(BIN)/toolgen serve --port $(PORT)

test: setup
	$(BIN)/pytest tests

test-unit: setup
	$(BIN)/pytest tests/unit

test-functional: setup
	$(BIN)/pytest tests/functional

test-e2e: setup
	$(BIN)/pytest tests/e2e

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup layer
	$(BIN)/python bench/generate.py
	$(BIN)/python bench/memory.py
	$(BIN)/python bench/coldstart.py

# The base layer as Lambda gets it (layers/base/Makefile, the recipe `sam build` runs): the pinned requirements
# for python3.12 on x86_64, toolgen, its page templates and the tool handler, in build/layer/python.
layer: setup
	rm -rf build/layer && mkdir -p build/layer
	$(MAKE) -C layers/base build-BaseLayer ARTIFACTS_DIR=$(abspath build/layer) PYTHON=$(abspath $(BIN)/python)
	@du -sh build/layer | sed 's/\t.*/ unzipped: build\/layer/'

build:
	@command -v sam >/dev/null || { echo "install the AWS SAM CLI first: https://docs.aws.amazon.com/serverless-application-model/"; exit 2; }
	sam build

deploy: build
	sam deploy --guided

clean:
	rm -rf $(VENV) build .aws-sam .pytest_cache .mypy_cache .ruff_cache
