# Two commands on a fresh machine: `make run` (build output/ from seeds/) and `make test`.
# Both create .venv and install from the hash-pinned lock first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP_FLAGS ?= --quiet --disable-pip-version-check

.PHONY: setup run test browser lock clean score

setup: $(VENV)/.installed

$(VENV)/.installed: requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install $(PIP_FLAGS) --require-hashes -r requirements.lock
	$(BIN)/pip install $(PIP_FLAGS) --no-deps --no-build-isolation -e .
	touch $@

run: setup
	$(BIN)/kg build seeds --store output/store --out output

# Headless Chromium (Debian's package) for the browser tests; needs root or sudo once.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

test: setup browser
	$(BIN)/python -m pytest -q

score: setup
	rm -rf .score && $(BIN)/kg build ../shared/eval/dev/articles --store .score/store --out .score
	$(BIN)/python ../shared/eval/score.py --graph .score/graph.ttl --queries queries --gold ../shared/eval/dev/gold --misses

# Re-resolve the lock (needs uv: pip install uv).
lock:
	uv pip compile pyproject.toml --extra test --generate-hashes --python-version 3.11 -o requirements.lock

clean:
	rm -rf $(VENV) .score output/store
