# Two commands on a fresh machine: `make run` (build output/ from seeds/) and `make test`.
# Both create .venv and install from the hash-pinned lock first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP_FLAGS ?= --disable-pip-version-check --progress-bar off

.PHONY: setup run test test-fast lint browser virtuoso lock clean score confidence yasgui

setup: $(VENV)/.installed

# pip names each package as it gets it ("Collecting ..."), so the minutes of a first install show progress.
$(VENV)/.installed: requirements.lock pyproject.toml
	@echo "kg: creating $(VENV) and installing the $$(grep -c '^[a-z0-9]' requirements.lock) pinned packages (a few minutes the first time)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install $(PIP_FLAGS) --require-hashes --no-deps -r requirements.lock
	$(BIN)/pip install $(PIP_FLAGS) --no-deps --no-build-isolation -e .
	@echo "kg: $(VENV) is ready"
	touch $@

run: setup
	$(BIN)/kg build seeds --store output/store --out output

# Headless Chromium (Debian's package) for the browser tests; needs root or sudo once.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# Virtuoso open source (Debian's package) for the remote-store tests; needs root or sudo once.
# The tests start a server of their own; the system service the package starts where it can
# (it would listen on 1111 and 8890 with the password dba) is stopped and disabled.
virtuoso:
	@command -v virtuoso-t >/dev/null 2>&1 || { \
	  echo "installing Debian's virtuoso-opensource for the remote-store tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq virtuoso-opensource >/dev/null && \
	  { $$SUDO invoke-rc.d virtuoso-opensource-7 stop >/dev/null 2>&1; \
	    $$SUDO update-rc.d virtuoso-opensource-7 disable >/dev/null 2>&1; true; }; }

# Re-vendor YASGUI (the query page's editor) from the npm registry; needs npm. The tarball's integrity
# and the files' SHA-256 must be the ones pinned in kg/serve/vendor.py (a new version: change the pins).
YASGUI_VERSION := $(shell sed -n 's/^YASGUI_VERSION = "\(.*\)"/\1/p' kg/serve/vendor.py)
yasgui: setup
	rm -rf .yasgui && mkdir .yasgui && cd .yasgui && npm pack --silent @zazuko/yasgui@$(YASGUI_VERSION)
	$(BIN)/python -m kg.serve.vendor .yasgui/zazuko-yasgui-$(YASGUI_VERSION).tgz
	rm -rf .yasgui

# Lint and types: ruff and mypy, configured in pyproject.toml, both from the lock.
lint: setup
	$(BIN)/ruff check kg tests benchmarks
	$(BIN)/mypy

test: setup browser virtuoso lint
	$(BIN)/python -m pytest -q

# The unit tests alone (pytest -m unit): no spaCy model, no Chromium, no Virtuoso.
test-fast: setup lint
	$(BIN)/python -m pytest -q -m unit

score: setup
	@test -d ../shared/eval || { echo "make score needs ../shared/eval (the workspace's development set beside the checkout); it is not part of the repository"; exit 2; }
	rm -rf .score && $(BIN)/kg build ../shared/eval/dev/articles --store .score/store --out .score
	$(BIN)/python ../shared/eval/score.py --graph .score/graph.ttl --queries queries --gold ../shared/eval/dev/gold --misses \
	  $$( [ -f ../shared/eval/dev/groups.yaml ] && echo --groups ../shared/eval/dev/groups.yaml )
	@[ ! -f ../shared/eval/when_where.py ] || $(BIN)/python ../shared/eval/when_where.py --graph .score/graph.ttl --gold ../shared/eval/dev/gold

# Refit the confidence model on the dev set and print its check with each group of the dev set held
# out (docs/quality.md, "Confidence"); run it after any change to the rules, then rebuild with --force.
confidence: setup
	@test -d ../shared/eval/dev || { echo "make confidence needs ../shared/eval/dev (the workspace's development set beside the checkout)"; exit 2; }
	$(BIN)/kg eval ../shared/eval/dev/gold --articles ../shared/eval/dev/articles --groups ../shared/eval/dev/groups.yaml \
	  --fit-confidence kg/extract/confidence/confidence.json

# Re-resolve the lock (needs uv: pip install uv).
lock:
	uv pip compile pyproject.toml --extra test --generate-hashes --python-version 3.11 -o requirements.lock

clean:
	rm -rf $(VENV) .score output/store

# Benchmarks of issue 8 side by side (about 20 minutes on 2 cores; BENCH_FLAGS=--quick for a smoke run).
.PHONY: bench bench-scale
bench: setup
	$(BIN)/python benchmarks/run.py $(BENCH_FLAGS)

# kg at 10,000 generated articles (issue 35: build rate and peak RSS against 1,000, adding one article,
# every canned query, exports; about 40 minutes on 2 cores). SCALE_FLAGS=--articles 2000 for a smaller run.
bench-scale: setup
	$(BIN)/python benchmarks/scale.py $(SCALE_FLAGS)
